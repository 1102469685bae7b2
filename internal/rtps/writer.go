package rtps

import (
	"encoding/binary"
	"slices"
	"sync"
	"time"

	"github.com/ddsgo/ddsgo/internal/transport"
	"github.com/ddsgo/ddsgo/internal/wire"
)

// WriterConfig configures a Writer. Zero values select the documented
// defaults.
type WriterConfig struct {
	// GUID of the writer.
	GUID wire.GUID
	// Version and Vendor go in the header of every message; zero values
	// mean wire.ProtocolVersion25 and wire.VendorDDSGo.
	Version wire.ProtocolVersion
	Vendor  wire.VendorID
	// Reliable makes the writer keep changes until reliable readers
	// acknowledge them and repair what they report missing.
	Reliable bool
	// TransientLocal keeps the history for readers that match later;
	// otherwise (VOLATILE) late joiners only get changes written after
	// they matched, and acknowledged changes are dropped at once.
	TransientLocal bool
	// Keyed says the topic has a key: changes carry a key hash.
	Keyed bool
	// History sets the history kind, depth and resource limits.
	History HistoryConfig
	// HeartbeatPeriod is the period of HEARTBEATs while a reliable reader
	// has unacknowledged changes; 0 means DefaultHeartbeatPeriod.
	HeartbeatPeriod time.Duration
	// UnresponsiveTimeout is how long a reliable reader that lags may
	// stay silent (no ACKNACK nor NACK_FRAG) before the writer stops
	// waiting for it: it no longer holds back the flow-control window, the
	// history or wait_for_acknowledgments, until it speaks again (then it
	// catches up on what the history still has, GAPs for the rest). A
	// forged or dead reader cannot stall the writer for its real readers.
	// 0 means DefaultUnresponsiveTimeout; negative means wait for ever.
	UnresponsiveTimeout time.Duration
	// NackResponseDelay delays the repairs an ACKNACK or NACK_FRAG asks
	// for, so that requests of several readers are served together; 0
	// answers at once.
	NackResponseDelay time.Duration
	// PiggybackEvery sends a HEARTBEAT with new data once every that many
	// writes, and always when the last HEARTBEAT is older than a quarter of
	// HeartbeatPeriod or everything before was acknowledged (so that at low
	// rates every write has one); 0 means 8.
	PiggybackEvery int
	// MaxMessageSize bounds the datagrams built; 0 means
	// DefaultMaxMessageSize.
	MaxMessageSize int
	// FragmentSize is the DATA_FRAG fragment size; 0 means
	// DefaultFragmentSize.
	FragmentSize int
	// FragmentThreshold is the largest payload sent in one DATA; larger
	// ones go in DATA_FRAGs. 0 means FragmentSize, like Cyclone DDS.
	FragmentThreshold int
	// MaxRepairBytes bounds the payload resent in answer to one ACKNACK
	// (at least one change is always resent); 0 means 8 MiB.
	MaxRepairBytes int
	// MaxUnackedBytes is the flow-control window of a writer with reliable
	// readers: the payload (plus 64 octets per change and 1 KiB per
	// datagram, for what the receiver's socket buffer is charged) sent but
	// not acknowledged by every reliable reader. Write still stores the changes
	// beyond it but sends them when acknowledgments make room, and the
	// writer asks for acknowledgments once half of it is used. 0 means
	// DefaultMaxUnackedBytes; a negative value disables the window.
	MaxUnackedBytes int
	// MaxUnackedChanges bounds the number of changes in the flow-control
	// window; 0 means DefaultMaxUnackedChanges. It only applies when
	// MaxUnackedBytes does.
	MaxUnackedChanges int
	// NackSuppression is how long a change resent to a reader is not resent
	// to it again: later requests for it in that time are ignored (counted
	// in WriterStats.NacksSuppressed), since the repair is likely still on
	// its way. 0 means DefaultNackSuppression; a negative value disables it.
	NackSuppression time.Duration
	// InlineKeyHash puts PID_KEY_HASH in the inline QoS of alive samples
	// too (it is always sent with disposes and unregisters, and with every
	// sample when a matched reader expects inline QoS).
	InlineKeyHash bool
	// Release, if not nil, receives the payload of every change the
	// history drops, so that the caller can recycle the buffer.
	Release func([]byte)
	// Restore, for a writer restarted from a store (PERSISTENT durability),
	// is the history to start with: changes with their SNs set, ascending;
	// the writer continues after the last of them, or after RestoreLastSN
	// when that is higher. The writer owns the payloads from then on.
	Restore       []Change
	RestoreLastSN wire.SequenceNumber
	// LatencyBudget is how long a change written may be held so that
	// several share a datagram (LATENCY_BUDGET; budget.go); 0 sends each
	// change at once. At most a day.
	LatencyBudget time.Duration
	// TransportPriority is the writer's TRANSPORT_PRIORITY: Engine.NewWriter
	// sends its datagrams with the IP TOS it maps to (priority.go); 0 is
	// the default socket. NewWriter with a Sender of its own ignores it.
	TransportPriority int32
	// Schedule, if not nil, is called (with the writer's lock held) when
	// the writer's earliest deadline becomes earlier than the one it last
	// reported; the event loop must then call Tick at that time. It must
	// not block nor call back into the writer.
	Schedule func(deadline time.Time)
}

// defaultWire sets a zero protocol version and vendor to this implementation's: RTPS
// 2.5, the ddsgo vendor id.
func defaultWire(version *wire.ProtocolVersion, vendor *wire.VendorID) {
	if *version == (wire.ProtocolVersion{}) {
		*version = wire.ProtocolVersion25
	}
	if *vendor == (wire.VendorID{}) {
		*vendor = wire.VendorDDSGo
	}
}

func (c *WriterConfig) setDefaults() {
	defaultWire(&c.Version, &c.Vendor)
	if c.HeartbeatPeriod <= 0 {
		c.HeartbeatPeriod = DefaultHeartbeatPeriod
	}
	if c.UnresponsiveTimeout == 0 {
		c.UnresponsiveTimeout = DefaultUnresponsiveTimeout
	}
	if c.PiggybackEvery <= 0 {
		c.PiggybackEvery = 8
	}
	if c.MaxMessageSize <= 0 {
		c.MaxMessageSize = DefaultMaxMessageSize
	}
	if c.FragmentSize <= 0 {
		c.FragmentSize = DefaultFragmentSize
	}
	c.FragmentSize = min(c.FragmentSize, 65535)
	if c.FragmentThreshold <= 0 {
		c.FragmentThreshold = c.FragmentSize
	}
	if c.MaxRepairBytes <= 0 {
		c.MaxRepairBytes = 8 << 20
	}
	if c.MaxUnackedBytes == 0 {
		c.MaxUnackedBytes = DefaultMaxUnackedBytes
	}
	if c.MaxUnackedChanges <= 0 {
		c.MaxUnackedChanges = DefaultMaxUnackedChanges
	}
	if c.NackSuppression == 0 {
		c.NackSuppression = DefaultNackSuppression
	}
	c.LatencyBudget = min(max(c.LatencyBudget, 0), maxLatencyBudget)
}

// ReaderProxyInfo describes a matched remote reader.
type ReaderProxyInfo struct {
	GUID             wire.GUID
	Reliable         bool
	ExpectsInlineQoS bool
	// Volatile says the reader's DURABILITY is VOLATILE: it wants no
	// history, only the changes written after it matched, even from a
	// transient-local writer (DDS 1.4 §2.2.3.4).
	Volatile bool
	// Unicast and Multicast are the reader's locators (or its
	// participant's defaults). Messages go to the unicast ones, or to the
	// multicast ones when there is no unicast locator.
	Unicast   []wire.Locator
	Multicast []wire.Locator
	// Filter, when not nil, is the reader's content filter (filter.go).
	Filter ReaderFilter
	// NoIntro: the reader gets the HEARTBEAT sent when it matches and no
	// introductory ones after it (scheduleIntro). Discovery sets it for
	// the built-in readers of a participant that arrives while many others
	// have not answered yet, as in a flood of forged announcements, so
	// that those cannot make us send a dozen datagrams each.
	NoIntro bool
	// local is the reader itself when it lives in this process and takes
	// same-process delivery (local.go); Engine.MatchReader sets it.
	local *Reader
}

// WriterStats are counters of a Writer.
type WriterStats struct {
	Written           uint64 // changes written
	DataSent          uint64 // DATA submessages sent (first transmission)
	DataFragSent      uint64 // DATA_FRAG submessages sent (first transmission)
	Retransmits       uint64 // DATA and DATA_FRAG submessages resent
	GapsSent          uint64
	HeartbeatsSent    uint64
	HeartbeatFragSent uint64
	AckNacks          uint64 // ACKNACKs accepted
	NackFrags         uint64 // NACK_FRAGs accepted
	Duplicates        uint64 // ACKNACKs and NACK_FRAGs dropped for an old count
	UnknownReader     uint64 // ACKNACKs and NACK_FRAGs from readers not matched
	FragRequestsLost  uint64 // NACK_FRAG requests dropped because too many were pending
	NacksSuppressed   uint64 // requested changes not resent because they just were
	Deferred          uint64 // changes whose first transmission waited for the flow-control window
	Messages          uint64 // datagrams sent
	Unresponsive      uint64 // reliable readers no longer waited for: silent for UnresponsiveTimeout
	Expired           uint64 // changes dropped from the history because their LIFESPAN passed
}

// maxFragRequests bounds the NACK_FRAG requests pending per reader.
const maxFragRequests = 16

type fragRequest struct {
	sn  wire.SequenceNumber
	set wire.FragmentNumberSet
}

// readerProxy is the writer's state for one matched reader (RTPS 2.5
// §8.4.7.5 ReaderProxy).
type readerProxy struct {
	info ReaderProxyInfo
	dest []wire.Locator
	// acked: every change up to it is acknowledged (or irrelevant).
	acked wire.SequenceNumber
	// firstRelevant is the first change the reader may receive: 1 for a
	// transient-local writer, the next SN at match time for a volatile one.
	firstRelevant wire.SequenceNumber
	acks          lastCount // of the ACKNACKs
	nackFrags     lastCount // of the NACK_FRAGs
	req           wire.SequenceNumberSet
	hasReq        bool
	fragReqs      [maxFragRequests]fragRequest
	nFragReqs     int
	gapBelow      bool // send GAP [1, firstRelevant)
	hbDue         bool // send a directed HEARTBEAT
	// silentHBs counts the periodic HEARTBEATs sent while the reader
	// lagged since its last ACKNACK or NACK_FRAG; unresponsive is set when
	// they span UnresponsiveTimeout (unresponsive.go).
	silentHBs    int
	unresponsive bool
	// paceMark is how many fragments of the paced sample the reader has
	// answered for (pace.go).
	paceMark   int
	repairAt   time.Time
	rexmit     rexmitTable // recent retransmissions, for NACK suppression
	fragRexmit rexmitTable // the same for fragments (keys of fragKey)
	// heard says an ACKNACK or NACK_FRAG came from the reader. Until then
	// it gets periodic HEARTBEATs, data written or not: the one sent when
	// it matched may have been lost, or come before the reader knew the
	// writer, and a volatile reader that first hears of the writer through
	// a later HEARTBEAT takes the changes it announces as written before it
	// joined (Cyclone DDS): those lost on the way would never be asked
	// for. Every period for a second, then ever more rarely, none after
	// maxUnheardHBs (unheardHBs counts, unheardDue paces): a reader that
	// never answers (forged, or gone) is not heartbeaten forever.
	heard      bool
	unheardHBs int
	// introLeft counts the directed HEARTBEATs still to send a new reader
	// until it ACKNACKs (see introHeartbeats).
	introLeft int
	introDue  bool // repairAt is an introductory HEARTBEAT's
}

// Writer is the stateful RTPS writer (RTPS 2.5 §8.4.9), best-effort or
// reliable. It owns no goroutine nor timer: methods take the current time
// and the event loop calls Tick at the deadlines the writer reports. All
// methods are safe for concurrent use.
type Writer struct {
	mu     sync.Mutex
	cfg    WriterConfig
	hist   *WriterHistory
	lastSN wire.SequenceNumber
	// sentSN is the last change sent for the first time (or skipped):
	// changes after it wait for the flow-control window. HEARTBEATs
	// announce up to sentSN.
	sentSN wire.SequenceNumber
	flow   sizeFIFO // costs of the changes in (flow.base, sentSN]
	// flowAsked: a HEARTBEAT asked for acknowledgments because half of
	// the window was used, and they have not moved it since.
	flowAsked bool
	epoch     time.Time // origin of the retransmission times
	hasEpoch  bool
	readers   []*readerProxy
	byGUID    map[wire.GUID]*readerProxy // the same readers, found in O(1)
	// dataDest is where a change goes to every remote reader; destStale:
	// a reader left and it must be rebuilt before the next use (dests).
	// Matching and unmatching stay O(1) in the number of readers, so a
	// flood of forged participants, each matched and then evicted by the
	// built-in writers, costs no O(n²).
	dataDest  []wire.Locator
	destStale bool
	hbDest    []wire.Locator // scratch of sendHeartbeats
	inlineQ   bool           // some reader expects inline QoS
	reliable  int            // reliable readers matched
	filters   int            // readers with a content filter
	locals    int            // same-process readers (local.go)
	verdicts  []bool
	ackedAll  wire.SequenceNumber
	hbCount   wire.Count
	hbfCount  wire.Count
	nextHB    time.Time
	lastHB    time.Time
	sinceHB   int
	mb        msgBuilder
	qos       []byte
	waitCh    chan struct{}
	reported  time.Time
	stats     WriterStats
	// holdUntil is when the changes the latency budget holds must go
	// (zero: none held); heldBytes is what they take in a datagram.
	holdUntil time.Time
	heldBytes int
	// pace is the large sample whose fragments go in steps (pace.go).
	pace fragPace
}

// NewWriter returns a writer that sends through out.
func NewWriter(cfg WriterConfig, out Sender) *Writer {
	cfg.setDefaults()
	w := &Writer{cfg: cfg, hist: NewWriterHistory(cfg.History, cfg.Release), byGUID: make(map[wire.GUID]*readerProxy)}
	w.mb.init(wire.Header{Version: cfg.Version, Vendor: cfg.Vendor, Prefix: cfg.GUID.Prefix}, cfg.MaxMessageSize, out)
	w.qos = make([]byte, 0, 64)
	if len(cfg.Restore) > 0 || cfg.RestoreLastSN > 0 {
		w.restore()
	}
	return w
}

// GUID returns the writer's GUID.
func (w *Writer) GUID() wire.GUID { return w.cfg.GUID }

// Stats returns a snapshot of the writer's counters.
func (w *Writer) Stats() WriterStats {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := w.stats
	s.Messages = uint64(w.mb.sent)
	return s
}

// LastSN returns the sequence number of the last change written.
func (w *Writer) LastSN() wire.SequenceNumber { return transport.Locked(&w.mu, &w.lastSN) }

// HistoryLen returns the number of changes the history holds.
func (w *Writer) HistoryLen() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.hist.Len()
}

// AddReader matches a remote reader. A reliable reader of a
// transient-local writer gets a HEARTBEAT announcing the history (and
// then repairs); a best-effort one gets the history sent at once. A reader
// of a volatile writer, and a volatile reader, only get changes written
// from now on.
func (w *Writer) AddReader(r ReaderProxyInfo, now time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.findReader(r.GUID) != nil {
		return
	}
	w.flushHeld(now) // what was written before goes to the readers of then
	w.expire(now)    // a late joiner gets no expired change
	// A reader matched while a sample is paced does not hold its steps back.
	p := &readerProxy{info: r, dest: destination(r.Unicast, r.Multicast), paceMark: w.pace.sent}
	p.info.Reliable = r.Reliable && w.cfg.Reliable
	if r.local != nil {
		// It answers through the same process, not by being heartbeaten.
		p.heard, p.info.NoIntro = true, true
	}
	if w.cfg.TransientLocal && !r.Volatile {
		p.firstRelevant = 1
	} else {
		p.firstRelevant = w.lastSN + 1
		p.acked = w.lastSN
		p.gapBelow = w.lastSN > 0
	}
	w.readers = append(w.readers, p)
	w.byGUID[r.GUID] = p
	w.addDest(p)
	if p.info.Filter != nil {
		w.filters++
	}
	if p.info.Reliable {
		w.reliable++
		w.updateAcked()
		p.hbDue = true
		if !p.info.NoIntro {
			p.introLeft = introHeartbeats
		}
		w.repair(p, now)
		w.armHeartbeat(now)
	} else if w.cfg.TransientLocal && !r.Volatile && w.hist.Len() > 0 {
		w.sendHistory(p)
	}
}

// RemoveReader unmatches a reader.
func (w *Writer) RemoveReader(g wire.GUID) {
	w.mu.Lock()
	defer w.mu.Unlock()
	p := w.byGUID[g]
	if p == nil {
		return
	}
	delete(w.byGUID, g)
	w.readers = slices.DeleteFunc(w.readers, func(q *readerProxy) bool { return q == p })
	if p.info.Reliable {
		w.reliable--
	}
	if p.info.Filter != nil {
		w.filters--
	}
	if p.info.local != nil {
		w.locals--
	} else {
		w.destStale = true
	}
	// RemoveReader takes no time: the last HEARTBEAT's stands for it
	// (it only times the HEARTBEATs). Without reliable readers the
	// changes waiting for the window go before the history drops them.
	if w.reliable == 0 {
		w.sendPending(w.lastHB)
	}
	w.updateAcked()
	w.sendPending(w.lastHB)
}

// MatchedReaders returns the number of matched readers.
func (w *Writer) MatchedReaders() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.readers)
}

// HeardFrom reports whether the matched reader g has sent an ACKNACK: it
// knows this writer.
func (w *Writer) HeardFrom(g wire.GUID) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	p := w.findReader(g)
	return p != nil && p.acks.seen
}

// Nudge sends the matched reliable reader g a directed HEARTBEAT now,
// unless it has sent an ACKNACK already: for a reader that dropped the one
// sent when it matched, because its participant did not know ours yet.
func (w *Writer) Nudge(g wire.GUID, now time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	p := w.findReader(g)
	if p == nil || !p.info.Reliable || p.acks.seen {
		return
	}
	p.hbDue = true
	w.repair(p, now)
}

func (w *Writer) findReader(g wire.GUID) *readerProxy { return w.byGUID[g] }

// addDest adds the matched reader p to the destinations of the changes.
func (w *Writer) addDest(p *readerProxy) {
	if p.info.local != nil {
		w.locals++ // not sent to: same-process delivery
		return
	}
	if !w.destStale {
		w.dataDest = appendLocators(w.dataDest, p.dest)
	}
	w.inlineQ = w.inlineQ || p.info.ExpectsInlineQoS
}

// dests returns where a change goes to every remote reader (dataDest),
// rebuilt first if a reader left since.
func (w *Writer) dests() []wire.Locator {
	if w.destStale {
		w.destStale = false
		w.dataDest = w.dataDest[:0]
		w.inlineQ = false
		for _, p := range w.readers {
			if p.info.local == nil {
				w.dataDest = appendLocators(w.dataDest, p.dest)
				w.inlineQ = w.inlineQ || p.info.ExpectsInlineQoS
			}
		}
	}
	return w.dataDest
}

// updateAcked recomputes the SN acknowledged by every reliable reader,
// lets the history drop or reclaim what is acknowledged, and wakes
// AckWait waiters when it moved.
func (w *Writer) updateAcked() {
	acked := w.lastSN
	if !w.holdUntil.IsZero() {
		acked = w.sentSN // the changes held are not sent yet
	}
	for _, p := range w.readers {
		if p.info.Reliable && !p.unresponsive && p.acked < acked {
			acked = p.acked
		}
	}
	// The window only moves forward: a transient-local late joiner that
	// acknowledges less than the others holds it until it catches up.
	if fa := min(acked, w.sentSN); fa > w.flow.base {
		w.flow.popTo(fa)
		w.flowAsked = false
	}
	if acked == w.ackedAll {
		return
	}
	w.ackedAll = acked
	w.hist.SetReclaim(acked, !w.cfg.TransientLocal)
	if w.waitCh != nil {
		close(w.waitCh)
		w.waitCh = nil
	}
}

// AckedByAll reports whether every reliable reader matched now has
// acknowledged the change sn (wait_for_acknowledgments).
func (w *Writer) AckedByAll(sn wire.SequenceNumber) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return sn <= w.ackedAll
}

// AckWait returns a channel that is closed the next time acknowledgments
// advance (or readers are removed): a blocked KEEP_ALL Write or
// wait_for_acknowledgments waits on it, with its own timeout, and checks
// again.
func (w *Writer) AckWait() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.waitCh == nil {
		w.waitCh = make(chan struct{})
	}
	return w.waitCh
}

// Full reports whether a Write for the instance with key hash k would fail
// with ErrHistoryFull now.
func (w *Writer) Full(k wire.KeyHash) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.hist.Full(k)
}

// Write assigns the next sequence number to c, stores it in the history
// and sends it to the matched readers. The history takes ownership of
// c.Payload (see WriterConfig.Release). It fails with ErrHistoryFull or
// ErrOutOfResources, keeping nothing, when the history has no room.
func (w *Writer) Write(c Change, now time.Time) (wire.SequenceNumber, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.cfg.Keyed {
		c.KeyHash = wire.KeyHash{}
	}
	c.SN = w.lastSN + 1
	if c.Coherent == CoherentFirst {
		c.Coherent = c.SN
	}
	w.expire(now)
	w.makeRoom(&c, now)
	if err := w.hist.Add(c); err != nil {
		return 0, err
	}
	w.lastSN = c.SN
	w.stats.Written++
	w.deliverLocal(&c, now)
	w.schedule(w.hist.NextExpiry())
	if !w.hold(&c, now) {
		w.sendPending(now)
		if w.sentSN < c.SN {
			w.stats.Deferred++
		}
	}
	// Without reliable readers nothing waits for acknowledgment.
	w.updateAcked()
	w.armHeartbeat(now)
	return c.SN, nil
}

// windowed reports whether the flow-control window applies: some reader
// is reliable and the window is not disabled.
func (w *Writer) windowed() bool { return w.reliable > 0 && w.cfg.MaxUnackedBytes > 0 }

// sendPending sends the changes written but not sent yet, in SN order, as
// many as the flow-control window allows (packed into datagrams of up to
// MaxMessageSize), GAPs for those the history no longer has, and a
// piggy-backed HEARTBEAT when one is due.
func (w *Writer) sendPending(now time.Time) {
	held := !w.holdUntil.IsZero()
	w.holdUntil, w.heldBytes = time.Time{}, 0
	w.sendNew(now)
	if held {
		w.updateAcked() // without reliable readers, what was held is done with
	}
}

// sendNew is sendPending without the latency budget's bookkeeping.
func (w *Writer) sendNew(now time.Time) {
	if !w.skipUnneeded() {
		return
	}
	track := w.windowed()
	if track && w.flow.n == 0 {
		w.flow.base = w.sentSN // what was sent untracked counts as acknowledged
	}
	first := w.sentSN + 1
	datagrams := w.mb.sent
	if w.lastSN-w.sentSN > 1 || w.pace.sn != 0 {
		w.mb.startBatch(w.dests(), wire.GuidPrefix{}, false)
	} else {
		w.mb.start(w.dests(), wire.GuidPrefix{}, false)
	}
	sent := w.appendPending(track, now)
	if w.reliable > 0 && first <= w.sentSN {
		w.piggybackHeartbeat(first, sent, track, now)
	}
	w.mb.flush()
	if track {
		w.flow.addLast((w.mb.sent - datagrams) * datagramOverhead)
	}
}

// skipUnneeded marks as sent the pending changes no reader needs and
// reports whether any are left to send.
func (w *Writer) skipUnneeded() bool {
	if w.sentSN >= w.lastSN {
		return false
	}
	if len(w.dests()) == 0 {
		w.skipTo(w.lastSN) // nobody to send to
		return false
	}
	if w.reliable > 0 && w.ackedAll > w.sentSN {
		// Every reliable reader matched after these were written: they
		// are not relevant to any of them.
		w.skipTo(min(w.ackedAll, w.lastSN))
	}
	return w.sentSN < w.lastSN
}

// appendPending adds the pending changes to the message in progress, as
// many as the flow-control window allows when track is set, and GAPs for
// those no longer in the history. It returns how many changes it added.
func (w *Writer) appendPending(track bool, now time.Time) (sent int) {
	var gaps gapRun
	for w.sentSN < w.lastSN && (!track || w.windowOpen() || w.pace.sn == w.sentSN+1) {
		sn := w.sentSN + 1
		if oldest := w.hist.MinSN(); oldest == 0 || oldest > sn {
			w.pace = fragPace{} // a sample paced is gone with the others
			// The history replaced all of them (a KEEP_LAST writer far ahead of
			// its readers): one GAP, and no room taken in the window.
			end := w.lastSN
			if oldest != 0 {
				end = oldest - 1
			}
			gaps.addRun(w, wire.EntityIDUnknown, sn, end)
			w.sentSN = end
			if track {
				w.flow.pushGap(end)
			}
			continue
		}
		cost := 0
		if c, ok := w.hist.Get(sn); ok {
			gaps.flush(w, wire.EntityIDUnknown)
			switch {
			case w.pace.sn == sn || w.paces(c):
				if !w.appendPaced(c, now) {
					return sent // the rest of its fragments go in later steps
				}
			case !w.appendFiltered(c):
				w.appendChange(c, wire.EntityIDUnknown, false, 0, 0)
			}
			cost = flowCost(c)
			sent++
		} else {
			w.pace = fragPace{}                   // replaced (KEEP_LAST) while it was paced
			gaps.add(w, wire.EntityIDUnknown, sn) // replaced (KEEP_LAST) before it could be sent
		}
		w.sentSN = sn
		if track {
			if cost > 0 {
				w.flow.push(sn, cost)
			} else {
				w.flow.pushGap(sn)
			}
		}
	}
	gaps.flush(w, wire.EntityIDUnknown)
	return sent
}

// piggybackHeartbeat adds a HEARTBEAT after the changes from first on, sent
// of them new, when one is due: enough changes since the last, a quarter of
// the period gone, the first changes every reader needs, or half of the
// flow-control window (tracked when track is set) used.
func (w *Writer) piggybackHeartbeat(first wire.SequenceNumber, sent int, track bool, now time.Time) {
	w.sinceHB += sent
	// Once half of the window is used, ask for acknowledgments (once
	// until they move it), so that it opens again before it fills.
	half := track && !w.flowAsked && w.halfUsed()
	if w.sinceHB < w.cfg.PiggybackEvery && now.Sub(w.lastHB) < w.cfg.HeartbeatPeriod/4 &&
		w.ackedAll != first-1 && !half {
		return
	}
	// Like Cyclone DDS, a HEARTBEAT that only announces new data is
	// final: readers with nothing missing stay quiet, so a sample
	// costs one datagram, not two. It asks for ACKNACKs once enough
	// is unacknowledged to matter (and the periodic HEARTBEAT always
	// does), so a KEEP_ALL history frees space and the flow-control
	// window opens before they fill. A windowed writer asks once until
	// acknowledgments move the window: asking with every piggy-backed
	// HEARTBEAT made a saturated writer and its reader exchange one
	// ACKNACK per datagram of data.
	ask := w.needAcks()
	if track {
		ask = ask && !w.flowAsked
		w.flowAsked = w.flowAsked || ask
	}
	w.appendHeartbeatFinal(wire.EntityIDUnknown, w.hbFirst(1), w.hbLast(nil), now, !ask)
}

// gapRun gathers consecutive sequence numbers a reader is to be told are
// not available into one GAP [start, end).
type gapRun struct{ start, end wire.SequenceNumber }

// add adds sn to the run, first sending the run before it if sn does not
// follow it.
func (g *gapRun) add(w *Writer, reader wire.EntityID, sn wire.SequenceNumber) {
	if g.end != sn {
		g.flush(w, reader)
		g.start = sn
	}
	g.end = sn + 1
}

// addRun adds the sequence numbers [start, last] to the run.
func (g *gapRun) addRun(w *Writer, reader wire.EntityID, start, last wire.SequenceNumber) {
	g.add(w, reader, start)
	g.end = last + 1
}

// flush adds the GAP of the run, if any, to the message in progress.
func (g *gapRun) flush(w *Writer, reader wire.EntityID) {
	if g.end != 0 {
		w.appendGap(reader, g.start, g.end)
		g.end = 0
	}
}

// windowOpen reports whether the flow-control window has room.
func (w *Writer) windowOpen() bool {
	return w.flow.total < w.cfg.MaxUnackedBytes && w.flow.changes < w.cfg.MaxUnackedChanges
}

// halfUsed reports whether half of the flow-control window is used.
func (w *Writer) halfUsed() bool {
	return 2*w.flow.total >= w.cfg.MaxUnackedBytes || 2*w.flow.changes >= w.cfg.MaxUnackedChanges
}

// skipTo marks the changes up to sn as sent without sending them.
func (w *Writer) skipTo(sn wire.SequenceNumber) {
	if sn <= w.sentSN {
		return
	}
	w.flow.popTo(w.sentSN)
	w.sentSN = sn
	w.flow.popTo(sn)
	if w.pace.sn <= sn {
		w.pace = fragPace{} // no reader needs the sample paced any more
	}
}

// armHeartbeat starts the HEARTBEAT timer when a reliable reader has
// unacknowledged changes.
func (w *Writer) armHeartbeat(now time.Time) {
	if w.reliable > 0 && (w.ackedAll < w.lastSN || w.unheard()) && w.nextHB.IsZero() {
		w.nextHB = now.Add(w.cfg.HeartbeatPeriod)
		w.schedule(w.nextHB)
	}
}

// maxUnheardHBs bounds the periodic HEARTBEATs a reader that has sent
// nothing gets: none after 10 s at the default period, time for a slow
// discovery under loss to complete on the reader's side; unheardSteady of
// them go every period (1 s), the others ever more rarely (unheardDue).
const (
	maxUnheardHBs = 100
	unheardSteady = 10
)

// unheard reports whether a reliable reader has sent nothing yet and is
// still heartbeaten for that.
func (w *Writer) unheard() bool {
	for _, p := range w.readers {
		if p.waitsForHB() {
			return true
		}
	}
	return false
}

// waitsForHB reports whether p has sent nothing yet and has had fewer than
// maxUnheardHBs periodic HEARTBEATs for that.
func (p *readerProxy) waitsForHB() bool {
	return p.info.Reliable && !p.heard && p.unheardHBs < maxUnheardHBs
}

// hbFirst returns the firstSN of a HEARTBEAT for a reader whose first
// relevant change is rel.
func (w *Writer) hbFirst(rel wire.SequenceNumber) wire.SequenceNumber {
	first := w.hist.MinSN()
	if first == 0 || first > w.sentSN {
		first = w.sentSN + 1
	}
	return max(first, min(rel, w.sentSN+1))
}

// needAcks reports whether the writer should ask its readers for
// acknowledgments now: half of the flow-control window used or, without a
// window, more than PiggybackEvery changes sent and unacknowledged or changes
// waiting; or a bounded KEEP_ALL history half full.
func (w *Writer) needAcks() bool {
	if w.windowed() {
		// The window bounds what is unacknowledged: acknowledgments matter
		// once half of it is used.
		if w.halfUsed() {
			return true
		}
	} else if int(w.sentSN-w.ackedAll) > w.cfg.PiggybackEvery || w.sentSN < w.lastSN {
		return true
	}
	h := w.cfg.History
	return h.KeepAll && h.MaxSamples > 0 && 2*int(w.lastSN-w.ackedAll) >= h.MaxSamples
}

// RequestAcks sends a HEARTBEAT that asks the readers that have not acknowledged
// everything for an ACKNACK now, rather than at the next periodic HEARTBEAT: for a
// writer about to block on a full history, or one waiting for acknowledgments.
func (w *Writer) RequestAcks(now time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.flushHeld(now)
	if w.reliable > 0 && w.ackedAll < w.lastSN {
		w.sendHeartbeats(now)
	}
}

// AssertLiveliness sends every matched reader a HEARTBEAT with the Liveliness flag
// (and Final: it asks for no answer), as a MANUAL_BY_TOPIC writer's
// assert_liveliness does (RTPS 2.5 §8.4.13; Cyclone DDS's write_hb_liveliness does
// the same for any writer).
func (w *Writer) AssertLiveliness(now time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.readers) == 0 {
		return
	}
	w.flushHeld(now)
	w.assertLocal()
	if len(w.dests()) == 0 {
		return // only same-process readers
	}
	w.mb.start(w.dests(), wire.GuidPrefix{}, false)
	w.appendHeartbeatFlags(wire.EntityIDUnknown, w.hbFirst(1), w.hbLast(nil), now, true, true)
	w.mb.flush()
}

// hbLast returns the lastSN of a HEARTBEAT to p, or to every reader when p is nil.
//
// A volatile reader that has not spoken yet may not have matched this writer when the
// changes it was sent went out, and one that first hears of the writer through a
// HEARTBEAT takes every change it announces as written before it joined (Cyclone DDS
// starts a volatile reader after the first HEARTBEAT's lastSN, ddsi_receive.c): the
// changes it missed while it did not know the writer would never be asked for, although
// the writer matched it before writing them. So until such a reader speaks, the
// HEARTBEATs that reach it announce only the changes written before it matched (its
// firstRelevant - 1): it starts there and asks for the rest. The readers that have
// spoken lose nothing: they learn of later changes from the changes themselves and from
// the HEARTBEATs after that reader speaks (at most maxUnheardHBs periods for one that
// never does).
func (w *Writer) hbLast(p *readerProxy) wire.SequenceNumber {
	last := w.sentSN
	limit := func(q *readerProxy) {
		if q.firstRelevant > 1 && q.waitsForHB() {
			last = min(last, q.firstRelevant-1)
		}
	}
	if p != nil {
		limit(p)
		return last
	}
	for _, q := range w.readers {
		limit(q)
	}
	return last
}

// appendHeartbeat adds a HEARTBEAT that asks for an answer, to p (nil: to every reader).
func (w *Writer) appendHeartbeat(p *readerProxy, first wire.SequenceNumber, now time.Time) {
	reader := wire.EntityIDUnknown
	if p != nil {
		reader = p.info.GUID.Entity
	}
	w.appendHeartbeatFinal(reader, first, w.hbLast(p), now, false)
}

func (w *Writer) appendHeartbeatFinal(reader wire.EntityID, first, last wire.SequenceNumber, now time.Time, final bool) {
	w.appendHeartbeatFlags(reader, first, last, now, final, false)
}

func (w *Writer) appendHeartbeatFlags(reader wire.EntityID, first, last wire.SequenceNumber, now time.Time, final, liveliness bool) {
	w.hbCount++
	hb := wire.Heartbeat{
		Final:      final,
		Liveliness: liveliness,
		ReaderID:   reader,
		WriterID:   w.cfg.GUID.Entity,
		FirstSN:    min(first, last+1), // first = last + 1: nothing is announced
		LastSN:     last,
		Count:      w.hbCount,
	}
	w.mb.reserve(hb.Len())
	w.mb.buf = hb.Append(w.mb.buf)
	w.stats.HeartbeatsSent++
	w.lastHB = now
	w.sinceHB = 0
}

// inlineQoS builds the inline QoS of a change into w.qos.
func (w *Writer) inlineQoS(c *Change) []byte {
	w.dests() // inlineQ is up to date
	keyHash := w.cfg.Keyed && (c.Kind != Alive || w.cfg.InlineKeyHash || w.inlineQ)
	related := c.Related.WriterGUID != (wire.GUID{})
	if !keyHash && c.Kind == Alive && !related && c.Coherent == 0 && c.Group == (GroupInfo{}) {
		return nil
	}
	pw := wire.NewParamWriter(w.qos[:0], false)
	if keyHash {
		pw.PutKeyHash(c.KeyHash)
	}
	if c.Kind != Alive {
		pw.PutStatusInfo(c.Kind.statusInfo())
	}
	if related {
		var id [24]byte
		c.Related.Append(id[:0], false)
		pw.PutRaw(wire.PIDRelatedSampleIdentity, id[:])
		pw.PutRaw(wire.PIDFastDDSCustomRelatedSampleIdentity, id[:])
	}
	if c.Coherent != 0 {
		pw.PutSequenceNumber(wire.PIDCoherentSet, c.Coherent)
	}
	if c.Group.Coherent != 0 {
		pw.PutSequenceNumber(wire.PIDGroupCoherentSet, c.Group.Coherent)
	}
	if c.Group.SN != 0 {
		pw.PutSequenceNumber(wire.PIDGroupSeqNum, c.Group.SN)
	}
	if c.Group.HasWriterSet {
		var set [4]byte
		binary.BigEndian.PutUint32(set[:], c.Group.WriterSet) // a GroupDigest_t: 4 octets
		pw.PutRaw(wire.PIDWriterGroupInfo, set[:])
	}
	b, _ := pw.Finish()
	w.qos = b
	return b
}

// fragments returns the number of fragments of a payload of n octets, or
// 0 when it goes in one DATA.
func (w *Writer) fragments(n int) int {
	if n <= w.cfg.FragmentThreshold {
		return 0
	}
	return (n + w.cfg.FragmentSize - 1) / w.cfg.FragmentSize
}

// appendChange adds c to the message in progress: one DATA, or the
// DATA_FRAGs of fragments [from, to] (all of them when to is 0). It
// returns the number of payload octets added.
func (w *Writer) appendChange(c *Change, reader wire.EntityID, resend bool, from, to int) int {
	nf := w.fragments(len(c.Payload))
	if nf == 0 {
		d := wire.Data{
			ReaderID:          reader,
			WriterID:          w.cfg.GUID.Entity,
			WriterSN:          c.SN,
			InlineQoS:         w.inlineQoS(c),
			SerializedPayload: c.Payload,
		}
		if len(c.Payload) > 0 {
			d.DataFlag = c.Kind == Alive
			d.KeyFlag = c.Kind != Alive
		}
		w.mb.timestamp(c.Timestamp, d.Len())
		w.mb.buf = d.Append(w.mb.buf)
		if resend {
			w.stats.Retransmits++
		} else {
			w.stats.DataSent++
		}
		return len(c.Payload)
	}
	if to == 0 {
		from, to = 1, nf
	}
	to = min(to, nf)
	fs := w.cfg.FragmentSize
	// Fixed part of a DATA_FRAG with the largest inline QoS, padding and
	// the INFO_TS that may precede it.
	const overhead = 4 + 32 + 32 + 4 + infoTSLen
	n := 0
	for f := from; f <= to; {
		room := w.mb.room() - overhead
		per := room / fs
		if per < 1 {
			// Not even one fragment fits in what is left: next datagram.
			w.mb.reserve(w.cfg.MaxMessageSize)
			per = max(1, (w.mb.room()-overhead)/fs)
		}
		cnt := min(per, to-f+1)
		lo := (f - 1) * fs
		hi := min((f-1+cnt)*fs, len(c.Payload))
		d := wire.DataFrag{
			KeyFlag:               c.Kind != Alive,
			ReaderID:              reader,
			WriterID:              w.cfg.GUID.Entity,
			WriterSN:              c.SN,
			FragmentStartingNum:   wire.FragmentNumber(f),
			FragmentsInSubmessage: uint16(cnt),
			FragmentSize:          uint16(fs),
			SampleSize:            uint32(len(c.Payload)),
			Fragments:             c.Payload[lo:hi],
		}
		if f == 1 {
			d.InlineQoS = w.inlineQoS(c)
		}
		w.mb.timestamp(c.Timestamp, d.Len())
		w.mb.buf = d.Append(w.mb.buf)
		if resend {
			w.stats.Retransmits++
		} else {
			w.stats.DataFragSent++
		}
		n += hi - lo
		f += cnt
	}
	if w.reliable > 0 {
		w.hbfCount++
		hf := wire.HeartbeatFrag{
			ReaderID:        reader,
			WriterID:        w.cfg.GUID.Entity,
			WriterSN:        c.SN,
			LastFragmentNum: wire.FragmentNumber(to),
			Count:           w.hbfCount,
		}
		w.mb.reserve(hf.Len())
		w.mb.buf = hf.Append(w.mb.buf)
		w.stats.HeartbeatFragSent++
	}
	return n
}

// sendHistory sends the whole history to a best-effort late joiner.
func (w *Writer) sendHistory(p *readerProxy) {
	w.mb.startBatch(p.dest, p.info.GUID.Prefix, true)
	w.hist.All(1, w.sentSN, func(c *Change) bool {
		if w.passes(p, c) {
			w.appendChange(c, p.info.GUID.Entity, true, 0, 0)
		}
		return true
	})
	w.mb.flush()
}

// appendGap adds a GAP for [start, end) to the message in progress.
func (w *Writer) appendGap(reader wire.EntityID, start, end wire.SequenceNumber) {
	g := wire.Gap{
		ReaderID: reader,
		WriterID: w.cfg.GUID.Entity,
		GapStart: start,
		GapList:  wire.SequenceNumberSet{Base: end},
	}
	w.mb.reserve(g.Len())
	w.mb.buf = g.Append(w.mb.buf)
	w.stats.GapsSent++
}

// requester returns the proxy of the reliable reader (src, reader) that
// sent an ACKNACK, or a NACK_FRAG when nackFrag is set, with count c; nil,
// counted, when the reader is unknown or the request not newer than the
// last of its kind.
func (w *Writer) requester(src wire.GuidPrefix, reader wire.EntityID, c wire.Count, nackFrag bool) *readerProxy {
	p := w.findReader(wire.GUID{Prefix: src, Entity: reader})
	if p == nil || !p.info.Reliable {
		w.stats.UnknownReader++
		return nil
	}
	p.heard = true
	counts := &p.acks
	if nackFrag {
		counts = &p.nackFrags
	}
	if !counts.newer(c) {
		w.stats.Duplicates++
		return nil
	}
	return p
}

// HandleAckNack processes an ACKNACK from the participant src. It reports
// whether the ACKNACK came from a matched reader and was not stale.
func (w *Writer) HandleAckNack(src wire.GuidPrefix, a *wire.AckNack, now time.Time) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	p := w.requester(src, a.ReaderID, a.Count, false)
	if p == nil {
		return false
	}
	w.stats.AckNacks++
	w.heard(p)
	w.paceAnswer(p) // for a step sent before, not for one this ACKNACK releases
	base := a.ReaderSNState.Base
	if acked := min(base-1, w.sentSN); acked > p.acked {
		p.acked = acked
		w.updateAcked()
		if w.holdUntil.IsZero() { // changes held wait for their budget
			w.sendPending(now)
		}
	}
	if base < p.firstRelevant && p.firstRelevant > 1 {
		p.gapBelow = true
	}
	if a.ReaderSNState.NumBits > 0 && base <= w.sentSN {
		p.req, p.hasReq = a.ReaderSNState, true
	}
	if !a.Final {
		p.hbDue = true
	}
	w.requestRepair(p, now)
	w.paceDue(now)
	return true
}

// HandleNackFrag processes a NACK_FRAG from the participant src. It
// reports whether the NACK_FRAG came from a matched reader and was not
// stale.
func (w *Writer) HandleNackFrag(src wire.GuidPrefix, n *wire.NackFrag, now time.Time) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	p := w.requester(src, n.ReaderID, n.Count, true)
	if p == nil {
		return false
	}
	w.stats.NackFrags++
	w.heard(p)
	if n.WriterSN <= p.acked || (n.WriterSN > w.sentSN && n.WriterSN != w.pace.sn) || n.FragmentNumberState.NumBits == 0 {
		return true
	}
	if p.nFragReqs == maxFragRequests {
		w.stats.FragRequestsLost++
		return true
	}
	p.fragReqs[p.nFragReqs] = fragRequest{sn: n.WriterSN, set: n.FragmentNumberState}
	p.nFragReqs++
	w.requestRepair(p, now)
	return true
}

// requestRepair answers p now or after the NACK response delay.
func (w *Writer) requestRepair(p *readerProxy, now time.Time) {
	if !p.hasReq && !p.gapBelow && !p.hbDue && p.nFragReqs == 0 {
		return
	}
	if w.cfg.NackResponseDelay <= 0 {
		w.repair(p, now)
		return
	}
	if at := now.Add(w.cfg.NackResponseDelay); p.repairAt.IsZero() || at.Before(p.repairAt) {
		p.repairAt = at // not later for an introductory HEARTBEAT due
		w.schedule(p.repairAt)
	}
}

// repair sends p what it asked for: the requested changes (GAPs for those
// not available), the requested fragments, and a HEARTBEAT.
func (w *Writer) repair(p *readerProxy, now time.Time) {
	intro := p.introDue && !p.heard && !p.acks.seen // an introductory HEARTBEAT is due
	p.repairAt, p.introDue = time.Time{}, false
	w.expire(now) // expired changes are not repaired: GAPs stand for them
	reader := p.info.GUID.Entity
	sent := w.stats.Retransmits + w.stats.GapsSent
	w.mb.startBatch(p.dest, p.info.GUID.Prefix, true)
	if p.gapBelow {
		p.gapBelow = false
		w.appendGap(reader, 1, p.firstRelevant)
	}
	if p.hasReq {
		p.hasReq = false
		w.repairChanges(p, now)
	}
	w.repairFragments(p, now)
	// A HEARTBEAT follows what was resent, or answers a reader that asked for one. When
	// NackSuppression held back everything, none: each would make the reader ask again
	// at once for what is still on its way, and its ACKNACKs, each answered by another
	// HEARTBEAT, would feed a storm of requests while the repairs travel.
	if p.info.Reliable && (p.hbDue || intro || w.stats.Retransmits+w.stats.GapsSent != sent) {
		p.hbDue = false
		w.appendHeartbeat(p, w.hbFirst(p.firstRelevant), now)
	}
	w.mb.flush()
	w.scheduleIntro(p, now)
}

// A reader matched may not know this writer yet (its side of the match
// comes later) and drop the HEARTBEAT sent when it matched; Fast DDS then
// waits initialAcknackDelay (70 ms) before it asks on its own, and a
// transient-local history waits with it. So a new reliable reader gets
// directed HEARTBEATs again, introGap after the first and then doubling
// the gap (+10, +30, +70 ms), until it ACKNACKs, introHeartbeats at most.
const (
	introHeartbeats = 3
	introGap        = 10 * time.Millisecond
)

// scheduleIntro schedules p's next introductory HEARTBEAT, if p is owed
// one.
func (w *Writer) scheduleIntro(p *readerProxy, now time.Time) {
	if p.introLeft <= 0 || p.acks.seen || p.heard || !p.repairAt.IsZero() {
		return
	}
	p.repairAt = now.Add(introGap << (introHeartbeats - p.introLeft))
	p.introLeft--
	p.introDue = true
	w.schedule(p.repairAt)
}

// repairDue sends p the repair or the introductory HEARTBEAT due now; the
// latter no more once p has answered.
func (w *Writer) repairDue(p *readerProxy, now time.Time) {
	if p.introDue && (p.acks.seen || p.heard) && !p.hasReq && !p.gapBelow && !p.hbDue && p.nFragReqs == 0 {
		p.repairAt, p.introDue = time.Time{}, false
		return
	}
	w.repair(p, now)
}

// repairChanges adds the changes p requested to the message in progress,
// up to MaxRepairBytes, and GAPs for those not available or not relevant
// to p. With NackSuppression it skips those resent too recently.
func (w *Writer) repairChanges(p *readerProxy, now time.Time) {
	reader := p.info.GUID.Entity
	budget := w.cfg.MaxRepairBytes
	at := w.since(now)
	var gaps gapRun
	for sn := range p.req.All {
		if sn > w.sentSN || budget <= 0 {
			break
		}
		if sn <= p.acked && sn >= p.firstRelevant {
			continue
		}
		c, ok := w.hist.Get(sn)
		if !ok || sn < p.firstRelevant || !w.passes(p, c) {
			gaps.add(w, reader, sn)
			continue
		}
		if w.cfg.NackSuppression > 0 {
			if p.rexmit.recent(sn, at, w.cfg.NackSuppression) {
				w.stats.NacksSuppressed++
				continue
			}
			p.rexmit.mark(sn, at)
		}
		budget -= w.appendChange(c, reader, true, 0, 0)
	}
	gaps.flush(w, reader)
}

// repairFragments adds the fragments p requested to the message in
// progress (the whole change when it is not fragmented any more, a GAP when
// it is gone) and forgets the requests. With NackSuppression it skips the
// fragments resent too recently, as repairChanges does for changes: a
// reader asks again for every fragment still missing at each HEARTBEAT it
// gets, repairs on their way included.
func (w *Writer) repairFragments(p *readerProxy, now time.Time) {
	reader := p.info.GUID.Entity
	for i := range p.nFragReqs {
		r := &p.fragReqs[i]
		c, ok := w.hist.Get(r.sn)
		if !ok {
			if r.sn >= p.firstRelevant && r.sn > p.acked {
				w.appendGap(reader, r.sn, r.sn+1)
			}
			continue
		}
		nf := w.fragments(len(c.Payload))
		if nf == 0 {
			w.appendChange(c, reader, true, 0, 0)
			continue
		}
		if r.sn == w.pace.sn {
			nf = w.pace.sent // the others go in the next steps
		}
		w.appendFragRuns(p, c, r.set, nf, w.since(now))
	}
	p.nFragReqs = 0
}

// appendFragRuns resends the fragments of set, of the nf of c, in runs of
// consecutive fragment numbers, but not those resent to p less than
// NackSuppression before at.
func (w *Writer) appendFragRuns(p *readerProxy, c *Change, set wire.FragmentNumberSet, nf int, at time.Duration) {
	reader := p.info.GUID.Entity
	runStart, runEnd := 0, 0
	for f := range set.All {
		fi := int(f)
		if fi > nf {
			break
		}
		if w.fragSuppressed(p, c.SN, f, at) {
			continue
		}
		if runEnd != 0 && fi == runEnd+1 {
			runEnd = fi
			continue
		}
		if runEnd != 0 {
			w.appendFragRun(c, reader, runStart, runEnd)
		}
		runStart, runEnd = fi, fi
	}
	if runEnd != 0 {
		w.appendFragRun(c, reader, runStart, runEnd)
	}
}

// fragSuppressed reports whether fragment f of sn was resent to p less than
// NackSuppression before at, and if not records that it is resent now.
func (w *Writer) fragSuppressed(p *readerProxy, sn wire.SequenceNumber, f wire.FragmentNumber, at time.Duration) bool {
	key, ok := fragKey(sn, f)
	if w.cfg.NackSuppression <= 0 || !ok {
		return false
	}
	if p.fragRexmit.recent(key, at, w.cfg.NackSuppression) {
		w.stats.NacksSuppressed++
		return true
	}
	p.fragRexmit.mark(key, at)
	return false
}

// since returns now as a duration since the writer's epoch, the time of
// its first retransmission.
func (w *Writer) since(now time.Time) time.Duration {
	if !w.hasEpoch {
		w.epoch, w.hasEpoch = now, true
	}
	return now.Sub(w.epoch)
}

// appendFragRun resends fragments [from, to] of c without the
// HEARTBEAT_FRAG appendChange adds.
func (w *Writer) appendFragRun(c *Change, reader wire.EntityID, from, to int) {
	rel := w.reliable
	w.reliable = 0 // no HEARTBEAT_FRAG after each run
	w.appendChange(c, reader, true, from, to)
	w.reliable = rel
}

// Tick sends what is due at now: delayed repairs and the periodic
// HEARTBEAT while a reliable reader has unacknowledged changes. It returns
// the next deadline (zero: none).
func (w *Writer) Tick(now time.Time) time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.expire(now)
	w.sendPending(now)
	if d := w.paceDeadline(); !d.IsZero() && !now.Before(d) {
		w.paceDue(now)
	}
	next := w.paceDeadline()
	for _, p := range w.readers {
		if !p.repairAt.IsZero() && !now.Before(p.repairAt) {
			w.repairDue(p, now)
		}
		next = deadlineMin(next, p.repairAt)
	}
	if w.reliable > 0 && (w.ackedAll < w.lastSN || w.unheard()) {
		if w.nextHB.IsZero() {
			w.nextHB = now.Add(w.cfg.HeartbeatPeriod)
		} else if !now.Before(w.nextHB) {
			w.sendHeartbeats(now)
			w.nextHB = now.Add(w.cfg.HeartbeatPeriod)
			w.countSilence(now)
		}
	} else {
		w.nextHB = time.Time{}
	}
	next = deadlineMin(next, w.nextHB)
	next = deadlineMin(next, w.hist.NextExpiry())
	w.reported = next
	return next
}

// sendHeartbeats sends the periodic HEARTBEAT: one to the destinations of
// the readers it is for, with readerId UNKNOWN, when it is for several,
// directed otherwise. It is for every reliable reader that lags, and for
// one that has never spoken (see heard) at the pace of unheardDue.
func (w *Writer) sendHeartbeats(now time.Time) {
	var lag *readerProxy
	n := 0
	w.hbDest = w.hbDest[:0]
	for _, p := range w.readers {
		switch {
		case p.info.Reliable && p.acked < w.sentSN && p.info.local != nil:
			// A same-process reader that lags catches up by the wire, directed.
			w.mb.start(p.dest, p.info.GUID.Prefix, true)
			w.appendHeartbeat(p, w.hbFirst(p.firstRelevant), now)
			w.mb.flush()
			continue
		case !p.info.Reliable:
			continue
		case !p.heard:
			p.unheardHBs++
			if !unheardDue(p.unheardHBs) {
				continue
			}
		case p.acked >= w.sentSN:
			continue
		}
		lag = p
		n++
		w.hbDest = appendLocators(w.hbDest, p.dest)
	}
	switch n {
	case 0:
		return
	case 1:
		w.mb.start(lag.dest, lag.info.GUID.Prefix, true)
		w.appendHeartbeat(lag, w.hbFirst(lag.firstRelevant), now)
	default:
		w.mb.start(w.hbDest, wire.GuidPrefix{}, false)
		w.appendHeartbeat(nil, w.hbFirst(1), now)
	}
	w.mb.flush()
}

// unheardDue reports whether the k-th periodic HEARTBEAT since a reader
// matched goes to it while it has never spoken: each of the first
// unheardSteady, then the 16th, 32nd and 64th, none after maxUnheardHBs.
// A real reader speaks on its own once it knows the writer (a pre-emptive
// ACKNACK: Cyclone DDS, Fast DDS and ddsgo send one), so the slower pace
// costs it nothing; a forged one, whose locator may be anyone's, costs 13
// HEARTBEATs in all, not one every period for as long as it is matched.
func unheardDue(k int) bool {
	return k <= unheardSteady || (k <= maxUnheardHBs && k&(k-1) == 0)
}

// Deadline returns the writer's earliest deadline (zero: none).
func (w *Writer) Deadline() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	next := deadlineMin(w.nextHB, w.hist.NextExpiry())
	next = deadlineMin(next, w.holdUntil)
	next = deadlineMin(next, w.paceDeadline())
	for _, p := range w.readers {
		next = deadlineMin(next, p.repairAt)
	}
	return next
}

// SetLifespan changes the LIFESPAN of the changes written from now on (0:
// they never expire); those held keep theirs, as with Cyclone DDS, which
// computes the expiry when a change is written.
func (w *Writer) SetLifespan(d time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.hist.cfg.Lifespan = d
}

// expire drops the changes whose LIFESPAN has passed at now (RTPS: they are
// no longer in the history; readers that ask for them get GAPs, a late
// joiner never hears of them). A writer blocked on a full history is woken.
func (w *Writer) expire(now time.Time) {
	if exp := w.hist.NextExpiry(); !w.holdUntil.IsZero() && !exp.IsZero() && !now.Before(exp) {
		// A change the latency budget holds is sent once even when its
		// lifespan ran out meanwhile, as one written already expired is.
		w.sendPending(now)
	}
	n := w.hist.Expire(now)
	if n == 0 {
		return
	}
	w.stats.Expired += uint64(n)
	if w.waitCh != nil {
		close(w.waitCh)
		w.waitCh = nil
	}
}

// schedule reports a deadline earlier than the last one reported.
func (w *Writer) schedule(t time.Time) {
	reportEarlier(w.cfg.Schedule, &w.reported, t)
}
