package transport

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// errConn fails its first reads, then returns one datagram, then reports
// itself closed.
type errConn struct {
	mu    sync.Mutex
	fails int
	sent  bool
}

func (c *errConn) ReadFrom(b []byte) (int, netip.AddrPort, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.fails > 0:
		c.fails--
		return 0, netip.AddrPort{}, errors.New("boom")
	case !c.sent:
		c.sent = true
		return copy(b, "ok"), netip.MustParseAddrPort("10.0.0.1:1"), nil
	}
	return 0, netip.AddrPort{}, fmt.Errorf("read: %w", net.ErrClosed)
}

func (c *errConn) WriteTo(b []byte, _ netip.AddrPort) (int, error) { return len(b), nil }
func (c *errConn) LocalAddr() netip.AddrPort                       { return netip.AddrPort{} }
func (c *errConn) Close() error                                    { return nil }

func TestReceiverErrors(t *testing.T) {
	checkNoLeaks(t)
	for _, batch := range []int{1, 4} {
		q := NewQueue(4)
		r := StartReceiver(&errConn{fails: 3}, ReceiverConfig{Kind: SocketUserUnicast, Deliver: q.Push, Batch: batch})
		<-r.Done()
		require.NoError(t, r.Close())
		s := r.Stats().Snapshot()
		require.Equal(t, StatsSnapshot{DatagramsIn: 1, BytesIn: 2, ReadErrors: 3}, s)
		p := <-q.C()
		require.Equal(t, "ok", string(p.Data))
		require.Equal(t, SocketUserUnicast, p.Kind)
		require.Equal(t, "user-unicast", p.Kind.String())
		p.Release()
	}
	require.Equal(t, "other", SocketKind(99).String())
	require.Equal(t, StatsSnapshot{Drops: 3, WriteErrors: 1}, StatsSnapshot{Drops: 1}.Add(StatsSnapshot{Drops: 2, WriteErrors: 1}))
}

// helperLog records the calls of a Helper; its Help may close the receiver.
type helperLog struct {
	mu        sync.Mutex
	receiving int
	gids      []uint64
	close     func()
}

func (h *helperLog) Receiving() {
	h.mu.Lock()
	h.receiving++
	h.mu.Unlock()
}

func (h *helperLog) Help(gid uint64) {
	h.mu.Lock()
	h.gids = append(h.gids, gid)
	c := h.close
	h.mu.Unlock()
	if c != nil {
		c()
	}
}

// A Helper is called around each read's deliveries on the receive goroutine, and may
// close the receiver from there without waiting for itself.
func TestReceiverHelper(t *testing.T) {
	checkNoLeaks(t)
	q := NewQueue(4)
	h := &helperLog{}
	var r *Receiver
	h.close = func() { require.NoError(t, r.Close()) }
	h.mu.Lock()
	r = StartReceiver(&errConn{}, ReceiverConfig{Kind: SocketUserUnicast, Deliver: q.Push, Helper: h})
	h.mu.Unlock()
	<-r.Done()
	require.NoError(t, r.Close())
	h.mu.Lock()
	defer h.mu.Unlock()
	require.Equal(t, 1, h.receiving)
	require.Len(t, h.gids, 1)
	require.NotZero(t, h.gids[0])
	(<-q.C()).Release()
}

// PushWait queues at once when there is room, waits for room while the queue is
// full, and gives up after its wait or when stop closes.
func TestQueuePushWait(t *testing.T) {
	q := NewQueue(1)
	stop := make(chan struct{})
	require.True(t, q.PushWait(GetPacket(), time.Second, stop))
	start := time.Now()
	require.False(t, q.PushWait(GetPacket(), 20*time.Millisecond, stop), "full: gives up")
	require.GreaterOrEqual(t, time.Since(start), 20*time.Millisecond)

	done := make(chan bool)
	go func() { done <- q.PushWait(GetPacket(), time.Minute, stop) }()
	time.Sleep(10 * time.Millisecond)
	(<-q.C()).Release() // room: the waiting push takes it
	require.True(t, <-done)

	go func() { done <- q.PushWait(GetPacket(), time.Minute, stop) }()
	close(stop)
	require.False(t, <-done)
	require.Equal(t, 1, q.Len())
	q.Drain()
}
