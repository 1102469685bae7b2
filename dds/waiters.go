package dds

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
)

// waiter is a blocking read waiting for data: wake has room for one signal.
//
// A read waits on wake alone, not in a select with its context's Done: a two-case
// select costs about 600 instructions and two channel locks per wait, a sixth of a
// same-process round trip. The context's cancellation signals wake instead, through a
// context.AfterFunc registered for the first read that waits with that context (its
// Done channel) and kept while the waiter's reads use it, so a loop of blocking reads
// with one context registers once and allocates nothing. A signal left by a
// cancellation or by data that came for an earlier read only makes a read look once
// more for data.
type waiter struct {
	wake chan struct{}
	done <-chan struct{} // of the context whose cancellation signals wake
	stop func() bool     // unregisters that
	poke func()          // w.signal, made once
}

// signal leaves w a signal unless it has one.
func (w *waiter) signal() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// watch makes the cancellation of ctx signal w. The registration stays after the read
// for w's next reads with the same context; unwatch ends it.
func (w *waiter) watch(ctx context.Context) {
	done := ctx.Done()
	if done == nil || done == w.done {
		return
	}
	w.unwatch()
	if w.poke == nil {
		w.poke = w.signal
	}
	w.done, w.stop = done, context.AfterFunc(ctx, w.poke)
}

// unwatch ends the registration of watch.
func (w *waiter) unwatch() {
	if w.stop != nil {
		w.stop()
		w.done, w.stop = nil, nil
	}
}

// waitList holds the blocking reads of a reader that wait for data. New data (or the
// reader's deletion) signals every read in the list; a read stays in the list from
// before its first look for data until it returns, so data arriving while it looks
// leaves it a signal, and a read that finds nothing waits for the next change only: two
// reads waiting for different instances do not wake each other. The waiters are
// recycled, so a blocking read allocates nothing in steady state.
type waitList struct {
	n       atomic.Int32 // len(list), read without mu on the delivery path
	signals atomic.Uint64
	mu      sync.Mutex
	list    []*waiter
	free    []*waiter
	closed  bool // the reader is deleted: no registration outlives a read
}

// add puts a waiter in the list, before the read's first look for data.
func (l *waitList) add() *waiter {
	l.mu.Lock()
	var w *waiter
	if n := len(l.free); n > 0 {
		w, l.free[n-1] = l.free[n-1], nil
		l.free = l.free[:n-1]
	} else {
		w = &waiter{wake: make(chan struct{}, 1)}
	}
	l.list = append(l.list, w)
	l.n.Store(int32(len(l.list)))
	l.mu.Unlock()
	return w
}

// done takes w out of the list for reuse: its read returns.
func (l *waitList) done(w *waiter) {
	l.mu.Lock()
	if i := slices.Index(l.list, w); i >= 0 {
		last := len(l.list) - 1
		l.list[i], l.list[last] = l.list[last], nil // the order does not matter
		l.list = l.list[:last]
		l.n.Store(int32(last))
	}
	if len(w.wake) > 0 { // a signal it did not wait for
		<-w.wake
	}
	if l.closed {
		w.unwatch()
	}
	l.free = append(l.free, w)
	l.mu.Unlock()
}

// wakeAll signals every waiting read that has no signal yet.
func (l *waitList) wakeAll() {
	if l.n.Load() == 0 {
		return // nobody waits: the common case
	}
	l.mu.Lock()
	for _, w := range l.list {
		select {
		case w.wake <- struct{}{}:
			l.signals.Add(1)
		default: // signaled already, not woken yet
		}
	}
	l.mu.Unlock()
}

// close ends the context registrations of the waiters, for the reader's deletion.
func (l *waitList) close() {
	l.mu.Lock()
	l.closed = true
	for _, w := range l.free {
		w.unwatch()
	}
	l.mu.Unlock()
}
