package rtps

import (
	"time"

	"github.com/ddsgo/ddsgo/internal/wire"
)

// Pacing of the fragments of one large sample.
//
// The flow-control window (flow.go) paces whole changes: a change goes when
// the window has room, however large it is. A sample of several MiB sent at
// once is more than a reader's socket buffer holds (ddsping's 4 MiB samples,
// 3 121 fragments, lost thousands of datagrams per second to the kernel), and
// every fragment dropped there is repaired by NACK_FRAG a round trip later.
//
// So a reliable writer whose readers are all reliable sends a sample of more
// than twice MaxUnackedBytes in steps of half of MaxUnackedBytes, with at most
// MaxUnackedBytes of its fragments sent and not answered by each reader. Each
// step but the last ends with a HEARTBEAT_FRAG announcing the fragments sent
// so far and a HEARTBEAT that asks for an answer and announces only the
// changes before the sample. A reader answers that HEARTBEAT with an ACKNACK
// once it has read the step from its socket, which credits it with the
// oldest step it had not answered; the next step goes when every reader that
// is not unresponsive has answered the one before the last (two steps in
// flight, so that the reader reads one while the writer sends the next).
// The answers of the peers differ (docs/interop.md, "Large samples"): Fast
// DDS ignores HEARTBEAT_FRAG but answers the HEARTBEAT after 5 ms; Cyclone
// DDS answers a HEARTBEAT with a pure acknowledgment at most every 10 ms
// while its base does not move, and a HEARTBEAT_FRAG only when fragments are
// missing. So whatever the answers, a step goes at the latest
// paceTimeout (5 ms) after the previous one, or twice as long after a wait
// that passed without an answer, up to maxPaceWait (40 ms): a reader that
// never answers gets the sample at half of MaxUnackedBytes per 40 ms
// (13 MB/s by default), and nothing stalls.
//
// Until its last fragment is sent, the sample is not sent as far as the rest
// of the writer is concerned (sentSN stays below it): HEARTBEATs do not
// announce it, later changes wait behind it, and the window counts it once
// whole. Requests for its fragments already sent are repaired at once; those
// for fragments not sent yet (Fast DDS asks for every fragment it lacks) are
// left to the steps.

// paceTimeout is how long a step of a paced sample waits for the readers'
// answers to the previous ones at first. Each time it passes without an
// answer it doubles, up to maxPaceWait, and an answer brings it back: a
// reader that the scheduler holds off the CPU for tens of milliseconds (on
// a loaded machine) gets a few steps more than its share, not one every
// 5 ms, while a reader that never answers still gets the sample.
const (
	paceTimeout = 5 * time.Millisecond
	maxPaceWait = 8 * paceTimeout
)

// fragPace is the state of the sample whose fragments go in steps.
type fragPace struct {
	sn   wire.SequenceNumber // 0: none
	nf   int                 // fragments of the sample
	step int                 // fragments per step
	sent int                 // fragments sent
	at   time.Time           // when the last step went
	wait time.Duration       // how long after at the next step goes at the latest
}

// paces reports whether c goes in steps: it is larger than twice the
// flow-control window, and every reader matched is reliable, remote and
// unfiltered (best-effort readers would never answer; Cyclone DDS too sends
// a sample whole when a best-effort reader is matched).
func (w *Writer) paces(c *Change) bool {
	if !w.windowed() || w.filters > 0 || len(c.Payload) <= 2*w.cfg.MaxUnackedBytes {
		return false
	}
	for _, p := range w.readers {
		if !p.info.Reliable {
			return false
		}
	}
	return w.fragments(len(c.Payload)) > 0
}

// appendPaced adds to the message in progress the steps of c that may go
// now, starting its pacing when c is new, and reports whether all of c's
// fragments are sent.
func (w *Writer) appendPaced(c *Change, now time.Time) bool {
	if w.pace.sn != c.SN {
		nf := w.fragments(len(c.Payload))
		w.pace = fragPace{sn: c.SN, nf: nf, step: max(1, w.cfg.MaxUnackedBytes/2/w.cfg.FragmentSize), wait: paceTimeout}
		for _, p := range w.readers {
			p.paceMark = 0
		}
	}
	// Readers changed (one best-effort matched, say): the rest goes at once.
	free := !w.paces(c)
	stepped := false
	for w.pace.sent < w.pace.nf && (free || w.paceRoom()) {
		from, to := w.pace.sent+1, min(w.pace.sent+w.pace.step, w.pace.nf)
		w.appendChange(c, wire.EntityIDUnknown, false, from, to)
		w.pace.sent = to
		stepped = true
		if to < w.pace.nf {
			w.appendHeartbeatFinal(wire.EntityIDUnknown, w.hbFirst(1), w.hbLast(nil), now, false)
		}
	}
	if w.pace.sent == w.pace.nf {
		w.pace = fragPace{}
		return true
	}
	if stepped {
		w.pace.at = now
		w.schedule(now.Add(w.pace.wait))
	}
	return false
}

// paceRoom reports whether one more step of the paced sample may go: every
// reader that answers has answered all but the last step.
func (w *Writer) paceRoom() bool {
	for _, p := range w.readers {
		if p.info.local == nil && !p.unresponsive && w.pace.sent-p.paceMark >= 2*w.pace.step {
			return false
		}
	}
	return true
}

// paceAnswer credits p, which answered, with the oldest step of the paced
// sample it had not answered, and brings the wait for answers back to
// paceTimeout.
func (w *Writer) paceAnswer(p *readerProxy) {
	if w.paceCredit(p) {
		w.pace.wait = paceTimeout
	}
}

// paceCredit credits p with the oldest step of the paced sample it had not
// answered, if any, and reports whether it did.
func (w *Writer) paceCredit(p *readerProxy) bool {
	if w.pace.sn == 0 || p.paceMark >= w.pace.sent {
		return false
	}
	p.paceMark = min((p.paceMark/w.pace.step+1)*w.pace.step, w.pace.sent)
	return true
}

// paceDue sends the next steps of the paced sample when its readers have
// answered, or when the wait has passed since the last step (then each
// reader is credited with one step, answered or not, and the next wait is
// twice as long).
func (w *Writer) paceDue(now time.Time) {
	if w.pace.sn == 0 || !w.holdUntil.IsZero() {
		return
	}
	if !now.Before(w.pace.at.Add(w.pace.wait)) {
		for _, p := range w.readers {
			w.paceCredit(p)
		}
		w.pace.wait = min(2*w.pace.wait, maxPaceWait)
	}
	w.sendNew(now)
}

// paceDeadline returns when the paced sample's next step is due at the
// latest (zero: none).
func (w *Writer) paceDeadline() time.Time {
	if w.pace.sn == 0 {
		return time.Time{}
	}
	return w.pace.at.Add(w.pace.wait)
}
