package rtps

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/transport"
	"github.com/ddsgo/ddsgo/internal/wire"
)

const (
	testWriterID = 0x00000102
	testReaderID = 0x00000107
)

// TestReliableKeepAllUnderLoss: with 20%
// loss, duplication and reordering, 100 000 reliable KEEP_ALL samples
// arrive exactly once and in order.
func TestReliableKeepAllUnderLoss(t *testing.T) {
	const total = 100_000
	net := newSimNet(t, 1)
	net.loss, net.dup, net.maxDelay = 0.2, 0.1, 3*time.Millisecond
	wn, rn := net.node(1), net.node(2)
	var pool [][]byte
	w := wn.writer(testWriterID, WriterConfig{
		Reliable:        true,
		History:         HistoryConfig{KeepAll: true, MaxSamples: 512},
		HeartbeatPeriod: 20 * time.Millisecond,
		Release:         func(b []byte) { pool = append(pool, b) },
	})
	run := net.inOrder(w, wn, rn, ReaderConfig{Reliable: true, HeartbeatResponseDelay: time.Millisecond}, total, 10*time.Minute,
		func(seq uint64) Change {
			var b []byte
			if n := len(pool); n > 0 {
				b, pool = pool[n-1][:12], pool[:n-1]
			} else {
				b = make([]byte, 12)
			}
			b[1] = 1
			putSeq(b, seq)
			return Change{Payload: b, Timestamp: wire.TimeFromTime(net.now)}
		})
	run.require(t)
	rs, ws := run.r.Stats(), w.Stats()
	require.Equal(t, uint64(total), rs.Delivered)
	require.Zero(t, rs.Lost)
	require.Zero(t, w.HistoryLen(), "a volatile writer drops what all readers acknowledged")
	t.Logf("sent %d datagrams, lost %d; writer %+v; reader %+v", net.sent, net.dropped, ws, rs)
}

// inOrderRun is the outcome of simNet.inOrder.
type inOrderRun struct {
	ok                bool
	written, received uint64
	bad               int // samples out of order or with the wrong SN
	total             uint64
	r                 *Reader
}

// inOrder matches w (on wn) with a reader of rcfg on rn, then writes total changes
// (change(seq) for seq 0, 1, ...) into w, at most 64 a millisecond and never into a full
// history, until the reader has received them all and w has them acknowledged, or limit
// has passed. The reader counts each sample whose payload is not the next seq or whose SN
// is not seq+1.
func (n *simNet) inOrder(w *Writer, wn, rn *simNode, rcfg ReaderConfig, total uint64, limit time.Duration, change func(seq uint64) Change) *inOrderRun {
	run := &inOrderRun{total: total}
	run.r = rn.reader(testReaderID, rcfg, func(s *Sample) bool {
		if payloadSeq(s.Payload) != run.received || s.SN != wire.SequenceNumber(run.received+1) {
			run.bad++
		}
		run.received++
		return true
	})
	n.match(w, wn, run.r, rn)
	run.ok = n.run(time.Millisecond, limit, func() bool {
		for range 64 {
			if run.written == total || w.Full(wire.KeyHash{}) {
				break
			}
			if _, err := w.Write(change(run.written), n.now); err != nil {
				n.t.Fatal(err)
			}
			run.written++
		}
		return run.received == total && w.AckedByAll(wire.SequenceNumber(total))
	})
	return run
}

// require fails t unless every change arrived, in order and with its SN.
func (run *inOrderRun) require(t *testing.T) {
	t.Helper()
	require.True(t, run.ok, "delivered %d of %d (written %d)", run.received, run.total, run.written)
	require.Zero(t, run.bad, "samples out of order or with the wrong SN")
}

func putSeq(b []byte, seq uint64) {
	for i := range 8 {
		b[4+i] = byte(seq >> (8 * i))
	}
}

func TestFragmentedSamplesUnderLoss(t *testing.T) {
	for _, size := range []int{1 << 20, 16 << 20} {
		t.Run(byteSize(size), func(t *testing.T) {
			net := newSimNet(t, uint64(size))
			net.loss, net.dup, net.maxDelay = 0.2, 0.05, 2*time.Millisecond
			wn, rn := net.node(1), net.node(2)
			w := wn.writer(testWriterID, WriterConfig{Reliable: true, History: HistoryConfig{KeepAll: true}, HeartbeatPeriod: 20 * time.Millisecond})
			var got collector
			r := rn.reader(testReaderID, ReaderConfig{Reliable: true}, got.deliver)
			net.match(w, wn, r, rn)
			want := [][]byte{payload(1, size), payload(2, size/3)}
			for _, p := range want {
				_, err := w.Write(Change{Payload: p}, net.now)
				require.NoError(t, err)
			}
			ok := net.run(time.Millisecond, time.Minute, func() bool { return len(got.samples) == len(want) })
			require.True(t, ok, "stats %+v", r.Stats())
			for i, p := range want {
				require.True(t, bytes.Equal(p, got.samples[i].Payload), "sample %d differs", i)
			}
			require.True(t, net.run(time.Millisecond, time.Minute, func() bool { return w.AckedByAll(2) }))
			require.Zero(t, r.MemoryInUse())
			t.Logf("writer %+v reader %+v", w.Stats(), r.Stats())
		})
	}
}

func byteSize(n int) string {
	if n >= 1<<20 {
		return string(rune('0'+n>>20/10%10)) + string(rune('0'+n>>20%10)) + "MiB"
	}
	return "small"
}

// TestKeepLastTransientLocalLateJoiner: a KEEP_LAST 2 transient-local
// writer with three instances gives a late reliable reader the last two
// changes of each instance, in order, and GAPs for the rest.
func TestKeepLastTransientLocalLateJoiner(t *testing.T) {
	net := newSimNet(t, 2)
	net.loss, net.maxDelay = 0.1, time.Millisecond
	wn, rn := net.node(1), net.node(2)
	w := wn.writer(0x00000202, WriterConfig{Reliable: true, TransientLocal: true, Keyed: true, History: HistoryConfig{Depth: 2}})
	for i := range 30 {
		_, err := w.Write(Change{KeyHash: wire.KeyHash{byte(i % 3)}, Payload: payload(uint64(i), 0)}, net.now)
		require.NoError(t, err)
	}
	require.Equal(t, 6, w.HistoryLen())
	var got collector
	r := rn.reader(0x00000207, ReaderConfig{Reliable: true}, got.deliver)
	net.match(w, wn, r, rn)
	require.True(t, net.run(time.Millisecond, 10*time.Second, func() bool { return len(got.seqs) == 6 }))
	require.Equal(t, []uint64{24, 25, 26, 27, 28, 29}, got.seqs)
	// New data follows.
	_, err := w.Write(Change{KeyHash: wire.KeyHash{1}, Payload: payload(30, 0)}, net.now)
	require.NoError(t, err)
	require.True(t, net.run(time.Millisecond, 10*time.Second, func() bool { return len(got.seqs) == 7 && w.AckedByAll(31) }))
	require.Equal(t, uint64(30), got.seqs[6])
	require.Equal(t, 6, w.HistoryLen(), "transient-local keeps the last 2 per instance")
}

// TestVolatileLateJoiner: a reader matched after some writes only gets the
// changes written after it matched.
func TestVolatileLateJoiner(t *testing.T) {
	net := newSimNet(t, 3)
	net.loss, net.maxDelay = 0.2, time.Millisecond
	wn, rn := net.node(1), net.node(2)
	w := wn.writer(testWriterID, WriterConfig{Reliable: true, History: HistoryConfig{KeepAll: true}})
	var early, late collector
	r1 := rn.reader(testReaderID, ReaderConfig{Reliable: true}, early.deliver)
	net.match(w, wn, r1, rn)
	for i := range 10 {
		_, err := w.Write(Change{Payload: payload(uint64(i), 0)}, net.now)
		require.NoError(t, err)
	}
	net.step(time.Millisecond) // some still unacknowledged: history not empty
	r2 := rn.reader(0x00000207, ReaderConfig{Reliable: true}, late.deliver)
	net.match(w, wn, r2, rn)
	for i := 10; i < 15; i++ {
		_, err := w.Write(Change{Payload: payload(uint64(i), 0)}, net.now)
		require.NoError(t, err)
	}
	require.True(t, net.run(time.Millisecond, 10*time.Second, func() bool {
		return len(early.seqs) == 15 && len(late.seqs) == 5 && w.AckedByAll(15)
	}))
	require.Equal(t, []uint64{10, 11, 12, 13, 14}, late.seqs)
	require.Zero(t, r2.Stats().Lost)
}

// TestVolatileReaderOfTransientLocalWriter: a volatile reader, reliable or
// best-effort, matched with a transient-local writer gets no history, only
// what is written after the match; a transient-local reader matched at the
// same time gets the history.
func TestVolatileReaderOfTransientLocalWriter(t *testing.T) {
	net := newSimNet(t, 5)
	net.loss, net.maxDelay = 0.1, time.Millisecond
	wn, rn := net.node(1), net.node(2)
	w := wn.writer(testWriterID, WriterConfig{Reliable: true, TransientLocal: true, History: HistoryConfig{Depth: 10}})
	for i := range 5 {
		_, err := w.Write(Change{Payload: payload(uint64(i), 0)}, net.now)
		require.NoError(t, err)
	}
	var volRel, volBE, durable collector
	readers := []struct {
		r        *Reader
		volatile bool
	}{
		{rn.reader(0x00000107, ReaderConfig{Reliable: true}, volRel.deliver), true},
		{rn.reader(0x00000207, ReaderConfig{}, volBE.deliver), true},
		{rn.reader(0x00000307, ReaderConfig{Reliable: true}, durable.deliver), false},
	}
	for _, x := range readers {
		rn.matches[w.GUID()] = append(rn.matches[w.GUID()], x.r)
		w.AddReader(ReaderProxyInfo{GUID: x.r.GUID(), Reliable: x.r.cfg.Reliable, Volatile: x.volatile, Unicast: []wire.Locator{rn.loc}}, net.now)
		x.r.AddWriter(WriterProxyInfo{GUID: w.GUID(), Reliable: true, Unicast: []wire.Locator{wn.loc}}, net.now)
	}
	net.step(time.Millisecond)
	for i := 5; i < 8; i++ {
		_, err := w.Write(Change{Payload: payload(uint64(i), 0)}, net.now)
		require.NoError(t, err)
	}
	require.True(t, net.run(time.Millisecond, 10*time.Second, func() bool {
		return len(volRel.seqs) == 3 && len(durable.seqs) == 8 && w.AckedByAll(8)
	}))
	require.Equal(t, []uint64{5, 6, 7}, volRel.seqs)
	require.Equal(t, []uint64{0, 1, 2, 3, 4, 5, 6, 7}, durable.seqs)
	require.NotContains(t, volBE.seqs, uint64(4), "no history for a best-effort volatile reader")
	require.Zero(t, readers[0].r.Stats().Lost)
}

// TestBestEffortTransientLocalLateJoiner: a best-effort late joiner gets the
// history at once.
func TestBestEffortTransientLocalLateJoiner(t *testing.T) {
	net := newSimNet(t, 4)
	wn, rn := net.node(1), net.node(2)
	w := wn.writer(testWriterID, WriterConfig{Reliable: true, TransientLocal: true, History: HistoryConfig{Depth: 3}})
	for i := range 5 {
		_, err := w.Write(Change{Payload: payload(uint64(i), 0)}, net.now)
		require.NoError(t, err)
	}
	var got collector
	r := rn.reader(testReaderID, ReaderConfig{}, got.deliver)
	net.match(w, wn, r, rn)
	net.step(time.Millisecond)
	require.Equal(t, []uint64{2, 3, 4}, got.seqs)
}

// recorder is a Sender that keeps the messages sent.
type recorder struct{ msgs [][]byte }

func (r *recorder) Send(msg []byte, _ []wire.Locator) { r.msgs = append(r.msgs, bytes.Clone(msg)) }

// submessages parses the recorded messages into their submessage kinds and
// decoded entity submessages.
func (r *recorder) all(t *testing.T) (kinds []wire.SubmessageKind, datas []wire.Data, gaps []wire.Gap, hbs []wire.Heartbeat) {
	t.Helper()
	for _, m := range r.msgs {
		var rd wire.Reader
		require.NoError(t, rd.Reset(m))
		for rd.Next() {
			kinds = append(kinds, rd.Kind())
			switch rd.Kind() {
			case wire.KindData:
				var d wire.Data
				require.NoError(t, rd.Data(&d))
				datas = append(datas, d)
			case wire.KindGap:
				var g wire.Gap
				require.NoError(t, rd.Gap(&g))
				gaps = append(gaps, g)
			case wire.KindHeartbeat:
				var h wire.Heartbeat
				require.NoError(t, rd.Heartbeat(&h))
				hbs = append(hbs, h)
			default:
			}
		}
		require.NoError(t, rd.Err())
	}
	return
}

var (
	testLoc       = wire.Locator{Kind: wire.LocatorKindUDPv4, Port: 7411}
	remotePrefix  = wire.GuidPrefix{0x01, 0x10, 9}
	remoteReader  = wire.GUID{Prefix: remotePrefix, Entity: wire.EntityIDFromUint32(testReaderID)}
	remoteWriter  = wire.GUID{Prefix: remotePrefix, Entity: wire.EntityIDFromUint32(testWriterID)}
	localPrefix   = wire.GuidPrefix{0x01, 0xdd, 1}
	localWriterID = wire.GUID{Prefix: localPrefix, Entity: wire.EntityIDFromUint32(testWriterID)}
	localReaderID = wire.GUID{Prefix: localPrefix, Entity: wire.EntityIDFromUint32(testReaderID)}
)

// TestDisposeUnregisterKeyHash: disposes and unregisters carry inline
// PID_KEY_HASH and PID_STATUS_INFO, and the reader reports them.
func TestDisposeUnregisterKeyHash(t *testing.T) {
	var rec recorder
	now := time.Unix(1_700_000_000, 0)
	w := NewWriter(WriterConfig{GUID: localWriterID, Reliable: true, Keyed: true, History: HistoryConfig{Depth: 1}}, &rec)
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	kh := wire.KeyHash{1, 2, 3, 4}
	key := []byte{0, 1, 0, 0, 42, 0, 0, 0}
	ts := wire.TimeFromTime(now)
	_, err := w.Write(Change{KeyHash: kh, Payload: payload(7, 4), Timestamp: ts}, now)
	require.NoError(t, err)
	_, err = w.Write(Change{Kind: NotAliveDisposed, KeyHash: kh, Payload: key, Timestamp: ts}, now)
	require.NoError(t, err)
	_, err = w.Write(Change{Kind: NotAliveUnregistered, KeyHash: kh, Timestamp: ts}, now)
	require.NoError(t, err)
	kinds, datas, _, _ := rec.all(t)
	require.Len(t, datas, 3)
	require.Contains(t, kinds, wire.KindInfoTS)
	require.Empty(t, datas[0].InlineQoS, "alive samples carry no inline QoS by default")
	for i, want := range []wire.StatusInfo{wire.StatusInfoDisposed, wire.StatusInfoUnregistered} {
		d := datas[i+1]
		p, ok := wire.FindParameter(d.InlineQoS, d.BigEndian, wire.VendorDDSGo, wire.PIDKeyHash)
		require.True(t, ok)
		require.Equal(t, kh[:], p.Value)
		p, ok = wire.FindParameter(d.InlineQoS, d.BigEndian, wire.VendorDDSGo, wire.PIDStatusInfo)
		require.True(t, ok)
		si, _, err := wire.ParseStatusInfo(p.Value)
		require.NoError(t, err)
		require.Equal(t, want, si)
	}
	require.True(t, datas[1].KeyFlag)
	require.False(t, datas[2].KeyFlag || datas[2].DataFlag)

	// Feed them to a reader.
	var got collector
	r := NewReader(ReaderConfig{GUID: remoteReader, Reliable: true}, got.deliver, &recorder{})
	r.AddWriter(WriterProxyInfo{GUID: localWriterID, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	for i := range datas {
		r.HandleData(localPrefix, &datas[i], ts, now)
	}
	require.Len(t, got.samples, 3)
	require.Equal(t, Alive, got.samples[0].Kind)
	require.Equal(t, NotAliveDisposed, got.samples[1].Kind)
	require.True(t, got.samples[1].HasKeyHash)
	require.True(t, got.samples[1].KeyOnly)
	require.Equal(t, key, got.samples[1].Payload)
	require.Equal(t, kh, got.samples[1].KeyHash)
	require.Equal(t, NotAliveUnregistered, got.samples[2].Kind)
	require.Empty(t, got.samples[2].Payload)
	require.Equal(t, ts, got.samples[2].SourceTimestamp)
}

// TestWriterGapForRemovedChanges: an ACKNACK asking for changes KEEP_LAST
// has replaced is answered with a GAP; those still held are resent.
func TestWriterGapForRemovedChanges(t *testing.T) {
	var rec recorder
	now := time.Unix(1_700_000_000, 0)
	w := NewWriter(WriterConfig{GUID: localWriterID, Reliable: true, History: HistoryConfig{Depth: 2}}, &rec)
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	for i := range 5 {
		_, err := w.Write(Change{Payload: payload(uint64(i), 0)}, now)
		require.NoError(t, err)
	}
	rec.msgs = nil
	a := wire.AckNack{ReaderID: remoteReader.Entity, WriterID: localWriterID.Entity, Count: 1}
	a.ReaderSNState.Base = 1
	for sn := wire.SequenceNumber(1); sn <= 5; sn++ {
		a.ReaderSNState.Add(sn)
	}
	w.HandleAckNack(remotePrefix, &a, now)
	kinds, datas, gaps, hbs := rec.all(t)
	require.Equal(t, wire.KindInfoDst, kinds[0])
	require.Len(t, gaps, 1)
	require.Equal(t, wire.SequenceNumber(1), gaps[0].GapStart)
	require.Equal(t, wire.SequenceNumber(4), gaps[0].GapList.Base)
	require.Len(t, datas, 2)
	require.Equal(t, wire.SequenceNumber(4), datas[0].WriterSN)
	require.Equal(t, remoteReader.Entity, datas[0].ReaderID)
	require.Len(t, hbs, 1)
	require.Equal(t, wire.SequenceNumber(4), hbs[0].FirstSN)
	require.Equal(t, wire.SequenceNumber(5), hbs[0].LastSN)

	// The same count again is a duplicate and ignored.
	rec.msgs = nil
	w.HandleAckNack(remotePrefix, &a, now)
	require.Empty(t, rec.msgs)
	require.Equal(t, uint64(1), w.Stats().Duplicates)

	// An acknowledgment of everything stops the heartbeats.
	a.Count, a.ReaderSNState = 2, wire.SequenceNumberSet{Base: 6}
	w.HandleAckNack(remotePrefix, &a, now)
	require.True(t, w.AckedByAll(5))
	require.True(t, w.Tick(now.Add(time.Second)).IsZero())
}

// TestReaderGap: GAPs make the reader skip irrelevant changes and deliver
// what follows. The first GAP, before anything told the reader where the
// writer stands, only sets where it starts; the later ones cover changes the
// writer no longer has: lost.
func TestReaderGap(t *testing.T) {
	var got collector
	var rec recorder
	now := time.Unix(1_700_000_000, 0)
	r := NewReader(ReaderConfig{GUID: localReaderID, Reliable: true}, got.deliver, &rec)
	r.AddWriter(WriterProxyInfo{GUID: remoteWriter, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	data := func(sn int) {
		d := wire.Data{WriterID: remoteWriter.Entity, WriterSN: wire.SequenceNumber(sn), DataFlag: true, SerializedPayload: payload(uint64(sn), 0)}
		r.HandleData(remotePrefix, &d, wire.TimeInvalid, now)
	}
	data(5)
	data(8)
	require.Empty(t, got.seqs)
	// GAP [1,5) and, in the bitmap, 6 and 7.
	g := wire.Gap{WriterID: remoteWriter.Entity, GapStart: 1, GapList: wire.SequenceNumberSet{Base: 5}}
	r.HandleGap(remotePrefix, &g, now)
	require.Equal(t, []uint64{5}, got.seqs)
	require.Zero(t, r.Stats().Lost, "a GAP before the reader started is not a loss")
	g = wire.Gap{WriterID: remoteWriter.Entity, GapStart: 6, GapList: wire.SequenceNumberSet{Base: 7}}
	g.GapList.Add(7)
	r.HandleGap(remotePrefix, &g, now)
	require.Equal(t, []uint64{5, 8}, got.seqs)
	require.Equal(t, uint64(2), r.Stats().Lost, "6 and 7")
	require.Equal(t, uint64(2), got.samples[1].Lost, "reported with 8")
	// A GAP in the future: 10..12 irrelevant, 9 still missing.
	g = wire.Gap{WriterID: remoteWriter.Entity, GapStart: 10, GapList: wire.SequenceNumberSet{Base: 13}}
	r.HandleGap(remotePrefix, &g, now)
	data(13)
	require.Equal(t, []uint64{5, 8}, got.seqs)
	data(9)
	require.Equal(t, []uint64{5, 8, 9, 13}, got.seqs)
	require.Equal(t, uint64(5), r.Stats().Lost, "and 10..12")
	require.Equal(t, uint64(3), got.samples[3].Lost, "reported with 13")
	// A HEARTBEAT whose firstSN skipped changes counts them lost.
	hb := wire.Heartbeat{WriterID: remoteWriter.Entity, FirstSN: 20, LastSN: 21, Count: 1}
	r.HandleHeartbeat(remotePrefix, &hb, now)
	require.Equal(t, uint64(11), r.Stats().Lost, "and 14..19")
	// The ACKNACK answering it asks for 20 and 21.
	var rd wire.Reader
	require.NoError(t, rd.Reset(rec.msgs[len(rec.msgs)-1]))
	var a wire.AckNack
	for rd.Next() {
		if rd.Kind() == wire.KindAckNack {
			require.NoError(t, rd.AckNack(&a))
		}
	}
	require.Equal(t, wire.SequenceNumber(20), a.ReaderSNState.Base)
	require.True(t, a.ReaderSNState.Contains(20) && a.ReaderSNState.Contains(21))
}

// TestReaderPreemptiveAckNack: adding a reliable writer sends an ACKNACK
// that asks for nothing and is not Final, in the form its vendor answers at
// once: base 1 and count 0 like Cyclone DDS, base 0 and count 1 for Fast DDS.
func TestReaderPreemptiveAckNack(t *testing.T) {
	for _, tc := range []struct {
		vendor wire.VendorID
		base   wire.SequenceNumber
		count  wire.Count
	}{{wire.VendorCyclone, 1, 0}, {wire.VendorDDSGo, 1, 0}, {wire.VendorFastDDS, 0, 1}} {
		var rec recorder
		r := NewReader(ReaderConfig{GUID: localReaderID, Reliable: true}, nil, &rec)
		r.AddWriter(WriterProxyInfo{GUID: remoteWriter, Reliable: true, Vendor: tc.vendor, Unicast: []wire.Locator{testLoc}}, time.Now())
		require.Len(t, rec.msgs, 1)
		a, _, err := wire.ParseAckNack(rec.msgs[0][wire.HeaderLen+16:])
		require.NoError(t, err)
		require.Equal(t, wire.SequenceNumberSet{Base: tc.base}, a.ReaderSNState, "%v", tc.vendor)
		require.Equal(t, tc.count, a.Count, "%v", tc.vendor)
		require.False(t, a.Final, "%v", tc.vendor)
		require.Equal(t, remoteWriter.Entity, a.WriterID)
	}
}

// TestBestEffortReader drops old and out-of-order changes.
func TestBestEffortReader(t *testing.T) {
	var got collector
	now := time.Now()
	r := NewReader(ReaderConfig{GUID: localReaderID}, got.deliver, &recorder{})
	r.AddWriter(WriterProxyInfo{GUID: remoteWriter, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	for _, sn := range []int{3, 2, 3, 5, 4, 6} {
		d := wire.Data{WriterID: remoteWriter.Entity, WriterSN: wire.SequenceNumber(sn), DataFlag: true, SerializedPayload: payload(uint64(sn), 0)}
		r.HandleData(remotePrefix, &d, wire.TimeInvalid, now)
	}
	require.Equal(t, []uint64{3, 5, 6}, got.seqs)
	require.Equal(t, uint64(3), r.Stats().Old)
	// SN 4, skipped when 5 came, is lost, reported with 5; what came before the
	// first change received (1, 2) is not counted: the reader cannot know it was
	// meant for it.
	require.Equal(t, uint64(1), r.Stats().Lost)
	require.Equal(t, []uint64{0, 1, 0}, []uint64{got.samples[0].Lost, got.samples[1].Lost, got.samples[2].Lost})
	// A refused sample does not report the loss: the next accepted one does.
	r2 := NewReader(ReaderConfig{GUID: localReaderID}, func(s *Sample) bool {
		if s.SN == 4 {
			return false
		}
		return got.deliver(s)
	}, &recorder{})
	r2.AddWriter(WriterProxyInfo{GUID: remoteWriter, Unicast: []wire.Locator{testLoc}}, now)
	for _, sn := range []int{1, 4, 7} {
		d := wire.Data{WriterID: remoteWriter.Entity, WriterSN: wire.SequenceNumber(sn), DataFlag: true, SerializedPayload: payload(uint64(sn), 0)}
		r2.HandleData(remotePrefix, &d, wire.TimeInvalid, now)
	}
	require.Equal(t, uint64(4), got.samples[len(got.samples)-1].Lost, "2, 3 (with 4, refused) and 5, 6: reported with 7")
	// Heartbeats and gaps mean nothing to a best-effort reader.
	hb := wire.Heartbeat{WriterID: remoteWriter.Entity, FirstSN: 1, LastSN: 9, Count: 1}
	r.HandleHeartbeat(remotePrefix, &hb, now)
	require.True(t, r.Deadline().IsZero())
}

// TestBestEffortWriter sends once and keeps nothing.
func TestBestEffortWriter(t *testing.T) {
	var rec recorder
	released := 0
	now := time.Now()
	w := NewWriter(WriterConfig{GUID: localWriterID, History: HistoryConfig{KeepAll: true}, Release: func([]byte) { released++ }}, &rec)
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Unicast: []wire.Locator{testLoc}}, now)
	for i := range 3 {
		_, err := w.Write(Change{Payload: payload(uint64(i), 0)}, now)
		require.NoError(t, err)
	}
	kinds, datas, _, hbs := rec.all(t)
	require.Len(t, datas, 3)
	require.Empty(t, hbs)
	require.NotContains(t, kinds, wire.KindInfoDst)
	require.Equal(t, wire.EntityIDUnknown, datas[0].ReaderID)
	require.Zero(t, w.HistoryLen())
	require.Equal(t, 3, released)
	require.True(t, w.Tick(now.Add(time.Hour)).IsZero())
}

// TestKeepAllFullAndAckWait: a KEEP_ALL writer refuses writes when full
// until acknowledgments free room, and AckWait wakes up.
func TestKeepAllFullAndAckWait(t *testing.T) {
	var rec recorder
	now := time.Now()
	w := NewWriter(WriterConfig{GUID: localWriterID, Reliable: true, History: HistoryConfig{KeepAll: true, MaxSamples: 3}}, &rec)
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	for i := range 3 {
		_, err := w.Write(Change{Payload: payload(uint64(i), 0)}, now)
		require.NoError(t, err)
	}
	require.True(t, w.Full(wire.KeyHash{}))
	_, err := w.Write(Change{Payload: payload(3, 0)}, now)
	require.ErrorIs(t, err, ErrHistoryFull)
	ch := w.AckWait()
	a := wire.AckNack{ReaderID: remoteReader.Entity, WriterID: localWriterID.Entity, Count: 5, ReaderSNState: wire.SequenceNumberSet{Base: 3}}
	w.HandleAckNack(remotePrefix, &a, now)
	select {
	case <-ch:
	default:
		t.Fatal("AckWait not signaled")
	}
	require.True(t, w.AckedByAll(2))
	require.False(t, w.AckedByAll(3))
	sn, err := w.Write(Change{Payload: payload(3, 0)}, now)
	require.NoError(t, err)
	require.Equal(t, wire.SequenceNumber(4), sn)
	// Heartbeat deadline while unacknowledged.
	dl := w.Deadline()
	require.False(t, dl.IsZero())
	rec.msgs = nil
	require.False(t, w.Tick(dl).IsZero())
	_, _, _, hbs := rec.all(t)
	require.Len(t, hbs, 1)
	require.False(t, hbs[0].Final)
	require.False(t, hbs[0].Liveliness)
}

// TestRemoveReaderReleases: removing the only lagging reader frees the
// history of a volatile writer.
func TestRemoveReaderReleases(t *testing.T) {
	now := time.Now()
	w := NewWriter(WriterConfig{GUID: localWriterID, Reliable: true, History: HistoryConfig{KeepAll: true}}, &recorder{})
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	for i := range 4 {
		_, err := w.Write(Change{Payload: payload(uint64(i), 0)}, now)
		require.NoError(t, err)
	}
	require.Equal(t, 4, w.HistoryLen())
	w.RemoveReader(remoteReader)
	require.Zero(t, w.HistoryLen())
	require.True(t, w.AckedByAll(4))
}

// TestResponseDelays: repairs wait for NackResponseDelay and ACKNACKs for
// HeartbeatResponseDelay; both deadlines are reported through Schedule.
func TestResponseDelays(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	var wrec, rrec recorder
	var wsched, rsched []time.Time
	w := NewWriter(WriterConfig{
		GUID: localWriterID, Reliable: true, History: HistoryConfig{KeepAll: true},
		NackResponseDelay: 5 * time.Millisecond, HeartbeatPeriod: time.Second,
		Schedule: func(t time.Time) { wsched = append(wsched, t) },
	}, &wrec)
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	_, err := w.Write(Change{Payload: payload(1, 0)}, now)
	require.NoError(t, err)
	// The reader has not answered: an introductory HEARTBEAT is due first.
	require.Equal(t, []time.Time{now.Add(introGap)}, wsched)
	wrec.msgs = nil
	a := wire.AckNack{ReaderID: remoteReader.Entity, WriterID: localWriterID.Entity, Count: 1, ReaderSNState: wire.SequenceNumberSet{Base: 1}}
	a.ReaderSNState.Add(1)
	w.HandleAckNack(remotePrefix, &a, now)
	require.Empty(t, wrec.msgs)
	require.Equal(t, now.Add(5*time.Millisecond), wsched[len(wsched)-1])
	require.Equal(t, now.Add(5*time.Millisecond), w.Deadline())
	require.Equal(t, now.Add(time.Second), w.Tick(now.Add(5*time.Millisecond)))
	_, datas, _, hbs := wrec.all(t)
	require.Len(t, datas, 1)
	require.Len(t, hbs, 1)

	r := NewReader(ReaderConfig{
		GUID: localReaderID, Reliable: true, HeartbeatResponseDelay: 2 * time.Millisecond,
		Schedule: func(t time.Time) { rsched = append(rsched, t) },
	}, nil, &rrec)
	r.AddWriter(WriterProxyInfo{GUID: remoteWriter, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	rrec.msgs = nil
	hb := wire.Heartbeat{WriterID: remoteWriter.Entity, FirstSN: 1, LastSN: 3, Count: 1, Final: true}
	r.HandleHeartbeat(remotePrefix, &hb, now)
	require.Empty(t, rrec.msgs)
	require.Equal(t, []time.Time{now.Add(2 * time.Millisecond)}, rsched)
	// The ACKNACK asked for 1-3: unless they come, the reader asks again on its own.
	require.Equal(t, now.Add(2*time.Millisecond+DefaultReaskDelay), r.Tick(now.Add(2*time.Millisecond)))
	require.Len(t, rrec.msgs, 1)
	// A final HEARTBEAT with nothing missing needs no answer.
	for sn := 1; sn <= 3; sn++ {
		d := wire.Data{WriterID: remoteWriter.Entity, WriterSN: wire.SequenceNumber(sn), DataFlag: true, SerializedPayload: payload(uint64(sn), 0)}
		r.HandleData(remotePrefix, &d, wire.TimeInvalid, now)
	}
	hb.Count = 2
	r.HandleHeartbeat(remotePrefix, &hb, now)
	require.True(t, r.Deadline().IsZero())
	// A non-final one is always answered.
	hb.Count, hb.Final = 3, false
	r.HandleHeartbeat(remotePrefix, &hb, now)
	require.False(t, r.Deadline().IsZero())
}

// TestPiggybackHeartbeatFinal: a HEARTBEAT that only announces new data is final (readers
// with nothing missing stay quiet, as with Cyclone DDS) until enough is unacknowledged:
// more than PiggybackEvery changes without a flow-control window, half of the window with
// one (then once, until acknowledgments move it), or a bounded KEEP_ALL history half full;
// RequestAcks asks for ACKNACKs at once.
func TestPiggybackHeartbeatFinal(t *testing.T) {
	var rec recorder
	now := time.Now()
	w := NewWriter(WriterConfig{
		GUID: localWriterID, Reliable: true, PiggybackEvery: 4, MaxUnackedBytes: -1,
		History: HistoryConfig{KeepAll: true},
	}, &rec)
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	rec.msgs = nil // the HEARTBEAT that greets a new reader
	_, err := w.Write(Change{Payload: payload(1, 0)}, now)
	require.NoError(t, err)
	_, _, _, hbs := rec.all(t)
	require.Len(t, hbs, 1)
	require.True(t, hbs[0].Final, "first write after everything was acknowledged")

	for i := 2; i <= 8; i++ {
		_, err := w.Write(Change{Payload: payload(uint64(i), 0)}, now)
		require.NoError(t, err)
	}
	_, _, _, hbs = rec.all(t)
	last := hbs[len(hbs)-1]
	require.False(t, last.Final, "more than PiggybackEvery unacknowledged, no window")

	rec.msgs = nil
	w.RequestAcks(now)
	_, _, _, hbs = rec.all(t)
	require.Len(t, hbs, 1)
	require.False(t, hbs[0].Final)

	// A bounded KEEP_ALL history asks once it is half full.
	var rec2 recorder
	w2 := NewWriter(WriterConfig{
		GUID: localWriterID, Reliable: true, PiggybackEvery: 100,
		History: HistoryConfig{KeepAll: true, MaxSamples: 4},
	}, &rec2)
	w2.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	for i := 1; i <= 2; i++ {
		_, err := w2.Write(Change{Payload: payload(uint64(i), 0)}, now.Add(time.Duration(i)*time.Second))
		require.NoError(t, err)
	}
	_, _, _, hbs = rec2.all(t)
	require.False(t, hbs[len(hbs)-1].Final, "half of a 4-sample history unacknowledged")
}

// batchRecorder is a BatchSender that keeps the messages sent and the size of
// each batch.
type batchRecorder struct {
	recorder
	batches []int
}

func (r *batchRecorder) SendBatch(msgs [][]byte, to []wire.Locator, scratch []transport.Message) {
	if len(scratch) < len(msgs) {
		panic("scratch too short")
	}
	r.batches = append(r.batches, len(msgs))
	for _, m := range msgs {
		r.Send(m, to)
	}
}

// TestBatchedSends: a message started with startBatch goes to a BatchSender
// in batches of at most maxBatch datagrams (a lone one with Send), byte for
// byte the datagrams a plain Sender gets; a message started with start goes
// one datagram at a time.
func TestBatchedSends(t *testing.T) {
	hdr := wire.Header{Version: wire.ProtocolVersion25, Vendor: wire.VendorDDSGo, Prefix: localWriterID.Prefix}
	build := func(out Sender, batch bool) {
		var m msgBuilder
		m.init(hdr, DefaultMaxMessageSize, out)
		to := []wire.Locator{testLoc}
		for round := range 2 {
			if batch {
				m.startBatch(to, wire.GuidPrefix{}, false)
			} else {
				m.start(to, wire.GuidPrefix{}, false)
			}
			for i := range 19 + round { // 19 then 20 datagrams of one PAD-sized chunk each
				m.reserve(m.max - m.base)
				m.buf = append(m.buf, byte(i), byte(round))
			}
			m.flush()
		}
	}
	var plain recorder
	var batched, unbatched batchRecorder
	build(&plain, false)
	build(&batched, true)
	build(&unbatched, false)
	require.Len(t, plain.msgs, 39)
	require.Equal(t, plain.msgs, batched.msgs)
	require.Equal(t, []int{8, 8, 3, 8, 8, 4}, batched.batches)
	require.Equal(t, plain.msgs, unbatched.msgs)
	require.Empty(t, unbatched.batches)
}

// TestIntroHeartbeats: a new reliable reader that does not answer gets the
// directed HEARTBEAT again at +10, +30 and +70 ms and then no more; one that
// answers gets none after its ACKNACK.
func TestIntroHeartbeats(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	var rec recorder
	w := NewWriter(WriterConfig{GUID: localWriterID, Reliable: true, TransientLocal: true, HeartbeatPeriod: time.Hour}, &rec)
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	var at []time.Duration
	for d := time.Duration(0); d <= 200*time.Millisecond; d += time.Millisecond {
		n := len(rec.msgs)
		if dl := w.Deadline(); !dl.IsZero() && !now.Add(d).Before(dl) {
			w.Tick(now.Add(d))
		}
		if d == 0 || len(rec.msgs) > n {
			at = append(at, d)
		}
	}
	require.Equal(t, []time.Duration{0, 10 * time.Millisecond, 30 * time.Millisecond, 70 * time.Millisecond}, at)
	_, _, _, hbs := rec.all(t)
	require.Len(t, hbs, 1+introHeartbeats)

	rec.msgs = nil
	other := wire.GUID{Prefix: remotePrefix, Entity: wire.EntityIDFromUint32(0x207)}
	w.AddReader(ReaderProxyInfo{GUID: other, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	a := wire.AckNack{ReaderID: other.Entity, WriterID: localWriterID.Entity, Count: 1, ReaderSNState: wire.SequenceNumberSet{Base: 1}, Final: true}
	w.HandleAckNack(remotePrefix, &a, now)
	rec.msgs = nil
	for d := time.Duration(0); d <= 200*time.Millisecond; d += time.Millisecond {
		if dl := w.Deadline(); !dl.IsZero() && !now.Add(d).Before(dl) {
			w.Tick(now.Add(d))
		}
	}
	require.Empty(t, rec.msgs)
}

// TestLivelinessHeartbeat: AssertLiveliness sends one HEARTBEAT with the Liveliness
// and Final flags to every reader (readerId UNKNOWN), and a reader, reliable or not,
// tells OnLiveliness of each such HEARTBEAT of a matched writer, and of no other.
func TestLivelinessHeartbeat(t *testing.T) {
	var rec recorder
	now := time.Now()
	w := NewWriter(WriterConfig{GUID: localWriterID, Reliable: true}, &rec)
	w.AssertLiveliness(now) // no reader: nothing sent
	require.Empty(t, rec.msgs)
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	rec.msgs = nil
	w.AssertLiveliness(now)
	_, _, _, hbs := rec.all(t)
	require.Len(t, hbs, 1)
	require.True(t, hbs[0].Liveliness)
	require.True(t, hbs[0].Final)
	require.Equal(t, wire.EntityIDUnknown, hbs[0].ReaderID)

	for _, reliable := range []bool{true, false} {
		var heard []wire.GUID
		r := NewReader(ReaderConfig{GUID: localReaderID, Reliable: reliable, OnLiveliness: func(g wire.GUID) { heard = append(heard, g) }},
			func(*Sample) bool { return true }, &recorder{})
		r.AddWriter(WriterProxyInfo{GUID: remoteWriter, Reliable: reliable, Unicast: []wire.Locator{testLoc}}, now)
		hb := wire.Heartbeat{WriterID: remoteWriter.Entity, FirstSN: 1, LastSN: 0, Count: 1, Final: true}
		r.HandleHeartbeat(remotePrefix, &hb, now) // no Liveliness flag
		hb.Liveliness, hb.Count = true, 2
		r.HandleHeartbeat(remotePrefix, &hb, now)
		other := wire.Heartbeat{WriterID: wire.EntityIDFromUint32(0x00000902), FirstSN: 1, Count: 1, Liveliness: true}
		r.HandleHeartbeat(remotePrefix, &other, now) // not a matched writer
		require.Equal(t, []wire.GUID{remoteWriter}, heard, "reliable %v", reliable)
	}
}

// TestPiggybackHeartbeatWindow: a writer with a flow-control window asks for ACKNACKs
// once half of the window is used, and then not again until acknowledgments move it: a
// saturated writer asking with every piggy-backed HEARTBEAT made its reader answer every
// datagram of data with an ACKNACK.
func TestPiggybackHeartbeatWindow(t *testing.T) {
	var rec recorder
	now := time.Now()
	w := NewWriter(WriterConfig{
		GUID: localWriterID, Reliable: true, PiggybackEvery: 2, MaxUnackedChanges: 16,
		History: HistoryConfig{KeepAll: true},
	}, &rec)
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	rec.msgs = nil // the HEARTBEAT that greets a new reader
	asks := func(from, to int) int {
		rec.msgs = nil
		for i := from; i <= to; i++ {
			_, err := w.Write(Change{Payload: payload(uint64(i), 0)}, now)
			require.NoError(t, err)
		}
		_, _, _, hbs := rec.all(t)
		n := 0
		for _, hb := range hbs {
			if !hb.Final {
				n++
			}
		}
		return n
	}
	require.Zero(t, asks(1, 7), "less than half of the window used")
	require.Equal(t, 1, asks(8, 8), "half of the window used")
	require.Zero(t, asks(9, 20), "asked already; the window filled, 4 changes wait")

	ack := wire.AckNack{ReaderID: remoteReader.Entity, WriterID: localWriterID.Entity, Count: 1, Final: true}
	ack.ReaderSNState.Base = 9
	rec.msgs = nil
	w.HandleAckNack(remotePrefix, &ack, now)
	_, _, _, hbs := rec.all(t)
	require.NotEmpty(t, hbs, "the changes that waited go out")
	require.False(t, hbs[len(hbs)-1].Final, "acknowledgments moved the window: ask again")
	require.Zero(t, asks(21, 22))
}

// TestSampleReceived: a sample delivered by the DATA that brings it carries that call's
// now (the engine's clock reading for the datagram), as do the buffered ones that DATA
// releases; one a GAP releases carries none, so the reader's user reads its own clock.
func TestSampleReceived(t *testing.T) {
	var got collector
	t0 := time.Unix(1_700_000_000, 0)
	r := NewReader(ReaderConfig{GUID: localReaderID, Reliable: true}, got.deliver, &recorder{})
	r.AddWriter(WriterProxyInfo{GUID: remoteWriter, Reliable: true, Unicast: []wire.Locator{testLoc}}, t0)
	data := func(sn int, now time.Time) {
		d := wire.Data{WriterID: remoteWriter.Entity, WriterSN: wire.SequenceNumber(sn), DataFlag: true, SerializedPayload: payload(uint64(sn), 0)}
		r.HandleData(remotePrefix, &d, wire.TimeInvalid, now)
	}
	data(1, t0.Add(1*time.Second))
	data(3, t0.Add(2*time.Second)) // buffered: 2 is missing
	data(2, t0.Add(3*time.Second)) // delivers 2 and 3
	data(5, t0.Add(4*time.Second)) // buffered: 4 is missing
	g := wire.Gap{WriterID: remoteWriter.Entity, GapStart: 4, GapList: wire.SequenceNumberSet{Base: 5}}
	r.HandleGap(remotePrefix, &g, t0.Add(5*time.Second))
	require.Equal(t, []uint64{1, 2, 3, 5}, got.seqs)
	want := []time.Time{t0.Add(1 * time.Second), t0.Add(3 * time.Second), t0.Add(3 * time.Second), {}}
	for i, s := range got.samples {
		require.Equal(t, want[i], s.Received, "sample %d", got.seqs[i])
	}
}

// TestReaderHistorySynced: the reader has a writer's historical data once it has
// every change up to the last one the writer's first HEARTBEAT announced (delivered,
// or known lost through a GAP); later changes are not waited for, a best-effort
// writer never is, and removing a writer wakes the waiters. CaughtUp also waits for
// what later HEARTBEATs announce.
func TestReaderHistorySynced(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	var got collector
	r := NewReader(ReaderConfig{GUID: localReaderID, Reliable: true}, got.deliver, &recorder{})
	synced := func() bool { ok, _ := r.HistorySynced(); return ok }
	require.True(t, synced(), "no writer: nothing to wait for")

	other := remoteWriter
	other.Entity.Key[2]++
	r.AddWriter(WriterProxyInfo{GUID: other, Reliable: false, Unicast: []wire.Locator{testLoc}}, now)
	require.True(t, synced(), "a best-effort writer is not waited for")

	r.AddWriter(WriterProxyInfo{GUID: remoteWriter, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	ok, ch := r.HistorySynced()
	require.False(t, ok, "no HEARTBEAT yet: the writer's history is unknown")
	data := func(sn int) {
		d := wire.Data{WriterID: remoteWriter.Entity, WriterSN: wire.SequenceNumber(sn), DataFlag: true, SerializedPayload: payload(uint64(sn), 0)}
		r.HandleData(remotePrefix, &d, wire.TimeInvalid, now)
	}
	data(1) // before the HEARTBEAT: delivered, but the end is not known yet
	require.False(t, synced())
	hb := wire.Heartbeat{WriterID: remoteWriter.Entity, FirstSN: 1, LastSN: 4, Count: 1}
	r.HandleHeartbeat(remotePrefix, &hb, now)
	require.False(t, synced())
	data(3)
	data(2)
	require.False(t, synced(), "4 is missing")
	<-ch // woken by the progress, to check again
	ok, ch = r.HistorySynced()
	require.False(t, ok)
	g := wire.Gap{WriterID: remoteWriter.Entity, GapStart: 4, GapList: wire.SequenceNumberSet{Base: 5}}
	r.HandleGap(remotePrefix, &g, now)
	require.True(t, synced(), "4 is known lost")
	<-ch // closed by the change
	require.Equal(t, []uint64{1, 2, 3}, got.seqs)

	caughtUp := func() bool { ok, _ := r.CaughtUp(); return ok }
	require.True(t, caughtUp())

	// A later HEARTBEAT announcing more does not undo it, but the reader is not caught
	// up with the writer until it has those too.
	hb = wire.Heartbeat{WriterID: remoteWriter.Entity, FirstSN: 1, LastSN: 9, Count: 2}
	r.HandleHeartbeat(remotePrefix, &hb, now)
	require.True(t, synced())
	ok, ch = r.CaughtUp()
	require.False(t, ok, "5..9 announced, not received")
	for sn := 5; sn <= 9; sn++ {
		data(sn)
	}
	<-ch
	require.True(t, caughtUp())

	// A writer with an empty history: its first HEARTBEAT says so.
	empty := remoteWriter
	empty.Entity.Key[2] += 2
	r.AddWriter(WriterProxyInfo{GUID: empty, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	require.False(t, synced())
	require.False(t, caughtUp(), "no HEARTBEAT heard from it yet")
	hb = wire.Heartbeat{WriterID: empty.Entity, FirstSN: 1, LastSN: 0, Count: 1}
	r.HandleHeartbeat(remotePrefix, &hb, now)
	require.True(t, synced())

	// Removing a writer that had not sent its history wakes the waiters.
	silent := remoteWriter
	silent.Entity.Key[2] += 3
	r.AddWriter(WriterProxyInfo{GUID: silent, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	ok, ch = r.HistorySynced()
	require.False(t, ok)
	r.RemoveWriter(silent)
	<-ch
	require.True(t, synced())
}
