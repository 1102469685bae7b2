package dds

import (
	"slices"
	"sync/atomic"

	"github.com/ddsgo/ddsgo/dds/internal/rhc"
	"github.com/ddsgo/ddsgo/internal/sqlfilter"
	"github.com/ddsgo/ddsgo/waitset"
)

// ReadCondition is a condition on the samples of a reader (ReadCondition of DDS 1.4
// §2.2.2.5.8): it is triggered while the reader has samples in its states, and, for a
// QueryCondition, whose value the filter accepts. Attach it to a waitset.WaitSet and
// read or take with the WithCondition option (read_w_condition, take_w_condition).
type ReadCondition[T any] struct {
	waitset.Trigger
	r       *DataReader[T]
	states  States
	sel     rhc.Selector[T]
	deleted atomic.Bool
	// sql is the filter of a query condition made from a DDS-SQL expression
	// (filter.go), nil otherwise.
	sql *atomic.Pointer[sqlfilter.Filter]
}

// QueryCondition is a ReadCondition with a filter on the sample values
// (QueryCondition of DDS 1.4 §2.2.2.5.9): a DDS-SQL expression
// (CreateQueryConditionSQL) or a Go function (CreateQueryCondition).
type QueryCondition[T any] = ReadCondition[T]

// TriggerValue reports whether the reader has samples the condition selects. The
// condition of a deleted reader is triggered, so that a WaitSet waiting on it returns;
// the reader's operations then return ErrAlreadyDeleted.
func (c *ReadCondition[T]) TriggerValue() bool {
	if c.deleted.Load() {
		return c.r.deleted.Load()
	}
	cache := c.r.cache.Load()
	if cache == nil || c.r.judge(cache, &c.sel) != nil {
		return false
	}
	return cache.Matches(&c.sel)
}

// DataReader returns the condition's reader (get_datareader).
func (c *ReadCondition[T]) DataReader() *DataReader[T] { return c.r }

// States returns the states the condition selects (get_sample_state_mask,
// get_view_state_mask, get_instance_state_mask).
func (c *ReadCondition[T]) States() States { return c.states }

// CreateReadCondition creates a condition triggered while the reader has samples in the
// states st (create_readcondition).
func (r *DataReader[T]) CreateReadCondition(st States) (*ReadCondition[T], error) {
	return r.createCondition(st, nil)
}

// CreateQueryCondition creates a condition triggered while the reader has samples in
// the states st that filter accepts (create_querycondition). The filter runs once per
// sample, when the condition's trigger value or a read or take with the condition needs
// it, in that caller's goroutine and outside every lock of the library: it may call the
// reader. It sees a copy of the sample's value (the key fields only for an instance
// state change), which it must not keep or change. A reader has at most 64 query
// conditions at once; beyond, ErrOutOfResources.
func (r *DataReader[T]) CreateQueryCondition(st States, filter func(*T) bool) (*QueryCondition[T], error) {
	if filter == nil {
		return nil, errorf(ErrBadParameter, "nil filter")
	}
	return r.createCondition(st, filter)
}

func (r *DataReader[T]) createCondition(st States, filter func(*T) bool) (*ReadCondition[T], error) {
	if err := r.alive(); err != nil {
		return nil, err
	}
	c := &ReadCondition[T]{r: r, states: st, sel: selectorOf[T](st)}
	r.cmu.Lock()
	defer r.cmu.Unlock()
	if filter != nil {
		n := 0
		for _, o := range r.conds {
			if o.sel.Query != nil {
				n++
			}
		}
		if n >= rhc.MaxQueries {
			return nil, errorf(ErrOutOfResources, "reader of %s: %d query conditions already", r.topic.name, n)
		}
		c.sel.Query = rhc.NewQuery(filter)
	}
	r.conds = append(r.conds, c)
	return c, nil
}

// forget marks the conditions cs deleted, wakes their waitsets when wake is set, and
// releases their queries; the caller holds cmu.
func (r *DataReader[T]) forget(cs []*ReadCondition[T], wake bool) {
	cache := r.cache.Load()
	for _, c := range cs {
		c.deleted.Store(true)
		if wake {
			waitset.Notify(c)
		}
		if cache != nil && c.sel.Query != nil {
			cache.Forget(c.sel.Query)
		}
	}
}

// DeleteReadCondition deletes a read or query condition of the reader
// (delete_readcondition).
func (r *DataReader[T]) DeleteReadCondition(c *ReadCondition[T]) error {
	if err := r.alive(); err != nil {
		return err
	}
	r.cmu.Lock()
	defer r.cmu.Unlock()
	i := slices.Index(r.conds, c)
	if i < 0 {
		return errorf(ErrPreconditionNotMet, "the condition is not the reader's")
	}
	r.conds = slices.Delete(r.conds, i, i+1)
	r.forget([]*ReadCondition[T]{c}, false)
	return nil
}
