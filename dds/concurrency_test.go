package dds

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/waitset"

	"github.com/ddsgo/ddsgo/listener"
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
