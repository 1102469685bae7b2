package rhc

import (
	"cmp"
	"sort"
	"sync/atomic"

	"github.com/ddsgo/ddsgo/internal/errs"
)

// MaxQueries is how many queries a cache can have registered at once: each sample keeps
// one bit per query for the filter's verdict.
const MaxQueries = 64

// Query is a filter on sample values (a QueryCondition's). The filter is user code, so
// the cache never runs it under its lock: Evaluate copies the values the query has not
// yet judged, runs the filter on the copies with no lock held, and records each verdict
// with its sample. A Selector with the query then selects the samples whose verdict is
// true; a sample that arrived since the last Evaluate is not selected until the next.
type Query[T any] struct {
	bit    uint64
	filter func(*T) bool
	// scratch holds the pending list between evaluations; taken and put back
	// atomically, so that concurrent evaluations never share it and none holds a lock.
	scratch atomic.Pointer[[]pending[T]]
}

// pending is a value waiting for a query's verdict.
type pending[T any] struct {
	in    *instance[T]
	id    uint64
	value T
	pass  bool
}

// NewQuery returns a query with filter, for one cache. The cache gives it a bit on its
// first evaluation; Forget gives the bit back.
func NewQuery[T any](filter func(*T) bool) *Query[T] { return &Query[T]{filter: filter} }

// Forget releases q: its verdicts are erased and its bit may serve another query.
func (c *Cache[T]) Forget(q *Query[T]) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if q.bit == 0 {
		return
	}
	c.queries &^= q.bit
	for _, in := range c.order {
		for i := range in.samples.len() {
			in.samples.at(i).judged.forget(q.bit)
		}
		in.inv.judged.forget(q.bit)
	}
	q.bit = 0
}

// assign gives q a free bit if it has none; the caller holds mu.
func (c *Cache[T]) assign(q *Query[T]) error {
	if q.bit != 0 {
		return nil
	}
	for i := range MaxQueries {
		if bit := uint64(1) << i; c.queries&bit == 0 {
			c.queries |= bit
			q.bit = bit
			return nil
		}
	}
	return errs.New(errs.ErrOutOfResources, "more than %d query conditions on one reader", MaxQueries)
}

// verdicts are the query verdicts of one sample: seen has a bit per query that judged
// it, pass a bit per query that accepted it.
type verdicts struct {
	id   uint64 // the sample's identity within the cache, for recording verdicts
	seen uint64
	pass uint64
}

func (v *verdicts) forget(bit uint64) { v.seen &^= bit; v.pass &^= bit }

func (v *verdicts) record(bit uint64, pass bool) {
	v.seen |= bit
	if pass {
		v.pass |= bit
	}
}

// Evaluate runs q's filter on every sample it has not judged yet, without holding the
// cache's lock, and records the verdicts. The filter sees a copy of the stored value
// (the key value or the zero value for an invalid sample); the copy shares the value's
// slices, which the cache never changes while it holds them. More than MaxQueries
// queries in use at once is an error wrapping errs.ErrOutOfResources.
func (c *Cache[T]) Evaluate(q *Query[T]) error {
	list := q.scratch.Swap(nil)
	if list == nil {
		list = new([]pending[T])
	}
	todo, err := c.unjudged(q, (*list)[:0])
	if err != nil {
		q.scratch.Store(list)
		return err
	}
	for i := range todo {
		todo[i].pass = q.filter(&todo[i].value)
	}
	c.record(q, todo)
	clear(todo) // keep no values alive
	*list = todo[:0]
	q.scratch.Store(list)
	return nil
}

// unjudged appends to todo the samples q has not judged.
func (c *Cache[T]) unjudged(q *Query[T], todo []pending[T]) ([]pending[T], error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.assign(q); err != nil {
		return todo, err
	}
	for _, in := range c.order {
		for i := range in.samples.len() {
			if s := in.samples.at(i); s.judged.seen&q.bit == 0 {
				todo = append(todo, pending[T]{in: in, id: s.judged.id, value: s.value})
			}
		}
		if in.hasInv && in.inv.judged.seen&q.bit == 0 {
			todo = append(todo, pending[T]{in: in, id: in.inv.judged.id, value: in.inv.value})
		}
	}
	return todo, nil
}

// record stores the verdicts of todo with the samples still in the cache.
func (c *Cache[T]) record(q *Query[T], todo []pending[T]) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if q.bit == 0 {
		return // forgotten meanwhile
	}
	for i := range todo {
		p := &todo[i]
		if p.in.handle == HandleNil {
			continue // the instance left the cache
		}
		if v := p.in.verdictsOf(p.id); v != nil {
			v.record(q.bit, p.pass)
		}
	}
}

// newVerdicts returns the empty verdicts of a sample being stored, with a new identity.
func (c *Cache[T]) newVerdicts() verdicts {
	c.lastID++
	return verdicts{id: c.lastID}
}

// verdictsOf returns the verdicts of in's sample with identity id, nil when it is gone.
// The samples of an instance are in the order they were stored, so by identity.
func (in *instance[T]) verdictsOf(id uint64) *verdicts {
	if in.hasInv && in.inv.judged.id == id {
		return &in.inv.judged
	}
	i, found := sort.Find(in.samples.len(), func(i int) int {
		return cmp.Compare(id, in.samples.at(i).judged.id)
	})
	if !found {
		return nil
	}
	return &in.samples.at(i).judged
}
