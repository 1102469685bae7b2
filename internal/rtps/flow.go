package rtps

import (
	"time"

	"github.com/ddsgo/ddsgo/internal/wire"
)

// Defaults of the writer's flow control and retransmission suppression.
const (
	// DefaultMaxUnackedBytes bounds what a reliable writer has sent but not
	// had acknowledged by every reliable reader: half of the 2 MiB socket
	// receive buffer of the readers, counting datagramOverhead per datagram
	// as the kernel charges more than the payload for each one. Cyclone DDS
	// suspends its writers at a similar level (WhcHigh, 500 kB).
	DefaultMaxUnackedBytes = 1 << 20
	// DefaultMaxUnackedChanges bounds the number of changes in the window:
	// half of a reader's default Window (512 SNs), so that one loss does
	// not make the reader drop what follows as out of its window. On
	// loopback, ddsping's 1 KiB throughput was 40 k samples/s with a 1 MiB
	// window alone (about 900 packed changes), 160-200 k with 256-512 KiB.
	DefaultMaxUnackedChanges = 256
	// DefaultNackSuppression is how long a change resent to a reader is not
	// resent to it again (Cyclone DDS: Internal/RetransmitMergingPeriod, which
	// it applies to multicast retransmits only).
	DefaultNackSuppression = 5 * time.Millisecond
)

// changeOverhead is what a change costs the flow-control window beyond its
// payload (submessage headers, INFO_TS), so that empty ones count too, and
// datagramOverhead what each datagram costs: the socket buffer of the
// receiver is charged about 2 KiB for a datagram of 1 KiB. On loopback,
// ddsping's 1 KiB throughput was 35 k samples/s with a 1 MiB window that
// counted payloads only.
const (
	changeOverhead   = 64
	datagramOverhead = 1024
)

// flowCost returns what change c costs the flow-control window.
func flowCost(c *Change) int { return len(c.Payload) + changeOverhead }

// sizeFIFO holds the flow-control costs of the changes sent but not
// acknowledged by every reliable reader, in SN order from base+1. A run of
// SNs sent as a GAP (changes a KEEP_LAST history replaced before they went
// out) is one entry of no cost, so that a writer far ahead of its readers
// skips them without filling the window. It grows to the largest window
// used and then allocates nothing.
type sizeFIFO struct {
	ring    []flowEntry
	head    int
	n       int
	base    wire.SequenceNumber // SN of the last change popped
	total   int                 // sum of the costs held
	changes int                 // entries that are changes, not GAP runs
}

// flowEntry is the cost of the change last, or of the GAP run ending at last.
type flowEntry struct {
	last wire.SequenceNumber
	cost int32
	gap  bool
}

// push adds the cost of change sn, the one after the last pushed.
func (f *sizeFIFO) push(sn wire.SequenceNumber, cost int) {
	f.add(flowEntry{last: sn, cost: int32(cost)})
	f.changes++
}

// pushGap adds the SNs after the last pushed up to last, sent as a GAP.
func (f *sizeFIFO) pushGap(last wire.SequenceNumber) {
	if f.n > 0 {
		if e := &f.ring[(f.head+f.n-1)%len(f.ring)]; e.gap {
			e.last = last
			return
		}
	}
	f.add(flowEntry{last: last, gap: true})
}

func (f *sizeFIFO) add(e flowEntry) {
	if f.n == len(f.ring) {
		nr := make([]flowEntry, max(64, 2*len(f.ring)))
		for i := range f.n {
			nr[i] = f.ring[(f.head+i)%len(f.ring)]
		}
		f.ring, f.head = nr, 0
	}
	f.ring[(f.head+f.n)%len(f.ring)] = e
	f.n++
	f.total += int(e.cost)
}

// addLast adds cost to the last entry pushed.
func (f *sizeFIFO) addLast(cost int) {
	if f.n > 0 {
		f.ring[(f.head+f.n-1)%len(f.ring)].cost += int32(cost)
		f.total += cost
	}
}

// popTo drops the costs of the changes up to sn.
func (f *sizeFIFO) popTo(sn wire.SequenceNumber) {
	for f.n > 0 && f.ring[f.head].last <= sn {
		e := f.ring[f.head]
		f.total -= int(e.cost)
		if !e.gap {
			f.changes--
		}
		f.head = (f.head + 1) % len(f.ring)
		f.n--
		f.base = e.last
	}
	if f.n == 0 && f.base < sn {
		f.base = sn
	}
}

// rexmitSlots is the size of a reader's table of recent retransmissions: an
// ACKNACK bitmap spans at most 256 SNs, so that one request never maps two
// SNs to the same slot.
const rexmitSlots = 256

// rexmitMark records when an SN was last resent to a reader.
type rexmitMark struct {
	sn wire.SequenceNumber
	at time.Duration // since the writer's epoch
}

// rexmitTable remembers the SNs recently resent to one reader, in a table
// indexed by SN modulo its size: a collision forgets the older SN, which can
// only cause a resend, never suppress one wrongly. Allocated on the first
// retransmission.
type rexmitTable struct {
	slots *[rexmitSlots]rexmitMark
}

// recent reports whether sn was resent less than d before at.
func (t *rexmitTable) recent(sn wire.SequenceNumber, at, d time.Duration) bool {
	if t.slots == nil {
		return false
	}
	m := &t.slots[uint64(sn)%rexmitSlots]
	return m.sn == sn && at >= m.at && at-m.at < d
}

// mark records that sn was resent at at.
func (t *rexmitTable) mark(sn wire.SequenceNumber, at time.Duration) {
	if t.slots == nil {
		t.slots = new([rexmitSlots]rexmitMark)
	}
	t.slots[uint64(sn)%rexmitSlots] = rexmitMark{sn: sn, at: at}
}

// fragKeyBits is the number of bits of a fragKey that hold the fragment
// number, above the 8 that pick the table slot.
const fragKeyBits = 20

// fragKey maps fragment f of sn to one key of a rexmitTable, and reports
// false when it cannot (fragment numbers from 2^20, 1.4 GB at 1344 octets;
// SNs from 2^35): those are never suppressed. The low 8 bits, the table
// slot, are those of 4*sn+f, so that the fragments of a run of samples of
// up to four fragments each take distinct slots.
func fragKey(sn wire.SequenceNumber, f wire.FragmentNumber) (wire.SequenceNumber, bool) {
	if f >= 1<<fragKeyBits || sn >= 1<<(63-8-fragKeyBits) {
		return 0, false
	}
	slot := (uint64(sn)*4 + uint64(f)) % rexmitSlots
	return wire.SequenceNumber((uint64(sn)<<fragKeyBits|uint64(f))<<8 | slot), true
}
