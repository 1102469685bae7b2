package dds

import (
	"slices"
	"sync"
	"sync/atomic"
)

// waiter is a blocking read waiting for data: wake has room for one signal.
type waiter struct{ wake chan struct{} }

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
	if len(w.wake) > 0 { // a signal it did not wait for (sent under mu only)
		<-w.wake
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
