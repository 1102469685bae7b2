package rtps

import (
	"net/netip"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/transport"
	"github.com/ddsgo/ddsgo/internal/transport/memnet"
	"github.com/ddsgo/ddsgo/internal/wire"
)

var (
	localReaderGUID = wire.GUID{Prefix: wire.GuidPrefix{9}, Entity: wire.EntityIDFromUint32(0x107)}
	localRLoc       = wire.Locator{Kind: wire.LocatorKindUDPv4, Port: 7411}
)

// localPair returns a writer with cfg and a same-process reader (rcfg's reliability)
// matched on both sides, sending what would go on the wire to wout and rout.
func localPair(cfg WriterConfig, reliable, volatile bool, deliver DeliverFunc, wout, rout Sender) (*Writer, *Reader) {
	cfg.GUID = localWriterID
	w := NewWriter(cfg, wout)
	r := NewReader(ReaderConfig{GUID: localReaderGUID, Reliable: reliable}, deliver, rout)
	r.AddWriter(WriterProxyInfo{GUID: localWriterID, Reliable: cfg.Reliable, Unicast: []wire.Locator{testLoc}}, time.Unix(1, 0))
	w.AddReader(ReaderProxyInfo{GUID: localReaderGUID, Reliable: reliable, Volatile: volatile, Unicast: []wire.Locator{localRLoc}, local: r}, time.Unix(1, 0))
	return w, r
}

// TestLocalDeliveryInWrite: a same-process reader has each change (alive, disposed,
// the end of a coherent set) when Write returns, in order, with what a DATA would
// have said; the writer counts it acknowledged at once and sends no DATA nor
// HEARTBEAT after the match.
func TestLocalDeliveryInWrite(t *testing.T) {
	var got collector
	wout, rout := &discard{}, &discard{}
	w, _ := localPair(WriterConfig{Reliable: true, Keyed: true, History: HistoryConfig{KeepAll: true, MaxSamples: 8}}, true, false, got.deliver, wout, rout)
	afterMatch := wout.n
	now := time.Unix(2, 0)
	const n = 1000
	for i := range n {
		k := wire.KeyHash{byte(i % 7)}
		sn, err := w.Write(Change{KeyHash: k, Payload: payload(uint64(i+1), 8), Timestamp: wire.Time{Seconds: 5}}, now)
		require.NoError(t, err) // a KEEP_ALL history of 8 never fills: acknowledged at once
		require.Len(t, got.seqs, i+1)
		require.True(t, w.AckedByAll(sn))
	}
	_, err := w.Write(Change{Kind: NotAliveDisposed, KeyHash: wire.KeyHash{3}, Payload: []byte{0, 1, 0, 0, 3, 0, 0, 0}, Coherent: CoherentFirst}, now)
	require.NoError(t, err)
	_, err = w.Write(Change{Coherent: wire.SequenceNumberUnknown}, now) // ends the set
	require.NoError(t, err)
	require.Equal(t, afterMatch, wout.n, "no message after the match")
	require.Zero(t, w.Stats().DataSent+w.Stats().HeartbeatsSent-1) // the match's HEARTBEAT only
	require.Zero(t, rout.n-1)                                      // the reader's pre-emptive ACKNACK only
	require.Len(t, got.samples, n+2)
	d := got.samples[n]
	require.Equal(t, NotAliveDisposed, d.Kind)
	require.True(t, d.KeyOnly)
	require.True(t, d.HasKeyHash)
	require.Equal(t, wire.KeyHash{3}, d.KeyHash)
	require.Equal(t, wire.SequenceNumber(n+1), d.Coherent)
	end := got.samples[n+1]
	require.True(t, end.LostOnly)
	require.Equal(t, wire.SequenceNumberUnknown, end.Coherent)
	require.Equal(t, wire.Time{Seconds: 5}, got.samples[0].SourceTimestamp)
	require.Equal(t, time.Unix(2, 0), got.samples[0].Received)
	for i, s := range got.seqs {
		require.Equal(t, uint64(i+1), s)
	}
}

// localMatch matches w (on wn) with the same-process reader r (on rn) both ways.
func (n *simNet) localMatch(w *Writer, wn *simNode, r *Reader, rn *simNode, volatile bool) {
	rn.matches[w.GUID()] = append(rn.matches[w.GUID()], r)
	r.AddWriter(WriterProxyInfo{GUID: w.GUID(), Reliable: w.cfg.Reliable, Unicast: []wire.Locator{wn.loc}}, n.now)
	w.AddReader(ReaderProxyInfo{GUID: r.GUID(), Reliable: r.cfg.Reliable, Volatile: volatile, Unicast: []wire.Locator{rn.loc}, local: r}, n.now)
}

// TestLocalDeliveryRefusedTakesTheWire: a reader that refuses a change is not counted
// as having it; a full KEEP_ALL history then fails the write (the DDS layer blocks on
// it until max_blocking_time), and the change goes by the wire path (ACKNACK,
// repair) once the reader asks again, after which the direct hand-over resumes.
func TestLocalDeliveryRefusedTakesTheWire(t *testing.T) {
	n := newSimNet(t, 1)
	a, b := n.node(1), n.node(2)
	var got collector
	refuse := false
	w := a.writer(testWriterID, WriterConfig{Reliable: true, History: HistoryConfig{KeepAll: true, MaxSamples: 2}})
	r := b.reader(testReaderID, ReaderConfig{Reliable: true}, func(s *Sample) bool { return !refuse && got.deliver(s) })
	n.localMatch(w, a, r, b, false)
	n.step(time.Millisecond)
	write := func(seq uint64) error {
		_, err := w.Write(Change{Payload: payload(seq, 0)}, n.now)
		return err
	}
	require.NoError(t, write(1))
	refuse = true
	require.NoError(t, write(2))
	require.NoError(t, write(3))
	require.False(t, w.AckedByAll(2))
	require.ErrorIs(t, write(4), ErrHistoryFull)
	require.False(t, n.run(time.Millisecond, time.Second, func() bool { return w.AckedByAll(2) }))

	// The reader takes again and asks; the writer repairs by the wire.
	refuse = false
	r.Retry(n.now)
	require.True(t, n.run(time.Millisecond, 5*time.Second, func() bool { return w.AckedByAll(3) }))
	require.Equal(t, []uint64{1, 2, 3}, got.seqs)
	require.Positive(t, w.Stats().Retransmits)
	sent := w.Stats().DataSent + w.Stats().Retransmits
	require.NoError(t, write(4))
	require.Equal(t, []uint64{1, 2, 3, 4}, got.seqs)
	require.Equal(t, sent, w.Stats().DataSent+w.Stats().Retransmits)
	require.True(t, w.AckedByAll(4))
}

// TestLocalDeliveryLateJoiner: a transient-local writer's history reaches a
// same-process reader matched later through the wire path; the changes written
// after it caught up go directly. A volatile one gets only the new changes.
func TestLocalDeliveryLateJoiner(t *testing.T) {
	n := newSimNet(t, 2)
	a, b := n.node(1), n.node(2)
	w := a.writer(testWriterID, WriterConfig{Reliable: true, TransientLocal: true, History: HistoryConfig{Depth: 10}})
	for i := range 3 {
		_, err := w.Write(Change{Payload: payload(uint64(i+1), 0)}, n.now)
		require.NoError(t, err)
	}
	var late, vol collector
	r := b.reader(testReaderID, ReaderConfig{Reliable: true}, late.deliver)
	rv := b.reader(testReaderID+0x100, ReaderConfig{Reliable: true}, vol.deliver)
	n.localMatch(w, a, r, b, false)
	n.localMatch(w, a, rv, b, true)
	require.True(t, n.run(time.Millisecond, 5*time.Second, func() bool { return w.AckedByAll(3) }))
	require.Equal(t, []uint64{1, 2, 3}, late.seqs)
	sent := w.Stats().Retransmits
	_, err := w.Write(Change{Payload: payload(4, 0)}, n.now)
	require.NoError(t, err)
	require.Equal(t, []uint64{1, 2, 3, 4}, late.seqs)
	require.Equal(t, []uint64{4}, vol.seqs)
	require.Equal(t, sent, w.Stats().Retransmits)
	require.Zero(t, w.Stats().DataSent)
	require.True(t, w.AckedByAll(4))
}

// TestLocalDeliveryLiveliness: a same-process reader hears a writer's liveliness
// assertion as it hears a HEARTBEAT with the Liveliness flag.
func TestLocalDeliveryLiveliness(t *testing.T) {
	var heard []wire.GUID
	w := NewWriter(WriterConfig{GUID: localWriterID, Reliable: true}, &discard{})
	r := NewReader(ReaderConfig{GUID: localReaderGUID, Reliable: true, OnLiveliness: func(g wire.GUID) { heard = append(heard, g) }}, nil, &discard{})
	r.AddWriter(WriterProxyInfo{GUID: localWriterID, Reliable: true}, time.Unix(1, 0))
	w.AddReader(ReaderProxyInfo{GUID: localReaderGUID, Reliable: true, local: r}, time.Unix(1, 0))
	w.AssertLiveliness(time.Unix(2, 0))
	require.Equal(t, []wire.GUID{localWriterID}, heard)
	r.markGone()
	w.AssertLiveliness(time.Unix(3, 0))
	require.Len(t, heard, 1)
}

// TestLocalDeliveryAllocs: a write handed to a same-process reader allocates nothing.
func TestLocalDeliveryAllocs(t *testing.T) {
	var pool bufPool
	n := 0
	w, _ := localPair(WriterConfig{Reliable: true, Keyed: true, History: HistoryConfig{KeepAll: true, MaxSamples: 4}, Release: pool.put},
		true, false, func(*Sample) bool { n++; return true }, &discard{}, &discard{})
	now := time.Unix(2, 0)
	write := func() {
		if _, err := w.Write(Change{KeyHash: wire.KeyHash{1}, Payload: pool.get(64)}, now); err != nil {
			t.Fatal(err)
		}
	}
	for range 100 {
		write()
	}
	require.Zero(t, testing.AllocsPerRun(1000, write))
	require.Equal(t, 1100+1, n) // AllocsPerRun runs it once more
}

// TestLocalDeliveryEngines: two engines of the process find each other's readers
// through the registry: user DATA goes directly, none on the network; an engine with
// NoLocalDelivery keeps the wire.
func TestLocalDeliveryEngines(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n, err := memnet.New(memnet.Config{Seed: 3})
		require.NoError(t, err)
		defer n.Close()
		start := func(name, addr string, off bool) *Engine {
			h, err := n.AddHost(name, netip.MustParseAddr(addr))
			require.NoError(t, err)
			e, err := NewEngine(EngineConfig{Transport: transport.Config{Net: h}, NoLocalDelivery: off})
			require.NoError(t, err)
			return e
		}
		a, b := start("a", "10.0.0.1", false), start("b", "10.0.0.2", false)
		c := start("c", "10.0.0.3", true)
		defer func() {
			require.NoError(t, c.Close())
			require.NoError(t, b.Close())
			require.NoError(t, a.Close())
		}()
		wg := wire.GUID{Prefix: a.GUIDPrefix(), Entity: wire.EntityIDFromUint32(0x102)}
		w := a.NewWriter(WriterConfig{GUID: wg, Reliable: true, Keyed: true, History: HistoryConfig{KeepAll: true}})
		readers := map[*Engine]*safeCollector{b: {}, c: {}}
		for e, got := range readers {
			rg := wire.GUID{Prefix: e.GUIDPrefix(), Entity: wire.EntityIDFromUint32(0x107)}
			r := e.NewReader(ReaderConfig{GUID: rg, Reliable: true}, got.deliver)
			e.MatchWriter(r, WriterProxyInfo{GUID: wg, Reliable: true, Unicast: a.Transport().DefaultUnicastLocators()})
			a.MatchReader(w, ReaderProxyInfo{GUID: rg, Reliable: true, Unicast: e.Transport().DefaultUnicastLocators()})
		}
		const count = 100
		for i := range count {
			_, err := w.Write(Change{KeyHash: wire.KeyHash{byte(i)}, Payload: payload(uint64(i+1), 16)}, a.Now())
			require.NoError(t, err)
		}
		require.Equal(t, count, readers[b].len()) // in Write
		for readers[c].len() < count || !w.AckedByAll(count) {
			time.Sleep(time.Millisecond)
		}
		require.Equal(t, uint64(count), w.Stats().DataSent, "DATA to c only")
		require.Zero(t, w.Stats().Retransmits)
	})
}

// TestLocalDeliveryAfterWireRepair: a same-process reader whose side of the match came
// after the first write gets that change by the wire; the next change goes to it
// directly in Write even before the writer hears the ACKNACK for the repaired one (the
// reader has it: the writer's record of what it acknowledged only lags). Before, the
// hand-over stopped at the change the reader already had, and every later change waited
// for the next periodic HEARTBEAT: a benchmark run at 230 µs per round trip, not 3.
func TestLocalDeliveryAfterWireRepair(t *testing.T) {
	n := newSimNet(t, 3)
	a, b := n.node(1), n.node(2)
	var got collector
	w := a.writer(testWriterID, WriterConfig{Reliable: true, History: HistoryConfig{KeepAll: true, MaxSamples: 100}})
	r := b.reader(testReaderID, ReaderConfig{Reliable: true}, got.deliver)
	b.matches[w.GUID()] = append(b.matches[w.GUID()], r)
	w.AddReader(ReaderProxyInfo{GUID: r.GUID(), Reliable: true, Unicast: []wire.Locator{b.loc}, local: r}, n.now)
	write := func(seq uint64) {
		_, err := w.Write(Change{Payload: payload(seq, 0)}, n.now)
		require.NoError(t, err)
	}
	write(1) // the reader's side of the match is not there yet
	require.Empty(t, got.seqs)
	r.AddWriter(WriterProxyInfo{GUID: w.GUID(), Reliable: true, Unicast: []wire.Locator{a.loc}}, n.now)
	n.maxDelay = time.Millisecond // the repair's ACKNACK is still on its way below
	require.True(t, n.run(10*time.Microsecond, 5*time.Second, func() bool { return len(got.seqs) == 1 }))
	require.False(t, w.AckedByAll(1))
	for seq := uint64(2); seq <= 100; seq++ {
		write(seq)
		require.Len(t, got.seqs, int(seq), "change %d not handed over in Write", seq)
	}
	require.True(t, n.run(time.Millisecond, 5*time.Second, func() bool { return w.AckedByAll(100) }))
}
