package dds

import (
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
)

// fakeClock is a virtual clock: time moves only with Advance, which runs the timers
// that come due, in order, on the caller's goroutine.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	at      time.Time
	f       func()
	stopped bool
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Unix(1_700_000_000, 0)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		was := !t.stopped
		t.stopped = true
		return was
	}
}

// Advance moves the clock by d, running the timers due on the way at their times.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	c.mu.Unlock()
	for {
		c.mu.Lock()
		sort.Slice(c.timers, func(i, j int) bool { return c.timers[i].at.Before(c.timers[j].at) })
		var next *fakeTimer
		for _, t := range c.timers {
			if !t.stopped && !t.at.After(end) {
				next = t
				break
			}
		}
		if next == nil {
			c.now = end
			c.mu.Unlock()
			return
		}
		next.stopped = true
		c.now = next.at
		c.mu.Unlock()
		next.f()
	}
}

// DEADLINE on both sides, on a virtual clock: each instance that goes a period without
// a write (writer) or a sample (reader) misses its deadline once per period, with its
// handle as the last one; a write or a sample starts the period again; disposed or
// unregistered instances are no longer watched; listeners hear of each miss.
func TestDeadline(t *testing.T) {
	clk := newFakeClock()
	p, err := NewParticipant(0, withEngine((&fakeNet{}).factory()), withClock(clk))
	require.NoError(t, err)
	defer func() { require.NoError(t, p.Close()) }()
	topic, err := NewTopic[message](p, "deadline")
	require.NoError(t, err)
	var mu sync.Mutex
	var heard []InstanceHandle
	w, err := NewWriter(topic, Reliable(), KeepLast(1), Deadline(100*time.Millisecond), WithListener(WriterListener[message]{
		OnOfferedDeadlineMissed: func(_ *DataWriter[message], s listener.OfferedDeadlineMissedStatus) {
			mu.Lock()
			heard = append(heard, s.LastInstanceHandle)
			mu.Unlock()
		},
	}, listener.StatusMask(listener.OfferedDeadlineMissed)))
	require.NoError(t, err)
	r, err := NewReader(topic, Reliable(), KeepLast(1), Deadline(100*time.Millisecond))
	require.NoError(t, err)

	a, b := message{ID: 1}, message{ID: 2}
	require.NoError(t, w.Write(bg, &a))
	require.NoError(t, w.Write(bg, &b))
	ha, hb := w.LookupInstance(&a), w.LookupInstance(&b)
	clk.Advance(60 * time.Millisecond)
	require.NoError(t, w.Write(bg, &a)) // a starts again: its deadline is at 160 ms
	clk.Advance(50 * time.Millisecond)  // 110 ms: b missed, a not
	ws, err := w.OfferedDeadlineMissedStatus()
	require.NoError(t, err)
	require.Equal(t, int32(1), ws.TotalCount) // the listener may have taken the change
	require.Equal(t, hb, ws.LastInstanceHandle)
	rs, err := r.RequestedDeadlineMissedStatus()
	require.NoError(t, err)
	require.Equal(t, int32(1), rs.TotalCount)
	require.Equal(t, hb, rs.LastInstanceHandle, "the reader misses the instance it got nothing of")

	clk.Advance(260 * time.Millisecond) // 370 ms: a missed at 160, 260, 360; b at 210, 310
	ws, err = w.OfferedDeadlineMissedStatus()
	require.NoError(t, err)
	require.Equal(t, int32(6), ws.TotalCount)
	require.Equal(t, ha, ws.LastInstanceHandle)

	// Disposed and unregistered instances are not watched any more.
	require.NoError(t, w.Dispose(bg, &a))
	require.NoError(t, w.Unregister(bg, &b))
	clk.Advance(time.Second)
	ws, err = w.OfferedDeadlineMissedStatus()
	require.NoError(t, err)
	require.Equal(t, int32(6), ws.TotalCount)
	rs, err = r.RequestedDeadlineMissedStatus()
	require.NoError(t, err)
	require.Equal(t, int32(6), rs.TotalCount, "the reader missed what the writer missed, and nothing after")
	// The period is changeable: a shorter one applies from the next write; an infinite
	// one stops the watch.
	wq := w.Qos()
	wq.Deadline.Period = 30 * time.Millisecond
	require.NoError(t, w.SetQos(wq))
	require.NoError(t, w.Write(bg, &a))
	clk.Advance(40 * time.Millisecond)
	ws, err = w.OfferedDeadlineMissedStatus()
	require.NoError(t, err)
	require.Equal(t, int32(7), ws.TotalCount)
	wq.Deadline.Period = qos.Infinite
	require.NoError(t, w.SetQos(wq))
	clk.Advance(time.Second)
	ws, err = w.OfferedDeadlineMissedStatus()
	require.NoError(t, err)
	require.Equal(t, int32(7), ws.TotalCount)

	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(heard) > 0 && heard[len(heard)-1] == ha
	}, 5*time.Second, time.Millisecond, "the listener heard of the misses")
}
