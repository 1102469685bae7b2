package dds

import (
	"errors"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/ddsgo/ddsgo/dds/internal/rhc"
	"github.com/ddsgo/ddsgo/internal/errs"
	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/sqlfilter"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/waitset"
)

// ContentFilteredTopic is a topic whose readers get only the samples of the related
// topic that a DDS-SQL filter accepts (ContentFilteredTopic of DDS 1.4 §2.2.2.3.3).
// Make one with NewContentFilteredTopic and read it with NewFilteredReader.
//
// The filter is the spec's SQL subset (DDS 1.4 Annex B, docs/filter.md): predicates
// on members (x > 5, pos.y BETWEEN %0 AND %1, name LIKE 'A%', kind = RED) joined by
// AND, OR, NOT. Readers apply it to the samples of every writer, local or remote, and
// announce it in discovery, so that writers that can (ddsgo's, Fast DDS's) send only
// what passes. Unlike a Topic, it is not an Entity: it has no QoS, listener or status.
type ContentFilteredTopic[T any] struct {
	name    string
	related *Topic[T]
	// filter is the compiled expression with its current parameters.
	filter atomic.Pointer[sqlfilter.Filter]

	// mu guards readers; it is never held while taking another lock of the package.
	mu      sync.Mutex
	readers []*DataReader[T]
}

// NewContentFilteredTopic creates the content-filtered topic name over related, with
// filter expression expr and the values of its parameters %0, %1, ...
// (create_contentfilteredtopic). A syntax error, a member T does not have, a value of
// the wrong type or a missing parameter is ErrBadParameter naming it.
func NewContentFilteredTopic[T any](name string, related *Topic[T], expr string, params ...string) (*ContentFilteredTopic[T], error) {
	if related == nil {
		return nil, errorf(ErrBadParameter, "nil related topic")
	}
	if err := related.alive(); err != nil {
		return nil, err
	}
	if name == "" {
		return nil, errorf(ErrBadParameter, "a content-filtered topic needs a name")
	}
	f, err := sqlfilter.Compile(reflect.TypeFor[T](), expr, params)
	if err != nil {
		return nil, filterErr(err, "content-filtered topic "+name)
	}
	c := &ContentFilteredTopic[T]{name: name, related: related}
	c.filter.Store(f)
	return c, nil
}

// Name returns the content-filtered topic's name.
func (c *ContentFilteredTopic[T]) Name() string { return c.name }

// RelatedTopic returns the topic whose samples are filtered (get_related_topic).
func (c *ContentFilteredTopic[T]) RelatedTopic() *Topic[T] { return c.related }

// FilterExpression returns the filter expression (get_filter_expression).
func (c *ContentFilteredTopic[T]) FilterExpression() string { return c.filter.Load().Expression() }

// ExpressionParameters returns a copy of the values of the parameters
// (get_expression_parameters).
func (c *ContentFilteredTopic[T]) ExpressionParameters() []string { return c.filter.Load().Params() }

// SetExpressionParameters changes the values of the parameters
// (set_expression_parameters): the samples that arrive from then on are filtered
// with them, and the readers announce them. Values the expression cannot use are
// ErrBadParameter and change nothing.
func (c *ContentFilteredTopic[T]) SetExpressionParameters(params ...string) error {
	f, err := sqlfilter.Compile(reflect.TypeFor[T](), c.filter.Load().Expression(), params)
	if err != nil {
		return filterErr(err, "content-filtered topic "+c.name)
	}
	c.mu.Lock()
	c.filter.Store(f)
	readers := slices.Clone(c.readers)
	c.mu.Unlock()
	for _, r := range readers {
		r.filterChanged()
	}
	return nil
}

// NewFilteredReader creates a reader of the content-filtered topic c
// (create_datareader with a ContentFilteredTopic): a reader of c's related topic, with
// the same options as NewReader, that keeps only the samples c's filter accepts.
// Disposes and unregisters are not filtered.
func NewFilteredReader[T any](c *ContentFilteredTopic[T], opts ...Option) (*DataReader[T], error) {
	if c == nil {
		return nil, errorf(ErrBadParameter, "nil content-filtered topic")
	}
	r, err := newReader(c.related, c, opts)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if !r.deleted.Load() {
		c.readers = append(c.readers, r)
	}
	c.mu.Unlock()
	return r, nil
}

// passes reports whether the content filter, if any, accepts the change: a write whose
// value it rejects is not stored. It runs on the receive path and allocates nothing.
func (r *DataReader[T]) passes(ch *rhc.Change[T]) bool {
	if r.cft == nil || ch.Kind != rhc.Write {
		return true
	}
	return r.cft.filter.Load().Match(reflect.ValueOf(&ch.Value))
}

// ddsSQL is the filter class name of DDS-SQL (DDS-RTPS 2.5 §9.6.3.1).
const ddsSQL = "DDSSQL"

// contentFilterProperty returns what the reader announces of its content filter
// (PID_CONTENT_FILTER_PROPERTY), nil without one.
func (r *DataReader[T]) contentFilterProperty() *wire.ContentFilterProperty {
	if r.cft == nil {
		return nil
	}
	f := r.cft.filter.Load()
	return &wire.ContentFilterProperty{
		ContentFilteredTopicName: r.cft.name,
		RelatedTopicName:         r.topic.name,
		FilterClassName:          ddsSQL,
		FilterExpression:         f.Expression(),
		ExpressionParameters:     f.Params(),
	}
}

// filterUpdater is the engine reader's way to announce a new content filter.
type filterUpdater interface {
	UpdateContentFilter(*wire.ContentFilterProperty) error
}

// filterChanged announces the reader's content filter after its parameters changed.
func (r *DataReader[T]) filterChanged() {
	r.p.opMu.Lock()
	defer r.p.opMu.Unlock()
	if r.deleted.Load() || !r.enabled.Load() {
		return
	}
	if u, ok := r.er.(filterUpdater); ok {
		_ = u.UpdateContentFilter(r.contentFilterProperty()) // fails only once closed
	}
}

// dropReader forgets a deleted reader of c.
func (c *ContentFilteredTopic[T]) dropReader(r *DataReader[T]) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.readers = slices.DeleteFunc(c.readers, func(o *DataReader[T]) bool { return o == r })
}

// CreateQueryConditionSQL creates a query condition whose filter is the DDS-SQL
// expression expr with the parameter values params (create_querycondition with
// query_expression and query_parameters): the grammar of ContentFilteredTopic. It
// behaves as CreateQueryCondition with the compiled expression as its filter.
func (r *DataReader[T]) CreateQueryConditionSQL(st States, expr string, params ...string) (*QueryCondition[T], error) {
	f, err := sqlfilter.Compile(reflect.TypeFor[T](), expr, params)
	if err != nil {
		return nil, filterErr(err, "query condition of reader of "+r.topic.name)
	}
	holder := new(atomic.Pointer[sqlfilter.Filter])
	holder.Store(f)
	c, err := r.createCondition(st, func(v *T) bool { return holder.Load().Match(reflect.ValueOf(v)) })
	if err != nil {
		return nil, err
	}
	c.sql = holder
	return c, nil
}

// QueryExpression returns the DDS-SQL expression of a condition made with
// CreateQueryConditionSQL, "" for another condition (get_query_expression).
func (c *ReadCondition[T]) QueryExpression() string {
	if c.sql == nil {
		return ""
	}
	return c.sql.Load().Expression()
}

// QueryParameters returns a copy of the parameter values of a condition made with
// CreateQueryConditionSQL, nil for another condition (get_query_parameters).
func (c *ReadCondition[T]) QueryParameters() []string {
	if c.sql == nil {
		return nil
	}
	return c.sql.Load().Params()
}

// SetQueryParameters changes the parameter values of a condition made with
// CreateQueryConditionSQL (set_query_parameters); the samples in the reader are judged
// again with them. On another condition it is ErrPreconditionNotMet; values the
// expression cannot use are ErrBadParameter and change nothing.
func (c *ReadCondition[T]) SetQueryParameters(params ...string) error {
	if c.sql == nil {
		return errorf(ErrPreconditionNotMet, "not a query condition made from an SQL expression")
	}
	if c.deleted.Load() {
		return ErrAlreadyDeleted
	}
	f, err := sqlfilter.Compile(reflect.TypeFor[T](), c.sql.Load().Expression(), params)
	if err != nil {
		return filterErr(err, "query condition of reader of "+c.r.topic.name)
	}
	c.r.cmu.Lock()
	c.sql.Store(f)
	if cache := c.r.cache.Load(); cache != nil {
		cache.Forget(c.sel.Query) // the verdicts of the old parameters
	}
	c.r.cmu.Unlock()
	waitset.Notify(c)
	return nil
}

// readerFilter compiles the content filter a matched reader announced, for the
// writer to send it only what passes (writer-side filtering). It returns nil, and the
// reader gets every change, for a filter class other than DDSSQL, another related
// topic, or an expression T's members cannot satisfy.
func (w *DataWriter[T]) readerFilter(cf *wire.ContentFilterProperty) rtps.ReaderFilter {
	if cf.FilterClassName != ddsSQL || cf.RelatedTopicName != w.topic.name {
		return nil
	}
	f, err := sqlfilter.Compile(reflect.TypeFor[T](), cf.FilterExpression, cf.ExpressionParameters)
	if err != nil {
		return nil
	}
	codec, v := w.codec, new(T)
	// The engine calls it with the writer's lock held, one call at a time.
	return func(payload []byte) bool {
		var zero T
		*v = zero
		if codec.Unmarshal(payload, v) != nil {
			return true // the reader decides
		}
		return f.Match(reflect.ValueOf(v))
	}
}

// filterErr is err, an error of sqlfilter, said of what.
func filterErr(err error, what string) error {
	if e, ok := errors.AsType[*errs.E](err); ok {
		return errorf(e.Code, "%s: %s", what, e.Msg)
	}
	return wrapErr(ErrBadParameter, err, what)
}
