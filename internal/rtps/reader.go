package rtps

import (
	"encoding/binary"
	"sync"
	"time"
	"unsafe"

	"github.com/ddsgo/ddsgo/internal/transport"
	"github.com/ddsgo/ddsgo/internal/wire"
)

// ReaderConfig configures a Reader. Zero values select the documented
// defaults.
type ReaderConfig struct {
	// GUID of the reader.
	GUID wire.GUID
	// Version and Vendor go in the header of every message; zero values
	// mean wire.ProtocolVersion25 and wire.VendorDDSGo.
	Version wire.ProtocolVersion
	Vendor  wire.VendorID
	// Reliable makes the reader deliver the changes of reliable writers in
	// order and exactly once, asking for what is missing.
	Reliable bool
	// HeartbeatResponseDelay delays the ACKNACK that answers a HEARTBEAT;
	// 0 answers at once.
	HeartbeatResponseDelay time.Duration
	// ReaskDelay is how long a reader waits, after an ACKNACK that asked a
	// writer for something, before it asks again on its own when what it
	// asked for has not all come; each such ask doubles the wait, up to
	// maxReaskDelay, and progress resets it; at most maxReasks in a row while
	// the writer sends nothing. Without it, a lost repair waits for the
	// writer's next HEARTBEAT: 3 s with Fast DDS's default period. 0 means
	// DefaultReaskDelay; negative, never on its own.
	ReaskDelay time.Duration
	// NackInterval is the least time between two ACKNACKs to one writer
	// that ask for something (changes or fragments): the answers to the
	// HEARTBEATs that come in between are merged into one at its end. A
	// writer that piggy-backs a HEARTBEAT on every datagram (Cyclone DDS)
	// or on each repair would otherwise draw one request per datagram,
	// each asking again for everything on its way. 0 means
	// DefaultNackInterval; negative, none.
	NackInterval time.Duration
	// MaxSampleSize bounds the size of a sample reassembled from DATA_FRAGs;
	// 0 means DefaultMaxSampleSize. Larger samples are dropped and counted.
	MaxSampleSize int
	// MaxReassemblyBytes bounds the memory of the reassemblies in progress
	// per writer; 0 means twice MaxSampleSize.
	MaxReassemblyBytes int
	// MaxReassemblies bounds the number of samples reassembled at once per
	// writer; 0 means 64. Under loss every sample missing a fragment holds
	// one until the repair comes, a round trip later: with 8, a window of
	// 4 KiB samples in 1472-byte datagrams at 10 % loss had most arriving
	// fragments dropped for want of room, and resent.
	MaxReassemblies int
	// Window is the number of sequence numbers past the next expected one
	// that a reliable reader buffers per writer (out-of-order changes
	// further ahead are dropped, and asked for again later); 0 means
	// DefaultWindow. The buffer starts small and doubles as far as the
	// changes that arrive ahead of a missing one need, up to Window.
	Window int
	// MaxBufferedBytes bounds the payload buffered out of order per writer;
	// 0 means 32 MiB.
	MaxBufferedBytes int
	// MaxHeldBytes bounds what the reader holds out of order and in
	// reassemblies over all its writers together, so that many writers
	// (forged ones matched by SEDP, say) cannot each take the per-writer
	// bounds; 0 means MaxReassemblyBytes + MaxBufferedBytes, what one
	// writer may take. When a reassembly does not fit, the writer holding
	// the most in reassemblies gives up its last one.
	MaxHeldBytes int
	// ReportLost makes a reliable reader pass the losses a GAP or a
	// HEARTBEAT tells it of at once, in a Sample with LostOnly set, when no
	// change delivered right after carries them.
	ReportLost bool
	// ContentFiltered says the reader announced a content filter: a GAP
	// may then stand for changes a writer's filter rejected for it
	// (irrelevant, DDS-RTPS 2.5 §8.7.3), so GAPs count nothing lost.
	ContentFiltered bool
	// Schedule, if not nil, is called (with the reader's lock held) when
	// the reader's earliest deadline becomes earlier than the one it last
	// reported; the event loop must then call Tick at that time. It must
	// not block nor call back into the reader.
	Schedule func(deadline time.Time)
	// OnLiveliness, if not nil, is called (with the reader's lock held)
	// for each HEARTBEAT of a matched writer with the Liveliness flag set:
	// the writer asserts its liveliness (RTPS 2.5 §8.3.7.5, how a
	// MANUAL_BY_TOPIC writer's AssertLiveliness reaches the readers). It
	// must not block nor call back into the reader.
	OnLiveliness func(writer wire.GUID)
}

func (c *ReaderConfig) setDefaults() {
	defaultWire(&c.Version, &c.Vendor)
	if c.MaxSampleSize <= 0 {
		c.MaxSampleSize = DefaultMaxSampleSize
	}
	if c.MaxReassemblyBytes <= 0 {
		c.MaxReassemblyBytes = 2 * c.MaxSampleSize
	}
	if c.MaxReassemblies <= 0 {
		c.MaxReassemblies = 64
	}
	if c.Window <= 0 {
		c.Window = DefaultWindow
	}
	if c.MaxBufferedBytes <= 0 {
		c.MaxBufferedBytes = 32 << 20
	}
	if c.NackInterval == 0 {
		c.NackInterval = DefaultNackInterval
	}
	if c.ReaskDelay == 0 {
		c.ReaskDelay = DefaultReaskDelay
	}
	if c.MaxHeldBytes <= 0 {
		c.MaxHeldBytes = c.MaxReassemblyBytes + c.MaxBufferedBytes
	}
}

// WriterProxyInfo describes a matched remote writer.
type WriterProxyInfo struct {
	GUID     wire.GUID
	Reliable bool
	// Vendor of the writer's participant, to interpret vendor-specific
	// inline QoS.
	Vendor wire.VendorID
	// Unicast and Multicast are the writer's locators (or its
	// participant's defaults). ACKNACKs go to the unicast ones, or to the
	// multicast ones when there is no unicast locator.
	Unicast   []wire.Locator
	Multicast []wire.Locator
}

// Sample is a change delivered by a Reader.
type Sample struct {
	Writer wire.GUID
	SN     wire.SequenceNumber
	Kind   ChangeKind
	// KeyHash is the PID_KEY_HASH of the inline QoS, when HasKeyHash.
	KeyHash    wire.KeyHash
	HasKeyHash bool
	// KeyOnly says Payload is the serialized key (DATA with the K flag),
	// not a whole sample; a not-alive change may also have no payload.
	KeyOnly         bool
	SourceTimestamp wire.Time
	// Related is the PID_RELATED_SAMPLE_IDENTITY (or Fast DDS's 0x800f) of the inline
	// QoS; its writer GUID is zero when there is none.
	Related wire.SampleIdentity
	// Coherent is the PID_COHERENT_SET of the inline QoS (0 when none): the first
	// sequence number of the writer's coherent set the change belongs to, or
	// wire.SequenceNumberUnknown. A DATA without payload that carries it (the end of
	// a set) is delivered with LostOnly set.
	Coherent wire.SequenceNumber
	// Group is the PID_GROUP_SEQ_NUM, PID_GROUP_COHERENT_SET and PID_WRITER_GROUP_INFO
	// of the inline QoS (zero when none), also on the end of a set (LostOnly).
	Group GroupInfo
	// Vendor is the writer's vendor, as its participant announced it.
	Vendor wire.VendorID
	// Lost is the number of this writer's changes that the reader learned
	// will never come (SAMPLE_LOST) since the last sample it delivered
	// from that writer and that was accepted: a best-effort reader's gaps
	// in the sequence numbers (counted from the first change it received),
	// a HEARTBEAT whose firstSN moved past changes not received.
	Lost uint64
	// LostOnly says the sample carries no change, only Lost (see
	// ReaderConfig.ReportLost); the deliver callback's answer is ignored.
	LostOnly bool
	// Payload is the serialized payload, encapsulation header included.
	// It aliases the receive buffer or a reader buffer: it is valid only
	// during the deliver callback.
	Payload []byte
	// Received is the now of the HandleData or HandleDataFrag call that
	// completed the change and delivers it (the engine reads its clock once
	// per datagram); zero when another call delivers it (a buffered change
	// a HEARTBEAT, GAP or Retry releases).
	Received time.Time
}

// DeliverFunc receives the samples a Reader delivers. It returns whether
// it accepted the sample: false refuses it (the reader history cache has
// no room). A reliable reader then keeps that change unacknowledged and
// stops delivering that writer's changes until it receives it again (see
// Reader.Retry); a best-effort reader drops it.
type DeliverFunc func(*Sample) bool

// ReaderStats are counters of a Reader.
type ReaderStats struct {
	Delivered         uint64 // samples passed to the deliver callback and accepted
	Refused           uint64 // samples the deliver callback refused (dropped; reliable: asked for again)
	Consumed          uint64 // changes without data to deliver (filtered, no payload nor status)
	Duplicates        uint64 // changes received again, dropped
	Old               uint64 // best effort: changes older than the last delivered, dropped
	OutOfWindow       uint64 // changes too far ahead of the next expected, dropped
	BufferFull        uint64 // out-of-order changes dropped for MaxBufferedBytes
	Lost              uint64 // changes known never to come: a writer no longer had them (HEARTBEAT firstSN moved past them), or best effort, skipped
	UnknownWriter     uint64 // submessages from writers not matched
	WrongReader       uint64 // submessages addressed to another reader
	BadInlineQoS      uint64 // changes whose inline QoS could not be read
	Oversize          uint64 // fragmented samples above MaxSampleSize
	BadFragments      uint64 // DATA_FRAGs inconsistent with the reassembly in progress
	ReassemblyDropped uint64 // DATA_FRAGs dropped for lack of reassembly room
	ReassemblyEvicted uint64 // reassemblies given up to make room or because they went stale
	HeartbeatsDup     uint64 // HEARTBEATs and HEARTBEAT_FRAGs with an old count
	AckNacksSent      uint64
	NackFragsSent     uint64
}

// sampleMeta is what a change says besides its payload.
type sampleMeta struct {
	kind       ChangeKind
	keyHash    wire.KeyHash
	hasKeyHash bool
	keyOnly    bool
	skip       bool // nothing to deliver
	ts         wire.Time
	related    wire.SampleIdentity
	coherent   wire.SequenceNumber
	group      GroupInfo
}

// Slot states of the out-of-order window.
const (
	slotEmpty = iota
	slotSample
	slotIrrelevant
	slotLost // irrelevant, and counted lost when passed (a GAP of changes the writer no longer has)
)

type slot struct {
	state uint8
	sn    wire.SequenceNumber
	meta  sampleMeta
	buf   []byte
}

// writerProxy is the reader's state for one matched writer (RTPS 2.5
// §8.4.10.4 WriterProxy).
type writerProxy struct {
	info     WriterProxyInfo
	dest     []wire.Locator
	reliable bool
	// next is the lowest SN not yet delivered nor known irrelevant.
	next wire.SequenceNumber
	// maxSeen is the highest SN known to exist (HEARTBEAT, DATA, GAP).
	maxSeen   wire.SequenceNumber
	hbs       lastCount // of the HEARTBEATs
	hbfs      lastCount // of the HEARTBEAT_FRAGs
	ackCount  wire.Count
	nfCount   wire.Count
	slots     []slot // ring indexed by SN modulo len, allocated on demand
	bufBytes  int
	frags     []*reassembly
	fragBytes int
	ackAt     time.Time
	// refused says the deliver callback refused next: delivery from this
	// writer waits for next to come again, which Retry asks for.
	refused bool
	// started says a best-effort reader has received a change: the first
	// one sets where counting losses begins.
	started bool
	// lost counts changes known lost, not yet reported with a sample.
	lost uint64
	// nackedAt is when the last ACKNACK that asked for something went.
	nackedAt time.Time
	// reaskAt is when the reader asks again on its own (zero: not due), and
	// reaskWait the wait that set it (ReaskDelay, doubled at each ask on its
	// own); askedNext is next as it was when it asked.
	reaskAt   time.Time
	reaskWait time.Duration
	askedNext wire.SequenceNumber
	// reasks counts the asks on its own since the last submessage of the
	// writer: at most maxReasks, so that a writer that says nothing more (a
	// forged one whose HEARTBEAT announced changes) draws a few, not one a
	// second for ever.
	reasks int
	// hist is the last SN of the first HEARTBEAT of the writer after the match
	// (histKnown): the end of the history it had for the reader (HistorySynced).
	hist      wire.SequenceNumber
	histKnown bool
}

// Reader is the stateful RTPS reader (RTPS 2.5 §8.4.10), best-effort or
// reliable. It owns no goroutine nor timer: methods take the current time
// and the event loop calls Tick at the deadlines the reader reports. All
// methods are safe for concurrent use; the deliver callback runs with the
// reader's lock held and must not call back into the reader.
type Reader struct {
	mu      sync.Mutex
	cfg     ReaderConfig
	deliver DeliverFunc
	writers map[wire.GUID]*writerProxy
	// last is the proxy of the writer looked up last (nil: none): the
	// submessages of a datagram, and datagrams in a row, are mostly one
	// writer's, and the map hashes a 16-octet key.
	last   *writerProxy
	list   []*writerProxy
	mb     msgBuilder
	sample Sample
	// rxNow is the now of the HandleData or HandleDataFrag call in
	// progress (zero otherwise): Sample.Received of what it delivers.
	rxNow    time.Time
	pool     fragPool
	reported time.Time
	stats    ReaderStats
	// heldBytes is the sum of the writers' bufBytes and fragBytes, of
	// their windows (windowCost each) and of the idle buffers the windows
	// keep for reuse.
	heldBytes int
	// gone says the engine deleted the reader: same-process writers hand
	// it nothing more (local.go).
	gone bool
	// syncCh is closed, and cleared, when the reader makes progress with a
	// writer or a writer is removed (HistorySynced, CaughtUp); nil when nobody
	// waits.
	syncCh chan struct{}
}

// NewReader returns a reader that passes the samples it delivers to
// deliver (nil accepts and drops them) and sends ACKNACKs and NACK_FRAGs
// through out.
func NewReader(cfg ReaderConfig, deliver DeliverFunc, out Sender) *Reader {
	cfg.setDefaults()
	r := &Reader{cfg: cfg, deliver: deliver, writers: make(map[wire.GUID]*writerProxy)}
	r.mb.init(wire.Header{Version: cfg.Version, Vendor: cfg.Vendor, Prefix: cfg.GUID.Prefix}, DefaultMaxMessageSize, out)
	return r
}

// GUID returns the reader's GUID.
func (r *Reader) GUID() wire.GUID { return r.cfg.GUID }

// Stats returns a snapshot of the reader's counters.
func (r *Reader) Stats() ReaderStats { return transport.Locked(&r.mu, &r.stats) }

// MemoryInUse returns the octets the reader holds for out-of-order changes
// and reassemblies in progress, over all writers.
func (r *Reader) MemoryInUse() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, p := range r.list {
		n += p.bufBytes + p.fragBytes
	}
	return n
}

// AddWriter matches a remote writer. A reliable reader sends a reliable
// writer a pre-emptive ACKNACK at once (base 1, empty set), so the writer
// learns about the reader without waiting for a HEARTBEAT.
func (r *Reader) AddWriter(w WriterProxyInfo, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.writers[w.GUID] != nil {
		return
	}
	p := &writerProxy{info: w, dest: destination(w.Unicast, w.Multicast), next: 1}
	p.reliable = w.Reliable && r.cfg.Reliable
	r.writers[w.GUID] = p
	r.list = append(r.list, p)
	if p.reliable {
		r.sendPreemptiveAck(p)
	}
}

// sendPreemptiveAck sends a writer just matched an ACKNACK that asks for
// nothing and is not Final (a pre-emptive ACKNACK), so that the writer
// answers with a HEARTBEAT at once: a sample it sent before we knew it
// (its side often matches first) then costs a round trip, not a HEARTBEAT
// period. Each peer answers at once only its own form:
//
//   - Cyclone DDS: base 1, no bits, count 0 (is_preemptive_ack in
//     q_receive.c; it takes base 0 from eProsima and RTI only, and a count
//     above 0 makes it a plain acknowledgement);
//   - Fast DDS 2.9: base 0, no bits, not Final (StatefulWriter::process_acknack;
//     to base 1 it only restarts its periodic HEARTBEAT, 3 s by default),
//     and a count above the last one (0 it drops).
//
// A ddsgo writer answers any ACKNACK that is not Final with a HEARTBEAT.
func (r *Reader) sendPreemptiveAck(p *writerProxy) {
	a := wire.AckNack{ReaderID: r.cfg.GUID.Entity, WriterID: p.info.GUID.Entity}
	if p.info.Vendor == wire.VendorFastDDS {
		p.ackCount++
		a.Count = p.ackCount
	} else {
		a.ReaderSNState.Base = p.next
	}
	r.mb.start(p.dest, p.info.GUID.Prefix, true)
	r.mb.reserve(a.Len())
	r.mb.buf = a.Append(r.mb.buf)
	r.stats.AckNacksSent++
	r.mb.flush()
}

// RemoveWriter unmatches a writer and frees what the reader holds for it.
func (r *Reader) RemoveWriter(g wire.GUID) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.writers[g]
	if p == nil {
		return
	}
	delete(r.writers, g)
	if r.last == p {
		r.last = nil
	}
	r.heldBytes -= p.bufBytes + p.fragBytes + r.windowBytes(p)
	for i, q := range r.list {
		if q == p {
			r.list = append(r.list[:i], r.list[i+1:]...)
			break
		}
	}
	// Its reassemblies in progress (a writer that vanished mid-train) go back to the
	// pool for the other writers' samples.
	for _, ra := range p.frags {
		r.freeFrag(ra)
	}
	p.frags, p.fragBytes = nil, 0
	r.wakeSync()
}

// HistorySynced reports whether the reader has received the historical data of
// every writer it matched (DDS 1.4 §2.2.2.5.2.13, wait_for_historical_data): from
// each reliable writer, every change up to the last one its first HEARTBEAT after
// the match announced, delivered or known lost; best-effort writers send no
// HEARTBEAT and are not waited for. When it has not, the channel returned is closed
// at the next progress with a writer, or a writer's removal; the caller checks again
// then.
func (r *Reader) HistorySynced() (bool, <-chan struct{}) {
	return r.allWriters(func(p *writerProxy) bool { return p.histKnown && p.next > p.hist })
}

// CaughtUp reports whether the reader has, from every reliable writer it matched,
// every change that writer has announced so far (up to the highest sequence number
// its HEARTBEATs, changes and GAPs made known), delivered or known lost, and has heard
// at least one HEARTBEAT of each. Where HistorySynced looks at a writer's history as
// it was at the match, this looks at what the writer has now, as far as the reader
// knows: discovery's SEDP readers, matched long before, use it. When it has not, the
// channel returned is closed at the next progress; the caller checks again then.
func (r *Reader) CaughtUp() (bool, <-chan struct{}) {
	return r.allWriters(func(p *writerProxy) bool { return p.histKnown && p.next > p.maxSeen })
}

// allWriters reports whether done holds for every reliable writer matched, and when
// not, returns the channel wakeSync closes.
func (r *Reader) allWriters(done func(*writerProxy) bool) (bool, <-chan struct{}) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range r.list {
		if p.reliable && !done(p) {
			if r.syncCh == nil {
				r.syncCh = make(chan struct{})
			}
			return false, r.syncCh
		}
	}
	return true, nil
}

// wakeSync wakes the HistorySynced and CaughtUp waiters, at any progress with a
// writer; nothing when none waits.
func (r *Reader) wakeSync() {
	if r.syncCh != nil {
		close(r.syncCh)
		r.syncCh = nil
	}
}

// MatchedWriters returns the number of matched writers.
func (r *Reader) MatchedWriters() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.list)
}

// reliableProxy is proxy for the submessages only a reliable writer's proxy handles
// (GAP, HEARTBEAT, HEARTBEAT_FRAG): nil for a best-effort one.
func (r *Reader) reliableProxy(src wire.GuidPrefix, writer, reader wire.EntityID) *writerProxy {
	if p := r.proxy(src, writer, reader); p != nil && p.reliable {
		return p
	}
	return nil
}

// writer returns the proxy of the matched writer g, nil if there is none.
func (r *Reader) writer(g wire.GUID) *writerProxy {
	if p := r.last; p != nil && p.info.GUID == g {
		return p
	}
	p := r.writers[g]
	if p != nil {
		r.last = p
	}
	return p
}

// proxy finds the writer of a submessage and checks that it is addressed to
// this reader.
func (r *Reader) proxy(src wire.GuidPrefix, writer, reader wire.EntityID) *writerProxy {
	p := r.writer(wire.GUID{Prefix: src, Entity: writer})
	if p == nil {
		r.stats.UnknownWriter++
		return nil
	}
	if reader != wire.EntityIDUnknown && reader != r.cfg.GUID.Entity {
		r.stats.WrongReader++
		return nil
	}
	p.reasks = 0
	return p
}

// parseMeta fills m from the flags and inline QoS of a DATA or DATA_FRAG.
func (r *Reader) parseMeta(m *sampleMeta, q []byte, be bool, vendor wire.VendorID, data, key bool) {
	*m = sampleMeta{keyOnly: key}
	var status wire.StatusInfo
	hasStatus := false
	if len(q) > 0 {
		pr := wire.NewParameterReader(q, be, vendor)
		for prm, ok := pr.Next(); ok; prm, ok = pr.Next() {
			switch prm.ID {
			case wire.PIDKeyHash:
				if len(prm.Value) >= 16 {
					m.keyHash = wire.KeyHash(prm.Value[:16])
					m.hasKeyHash = true
				}
			case wire.PIDStatusInfo:
				if s, _, err := wire.ParseStatusInfo(prm.Value); err == nil {
					status, hasStatus = s, true
				}
			case wire.PIDRelatedSampleIdentity, wire.PIDFastDDSCustomRelatedSampleIdentity:
				if !prm.ID.Known(vendor) {
					break // another vendor's 0x800f
				}
				if id, _, err := wire.ParseSampleIdentity(prm.Value, be); err == nil {
					m.related = id
				}
			case wire.PIDCoherentSet:
				if sn, _, err := wire.ParseSequenceNumber(prm.Value, be); err == nil && sn != 0 {
					m.coherent = sn
				}
			case wire.PIDGroupCoherentSet, wire.PIDGroupSeqNum, wire.PIDWriterGroupInfo:
				m.group.parse(prm.ID, prm.Value, be)
			default: // other inline QoS: not needed here
			}
		}
		if pr.Err() != nil {
			r.stats.BadInlineQoS++
			m.skip = true
			return
		}
	}
	switch {
	case hasStatus && status&wire.StatusInfoFiltered != 0:
		m.skip = true
	case hasStatus:
		m.kind = kindFromStatusInfo(status)
		m.skip = m.kind == Alive && !data
	default:
		m.skip = !data
	}
}

// HandleData processes a DATA from the participant src, with the source
// timestamp ts of the INFO_TS before it (wire.TimeInvalid when none).
func (r *Reader) HandleData(src wire.GuidPrefix, d *wire.Data, ts wire.Time, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.proxy(src, d.WriterID, d.ReaderID)
	if p == nil {
		return
	}
	var m sampleMeta
	r.parseMeta(&m, d.InlineQoS, d.BigEndian, p.info.Vendor, d.DataFlag, d.KeyFlag)
	m.ts = ts
	var payload []byte
	if d.DataFlag || d.KeyFlag {
		payload = d.SerializedPayload
	}
	r.rxNow = now
	r.receive(p, d.WriterSN, &m, payload, false)
	r.rxNow = time.Time{}
}

// receive accepts one complete change. With owned, payload is a reader
// buffer that the window may keep (else it is recycled).
func (r *Reader) receive(p *writerProxy, sn wire.SequenceNumber, m *sampleMeta, payload []byte, owned bool) {
	if sn > p.maxSeen {
		p.maxSeen = sn
	}
	if !p.reliable {
		if sn < p.next {
			r.stats.Old++
			r.recycle(payload, owned)
			return
		}
		if p.started && sn > p.next {
			r.stats.Lost += uint64(sn - p.next)
			p.lost += uint64(sn - p.next)
		}
		p.started = true
		p.next = sn + 1
		r.dropFragsBelow(p)
		r.deliverOne(p, sn, m, payload) // a refusal just drops it
		r.recycle(payload, owned)
		return
	}
	switch {
	case sn < p.next:
		r.stats.Duplicates++
		r.recycle(payload, owned)
		return
	case sn == p.next:
		ok := r.deliverOne(p, sn, m, payload)
		r.recycle(payload, owned)
		if !ok {
			p.refused = true
			return
		}
		p.refused = false
		p.next++
		r.drain(p)
		r.wakeSync()
		return
	case sn >= p.next+wire.SequenceNumber(r.cfg.Window):
		r.stats.OutOfWindow++
		r.recycle(payload, owned)
		return
	}
	s := r.slot(p, sn)
	if s != nil && s.state != slotEmpty && s.sn == sn {
		r.stats.Duplicates++
		r.recycle(payload, owned)
		return
	}
	if s == nil || p.bufBytes+len(payload) > r.cfg.MaxBufferedBytes || r.heldBytes+len(payload) > r.cfg.MaxHeldBytes {
		r.stats.BufferFull++
		r.recycle(payload, owned)
		return
	}
	s.state, s.sn, s.meta = slotSample, sn, *m
	r.heldBytes -= cap(s.buf) // idle until now
	if owned {
		r.recycle(s.buf, true)
		s.buf = payload
	} else {
		s.buf = append(s.buf[:0], payload...)
	}
	p.bufBytes += len(payload)
	r.heldBytes += len(payload)
}

// DefaultWindow is ReaderConfig.Window's default: a writer may send that
// many changes past one that is lost before the reader drops any. A
// Fast DDS writer sends its whole history at full speed, without waiting
// for acknowledgements: with 512, a burst of 2,000 samples at 10 % loss
// had the reader drop two thirds of what arrived behind the first loss,
// and the repairs of those then came in datagrams of up to 256 samples,
// a dozen IP fragments each, that the loss rarely let through whole.
const DefaultWindow = 8192

// minWindow is the size of a writer's window when it is first needed.
const minWindow = 64

// slot returns the window slot of sn (p.next <= sn < p.next+Window),
// allocating or growing the window as needed, or nil when there is no room
// under MaxHeldBytes for the window it needs.
func (r *Reader) slot(p *writerProxy, sn wire.SequenceNumber) *slot {
	if need := uint64(sn-p.next) + 1; need > uint64(len(p.slots)) && !r.growWindow(p, int(need)) {
		return nil
	}
	return &p.slots[uint64(sn)%uint64(len(p.slots))]
}

// growWindow makes p's window hold at least need sequence numbers from
// p.next on: the next power of two, at least minWindow and at most
// Window. It reports false, changing nothing, when MaxHeldBytes has no room.
// The slots in use move to their place in the larger ring, the idle buffers
// of the others to its first free slots.
func (r *Reader) growWindow(p *writerProxy, need int) bool {
	size := max(minWindow, len(p.slots))
	for size < need {
		size *= 2
	}
	size = min(size, r.cfg.Window)
	cost := (size - len(p.slots)) * windowCost
	if size < need || r.heldBytes+cost > r.cfg.MaxHeldBytes {
		return false
	}
	slots := make([]slot, size)
	var idle [][]byte
	for i := range p.slots {
		s := &p.slots[i]
		if s.state == slotEmpty {
			if s.buf != nil {
				idle = append(idle, s.buf)
			}
			continue
		}
		slots[uint64(s.sn)%uint64(size)] = *s
	}
	for i := 0; len(idle) > 0; i++ {
		if slots[i].state == slotEmpty {
			slots[i].buf, idle = idle[0], idle[1:]
		}
	}
	p.slots = slots
	r.heldBytes += cost
	return true
}

// windowCost is what a window slot itself costs, counted in MaxHeldBytes.
const windowCost = int(unsafe.Sizeof(slot{}))

// windowBytes returns what p's window holds beyond the samples in it: the
// slots and the idle buffers kept for reuse.
func (r *Reader) windowBytes(p *writerProxy) int {
	n := len(p.slots) * windowCost
	for i := range p.slots {
		if p.slots[i].state != slotSample {
			n += cap(p.slots[i].buf)
		}
	}
	return n
}

// parse takes in one of the group parameters of an inline QoS.
func (g *GroupInfo) parse(id wire.ParameterID, v []byte, be bool) {
	if id == wire.PIDWriterGroupInfo {
		if len(v) >= 4 {
			g.WriterSet, g.HasWriterSet = binary.BigEndian.Uint32(v), true
		}
		return
	}
	sn, _, err := wire.ParseSequenceNumber(v, be)
	if err != nil || sn <= 0 {
		return
	}
	if id == wire.PIDGroupSeqNum {
		g.SN = sn
	} else {
		g.Coherent = sn
	}
}

// held reports whether the window holds sn (a sample or irrelevant).
func (r *Reader) held(p *writerProxy, sn wire.SequenceNumber) bool {
	if p.slots == nil {
		return false
	}
	s := &p.slots[uint64(sn)%uint64(len(p.slots))]
	return s.state != slotEmpty && s.sn == sn
}

// deliverOne passes a change to the deliver callback, unless it carries
// nothing to deliver, and reports whether the change was consumed (false:
// the callback refused it).
func (r *Reader) deliverOne(p *writerProxy, sn wire.SequenceNumber, m *sampleMeta, payload []byte) bool {
	if m.skip {
		r.stats.Consumed++
		if m.coherent != 0 && r.deliver != nil {
			// The end of a coherent set: no sample, but the reader must know.
			r.sample = Sample{Writer: p.info.GUID, SN: sn, Coherent: m.coherent, Group: m.group, Vendor: p.info.Vendor, Lost: p.lost, LostOnly: true}
			r.deliver(&r.sample)
			p.lost = 0
		}
		return true
	}
	r.sample = Sample{
		Writer:          p.info.GUID,
		SN:              sn,
		Kind:            m.kind,
		KeyHash:         m.keyHash,
		HasKeyHash:      m.hasKeyHash,
		KeyOnly:         m.keyOnly,
		SourceTimestamp: m.ts,
		Related:         m.related,
		Coherent:        m.coherent,
		Group:           m.group,
		Vendor:          p.info.Vendor,
		Lost:            p.lost,
		Payload:         payload,
		Received:        r.rxNow,
	}
	if r.deliver != nil && !r.deliver(&r.sample) {
		r.sample.Payload = nil
		r.stats.Refused++
		return false
	}
	r.sample.Payload = nil
	r.stats.Delivered++
	p.lost = 0
	return true
}

// drain delivers the buffered changes that follow next in order. When the
// callback refuses one, its slot is emptied and next stays on it.
func (r *Reader) drain(p *writerProxy) {
	for p.slots != nil && !p.refused {
		s := &p.slots[uint64(p.next)%uint64(len(p.slots))]
		if s.state == slotEmpty || s.sn != p.next {
			break
		}
		if !r.release(p, s, true) {
			p.refused = true
			break
		}
		p.next++
	}
	r.dropFragsBelow(p)
	if p.next > p.maxSeen {
		p.reaskAt = time.Time{} // nothing known is missing: nothing to ask again
	}
}

// release empties a slot, delivering its sample first with deliver, and
// reports whether the sample (if delivered) was accepted.
func (r *Reader) release(p *writerProxy, s *slot, deliver bool) bool {
	ok := true
	if s.state == slotLost {
		r.stats.Lost++
		p.lost++
	}
	if s.state == slotSample {
		if deliver {
			ok = r.deliverOne(p, s.sn, &s.meta, s.buf)
		}
		p.bufBytes -= len(s.buf)
		r.heldBytes -= len(s.buf)
		// The buffer stays for the slot's next sample, idle, if it is small
		// and there is room for it.
		if cap(s.buf) > maxSlotRetain || r.heldBytes+cap(s.buf) > r.cfg.MaxHeldBytes {
			r.recycle(s.buf, true)
			s.buf = nil
		}
		r.heldBytes += cap(s.buf)
	}
	s.state = slotEmpty
	return ok
}

// maxSlotRetain is the largest buffer a window slot keeps for reuse.
const maxSlotRetain = 8 << 10

// advanceTo moves next to target, delivering in order what the window
// holds below it; with lost, the changes not held count as lost. Changes
// the callback refuses there are dropped: the writer no longer has them.
func (r *Reader) advanceTo(p *writerProxy, target wire.SequenceNumber, lost bool) {
	if target <= p.next {
		return
	}
	span := target - p.next
	if p.slots != nil {
		n := min(span, wire.SequenceNumber(len(p.slots)))
		for k := range n {
			sn := p.next + k
			s := &p.slots[uint64(sn)%uint64(len(p.slots))]
			if s.state != slotEmpty && s.sn == sn {
				span--
				r.release(p, s, true)
			}
		}
	}
	if lost {
		r.stats.Lost += uint64(span)
		p.lost += uint64(span)
	}
	p.next = target
	p.refused = false
	if target-1 > p.maxSeen {
		p.maxSeen = target - 1
	}
	r.drain(p)
}

// markIrrelevant records that sn will not come (GAP); with lost, it counts
// as lost when the reader passes it.
func (r *Reader) markIrrelevant(p *writerProxy, sn wire.SequenceNumber, lost bool) {
	if sn < p.next || sn >= p.next+wire.SequenceNumber(r.cfg.Window) {
		return
	}
	s := r.slot(p, sn)
	if s == nil || (s.state != slotEmpty && s.sn == sn) {
		return
	}
	s.state, s.sn = slotIrrelevant, sn
	if lost {
		s.state = slotLost
	}
}

// HandleGap processes a GAP from the participant src. Once the reader has
// started with the writer (a HEARTBEAT or a change came), the changes of a
// GAP it has not received count as lost (SAMPLE_LOST): the writer no
// longer has them (KEEP_LAST replaced them, their LIFESPAN passed). A GAP
// before that only says where the reader starts: a volatile reader's
// [1, first change written after the match).
func (r *Reader) HandleGap(src wire.GuidPrefix, g *wire.Gap, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.reliableProxy(src, g.WriterID, g.ReaderID)
	if p == nil {
		return
	}
	lost := (p.hbs.seen || p.next > 1) && !r.cfg.ContentFiltered
	start, end := g.GapStart, g.GapList.Base
	if start <= p.next && end > p.next {
		r.advanceTo(p, end, lost)
	} else if start > p.next {
		end := min(end, p.next+wire.SequenceNumber(r.cfg.Window))
		for sn := start; sn < end; sn++ {
			r.markIrrelevant(p, sn, lost)
		}
	}
	for sn := range g.GapList.All {
		if sn > p.maxSeen {
			p.maxSeen = sn
		}
		r.markIrrelevant(p, sn, lost)
	}
	if g.GapList.Base-1 > p.maxSeen {
		p.maxSeen = g.GapList.Base - 1
	}
	r.drain(p)
	r.reportLost(p)
	r.wakeSync()
}

// reportLost passes the losses of p that no delivered change carried, with
// ReportLost.
func (r *Reader) reportLost(p *writerProxy) {
	if !r.cfg.ReportLost || p.lost == 0 || r.deliver == nil {
		return
	}
	r.sample = Sample{Writer: p.info.GUID, Vendor: p.info.Vendor, Lost: p.lost, LostOnly: true}
	r.deliver(&r.sample)
	p.lost = 0
}

// HandleHeartbeat processes a HEARTBEAT from the participant src.
func (r *Reader) HandleHeartbeat(src wire.GuidPrefix, h *wire.Heartbeat, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.proxy(src, h.WriterID, h.ReaderID)
	if p == nil {
		return
	}
	if h.Liveliness && r.cfg.OnLiveliness != nil {
		r.cfg.OnLiveliness(wire.GUID{Prefix: src, Entity: h.WriterID})
	}
	if !p.reliable {
		return
	}
	started := p.hbs.seen || p.next > 1
	if !p.hbs.newer(h.Count) {
		r.stats.HeartbeatsDup++
		return
	}
	if h.LastSN > p.maxSeen {
		p.maxSeen = h.LastSN
	}
	if !p.histKnown {
		p.hist, p.histKnown = h.LastSN, true
	}
	if h.FirstSN > p.next {
		r.advanceTo(p, h.FirstSN, started)
		r.reportLost(p)
	}
	r.wakeSync()
	for _, ra := range p.frags {
		if ra.sn <= h.LastSN {
			ra.adv = ra.total // every fragment of a change announced exists
		}
	}
	if !h.Final || r.asks(p) {
		r.scheduleAck(p, now)
	}
}

// HandleHeartbeatFrag processes a HEARTBEAT_FRAG from the participant src:
// it triggers a NACK_FRAG when fragments of that change up to the last one
// it announces are missing, and nothing when none is (as Cyclone DDS does:
// a writer that sends a large sample in steps announces each step so).
func (r *Reader) HandleHeartbeatFrag(src wire.GuidPrefix, h *wire.HeartbeatFrag, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.reliableProxy(src, h.WriterID, h.ReaderID)
	if p == nil {
		return
	}
	if !p.hbfs.newer(h.Count) {
		r.stats.HeartbeatsDup++
		return
	}
	if h.WriterSN < p.next {
		return
	}
	if h.WriterSN > p.maxSeen {
		p.maxSeen = h.WriterSN
	}
	ra := p.findFrag(h.WriterSN)
	if ra == nil {
		return
	}
	ra.adv = max(ra.adv, min(int(h.LastFragmentNum), ra.total))
	if ra.lacks() {
		r.scheduleAck(p, now)
	}
}

// scheduleAck answers now or after the heartbeat response delay, and an
// answer that asks for something not before NackInterval after the last
// one that did.
func (r *Reader) scheduleAck(p *writerProxy, now time.Time) {
	at := now.Add(max(r.cfg.HeartbeatResponseDelay, 0))
	if r.cfg.NackInterval > 0 && !p.nackedAt.IsZero() && r.asks(p) {
		if t := p.nackedAt.Add(r.cfg.NackInterval); t.After(at) {
			at = t
		}
	}
	if !at.After(now) {
		r.sendAck(p, now)
		return
	}
	if p.ackAt.IsZero() {
		p.ackAt = at
		r.schedule(p.ackAt)
	}
}

// asks reports whether an ACKNACK to p would ask for something: changes
// missing up to maxSeen (those partially received aside) or fragments
// known to exist of a sample partially received.
func (r *Reader) asks(p *writerProxy) bool {
	for _, ra := range p.frags {
		if ra.sn >= p.next && ra.sn <= p.maxSeen && ra.lacks() {
			return true
		}
	}
	last := min(p.maxSeen, p.next+wire.MaxSetBits-1)
	for sn := p.next; sn <= last; sn++ {
		if !r.held(p, sn) && p.findFrag(sn) == nil {
			return true
		}
	}
	return false
}

// maxNackFrags bounds the NACK_FRAGs sent per partial sample at once.
const maxNackFrags = 8

// sendAck sends the writer an ACKNACK (acknowledging everything below next
// and asking for the changes missing up to maxSeen) and NACK_FRAGs for the
// samples partially received.
func (r *Reader) sendAck(p *writerProxy, now time.Time) {
	p.ackAt = time.Time{}
	if r.asks(p) {
		p.nackedAt = now
		r.armReask(p, now)
	} else {
		p.reaskAt, p.reaskWait = time.Time{}, 0
	}
	a := wire.AckNack{
		Final:    true,
		ReaderID: r.cfg.GUID.Entity,
		WriterID: p.info.GUID.Entity,
	}
	a.ReaderSNState.Base = p.next
	last := min(p.maxSeen, p.next+wire.MaxSetBits-1)
	for sn := p.next; sn <= last; sn++ {
		if !r.held(p, sn) && p.findFrag(sn) == nil {
			a.ReaderSNState.Add(sn)
		}
	}
	p.ackCount++
	a.Count = p.ackCount
	r.mb.start(p.dest, p.info.GUID.Prefix, true)
	r.mb.reserve(a.Len())
	r.mb.buf = a.Append(r.mb.buf)
	r.stats.AckNacksSent++
	for _, ra := range p.frags {
		if ra.sn < p.next || ra.sn > p.maxSeen || !ra.lacks() {
			continue
		}
		r.appendNackFrags(p, ra)
	}
	r.mb.flush()
}

// DefaultReaskDelay is ReaderConfig.ReaskDelay's default: a few round trips
// of a LAN and a writer's NACK response delay (Fast DDS: 5 ms).
const DefaultReaskDelay = 20 * time.Millisecond

// maxReaskDelay bounds the doubling of the wait between asks on a reader's own.
const maxReaskDelay = time.Second

// maxReasks bounds the asks on a reader's own in a row while the writer sends
// nothing: 20, 40 and 80 ms after an ACKNACK, then the writer's next
// HEARTBEAT or repair.
const maxReasks = 3

// armReask sets when the reader asks p again on its own after an ACKNACK that
// asked for something: ReaskDelay after it, or twice the last wait when next has
// not moved since the last ask; never after maxReasks in a row.
func (r *Reader) armReask(p *writerProxy, now time.Time) {
	if r.cfg.ReaskDelay < 0 || p.reasks >= maxReasks {
		p.reaskAt = time.Time{}
		return
	}
	if p.reaskWait == 0 || p.next != p.askedNext {
		p.reaskWait = r.cfg.ReaskDelay
	} else {
		p.reaskWait = min(2*p.reaskWait, maxReaskDelay)
	}
	p.askedNext = p.next
	p.reaskAt = now.Add(p.reaskWait)
	r.schedule(p.reaskAt)
}

// Retry asks again, at once, every writer for the change the deliver
// callback refused last (an ACKNACK whose bitmap starts with it), so that
// delivery resumes when the writer resends it. Call it when the callback
// can accept samples again; it must not be called from the callback (the
// reader's lock is held there): post it to the event loop instead.
func (r *Reader) Retry(now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range r.list {
		if p.refused {
			r.sendAck(p, now)
		}
	}
}

// Tick sends the ACKNACKs that are due at now and returns the next
// deadline (zero: none).
func (r *Reader) Tick(now time.Time) time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	var next time.Time
	for _, p := range r.list {
		switch {
		case !p.ackAt.IsZero() && !now.Before(p.ackAt):
			r.sendAck(p, now)
		case !p.reaskAt.IsZero() && !now.Before(p.reaskAt):
			p.reaskAt = time.Time{}
			if p.reasks < maxReasks && r.asks(p) {
				p.reasks++
				r.sendAck(p, now)
			}
		}
		next = deadlineMin(deadlineMin(next, p.ackAt), p.reaskAt)
	}
	r.reported = next
	return next
}

// Deadline returns the reader's earliest deadline (zero: none).
func (r *Reader) Deadline() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	var next time.Time
	for _, p := range r.list {
		next = deadlineMin(deadlineMin(next, p.ackAt), p.reaskAt)
	}
	return next
}

// schedule reports a deadline earlier than the last one reported.
func (r *Reader) schedule(t time.Time) {
	reportEarlier(r.cfg.Schedule, &r.reported, t)
}
