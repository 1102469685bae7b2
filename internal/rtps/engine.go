package rtps

import (
	"crypto/rand"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"net/netip"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ddsgo/ddsgo/internal/transport"
	"github.com/ddsgo/ddsgo/internal/wire"
)

// DefaultQueueLen is the length of an Engine's receive queue when
// EngineConfig.QueueLen is zero. Each queued datagram pins a
// transport.SmallBufferSize buffer, or a BufferSize one when larger.
const DefaultQueueLen = 256

// queueWait is how long a receive goroutine waits for room in a full
// receive queue before it drops the datagram (transport.Queue.PushWait):
// the event loop fell that far behind.
const queueWait = time.Second

// EngineConfig configures an [Engine]. Zero values select the documented
// defaults.
type EngineConfig struct {
	// GUIDPrefix is the participant's GUID prefix; zero: NewGUIDPrefix().
	GUIDPrefix wire.GuidPrefix
	// Version and Vendor go in the header of every message; zero values
	// mean wire.ProtocolVersion25 and wire.VendorDDSGo.
	Version wire.ProtocolVersion
	Vendor  wire.VendorID
	// Transport configures the sockets. Its Deliver must be nil: the engine
	// sets it to its receive queue.
	Transport transport.Config
	// QueueLen bounds the received datagrams waiting for the event loop;
	// more are dropped and counted by the transport. Zero: DefaultQueueLen.
	QueueLen int
	// Logger receives diagnostics; nil: discard.
	Logger *slog.Logger
	// Now is the clock; nil: time.Now.
	Now func() time.Time
	// OnTraffic, if not nil, is called for every datagram received from
	// another participant, after its submessages were routed, on the
	// goroutine that routed it, with the sender's GUID prefix (discovery
	// renews the participant's lease). heard says that one of its
	// submessages reached a local endpoint matched with the sender's: the
	// sender takes part in the protocol beyond announcing itself (discovery
	// counts it as a confirmed peer). It must not block.
	OnTraffic func(src wire.GuidPrefix, heard bool, now time.Time)
	// NoLocalDelivery turns same-process delivery off (local.go): the
	// engine's writers send to the readers of the process by the wire, and
	// other engines' writers send to its readers by the wire. For tests of
	// the wire protocol between engines of one process.
	NoLocalDelivery bool
}

// RawDataHandler receives, on the event loop, a DATA submessage of a
// stateless built-in writer (SPDP) from any participant, matched or not:
// src and vendor of the sender, the INFO_TS timestamp (wire.TimeInvalid
// when none). d and what it refers to are valid only during the call.
type RawDataHandler func(src wire.GuidPrefix, vendor wire.VendorID, d *wire.Data, ts wire.Time, now time.Time)

// EngineStats are counters of an [Engine]'s receive path.
type EngineStats struct {
	Datagrams        uint64 // datagrams processed (network and local)
	LocalDatagrams   uint64 // of which sent by this participant to itself
	NotRTPS          uint64 // datagrams that are not RTPS (dropped)
	Malformed        uint64 // datagrams with a framing error or an invalid submessage (rest dropped)
	OwnEcho          uint64 // our own datagrams back from the network (multicast loopback), dropped
	OtherDestination uint64 // submessages behind an INFO_DST for another participant, skipped
	UnknownWriter    uint64 // reader-bound submessages of a writer no local reader is matched with
	UnknownReader    uint64 // writer-bound submessages (ACKNACK, NACK_FRAG) for no local writer
	UnknownKind      uint64 // submessages of kinds not handled (vendor-specific included), skipped
	LocalDrops       uint64 // datagrams to ourselves dropped because the local queue was full
	SendErrors       uint64 // failed sends
	Transport        transport.StatsSnapshot
}

// Engine is the running RTPS participant below discovery: it owns the
// transport, the GUID prefix, the registry of local writers and readers
// and the event loop. The event loop is one goroutine that reads the
// receive queue of the discovery sockets (the user sockets' goroutines
// route their datagrams themselves), routes every submessage to the
// endpoints (see the package documentation, "Participant duties"), runs
// the functions posted with Post and calls the Timers at their deadlines,
// with one time.Timer set to the earliest. The engine is the Sender of
// its endpoints: messages to its own locators are queued to the event
// loop, never delivered synchronously.
type Engine struct {
	cfg    EngineConfig
	log    *slog.Logger
	now    func() time.Time
	prefix wire.GuidPrefix
	tr     *transport.Transport
	q      *transport.Queue
	local  chan *transport.Packet
	ports  [2]uint16 // metatraffic and user unicast ports

	regMu   sync.RWMutex
	writers map[wire.EntityID]*Writer
	readers map[wire.EntityID]*Reader
	matches map[wire.GUID][]*Reader
	// matchGen counts the changes to matches (made under regMu), for the
	// receivers' copies of a route (receiver.route).
	matchGen atomic.Uint64
	raw      map[wire.EntityID]RawDataHandler
	etimers  map[any]*Timer // the timer of each writer and reader

	timerMu    sync.Mutex
	timers     timerHeap
	dueScratch []*Timer
	wake       chan struct{}

	postMu sync.Mutex
	posted []func()

	closeOnce sync.Once
	done      chan struct{}
	exited    chan struct{}

	// rxs[k] is the receive scratch of the goroutine that handles the
	// datagrams of socket kind k; rxs[SocketOther] is the event loop's.
	rxs     [transport.SocketUserUnicast + 1]receiver
	stats   engineCounters
	rtotals readerTotals
}

type engineCounters struct {
	datagrams, local, notRTPS, malformed, ownEcho, otherDst atomic.Uint64
	unknownWriter, unknownReader, unknownKind               atomic.Uint64
	localDrops, sendErrors                                  atomic.Uint64
}

// NewGUIDPrefix returns a new GUID prefix for a participant of this
// process: the vendor id 01.dd, four octets hashed from the host name and
// six random octets.
func NewGUIDPrefix() wire.GuidPrefix {
	var p wire.GuidPrefix
	p[0], p[1] = wire.VendorDDSGo[0], wire.VendorDDSGo[1]
	h := fnv.New32a()
	name, _ := os.Hostname()
	_, _ = h.Write([]byte(name))
	s := h.Sum32()
	p[2], p[3], p[4], p[5] = byte(s>>24), byte(s>>16), byte(s>>8), byte(s)
	_, _ = rand.Read(p[6:])
	return p
}

// NewEngine opens the transport and starts the event loop.
func NewEngine(cfg EngineConfig) (*Engine, error) {
	if cfg.Transport.Deliver != nil {
		return nil, errors.New("rtps: EngineConfig.Transport.Deliver must be nil")
	}
	if cfg.GUIDPrefix == (wire.GuidPrefix{}) {
		cfg.GUIDPrefix = NewGUIDPrefix()
	}
	defaultWire(&cfg.Version, &cfg.Vendor)
	if cfg.QueueLen <= 0 {
		cfg.QueueLen = DefaultQueueLen
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	e := &Engine{
		cfg: cfg, log: transport.OrDiscard(cfg.Logger), now: cfg.Now, prefix: cfg.GUIDPrefix,
		q:       transport.NewQueue(cfg.QueueLen),
		local:   make(chan *transport.Packet, cfg.QueueLen),
		writers: make(map[wire.EntityID]*Writer),
		readers: make(map[wire.EntityID]*Reader),
		matches: make(map[wire.GUID][]*Reader),
		raw:     make(map[wire.EntityID]RawDataHandler),
		etimers: make(map[any]*Timer),
		wake:    make(chan struct{}, 1),
		done:    make(chan struct{}),
		exited:  make(chan struct{}),
	}
	// The receive goroutines start in Open and use rxs at once.
	for i := range e.rxs {
		e.rxs[i].init()
	}
	tc := cfg.Transport
	tc.Deliver = e.deliver
	if tc.Logger == nil {
		tc.Logger = e.log
	}
	tr, err := transport.Open(tc)
	if err != nil {
		return nil, fmt.Errorf("rtps: engine: %w", err)
	}
	e.tr = tr
	e.ports = [2]uint16{tr.Port(transport.SocketMetaUnicast), tr.Port(transport.SocketUserUnicast)}
	e.registerLocal()
	go e.loop()
	return e, nil
}

// GUIDPrefix returns the participant's GUID prefix.
func (e *Engine) GUIDPrefix() wire.GuidPrefix { return e.prefix }

// Vendor returns the vendor id the engine's messages carry.
func (e *Engine) Vendor() wire.VendorID { return e.cfg.Vendor }

// Version returns the protocol version the engine's messages carry.
func (e *Engine) Version() wire.ProtocolVersion { return e.cfg.Version }

// Transport returns the engine's transport (locators, ports, statistics).
func (e *Engine) Transport() *transport.Transport { return e.tr }

// Now returns the engine's clock reading.
func (e *Engine) Now() time.Time { return e.now() }

// Logger returns the engine's logger.
func (e *Engine) Logger() *slog.Logger { return e.log }

// Stats returns a snapshot of the engine's counters.
func (e *Engine) Stats() EngineStats {
	s := &e.stats
	return EngineStats{
		Datagrams: s.datagrams.Load(), LocalDatagrams: s.local.Load(), NotRTPS: s.notRTPS.Load(),
		Malformed: s.malformed.Load(), OwnEcho: s.ownEcho.Load(), OtherDestination: s.otherDst.Load(),
		UnknownWriter: s.unknownWriter.Load(), UnknownReader: s.unknownReader.Load(),
		UnknownKind: s.unknownKind.Load(), LocalDrops: s.localDrops.Load(), SendErrors: s.sendErrors.Load(),
		Transport: e.tr.Stats(),
	}
}

// NewWriter creates a writer of this participant and registers it for
// ACKNACKs and NACK_FRAGs. cfg.GUID's prefix must be the engine's;
// cfg.Schedule, Version and Vendor are set by the engine.
func (e *Engine) NewWriter(cfg WriterConfig) *Writer {
	t := e.endpointTimer(&cfg.Schedule, &cfg.Version, &cfg.Vendor)
	if cfg.MaxMessageSize <= 0 {
		cfg.MaxMessageSize, cfg.FragmentSize = linkMessageSize(e.tr.MaxDatagram(), cfg.FragmentSize)
	}
	w := NewWriter(cfg, e.senderFor(cfg.TransportPriority))
	return register(e, e.writers, cfg.GUID.Entity, w, t, w.Tick)
}

// linkMessageSize returns the default datagram bound and fragment size of a writer whose
// datagrams cross links that carry at most maxDatagram octets of UDP payload unfragmented
// (0: unknown): DefaultMaxMessageSize, or less when the link needs it. Writers on a
// 1500-octet Ethernet thus never rely on IP fragmentation, which under loss costs a whole
// datagram for one lost packet and, worse, leaves the receiving kernel holding the
// fragments of every incomplete datagram for 30 s (ipfrag_time), up to ipfrag_high_thresh
// (4 MiB), after which it drops every fragment: a lossy link then carries no large
// datagram at all. The fragment size shrinks only when one fragment with its headers
// (fragOverhead) would not fit.
func linkMessageSize(maxDatagram, fragSize int) (maxMsg, frag int) {
	if fragSize <= 0 {
		fragSize = DefaultFragmentSize
	}
	if maxDatagram <= 0 || maxDatagram >= DefaultMaxMessageSize {
		return DefaultMaxMessageSize, fragSize
	}
	maxMsg = max(maxDatagram, minMessageSize)
	if fragSize+fragOverhead > maxMsg {
		fragSize = (maxMsg - fragOverhead) &^ 3
	}
	return maxMsg, fragSize
}

// fragOverhead is what a datagram holds besides one fragment: the RTPS header,
// INFO_DST, INFO_TS, the DATA_FRAG header and its inline QoS (key hash, status info,
// sentinel), rounded up.
const fragOverhead = 128

// minMessageSize is the smallest datagram bound a link may impose (IPv4's 576-octet
// minimum reassembly size less the IPv4 and UDP headers).
const minMessageSize = 576 - 28

// NewReader creates a reader of this participant. deliver runs on the
// event loop with the reader's lock held: it must not block nor call into
// the reader (Post work that needs more).
func (e *Engine) NewReader(cfg ReaderConfig, deliver DeliverFunc) *Reader {
	t := e.endpointTimer(&cfg.Schedule, &cfg.Version, &cfg.Vendor)
	r := NewReader(cfg, deliver, e)
	return register(e, e.readers, cfg.GUID.Entity, r, t, r.Tick)
}

// endpointTimer returns the timer of a new writer or reader and sets what the engine
// decides in its config: the timer's Schedule, the engine's protocol version and vendor.
func (e *Engine) endpointTimer(schedule *func(time.Time), version *wire.ProtocolVersion, vendor *wire.VendorID) *Timer {
	t := e.NewTimer(nil)
	*schedule = t.Schedule
	*version, *vendor = e.cfg.Version, e.cfg.Vendor
	return t
}

// register files the new writer or reader ep under id in reg, with its timer t, which
// runs tick, and returns ep.
func register[E comparable](e *Engine, reg map[wire.EntityID]E, id wire.EntityID, ep E, t *Timer, tick func(time.Time) time.Time) E {
	t.fn = tick
	e.regMu.Lock()
	reg[id] = ep
	e.etimers[ep] = t
	e.regMu.Unlock()
	return ep
}

// unregister removes the writer or reader ep, filed under id in reg, calls more (if
// not nil) with the registry still locked, and stops ep's timer.
func unregister[E comparable](e *Engine, reg map[wire.EntityID]E, id wire.EntityID, ep E, more func()) {
	e.regMu.Lock()
	if reg[id] == ep {
		delete(reg, id)
	}
	if more != nil {
		more()
	}
	t := e.etimers[ep]
	delete(e.etimers, ep)
	e.regMu.Unlock()
	if t != nil {
		t.Stop()
	}
}

// DeleteWriter unregisters w and stops its timer.
func (e *Engine) DeleteWriter(w *Writer) {
	unregister(e, e.writers, w.GUID().Entity, w, nil)
}

// DeleteReader unregisters r, removes it from the routes of the writers it
// was matched with, and stops its timer.
func (e *Engine) DeleteReader(r *Reader) {
	r.markGone()
	last := r.Stats()
	unregister(e, e.readers, r.GUID().Entity, r, func() {
		e.retire(last)
		for g, rs := range e.matches {
			e.matches[g] = removeReader(rs, r)
			if len(e.matches[g]) == 0 {
				delete(e.matches, g)
			}
		}
		e.matchGen.Add(1)
	})
}

// MatchReader matches the local writer w with a (remote or local) reader.
func (e *Engine) MatchReader(w *Writer, info ReaderProxyInfo) {
	if !w.GUID().Entity.IsBuiltin() {
		info.local = e.localReader(info.GUID)
	}
	w.AddReader(info, e.now())
}

// UnmatchReader unmatches the reader g from the local writer w.
func (e *Engine) UnmatchReader(w *Writer, g wire.GUID) { w.RemoveReader(g) }

// MatchWriter matches the local reader r with a (remote or local) writer:
// the writer's submessages are routed to r from now on.
func (e *Engine) MatchWriter(r *Reader, info WriterProxyInfo) {
	e.regMu.Lock()
	rs := e.matches[info.GUID]
	found := false
	for _, x := range rs {
		found = found || x == r
	}
	if !found {
		e.matches[info.GUID] = append(rs, r)
		e.matchGen.Add(1)
	}
	e.regMu.Unlock()
	r.AddWriter(info, e.now())
}

// UnmatchWriter unmatches the writer g from the local reader r.
func (e *Engine) UnmatchWriter(r *Reader, g wire.GUID) {
	e.regMu.Lock()
	if rs := removeReader(e.matches[g], r); len(rs) > 0 {
		e.matches[g] = rs
	} else {
		delete(e.matches, g)
	}
	e.matchGen.Add(1)
	e.regMu.Unlock()
	r.RemoveWriter(g)
}

func removeReader(rs []*Reader, r *Reader) []*Reader {
	for i, x := range rs {
		if x == r {
			return append(rs[:i:i], rs[i+1:]...)
		}
	}
	return rs
}

// HandleRaw routes every DATA whose writerId is writer to h instead of the
// matched readers: the stateless built-in SPDP reader. A nil h removes the
// route.
func (e *Engine) HandleRaw(writer wire.EntityID, h RawDataHandler) {
	e.regMu.Lock()
	if h == nil {
		delete(e.raw, writer)
	} else {
		e.raw[writer] = h
	}
	e.regMu.Unlock()
}

// Done returns a channel closed when the engine is closed.
func (e *Engine) Done() <-chan struct{} { return e.done }

// Post runs fn on the event loop, after the datagram or timer being
// processed. It never blocks; fn must not block either.
func (e *Engine) Post(fn func()) {
	e.postMu.Lock()
	e.posted = append(e.posted, fn)
	e.postMu.Unlock()
	e.wakeUp()
}

func (e *Engine) wakeUp() {
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// Send implements Sender: each locator of the engine's own unicast ports
// gets a copy of msg queued to the event loop (once per call); the others
// get it through the transport.
func (e *Engine) Send(msg []byte, to []wire.Locator) { e.send(msg, to, nil) }

// send is Send through the send socket c (nil: the default one).
func (e *Engine) send(msg []byte, to []wire.Locator, c transport.PacketConn) {
	self := false
	for _, l := range to {
		if e.isLocal(l) {
			if !self {
				self = true
				e.sendLocal(msg)
			}
			continue
		}
		e.sendOne(msg, l, c)
	}
}

// SendBatch implements BatchSender: the messages go to each unicast UDP
// locator of another process in one batched write (sendmmsg on Linux), and
// to the others one by one as with Send.
func (e *Engine) SendBatch(msgs [][]byte, to []wire.Locator, scratch []transport.Message) {
	e.sendBatch(msgs, to, scratch, nil)
}

// sendBatch is SendBatch through the send socket c (nil: the default one).
func (e *Engine) sendBatch(msgs [][]byte, to []wire.Locator, scratch []transport.Message, c transport.PacketConn) {
	self := false
	for _, l := range to {
		if e.isLocal(l) {
			if !self {
				self = true
				for _, msg := range msgs {
					e.sendLocal(msg)
				}
			}
			continue
		}
		ap, ok := l.AddrPort()
		if !ok || l.Kind != wire.LocatorKindUDPv4 || ap.Addr().IsMulticast() {
			for _, msg := range msgs {
				e.sendOne(msg, l, c)
			}
			continue
		}
		ms := scratch[:len(msgs)]
		for i, msg := range msgs {
			ms[i] = transport.Message{Buf: msg, Addr: ap}
		}
		n, err := e.tr.WriteBatchConn(c, ms)
		if err != nil {
			e.stats.sendErrors.Add(uint64(len(msgs) - n))
			e.log.Debug("rtps: send failed", "to", l, "err", err)
		}
		clear(ms)
	}
}

// sendLocal queues a copy of msg to the event loop.
func (e *Engine) sendLocal(msg []byte) {
	p := transport.GetPacketFor(len(msg))
	p.Data = append(p.Buffer()[:0], msg...)
	select {
	case e.local <- p:
		e.wakeUp()
	default:
		p.Release()
		e.stats.localDrops.Add(1)
	}
}

// sendOne sends msg to l through the transport's send socket c (nil: the
// default one).
func (e *Engine) sendOne(msg []byte, l wire.Locator, c transport.PacketConn) {
	ap, ok := l.AddrPort()
	if !ok || l.Kind != wire.LocatorKindUDPv4 {
		e.stats.sendErrors.Add(1)
		e.log.Debug("rtps: send failed", "to", l, "err", transport.ErrAddress)
		return
	}
	if err := e.tr.WriteToConn(c, msg, ap); err != nil {
		e.stats.sendErrors.Add(1)
		e.log.Debug("rtps: send failed", "to", l, "err", err)
	}
}

// SendTo sends msg to the UDP destinations dst (SPDP announcements), also
// through the local queue for the engine's own unicast ports.
func (e *Engine) SendTo(msg []byte, dst []netip.AddrPort) {
	for _, ap := range dst {
		l := wire.LocatorFromAddrPort(ap)
		e.Send(msg, []wire.Locator{l})
	}
}

// isLocal reports whether l is one of the engine's unicast locators.
func (e *Engine) isLocal(l wire.Locator) bool {
	if l.Kind != wire.LocatorKindUDPv4 || l.Port > 0xffff {
		return false
	}
	port := uint16(l.Port)
	if port == 0 || (port != e.ports[0] && port != e.ports[1]) {
		return false
	}
	ap, ok := l.AddrPort()
	if !ok {
		return false
	}
	a := ap.Addr()
	if a.IsLoopback() {
		return true
	}
	for _, ifc := range e.tr.Interfaces() {
		if ifc.HasAddr(a) {
			return true
		}
	}
	return false
}

// Close stops the event loop and closes the transport. Endpoints must not
// be used afterwards.
func (e *Engine) Close() error {
	var err error
	e.closeOnce.Do(func() {
		e.unregisterLocal()
		// The transport first: its receive goroutines call into the
		// endpoints until they have stopped.
		err = e.tr.Close()
		close(e.done)
		<-e.exited
		e.q.Drain()
		for {
			select {
			case p := <-e.local:
				p.Release()
				continue
			default:
			}
			break
		}
	})
	return err
}

// deliver is the transport's Deliver. Datagrams of the user-traffic
// sockets are handled right away on the socket's receive goroutine: the
// endpoints' own locks serialize them, and a sample reaches the reader's
// cache (and the application waiting on it) without a hand-off to another
// goroutine, which costs more than the rest of the receive path. The
// metatraffic goes to the event loop, where discovery runs; when the loop
// is behind (a participant joining a crowded domain gets a burst from
// every peer at once), the socket waits for it rather than losing SEDP
// messages that would each cost a HEARTBEAT period to repair.
func (e *Engine) deliver(p *transport.Packet) bool {
	switch p.Kind {
	case transport.SocketUserUnicast, transport.SocketUserMulticast:
		e.receive(&e.rxs[p.Kind], p.Data, false)
		p.Release()
		return true
	case transport.SocketOther, transport.SocketMetaMulticast, transport.SocketMetaUnicast:
	}
	// The queue holds up to QueueLen datagrams: in small buffers, when they fit, not
	// 64 KiB each (a flood of forged SPDP announcements keeps it full).
	p = p.Compact()
	return e.q.PushWait(p, queueWait, e.done)
}

// loop is the event loop.
func (e *Engine) loop() {
	defer close(e.exited)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var armed time.Time
	for {
		e.runPosted()
		if next := e.nextDeadline(); !next.Equal(armed) {
			armed = next
			if next.IsZero() {
				timer.Stop()
			} else {
				timer.Reset(max(0, next.Sub(e.now())))
			}
		}
		select {
		case <-e.done:
			timer.Stop()
			return
		case p := <-e.q.C():
			e.receive(&e.rxs[transport.SocketOther], p.Data, false)
			p.Release()
		case p := <-e.local:
			e.receive(&e.rxs[transport.SocketOther], p.Data, true)
			p.Release()
		case <-timer.C:
			armed = time.Time{}
			e.runTimers(e.now())
		case <-e.wake:
		}
	}
}

// runPosted runs the functions posted so far.
func (e *Engine) runPosted() {
	for {
		e.postMu.Lock()
		fns := e.posted
		e.posted = nil
		e.postMu.Unlock()
		if len(fns) == 0 {
			return
		}
		for _, fn := range fns {
			fn()
		}
	}
}
