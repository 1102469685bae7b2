package rtps

import (
	"math/bits"
	"time"

	"github.com/ddsgo/ddsgo/rtps/wire"
)

// reassembly collects the fragments of one change (RTPS 2.5 §8.4.14.1).
// Its buffer is allocated at the sample size the first DATA_FRAG claims,
// which MaxSampleSize and the per-writer MaxReassemblyBytes bound.
type reassembly struct {
	sn       wire.SequenceNumber
	size     int
	fragSize int
	total    int
	got      int
	have     []uint64 // bitmap of the fragments received
	buf      []byte
	meta     sampleMeta
	hasMeta  bool
}

func (ra *reassembly) has(f int) bool { return ra.have[(f-1)/64]&(1<<((f-1)%64)) != 0 }

func (ra *reassembly) set(f int) { ra.have[(f-1)/64] |= 1 << ((f - 1) % 64) }

// firstMissing returns the lowest fragment number not received at or after
// from, or 0 when there is none.
func (ra *reassembly) firstMissing(from int) int {
	for f := from; f <= ra.total; {
		w := ^ra.have[(f-1)/64] >> ((f - 1) % 64)
		if w != 0 {
			f += bits.TrailingZeros64(w)
			if f <= ra.total {
				return f
			}
			return 0
		}
		f += 64 - (f-1)%64
	}
	return 0
}

func (p *writerProxy) findFrag(sn wire.SequenceNumber) *reassembly {
	for _, ra := range p.frags {
		if ra.sn == sn {
			return ra
		}
	}
	return nil
}

// HandleDataFrag processes a DATA_FRAG from the participant src, with the
// source timestamp ts of the INFO_TS before it. When the last fragment of
// a change arrives, the change is delivered like a DATA.
func (r *Reader) HandleDataFrag(src wire.GuidPrefix, d *wire.DataFrag, ts wire.Time, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.proxy(src, d.WriterID, d.ReaderID)
	if p == nil {
		return
	}
	sn := d.WriterSN
	switch {
	case sn < p.next:
		if p.reliable {
			r.stats.Duplicates++
		} else {
			r.stats.Old++
		}
		return
	case p.reliable && sn >= p.next+wire.SequenceNumber(r.cfg.Window):
		r.stats.OutOfWindow++
		return
	case p.reliable && r.held(p, sn):
		r.stats.Duplicates++
		return
	}
	size, fs := int(d.SampleSize), int(d.FragmentSize)
	if size > r.cfg.MaxSampleSize || size > r.cfg.MaxReassemblyBytes {
		r.stats.Oversize++
		return
	}
	if size == 0 || fs == 0 || int(d.FragmentStartingNum) < 1 {
		r.stats.BadFragments++
		return
	}
	ra := p.findFrag(sn)
	if ra == nil {
		ra = r.newReassembly(p, sn, size, fs)
		if ra == nil {
			r.stats.ReassemblyDropped++
			return
		}
	} else if ra.size != size || ra.fragSize != fs {
		r.stats.BadFragments++
		return
	}
	if sn > p.maxSeen {
		p.maxSeen = sn
	}
	if !ra.hasMeta || len(d.InlineQoS) > 0 {
		r.parseMeta(&ra.meta, d.InlineQoS, d.BigEndian, p.info.Vendor, !d.KeyFlag, d.KeyFlag)
		ra.meta.ts = ts
		ra.hasMeta = true
	}
	// Copy the fragments not yet received.
	start := int(d.FragmentStartingNum)
	for i := range int(d.FragmentsInSubmessage) {
		f := start + i
		if f > ra.total {
			r.stats.BadFragments++
			break
		}
		off := (f - 1) * fs
		n := min(fs, size-off)
		src := i * fs
		if src+n > len(d.Fragments) {
			break // the wire decoder allows only a short last fragment at the end of the sample
		}
		if ra.has(f) {
			continue
		}
		copy(ra.buf[off:off+n], d.Fragments[src:src+n])
		ra.set(f)
		ra.got++
	}
	if ra.got < ra.total {
		return
	}
	r.removeFrag(p, ra)
	m := ra.meta
	buf := ra.buf
	ra.buf = nil
	r.receive(p, sn, &m, buf, true)
}

// newReassembly starts a reassembly for sn, evicting others when the
// per-writer limits require it: a reliable reader gives up the highest
// sequence numbers (needed last), a best-effort one the lowest (stale).
// It returns nil when sn itself is the one to give up.
func (r *Reader) newReassembly(p *writerProxy, sn wire.SequenceNumber, size, fs int) *reassembly {
	for len(p.frags) >= r.cfg.MaxReassemblies || p.fragBytes+size > r.cfg.MaxReassemblyBytes {
		var victim *reassembly
		for _, ra := range p.frags {
			if victim == nil || (p.reliable && ra.sn > victim.sn) || (!p.reliable && ra.sn < victim.sn) {
				victim = ra
			}
		}
		if victim == nil || (p.reliable && victim.sn < sn) || (!p.reliable && victim.sn > sn) {
			return nil
		}
		r.removeFrag(p, victim)
		r.recycle(victim.buf, true)
		r.stats.ReassemblyEvicted++
	}
	total := (size + fs - 1) / fs
	ra := &reassembly{sn: sn, size: size, fragSize: fs, total: total, have: make([]uint64, (total+63)/64)}
	if cap(r.spare) >= size {
		ra.buf = r.spare[:size]
		r.spare = nil
	} else {
		ra.buf = make([]byte, size)
	}
	p.frags = append(p.frags, ra)
	p.fragBytes += size
	return ra
}

// removeFrag takes ra off the writer's reassemblies.
func (r *Reader) removeFrag(p *writerProxy, ra *reassembly) {
	for i, x := range p.frags {
		if x == ra {
			p.frags = append(p.frags[:i], p.frags[i+1:]...)
			p.frags[len(p.frags):cap(p.frags)][0] = nil
			p.fragBytes -= ra.size
			return
		}
	}
}

// dropFragsBelow gives up the reassemblies of changes already delivered
// or known irrelevant.
func (r *Reader) dropFragsBelow(p *writerProxy) {
	for i := 0; i < len(p.frags); {
		ra := p.frags[i]
		if ra.sn >= p.next && (!p.reliable || !r.held(p, ra.sn)) {
			i++
			continue
		}
		r.removeFrag(p, ra)
		r.recycle(ra.buf, true)
		r.stats.ReassemblyEvicted++
	}
}

// recycle keeps a reader-owned buffer for the next reassembly.
func (r *Reader) recycle(b []byte, owned bool) {
	if owned && b != nil && cap(b) > cap(r.spare) {
		r.spare = b[:0]
	}
}

// appendNackFrags adds NACK_FRAGs for the fragments ra lacks: up to
// maxNackFrags windows of 256 fragments, each with its own count.
func (r *Reader) appendNackFrags(p *writerProxy, ra *reassembly) {
	f := ra.firstMissing(1)
	for range maxNackFrags {
		if f == 0 {
			return
		}
		n := wire.NackFrag{
			ReaderID: r.cfg.GUID.Entity,
			WriterID: p.info.GUID.Entity,
			WriterSN: ra.sn,
		}
		n.FragmentNumberState.Base = wire.FragmentNumber(f)
		end := min(f+wire.MaxSetBits-1, ra.total)
		for ; f != 0 && f <= end; f = ra.firstMissing(f + 1) {
			n.FragmentNumberState.Add(wire.FragmentNumber(f))
		}
		p.nfCount++
		n.Count = p.nfCount
		r.mb.reserve(n.Len())
		r.mb.buf = n.Append(r.mb.buf)
		r.stats.NackFragsSent++
	}
}
