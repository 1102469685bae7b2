package rtps

import (
	"math/bits"
	"slices"
	"time"

	"github.com/ddsgo/ddsgo/internal/wire"
)

// reassembly collects the fragments of one change (RTPS 2.5 §8.4.14.1).
// Its buffer has the sample size the first DATA_FRAG claims, which
// MaxSampleSize and the per-writer MaxReassemblyBytes bound; it comes from
// the reader's fragPool and goes back there once the sample is delivered.
type reassembly struct {
	sn       wire.SequenceNumber
	size     int
	fragSize int
	total    int
	got      int
	// adv is the highest fragment number known to exist: the highest
	// received, or announced by a HEARTBEAT_FRAG, or total once a
	// HEARTBEAT announces the change. Only fragments up to it are asked
	// for: a writer that paces a large sample has not sent the others yet.
	adv     int
	have    []uint64 // bitmap of the fragments received
	buf     []byte
	meta    sampleMeta
	hasMeta bool
}

func (ra *reassembly) has(f int) bool { return ra.have[(f-1)/64]&(1<<((f-1)%64)) != 0 }

func (ra *reassembly) set(f int) { ra.have[(f-1)/64] |= 1 << ((f - 1) % 64) }

// lacks reports whether a fragment up to adv is missing.
func (ra *reassembly) lacks() bool {
	f := ra.firstMissing(1)
	return f != 0 && f <= ra.adv
}

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
	if p == nil || !r.fragWanted(p, d.WriterSN) {
		return
	}
	ra := r.reassemblyFor(p, d)
	if ra == nil {
		return
	}
	sn := d.WriterSN
	if sn > p.maxSeen {
		p.maxSeen = sn
	}
	if !ra.hasMeta || len(d.InlineQoS) > 0 {
		r.parseMeta(&ra.meta, d.InlineQoS, d.BigEndian, p.info.Vendor, !d.KeyFlag, d.KeyFlag)
		ra.meta.ts = ts
		ra.hasMeta = true
	}
	r.copyFragments(ra, d)
	if ra.got < ra.total {
		return
	}
	r.removeFrag(p, ra)
	m := ra.meta
	buf := ra.buf
	ra.buf = nil
	r.pool.putFrag(ra, r.cfg.MaxReassemblies)
	r.rxNow = now
	r.receive(p, sn, &m, buf, true)
	r.rxNow = time.Time{}
}

// fragWanted reports whether fragments of sn from p may still be needed:
// not of a change already delivered, beyond the window or held complete.
func (r *Reader) fragWanted(p *writerProxy, sn wire.SequenceNumber) bool {
	switch {
	case sn < p.next:
		if p.reliable {
			r.stats.Duplicates++
		} else {
			r.stats.Old++
		}
		return false
	case p.reliable && sn >= p.next+wire.SequenceNumber(r.cfg.Window):
		r.stats.OutOfWindow++
		return false
	case p.reliable && r.held(p, sn):
		r.stats.Duplicates++
		return false
	}
	return true
}

// reassemblyFor returns the reassembly d's fragments go to, started if d
// is the first of its change, or nil when d is dropped: its sizes are
// invalid, over the limits or not those of the reassembly under way, or
// there is no room.
func (r *Reader) reassemblyFor(p *writerProxy, d *wire.DataFrag) *reassembly {
	size, fs := int(d.SampleSize), int(d.FragmentSize)
	if size > r.cfg.MaxSampleSize || size > r.cfg.MaxReassemblyBytes {
		r.stats.Oversize++
		return nil
	}
	if size == 0 || fs == 0 || int(d.FragmentStartingNum) < 1 {
		r.stats.BadFragments++
		return nil
	}
	ra := p.findFrag(d.WriterSN)
	if ra == nil {
		ra = r.newReassembly(p, d.WriterSN, size, fs)
		if ra == nil {
			r.stats.ReassemblyDropped++
		}
		return ra
	}
	if ra.size != size || ra.fragSize != fs {
		r.stats.BadFragments++
		return nil
	}
	return ra
}

// copyFragments copies the fragments of d not yet received into ra.
func (r *Reader) copyFragments(ra *reassembly, d *wire.DataFrag) {
	fs := ra.fragSize
	start := int(d.FragmentStartingNum)
	for i := range int(d.FragmentsInSubmessage) {
		f := start + i
		if f > ra.total {
			r.stats.BadFragments++
			return
		}
		off := (f - 1) * fs
		n := min(fs, ra.size-off)
		src := i * fs
		if src+n > len(d.Fragments) {
			return // the wire decoder allows only a short last fragment at the end of the sample
		}
		if ra.has(f) {
			continue
		}
		ra.adv = max(ra.adv, f)
		copy(ra.buf[off:off+n], d.Fragments[src:src+n])
		ra.set(f)
		ra.got++
	}
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
		r.freeFrag(victim)
		r.stats.ReassemblyEvicted++
	}
	if !r.reclaim(size) {
		return nil
	}
	ra := r.pool.getFrag()
	total := (size + fs - 1) / fs
	ra.sn, ra.size, ra.fragSize, ra.total = sn, size, fs, total
	ra.have = slices.Grow(ra.have[:0], (total+63)/64)[:(total+63)/64]
	clear(ra.have)
	ra.buf = r.pool.get(size)
	p.frags = append(p.frags, ra)
	p.fragBytes += size
	r.heldBytes += size
	return ra
}

// reclaim makes room for size more octets under MaxHeldBytes: the writer
// holding the most in reassemblies gives up its last one (its highest
// sequence number, needed last), until size fits. It reports false when
// what is left cannot be given up (it is out-of-order data).
func (r *Reader) reclaim(size int) bool {
	for r.heldBytes+size > r.cfg.MaxHeldBytes {
		var big *writerProxy
		for _, q := range r.list {
			if len(q.frags) > 0 && (big == nil || q.fragBytes > big.fragBytes) {
				big = q
			}
		}
		if big == nil {
			return false
		}
		last := big.frags[0]
		for _, ra := range big.frags {
			if ra.sn > last.sn {
				last = ra
			}
		}
		r.removeFrag(big, last)
		r.freeFrag(last)
		r.stats.ReassemblyEvicted++
	}
	return true
}

// removeFrag takes ra off the writer's reassemblies.
func (r *Reader) removeFrag(p *writerProxy, ra *reassembly) {
	for i, x := range p.frags {
		if x == ra {
			p.frags = append(p.frags[:i], p.frags[i+1:]...)
			p.frags[len(p.frags):cap(p.frags)][0] = nil
			p.fragBytes -= ra.size
			r.heldBytes -= ra.size
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
		r.freeFrag(ra)
		r.stats.ReassemblyEvicted++
	}
}

// freeFrag gives a reassembly given up, and its buffer, back to the pool.
func (r *Reader) freeFrag(ra *reassembly) {
	r.recycle(ra.buf, true)
	ra.buf = nil
	r.pool.putFrag(ra, r.cfg.MaxReassemblies)
}

// recycle gives a reader-owned buffer back to the pool for the next
// reassemblies.
func (r *Reader) recycle(b []byte, owned bool) {
	if owned {
		r.pool.put(b, r.cfg.MaxReassemblies, r.cfg.MaxReassemblyBytes)
	}
}

// fragPool keeps the buffers of delivered or abandoned reassemblies, and
// the reassemblies themselves, so that fragmented samples allocate nothing
// in steady state. It keeps at most MaxReassemblies buffers of at most
// MaxReassemblyBytes in all (the larger ones when it must choose), and as
// many reassemblies.
type fragPool struct {
	bufs  [][]byte
	bytes int // capacity of bufs in all
	ras   []*reassembly
}

// get returns a buffer of n octets (not zeroed), the smallest pooled one
// that fits or a new one.
func (fp *fragPool) get(n int) []byte {
	best := -1
	for i, b := range fp.bufs {
		if cap(b) >= n && (best < 0 || cap(b) < cap(fp.bufs[best])) {
			best = i
		}
	}
	if best < 0 {
		return make([]byte, n)
	}
	b := fp.bufs[best]
	fp.remove(best)
	return b[:n]
}

// put keeps b within maxBufs buffers and maxBytes octets, dropping smaller
// buffers to make room for it, or b itself.
func (fp *fragPool) put(b []byte, maxBufs, maxBytes int) {
	c := cap(b)
	if c == 0 || c > maxBytes {
		return
	}
	for len(fp.bufs) >= maxBufs || fp.bytes+c > maxBytes {
		small := 0
		for i, x := range fp.bufs {
			if cap(x) < cap(fp.bufs[small]) {
				small = i
			}
		}
		if len(fp.bufs) == 0 || cap(fp.bufs[small]) >= c {
			return
		}
		fp.remove(small)
	}
	fp.bufs = append(fp.bufs, b[:0])
	fp.bytes += c
}

// remove takes the buffer at i out of the pool.
func (fp *fragPool) remove(i int) {
	last := len(fp.bufs) - 1
	fp.bytes -= cap(fp.bufs[i])
	fp.bufs[i] = fp.bufs[last]
	fp.bufs[last] = nil
	fp.bufs = fp.bufs[:last]
}

// maxPooledBitmap is the largest fragment bitmap (in words) a pooled
// reassembly keeps.
const maxPooledBitmap = 256

// getFrag returns a cleared reassembly, with the bitmap capacity it had.
func (fp *fragPool) getFrag() *reassembly {
	k := len(fp.ras)
	if k == 0 {
		return &reassembly{}
	}
	ra := fp.ras[k-1]
	fp.ras[k-1] = nil
	fp.ras = fp.ras[:k-1]
	*ra = reassembly{have: ra.have}
	return ra
}

// putFrag keeps ra, whose buffer is gone, for getFrag: at most maxRAs.
func (fp *fragPool) putFrag(ra *reassembly, maxRAs int) {
	if len(fp.ras) >= maxRAs {
		return
	}
	if cap(ra.have) > maxPooledBitmap {
		ra.have = nil
	}
	fp.ras = append(fp.ras, ra)
}

// appendNackFrags adds NACK_FRAGs for the fragments ra lacks up to the
// highest one known to exist: up to maxNackFrags windows of 256
// fragments, each with its own count.
func (r *Reader) appendNackFrags(p *writerProxy, ra *reassembly) {
	f := ra.firstMissing(1)
	for range maxNackFrags {
		if f == 0 || f > ra.adv {
			return
		}
		n := wire.NackFrag{
			ReaderID: r.cfg.GUID.Entity,
			WriterID: p.info.GUID.Entity,
			WriterSN: ra.sn,
		}
		n.FragmentNumberState.Base = wire.FragmentNumber(f)
		end := min(f+wire.MaxSetBits-1, ra.adv)
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
