package dds

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/netns"
	"github.com/ddsgo/ddsgo/internal/testutil"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/ddsgo/ddsgo/rtps"
)

// priorityDomain is the domain of TestTransportPriority.
const priorityDomain = 95

// dataOf reports whether the RTPS message b holds a DATA of the writer w
// with sequence number sn.
func dataOf(b []byte, w wire.EntityID, sn wire.SequenceNumber) bool {
	var rd wire.Reader
	if rd.Reset(b) != nil {
		return false
	}
	for rd.Next() {
		var d wire.Data
		if rd.Kind() == wire.KindData && rd.Data(&d) == nil && d.WriterID == w && d.WriterSN == sn {
			return true
		}
	}
	return false
}

// TRANSPORT_PRIORITY on real sockets: the DATA of a writer with priority 184 cross
// loopback with TOS 184 (DSCP 46), and SetQos changes the TOS of the next ones (0: the
// default, 0).
func TestTransportPriority(t *testing.T) {
	netns.Require(t)
	capture, err := testutil.NewCapture()
	require.NoError(t, err)
	defer func() { require.NoError(t, capture.Close()) }()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	participant := func() *DomainParticipant {
		p, err := NewParticipant(priorityDomain, WithRTPS(rtps.Config{
			Interfaces: []string{"127.0.0.1"}, Peers: []string{"127.0.0.1"}, DisableMulticast: true,
		}), withWire()) // the DATA must go on the wire to be captured
		require.NoError(t, err)
		t.Cleanup(func() { _ = p.Close() })
		return p
	}
	pw, pr := participant(), participant()
	tw, err := NewTopic[message](pw, "priority")
	require.NoError(t, err)
	tr, err := NewTopic[message](pr, "priority")
	require.NoError(t, err)
	wq := qos.DefaultDataWriterQos()
	wq.TransportPriority.Value = 184
	w, err := NewWriter(tw, WithQos(wq))
	require.NoError(t, err)
	r, err := NewReader(tr, Reliable())
	require.NoError(t, err)
	waitMatched(ctx, t, "writer", 1, func() (int32, error) {
		s, err := w.PublicationMatchedStatus()
		return s.CurrentCount, err
	})
	entity := w.ew.GUID().Entity
	var sn wire.SequenceNumber
	tosOfNext := func() int {
		t.Helper()
		sn++
		require.NoError(t, w.Write(ctx, &message{ID: 1, Seq: uint64(sn)}))
		_, tos, err := capture.Next(time.Now().Add(10*time.Second), func(_ uint16, b []byte) bool { return dataOf(b, entity, sn) })
		require.NoError(t, err)
		_, _, err = r.Take(ctx)
		require.NoError(t, err)
		return tos
	}
	require.Equal(t, 184, tosOfNext())
	for _, c := range []struct {
		value int32
		tos   int
	}{{0, 0}, {32, 32}, {184, 184}} {
		wq.TransportPriority.Value = c.value
		require.NoError(t, w.SetQos(wq))
		require.Equal(t, c.tos, tosOfNext(), "priority %d", c.value)
	}
}
