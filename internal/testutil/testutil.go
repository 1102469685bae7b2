// Package testutil holds small helpers that the tests of several packages share. It is
// used from _test.go files only.
package testutil

import (
	"bytes"
	"sync"
)

// Guarded is a value of type T behind a mutex, for a test that shares it between its
// own goroutine and another (an event loop, a command writing its output).
type Guarded[T any] struct {
	mu sync.Mutex
	v  T
}

// With calls f with the value while it holds the lock.
func (g *Guarded[T]) With(f func(*T)) {
	g.mu.Lock()
	defer g.mu.Unlock()
	f(&g.v)
}

// SyncBuffer is a bytes.Buffer safe for a writer and a reader goroutine: a command's
// output that a test reads while the command still writes it.
type SyncBuffer struct {
	g Guarded[bytes.Buffer]
}

// Write appends p to the buffer.
func (s *SyncBuffer) Write(p []byte) (n int, err error) {
	s.g.With(func(b *bytes.Buffer) { n, err = b.Write(p) })
	return n, err
}

// String returns what has been written so far.
func (s *SyncBuffer) String() (str string) {
	s.g.With(func(b *bytes.Buffer) { str = b.String() })
	return str
}
