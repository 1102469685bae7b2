package rtps

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/wire"
)

// Paced samples: a window of 8000 octets and fragments of 1000 make steps of 4
// fragments, at most 8 unanswered; a payload of 60 012 octets has 61 fragments.
const (
	paceWindow = 8000
	paceFrag   = 1000
	paceStep   = 4
	paceSize   = 60_000 // + the 12 of payload()
	paceNF     = 61
)

// paceSent is what the recorded messages hold of one paced sample: the
// fragments in DATA_FRAGs (first transmissions and repairs), the HEARTBEATs and
// the last fragment number of the HEARTBEAT_FRAGs.
type paceSent struct {
	frags   []int
	hbs     []wire.Heartbeat
	hbfLast []int
}

func (r *recorder) paced(t *testing.T) (s paceSent) {
	t.Helper()
	for _, m := range r.msgs {
		var rd wire.Reader
		require.NoError(t, rd.Reset(m))
		for rd.Next() {
			switch rd.Kind() {
			case wire.KindDataFrag:
				var d wire.DataFrag
				require.NoError(t, rd.DataFrag(&d))
				for i := range int(d.FragmentsInSubmessage) {
					s.frags = append(s.frags, int(d.FragmentStartingNum)+i)
				}
			case wire.KindHeartbeat:
				var h wire.Heartbeat
				require.NoError(t, rd.Heartbeat(&h))
				s.hbs = append(s.hbs, h)
			case wire.KindHeartbeatFrag:
				var h wire.HeartbeatFrag
				require.NoError(t, rd.HeartbeatFrag(&h))
				s.hbfLast = append(s.hbfLast, int(h.LastFragmentNum))
			default:
			}
		}
		require.NoError(t, rd.Err())
	}
	r.msgs = nil
	return s
}

// pacedWriter returns a reliable KEEP_ALL writer that paces samples above
// 2 × paceWindow, matched to remoteReader, its messages recorded by rec.
func pacedWriter(rec Sender, now time.Time) *Writer {
	w := NewWriter(WriterConfig{
		GUID: localWriterID, Reliable: true, History: HistoryConfig{KeepAll: true},
		MaxUnackedBytes: paceWindow, FragmentSize: paceFrag,
	}, rec)
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	return w
}

// TestPacedSampleSteps: a sample larger than twice the window goes in steps of
// half the window, each but the last ended by a HEARTBEAT_FRAG announcing what
// went and a HEARTBEAT that asks for an answer and does not announce the sample;
// each ACKNACK releases one step, so that never more than the window of its
// fragments is unanswered; the last step is followed by the HEARTBEAT that
// announces the sample.
func TestPacedSampleSteps(t *testing.T) {
	var rec recorder
	now := time.Unix(1_700_000_000, 0)
	w := pacedWriter(&rec, now)
	rec.msgs = nil
	_, err := w.Write(Change{Payload: payload(1, paceSize)}, now)
	require.NoError(t, err)
	s := rec.paced(t)
	require.Equal(t, []int{1, 2, 3, 4, 5, 6, 7, 8}, s.frags, "two steps at once")
	require.Equal(t, []int{4, 8}, s.hbfLast)
	require.Len(t, s.hbs, 2)
	for _, h := range s.hbs {
		require.False(t, h.Final, "a step's HEARTBEAT asks for an answer")
		require.Equal(t, wire.SequenceNumber(0), h.LastSN, "it does not announce the sample being paced")
	}
	require.Equal(t, now.Add(paceTimeout), w.Deadline())

	sent, answers := 8, 0
	for sent < paceNF {
		answers++
		w.HandleAckNack(remotePrefix, nack(wire.Count(answers), 1), now)
		s = rec.paced(t)
		require.NotEmpty(t, s.frags, "answer %d releases a step", answers)
		require.Equal(t, sent+1, s.frags[0])
		sent = s.frags[len(s.frags)-1]
		require.LessOrEqual(t, len(s.frags), paceStep)
		require.LessOrEqual(t, sent-answers*paceStep, 2*paceStep, "at most the window unanswered")
		if sent < paceNF {
			require.Equal(t, []int{sent}, s.hbfLast)
			require.Len(t, s.hbs, 1)
			require.Equal(t, wire.SequenceNumber(0), s.hbs[0].LastSN)
		}
	}
	require.Equal(t, []int{paceNF}, s.hbfLast)
	require.Len(t, s.hbs, 1)
	require.Equal(t, wire.SequenceNumber(1), s.hbs[0].LastSN, "the sample announced once whole")
	require.Equal(t, (paceNF-2*paceStep+paceStep-1)/paceStep, answers)
	require.True(t, w.Deadline().IsZero() || w.Deadline().After(now.Add(paceTimeout)), "no step due any more")

	// The next sample starts once this one is acknowledged: the window holds it.
	_, err = w.Write(Change{Payload: payload(2, paceSize)}, now)
	require.NoError(t, err)
	require.Empty(t, rec.paced(t).frags, "sample 1 fills the window")
	w.HandleAckNack(remotePrefix, nack(wire.Count(answers+1), 2), now)
	require.Len(t, rec.paced(t).frags, 2*paceStep)
}

// TestPacedSampleSilentReader: a reader that never answers (HEARTBEAT_FRAG is
// ignored by Fast DDS, and Cyclone DDS acknowledges at most every 10 ms while
// a sample is incomplete) still gets the whole sample: one step after
// paceTimeout, then after twice as long each time, up to maxPaceWait; an
// answer brings the wait back to paceTimeout.
func TestPacedSampleSilentReader(t *testing.T) {
	var rec recorder
	now := time.Unix(1_700_000_000, 0)
	w := pacedWriter(&rec, now)
	w.HandleAckNack(remotePrefix, nack(1, 1), now) // pre-emptive: no introductory HEARTBEATs
	rec.msgs = nil
	_, err := w.Write(Change{Payload: payload(1, paceSize)}, now)
	require.NoError(t, err)
	require.Len(t, rec.paced(t).frags, 2*paceStep)

	// Before the timeout, nothing.
	w.Tick(now.Add(paceTimeout - time.Microsecond))
	require.Empty(t, rec.paced(t).frags)

	var all []int
	wait := paceTimeout
	for ticks := 0; w.sentSN < 1; ticks++ {
		if ticks == 6 {
			// An answer: the wait starts again from paceTimeout.
			w.HandleAckNack(remotePrefix, nack(2, 1), now)
			all = append(all, rec.paced(t).frags...)
			wait = paceTimeout
		}
		w.Tick(now.Add(wait - time.Microsecond))
		require.Empty(t, rec.paced(t).frags, "tick %d: not before the wait", ticks)
		require.False(t, w.Deadline().After(now.Add(wait)), "tick %d", ticks)
		now = now.Add(wait)
		w.Tick(now)
		s := rec.paced(t)
		require.LessOrEqual(t, len(s.frags), paceStep, "one step per wait")
		all = append(all, s.frags...)
		wait = min(2*wait, maxPaceWait)
		require.Less(t, ticks, 100)
	}
	require.Len(t, all, paceNF-2*paceStep)
	require.Equal(t, paceNF, all[len(all)-1])
}

// TestPacedSampleRepairs: a NACK_FRAG for fragments of the sample being paced
// is answered for those sent and not for the others, which go with the steps
// (Fast DDS asks for every fragment it lacks); the sample is not resent whole
// for an ACKNACK that asks for it.
func TestPacedSampleRepairs(t *testing.T) {
	var rec recorder
	now := time.Unix(1_700_000_000, 0)
	w := pacedWriter(&rec, now)
	_, err := w.Write(Change{Payload: payload(1, paceSize)}, now)
	require.NoError(t, err)
	rec.msgs = nil
	n := &wire.NackFrag{ReaderID: remoteReader.Entity, WriterID: localWriterID.Entity, WriterSN: 1, Count: 1}
	n.FragmentNumberState.Base = 3
	for _, f := range []wire.FragmentNumber{3, 9, 10, 40} {
		n.FragmentNumberState.Add(f)
	}
	w.HandleNackFrag(remotePrefix, n, now)
	require.Equal(t, []int{3}, rec.paced(t).frags)

	w.HandleAckNack(remotePrefix, nack(1, 1, 1), now)
	require.Equal(t, []int{9, 10, 11, 12}, rec.paced(t).frags, "the next step, not the whole sample")
}

// TestPacedSampleReaderAnswers: our reader answers a step's HEARTBEAT with one
// ACKNACK and no NACK_FRAG when it has every fragment sent so far, and a
// HEARTBEAT_FRAG not at all then; it asks for the fragments up to the last one
// a HEARTBEAT_FRAG announces, and for all once a HEARTBEAT announces the change.
func TestPacedSampleReaderAnswers(t *testing.T) {
	var rec recorder
	now := time.Unix(1_700_000_000, 0)
	r := NewReader(ReaderConfig{GUID: localReaderID, Reliable: true}, nil, &rec)
	r.AddWriter(WriterProxyInfo{GUID: remoteWriter, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	rec.msgs = nil
	answers := func() (acks []wire.AckNack, nfs []wire.NackFrag) {
		for _, m := range rec.msgs {
			var rd wire.Reader
			require.NoError(t, rd.Reset(m))
			for rd.Next() {
				switch rd.Kind() {
				case wire.KindAckNack:
					var a wire.AckNack
					require.NoError(t, rd.AckNack(&a))
					acks = append(acks, a)
				case wire.KindNackFrag:
					var n wire.NackFrag
					require.NoError(t, rd.NackFrag(&n))
					nfs = append(nfs, n)
				default:
				}
			}
		}
		rec.msgs = nil
		return acks, nfs
	}
	d := frag(1, 20_000, 1, 4, 1000, 'x') // fragments 1-4 of 20
	r.HandleDataFrag(remotePrefix, &d, wire.TimeInvalid, now)
	hbf := wire.HeartbeatFrag{WriterID: remoteWriter.Entity, WriterSN: 1, LastFragmentNum: 4, Count: 1}
	r.HandleHeartbeatFrag(remotePrefix, &hbf, now)
	acks, nfs := answers()
	require.Empty(t, acks, "nothing missing of what was announced")
	require.Empty(t, nfs)

	hb := wire.Heartbeat{WriterID: remoteWriter.Entity, FirstSN: 1, LastSN: 0, Count: 1}
	r.HandleHeartbeat(remotePrefix, &hb, now)
	acks, nfs = answers()
	require.Len(t, acks, 1, "the step's HEARTBEAT is answered")
	require.Equal(t, wire.SequenceNumber(1), acks[0].ReaderSNState.Base)
	require.Zero(t, acks[0].ReaderSNState.NumBits)
	require.Empty(t, nfs)

	hbf.LastFragmentNum, hbf.Count = 8, 2
	r.HandleHeartbeatFrag(remotePrefix, &hbf, now.Add(time.Second))
	_, nfs = answers()
	require.Len(t, nfs, 1)
	require.Equal(t, wire.FragmentNumber(5), nfs[0].FragmentNumberState.Base)
	require.Equal(t, uint32(4), nfs[0].FragmentNumberState.NumBits, "5-8, not beyond")

	hb.LastSN, hb.Count = 1, 2
	r.HandleHeartbeat(remotePrefix, &hb, now.Add(2*time.Second))
	_, nfs = answers()
	require.Len(t, nfs, 1)
	require.Equal(t, uint32(16), nfs[0].FragmentNumberState.NumBits, "5-20 once the change is announced")
}

// TestPacedSamplesUnderLoss: paced samples between our writer and reader with
// 20 % loss, duplication and reordering arrive whole and in order, with a
// reader that answers at once and one that answers HEARTBEATs only after 5 ms
// (as Fast DDS does).
func TestPacedSamplesUnderLoss(t *testing.T) {
	for _, delay := range []time.Duration{0, 5 * time.Millisecond} {
		t.Run(delay.String(), func(t *testing.T) {
			net := newSimNet(t, 17)
			net.loss, net.dup, net.maxDelay = 0.2, 0.05, time.Millisecond
			wn, rn := net.node(1), net.node(2)
			w := wn.writer(testWriterID, WriterConfig{
				Reliable: true, History: HistoryConfig{KeepAll: true},
				HeartbeatPeriod: 20 * time.Millisecond, MaxUnackedBytes: 64 << 10,
			})
			var got collector
			r := rn.reader(testReaderID, ReaderConfig{Reliable: true, HeartbeatResponseDelay: delay}, got.deliver)
			net.match(w, wn, r, rn)
			var want [][]byte
			for i := range 4 {
				want = append(want, payload(uint64(i), 300<<10+i))
				_, err := w.Write(Change{Payload: want[i]}, net.now)
				require.NoError(t, err)
			}
			ok := net.run(time.Millisecond, time.Minute, func() bool { return len(got.samples) == len(want) })
			require.True(t, ok, "delivered %d; writer %+v reader %+v", len(got.samples), w.Stats(), r.Stats())
			for i, p := range want {
				require.True(t, bytes.Equal(p, got.samples[i].Payload), "sample %d differs", i)
			}
			require.True(t, net.run(time.Millisecond, time.Minute, func() bool { return w.AckedByAll(4) }))
			require.Greater(t, w.Stats().HeartbeatFragSent, uint64(4*8), "paced: a HEARTBEAT_FRAG per step")
			t.Logf("writer %+v reader %+v", w.Stats(), r.Stats())
		})
	}
}

// TestPacedSampleAllocs: paced samples, each sent in steps released by
// ACKNACKs and then acknowledged, allocate nothing in steady state.
func TestPacedSampleAllocs(t *testing.T) {
	var pool bufPool
	now := time.Unix(1_700_000_000, 0)
	w := NewWriter(WriterConfig{
		GUID: localWriterID, Reliable: true, History: HistoryConfig{KeepAll: true},
		MaxUnackedBytes: paceWindow, FragmentSize: paceFrag, Release: pool.put,
	}, &discard{})
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	a := wire.AckNack{ReaderID: remoteReader.Entity, WriterID: localWriterID.Entity, Final: true}
	round := func() {
		if _, err := w.Write(Change{Payload: pool.get(paceSize)}, now); err != nil {
			t.Fatal(err)
		}
		for w.ackedAll < w.lastSN {
			now = now.Add(100 * time.Microsecond)
			a.Count++
			a.ReaderSNState = wire.SequenceNumberSet{Base: w.sentSN + 1}
			w.HandleAckNack(remotePrefix, &a, now)
		}
	}
	for range 20 {
		round()
	}
	require.Zero(t, testing.AllocsPerRun(100, round))
	require.NotZero(t, w.Stats().HeartbeatFragSent)
}

// TestPacedSampleReplaced: a KEEP_LAST 1 writer that writes again while a sample
// is paced gives it up: a GAP for it, and the new sample's first steps.
func TestPacedSampleReplaced(t *testing.T) {
	var rec recorder
	now := time.Unix(1_700_000_000, 0)
	w := NewWriter(WriterConfig{
		GUID: localWriterID, Reliable: true, History: HistoryConfig{Depth: 1},
		MaxUnackedBytes: paceWindow, FragmentSize: paceFrag,
	}, &rec)
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	_, err := w.Write(Change{Payload: payload(1, paceSize)}, now)
	require.NoError(t, err)
	rec.msgs = nil
	_, err = w.Write(Change{Payload: payload(2, paceSize)}, now)
	require.NoError(t, err)
	_, _, gaps, _ := rec.all(t)
	require.Len(t, gaps, 1)
	require.Equal(t, wire.SequenceNumber(1), gaps[0].GapStart)
	require.Equal(t, wire.SequenceNumber(2), gaps[0].GapList.Base)
	require.Equal(t, []int{1, 2, 3, 4, 5, 6, 7, 8}, rec.paced(t).frags, "sample 2's first steps")
	require.Equal(t, wire.SequenceNumber(2), w.pace.sn)
}

// TestPacedSampleBestEffortReader: with a best-effort reader matched (it never
// answers), a large sample goes whole, as Cyclone DDS sends it.
func TestPacedSampleBestEffortReader(t *testing.T) {
	var rec recorder
	now := time.Unix(1_700_000_000, 0)
	w := pacedWriter(&rec, now)
	w.AddReader(ReaderProxyInfo{GUID: localReaderID, Unicast: []wire.Locator{testLoc}}, now)
	rec.msgs = nil
	_, err := w.Write(Change{Payload: payload(1, paceSize)}, now)
	require.NoError(t, err)
	require.Len(t, rec.paced(t).frags, paceNF)
	require.Zero(t, w.pace.sn)
}
