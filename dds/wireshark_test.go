package dds

import (
	"bytes"
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/rtps"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/pcapng"
	"github.com/ddsgo/ddsgo/internal/transport"
	"github.com/ddsgo/ddsgo/internal/transport/memnet"
	"github.com/ddsgo/ddsgo/internal/tshark"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
)

// tap wraps a memnet host and records every datagram its sockets send.
type tap struct {
	transport.Net
	mu   sync.Mutex
	sent []pcapng.Datagram
}

type tapConn struct {
	transport.PacketConn
	t *tap
}

func (t *tap) ListenUDP(a netip.AddrPort, o transport.SocketOptions) (transport.PacketConn, error) {
	c, err := t.Net.ListenUDP(a, o)
	if err != nil {
		return nil, err
	}
	return tapConn{c, t}, nil
}

func (t *tap) ListenMulticastUDP(g netip.AddrPort, ifs []transport.Interface, o transport.SocketOptions) (transport.PacketConn, error) {
	c, err := t.Net.ListenMulticastUDP(g, ifs, o)
	if err != nil {
		return nil, err
	}
	return tapConn{c, t}, nil
}

func (c tapConn) WriteTo(b []byte, dst netip.AddrPort) (int, error) {
	c.t.mu.Lock()
	c.t.sent = append(c.t.sent, pcapng.Datagram{Time: time.Now(), Src: c.LocalAddr(), Dst: dst, Payload: bytes.Clone(b)})
	c.t.mu.Unlock()
	return c.PacketConn.WriteTo(b, dst)
}

// tappedPair returns two participants on in-memory hosts (nothing leaves the process)
// of a network seeded with seed, and end: it deletes their entities, closes them and
// returns every datagram they sent.
func tappedPair(t *testing.T, seed uint64) (pa, pb *DomainParticipant, end func() []pcapng.Datagram) {
	t.Helper()
	n, err := memnet.New(memnet.Config{Seed: seed})
	require.NoError(t, err)
	t.Cleanup(n.Close)
	var taps []*tap
	newP := func(name, addr string) *DomainParticipant {
		h, err := n.AddHost(name, netip.MustParseAddr(addr))
		require.NoError(t, err)
		tp := &tap{Net: h}
		taps = append(taps, tp)
		p, err := NewParticipant(7, withNet(tp), WithRTPS(rtps.Config{Name: name}))
		require.NoError(t, err)
		return p
	}
	pa, pb = newP("a", "10.0.0.1"), newP("b", "10.0.0.2")
	end = func() []pcapng.Datagram {
		for _, p := range []*DomainParticipant{pa, pb} {
			require.NoError(t, p.DeleteContainedEntities())
			require.NoError(t, p.Close())
		}
		var all []pcapng.Datagram
		for _, tp := range taps {
			tp.mu.Lock()
			all = append(all, tp.sent...)
			tp.mu.Unlock()
		}
		return all
	}
	return pa, pb, end
}

// TestWiresharkDecodesOurTraffic records everything two participants send while they
// discover each other, match, exchange keyed samples (one of them fragmented), dispose,
// unregister and delete their endpoints, and has Wireshark's RTPS dissector decode every
// datagram: no malformed packet, no expert warning.
func TestWiresharkDecodesOurTraffic(t *testing.T) {
	if !tshark.Available() {
		t.Skip("tshark not installed")
	}
	pa, pb, end := tappedPair(t, 3)

	pub, ta, sub, tb := pubSub(t, pa, pb, "interop::Sample", "Sample")
	wq := qos.DefaultDataWriterQos()
	wq.History = qos.History{Kind: qos.KeepAll}
	w, err := NewWriter(ta, WithPublisher(pub), WithQos(wq))
	require.NoError(t, err)
	r, err := NewReader(tb, WithSubscriber(sub), WithQos(*reliableReader()))
	require.NoError(t, err)
	waitStatus(t, w, listener.PublicationMatched)

	big := make([]float64, 100<<10/8) // 100 KiB: DATA_FRAG
	for i := range 3 {
		require.NoError(t, w.Write(bg, &message{ID: int32(i), Text: "hello", Values: []float64{1, 2}, Seq: uint64(i)}))
	}
	require.NoError(t, w.Write(bg, &message{ID: 9, Text: "big", Values: big, Seq: 9}))
	// A request as rmw_fastrtps writes one: related to the reply reader, SN unknown.
	asRequest := RelatedTo(SampleIdentity{Writer: r.InstanceHandle(), SN: -1 << 32})
	require.NoError(t, w.Write(bg, &message{ID: 4, Text: "request", Seq: 4}, asRequest))
	require.NoError(t, w.Dispose(bg, &message{ID: 1}))
	require.NoError(t, w.Unregister(bg, &message{ID: 2}))

	deadline := time.Now().Add(10 * time.Second)
	var got int
	for got < 5 && time.Now().Before(deadline) {
		samples, _, err := r.Take(bg, MaxSamples(100), NoWait())
		if err == nil {
			for _, s := range samples {
				if s.Text != "" {
					got++
				}
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	require.Equal(t, 5, got, "samples received")
	all := end()
	require.Greater(t, len(all), 20)
	tshark.CheckDatagrams(t, all)
}
