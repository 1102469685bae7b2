package dispatch

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/goid"
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

// Close called by a handler returns (it cannot wait for itself), the dispatcher's
// goroutine ends after that handler, and what is posted after Close never runs.
func TestCloseFromHandler(t *testing.T) {
	d := New()
	var s Slot
	var calls atomic.Int32
	done := make(chan struct{})
	s.Handle = func(uint32) {
		calls.Add(1)
		d.Close()
		close(done)
	}
	d.Post(&s, 1)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close from the handler did not return")
	}
	select {
	case <-d.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the dispatcher goroutine did not end after Close")
	}
	d.Post(&s, 1)
	d.Sync()
	require.Equal(t, int32(1), calls.Load(), "a handler ran after Close")
}

// Close from another goroutine waits for the handler that is running.
func TestCloseWaitsForHandler(t *testing.T) {
	d := New()
	requireCloseWaits(t, d, func(s *Slot) { d.Post(s, 1) }, "a handler")
}

// requireCloseWaits has post make d run a handler that blocks, and checks that Close
// from another goroutine returns only after that handler did; what names the runner.
func requireCloseWaits(t *testing.T, d *Dispatcher, post func(*Slot), what string) {
	t.Helper()
	var s Slot
	entered, release := make(chan struct{}), make(chan struct{})
	var finished atomic.Bool
	s.Handle = func(uint32) {
		close(entered)
		<-release
		finished.Store(true)
	}
	post(&s)
	<-entered
	closed := make(chan struct{})
	go func() {
		d.Close()
		close(closed)
	}()
	select {
	case <-closed:
		t.Fatalf("Close returned while %s was running", what)
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

// A receiving goroutine's posts run on it, in Help, without waking the dispatcher's
// goroutine; posts of others between Receiving and Help run there too, in order.
func TestHelpRunsOnCaller(t *testing.T) {
	d := New()
	defer d.Close()
	me := goid.Get()
	var ran []uint64
	var a, b Slot
	a.Handle = func(uint32) { ran = append(ran, goid.Get()) }
	b.Handle = func(uint32) { ran = append(ran, goid.Get()+1<<32) }
	for range 100 {
		ran = ran[:0]
		d.Receiving()
		d.Post(&a, 1)
		done := make(chan struct{})
		go func() { d.Post(&b, 1); close(done) }() // another poster
		<-done
		d.Help(me)
		require.Equal(t, []uint64{me, me + 1<<32}, ran)
		require.Len(t, d.wake, 0, "the dispatcher's goroutine was woken")
	}
	a.Handle = func(uint32) {}
	allocs := testing.AllocsPerRun(1000, func() {
		d.Receiving()
		d.Post(&a, 1)
		d.Help(me)
	})
	require.Zero(t, allocs)
}

// While the dispatcher's goroutine runs a handler, Help leaves the work to it and
// returns; nothing posted is lost.
func TestHelpWhileDispatcherRuns(t *testing.T) {
	d := New()
	defer d.Close()
	entered, release := make(chan struct{}), make(chan struct{})
	var a, b Slot
	a.Handle = func(uint32) {
		close(entered)
		<-release
	}
	var by atomic.Uint64
	b.Handle = func(uint32) { by.Store(goid.Get()) }
	d.Post(&a, 1)
	<-entered
	d.Receiving()
	d.Post(&b, 1)
	d.Help(goid.Get()) // returns at once: a is running
	close(release)
	d.Sync()
	require.Equal(t, d.gid.Load(), by.Load())
}

// The last Help of overlapping receivers wakes the goroutine for a post that came
// after the drain of the first.
func TestHelpNoLostWakeup(t *testing.T) {
	d := New()
	defer d.Close()
	var s Slot
	var n atomic.Int32
	s.Handle = func(uint32) { n.Add(1) }
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 2000 {
				d.Receiving()
				if (i+g)%3 != 0 {
					d.Post(&s, 1)
				}
				d.Help(uint64(1000 + g))
			}
		})
	}
	wg.Wait()
	d.Post(&s, 2)
	d.Sync()
	require.Zero(t, s.pending.Load())
	require.False(t, s.queued.Load())
}

// Close from a handler that a helper runs returns at once; Close from elsewhere waits
// for a helper's handler.
func TestCloseAndHelpers(t *testing.T) {
	d := New()
	var s Slot
	s.Handle = func(uint32) { d.Close() }
	d.Receiving()
	d.Post(&s, 1)
	d.Help(goid.Get())
	<-d.done

	d = New()
	requireCloseWaits(t, d, func(s *Slot) {
		go func() {
			d.Receiving()
			d.Post(s, 1)
			d.Help(goid.Get())
		}()
	}, "a helper's handler")
}
