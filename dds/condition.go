package dds

import (
	"slices"
	"sync/atomic"

	"github.com/ddsgo/ddsgo/dds/internal/rhc"
	"github.com/ddsgo/ddsgo/waitset"
)

// ReadCondition is a condition on the samples of a reader (ReadCondition of DDS 1.4
// §2.2.2.5.8): it is triggered while the reader has samples in its states, and, for a
// QueryCondition, whose value the filter accepts. Attach it to a waitset.WaitSet and
// read with DataReader.ReadWithCondition.
type ReadCondition[T any] struct {
	waitset.Trigger
	r       *DataReader[T]
	states  States
	sel     rhc.Selector[T]
	deleted atomic.Bool
}

// QueryCondition is a ReadCondition with a filter on the sample values
// (QueryCondition of DDS 1.4 §2.2.2.5.9, with a Go function instead of an SQL
// expression).
type QueryCondition[T any] = ReadCondition[T]

// TriggerValue reports whether the reader has samples the condition selects. The
// condition of a deleted reader is triggered, so that a WaitSet waiting on it returns;
// the reader's operations then return ErrAlreadyDeleted.
func (c *ReadCondition[T]) TriggerValue() bool {
	if c.deleted.Load() {
		return c.r.deleted.Load()
	}
	cache := c.r.cache.Load()
	return cache != nil && cache.Matches(&c.sel)
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
// the states st that filter accepts (create_querycondition). The filter runs under the
// reader's cache lock: it must be quick, must not keep the pointer and must not call the
// reader.
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
	c := &ReadCondition[T]{r: r, states: st, sel: rhc.Selector[T]{
		SampleStates:   rhc.SampleState(st.Sample),
		ViewStates:     rhc.ViewState(st.View),
		InstanceStates: rhc.InstanceState(st.Instance),
		Filter:         filter,
	}}
	r.cmu.Lock()
	r.conds = append(r.conds, c)
	r.cmu.Unlock()
	return c, nil
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
	c.deleted.Store(true)
	return nil
}
