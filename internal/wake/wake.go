// Package wake is the library's one way for goroutines to wait for a change without
// polling: a Signal hands out a channel that its next Notify closes.
package wake

import "sync"

// Signal wakes the goroutines that wait for a change: each Notify closes the channel
// that Wait handed out, and the next Wait makes a new one. Nothing is made while nobody
// waits. A waiter takes the channel before it looks at what it waits for, so that a
// change between its look and its wait is not missed:
//
//	for {
//		ch := s.Wait()
//		if ready() {
//			return
//		}
//		<-ch
//	}
//
// The zero Signal is ready to use; it must not be copied after first use.
type Signal struct {
	mu sync.Mutex
	ch chan struct{}
}

// Wait returns a channel closed at the next Notify.
func (s *Signal) Wait() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ch == nil {
		s.ch = make(chan struct{})
	}
	return s.ch
}

// Notify wakes the goroutines waiting; it never blocks.
func (s *Signal) Notify() {
	s.mu.Lock()
	if s.ch != nil {
		close(s.ch)
		s.ch = nil
	}
	s.mu.Unlock()
}
