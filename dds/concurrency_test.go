package dds

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/waitset"

	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// waitFor fails the test when ch is not closed or sent to within 5 s.
func waitFor[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: nothing within 5 s (deadlock?)", what)
	}
	var zero T
	return zero
}

// Closing a participant from another goroutine waits for the listener function that
// is running: after Close, no user code of the participant runs.
func TestCloseWaitsForRunningListener(t *testing.T) {
	net := &fakeNet{}
	p, err := NewParticipant(0, withEngine(net.factory()))
	require.NoError(t, err)
	entered, release := make(chan struct{}), make(chan struct{})
	var finished atomic.Bool
	l := ReaderListener[point]{OnDataAvailable: func(*DataReader[point]) {
		close(entered)
		<-release
		finished.Store(true)
	}}
	w, r := endpoints[point](t, p, "t", nil, reliableReader())
	require.NoError(t, r.SetListener(l, listener.StatusMask(listener.DataAvailable)))
	require.NoError(t, w.Write(bg, &point{ID: 1}))
	waitFor(t, entered, "listener call")

	closed := make(chan error, 1)
	go func() { closed <- p.Close() }()
	select {
	case err := <-closed:
		t.Fatalf("Close returned (%v) while a listener function was running", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	require.NoError(t, waitFor(t, closed, "Close"))
	require.True(t, finished.Load(), "Close returned before the listener function did")
}

// A listener function may create entities and close the entity it is called for.
func TestCreateAndCloseInListener(t *testing.T) {
	net := &fakeNet{}
	p := testParticipant(t, net, nil)
	topic, err := NewTopic[point](p, "in")
	require.NoError(t, err)
	type result struct {
		w   *DataWriter[message]
		err error
	}
	done := make(chan result, 1)
	l := ReaderListener[point]{OnDataAvailable: func(r *DataReader[point]) {
		var res result
		t2, err := NewTopic[message](r.Subscriber().Participant(), "out")
		if err == nil {
			res.w, err = NewWriter(t2)
		}
		if err == nil {
			err = r.Close()
		}
		res.err = err
		done <- res
	}}
	r, err := NewReader(topic, Reliable(), WithListener(l, listener.StatusMask(listener.DataAvailable)))
	require.NoError(t, err)
	w, err := NewWriter(topic)
	require.NoError(t, err)
	require.NoError(t, w.Write(bg, &point{ID: 1}))
	res := waitFor(t, done, "listener call")
	require.NoError(t, res.err)
	require.NoError(t, res.w.Write(bg, &message{ID: 2, Text: "from a listener"}))
	_, _, err = r.Take(bg, NoWait())
	require.ErrorIs(t, err, ErrAlreadyDeleted)
}

// A read waiting for data returns when data comes, and ErrAlreadyDeleted when its
// reader is closed meanwhile; a WaitSet waiting on a condition of a participant that is
// closed wakes up.
func TestCloseWakesWaiters(t *testing.T) {
	net := &fakeNet{}
	p, err := NewParticipant(0, withEngine(net.factory()))
	require.NoError(t, err)
	w, r := endpoints[point](t, p, "t", nil, reliableReader())

	got := make(chan error, 1)
	go func() {
		_, _, err := r.Take(bg)
		got <- err
	}()
	require.NoError(t, w.Write(bg, &point{ID: 1}))
	require.NoError(t, waitFor(t, got, "Take"))

	go func() {
		_, _, err := r.Take(bg)
		got <- err
	}()
	ws := r.StatusCondition()
	require.NoError(t, ws.SetEnabledStatuses(listener.StatusMask(listener.SampleLost)))
	waited := make(chan error, 1)
	go func() {
		set := newWaitSet(t, ws)
		_, err := set.Wait(bg)
		waited <- err
	}()
	time.Sleep(10 * time.Millisecond) // let both block
	require.NoError(t, p.Close())
	require.ErrorIs(t, waitFor(t, got, "Take after Close"), ErrAlreadyDeleted)
	require.NoError(t, waitFor(t, waited, "Wait after Close"))
}

// newWaitSet returns a WaitSet with c attached.
func newWaitSet(t *testing.T, c waitset.Condition) *waitset.WaitSet {
	ws := waitset.New()
	require.NoError(t, ws.AttachCondition(c))
	return ws
}

// A query condition's filter runs outside the library's locks: it may call its reader,
// even read with another condition, and create entities.
func TestQueryFilterMayCallTheReader(t *testing.T) {
	p := testParticipant(t, nil, nil)
	w, r := endpoints[point](t, p, "points", nil, reliableReader())
	other, err := r.CreateReadCondition(NotReadStates)
	require.NoError(t, err)
	calls := 0
	qc, err := r.CreateQueryCondition(States{}, func(v *point) bool {
		calls++
		_, _, _ = r.Read(bg, WithCondition(other), NoWait())
		_ = r.LookupInstance(v)
		if _, err := p.NewSubscriber(); err != nil {
			panic(err)
		}
		return v.X > 10
	})
	require.NoError(t, err)
	for i := range 4 {
		require.NoError(t, w.Write(bg, &point{ID: int32(i), X: float64(10 * i)}))
	}
	type took struct {
		triggered bool
		data      []point
		err       error
	}
	done := make(chan took) // the test goroutine asserts: require stops only its own goroutine
	go func() {
		var res took
		res.triggered = qc.TriggerValue()
		res.data, _, res.err = r.Take(bg, WithCondition(qc), NoWait())
		done <- res
	}()
	res := waitFor(t, done, "take with the query")
	require.True(t, res.triggered, "the query condition before the take")
	require.NoError(t, res.err)
	require.Equal(t, []point{{ID: 2, X: 20}, {ID: 3, X: 30}}, res.data)
	require.Equal(t, 4, calls, "one call per sample")
	require.False(t, qc.TriggerValue())
	require.NoError(t, r.DeleteReadCondition(qc))
	require.Equal(t, 4, calls)
}

// Takes with a query condition, ReturnLoan and deliveries race (run with -race): the
// filter looks at copies of values whose slices are never reused meanwhile. The reader
// keeps the last 4 samples per instance, so that the cache stays small however fast the
// writer goes (with GOMAXPROCS=1 an unbounded one outran the takers for minutes), and
// KEEP_LAST's replaced values are recycled too.
func TestQueryFilterRacesDelivery(t *testing.T) {
	p := testParticipant(t, nil, nil)
	rq := qos.DefaultDataReaderQos()
	rq.History = qos.History{Kind: qos.KeepLast, Depth: 4}
	w, r := endpoints[message](t, p, "messages", nil, &rq)
	qc, err := r.CreateQueryCondition(States{}, func(v *message) bool {
		s := 0.0
		for range 2 {
			for _, x := range v.Values {
				s += x
			}
			runtime.Gosched() // let a take and a delivery run meanwhile
		}
		return s >= 0
	})
	require.NoError(t, err)
	stop := make(chan struct{})
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			_ = w.Write(bg, &message{ID: int32(i % 4), Values: []float64{1, 2, float64(i)}})
			runtime.Gosched() // a busy writer would hold a single P for whole time slices
		}
	}()
	takers := func(opts ...ReadOption) {
		data, infos := make([]message, 8), make([]SampleInfo, 8)
		for range 300 {
			n, err := r.TakeInto(bg, data, infos, append(opts, NoWait())...)
			if err == nil {
				require.NoError(t, r.ReturnLoan(data[:n]))
			}
		}
	}
	var wg sync.WaitGroup
	wg.Go(func() { takers(WithCondition(qc)) })
	wg.Go(func() { takers() })
	wg.Wait()
	close(stop)
	<-wrote
}

// A reader has at most rhc.MaxQueries query conditions.
func TestQueryConditionLimit(t *testing.T) {
	p := testParticipant(t, nil, nil)
	_, r := endpoints[point](t, p, "points", nil, nil)
	for range 64 {
		_, err := r.CreateQueryCondition(States{}, func(*point) bool { return true })
		require.NoError(t, err)
	}
	_, err := r.CreateQueryCondition(States{}, func(*point) bool { return true })
	require.ErrorIs(t, err, ErrOutOfResources)
}

// Reads blocked on one reader share what comes: each sample written one at a time goes
// to exactly one of them (a blocking read is in the wait list before it first looks,
// and new data wakes every read in the list), none stays blocked on data that is there,
// and none is left in the wait list once they all returned.
func TestBlockingTakesShareSamples(t *testing.T) {
	net := &fakeNet{}
	p, err := NewParticipant(0, withEngine(net.factory()))
	require.NoError(t, err)
	t.Cleanup(func() { _ = p.Close() })
	w, r := endpoints[point](t, p, "t", nil, reliableReader())

	const readers, samples = 4, 400
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	taken := make(chan int32, samples)
	var wg sync.WaitGroup
	for range readers {
		wg.Go(func() {
			var v [1]point
			var infos [1]SampleInfo
			for {
				if _, err := r.TakeInto(ctx, v[:], infos[:]); err != nil {
					return
				}
				taken <- v[0].ID
			}
		})
	}
	seen := make(map[int32]bool, samples)
	for i := range int32(samples) {
		require.NoError(t, w.Write(bg, &point{ID: i}))
		if i%3 == 0 { // sometimes with the readers waiting, sometimes not
			id := waitFor(t, taken, "a blocked Take")
			require.False(t, seen[id], "sample %d taken twice", id)
			seen[id] = true
		}
	}
	for len(seen) < samples {
		id := waitFor(t, taken, "a blocked Take")
		require.False(t, seen[id], "sample %d taken twice", id)
		seen[id] = true
	}
	cancel()
	wg.Wait()
	require.Zero(t, r.waits.n.Load(), "reads still in the wait list")
}

// Two reads waiting for different instances are woken once each by a sample of a third
// instance, and then wait: before, each woken read passed the wake-up on to the other,
// which found nothing either and passed it back, tens of thousands of times per sample
// until a race broke the loop.
func TestBlockingReadsDoNotWakeEachOther(t *testing.T) {
	p := testParticipant(t, nil, nil)
	w, r := endpoints[point](t, p, "wakes", nil, nil)
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	defer cancel()
	for id := int32(1); id <= 2; id++ {
		require.NoError(t, w.Write(ctx, &point{ID: id}))
	}
	var infos []SampleInfo
	for len(infos) < 2 {
		_, got, err := r.Take(ctx)
		require.NoError(t, err)
		infos = append(infos, got...)
	}
	wctx, wcancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for _, in := range infos {
		wg.Go(func() {
			var v [1]point
			var si [1]SampleInfo
			_, err := r.TakeInto(wctx, v[:], si[:], Instance(in.InstanceHandle))
			assert.ErrorIs(t, err, context.Canceled)
		})
	}
	require.Eventually(t, func() bool { return r.waits.n.Load() == 2 }, 5*time.Second, time.Millisecond)
	base := r.waits.signals.Load()
	require.NoError(t, w.Write(ctx, &point{ID: 3}))
	require.Eventually(t, func() bool { return r.waits.n.Load() == 2 }, 5*time.Second, time.Millisecond)
	time.Sleep(50 * time.Millisecond) // a loop would go on meanwhile
	require.Equal(t, base+2, r.waits.signals.Load(), "wake-ups for one sample")
	wcancel()
	wg.Wait()
	require.Zero(t, r.waits.n.Load())
}

// A blocking read waits for its context's cancellation through a registration kept
// from one read to the next (waiter.reg, ctxwake): a loop of reads with one context does not
// allocate, a cancellation still ends the read that waits, a read with a context
// canceled long before returns at once, and deleting the reader ends the
// registrations.
func TestBlockingReadContexts(t *testing.T) {
	net := &fakeNet{}
	p, err := NewParticipant(0, withEngine(net.factory()))
	require.NoError(t, err)
	t.Cleanup(func() { _ = p.Close() })
	w, r := endpoints[point](t, p, "t", nil, reliableReader())
	ctx, cancel := context.WithCancel(bg)
	defer cancel()

	writes := make(chan struct{})
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		s := point{ID: 1}
		for range writes {
			runtime.Gosched() // mostly after the take has started waiting
			if err := w.Write(bg, &s); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	var v [1]point
	var infos [1]SampleInfo
	take := func() {
		writes <- struct{}{}
		if n, err := r.TakeInto(ctx, v[:], infos[:]); n != 1 || err != nil {
			t.Fatalf("take: %d, %v", n, err)
		}
	}
	take()
	require.Zero(t, testing.AllocsPerRun(500, take), "allocations per blocking take with one context")
	close(writes)
	<-writerDone

	ended := make(chan error, 1)
	go func() { _, err := r.TakeInto(ctx, v[:], infos[:]); ended <- err }()
	require.Eventually(t, func() bool { return r.waits.n.Load() == 1 }, 5*time.Second, time.Millisecond)
	cancel()
	require.ErrorIs(t, waitFor(t, ended, "a take whose context was canceled"), context.Canceled)

	start := time.Now()
	_, err = r.TakeInto(ctx, v[:], infos[:])
	require.ErrorIs(t, err, context.Canceled, "a take with the context canceled before")
	tctx, tcancel := context.WithTimeout(bg, 20*time.Millisecond)
	defer tcancel()
	_, err = r.TakeInto(tctx, v[:], infos[:])
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Less(t, time.Since(start), 5*time.Second)

	// A long-lived context keeps a registration per idle waiter until the reader goes.
	lctx, lcancel := context.WithCancel(bg)
	defer lcancel()
	sctx, scancel := context.WithTimeout(lctx, 10*time.Millisecond)
	defer scancel()
	_, err = r.TakeInto(sctx, v[:], infos[:])
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.NoError(t, w.Write(bg, &point{ID: 2}))
	_, err = r.TakeInto(lctx, v[:], infos[:])
	require.NoError(t, err)
	registered := func() (n int) {
		r.waits.mu.Lock()
		defer r.waits.mu.Unlock()
		for _, w := range r.waits.free {
			if w.reg.Active() {
				n++
			}
		}
		return n
	}
	require.NotZero(t, registered())
	require.NoError(t, r.Close())
	require.Zero(t, registered(), "registrations left after the reader's deletion")
}
