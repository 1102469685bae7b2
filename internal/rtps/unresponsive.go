package rtps

import "time"

// Unresponsive readers. A reliable reader that lags and stays silent (no
// ACKNACK nor NACK_FRAG) for WriterConfig.UnresponsiveTimeout while the
// writer is throttled (the flow-control window or a full KEEP_ALL history
// holds it back), counted in periodic HEARTBEATs it did not answer, is no
// longer waited for: it does
// not hold back the flow-control window, the history's reclaiming nor
// wait_for_acknowledgments. Every real reader answers a HEARTBEAT within
// a round trip, so only a dead or forged one (announced by SEDP by anyone
// on the network) stays silent that long; without this, one forged
// reliable reader on a topic stalls every real reader of the writer. When
// it speaks again it is waited for again, from what it acknowledges: it
// gets what the history still has (a transient-local writer's history
// for a late joiner whose discovery was slow), and GAPs for what the
// others acknowledged and the history dropped meanwhile.
//
// Cyclone DDS does the same: a writer whose history does not shrink for
// 1 s of throttling considers the readers that have not acknowledged
// everything non-responsive and stops retransmitting to them until an
// ACKNACK comes (src/core/ddsi/src/ddsi_transmit.c, ddsi_receive.c).

// countSilence counts a periodic HEARTBEAT of a throttled writer against
// every reliable reader that lags, and stops waiting for those silent for
// UnresponsiveTimeout. A writer with room never gives up on a reader: a
// reader cut off for a while (a partition, a paused process) then loses
// nothing. The caller holds w.mu.
func (w *Writer) countSilence(now time.Time) {
	if w.cfg.UnresponsiveTimeout < 0 {
		return
	}
	if !w.throttled() {
		for _, p := range w.readers {
			p.silentHBs = 0
		}
		return
	}
	limit := int(w.cfg.UnresponsiveTimeout / w.cfg.HeartbeatPeriod)
	demoted := false
	for _, p := range w.readers {
		if !p.info.Reliable || p.unresponsive || p.acked >= w.sentSN {
			continue
		}
		p.silentHBs++
		if p.silentHBs > limit {
			p.unresponsive = true
			w.stats.Unresponsive++
			demoted = true
		}
	}
	if demoted {
		w.updateAcked()
		w.sendPending(now)
	}
}

// heard notes that the reader p spoke (an ACKNACK or NACK_FRAG): it is
// waited for again. The history keeps dropping only what every reader
// waited for acknowledged, and never takes back what it dropped. The
// caller holds w.mu.
func (w *Writer) heard(p *readerProxy) {
	p.silentHBs = 0
	if p.unresponsive {
		p.unresponsive = false
		w.updateAcked()
	}
}

// throttled reports whether readers hold the writer back: changes wait for
// the flow-control window, or a KEEP_ALL history is full of changes not
// acknowledged. The caller holds w.mu.
func (w *Writer) throttled() bool {
	if w.sentSN < w.lastSN {
		return true
	}
	h := w.cfg.History
	return h.KeepAll && h.MaxSamples > 0 && int(w.lastSN-w.ackedAll) >= h.MaxSamples
}
