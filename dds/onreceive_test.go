package dds

import (
	"context"
	"net/netip"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/transport/memnet"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/rtps"
)

// onReceiveParticipant is memParticipant with ListenersOnReceive.
func onReceiveParticipant(t *testing.T, n *memnet.Network, name, addr string) *DomainParticipant {
	t.Helper()
	h, err := n.AddHost(name, netip.MustParseAddr(addr))
	require.NoError(t, err)
	p, err := NewParticipant(7, withNet(h), WithRTPS(rtps.Config{Name: name}), ListenersOnReceive())
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, p.Close()) })
	return p
}

// onReceiveGoroutine reports whether the caller runs on a socket's receive goroutine.
func onReceiveGoroutine() bool {
	buf := make([]byte, 16<<10)
	return strings.Contains(string(buf[:runtime.Stack(buf, false)]), "transport.(*Receiver).run")
}

// With ListenersOnReceive, a pong answers each ping from its OnDataAvailable listener
// on the goroutine that received the ping, and the pinger's listener gets each answer
// on its receive goroutine: 200 round trips, none lost, every call on a receive
// goroutine but the rare one the dispatcher had (a listener already running).
func TestListenersOnReceive(t *testing.T) {
	n, err := memnet.New(memnet.Config{Seed: 71})
	require.NoError(t, err)
	t.Cleanup(n.Close)
	pa := onReceiveParticipant(t, n, "a", "10.0.0.1")
	pb := onReceiveParticipant(t, n, "b", "10.0.0.2")
	pingW, pingR := benchEndpoints(t, pa, pb, "ping", KeepLast(8))
	pongW, pongR := benchEndpoints(t, pb, pa, "pong", KeepLast(8))
	for _, w := range []*DataWriter[point]{pingW, pongW} {
		ctx, cancel := context.WithTimeout(bg, 10*time.Second)
		waitMatched(ctx, t, "writer", 1, func() (int32, error) {
			s, err := w.PublicationMatchedStatus()
			return s.CurrentCount, err
		})
		cancel()
	}
	var onRecv, calls atomic.Int32
	count := func() { // a listener call, and whether it ran on a receive goroutine
		calls.Add(1)
		if onReceiveGoroutine() {
			onRecv.Add(1)
		}
	}
	buf := make([]point, 8)
	infos := make([]SampleInfo, 8)
	require.NoError(t, pingR.SetListener(ReaderListener[point]{OnDataAvailable: func(r *DataReader[point]) {
		count()
		k, err := r.TakeInto(bg, buf, infos, NoWait())
		if err != nil {
			return
		}
		for i := range k {
			_ = pongW.Write(bg, &buf[i])
		}
	}}, listener.StatusMask(listener.DataAvailable)))
	got := make(chan int32, 1)
	pongBuf := make([]point, 8)
	pongInfos := make([]SampleInfo, 8)
	require.NoError(t, pongR.SetListener(ReaderListener[point]{OnDataAvailable: func(r *DataReader[point]) {
		count()
		k, err := r.TakeInto(bg, pongBuf, pongInfos, NoWait())
		if err != nil {
			return
		}
		for i := range k {
			select {
			case got <- pongBuf[i].ID:
			default: // the test failed
			}
		}
	}}, listener.StatusMask(listener.DataAvailable)))
	for i := range int32(200) {
		require.NoError(t, pingW.Write(bg, &point{ID: i}))
		select {
		case id := <-got:
			require.Equal(t, i, id)
		case <-time.After(10 * time.Second):
			t.Fatalf("round trip %d: no answer", i)
		}
	}
	t.Logf("%d of %d listener calls on a receive goroutine", onRecv.Load(), calls.Load())
	require.GreaterOrEqual(t, onRecv.Load(), calls.Load()*9/10, "listener calls on a receive goroutine")
}

// A listener that runs on a receive goroutine may close its own participant: Close
// does not wait for that goroutine, which ends after the listener.
func TestCloseFromListenerOnReceive(t *testing.T) {
	n, err := memnet.New(memnet.Config{Seed: 72})
	require.NoError(t, err)
	t.Cleanup(n.Close)
	pa := onReceiveParticipant(t, n, "a", "10.0.0.1")
	pb := onReceiveParticipant(t, n, "b", "10.0.0.2")
	w, r := benchEndpoints(t, pa, pb, "close", KeepLast(8))
	closed := make(chan error, 1)
	require.NoError(t, r.SetListener(ReaderListener[point]{OnDataAvailable: func(*DataReader[point]) {
		if onReceiveGoroutine() {
			closed <- pb.Close()
		}
	}}, listener.StatusMask(listener.DataAvailable)))
	deadline := time.Now().Add(10 * time.Second)
	for len(closed) == 0 && time.Now().Before(deadline) {
		require.NoError(t, w.Write(bg, &point{ID: 1}))
		time.Sleep(time.Millisecond)
	}
	select {
	case err := <-closed:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("no listener call on a receive goroutine, or Close did not return")
	}
	require.ErrorIs(t, pb.Close(), nil)
}
