package waitset

import (
	"context"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/ddsgo/ddsgo/internal/ctxwake"
	"github.com/ddsgo/ddsgo/internal/errs"
)

var (
	errConcurrentWait = errs.New(errs.ErrPreconditionNotMet, "another goroutine is waiting on the wait set")
	errNotAttached    = errs.New(errs.ErrPreconditionNotMet, "the condition is not attached to the wait set")
	errNilCondition   = errs.New(errs.ErrBadParameter, "nil condition")
)

// Condition is a condition a WaitSet waits for (Condition of DDS 1.4 §2.2.2.1.7). Its
// trigger value may be computed in any way; whenever it may have become true, its
// owner must call Notify with it. The unexported method is provided by embedding
// Trigger, which is how other packages implement conditions:
//
//	type StatusCondition struct {
//		waitset.Trigger
//		...
//	}
//
//	func (c *StatusCondition) TriggerValue() bool { ... }
type Condition interface {
	// TriggerValue reports whether the condition is triggered. A WaitSet calls it
	// without holding any lock of its own, so it may take the owner's locks.
	TriggerValue() bool
	trigger() *Trigger
}

// Trigger connects a condition to the WaitSets it is attached to. Embed it in a
// condition type (its zero value is ready) and call Notify with the condition when its
// trigger value may have become true. It must not be copied after first use.
type Trigger struct {
	n    atomic.Int32 // len(sets), read without mu by notify
	mu   sync.Mutex
	sets []*WaitSet
}

func (t *Trigger) trigger() *Trigger { return t }

// Notify wakes the goroutines waiting on the WaitSets c is attached to, so that they
// evaluate the trigger values again: the owner of a condition calls it when the trigger
// value may have become true. It never blocks and allocates nothing; it may be called
// with the caller's locks held, since it takes only c's Trigger's lock.
func Notify(c Condition) { c.trigger().notify() }

func (t *Trigger) notify() {
	if t.n.Load() == 0 {
		return // attached to no WaitSet: the common case of a reader's conditions
	}
	t.mu.Lock()
	for _, ws := range t.sets {
		ws.wake()
	}
	t.mu.Unlock()
}

func (t *Trigger) attach(ws *WaitSet) {
	t.mu.Lock()
	t.sets = append(t.sets, ws)
	t.n.Store(int32(len(t.sets)))
	t.mu.Unlock()
}

func (t *Trigger) detach(ws *WaitSet) {
	t.mu.Lock()
	for i, s := range t.sets {
		if s == ws {
			last := len(t.sets) - 1
			t.sets[i] = t.sets[last]
			t.sets[last] = nil
			t.sets = t.sets[:last]
			t.n.Store(int32(last))
			break
		}
	}
	t.mu.Unlock()
}

// GuardCondition is a condition whose trigger value the application sets (GuardCondition
// of DDS 1.4 §2.2.2.1.8). The zero value is a guard condition that is not triggered; it
// must not be copied after first use.
type GuardCondition struct {
	Trigger
	value atomic.Bool
}

// TriggerValue reports the value last set.
func (g *GuardCondition) TriggerValue() bool { return g.value.Load() }

// SetTriggerValue sets the trigger value; setting it to true wakes the WaitSets the
// condition is attached to. It is safe to call from any goroutine.
func (g *GuardCondition) SetTriggerValue(v bool) {
	g.value.Store(v)
	if v {
		g.notify()
	}
}

// WaitSet blocks a goroutine until one of its conditions triggers (WaitSet of DDS 1.4
// §2.2.2.1.6). A condition may be attached to several WaitSets. Only one goroutine at a
// time may wait on a WaitSet; attaching and detaching are safe at any time, also while
// another goroutine waits. The zero value is an empty WaitSet; it must not be copied
// after first use.
type WaitSet struct {
	waiting atomic.Bool

	mu      sync.Mutex
	conds   []Condition
	wakeCh  chan struct{} // capacity 1: a pending wake-up
	scratch []Condition   // the waiter's snapshot of conds

	// The waiter's context registration, kept from one wait to the next (ctxwake), and
	// the cleanup that ends it when ws is collected.
	reg     ctxwake.Watch
	cleanup runtime.Cleanup
}

// New returns an empty WaitSet.
func New() *WaitSet {
	ws := &WaitSet{}
	ws.init()
	return ws
}

// init makes the wake channel; ws.mu is held or ws is not shared yet.
func (ws *WaitSet) init() {
	if ws.wakeCh == nil {
		ws.wakeCh = make(chan struct{}, 1)
	}
}

// wake leaves a wake-up for the waiter, if there is none pending already.
func (ws *WaitSet) wake() {
	select {
	case ws.wakeCh <- struct{}{}:
	default:
	}
}

// AttachCondition attaches c (attach_condition). Attaching an attached condition again
// does nothing. A waiting goroutine evaluates the new condition at once.
func (ws *WaitSet) AttachCondition(c Condition) error {
	if c == nil {
		return errNilCondition
	}
	ws.mu.Lock()
	defer ws.mu.Unlock()
	ws.init()
	t := c.trigger()
	if ws.index(t) >= 0 {
		return nil
	}
	ws.conds = append(ws.conds, c)
	t.attach(ws)
	ws.wake()
	return nil
}

// DetachCondition detaches c (detach_condition). It returns an error wrapping
// ErrPreconditionNotMet when c is not attached.
func (ws *WaitSet) DetachCondition(c Condition) error {
	if c == nil {
		return errNilCondition
	}
	ws.mu.Lock()
	defer ws.mu.Unlock()
	t := c.trigger()
	i := ws.index(t)
	if i < 0 {
		return errNotAttached
	}
	ws.conds = slices.Delete(ws.conds, i, i+1)
	t.detach(ws)
	return nil
}

// index returns the position of the condition with Trigger t, or -1. Conditions are
// told apart by their Trigger, which also works for condition types that are not
// comparable. ws.mu is held.
func (ws *WaitSet) index(t *Trigger) int {
	for i, a := range ws.conds {
		if a.trigger() == t {
			return i
		}
	}
	return -1
}

// Conditions returns the attached conditions (get_conditions), in the order they were
// attached.
func (ws *WaitSet) Conditions() []Condition {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return append([]Condition(nil), ws.conds...)
}

// Wait blocks until at least one attached condition is triggered and returns the
// triggered ones (wait). See WaitInto.
func (ws *WaitSet) Wait(ctx context.Context) ([]Condition, error) {
	return ws.WaitInto(ctx, nil)
}

// WaitInto blocks until at least one attached condition is triggered, and returns dst[:0]
// with the triggered conditions appended. When conditions are triggered already it
// returns them at once, even if ctx is done, and allocates nothing if dst has room.
//
// The context bounds the wait instead of the spec's timeout argument: when it is done
// first, WaitInto returns its error (context.DeadlineExceeded or context.Canceled),
// wrapped. A second goroutine calling Wait or WaitInto while one waits gets an error
// matching dds.ErrPreconditionNotMet at once, as DDS prescribes.
func (ws *WaitSet) WaitInto(ctx context.Context, dst []Condition) ([]Condition, error) {
	dst = dst[:0]
	if !ws.waiting.CompareAndSwap(false, true) {
		return dst, errConcurrentWait
	}
	defer ws.waiting.Store(false)
	for {
		ws.mu.Lock()
		ws.init()
		wakeCh := ws.wakeCh
		// Consume a pending wake-up before evaluating: a Notify from now on leaves a new
		// one, so no change between the evaluation and the select below is missed.
		select {
		case <-wakeCh:
		default:
		}
		ws.scratch = append(ws.scratch[:0], ws.conds...)
		ws.mu.Unlock()

		for _, c := range ws.scratch {
			if c.TriggerValue() {
				dst = append(dst, c)
			}
		}
		clear(ws.scratch) // hold no detached condition
		if len(dst) > 0 {
			return dst, nil
		}

		ws.watch(ctx, wakeCh)
		if err := ctx.Err(); err != nil { // after watch: a later cancellation wakes ws
			return dst, errs.Context(err, "wait set")
		}
		<-wakeCh
	}
}

// watch makes the cancellation of ctx leave a wake-up on wakeCh (ctxwake: no select on
// ctx.Done() per wait). The registration's callback holds the channel only, so it does
// not keep ws alive; a cleanup ends it when ws is collected.
func (ws *WaitSet) watch(ctx context.Context, wakeCh chan struct{}) {
	if stop := ws.reg.Set(ctx, wakeCh); stop != nil {
		ws.cleanup.Stop()
		ws.cleanup = runtime.AddCleanup(ws, func(stop func() bool) { stop() }, stop)
	}
}
