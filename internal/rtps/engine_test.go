package rtps

import (
	"net/netip"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/testutil"
	"github.com/ddsgo/ddsgo/internal/transport"
	"github.com/ddsgo/ddsgo/internal/transport/memnet"
	"github.com/ddsgo/ddsgo/internal/wire"
)

// memEngine starts an engine on a new memnet host. Its endpoints talk by the wire
// even to those of the process (NoLocalDelivery): these tests are of the protocol.
func memEngine(t testing.TB, n *memnet.Network, name, addr string) *Engine {
	t.Helper()
	h, err := n.AddHost(name, netip.MustParseAddr(addr))
	require.NoError(t, err)
	e, err := NewEngine(EngineConfig{Transport: transport.Config{Net: h}, NoLocalDelivery: true})
	require.NoError(t, err)
	return e
}

// memEngineOn makes a network with cfg and an engine on its host "a" (10.0.0.1); the
// test's cleanup closes the engine, then the network.
func memEngineOn(t *testing.T, cfg memnet.Config) (*memnet.Network, *Engine) {
	t.Helper()
	n, err := memnet.New(cfg)
	require.NoError(t, err)
	t.Cleanup(n.Close)
	a := memEngine(t, n, "a", "10.0.0.1")
	t.Cleanup(func() { require.NoError(t, a.Close()) })
	return n, a
}

// safeCollector is a collector guarded for the event loop goroutine.
type safeCollector struct {
	testutil.Guarded[collector]
}

func (s *safeCollector) deliver(x *Sample) (ok bool) {
	s.With(func(c *collector) { ok = c.deliver(x) })
	return ok
}

func (s *safeCollector) len() (n int) {
	s.With(func(c *collector) { n = len(c.seqs) })
	return n
}

func TestEngineTwoParticipants(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n, a := memEngineOn(t, memnet.Config{Seed: 7, Impairments: memnet.Impairments{Loss: 0.2, Reorder: 0.1, Duplicate: 0.1}})
		b := memEngine(t, n, "b", "10.0.0.2")
		defer func() { require.NoError(t, b.Close()) }()
		pa := a.GUIDPrefix()
		require.Equal(t, wire.VendorDDSGo[:], pa[:2])
		require.NotEqual(t, a.GUIDPrefix(), b.GUIDPrefix())

		wg := wire.GUID{Prefix: a.GUIDPrefix(), Entity: wire.EntityIDFromUint32(0x102)}
		rg := wire.GUID{Prefix: b.GUIDPrefix(), Entity: wire.EntityIDFromUint32(0x107)}
		w := a.NewWriter(WriterConfig{GUID: wg, Reliable: true, Keyed: true, History: HistoryConfig{KeepAll: true}})
		var got safeCollector
		r := b.NewReader(ReaderConfig{GUID: rg, Reliable: true}, got.deliver)
		a.MatchReader(w, ReaderProxyInfo{GUID: rg, Reliable: true, Unicast: b.Transport().DefaultUnicastLocators()})
		b.MatchWriter(r, WriterProxyInfo{GUID: wg, Reliable: true, Unicast: a.Transport().DefaultUnicastLocators()})

		const count = 500
		for i := range count {
			for {
				_, err := w.Write(Change{KeyHash: wire.KeyHash{1}, Payload: payload(uint64(i+1), 100)}, a.Now())
				if err == nil {
					break
				}
				<-w.AckWait()
			}
		}
		for got.len() < count {
			time.Sleep(10 * time.Millisecond)
		}
		got.With(func(c *collector) {
			for i, s := range c.seqs {
				require.Equal(t, uint64(i+1), s)
			}
		})
		for !w.AckedByAll(count) {
			time.Sleep(10 * time.Millisecond)
		}
		require.Positive(t, w.Stats().Retransmits)
		require.Zero(t, b.Stats().Malformed)

		b.UnmatchWriter(r, wg)
		a.UnmatchReader(w, rg)
		b.DeleteReader(r)
		a.DeleteWriter(w)
	})
}

func TestEngineLocalAndGarbage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n, a := memEngineOn(t, memnet.Config{Seed: 8})

		// A writer and a reader of one participant talk through the
		// engine's local queue.
		wg := wire.GUID{Prefix: a.GUIDPrefix(), Entity: wire.EntityIDFromUint32(0x103)}
		rg := wire.GUID{Prefix: a.GUIDPrefix(), Entity: wire.EntityIDFromUint32(0x104)}
		w := a.NewWriter(WriterConfig{GUID: wg, Reliable: true})
		var got safeCollector
		r := a.NewReader(ReaderConfig{GUID: rg, Reliable: true}, got.deliver)
		loc := a.Transport().DefaultUnicastLocators()
		a.MatchReader(w, ReaderProxyInfo{GUID: rg, Reliable: true, Unicast: loc})
		a.MatchWriter(r, WriterProxyInfo{GUID: wg, Reliable: true, Unicast: loc})
		for i := range 10 {
			_, err := w.Write(Change{Payload: payload(uint64(i+1), 0)}, a.Now())
			require.NoError(t, err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for got.len() < 10 || !w.AckedByAll(10) {
			require.True(t, time.Now().Before(deadline), "%d of 10 samples", got.len())
			time.Sleep(time.Millisecond)
		}
		require.Positive(t, a.Stats().LocalDatagrams)
		require.Zero(t, a.Stats().Transport.DatagramsOut)

		// Garbage, a foreign INFO_DST, an unknown writer, our own echo.
		h, err := n.AddHost("x", netip.MustParseAddr("10.0.0.9"))
		require.NoError(t, err)
		c, err := h.ListenUDP(netip.MustParseAddrPort("10.0.0.9:4000"), transport.SocketOptions{})
		require.NoError(t, err)
		defer func() { _ = c.Close() }()
		dst, _ := loc[0].AddrPort()
		send := func(b []byte) {
			_, err := c.WriteTo(b, dst)
			require.NoError(t, err)
		}
		other := wire.GuidPrefix{1, 2, 3}
		hdr := wire.Header{Version: wire.ProtocolVersion21, Vendor: wire.VendorCyclone, Prefix: other}
		send([]byte{1})
		send(append(hdr.Append(nil), 0x07, 0x01, 0x40, 0x00)) // HEARTBEAT past the end
		m := hdr.Append(nil)
		idst := wire.InfoDst{GuidPrefix: wire.GuidPrefix{9}}
		m = idst.Append(m)
		hb := wire.Heartbeat{WriterID: wg.Entity, FirstSN: 1, LastSN: 1, Count: 1}
		m = hb.Append(m)
		send(m)
		m = hdr.Append(nil)
		m = hb.Append(m) // from a writer nobody matched
		send(m)
		own := wire.Header{Version: wire.ProtocolVersion25, Vendor: wire.VendorDDSGo, Prefix: a.GUIDPrefix()}
		send(hb.Append(own.Append(nil)))
		vendor := append(hdr.Append(nil), 0x80, 0x01, 0x04, 0x00, 0, 0, 0, 0)
		send(vendor)
		// Each is counted. The engine's own traffic may add to a counter (its periodic
		// HEARTBEATs to the local reader can come back as echoes), so at least once;
		// bounded in (fake) time, so that a miss fails instead of hanging the run.
		deadline = time.Now().Add(10 * time.Second)
		for {
			s := a.Stats()
			if s.NotRTPS >= 1 && s.Malformed >= 1 && s.OtherDestination >= 1 && s.UnknownWriter >= 1 && s.OwnEcho >= 1 && s.UnknownKind >= 1 {
				break
			}
			require.True(t, time.Now().Before(deadline), "garbage not counted: %+v", s)
			time.Sleep(time.Millisecond)
		}
	})
}

// TestEngineReceiveAllocs: routing an in-order DATA to a matched reader
// allocates nothing.
func TestEngineReceiveAllocs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, a := memEngineOn(t, memnet.Config{Seed: 9})
		src := wire.GuidPrefix{7}
		wg := wire.GUID{Prefix: src, Entity: wire.EntityIDFromUint32(0x103)}
		rg := wire.GUID{Prefix: a.GUIDPrefix(), Entity: wire.EntityIDFromUint32(0x104)}
		delivered := 0
		r := a.NewReader(ReaderConfig{GUID: rg}, func(*Sample) bool { delivered++; return true })
		a.MatchWriter(r, WriterProxyInfo{GUID: wg})
		hdr := wire.Header{Version: wire.ProtocolVersion21, Vendor: wire.VendorCyclone, Prefix: src}
		msgs := make([][]byte, 200)
		for i := range msgs {
			m := hdr.Append(nil)
			ts := wire.InfoTS{Timestamp: wire.Time{Seconds: 1}}
			m = ts.Append(m)
			d := wire.Data{DataFlag: true, WriterID: wg.Entity, WriterSN: wire.SequenceNumber(i + 1), SerializedPayload: payload(uint64(i), 32)}
			msgs[i] = d.Append(m)
		}
		var allocs float64
		done := make(chan struct{})
		a.Post(func() {
			i := 0
			a.receive(&a.rxs[transport.SocketOther], msgs[i], false) // warm up
			allocs = testing.AllocsPerRun(100, func() {
				i++
				a.receive(&a.rxs[transport.SocketOther], msgs[i], false)
			})
			close(done)
		})
		<-done
		require.Zero(t, allocs)
		require.Equal(t, 102, delivered)
	})
}
