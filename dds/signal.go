package dds

import "sync"

// signal wakes the goroutines that wait for a change: each notify closes the channel
// that wait handed out, and the next wait makes a new one. Nothing is made while nobody
// waits. A waiter takes the channel before it looks at what it waits for, so that a
// change between its look and its wait is not missed:
//
//	for {
//		ch := s.wait()
//		if ready() {
//			return
//		}
//		<-ch
//	}
type signal struct {
	mu sync.Mutex
	ch chan struct{}
}

// wait returns a channel closed at the next notify.
func (s *signal) wait() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ch == nil {
		s.ch = make(chan struct{})
	}
	return s.ch
}

// notify wakes the goroutines waiting; it never blocks.
func (s *signal) notify() {
	s.mu.Lock()
	if s.ch != nil {
		close(s.ch)
		s.ch = nil
	}
	s.mu.Unlock()
}
