package rtps

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/tshark"
	"github.com/ddsgo/ddsgo/internal/wire"
)

// budgetWriter returns a best-effort writer with the latency budget given,
// matched with one best-effort reader, that sends into rec.
func budgetWriter(rec *recorder, budget time.Duration, now time.Time) *Writer {
	w := NewWriter(WriterConfig{GUID: localWriterID, History: HistoryConfig{KeepAll: true}, LatencyBudget: budget}, rec)
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Unicast: []wire.Locator{testLoc}}, now)
	return w
}

// dataSNs returns the writer SNs of the DATA submessages of rec, in order.
func dataSNs(t *testing.T, rec *recorder) []wire.SequenceNumber {
	t.Helper()
	_, datas, _, _ := rec.all(t)
	sns := make([]wire.SequenceNumber, len(datas))
	for i, d := range datas {
		sns[i] = d.WriterSN
	}
	return sns
}

func seqTo(n int) []wire.SequenceNumber {
	s := make([]wire.SequenceNumber, n)
	for i := range s {
		s[i] = wire.SequenceNumber(i + 1)
	}
	return s
}

// TestLatencyBudgetPacks: with a budget, a burst of small writes is held
// and leaves in one datagram when the budget expires, in order; without
// one, each write is a datagram of its own, sent at once.
func TestLatencyBudgetPacks(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	const n = 20
	var rec recorder
	w := budgetWriter(&rec, 10*time.Millisecond, now)
	for i := range n {
		_, err := w.Write(Change{Payload: payload(uint64(i), 100), Timestamp: wire.TimeFromTime(now)}, now)
		require.NoError(t, err)
	}
	require.Empty(t, rec.msgs, "held within the budget")
	require.Equal(t, now.Add(10*time.Millisecond), w.Deadline(), "the writer's timer fires at the budget")
	w.Tick(w.Deadline())
	require.Len(t, rec.msgs, 1, "one datagram for the burst")
	require.Equal(t, seqTo(n), dataSNs(t, &rec))
	require.Equal(t, uint64(1), w.Stats().Messages)
	tshark.Check(t, rec.msgs)

	var plain recorder
	w = budgetWriter(&plain, 0, now)
	for i := range n {
		_, err := w.Write(Change{Payload: payload(uint64(i), 100), Timestamp: wire.TimeFromTime(now)}, now)
		require.NoError(t, err)
		require.Len(t, plain.msgs, i+1, "budget 0 sends at once")
	}
	require.Equal(t, seqTo(n), dataSNs(t, &plain))
	require.True(t, w.Deadline().IsZero(), "nothing held, no timer")
}

// TestLatencyBudgetFullDatagram: changes held go when the next one would
// not fit in their datagram, so every datagram but the last is nearly full
// and none exceeds MaxMessageSize; a fragmented sample is never held.
func TestLatencyBudgetFullDatagram(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	var rec recorder
	w := budgetWriter(&rec, time.Second, now)
	const n = 200
	for i := range n {
		_, err := w.Write(Change{Payload: payload(uint64(i), 1000), Timestamp: wire.TimeFromTime(now)}, now)
		require.NoError(t, err)
	}
	full := len(rec.msgs)
	require.Positive(t, full)
	for _, m := range rec.msgs {
		require.LessOrEqual(t, len(m), DefaultMaxMessageSize)
		require.Greater(t, len(m), DefaultMaxMessageSize-1200, "a datagram goes when the next change does not fit")
	}
	// A fragmented sample leaves at once, with what was held before it.
	_, err := w.Write(Change{Payload: payload(n, 5000), Timestamp: wire.TimeFromTime(now)}, now)
	require.NoError(t, err)
	require.Greater(t, len(rec.msgs), full)
	require.True(t, w.Deadline().IsZero(), "nothing held after a fragmented sample")
	kinds, datas, _, _ := rec.all(t)
	require.Len(t, datas, n)
	require.Equal(t, seqTo(n), dataSNs(t, &rec))
	require.Contains(t, kinds, wire.KindDataFrag)
	require.Less(t, len(rec.msgs), n/10, "%d datagrams for %d samples", len(rec.msgs), n)
	tshark.Check(t, rec.msgs)
}

// TestLatencyBudgetFlushPoints: the changes held go at once on Flush,
// RequestAcks, AssertLiveliness, a new reader, and a budget set to 0.
func TestLatencyBudgetFlushPoints(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	for name, flush := range map[string]func(w *Writer){
		"Flush":            func(w *Writer) { w.Flush(now) },
		"RequestAcks":      func(w *Writer) { w.RequestAcks(now) },
		"AssertLiveliness": func(w *Writer) { w.AssertLiveliness(now) },
		"SetLatencyBudget": func(w *Writer) { w.SetLatencyBudget(0, now) },
		"AddReader": func(w *Writer) {
			w.AddReader(ReaderProxyInfo{GUID: wire.GUID{Prefix: remotePrefix, Entity: wire.EntityIDFromUint32(0x207)}, Unicast: []wire.Locator{testLoc}}, now)
		},
	} {
		t.Run(name, func(t *testing.T) {
			var rec recorder
			w := budgetWriter(&rec, time.Second, now)
			for i := range 3 {
				_, err := w.Write(Change{Payload: payload(uint64(i), 10)}, now)
				require.NoError(t, err)
			}
			require.Empty(t, rec.msgs)
			flush(w)
			require.Equal(t, seqTo(3), dataSNs(t, &rec))
			require.Equal(t, wire.SequenceNumber(3), w.sentSN)
			require.True(t, w.AckedByAll(3), "best effort: done once sent")
		})
	}
}

// TestLatencyBudgetBound: on a virtual clock, writes at a steady pace are
// each delivered no later than the budget after they were written, all of
// them, in order, in fewer datagrams than writes.
func TestLatencyBudgetBound(t *testing.T) {
	const (
		budget = 5 * time.Millisecond
		total  = 300
	)
	net := newSimNet(t, 3)
	wn, rn := net.node(1), net.node(2)
	w := wn.writer(testWriterID, WriterConfig{History: HistoryConfig{KeepAll: true}, LatencyBudget: budget})
	written := make([]time.Time, 0, total)
	var late []time.Duration
	var seqs []uint64
	r := rn.reader(testReaderID, ReaderConfig{}, func(s *Sample) bool {
		seq := payloadSeq(s.Payload)
		seqs = append(seqs, seq)
		if d := net.now.Sub(written[seq]); d > budget+time.Millisecond { // delivered a step after it was sent
			late = append(late, d)
		}
		return true
	})
	net.match(w, wn, r, rn)
	ok := net.run(time.Millisecond, time.Minute, func() bool {
		// The writer's timer has run at each step: what was written a
		// budget ago or earlier is sent (it arrives at the next step).
		for i, at := range written {
			if !net.now.Before(at.Add(budget)) && w.LastSN() > 0 && sentSNOf(w) <= wire.SequenceNumber(i) {
				t.Fatalf("change %d written at +%v still held at +%v", i+1, at.Sub(written[0]), net.now.Sub(written[0]))
			}
		}
		if len(written) < total {
			for range 1 + len(written)%3 { // 1, 2 or 3 writes a millisecond
				if len(written) == total {
					break
				}
				written = append(written, net.now)
				_, err := w.Write(Change{Payload: payload(uint64(len(written)-1), 32), Timestamp: wire.TimeFromTime(net.now)}, net.now)
				require.NoError(t, err)
			}
		}
		return len(seqs) == total
	})
	require.True(t, ok, "delivered %d of %d", len(seqs), total)
	require.Empty(t, late, "samples held longer than the budget")
	for i, s := range seqs {
		require.Equal(t, uint64(i), s)
	}
	require.Less(t, net.sent, total/3, "datagrams for %d samples", total)
	t.Logf("%d samples in %d datagrams", total, net.sent)
}

// TestLatencyBudgetReliableUnderLoss: a reliable writer with a budget
// repairs what 20 % loss, duplication and reordering take: every sample
// arrives once, in order.
func TestLatencyBudgetReliableUnderLoss(t *testing.T) {
	const total = 20_000
	net := newSimNet(t, 5)
	net.loss, net.dup, net.maxDelay = 0.2, 0.1, 3*time.Millisecond
	wn, rn := net.node(1), net.node(2)
	w := wn.writer(testWriterID, WriterConfig{
		Reliable:        true,
		History:         HistoryConfig{KeepAll: true, MaxSamples: 512},
		HeartbeatPeriod: 20 * time.Millisecond,
		LatencyBudget:   2 * time.Millisecond,
	})
	run := net.inOrder(w, wn, rn, ReaderConfig{Reliable: true, HeartbeatResponseDelay: time.Millisecond}, total, 10*time.Minute,
		func(seq uint64) Change {
			return Change{Payload: payload(seq, 16), Timestamp: wire.TimeFromTime(net.now)}
		})
	run.require(t)
	require.Zero(t, run.r.Stats().Lost)
	ws := w.Stats()
	require.Less(t, ws.Messages, ws.DataSent, "changes share datagrams")
	t.Logf("sent %d datagrams, lost %d; writer %+v", net.sent, net.dropped, ws)
}

// TestLatencyBudgetAllocs: holding and packing allocate nothing in steady
// state.
func TestLatencyBudgetAllocs(t *testing.T) {
	var pool bufPool
	now := time.Unix(1_700_000_000, 0)
	w := NewWriter(WriterConfig{
		GUID: localWriterID, Reliable: true, History: HistoryConfig{KeepAll: true},
		Release: pool.put, LatencyBudget: time.Millisecond,
	}, &discard{})
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	a := wire.AckNack{ReaderID: remoteReader.Entity, WriterID: localWriterID.Entity}
	step := func() {
		now = now.Add(100 * time.Microsecond)
		sn, err := w.Write(Change{Payload: pool.get(64), Timestamp: wire.TimeFromTime(now)}, now)
		if err != nil {
			t.Fatal(err)
		}
		if dl := w.Deadline(); !dl.IsZero() && !dl.After(now) {
			w.Tick(now)
		}
		if sn%16 == 0 {
			a.Count++
			a.ReaderSNState = wire.SequenceNumberSet{Base: w.sentSN + 1}
			w.HandleAckNack(remotePrefix, &a, now)
		}
	}
	for range 1000 {
		step()
	}
	require.Zero(t, testing.AllocsPerRun(1000, step))
	require.Less(t, w.Stats().Messages, w.Stats().DataSent)
}

// sentSNOf returns the last change w has sent.
func sentSNOf(w *Writer) wire.SequenceNumber {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.sentSN
}

// TestLatencyBudgetLifespan: a change whose LIFESPAN runs out while the budget
// holds it is still sent once, as a change written already expired is, not
// replaced by a GAP.
func TestLatencyBudgetLifespan(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	var rec recorder
	w := NewWriter(WriterConfig{
		GUID: localWriterID, History: HistoryConfig{KeepAll: true, Lifespan: 5 * time.Millisecond},
		LatencyBudget: 20 * time.Millisecond,
	}, &rec)
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Unicast: []wire.Locator{testLoc}}, now)
	for i := range 3 {
		_, err := w.Write(Change{Payload: payload(uint64(i), 10), Timestamp: wire.TimeFromTime(now)}, now)
		require.NoError(t, err)
	}
	require.Empty(t, rec.msgs)
	at := now.Add(5 * time.Millisecond)
	require.Equal(t, at, w.Deadline(), "the expiry comes before the budget")
	w.Tick(at)
	_, _, gaps, _ := rec.all(t)
	require.Empty(t, gaps)
	require.Equal(t, seqTo(3), dataSNs(t, &rec))
	require.Zero(t, w.HistoryLen(), "best effort and volatile: gone once sent")
}
