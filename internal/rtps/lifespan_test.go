package rtps

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/wire"
)

const testLifespan = 100 * time.Millisecond

// at returns a change of instance key k written (source timestamp) at t.
func at(t time.Time, k byte, seq uint64) Change {
	return Change{KeyHash: wire.KeyHash{k}, Timestamp: wire.TimeFromTime(t), Payload: payload(seq, 0)}
}

// TestHistoryLifespan: alive changes expire at their timestamp plus the
// lifespan, disposes never; timestamps out of order are handled; the
// instance records stay consistent, so KEEP_LAST still replaces right.
func TestHistoryLifespan(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	h := NewWriterHistory(HistoryConfig{Depth: 2, Lifespan: testLifespan}, nil)
	add := func(sn int, c Change) {
		c.SN = wire.SequenceNumber(sn)
		require.NoError(t, h.Add(c))
	}
	add(1, at(t0, 1, 1))
	dispose := at(t0, 1, 2)
	dispose.Kind = NotAliveDisposed
	add(2, dispose)
	add(3, at(t0.Add(50*time.Millisecond), 2, 3))
	add(4, at(t0.Add(-30*time.Millisecond), 3, 4)) // older timestamp than 3
	require.Equal(t, t0.Add(70*time.Millisecond), h.NextExpiry())
	require.Zero(t, h.Expire(t0.Add(69*time.Millisecond)))
	require.Equal(t, 1, h.Expire(t0.Add(70*time.Millisecond)))
	require.Equal(t, t0.Add(100*time.Millisecond), h.NextExpiry())
	require.Equal(t, 1, h.Expire(t0.Add(120*time.Millisecond)))
	_, ok := h.Get(1)
	require.False(t, ok)
	_, ok = h.Get(2)
	require.True(t, ok, "a dispose never expires")
	require.Equal(t, t0.Add(150*time.Millisecond), h.NextExpiry())
	// Instance 1 keeps its dispose; two more changes of it replace the oldest.
	add(5, at(t0.Add(120*time.Millisecond), 1, 5))
	add(6, at(t0.Add(120*time.Millisecond), 1, 6))
	_, ok = h.Get(2)
	require.False(t, ok, "KEEP_LAST 2 replaced the dispose")
	require.Equal(t, 3, h.Expire(t0.Add(time.Second)))
	require.Zero(t, h.Len())
	require.True(t, h.NextExpiry().IsZero())
	// Without a lifespan nothing expires.
	h = NewWriterHistory(HistoryConfig{}, nil)
	c := at(t0, 1, 1)
	c.SN = 1
	require.NoError(t, h.Add(c))
	require.True(t, h.NextExpiry().IsZero())
	require.Zero(t, h.Expire(t0.Add(time.Hour)))
}

// TestWriterLifespanLateJoiner: a transient-local writer drops the changes
// whose lifespan passed, at the deadline it reports: a reliable late joiner
// hears only of the others and gets a GAP for the expired ones it asks for;
// a best-effort late joiner gets only the others.
func TestWriterLifespanLateJoiner(t *testing.T) {
	var rec recorder
	t0 := time.Unix(1_700_000_000, 0)
	w := NewWriter(WriterConfig{
		GUID: localWriterID, Reliable: true, TransientLocal: true, Keyed: true,
		History: HistoryConfig{Depth: 10, Lifespan: testLifespan},
	}, &rec)
	for i := range 3 {
		_, err := w.Write(at(t0, 1, uint64(i)), t0)
		require.NoError(t, err)
	}
	_, err := w.Write(at(t0.Add(80*time.Millisecond), 1, 3), t0.Add(80*time.Millisecond))
	require.NoError(t, err)
	require.Equal(t, t0.Add(testLifespan), w.Deadline(), "the first expiry")
	now := t0.Add(150 * time.Millisecond)
	require.Equal(t, t0.Add(180*time.Millisecond), w.Tick(now))
	require.Equal(t, 1, w.HistoryLen())
	require.Equal(t, uint64(3), w.Stats().Expired)

	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	_, datas, _, hbs := rec.all(t)
	require.Empty(t, datas)
	require.Equal(t, wire.SequenceNumber(4), hbs[len(hbs)-1].FirstSN, "the expired changes are not announced")
	require.Equal(t, wire.SequenceNumber(4), hbs[len(hbs)-1].LastSN)

	rec.msgs = nil
	a := wire.AckNack{ReaderID: remoteReader.Entity, WriterID: localWriterID.Entity, Count: 1, ReaderSNState: wire.SequenceNumberSet{Base: 1}}
	for sn := range wire.SequenceNumber(4) {
		a.ReaderSNState.Add(sn + 1)
	}
	w.HandleAckNack(remotePrefix, &a, now)
	_, datas, gaps, _ := rec.all(t)
	require.Len(t, datas, 1)
	require.Equal(t, wire.SequenceNumber(4), datas[0].WriterSN)
	require.Len(t, gaps, 1)
	require.Equal(t, wire.SequenceNumber(1), gaps[0].GapStart)
	require.Equal(t, wire.SequenceNumber(4), gaps[0].GapList.Base)

	rec.msgs = nil
	be := remoteReader
	be.Entity = wire.EntityIDFromUint32(0x00000207)
	w.AddReader(ReaderProxyInfo{GUID: be, Unicast: []wire.Locator{testLoc}}, now)
	_, datas, _, _ = rec.all(t)
	require.Len(t, datas, 1, "a best-effort late joiner gets the history left")
	require.Equal(t, wire.SequenceNumber(4), datas[0].WriterSN)
}

// TestWriterLifespanNoRepair: changes sent but lost on the way are not
// resent once their lifespan has passed: the reader that asks for them
// gets a GAP, and counts them lost, exactly.
func TestWriterLifespanNoRepair(t *testing.T) {
	net := newSimNet(t, 7)
	wn, rn := net.node(1), net.node(2)
	w := wn.writer(testWriterID, WriterConfig{
		Reliable: true, History: HistoryConfig{KeepAll: true, Lifespan: testLifespan},
	})
	var got collector
	r := rn.reader(testReaderID, ReaderConfig{Reliable: true}, got.deliver)
	net.match(w, wn, r, rn)
	require.True(t, net.run(time.Millisecond, time.Second, func() bool { return w.HeardFrom(r.GUID()) }))

	t0 := net.now // everything is lost until the first two changes expire
	writeLostThenOne(t, net, w, 2, func() time.Time { return t0 }, func() {
		require.True(t, net.run(time.Millisecond, time.Second, func() bool { return !net.now.Before(t0.Add(testLifespan)) }))
	})

	require.Equal(t, []uint64{2}, got.seqs)
	require.Equal(t, uint64(2), r.Stats().Lost)
	require.Equal(t, uint64(2), got.samples[0].Lost, "reported with the next sample")
	ws := w.Stats()
	require.Equal(t, uint64(2), ws.Expired)
	require.Zero(t, ws.Retransmits, "expired changes are not repaired")
	require.Zero(t, w.HistoryLen())
}

// TestWriterLifespanGapRepair: a reader that asks for changes that expired
// since gets a GAP, never the changes.
func TestWriterLifespanGapRepair(t *testing.T) {
	var rec recorder
	t0 := time.Unix(1_700_000_000, 0)
	w := NewWriter(WriterConfig{GUID: localWriterID, Reliable: true, History: HistoryConfig{KeepAll: true, Lifespan: testLifespan}}, &rec)
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Unicast: []wire.Locator{testLoc}}, t0)
	for i := range 3 {
		_, err := w.Write(at(t0.Add(time.Duration(i)*40*time.Millisecond), 0, uint64(i)), t0.Add(time.Duration(i)*40*time.Millisecond))
		require.NoError(t, err)
	}
	rec.msgs = nil
	// At 130 ms the first expired; the reader, which got none, asks for all.
	a := wire.AckNack{ReaderID: remoteReader.Entity, WriterID: localWriterID.Entity, Count: 1, ReaderSNState: wire.SequenceNumberSet{Base: 1}}
	a.ReaderSNState.Add(1)
	a.ReaderSNState.Add(2)
	a.ReaderSNState.Add(3)
	w.HandleAckNack(remotePrefix, &a, t0.Add(130*time.Millisecond))
	_, datas, gaps, _ := rec.all(t)
	require.Len(t, gaps, 1)
	require.Equal(t, wire.SequenceNumber(1), gaps[0].GapStart)
	require.Equal(t, wire.SequenceNumber(2), gaps[0].GapList.Base)
	require.Len(t, datas, 2)
	require.Equal(t, wire.SequenceNumber(2), datas[0].WriterSN)
	require.Equal(t, wire.SequenceNumber(3), datas[1].WriterSN)
}

// TestWriterLifespanAllocs: writes that expire older changes as they go allocate
// nothing in steady state (instances come and go with their changes).
func TestWriterLifespanAllocs(t *testing.T) {
	var pool bufPool
	now := time.Unix(1_700_000_000, 0)
	w := NewWriter(WriterConfig{
		GUID: localWriterID, Reliable: true, TransientLocal: true, Keyed: true,
		History: HistoryConfig{KeepAll: true, Lifespan: time.Millisecond}, Release: pool.put,
	}, &discard{})
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	requireAckedWritesAllocNothing(t, w, func() Change {
		return Change{KeyHash: wire.KeyHash{byte(now.UnixMicro() / 100 % 7)}, Timestamp: wire.TimeFromTime(now), Payload: pool.get(64)}
	}, &now, 100*time.Microsecond)
	require.LessOrEqual(t, w.HistoryLen(), 11, "changes older than the lifespan are gone")
}

// TestSampleLostKeepLast: changes a KEEP_LAST writer replaced before the reader got
// them are lost for that reader, counted exactly, whether the writer's HEARTBEAT or a
// GAP tells it.
func TestSampleLostKeepLast(t *testing.T) {
	net := newSimNet(t, 9)
	wn, rn := net.node(1), net.node(2)
	w := wn.writer(testWriterID, WriterConfig{Reliable: true, History: HistoryConfig{Depth: 1}})
	var got collector
	r := rn.reader(testReaderID, ReaderConfig{Reliable: true}, got.deliver)
	net.match(w, wn, r, rn)
	require.True(t, net.run(time.Millisecond, time.Second, func() bool { return w.HeardFrom(r.GUID()) }))
	writeLostThenOne(t, net, w, 3, func() time.Time { return net.now }, func() { net.step(time.Millisecond) })
	require.Equal(t, []uint64{3}, got.seqs)
	require.Equal(t, uint64(3), r.Stats().Lost)
	require.Equal(t, uint64(3), got.samples[0].Lost)
}

// TestReaderReportLost: with ReportLost, the losses a GAP or a HEARTBEAT tells a
// reliable reader of reach the deliver callback at once, alone, when no change follows
// to carry them; a change delivered right after carries them instead.
func TestReaderReportLost(t *testing.T) {
	var got collector
	now := time.Unix(1_700_000_000, 0)
	r := NewReader(ReaderConfig{GUID: localReaderID, Reliable: true, ReportLost: true}, got.deliver, &recorder{})
	r.AddWriter(WriterProxyInfo{GUID: remoteWriter, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	data := func(sn int) {
		d := wire.Data{WriterID: remoteWriter.Entity, WriterSN: wire.SequenceNumber(sn), DataFlag: true, SerializedPayload: payload(uint64(sn), 0)}
		r.HandleData(remotePrefix, &d, wire.TimeInvalid, now)
	}
	data(1)
	g := wire.Gap{WriterID: remoteWriter.Entity, GapStart: 2, GapList: wire.SequenceNumberSet{Base: 4}}
	r.HandleGap(remotePrefix, &g, now)
	require.Len(t, got.samples, 2)
	require.True(t, got.samples[1].LostOnly)
	require.Equal(t, uint64(2), got.samples[1].Lost, "2 and 3")
	hb := wire.Heartbeat{WriterID: remoteWriter.Entity, FirstSN: 6, LastSN: 6, Count: 1}
	r.HandleHeartbeat(remotePrefix, &hb, now)
	require.Len(t, got.samples, 3)
	require.Equal(t, Sample{Writer: remoteWriter, Lost: 2, LostOnly: true}, got.samples[2], "4 and 5")
	// 7 held, then a GAP for 6: 7 is delivered and carries the loss.
	data(7)
	g = wire.Gap{WriterID: remoteWriter.Entity, GapStart: 6, GapList: wire.SequenceNumberSet{Base: 7}}
	r.HandleGap(remotePrefix, &g, now)
	require.Len(t, got.samples, 4)
	require.False(t, got.samples[3].LostOnly)
	require.Equal(t, uint64(1), got.samples[3].Lost)
	require.Equal(t, uint64(5), r.Stats().Lost)
}

// writeLostThenOne writes changes 0..n-1 (stamped at stamp()) while net loses
// everything, runs between, then writes change n on a working network and waits
// until every reader acknowledged it.
func writeLostThenOne(t *testing.T, net *simNet, w *Writer, n int, stamp func() time.Time, between func()) {
	t.Helper()
	net.loss = 1
	for i := range n {
		_, err := w.Write(at(stamp(), 0, uint64(i)), net.now)
		require.NoError(t, err)
	}
	between()
	net.loss = 0
	_, err := w.Write(at(net.now, 0, uint64(n)), net.now)
	require.NoError(t, err)
	require.True(t, net.run(time.Millisecond, 10*time.Second, func() bool { return w.AckedByAll(wire.SequenceNumber(n + 1)) }))
}
