package rtps

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/wire"
)

// nack returns an ACKNACK of remoteReader with base and the SNs requested.
func nack(count wire.Count, base wire.SequenceNumber, sns ...wire.SequenceNumber) *wire.AckNack {
	a := &wire.AckNack{ReaderID: remoteReader.Entity, WriterID: localWriterID.Entity, Count: count, Final: true}
	a.ReaderSNState.Base = base
	for _, sn := range sns {
		a.ReaderSNState.Add(sn)
	}
	return a
}

// floodedWriter makes a reliable writer of cfg (its GUID localWriterID) matched to the
// reliable remoteReader, then writes n changes of size octets at now, none of which may
// fail however full the window is. rec holds only what those writes sent.
func floodedWriter(t *testing.T, rec *recorder, cfg WriterConfig, n, size int, now time.Time) *Writer {
	t.Helper()
	cfg.GUID, cfg.Reliable = localWriterID, true
	w := NewWriter(cfg, rec)
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	rec.msgs = nil
	for i := range n {
		_, err := w.Write(Change{Payload: payload(uint64(i), size)}, now)
		require.NoError(t, err, "Write never blocks on the window")
	}
	return w
}

// keepLastBehind floods a KEEP_LAST writer of cfg with n changes (floodedWriter), of
// which the window lets only sent out (why: msg). Once remoteReader acknowledges
// everything before gapStart, the writer sends the changes its history replaced
// (gapStart up to latest) as one GAP, and then latest, at once.
func keepLastBehind(t *testing.T, rec *recorder, cfg WriterConfig, n, sent int, msg string, gapStart, latest wire.SequenceNumber, now time.Time) *Writer {
	t.Helper()
	w := floodedWriter(t, rec, cfg, n, 100, now)
	_, datas, _, _ := rec.all(t)
	require.Len(t, datas, sent, msg)
	rec.msgs = nil
	w.HandleAckNack(remotePrefix, nack(1, gapStart), now)
	_, datas, gaps, _ := rec.all(t)
	require.Len(t, gaps, 1)
	require.Equal(t, gapStart, gaps[0].GapStart)
	require.Equal(t, latest, gaps[0].GapList.Base)
	require.Len(t, datas, 1)
	require.Equal(t, latest, datas[0].WriterSN, "the latest, at once")
	return w
}

// TestNackSuppression: a change resent to a reader is not resent to it
// again within NackSuppression; later requests are counted and ignored,
// and once the time has passed it is resent again.
func TestNackSuppression(t *testing.T) {
	var rec recorder
	now := time.Unix(1_700_000_000, 0)
	w := NewWriter(WriterConfig{GUID: localWriterID, Reliable: true, History: HistoryConfig{KeepAll: true}}, &rec)
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	for i := range 4 {
		_, err := w.Write(Change{Payload: payload(uint64(i), 0)}, now)
		require.NoError(t, err)
	}
	resent := func() []wire.SequenceNumber {
		t.Helper()
		_, datas, _, _ := rec.all(t)
		rec.msgs = nil
		var sns []wire.SequenceNumber
		for _, d := range datas {
			sns = append(sns, d.WriterSN)
		}
		return sns
	}
	rec.msgs = nil
	w.HandleAckNack(remotePrefix, nack(1, 2, 2, 3), now)
	require.Equal(t, []wire.SequenceNumber{2, 3}, resent())

	// 4 ms later 2 and 3 are still on their way: only 4 goes.
	now = now.Add(4 * time.Millisecond)
	w.HandleAckNack(remotePrefix, nack(2, 2, 2, 3, 4), now)
	require.Equal(t, []wire.SequenceNumber{4}, resent())
	require.Equal(t, uint64(2), w.Stats().NacksSuppressed)

	// After DefaultNackSuppression from their resend, 2 and 3 go again;
	// 4 (resent 2 ms ago) does not.
	now = now.Add(DefaultNackSuppression - 3*time.Millisecond)
	w.HandleAckNack(remotePrefix, nack(3, 2, 2, 3, 4), now)
	require.Equal(t, []wire.SequenceNumber{2, 3}, resent())
	require.Equal(t, uint64(3), w.Stats().NacksSuppressed)

	// Disabled, every request is served.
	rec.msgs = nil
	w2 := NewWriter(WriterConfig{GUID: localWriterID, Reliable: true, History: HistoryConfig{KeepAll: true}, NackSuppression: -1}, &rec)
	w2.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	_, err := w2.Write(Change{Payload: payload(1, 0)}, now)
	require.NoError(t, err)
	rec.msgs = nil
	w2.HandleAckNack(remotePrefix, nack(1, 1, 1), now)
	w2.HandleAckNack(remotePrefix, nack(2, 1, 1), now)
	require.Equal(t, []wire.SequenceNumber{1, 1}, resent())
	require.Zero(t, w2.Stats().NacksSuppressed)
}

// TestFlowControlWindow: a reliable writer sends no more than
// MaxUnackedBytes ahead of its reliable readers' acknowledgments, announces
// only what it sent, asks for acknowledgments, and sends the rest packed
// when they come.
func TestFlowControlWindow(t *testing.T) {
	var rec recorder
	now := time.Unix(1_700_000_000, 0)
	const size = 1000
	cost := size + 12 + changeOverhead + datagramOverhead // payload() adds 12 octets; one datagram each
	w := floodedWriter(t, &rec, WriterConfig{History: HistoryConfig{KeepAll: true}, MaxUnackedBytes: 4 * cost}, 10, size, now)
	_, datas, _, hbs := rec.all(t)
	require.Len(t, datas, 4)
	require.Equal(t, uint64(6), w.Stats().Deferred)
	require.NotEmpty(t, hbs)
	for _, h := range hbs {
		require.LessOrEqual(t, h.LastSN, wire.SequenceNumber(4), "HEARTBEATs announce what was sent")
	}
	last := hbs[len(hbs)-1]
	require.Equal(t, wire.SequenceNumber(3), last.LastSN, "the first write beyond half of the window")
	require.False(t, last.Final, "a half-used window asks for acknowledgments")

	// A request beyond what was sent is not answered with data nor GAP.
	rec.msgs = nil
	w.HandleAckNack(remotePrefix, nack(1, 1, 1, 5, 6), now)
	_, datas, gaps, _ := rec.all(t)
	require.Len(t, datas, 1)
	require.Equal(t, wire.SequenceNumber(1), datas[0].WriterSN)
	require.Empty(t, gaps)

	// Acknowledging 1 and 2 opens room for two more datagrams: packed in
	// one, four changes fit.
	rec.msgs = nil
	w.HandleAckNack(remotePrefix, nack(2, 3), now)
	_, datas, _, hbs = rec.all(t)
	require.Len(t, rec.msgs, 1)
	require.Len(t, datas, 4)
	for i, d := range datas {
		require.Equal(t, wire.SequenceNumber(5+i), d.WriterSN)
		require.Equal(t, wire.EntityIDUnknown, d.ReaderID)
	}
	require.Len(t, hbs, 1)
	require.Equal(t, wire.SequenceNumber(8), hbs[0].LastSN)

	// The periodic HEARTBEAT also announces only what was sent.
	rec.msgs = nil
	w.Tick(w.Deadline())
	_, _, _, hbs = rec.all(t)
	require.Len(t, hbs, 1)
	require.Equal(t, wire.SequenceNumber(8), hbs[0].LastSN)

	// Acknowledging everything sent releases the rest.
	rec.msgs = nil
	w.HandleAckNack(remotePrefix, nack(3, 9), now)
	_, datas, _, _ = rec.all(t)
	require.Len(t, datas, 2)
	w.HandleAckNack(remotePrefix, nack(4, 11), now)
	require.True(t, w.AckedByAll(10))
	require.Zero(t, w.HistoryLen())
}

// TestFlowControlKeepLast: a KEEP_LAST writer whose window is full never
// fails a Write; the changes replaced before they could be sent go as a
// GAP, and removing the only reliable reader sends what waited to the
// best-effort readers.
func TestFlowControlKeepLast(t *testing.T) {
	var rec recorder
	now := time.Unix(1_700_000_000, 0)
	w := keepLastBehind(t, &rec, WriterConfig{History: HistoryConfig{Depth: 2}, MaxUnackedBytes: 1},
		100, 1, "a window of 1 octet still lets one change through", 2, 99, now)

	// Best-effort readers alone are not flow-controlled.
	other := wire.GUID{Prefix: remotePrefix, Entity: wire.EntityIDFromUint32(0x207)}
	w.AddReader(ReaderProxyInfo{GUID: other, Unicast: []wire.Locator{testLoc}}, now)
	rec.msgs = nil
	w.RemoveReader(remoteReader)
	for i := range 5 {
		_, err := w.Write(Change{Payload: payload(uint64(i), 100)}, now)
		require.NoError(t, err)
	}
	_, datas, _, _ := rec.all(t)
	require.Len(t, datas, 6, "SN 100 that waited, then the five new ones")
}

// TestFlowControlKeepLastFarAhead: the changes a KEEP_LAST history replaced
// before they went out take no room in the window of changes. A writer far
// ahead of its reader once sent them as GAPs that each counted as a change:
// the reader then got a window's worth of GAPs per acknowledgment and stalled
// for seconds while the writer wrote on (the soak run found it).
func TestFlowControlKeepLastFarAhead(t *testing.T) {
	var rec recorder
	keepLastBehind(t, &rec, WriterConfig{History: HistoryConfig{Depth: 1}, MaxUnackedChanges: 4},
		1000, 4, "the window of 4 changes", 5, 1000, time.Unix(1_700_000_000, 0))
}

// reliablePair makes a writer with wcfg on node 1 of n, matched to a reliable reader on
// node 2 that answers heartbeats after a millisecond and delivers into the collector
// returned.
func (n *simNet) reliablePair(wcfg WriterConfig) (*Writer, *collector) {
	wn, rn := n.node(1), n.node(2)
	w := wn.writer(testWriterID, wcfg)
	got := new(collector)
	r := rn.reader(testReaderID, ReaderConfig{Reliable: true, HeartbeatResponseDelay: time.Millisecond}, got.deliver)
	n.match(w, wn, r, rn)
	return w, got
}

// TestFlowControlUnderLoss: with a window far below a large KEEP_ALL
// history and 20% loss, everything arrives in order and nothing is left
// unacknowledged.
func TestFlowControlUnderLoss(t *testing.T) {
	const total = 5000
	net := newSimNet(t, 7)
	net.loss, net.dup, net.maxDelay = 0.2, 0.05, 2*time.Millisecond
	w, got := net.reliablePair(WriterConfig{
		Reliable: true, History: HistoryConfig{KeepAll: true},
		HeartbeatPeriod: 20 * time.Millisecond, MaxUnackedBytes: 16 << 10,
	})
	for i := range total {
		_, err := w.Write(Change{Payload: payload(uint64(i), 500)}, net.now)
		require.NoError(t, err)
	}
	require.Greater(t, w.Stats().Deferred, uint64(total/2))
	ok := net.run(time.Millisecond, 5*time.Minute, func() bool { return len(got.seqs) == total && w.AckedByAll(total) })
	require.True(t, ok, "delivered %d; writer %+v", len(got.seqs), w.Stats())
	for i, s := range got.seqs {
		require.Equal(t, uint64(i), s)
	}
	require.Zero(t, w.HistoryLen())
	t.Logf("sent %d datagrams, lost %d; writer %+v", net.sent, net.dropped, w.Stats())
}

// TestFlowControlTransientLocalLateJoiner: a late reliable reader of a
// transient-local writer gets the whole history while the window holds new
// writes back until it has caught up, and then gets those too.
func TestFlowControlTransientLocalLateJoiner(t *testing.T) {
	net := newSimNet(t, 11)
	net.loss, net.maxDelay = 0.1, time.Millisecond
	wn, rn1, rn2 := net.node(1), net.node(2), net.node(3)
	w := wn.writer(0x00000202, WriterConfig{
		Reliable: true, TransientLocal: true, History: HistoryConfig{KeepAll: true},
		HeartbeatPeriod: 20 * time.Millisecond, MaxUnackedBytes: 8 << 10,
	})
	var early, late collector
	r1 := rn1.reader(testReaderID, ReaderConfig{Reliable: true, HeartbeatResponseDelay: time.Millisecond}, early.deliver)
	net.match(w, wn, r1, rn1)
	write := func(from, to int) {
		for i := from; i < to; i++ {
			_, err := w.Write(Change{Payload: payload(uint64(i), 1000)}, net.now)
			require.NoError(t, err)
		}
	}
	write(0, 100)
	require.True(t, net.run(time.Millisecond, time.Minute, func() bool { return w.AckedByAll(100) }))
	r2 := rn2.reader(testReaderID, ReaderConfig{Reliable: true, HeartbeatResponseDelay: time.Millisecond}, late.deliver)
	net.match(w, wn, r2, rn2)
	write(100, 200)
	require.NotZero(t, w.Stats().Deferred, "the late joiner holds the window back")
	ok := net.run(time.Millisecond, time.Minute, func() bool { return w.AckedByAll(200) })
	require.True(t, ok, "early %d late %d; writer %+v", len(early.seqs), len(late.seqs), w.Stats())
	for _, c := range []*collector{&early, &late} {
		require.Len(t, c.seqs, 200)
		for i, s := range c.seqs {
			require.Equal(t, uint64(i), s)
		}
	}
}

// TestFlowControlAllocs: writes held back by the window and sent when
// acknowledgments come allocate nothing in steady state.
func TestFlowControlAllocs(t *testing.T) {
	var pool bufPool
	out := &discard{}
	now := time.Unix(1_700_000_000, 0)
	w := NewWriter(WriterConfig{
		GUID: localWriterID, Reliable: true, History: HistoryConfig{KeepAll: true},
		MaxUnackedBytes: 4 << 10, Release: pool.put,
	}, out)
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	a := wire.AckNack{ReaderID: remoteReader.Entity, WriterID: localWriterID.Entity, Final: true}
	round := func() {
		for range 8 {
			if _, err := w.Write(Change{Payload: pool.get(1024)}, now); err != nil {
				t.Fatal(err)
			}
		}
		// Ask for the oldest unacknowledged change, and acknowledge up to it.
		now = now.Add(time.Millisecond)
		sn := w.flow.base + 1
		a.Count++
		a.ReaderSNState = wire.SequenceNumberSet{Base: sn}
		a.ReaderSNState.Add(sn)
		w.HandleAckNack(remotePrefix, &a, now)
		for w.ackedAll < w.lastSN { // each acknowledgment releases more
			a.Count++
			a.ReaderSNState = wire.SequenceNumberSet{Base: w.sentSN + 1}
			w.HandleAckNack(remotePrefix, &a, now)
		}
	}
	for range 50 {
		round()
	}
	require.Zero(t, testing.AllocsPerRun(200, round))
	require.NotZero(t, w.Stats().Deferred)
}

// TestNackSuppressionUnderLoss: without the window (one datagram per
// sample) and with 20% loss, duplication and reordering, suppressing the
// repeated requests loses nothing.
func TestNackSuppressionUnderLoss(t *testing.T) {
	const total = 20_000
	net := newSimNet(t, 13)
	net.loss, net.dup, net.maxDelay = 0.2, 0.1, 3*time.Millisecond
	w, got := net.reliablePair(WriterConfig{
		Reliable: true, History: HistoryConfig{KeepAll: true, MaxSamples: 512},
		HeartbeatPeriod: 20 * time.Millisecond, MaxUnackedBytes: -1,
	})
	written := 0
	ok := net.run(time.Millisecond, 10*time.Minute, func() bool {
		for range 64 {
			if written == total || w.Full(wire.KeyHash{}) {
				break
			}
			_, err := w.Write(Change{Payload: payload(uint64(written), 0)}, net.now)
			require.NoError(t, err)
			written++
		}
		return len(got.seqs) == total && w.AckedByAll(total)
	})
	require.True(t, ok, "delivered %d of %d", len(got.seqs), total)
	for i, s := range got.seqs {
		require.Equal(t, uint64(i), s)
	}
	ws := w.Stats()
	require.Zero(t, ws.Deferred)
	require.NotZero(t, ws.NacksSuppressed)
	t.Logf("sent %d datagrams, lost %d; writer %+v", net.sent, net.dropped, ws)
}

// TestNackFragSuppression: a fragment resent less than NackSuppression ago
// is not resent again, and a repair that sends nothing sends no HEARTBEAT
// either (it would make the reader ask again at once).
func TestNackFragSuppression(t *testing.T) {
	var rec recorder
	now := time.Unix(1_700_000_000, 0)
	w := NewWriter(WriterConfig{GUID: localWriterID, Reliable: true, History: HistoryConfig{KeepAll: true}, FragmentSize: 100}, &rec)
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	_, err := w.Write(Change{Payload: payload(1, 350)}, now) // 4 fragments
	require.NoError(t, err)
	nackFrag := func(count wire.Count, frags ...wire.FragmentNumber) *wire.NackFrag {
		n := &wire.NackFrag{ReaderID: remoteReader.Entity, WriterID: localWriterID.Entity, WriterSN: 1, Count: count}
		n.FragmentNumberState.Base = frags[0]
		for _, f := range frags {
			n.FragmentNumberState.Add(f)
		}
		return n
	}
	before := w.Stats().Retransmits
	rec.msgs = nil
	w.HandleNackFrag(remotePrefix, nackFrag(1, 2, 3), now)
	require.Equal(t, uint64(1), w.Stats().Retransmits-before, "fragments 2 and 3, one DATA_FRAG")
	require.Len(t, rec.msgs, 1)

	// 2 ms later, fragment 2 again and 4: only 4 goes.
	now = now.Add(2 * time.Millisecond)
	rec.msgs = nil
	w.HandleNackFrag(remotePrefix, nackFrag(2, 2, 4), now)
	require.Equal(t, uint64(2), w.Stats().Retransmits-before)
	require.Equal(t, uint64(1), w.Stats().NacksSuppressed)

	// Fragment 3 again at once: nothing at all is sent, not even a HEARTBEAT.
	rec.msgs = nil
	w.HandleNackFrag(remotePrefix, nackFrag(3, 3), now)
	require.Empty(t, rec.msgs)

	// After NackSuppression it goes again.
	now = now.Add(DefaultNackSuppression)
	w.HandleNackFrag(remotePrefix, nackFrag(4, 3), now)
	require.Equal(t, uint64(3), w.Stats().Retransmits-before)
	require.Len(t, rec.msgs, 1)
}

// TestHeartbeatUntilHeard: a reliable reader that has sent nothing yet gets
// a HEARTBEAT every period even when nothing is written, until it answers.
func TestHeartbeatUntilHeard(t *testing.T) {
	var rec recorder
	now := time.Unix(1_700_000_000, 0)
	w := NewWriter(WriterConfig{GUID: localWriterID, Reliable: true, History: HistoryConfig{KeepAll: true}}, &rec)
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Volatile: true, Unicast: []wire.Locator{testLoc}}, now)
	_, _, _, hbs := rec.all(t)
	require.Len(t, hbs, 1, "at once when matched")
	rec.msgs = nil
	start := now
	for i := range introHeartbeats { // the introductory ones: +10, +30, +70 ms
		require.Equal(t, start.Add(introGap*(1<<(i+1)-1)), w.Deadline())
		now = w.Deadline()
		w.Tick(now)
	}
	_, _, _, hbs = rec.all(t)
	require.Len(t, hbs, introHeartbeats)
	rec.msgs = nil
	require.Equal(t, start.Add(DefaultHeartbeatPeriod), w.Deadline())

	now = w.Deadline()
	w.Tick(now)
	_, _, _, hbs = rec.all(t)
	require.Len(t, hbs, 1, "again a period later: the first ones may have been lost")
	require.Equal(t, remoteReader.Entity, hbs[0].ReaderID)
	require.Equal(t, wire.SequenceNumber(0), hbs[0].LastSN)
	rec.msgs = nil

	// The reader answers: nothing more while nothing is written.
	w.HandleAckNack(remotePrefix, nack(1, 1), now)
	rec.msgs = nil
	now = now.Add(DefaultHeartbeatPeriod)
	w.Tick(now)
	require.Empty(t, rec.msgs)
	require.True(t, w.Deadline().IsZero())
}

// A volatile reader that has not spoken may not have matched the writer when the changes
// written after its match went out, and Cyclone DDS starts such a reader after the first
// HEARTBEAT's lastSN: so until it speaks, every HEARTBEAT that reaches it (directed,
// periodic, piggy-backed on data to every reader) announces only what was written before
// it matched, and the reader asks for the rest. Once it has spoken, HEARTBEATs announce
// everything again.
func TestHeartbeatBeforeUnheardReader(t *testing.T) {
	var rec recorder
	now := time.Unix(1_700_000_000, 0)
	w := NewWriter(WriterConfig{GUID: localWriterID, Reliable: true, History: HistoryConfig{KeepAll: true}, PiggybackEvery: 1}, &rec)
	for i := range 3 { // written before the reader matched
		_, err := w.Write(Change{Payload: payload(uint64(i), 10)}, now)
		require.NoError(t, err)
	}
	other := wire.GUID{Prefix: wire.GuidPrefix{0x01, 0x10, 10}, Entity: remoteReader.Entity}
	w.AddReader(ReaderProxyInfo{GUID: other, Reliable: true, Volatile: true, Unicast: []wire.Locator{testLoc}}, now)
	w.HandleAckNack(other.Prefix, nack(1, 4), now) // a reader that has spoken
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Volatile: true, Unicast: []wire.Locator{testLoc}}, now)
	rec.msgs = nil
	for i := range 5 { // written after it matched, the reader not knowing the writer yet
		_, err := w.Write(Change{Payload: payload(uint64(3+i), 10)}, now)
		require.NoError(t, err)
	}
	for range 3 { // the introductory and periodic HEARTBEATs
		now = w.Deadline()
		w.Tick(now)
	}
	_, datas, _, hbs := rec.all(t)
	require.Len(t, datas, 5)
	require.NotEmpty(t, hbs)
	for _, hb := range hbs {
		require.Equal(t, wire.SequenceNumber(3), hb.LastSN, "only what was written before it matched: %+v", hb)
		require.LessOrEqual(t, hb.FirstSN, hb.LastSN+1)
	}

	// It speaks: asks for what it missed, and from then on HEARTBEATs announce all.
	rec.msgs = nil
	w.HandleAckNack(remotePrefix, nack(1, 4, 4, 5, 6, 7, 8), now)
	now = now.Add(time.Second)
	w.Tick(now)
	_, datas, _, hbs = rec.all(t)
	require.Len(t, datas, 5, "the changes it missed")
	require.NotEmpty(t, hbs)
	require.Equal(t, wire.SequenceNumber(8), hbs[len(hbs)-1].LastSN)
	rec.msgs = nil
	_, err := w.Write(Change{Payload: payload(8, 10)}, now)
	require.NoError(t, err)
	_, _, _, hbs = rec.all(t)
	require.Len(t, hbs, 1)
	require.Equal(t, wire.SequenceNumber(9), hbs[0].LastSN, "piggy-backed, announcing all")
}

// A reader that never answers gets the introductory HEARTBEATs and then
// periodic ones: each period for unheardSteady periods, then at periods 16,
// 32 and 64, none after maxUnheardHBs — whether changes wait for it or
// not (a forged reader lags forever).
func TestHeartbeatUntilHeardBounded(t *testing.T) {
	for _, lagging := range []bool{false, true} {
		var rec recorder
		now := time.Unix(1_700_000_000, 0)
		w := NewWriter(WriterConfig{GUID: localWriterID, Reliable: true, History: HistoryConfig{KeepAll: true}}, &rec)
		w.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
		if lagging {
			_, err := w.Write(Change{Payload: payload(1, 10)}, now)
			require.NoError(t, err)
		}
		rec.msgs = nil
		start := now
		var at []int // the periods of the periodic HEARTBEATs
		for range 3 * maxUnheardHBs {
			if w.Deadline().IsZero() {
				break
			}
			now = w.Deadline()
			before := len(rec.msgs)
			w.Tick(now)
			if len(rec.msgs) > before && now.Sub(start) >= w.cfg.HeartbeatPeriod {
				at = append(at, int(now.Sub(start)/w.cfg.HeartbeatPeriod))
			}
		}
		_, _, _, hbs := rec.all(t)
		require.Len(t, hbs, introHeartbeats+unheardSteady+3, "lagging %v", lagging)
		require.Equal(t, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 16, 32, 64}, at, "lagging %v", lagging)
		require.Equal(t, !lagging, w.Deadline().IsZero())
	}
}
