package waitset

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
	"weak"

	"github.com/ddsgo/ddsgo/internal/errs"

	"github.com/stretchr/testify/require"
)

// flag is a condition whose value the test sets, counting the evaluations.
type flag struct {
	Trigger
	v     atomic.Bool
	evals atomic.Int32
}

func (f *flag) TriggerValue() bool {
	f.evals.Add(1)
	return f.v.Load()
}

func (f *flag) set(v bool) {
	f.v.Store(v)
	Notify(f)
}

// uncomparable is a condition type that == cannot compare.
type uncomparable struct {
	*Trigger
	_ []int
}

func (uncomparable) TriggerValue() bool { return true }

func TestAttachDetach(t *testing.T) {
	ws := New()
	var g1, g2 GuardCondition
	f := &flag{}

	require.Empty(t, ws.Conditions())
	require.NoError(t, ws.AttachCondition(&g1))
	require.NoError(t, ws.AttachCondition(f))
	require.NoError(t, ws.AttachCondition(&g1), "attaching twice is no error")
	require.NoError(t, ws.AttachCondition(&g2))
	require.Equal(t, []Condition{&g1, f, &g2}, ws.Conditions())

	require.NoError(t, ws.DetachCondition(f))
	require.Equal(t, []Condition{&g1, &g2}, ws.Conditions())
	err := ws.DetachCondition(f)
	require.ErrorIs(t, err, errs.ErrPreconditionNotMet)
	require.EqualError(t, err, "dds: precondition not met: the condition is not attached to the wait set")

	require.ErrorIs(t, ws.AttachCondition(nil), errs.ErrBadParameter)
	require.ErrorIs(t, ws.DetachCondition(nil), errs.ErrBadParameter)

	// The trigger knows the wait set while attached, and only then.
	require.Len(t, g1.sets, 1)
	require.Empty(t, f.sets)

	// Conditions returns a copy.
	cs := ws.Conditions()
	cs[0] = nil
	require.Equal(t, []Condition{&g1, &g2}, ws.Conditions())

	// Types that == cannot compare work.
	u := uncomparable{Trigger: &Trigger{}}
	require.NoError(t, ws.AttachCondition(u))
	require.NoError(t, ws.AttachCondition(u))
	require.Len(t, ws.Conditions(), 3)
	require.NoError(t, ws.DetachCondition(u))
	require.Len(t, ws.Conditions(), 2)
}

func TestConditionInSeveralWaitSets(t *testing.T) {
	a, b := New(), New()
	var g GuardCondition
	require.NoError(t, a.AttachCondition(&g))
	require.NoError(t, b.AttachCondition(&g))
	g.SetTriggerValue(true)
	for _, ws := range []*WaitSet{a, b} {
		got, err := ws.Wait(context.Background())
		require.NoError(t, err)
		require.Equal(t, []Condition{&g}, got)
	}
	require.NoError(t, a.DetachCondition(&g))
	require.Len(t, g.sets, 1)
	require.Same(t, b, g.sets[0])
}

func TestWaitReturnsTriggered(t *testing.T) {
	tests := []struct {
		name   string
		values []bool
		want   []int // indexes of the triggered conditions
	}{
		{"one of one", []bool{true}, []int{0}},
		{"second of three", []bool{false, true, false}, []int{1}},
		{"all", []bool{true, true, true}, []int{0, 1, 2}},
		{"first and last", []bool{true, false, true}, []int{0, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ws WaitSet // the zero value works
			gs := make([]*GuardCondition, len(tt.values))
			for i, v := range tt.values {
				gs[i] = &GuardCondition{}
				gs[i].SetTriggerValue(v)
				require.NoError(t, ws.AttachCondition(gs[i]))
			}
			var want []Condition
			for _, i := range tt.want {
				want = append(want, gs[i])
			}
			got, err := ws.Wait(context.Background())
			require.NoError(t, err)
			require.Equal(t, want, got)

			// Waiting does not reset the trigger values.
			got, err = ws.WaitInto(context.Background(), got)
			require.NoError(t, err)
			require.Equal(t, want, got)
		})
	}
}

func TestWaitTriggeredEvenWhenContextDone(t *testing.T) {
	ws := New()
	var g GuardCondition
	g.SetTriggerValue(true)
	require.NoError(t, ws.AttachCondition(&g))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got, err := ws.Wait(ctx)
	require.NoError(t, err)
	require.Equal(t, []Condition{&g}, got)
}

func TestWaitTimeoutAndCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ws := New()
		var g GuardCondition
		require.NoError(t, ws.AttachCondition(&g))

		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		got, err := ws.Wait(ctx)
		require.Empty(t, got)
		require.ErrorIs(t, err, context.DeadlineExceeded)
		require.NotErrorIs(t, err, errs.ErrTimeout)
		require.EqualError(t, err, "dds: wait set: context deadline exceeded")
		require.Equal(t, time.Second, time.Since(start))

		ctx, cancel = context.WithCancel(context.Background())
		time.AfterFunc(time.Second, cancel)
		got, err = ws.Wait(ctx)
		require.Empty(t, got)
		require.ErrorIs(t, err, context.Canceled)
		require.NotErrorIs(t, err, errs.ErrTimeout)

		// An empty wait set waits until the deadline too.
		var empty WaitSet
		ctx, cancel = context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_, err = empty.Wait(ctx)
		require.ErrorIs(t, err, context.DeadlineExceeded)
	})
}

func TestWaitWakesOnNotify(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ws := New()
		f := &flag{}
		var g GuardCondition
		require.NoError(t, ws.AttachCondition(f))
		require.NoError(t, ws.AttachCondition(&g))

		// A notification without a true trigger value wakes the waiter, which goes back
		// to sleep; a guard set later ends the wait.
		eachSecond(func() { Notify(f) }, func() { g.SetTriggerValue(true) })
		requireWakes(t, ws, []Condition{&g}, 2*time.Second)
		require.Equal(t, int32(3), f.evals.Load(), "evaluated at start, on Notify and on the guard")

		// Setting a guard to false wakes no one.
		g.SetTriggerValue(false)
		f.evals.Store(0)
		eachSecond(func() { g.SetTriggerValue(false) }, func() { f.set(true) })
		requireWakes(t, ws, []Condition{f}, 2*time.Second)
		require.Equal(t, int32(2), f.evals.Load())
	})
}

// eachSecond runs steps, one a second, in a new goroutine.
func eachSecond(steps ...func()) {
	go func() {
		for _, step := range steps {
			time.Sleep(time.Second)
			step()
		}
	}()
}

// requireWakes waits on ws and checks that the wait returns want, and no
// error, after d.
func requireWakes(t *testing.T, ws *WaitSet, want []Condition, d time.Duration) {
	t.Helper()
	start := time.Now()
	got, err := ws.Wait(context.Background())
	require.NoError(t, err)
	require.Equal(t, want, got)
	require.Equal(t, d, time.Since(start))
}

func TestAttachWakesWaiter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ws := New()
		var g GuardCondition
		g.SetTriggerValue(true) // triggered before it is attached: no Notify reaches ws
		eachSecond(func() {
			if err := ws.AttachCondition(&g); err != nil {
				t.Error(err)
			}
		})
		requireWakes(t, ws, []Condition{&g}, time.Second)
	})
}

func TestDetachedConditionDoesNotWake(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ws := New()
		var g, other GuardCondition
		require.NoError(t, ws.AttachCondition(&g))
		require.NoError(t, ws.AttachCondition(&other))
		require.NoError(t, ws.DetachCondition(&g))
		eachSecond(func() { g.SetTriggerValue(true) }, func() { other.SetTriggerValue(true) })
		requireWakes(t, ws, []Condition{&other}, 2*time.Second)
	})
}

func TestConcurrentWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ws := New()
		var g GuardCondition
		require.NoError(t, ws.AttachCondition(&g))

		done := make(chan error)
		go func() {
			_, err := ws.Wait(context.Background())
			done <- err
		}()
		synctest.Wait() // the first waiter is blocked
		require.True(t, ws.waiting.Load())

		got, err := ws.Wait(context.Background())
		require.Empty(t, got)
		require.ErrorIs(t, err, errs.ErrPreconditionNotMet)
		require.EqualError(t, err, "dds: precondition not met: another goroutine is waiting on the wait set")

		g.SetTriggerValue(true)
		require.NoError(t, <-done)

		// Once the first waiter is gone, waiting is allowed again.
		got, err = ws.Wait(context.Background())
		require.NoError(t, err)
		require.Len(t, got, 1)
	})
}

func TestWaitIntoAllocatesNothing(t *testing.T) {
	ws := New()
	var a, b GuardCondition
	f := &flag{}
	require.NoError(t, ws.AttachCondition(&a))
	require.NoError(t, ws.AttachCondition(f))
	require.NoError(t, ws.AttachCondition(&b))
	a.SetTriggerValue(true)
	b.SetTriggerValue(true)
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	dst := make([]Condition, 0, 3)
	var err error
	allocs := testing.AllocsPerRun(100, func() {
		dst, err = ws.WaitInto(ctx, dst)
	})
	require.NoError(t, err)
	require.Zero(t, allocs)
	require.Equal(t, []Condition{&a, &b}, dst)

	allocs = testing.AllocsPerRun(100, func() {
		a.SetTriggerValue(true)
		Notify(f)
	})
	require.Zero(t, allocs, "Notify")
}

// TestRace exercises every operation from several goroutines at once; run with -race.
func TestRace(t *testing.T) {
	ws := New()
	const n = 4
	var guards [n]GuardCondition
	var flags [n]flag
	for i := range n {
		require.NoError(t, ws.AttachCondition(&guards[i]))
	}

	var wg sync.WaitGroup
	stop := make(chan struct{})
	// loop runs fn again and again in a new goroutine until stop is closed.
	loop := func(fn func()) {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
					fn()
				}
			}
		})
	}
	// Setters.
	for i := range n {
		loop(func() {
			guards[i].SetTriggerValue(true)
			guards[i].SetTriggerValue(false)
			flags[i].set(true)
			flags[i].set(false)
		})
	}
	// Attach and detach.
	loop(func() {
		for i := range n {
			_ = ws.AttachCondition(&flags[i])
		}
		_ = ws.Conditions()
		for i := range n {
			_ = ws.DetachCondition(&flags[i])
		}
	})
	// Two competing waiters: each wait either succeeds or reports the other.
	var woken atomic.Int32
	for range 2 {
		buf := make([]Condition, 0, 2*n)
		loop(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
			var err error
			buf, err = ws.WaitInto(ctx, buf)
			cancel()
			switch {
			case err == nil:
				if len(buf) == 0 {
					t.Error("woken without a triggered condition")
				}
				woken.Add(1)
			case errors.Is(err, errs.ErrPreconditionNotMet), errors.Is(err, context.DeadlineExceeded):
			default:
				t.Error(err)
			}
		})
	}
	time.Sleep(200 * time.Millisecond)
	close(stop)
	wg.Wait()
	// Whatever the interleaving did (on a loaded machine no wait may have won), the waitset
	// is still consistent: a triggered attached condition wakes the next wait at once.
	t.Logf("%d waits woken", woken.Load())
	require.NoError(t, ws.AttachCondition(&guards[0]))
	guards[0].SetTriggerValue(true)
	got, err := ws.Wait(context.Background())
	require.NoError(t, err)
	require.Contains(t, got, Condition(&guards[0]))
}

// A waiter waits on the wake channel alone; its context's cancellation leaves a
// wake-up through a registration kept from one wait to the next (ctxwake): a loop of
// blocking waits with one context allocates nothing, a cancellation still ends a wait,
// and the registration does not keep a WaitSet that is no longer used alive.
func TestWaitContextRegistration(t *testing.T) {
	ws := New()
	var g GuardCondition
	require.NoError(t, ws.AttachCondition(&g))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	sets := make(chan struct{})
	setterDone := make(chan struct{})
	go func() {
		defer close(setterDone)
		for range sets {
			g.SetTriggerValue(true)
		}
	}()
	dst := make([]Condition, 0, 1)
	wait := func() {
		g.SetTriggerValue(false)
		sets <- struct{}{}
		var err error
		if dst, err = ws.WaitInto(ctx, dst); err != nil || len(dst) != 1 {
			t.Fatalf("wait: %v, %v", dst, err)
		}
	}
	wait()
	require.Zero(t, testing.AllocsPerRun(500, wait), "allocations per blocking wait with one context")
	close(sets)
	<-setterDone

	g.SetTriggerValue(false)
	ended := make(chan error, 1)
	go func() { _, err := ws.Wait(ctx); ended <- err }()
	for !ws.waiting.Load() {
		time.Sleep(time.Millisecond)
	}
	cancel()
	select {
	case err := <-ended:
		require.ErrorIs(t, err, context.Canceled)
	case <-time.After(5 * time.Second):
		t.Fatal("a wait whose context was canceled did not end")
	}
	_, err := ws.Wait(ctx)
	require.ErrorIs(t, err, context.Canceled, "a wait with the context canceled before")

	// A WaitSet used once with a long-lived context is collected.
	long, lcancel := context.WithCancel(context.Background())
	defer lcancel()
	gone := func() weak.Pointer[WaitSet] {
		ws := New()
		var g GuardCondition
		require.NoError(t, ws.AttachCondition(&g))
		time.AfterFunc(time.Millisecond, func() { g.SetTriggerValue(true) })
		_, err := ws.Wait(long)
		require.NoError(t, err)
		require.True(t, ws.reg.Active(), "a registration made")
		return weak.Make(ws)
	}()
	for range 5 {
		runtime.GC()
		if gone.Value() == nil {
			break
		}
	}
	require.Nil(t, gone.Value(), "the WaitSet is kept alive by its context registration")
}

// BenchmarkWaitPingPong: two goroutines hand a turn back and forth through two guard
// conditions, each blocking in WaitInto with one long-lived context.
func BenchmarkWaitPingPong(b *testing.B) {
	var ping, pong GuardCondition
	wsPing, wsPong := New(), New()
	if wsPing.AttachCondition(&ping) != nil || wsPong.AttachCondition(&pong) != nil {
		b.Fatal("attach")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		dst := make([]Condition, 0, 1)
		for {
			var err error
			if dst, err = wsPing.WaitInto(ctx, dst); err != nil {
				return
			}
			ping.SetTriggerValue(false)
			pong.SetTriggerValue(true)
		}
	}()
	dst := make([]Condition, 0, 1)
	b.ReportAllocs()
	for b.Loop() {
		ping.SetTriggerValue(true)
		var err error
		if dst, err = wsPong.WaitInto(ctx, dst); err != nil {
			b.Fatal(err)
		}
		pong.SetTriggerValue(false)
	}
	cancel()
	<-done
}
