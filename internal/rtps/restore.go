package rtps

import "github.com/ddsgo/ddsgo/internal/wire"

// restore loads the changes of cfg.Restore (SNs set, ascending) into the history of a
// writer that has no reader yet, and continues its sequence numbers after them and
// after cfg.RestoreLastSN: a PERSISTENT writer restarted from its store. The changes
// count as sent (readers that match get them from the history, as a late joiner of a
// transient-local writer does) and as acknowledged by nobody in particular. A change
// whose SN is not above the previous one, or that the history refuses, is skipped.
func (w *Writer) restore() {
	last := wire.SequenceNumber(0)
	for _, c := range w.cfg.Restore {
		if c.SN <= last || w.hist.Add(c) != nil {
			continue
		}
		last = c.SN
	}
	last = max(last, w.cfg.RestoreLastSN)
	w.cfg.Restore = nil
	w.lastSN, w.sentSN, w.ackedAll = last, last, last
	w.flow.base = last
	w.hist.SetReclaim(last, !w.cfg.TransientLocal)
}

// Retain drops from the history every change for which keep returns false: a deleted
// TRANSIENT or PERSISTENT writer's history cut down to what its durability service
// keeps (DURABILITY_SERVICE). A reader that asks for a dropped change gets a GAP. It
// returns the number of changes dropped.
func (w *Writer) Retain(keep func(wire.SequenceNumber) bool) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	type victim struct {
		k  wire.KeyHash
		sn wire.SequenceNumber
	}
	var drop []victim
	w.hist.All(1, w.lastSN, func(c *Change) bool {
		if !keep(c.SN) {
			drop = append(drop, victim{c.KeyHash, c.SN})
		}
		return true
	})
	for _, v := range drop {
		w.hist.dropChange(v.k, v.sn)
	}
	return len(drop)
}
