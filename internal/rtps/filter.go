package rtps

import "github.com/ddsgo/ddsgo/internal/wire"

// Writer-side content filtering (DDS-RTPS 2.5 §8.7.3): a reader that announced a
// content filter the writer can evaluate gets only the changes its filter accepts;
// for the others a reliable reader gets a GAP (they are irrelevant to it, so it
// acknowledges them and waits for nothing), a best-effort one nothing. The filter of a
// reader is ReaderProxyInfo.Filter. A change whose filter rejects it for some reader
// is sent reader by reader, each DATA directed to its reader; the others go as usual
// to every reader at once.

// ReaderFilter reports whether a reader's content filter accepts the serialized
// payload of a change (encapsulation header and data). It runs with the writer's lock
// held, one call at a time per writer, and must not call the writer.
type ReaderFilter func(payload []byte) bool

// SetReaderFilter replaces the content filter of the matched reader g (nil: none),
// for the changes sent from then on.
func (w *Writer) SetReaderFilter(g wire.GUID, f ReaderFilter) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if p := w.findReader(g); p != nil {
		p.info.Filter = f
		w.countFilters()
	}
}

// countFilters recounts the readers with a filter; the caller holds mu.
func (w *Writer) countFilters() {
	w.filters = 0
	for _, p := range w.readers {
		if p.info.Filter != nil {
			w.filters++
		}
	}
}

// passes reports whether c is for reader p: its filter, if any, accepts it. Only
// alive changes with a payload are filtered.
func (w *Writer) passes(p *readerProxy, c *Change) bool {
	return p.info.Filter == nil || c.Kind != Alive || len(c.Payload) == 0 || p.info.Filter(c.Payload)
}

// appendFiltered sends c, first transmission, reader by reader when some reader's
// filter rejects it, and reports whether it did; when every reader takes it, it does
// nothing and c goes the usual way. The message in progress is flushed first and a
// new one to every reader started after.
func (w *Writer) appendFiltered(c *Change) bool {
	if w.filters == 0 || c.Kind != Alive || len(c.Payload) == 0 {
		return false
	}
	w.verdicts = w.verdicts[:0]
	out := false
	for _, p := range w.readers {
		ok := w.passes(p, c)
		w.verdicts = append(w.verdicts, ok)
		out = out || !ok
	}
	if !out {
		return false
	}
	for i, p := range w.readers {
		if c.SN < p.firstRelevant || (!w.verdicts[i] && !p.info.Reliable) || p.info.local != nil {
			continue
		}
		w.mb.start(p.dest, p.info.GUID.Prefix, true)
		if w.verdicts[i] {
			w.appendChange(c, p.info.GUID.Entity, false, 0, 0)
		} else {
			w.appendGap(p.info.GUID.Entity, c.SN, c.SN+1)
		}
	}
	w.mb.startBatch(w.dests(), wire.GuidPrefix{}, false)
	return true
}
