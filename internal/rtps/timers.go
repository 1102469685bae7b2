package rtps

import (
	"container/heap"
	"time"
)

// Timer is a deadline of an [Engine]: the event loop calls its function at
// the time last scheduled, on the event loop goroutine, and schedules it
// again at the time the function returns (zero: not again). Writers and
// readers created by the engine have one each; discovery adds its own
// (announcements, lease expiry).
type Timer struct {
	e       *Engine
	fn      func(now time.Time) time.Time
	at      time.Time // zero: not scheduled
	idx     int       // position in the heap, -1 when not in it
	running bool      // fn is being called; Schedule only records at
	stopped bool
}

// NewTimer returns an unscheduled timer that calls fn on the event loop.
// fn must not block; it returns the next deadline (zero: none).
func (e *Engine) NewTimer(fn func(now time.Time) time.Time) *Timer {
	return &Timer{e: e, fn: fn, idx: -1}
}

// Schedule makes the timer fire at at, unless it is already due earlier.
// A zero at is ignored. It may be called from any goroutine, also with an
// endpoint's lock held (it is the endpoints' Schedule callback).
func (t *Timer) Schedule(at time.Time) {
	if at.IsZero() {
		return
	}
	e := t.e
	e.timerMu.Lock()
	if t.stopped || (!t.at.IsZero() && !at.Before(t.at)) {
		e.timerMu.Unlock()
		return
	}
	t.at = at
	switch {
	case t.running: // merged when fn returns
	case t.idx >= 0:
		heap.Fix(&e.timers, t.idx)
	default:
		heap.Push(&e.timers, t)
	}
	first := e.timers.Len() > 0 && e.timers[0] == t
	e.timerMu.Unlock()
	if first {
		e.wakeUp()
	}
}

// Stop unschedules the timer for good.
func (t *Timer) Stop() {
	e := t.e
	e.timerMu.Lock()
	t.stopped = true
	if t.idx >= 0 {
		heap.Remove(&e.timers, t.idx)
	}
	t.at = time.Time{}
	e.timerMu.Unlock()
}

// timerHeap orders timers by deadline (container/heap).
type timerHeap []*Timer

func (h timerHeap) Len() int           { return len(h) }
func (h timerHeap) Less(i, j int) bool { return h[i].at.Before(h[j].at) }
func (h timerHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].idx, h[j].idx = i, j
}

func (h *timerHeap) Push(x any) {
	t := x.(*Timer)
	t.idx = len(*h)
	*h = append(*h, t)
}

func (h *timerHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	t.idx = -1
	return t
}

// nextDeadline returns the earliest deadline (zero: none).
func (e *Engine) nextDeadline() time.Time {
	e.timerMu.Lock()
	defer e.timerMu.Unlock()
	if len(e.timers) == 0 {
		return time.Time{}
	}
	return e.timers[0].at
}

// runTimers calls the timers due at now and schedules them again.
func (e *Engine) runTimers(now time.Time) {
	e.timerMu.Lock()
	due := e.dueScratch[:0]
	for len(e.timers) > 0 && !e.timers[0].at.After(now) {
		t := heap.Pop(&e.timers).(*Timer)
		t.at = time.Time{}
		t.running = true
		due = append(due, t)
	}
	e.timerMu.Unlock()
	for i, t := range due {
		next := t.fn(now)
		e.timerMu.Lock()
		t.running = false
		if !t.stopped {
			if !next.IsZero() && (t.at.IsZero() || next.Before(t.at)) {
				t.at = next
			}
			if !t.at.IsZero() {
				heap.Push(&e.timers, t)
			}
		}
		e.timerMu.Unlock()
		due[i] = nil
	}
	e.dueScratch = due[:0]
}
