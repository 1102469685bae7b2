package rtps

import (
	"sync"
	"time"

	"github.com/ddsgo/ddsgo/internal/wire"
)

// Same-process delivery: a writer whose matched reader lives in
// this process (the same engine or another engine of the process) hands
// each change to that reader in Write, the way the receive path does after
// parsing a DATA (Reader.receive: the same window, the same deliver
// callback), and counts it acknowledged at once when the reader took it. It
// sends that reader no DATA and expects no ACKNACK for it. As Fast DDS's
// intra-process delivery, only user endpoints take this path; the built-in
// (discovery) endpoints keep the wire.
//
// The direct hand-over is for a reader that is caught up: it has every
// change before this one (acknowledged, or not relevant to it). A reader
// that is not (a transient-local late joiner getting the history, a reader
// whose deliver callback refused a change, a reader whose side of the match
// is not there yet) gets what it lacks through the wire path, directed to
// it: HEARTBEAT, ACKNACK, repair. Once its ACKNACKs show it caught up, the
// direct hand-over resumes.
//
// Locks: the writer's lock is held while the reader's is taken (rtps.Writer.mu,
// then rtps.Reader.mu and the deliver callback's locks): no goroutine holding a
// reader's lock or a lock of its deliver chain takes a writer's lock (docs/locking.md).

// engines is the process-wide registry of engines by GUID prefix, for the
// writers to find the readers of the process.
var engines sync.Map // wire.GuidPrefix -> *Engine

// registerLocal files e in the process's registry, unless another engine
// has its prefix already (then neither is found by prefix from e's side).
func (e *Engine) registerLocal() {
	if e.cfg.NoLocalDelivery {
		return
	}
	engines.LoadOrStore(e.prefix, e)
}

// unregisterLocal removes e from the process's registry.
func (e *Engine) unregisterLocal() { engines.CompareAndDelete(e.prefix, e) }

// localReader returns the user reader g when it lives in an engine of this
// process that takes same-process delivery, nil otherwise.
func (e *Engine) localReader(g wire.GUID) *Reader {
	if e.cfg.NoLocalDelivery || g.Entity.IsBuiltin() || g.Entity.IsVendorSpecific() {
		return nil
	}
	v, ok := engines.Load(g.Prefix)
	if !ok {
		return nil
	}
	o := v.(*Engine)
	o.regMu.RLock()
	defer o.regMu.RUnlock()
	return o.readers[g.Entity]
}

// deliverLocal hands c, just written, to the same-process readers, and counts
// it acknowledged by the reliable ones that took it. A reliable reader that
// lags (its side of the match came after the first writes, it refused a
// change) first gets, from the history, the changes it lacks.
func (w *Writer) deliverLocal(c *Change, now time.Time) {
	if w.locals == 0 {
		return
	}
	for _, p := range w.readers {
		r := p.info.local
		switch {
		case r == nil:
		case p.info.Reliable:
			w.catchUpLocal(p, c.SN, now)
		case w.passes(p, c):
			r.takeLocal(w.cfg.GUID, c, p.acked, w.cfg.Keyed, now)
		}
	}
}

// catchUpLocal hands the same-process reliable reader p the changes of the
// history after those it acknowledged, up to the change to, in order, until
// one is missing from the history (the wire path's GAP tells the reader) or
// the reader does not take one (the wire path repairs it later).
func (w *Writer) catchUpLocal(p *readerProxy, to wire.SequenceNumber, now time.Time) {
	for p.acked < to {
		sn := p.acked + 1
		c, ok := w.hist.Get(sn)
		if !ok {
			return
		}
		if w.passes(p, c) && !p.info.local.takeLocal(w.cfg.GUID, c, p.acked, w.cfg.Keyed, now) {
			return
		}
		p.acked = sn // taken, or not relevant to it
	}
}

// assertLocal tells the same-process readers of a liveliness assertion
// (the HEARTBEAT with the Liveliness flag that remote readers get).
func (w *Writer) assertLocal() {
	for _, p := range w.readers {
		if p.info.local != nil {
			p.info.local.livelinessLocal(w.cfg.GUID)
		}
	}
}

// takeLocal receives the change c of the same-process writer w, for which
// every change up to acked is acknowledged or not relevant to this reader,
// and reports whether the reader now has it (delivered, or buffered for a
// best-effort reader: taken). False leaves it to the wire path.
func (r *Reader) takeLocal(w wire.GUID, c *Change, acked wire.SequenceNumber, keyed bool, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.writer(w)
	if p == nil || r.gone {
		return false
	}
	if p.reliable {
		// What the writer counts acknowledged below c and the reader has
		// not seen is not relevant to it (a volatile reader's start, a
		// change its filter rejects): a GAP, not a loss.
		if p.next <= acked {
			r.advanceTo(p, acked+1, false)
			r.wakeSync()
		}
		switch {
		case p.next > c.SN:
			// It has c already (a repair by the wire whose ACKNACK the
			// writer has not heard yet): taken.
			return true
		case p.next < c.SN:
			return false
		}
	}
	var m sampleMeta
	localMeta(&m, c, keyed)
	var payload []byte
	if len(c.Payload) > 0 {
		payload = c.Payload
	}
	r.rxNow = now
	r.receive(p, c.SN, &m, payload, false)
	r.rxNow = time.Time{}
	return !p.reliable || p.next > c.SN
}

// localMeta fills m with what a DATA carrying c would say (parseMeta of
// the inline QoS Writer.inlineQoS builds and of the DATA's flags).
func localMeta(m *sampleMeta, c *Change, keyed bool) {
	data := len(c.Payload) > 0
	*m = sampleMeta{
		kind:       c.Kind,
		keyHash:    c.KeyHash,
		hasKeyHash: keyed,
		keyOnly:    data && c.Kind != Alive,
		skip:       !data && c.Kind == Alive,
		ts:         c.Timestamp,
		related:    c.Related,
		coherent:   c.Coherent,
		group:      c.Group,
	}
}

// livelinessLocal is HandleHeartbeat's part for a HEARTBEAT with the
// Liveliness flag from the same-process writer w.
func (r *Reader) livelinessLocal(w wire.GUID) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.writers[w] != nil && !r.gone && r.cfg.OnLiveliness != nil {
		r.cfg.OnLiveliness(w)
	}
}

// markGone marks r deleted: same-process writers hand it nothing more.
func (r *Reader) markGone() {
	r.mu.Lock()
	r.gone = true
	r.mu.Unlock()
}
