package dds

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/ddsgo/ddsgo/internal/ctxwake"
)

// waiter is a blocking read waiting for data: wake has room for one signal. It waits on
// wake alone; its context's cancellation signals wake through reg (ctxwake), whose
// registration stays for the waiter's next reads with the same context.
type waiter struct {
	wake chan struct{}
	reg  ctxwake.Watch
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
		w.reg.Stop()
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
		w.reg.Stop()
	}
	l.mu.Unlock()
}
