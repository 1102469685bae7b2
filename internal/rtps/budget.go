package rtps

import (
	"time"

	"github.com/ddsgo/ddsgo/internal/wire"
)

// LATENCY_BUDGET on the writer side (WriterConfig.LatencyBudget): a change
// written may wait up to the budget before it is sent, so that the changes
// of a burst share datagrams. The changes held are simply the writer's
// pending changes (those after sentSN), which sendPending packs into
// datagrams of up to MaxMessageSize and sends through the one send path
// (batched with sendmmsg when there are several datagrams). They leave:
//
//   - when the oldest of them has waited the budget (the writer's timer:
//     Tick at holdUntil),
//   - before a change that would not fit in the same datagram is added,
//   - with a change that is fragmented (large samples are never held),
//   - before anything that announces or asks about the changes: a
//     HEARTBEAT (periodic, RequestAcks, AssertLiveliness), a reader
//     matched or unmatched, and Flush (the writer is deleted).
//
// An ACKNACK that opens the flow-control window does not send them before
// their time: the changes it lets go wait with them, no longer than the
// budget.
//
// A budget of 0 holds nothing: every write is sent at once, as before.

// maxLatencyBudget bounds a writer's latency budget: an infinite one holds
// changes until a datagram is full or a flush point comes, and a day is as
// good as for ever for that.
const maxLatencyBudget = 24 * time.Hour

// heldCost returns what c takes in a datagram: its DATA submessage and an
// INFO_TS.
func (w *Writer) heldCost(c *Change) int {
	d := wire.Data{InlineQoS: w.inlineQoS(c), SerializedPayload: c.Payload, DataFlag: len(c.Payload) > 0}
	return d.Len() + infoTSLen
}

// makeRoom sends the changes held when c would not fit in their datagram,
// so that it starts a new one.
func (w *Writer) makeRoom(c *Change, now time.Time) {
	if !w.holdUntil.IsZero() && w.heldBytes+w.heldCost(c) > w.cfg.MaxMessageSize-wire.HeaderLen {
		w.sendPending(now)
	}
}

// hold reports whether the change c just stored may wait for more changes
// rather than go at once, and starts the wait.
func (w *Writer) hold(c *Change, now time.Time) bool {
	if w.cfg.LatencyBudget <= 0 || len(w.dests()) == 0 || w.fragments(len(c.Payload)) > 0 {
		return false
	}
	if w.holdUntil.IsZero() {
		w.holdUntil = now.Add(w.cfg.LatencyBudget)
		w.schedule(w.holdUntil)
	} else if !now.Before(w.holdUntil) {
		return false
	}
	w.heldBytes += w.heldCost(c)
	return true
}

// flushHeld sends the changes held, if any.
func (w *Writer) flushHeld(now time.Time) {
	if !w.holdUntil.IsZero() {
		w.sendPending(now)
	}
}

// Flush sends the changes the latency budget holds now: a flush point
// (deletion, wait_for_acknowledgments) that cannot wait for the budget.
func (w *Writer) Flush(now time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.flushHeld(now)
}

// SetLatencyBudget changes how long changes may be held (0: sent at once,
// and those held are sent now). Those held wait no longer than the new
// budget allows from now on.
func (w *Writer) SetLatencyBudget(d time.Duration, now time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.cfg.LatencyBudget = min(max(d, 0), maxLatencyBudget)
	if w.holdUntil.IsZero() {
		return
	}
	if d <= 0 {
		w.sendPending(now)
		return
	}
	if at := now.Add(w.cfg.LatencyBudget); at.Before(w.holdUntil) {
		w.holdUntil = at
		w.schedule(at)
	}
}
