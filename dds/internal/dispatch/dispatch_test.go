package dispatch

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestCoalesceAndOrder(t *testing.T) {
	d := New()
	defer d.Close()
	var mu sync.Mutex
	var got []uint32
	block := make(chan struct{})
	var a, b Slot
	a.Handle = func(k uint32) {
		<-block
		mu.Lock()
		got = append(got, k)
		mu.Unlock()
	}
	b.Handle = func(k uint32) {
		mu.Lock()
		got = append(got, k<<8)
		mu.Unlock()
	}
	d.Post(&a, 1) // a is handled, blocked
	for !d.InHandler() {
		runtime.Gosched()
	}
	d.Post(&a, 2)
	d.Post(&b, 1)
	d.Post(&a, 4) // coalesced with the queued 2
	close(block)
	d.Sync()
	require.Equal(t, []uint32{1, 6, 1 << 8}, got)
}

func TestCloseFromHandler(t *testing.T) {
	d := New()
	var s Slot
	done := make(chan struct{})
	s.Handle = func(uint32) {
		d.Close()
		close(done)
	}
	d.Post(&s, 1)
	<-done
	<-d.done
	d.Post(&s, 1) // no effect after close
	d.Sync()
}

// Close from another goroutine waits for the handler that is running.
func TestCloseWaitsForHandler(t *testing.T) {
	d := New()
	var s Slot
	entered, release := make(chan struct{}), make(chan struct{})
	var finished atomic.Bool
	s.Handle = func(uint32) {
		close(entered)
		<-release
		finished.Store(true)
	}
	d.Post(&s, 1)
	<-entered
	closed := make(chan struct{})
	go func() {
		d.Close()
		close(closed)
	}()
	select {
	case <-closed:
		t.Fatal("Close returned while a handler was running")
	case <-time.After(20 * time.Millisecond):
	}
	close(release)
	<-closed
	require.True(t, finished.Load())
}

func TestPostAllocs(t *testing.T) {
	d := New()
	defer d.Close()
	var s Slot
	s.Handle = func(uint32) {}
	for range 10 {
		d.Post(&s, 1)
		d.Sync()
	}
	allocs := testing.AllocsPerRun(1000, func() { d.Post(&s, 1) })
	require.Zero(t, allocs)
}
