package rtps

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/wire"
)

// ackModel is a writer's side of a randomized exchange with a Reader: what it wrote,
// which changes are irrelevant (GAP only), which it fragments, where its history
// starts, and the submessages in flight to the reader, which the run delivers in any
// order, loses or duplicates.
type ackModel struct {
	rng      *rand.Rand
	written  wire.SequenceNumber // the last change written
	first    wire.SequenceNumber // the history's first change (KEEP_LAST moves it)
	gapOnly  map[wire.SequenceNumber]bool
	frags    map[wire.SequenceNumber]bool
	hbCount  wire.Count
	inFlight []func(r *Reader, now time.Time)

	// What the reader was told or took: accepted by the deliver callback, declared
	// irrelevant or gone (a GAP, a HEARTBEAT's firstSN past it).
	accepted map[wire.SequenceNumber]int
	declared map[wire.SequenceNumber]bool
	refusing bool
}

const (
	ackFragSize   = 100
	ackSampleSize = 250 // three fragments
)

// send puts the submessages of change sn in flight: a GAP for an irrelevant change or
// one the history no longer has, else a DATA or the DATA_FRAGs (one per fragment, or
// two fragments in one), each lost with probability loss and duplicated with dup.
func (m *ackModel) send(sn wire.SequenceNumber, loss, dup float64) {
	var subs []func(r *Reader, now time.Time)
	switch {
	case m.gapOnly[sn] || sn < m.first:
		g := wire.Gap{WriterID: remoteWriter.Entity, GapStart: sn, GapList: wire.SequenceNumberSet{Base: sn + 1}}
		subs = append(subs, func(r *Reader, now time.Time) {
			m.declared[sn] = true
			r.HandleGap(remotePrefix, &g, now)
		})
	case m.frags[sn]:
		for f := 1; f <= 3; {
			n := 1 + m.rng.IntN(2)
			n = min(n, 4-f)
			d := frag(sn, ackSampleSize, f, n, ackFragSize, byte(sn))
			subs = append(subs, func(r *Reader, now time.Time) { r.HandleDataFrag(remotePrefix, &d, wire.TimeInvalid, now) })
			f += n
		}
	default:
		d := wire.Data{DataFlag: true, WriterID: remoteWriter.Entity, WriterSN: sn, SerializedPayload: []byte{0, 1, 0, 0, byte(sn)}}
		subs = append(subs, func(r *Reader, now time.Time) { r.HandleData(remotePrefix, &d, wire.TimeInvalid, now) })
	}
	for _, s := range subs {
		if m.rng.Float64() < loss {
			continue
		}
		m.inFlight = append(m.inFlight, s)
		if m.rng.Float64() < dup {
			m.inFlight = append(m.inFlight, s)
		}
	}
}

// heartbeat puts a HEARTBEAT in flight announcing the history as it is now.
func (m *ackModel) heartbeat(loss float64) {
	m.hbCount++
	h := wire.Heartbeat{WriterID: remoteWriter.Entity, FirstSN: m.first, LastSN: m.written, Count: m.hbCount}
	if m.rng.Float64() < loss {
		return
	}
	m.inFlight = append(m.inFlight, func(r *Reader, now time.Time) {
		for sn := wire.SequenceNumber(1); sn < h.FirstSN; sn++ {
			m.declared[sn] = true
		}
		r.HandleHeartbeat(remotePrefix, &h, now)
	})
}

// deliverOne hands the reader one submessage in flight, picked at random (reordering).
func (m *ackModel) deliverOne(r *Reader, now time.Time) {
	if len(m.inFlight) == 0 {
		return
	}
	i := m.rng.IntN(min(len(m.inFlight), 8))
	s := m.inFlight[i]
	m.inFlight = append(m.inFlight[:i], m.inFlight[i+1:]...)
	s(r, now)
}

// ackChecker is the reader's Sender: it checks each ACKNACK as the reader sends it,
// failing unless it acknowledges only changes accepted or declared irrelevant and asks
// for none it accepted, and keeps what the last one asked for (with the samples its
// NACK_FRAGs asked fragments of) for the writer to repair.
type ackChecker struct {
	t     *testing.T
	m     *ackModel
	asked []wire.SequenceNumber
	known wire.SequenceNumber // every change below it is accepted or declared
}

func (c *ackChecker) Send(msg []byte, _ []wire.Locator) {
	t, m := c.t, c.m
	t.Helper()
	var rd wire.Reader
	require.NoError(t, rd.Reset(msg))
	for rd.Next() {
		switch rd.Kind() {
		case wire.KindNackFrag:
			var nf wire.NackFrag
			require.NoError(t, rd.NackFrag(&nf))
			if m.accepted[nf.WriterSN] > 0 {
				require.Failf(t, "asked for fragments of a change in the cache", "NACK_FRAG for %d", nf.WriterSN)
			}
			c.asked = append(c.asked, nf.WriterSN)
		case wire.KindAckNack:
			var a wire.AckNack
			require.NoError(t, rd.AckNack(&a))
			// Accepted and declared only grow: so does the run of changes from 1 on
			// that are either.
			for m.accepted[c.known] > 0 || m.declared[c.known] {
				c.known++
			}
			if a.ReaderSNState.Base > c.known {
				require.Failf(t, "acknowledged a change neither in the cache nor irrelevant",
					"ACKNACK base %d acknowledges %d", a.ReaderSNState.Base, c.known)
			}
			c.asked = c.asked[:0]
			for sn := range a.ReaderSNState.All {
				if m.accepted[sn] > 0 {
					require.Failf(t, "asked for a change in the cache", "ACKNACK asks for %d", sn)
				}
				c.asked = append(c.asked, sn)
			}
		default:
		}
	}
	require.NoError(t, rd.Err())
}

// repairs returns what the writer is asked to resend and forgets it.
func (c *ackChecker) repairs() []wire.SequenceNumber {
	a := c.asked
	c.asked = nil
	return a
}

// TestAckNackInvariant: over random exchanges between a writer and a reliable Reader —
// DATA, DATA_FRAG (fragments alone or in pairs), GAPs of irrelevant changes and of
// changes the writer's history dropped, HEARTBEATs, with loss, duplication and
// reordering, a deliver callback that refuses for a while (a full history cache) — an
// ACKNACK never acknowledges a change the reader did not accept into the cache nor
// was told is irrelevant, and never asks for one it accepted. Each change is accepted
// at most once and in order; once the link heals, every relevant change the writer
// still has is accepted.
func TestAckNackInvariant(t *testing.T) {
	seeds := 100
	if testing.Short() {
		seeds = 50
	}
	for seed := range uint64(seeds) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { runAckModel(t, seed) })
	}
}

func runAckModel(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	m := &ackModel{
		rng: rng, first: 1,
		gapOnly: map[wire.SequenceNumber]bool{}, frags: map[wire.SequenceNumber]bool{},
		accepted: map[wire.SequenceNumber]int{}, declared: map[wire.SequenceNumber]bool{},
	}
	var last wire.SequenceNumber
	rec := &ackChecker{t: t, m: m, known: 1}
	window := 16 << rng.IntN(4) // windows of 16 to 128: a burst overflows some
	r := NewReader(ReaderConfig{
		GUID: localReaderID, Reliable: true, Window: window, NackInterval: -1,
		MaxReassemblies: 1 + rng.IntN(4),
	}, func(s *Sample) bool {
		if m.refusing {
			return false
		}
		if s.SN <= last {
			require.Failf(t, "delivered out of order or twice", "change %d after %d", s.SN, last)
		}
		m.accepted[s.SN]++
		last = s.SN
		return true
	}, rec)
	now := time.Unix(1_700_000_000, 0)
	r.AddWriter(WriterProxyInfo{GUID: remoteWriter, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	loss, dup := rng.Float64()*0.4, rng.Float64()*0.1
	total := wire.SequenceNumber(50 + rng.IntN(350))
	for range 2000 {
		now = now.Add(time.Millisecond)
		m.step(r, rec, total, loss, dup, now)
		r.Tick(now)
	}
	m.heal(r, rec, total, now)
	for sn := m.first; sn <= total; sn++ {
		if !m.gapOnly[sn] {
			require.Equal(t, 1, m.accepted[sn], "change %d (history %d..%d)", sn, m.first, total)
		}
	}
}

// step does one random thing of the exchange at now: a write or a burst of them, a
// HEARTBEAT, the repairs the reader asked for, the history dropping its oldest, the
// reader's callback starting or ceasing to refuse, or a submessage delivered.
func (m *ackModel) step(r *Reader, rec *ackChecker, total wire.SequenceNumber, loss, dup float64, now time.Time) {
	switch x := m.rng.IntN(100); {
	case x < 25 && m.written < total:
		for range 1 + m.rng.IntN(20) {
			if m.written == total {
				break
			}
			m.written++
			switch y := m.rng.IntN(100); {
			case y < 10:
				m.gapOnly[m.written] = true
			case y < 25:
				m.frags[m.written] = true
			}
			m.send(m.written, loss, dup)
		}
	case x < 30:
		m.heartbeat(loss)
	case x < 35:
		for _, sn := range rec.repairs() {
			if sn <= m.written {
				m.send(sn, loss, dup)
			}
		}
	case x < 37 && m.first < m.written: // KEEP_LAST
		m.first = min(m.first+wire.SequenceNumber(1+m.rng.IntN(3)), m.written)
	case x < 39:
		m.refusing = !m.refusing
		if !m.refusing {
			r.Retry(now)
		}
	default:
		m.deliverOne(r, now)
	}
}

// heal ends the exchange on a link that loses nothing, with a reader that accepts
// again: the writer sends what it has not, and HEARTBEATs and repairs go on until
// nothing is asked for.
func (m *ackModel) heal(r *Reader, rec *ackChecker, total wire.SequenceNumber, now time.Time) {
	if m.refusing {
		m.refusing = false
		r.Retry(now)
	}
	for m.written < total {
		m.written++
		m.send(m.written, 0, 0)
	}
	for range 200 {
		m.heartbeat(0)
		for len(m.inFlight) > 0 {
			m.deliverOne(r, now)
		}
		now = now.Add(time.Millisecond)
		r.Tick(now)
		for _, sn := range rec.repairs() {
			m.send(sn, 0, 0)
		}
		if len(m.inFlight) == 0 {
			return
		}
	}
}
