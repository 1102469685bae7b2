package durable

import (
	"cmp"
	"slices"

	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/wire"
)

// History is the model of a writer history bounded as rtps.HistoryConfig says: which
// sequence numbers it keeps, of which instance, and each instance's last change kind.
// It holds no payload. Add reports what the bounds drop: KEEP_LAST drops the oldest
// change of the instance beyond the depth; at max_samples_per_instance the oldest of
// the instance, at max_samples the oldest of all, at max_instances the whole instance
// whose latest change is the oldest. Not safe for concurrent use.
type History struct {
	cfg   rtps.HistoryConfig
	inst  map[wire.KeyHash]*instState
	order []entry // every change kept, ascending SN (removed ones marked)
	head  int     // order[:head] are gone
	live  int     // changes kept
}

type entry struct {
	sn   wire.SequenceNumber
	kh   wire.KeyHash
	gone bool
}

type instState struct {
	sns  []wire.SequenceNumber // ascending
	last rtps.ChangeKind
}

// NewHistory returns an empty history bounded by cfg (its Lifespan is ignored).
func NewHistory(cfg rtps.HistoryConfig) *History {
	return &History{cfg: cfg, inst: map[wire.KeyHash]*instState{}}
}

// Len returns the number of changes kept.
func (h *History) Len() int { return h.live }

// Add notes the change sn of kind k of instance kh (sn above every SN held) and
// returns, appended to dropped, the SNs the bounds drop.
func (h *History) Add(sn wire.SequenceNumber, kh wire.KeyHash, k rtps.ChangeKind, dropped []wire.SequenceNumber) []wire.SequenceNumber {
	in := h.inst[kh]
	if in == nil {
		if m := h.cfg.MaxInstances; m > 0 && len(h.inst) >= m {
			dropped = h.dropOldestInstance(dropped)
		}
		in = &instState{}
		h.inst[kh] = in
	}
	perInst := h.cfg.MaxSamplesPerInstance
	if !h.cfg.KeepAll {
		perInst = max(h.cfg.Depth, 1)
		if m := h.cfg.MaxSamplesPerInstance; m > 0 {
			perInst = min(perInst, m)
		}
	}
	for perInst > 0 && len(in.sns) >= perInst {
		// The instance stays (with its arrays: no allocation in the steady state).
		sn0 := in.sns[0]
		in.sns = slices.Delete(in.sns, 0, 1)
		h.removeOrder(sn0)
		dropped = append(dropped, sn0)
	}
	for m := h.cfg.MaxSamples; m > 0 && h.live >= m; {
		dropped = h.dropOldest(dropped)
	}
	in = h.inst[kh]
	if in == nil { // dropped whole by max_samples
		in = &instState{}
		h.inst[kh] = in
	}
	in.sns = append(in.sns, sn)
	in.last = k
	h.order = append(h.order, entry{sn: sn, kh: kh})
	h.live++
	return dropped
}

// drop removes the change sn of instance kh.
func (h *History) drop(kh wire.KeyHash, sn wire.SequenceNumber, dropped []wire.SequenceNumber) []wire.SequenceNumber {
	in := h.inst[kh]
	if in == nil {
		return dropped
	}
	for i, s := range in.sns {
		if s == sn {
			in.sns = append(in.sns[:i], in.sns[i+1:]...)
			break
		}
	}
	if len(in.sns) == 0 {
		delete(h.inst, kh)
	}
	h.removeOrder(sn)
	return append(dropped, sn)
}

// removeOrder marks the change sn removed in order.
func (h *History) removeOrder(sn wire.SequenceNumber) {
	// order is ascending: binary search.
	i, _ := slices.BinarySearchFunc(h.order[h.head:], sn, func(e entry, sn wire.SequenceNumber) int { return cmp.Compare(e.sn, sn) })
	if i += h.head; i < len(h.order) && h.order[i].sn == sn && !h.order[i].gone {
		h.order[i].gone = true
		h.live--
	}
	h.compact()
}

// dropOldest removes the oldest change held.
func (h *History) dropOldest(dropped []wire.SequenceNumber) []wire.SequenceNumber {
	h.compact()
	if h.head >= len(h.order) {
		return dropped
	}
	e := h.order[h.head]
	return h.drop(e.kh, e.sn, dropped)
}

// dropOldestInstance removes the instance whose latest change is the oldest.
func (h *History) dropOldestInstance(dropped []wire.SequenceNumber) []wire.SequenceNumber {
	var victim wire.KeyHash
	var oldest wire.SequenceNumber = -1
	for kh, in := range h.inst {
		if last := in.sns[len(in.sns)-1]; oldest < 0 || last < oldest {
			victim, oldest = kh, last
		}
	}
	return h.DropInstance(victim, dropped)
}

// DropInstance removes every change of instance kh and returns their SNs appended to
// dropped.
func (h *History) DropInstance(kh wire.KeyHash, dropped []wire.SequenceNumber) []wire.SequenceNumber {
	for {
		in := h.inst[kh] // deleted once empty
		if in == nil {
			return dropped
		}
		dropped = h.drop(kh, in.sns[0], dropped)
	}
}

// compact forgets the removed changes at the front of order, and reuses its array
// when most of it is gone.
func (h *History) compact() {
	for h.head < len(h.order) && h.order[h.head].gone {
		h.head++
	}
	if h.head == len(h.order) {
		h.order, h.head = h.order[:0], 0
		return
	}
	if h.head > 64 && h.head > len(h.order)/2 {
		n := copy(h.order, h.order[h.head:])
		h.order, h.head = h.order[:n], 0
	}
}

// AllDisposed reports whether every instance held was disposed by its last change (and
// true for an empty history): there is nothing alive left to keep for late joiners.
func (h *History) AllDisposed() bool {
	for _, in := range h.inst {
		if in.last != rtps.NotAliveDisposed && in.last != rtps.NotAliveDisposedUnregistered {
			return false
		}
	}
	return true
}

// Instances returns the number of instances held.
func (h *History) Instances() int { return len(h.inst) }

// Has reports whether the change sn is kept.
func (h *History) Has(sn wire.SequenceNumber) bool {
	i, ok := slices.BinarySearchFunc(h.order[h.head:], sn, func(e entry, sn wire.SequenceNumber) int { return cmp.Compare(e.sn, sn) })
	return ok && !h.order[h.head+i].gone
}
