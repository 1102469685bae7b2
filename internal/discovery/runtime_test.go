package discovery

import (
	"bytes"
	"context"
	"encoding/binary"
	"net/netip"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	rtpsconfig "github.com/ddsgo/ddsgo/rtps"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/errs"
	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/transport"
	"github.com/ddsgo/ddsgo/internal/transport/memnet"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/qos"
)

// events records what a MatchListener is told.
type events struct {
	mu           sync.Mutex
	matched      map[wire.GUID]bool
	unmatched    int
	incompatible int
}

func newEvents() *events { return &events{matched: make(map[wire.GUID]bool)} }

func (e *events) OnMatch(_ wire.GUID, r *EndpointData) {
	e.mu.Lock()
	e.matched[r.GUID] = true
	e.mu.Unlock()
}

func (e *events) OnUnmatch(_ wire.GUID, g wire.GUID) {
	e.mu.Lock()
	delete(e.matched, g)
	e.unmatched++
	e.mu.Unlock()
}

func (e *events) OnIncompatible(wire.GUID, *EndpointData, []qos.PolicyID) {
	e.mu.Lock()
	e.incompatible++
	e.mu.Unlock()
}

func (e *events) unmatchedCount() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.unmatched
}

func (e *events) has(g wire.GUID) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.matched[g]
}

func (e *events) count() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.matched)
}

// sink collects delivered samples.
type sink struct {
	mu   sync.Mutex
	seqs []uint64
}

func (s *sink) deliver(x *rtps.Sample) bool {
	if x.Kind != rtps.Alive || len(x.Payload) < 12 {
		return true
	}
	s.mu.Lock()
	s.seqs = append(s.seqs, binary.LittleEndian.Uint64(x.Payload[4:]))
	s.mu.Unlock()
	return true
}

func (s *sink) got() []uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.seqs)
}

func testPayload(seq uint64) []byte {
	b := make([]byte, 12)
	b[1] = 0x01
	binary.LittleEndian.PutUint64(b[4:], seq)
	return b
}

func reliableWriter() qos.Offered {
	q := qos.DefaultOffered()
	q.Writer.Reliability = qos.Reliability{Kind: qos.Reliable, MaxBlockingTime: time.Second}
	q.Writer.History = qos.History{Kind: qos.KeepAll}
	return q
}

func reliableReader() qos.Requested {
	q := qos.DefaultRequested()
	q.Reader.Reliability = qos.Reliability{Kind: qos.Reliable, MaxBlockingTime: time.Second}
	q.Reader.History = qos.History{Kind: qos.KeepAll}
	return q
}

// memParticipant starts a participant on a new memnet host; it is closed when
// the test ends.
func memParticipant(t *testing.T, n *memnet.Network, name, addr string, mod func(*Config)) (*Participant, *memnet.Host) {
	t.Helper()
	h, err := n.AddHost(name, netip.MustParseAddr(addr))
	require.NoError(t, err)
	cfg := Config{Domain: 0, Net: h, Config: rtpsconfig.Config{Name: name}}
	if mod != nil {
		mod(&cfg)
	}
	p, err := NewParticipant(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, p.Close()) })
	return p, h
}

// memNet returns a memnet network that is closed when the test ends, after
// the participants on it.
func memNet(t *testing.T, cfg memnet.Config) *memnet.Network {
	t.Helper()
	n, err := memnet.New(cfg)
	require.NoError(t, err)
	t.Cleanup(n.Close)
	return n
}

// waitFor polls cond on the fake clock.
func waitFor(t *testing.T, limit time.Duration, cond func() bool) {
	t.Helper()
	end := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(end) {
			t.Fatalf("condition not met within %v", limit)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestTwoParticipantsReliable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := memNet(t, memnet.Config{Seed: 1})
		a, _ := memParticipant(t, n, "a", "10.0.0.1", nil)
		b, _ := memParticipant(t, n, "b", "10.0.0.2", nil)

		waitFor(t, 2*time.Second, func() bool {
			return len(a.Participants()) == 1 && len(b.Participants()) == 1
		})
		require.Equal(t, b.GUIDPrefix(), a.Participants()[0].GUIDPrefix)

		wev, rev := newEvents(), newEvents()
		w, err := a.NewWriter(EndpointConfig{Topic: "t", Type: "T", Keyed: true, Offered: reliableWriter(), Listener: wev})
		require.NoError(t, err)
		var got sink
		r, err := b.NewReader(EndpointConfig{Topic: "t", Type: "T", Keyed: true, Requested: reliableReader(), Listener: rev}, got.deliver)
		require.NoError(t, err)
		waitFor(t, 2*time.Second, func() bool { return wev.count() == 1 && rev.count() == 1 })
		require.True(t, wev.has(r.GUID()))
		require.True(t, rev.has(w.GUID()))
		require.Equal(t, wire.EntityKindWriterWithKey, int(w.GUID().Entity.Kind))
		require.Equal(t, wire.EntityKindReaderWithKey, int(r.GUID().Entity.Kind))

		const count = 200
		want := make([]uint64, count)
		for i := range count {
			want[i] = uint64(i + 1)
			_, err := w.Write(context.Background(), rtps.Change{Kind: rtps.Alive, KeyHash: wire.KeyHash{1}, Payload: testPayload(uint64(i + 1))})
			require.NoError(t, err)
		}
		waitFor(t, 5*time.Second, func() bool { return len(got.got()) == count })
		require.Equal(t, want, got.got())
		require.NoError(t, w.WaitForAcknowledgments(t.Context()))

		// A reader closing is seen by the writer.
		require.NoError(t, r.Close())
		waitFor(t, 2*time.Second, func() bool { return wev.count() == 0 })
		st := a.Stats()
		require.Equal(t, 1, st.Participants)
		require.Zero(t, st.Engine.Malformed)
	})
}

func TestLocalMatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := memNet(t, memnet.Config{Seed: 2})
		a, _ := memParticipant(t, n, "a", "10.0.0.1", nil)
		var got sink
		rev := newEvents()
		_, err := a.NewReader(EndpointConfig{Topic: "t", Type: "T", Requested: reliableReader(), Listener: rev}, got.deliver)
		require.NoError(t, err)
		w, err := a.NewWriter(EndpointConfig{Topic: "t", Type: "T", Offered: reliableWriter()})
		require.NoError(t, err)
		waitFor(t, time.Second, func() bool { return rev.count() == 1 && w.Writer().MatchedReaders() == 1 })
		for i := range 20 {
			_, err := w.Write(context.Background(), rtps.Change{Payload: testPayload(uint64(i + 1))})
			require.NoError(t, err)
		}
		waitFor(t, 2*time.Second, func() bool { return len(got.got()) == 20 })
		require.NoError(t, w.WaitForAcknowledgments(t.Context()))
		require.Positive(t, a.Stats().Engine.LocalDatagrams)
		require.Empty(t, a.Participants())
	})
}

func TestLeaseExpiry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := memNet(t, memnet.Config{Seed: 3})
		a, _ := memParticipant(t, n, "a", "10.0.0.1", nil)
		b, hb := memParticipant(t, n, "b", "10.0.0.2", func(c *Config) { c.LeaseDuration = 2 * time.Second })

		wev := newEvents()
		down := make(chan ParticipantData, 1)
		a.OnParticipant(func(d ParticipantData, alive bool) {
			if !alive {
				down <- d
			}
		})
		_, err := a.NewWriter(EndpointConfig{Topic: "t", Type: "T", Offered: reliableWriter(), Listener: wev})
		require.NoError(t, err)
		_, err = b.NewReader(EndpointConfig{Topic: "t", Type: "T", Requested: reliableReader()}, func(*rtps.Sample) bool { return true })
		require.NoError(t, err)
		waitFor(t, 2*time.Second, func() bool { return wev.count() == 1 })

		start := time.Now()
		hb.SetDown(true)
		d := <-down
		require.Equal(t, b.GUIDPrefix(), d.GUIDPrefix)
		require.Less(t, time.Since(start), 2*time.Second+100*time.Millisecond)
		waitFor(t, time.Second, func() bool { return wev.count() == 0 })
		waitFor(t, time.Second, func() bool { return wev.unmatchedCount() == 1 })
		require.Equal(t, uint64(1), a.Stats().LeaseExpired)
		require.Empty(t, a.Participants())
		hb.SetDown(false)
	})
}

// A listener registered after a participant was discovered hears of it
// all the same (ddsping list once missed the only participant on the
// domain that way).
func TestOnParticipantReplaysKnown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := memNet(t, memnet.Config{Seed: 5})
		a, _ := memParticipant(t, n, "a", "10.0.0.1", nil)
		b, _ := memParticipant(t, n, "b", "10.0.0.2", nil)
		waitFor(t, 2*time.Second, func() bool { return len(a.Participants()) == 1 })
		events := make(chan bool, 4)
		a.OnParticipant(func(d ParticipantData, alive bool) {
			require.Equal(t, b.GUIDPrefix(), d.GUIDPrefix)
			events <- alive
		})
		require.True(t, <-events)
		require.NoError(t, b.Close())
		require.False(t, <-events)
	})
}

func TestGarbageOnDiscoveryPort(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := memNet(t, memnet.Config{Seed: 4})
		a, _ := memParticipant(t, n, "a", "10.0.0.1", nil)
		c := memSocket(t, n, "evil", netip.MustParseAddrPort("10.0.0.9:5000"))
		group := netip.MustParseAddrPort("239.255.0.1:7400")
		_, err := c.WriteTo([]byte{0}, group) // Cyclone's shutdown wake-up byte
		require.NoError(t, err)
		_, err = c.WriteTo([]byte("GET / HTTP/1.0\r\n"), group)
		require.NoError(t, err)
		// An RTPS header followed by a submessage running past the end.
		bad := wire.Header{Version: wire.ProtocolVersion23, Vendor: wire.VendorFastDDS, Prefix: wire.GuidPrefix{9}}.Append(nil)
		bad = append(bad, 0x15, 0x01, 0xff, 0x00, 1, 2, 3)
		_, err = c.WriteTo(bad, group)
		require.NoError(t, err)
		// SPDP data that is not a parameter list.
		msg := wire.Header{Version: wire.ProtocolVersion23, Vendor: wire.VendorFastDDS, Prefix: wire.GuidPrefix{9}}.Append(nil)
		d := wire.Data{
			DataFlag: true, ReaderID: wire.EntityIDSPDPReader, WriterID: wire.EntityIDSPDPWriter, WriterSN: 1,
			SerializedPayload: []byte{0x00, 0x03, 0x00, 0x00, 0xff, 0xff, 0xff},
		}
		msg = d.Append(msg)
		_, err = c.WriteTo(msg, group)
		require.NoError(t, err)
		waitFor(t, time.Second, func() bool {
			s := a.Stats()
			return s.Engine.NotRTPS == 2 && s.Engine.Malformed == 1 && s.SPDPInvalid == 1
		})
		require.Empty(t, a.Participants())
	})
}

// TestBogusEndpoints: a peer announcing thousands of endpoints is bounded
// by Limits.MaxEndpointsPerParticipant.
func TestBogusEndpoints(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := memNet(t, memnet.Config{Seed: 5, QueueLen: 4096})
		limits := Limits{MaxEndpointsPerParticipant: 50}
		a, _ := memParticipant(t, n, "a", "10.0.0.1", func(c *Config) { c.Limits = limits })
		b, _ := memParticipant(t, n, "b", "10.0.0.2", nil)
		waitFor(t, 2*time.Second, func() bool { return len(a.Participants()) == 1 })

		const bogus = 2000
		for i := range bogus {
			_, err := b.NewWriter(EndpointConfig{Topic: "flood", Type: "T", Offered: reliableWriter()})
			require.NoError(t, err, i)
		}
		waitFor(t, 20*time.Second, func() bool { return a.Stats().EndpointsLimited >= bogus-50 })
		st := a.Stats()
		require.Equal(t, 50, st.Endpoints)
		require.Equal(t, uint64(bogus-50), st.EndpointsLimited)
	})
}

func transportOpts() transport.SocketOptions { return transport.SocketOptions{} }

// memSocket opens a bare UDP socket at addr on a new host name of n, for a test to play a
// peer datagram by datagram; it is closed when the test ends.
func memSocket(t *testing.T, n *memnet.Network, name string, addr netip.AddrPort) transport.PacketConn {
	t.Helper()
	h, err := n.AddHost(name, addr.Addr())
	require.NoError(t, err)
	c, err := h.ListenUDP(addr, transportOpts())
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// TestLossyDiscovery: with 20% loss, reordering and duplication both
// participants still discover each other, match, and deliver every sample
// once and in order; closing one removes it from the other at once (SPDP
// disposal) without waiting for the lease.
func TestLossyDiscovery(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := memNet(t, memnet.Config{Seed: 6, Impairments: memnet.Impairments{
			Loss: 0.2, Reorder: 0.1, Duplicate: 0.1, Delay: time.Millisecond, Jitter: time.Millisecond,
		}})
		a, _ := memParticipant(t, n, "a", "10.0.0.1", nil)
		b, _ := memParticipant(t, n, "b", "10.0.0.2", func(c *Config) { c.LeaseDuration = 2 * time.Second })

		wev := newEvents()
		w, err := a.NewWriter(EndpointConfig{Topic: "t", Type: "T", Offered: reliableWriter(), Listener: wev})
		require.NoError(t, err)
		var got sink
		rev := newEvents()
		_, err = b.NewReader(EndpointConfig{Topic: "t", Type: "T", Requested: reliableReader(), Listener: rev}, got.deliver)
		require.NoError(t, err)
		waitFor(t, 10*time.Second, func() bool { return wev.count() == 1 && rev.count() == 1 })

		const count = 2000
		for i := range count {
			_, err := w.Write(context.Background(), rtps.Change{Payload: testPayload(uint64(i + 1))})
			require.NoError(t, err)
		}
		require.NoError(t, w.WaitForAcknowledgments(t.Context()))
		seqs := got.got()
		require.Len(t, seqs, count)
		for i, s := range seqs {
			require.Equal(t, uint64(i+1), s)
		}

		// The lease (2 s) holds while b is alive.
		time.Sleep(6 * time.Second)
		require.Len(t, a.Participants(), 1)
		require.Zero(t, a.Stats().LeaseExpired)

		require.NoError(t, n.SetImpairments(memnet.Impairments{}))
		require.NoError(t, b.Close())
		waitFor(t, 500*time.Millisecond, func() bool { return len(a.Participants()) == 0 })
		require.Equal(t, uint64(1), a.Stats().Disposed)
		waitFor(t, time.Second, func() bool { return wev.unmatchedCount() == 1 })
	})
}

// TestDisposedGUID: both forms of an SEDP disposal give the endpoint GUID:
// Cyclone DDS's serialized key without KEY_HASH, Fast DDS's inline
// KEY_HASH without payload.
func TestDisposedGUID(t *testing.T) {
	g := wire.GUID{Prefix: wire.GuidPrefix{1, 0x10, 3}, Entity: wire.EntityIDFromUint32(0x107)}
	x := Disposal{GUID: g, Status: wire.StatusInfoDisposed | wire.StatusInfoUnregistered}
	var dec Decoder
	got, err := disposedGUID(&dec, &rtps.Sample{Kind: rtps.NotAliveDisposedUnregistered, KeyOnly: true, Payload: x.AppendKey(nil)})
	require.NoError(t, err)
	require.Equal(t, g, got)
	got, err = disposedGUID(&dec, &rtps.Sample{Kind: rtps.NotAliveDisposed, HasKeyHash: true, KeyHash: KeyHash(g)})
	require.NoError(t, err)
	require.Equal(t, g, got)
	_, err = disposedGUID(&dec, &rtps.Sample{Kind: rtps.NotAliveDisposed, KeyOnly: true, Payload: []byte{0, 3, 0, 0, 1}})
	require.Error(t, err)
}

// TestCloseLingers: closing a reliable writer waits (up to Config.WriterLinger)
// for its readers to acknowledge what it wrote, so that with 20% loss the
// samples written right before Close still all arrive; a reader that stops
// answering holds Close up for the linger duration only.
func TestCloseLingers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := memNet(t, memnet.Config{Seed: 11, Impairments: memnet.Impairments{Loss: 0.2}})
		a, _ := memParticipant(t, n, "a", "10.0.0.1", nil)
		b, _ := memParticipant(t, n, "b", "10.0.0.2", nil)

		var got sink
		rev := newEvents()
		_, err := b.NewReader(EndpointConfig{Topic: "t", Type: "T", Requested: reliableReader(), Listener: rev}, got.deliver)
		require.NoError(t, err)
		for round, count := range []int{50, 50} {
			wev := newEvents()
			w, err := a.NewWriter(EndpointConfig{Topic: "t", Type: "T", Offered: reliableWriter(), Listener: wev})
			require.NoError(t, err)
			waitFor(t, 10*time.Second, func() bool { return wev.count() == 1 })
			for i := range count {
				_, err := w.Write(context.Background(), rtps.Change{Payload: testPayload(uint64(round*1000 + i + 1))})
				require.NoError(t, err)
			}
			if round == 1 {
				// b stops answering: Close gives up after the linger.
				require.NoError(t, n.SetImpairments(memnet.Impairments{Loss: 1}))
			}
			start := time.Now()
			require.NoError(t, w.Close())
			took := time.Since(start)
			if round == 0 {
				require.Less(t, took, DefaultWriterLinger)
				waitFor(t, time.Second, func() bool { return len(got.got()) == count })
				for i, s := range got.got() {
					require.Equal(t, uint64(i+1), s)
				}
			} else {
				require.Equal(t, DefaultWriterLinger, took)
			}
		}
	})
}

// TestWriterTimeouts: a write that waits max_blocking_time for room is a
// Timeout; a wait for acknowledgments that the caller's context ends is the
// context's error, never a Timeout.
func TestWriterTimeouts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := memNet(t, memnet.Config{Seed: 5})
		// No linger on Close: the reader below never acknowledges, and the
		// engine retransmitting to it in no time could keep the fake clock
		// from ever reaching the linger deadline (an occasional hang).
		a, _ := memParticipant(t, n, "a", "10.0.0.1", func(c *Config) { c.WriterLinger = -1 })
		// The reader refuses every sample, so nothing is ever acknowledged.
		_, err := a.NewReader(EndpointConfig{Topic: "t", Type: "T", Requested: reliableReader()},
			func(*rtps.Sample) bool { return false })
		require.NoError(t, err)
		wq := reliableWriter()
		wq.Writer.Reliability.MaxBlockingTime = 0 // no wait: a refusing reader keeps the engine busy in no time
		wq.Writer.ResourceLimits = qos.ResourceLimits{MaxSamples: 1, MaxInstances: 1, MaxSamplesPerInstance: 1}
		w, err := a.NewWriter(EndpointConfig{Topic: "t", Type: "T", Offered: wq})
		require.NoError(t, err)
		waitFor(t, time.Second, func() bool { return w.Writer().MatchedReaders() == 1 })
		_, err = w.Write(context.Background(), rtps.Change{Payload: testPayload(1)})
		require.NoError(t, err)
		_, err = w.Write(context.Background(), rtps.Change{Payload: testPayload(2)})
		require.ErrorIs(t, err, errs.ErrTimeout)
		require.ErrorIs(t, err, rtps.ErrHistoryFull)

		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		err = w.WaitForAcknowledgments(ctx)
		require.ErrorIs(t, err, context.Canceled)
		require.NotErrorIs(t, err, errs.ErrTimeout)
		ctx, cancel = context.WithDeadline(t.Context(), time.Now().Add(-time.Second))
		defer cancel()
		err = w.WaitForAcknowledgments(ctx)
		require.ErrorIs(t, err, context.DeadlineExceeded)
		require.NotErrorIs(t, err, errs.ErrTimeout)
	})
}

// TestAnnouncedLocators: SPDP carries no default multicast locator, and the SEDP data
// of each endpoint carries its own unicast locators, the participant's user unicast
// ones (docs/interop.md, "Locators we announce": a shared group locator made Fast DDS
// 2.9 abort).
func TestAnnouncedLocators(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := memNet(t, memnet.Config{Seed: 3})
		a, _ := memParticipant(t, n, "a", "10.0.0.1", nil)
		b, _ := memParticipant(t, n, "b", "10.0.0.2", nil)
		_, err := a.NewWriter(EndpointConfig{Topic: "t", Type: "T", Offered: reliableWriter()})
		require.NoError(t, err)
		_, err = a.NewReader(EndpointConfig{Topic: "t", Type: "T", Requested: reliableReader()}, func(*rtps.Sample) bool { return true })
		require.NoError(t, err)
		waitFor(t, 2*time.Second, func() bool { return len(b.Participants()) == 1 && len(b.Endpoints()) == 2 })
		pd := b.Participants()[0]
		require.Empty(t, pd.DefaultMulticastLocators)
		require.NotEmpty(t, pd.DefaultUnicastLocators)
		require.NotEmpty(t, pd.MetatrafficMulticastLocators)
		for _, ed := range b.Endpoints() {
			require.Equal(t, pd.DefaultUnicastLocators, ed.UnicastLocators, "endpoint %v", ed.GUID)
			require.Empty(t, ed.MulticastLocators)
		}
	})
}

// TestDirectedSPDPToNewcomer: a participant that never shows it knows us (a
// peer that missed our reply, here one that never answers) gets our directed
// SPDP announcement again, within 100 ms, and then for each of its repeats,
// maxDirected times in all and no more.
func TestDirectedSPDPToNewcomer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := memNet(t, memnet.Config{Seed: 6})
		a, _ := memParticipant(t, n, "a", "10.0.0.1", nil)
		meta := netip.MustParseAddrPort("10.0.0.9:7410")
		c := memSocket(t, n, "deaf", meta)
		prefix := wire.GuidPrefix{0x01, 0x0f, 9}
		directed := make(chan time.Time, 64)
		go func() { // count the directed DATA(p) that reach the peer
			b := make([]byte, 65536)
			for {
				m, _, err := c.ReadFrom(b)
				if err != nil {
					return
				}
				if bytes.Contains(b[:m], prefix[:]) && bytes.Contains(b[:m], []byte{0x00, 0x01, 0x00, 0xc2}) {
					directed <- time.Now()
				}
			}
		}()
		pd := ParticipantData{
			GUIDPrefix: prefix, ProtocolVersion: wire.ProtocolVersion23, VendorID: wire.VendorFastDDS,
			MetatrafficUnicastLocators: []wire.Locator{wire.LocatorFromAddrPort(meta)},
			DefaultUnicastLocators:     []wire.Locator{wire.LocatorFromAddrPort(netip.MustParseAddrPort("10.0.0.9:7411"))},
			LeaseDuration:              20 * time.Second, BuiltinEndpoints: builtinEndpoints,
		}
		announce := func() {
			msg := wire.Header{Version: wire.ProtocolVersion23, Vendor: wire.VendorFastDDS, Prefix: prefix}.Append(nil)
			d := wire.Data{DataFlag: true, ReaderID: wire.EntityIDSPDPReader, WriterID: wire.EntityIDSPDPWriter, WriterSN: 1, SerializedPayload: pd.Append(nil)}
			_, err := c.WriteTo(d.Append(msg), netip.MustParseAddrPort("239.255.0.1:7400"))
			require.NoError(t, err)
		}
		start := time.Now()
		announce()
		time.Sleep(100 * time.Millisecond)
		// The reply and three follow-ups, the last 70 ms after the reply.
		require.Len(t, directed, 1+directedFollowUps)
		for range 5 { // Fast DDS's initial repeats, 100 ms apart
			announce()
			time.Sleep(100 * time.Millisecond)
		}
		require.Len(t, directed, maxDirected)
		first := <-directed
		require.Less(t, first.Sub(start), 5*time.Millisecond)
		require.Equal(t, uint64(maxDirected-1), a.Stats().DirectedSPDP)
	})
}

// TestIncompatibleCountedOnce: a writer that offers less than a reader requests is
// one incompatible endpoint to each side, however often the pair is evaluated again
// (type information arriving decides every pair again); a second such writer is a
// second one.
func TestIncompatibleCountedOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := memNet(t, memnet.Config{Seed: 7})
		a, _ := memParticipant(t, n, "a", "10.0.0.1", nil)
		b, _ := memParticipant(t, n, "b", "10.0.0.2", nil)
		waitFor(t, 2*time.Second, func() bool { return len(a.Participants()) == 1 && len(b.Participants()) == 1 })
		count := func(e *events) int {
			e.mu.Lock()
			defer e.mu.Unlock()
			return e.incompatible
		}
		bestEffort := qos.DefaultOffered()
		bestEffort.Writer.Reliability.Kind = qos.BestEffort
		wev, rev := newEvents(), newEvents()
		_, err := b.NewReader(EndpointConfig{Topic: "t", Type: "T", Requested: reliableReader(), Listener: rev}, nil)
		require.NoError(t, err)
		_, err = a.NewWriter(EndpointConfig{Topic: "t", Type: "T", Offered: bestEffort, Listener: wev})
		require.NoError(t, err)
		waitFor(t, 2*time.Second, func() bool { return count(wev) == 1 && count(rev) == 1 })
		for range 3 {
			a.reevaluate()
			b.reevaluate()
		}
		time.Sleep(time.Second)
		require.Equal(t, 1, count(wev), "the writer's incompatible readers")
		require.Equal(t, 1, count(rev), "the reader's incompatible writers")

		_, err = a.NewWriter(EndpointConfig{Topic: "t", Type: "T", Offered: bestEffort})
		require.NoError(t, err)
		waitFor(t, 2*time.Second, func() bool { return count(rev) == 2 })
		b.reevaluate()
		time.Sleep(time.Second)
		require.Equal(t, 2, count(rev))
	})
}
