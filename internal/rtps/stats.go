package rtps

import "sync"

// readerTotals keeps the counters of the readers an engine deleted, so
// that Engine.ReaderTotals never goes backwards.
type readerTotals struct {
	mu      sync.Mutex
	retired ReaderStats
}

// ReaderTotals returns the sum of the counters of the engine's readers,
// built-in and user, the deleted ones included: the changes dropped as
// duplicates (replayed sequence numbers), out of window, oversize or as
// bad fragments, over the participant's life.
func (e *Engine) ReaderTotals() ReaderStats {
	// The list and the retired sum are read together, so that a reader
	// being deleted is in one or the other.
	e.regMu.RLock()
	rs := make([]*Reader, 0, len(e.readers))
	for _, r := range e.readers {
		rs = append(rs, r)
	}
	e.rtotals.mu.Lock()
	sum := e.rtotals.retired
	e.rtotals.mu.Unlock()
	e.regMu.RUnlock()
	for _, r := range rs {
		sum = sum.add(r.Stats())
	}
	return sum
}

// retire adds the last counters s of a reader being deleted to the
// engine's totals. The caller holds regMu.
func (e *Engine) retire(s ReaderStats) {
	e.rtotals.mu.Lock()
	e.rtotals.retired = e.rtotals.retired.add(s)
	e.rtotals.mu.Unlock()
}

// add returns the sum of a and b, field by field.
func (a ReaderStats) add(b ReaderStats) ReaderStats {
	return ReaderStats{
		Delivered: a.Delivered + b.Delivered, Refused: a.Refused + b.Refused,
		Consumed: a.Consumed + b.Consumed, Duplicates: a.Duplicates + b.Duplicates,
		Old: a.Old + b.Old, OutOfWindow: a.OutOfWindow + b.OutOfWindow,
		BufferFull: a.BufferFull + b.BufferFull, Lost: a.Lost + b.Lost,
		UnknownWriter: a.UnknownWriter + b.UnknownWriter, WrongReader: a.WrongReader + b.WrongReader,
		BadInlineQoS: a.BadInlineQoS + b.BadInlineQoS, Oversize: a.Oversize + b.Oversize,
		BadFragments: a.BadFragments + b.BadFragments, ReassemblyDropped: a.ReassemblyDropped + b.ReassemblyDropped,
		ReassemblyEvicted: a.ReassemblyEvicted + b.ReassemblyEvicted, HeartbeatsDup: a.HeartbeatsDup + b.HeartbeatsDup,
		AckNacksSent: a.AckNacksSent + b.AckNacksSent, NackFragsSent: a.NackFragsSent + b.NackFragsSent,
	}
}
