package discovery

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/transport"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/internal/xtypes"
	"github.com/ddsgo/ddsgo/qos"
	rtpsconfig "github.com/ddsgo/ddsgo/rtps"
)

// Defaults of Config.
const (
	// DefaultParticipantLease is the lease duration this participant
	// announces when Config.LeaseDuration is zero (Cyclone DDS's; Fast DDS
	// announces 20 s).
	DefaultParticipantLease = 10 * time.Second
	// InitialAnnouncements is the number of SPDP announcements sent at
	// start, InitialAnnouncePeriod apart, before the period becomes
	// Config.AnnouncePeriod (Fast DDS sends 5, 100 ms apart).
	InitialAnnouncements  = 5
	InitialAnnouncePeriod = 100 * time.Millisecond
)

// ErrClosed is returned by the methods of a closed Participant or endpoint.
var ErrClosed = errors.New("discovery: closed")

// Config configures a [Participant]. Zero values select the documented
// defaults; NewParticipant copies it.
type Config struct {
	// Config is what the user configures (package rtps documents each field).
	rtpsconfig.Config
	// Domain is the DDS domain id (0..232).
	Domain int
	// Net opens the sockets; nil: the operating system's UDP.
	Net transport.Net
	// UserData is the participant's USER_DATA.
	UserData []byte
	// Limits bounds what remote participants may make this one hold; its
	// zero MaxParticipants and MaxEndpoints take those of Config.
	Limits Limits
	// Now is the clock; nil: time.Now (tests).
	Now func() time.Time
	// TypeLookup, if set, answers the XTypes TypeLookup requests of peers (a serialized
	// TypeLookup_Request) with a serialized reply, ok false for none; the participant
	// then has the service's request reader and reply writer (typelookup.go).
	TypeLookup func(request []byte) (reply []byte, ok bool)
	// Types, if set, holds the types peers announce, asked for with the TypeLookup
	// service's client (typeclient.go), and makes matching apply the XTypes
	// assignability rules when both endpoints announce TypeInformation.
	Types *xtypes.Cache
	// NoLocalDelivery makes the engine's endpoints talk to those of the
	// process by the wire too (rtps.EngineConfig.NoLocalDelivery; tests).
	// A participant on a simulated network (Net set) always does: the
	// network's hosts stand for other machines.
	NoLocalDelivery bool
	// Helper, if set, runs on the receive goroutines around the handling
	// of the datagrams of each read (transport.ReceiverConfig.Helper).
	Helper transport.Helper
}

// DefaultWriterLinger is the default Config.WriterLinger, Cyclone DDS's
// WriterLingerDuration.
const DefaultWriterLinger = time.Second

// Stats are counters of a [Participant].
type Stats struct {
	// Engine holds the receive path's counters (datagrams, malformed,
	// non-RTPS, own echoes, unknown destinations) and the transport's.
	Engine rtps.EngineStats
	// Readers sums the counters of the engine's readers (rtps.Engine.ReaderTotals).
	Readers rtps.ReaderStats
	// Participants and Endpoints are the remote participants alive now and
	// the endpoints they announced; Unconfirmed are those of the
	// participants that have not yet taken part in the protocol (admit.go).
	Participants, Unconfirmed, Endpoints int
	SPDPReceived                         uint64 // SPDP announcements processed
	SPDPInvalid                          uint64 // SPDP data that failed to decode (or beyond Limits), dropped
	SEDPInvalid                          uint64 // SEDP data that failed to decode (or beyond Limits), dropped
	ForeignEndpoints                     uint64 // SEDP data of an unknown participant or another participant's endpoint, dropped
	OtherDomain                          uint64 // SPDP data of another domain or domain tag, ignored
	ParticipantsLimited                  uint64 // new participants refused: the table is full of confirmed ones
	ParticipantsEvicted                  uint64 // unconfirmed participants evicted to make room for a new one
	EndpointsLimited                     uint64 // new endpoints refused by Limits.MaxEndpointsPerParticipant or MaxEndpoints
	LeaseExpired                         uint64 // participants removed because their lease expired
	Disposed                             uint64 // participants removed because they said so
	LivelinessMessages                   uint64 // participant messages (WLP) received
	// DirectedSPDP counts the directed SPDP announcements sent again to
	// participants that had not shown they knew us: follow-ups and answers
	// to their repeated announcements (see maxDirected).
	DirectedSPDP uint64
}

type counters struct {
	spdp, spdpInvalid, sedpInvalid, foreign, otherDomain atomic.Uint64
	partLimited, epLimited, leaseExpired, disposed, wlp  atomic.Uint64
	evicted                                              atomic.Uint64
	spdpDirected                                         atomic.Uint64
}

// Participant is a running DDS domain participant's RTPS side: the engine
// with its sockets, SPDP (announcements, leases), SEDP (the reliable
// built-in publications and subscriptions endpoints), the participant
// message protocol and the matching of local writers and readers with the
// endpoints discovered, remote and local.
type Participant struct {
	cfg    Config
	eng    *rtps.Engine
	log    *slog.Logger
	prefix wire.GuidPrefix
	limits Limits
	// lim is limits with the defaults applied.
	lim Limits
	// lingerFor is Config.WriterLinger with its default applied.
	lingerFor time.Duration

	announce *rtps.Timer
	burst    int
	followUp *rtps.Timer // directed SPDP follow-ups, see directedTick
	lease    *rtps.Timer
	wlp      *rtps.Timer

	pubW, subW, msgW *rtps.Writer
	pubR, subR, msgR *rtps.Reader
	tl               typeLookup

	// mu guards what follows; it is taken before any endpoint lock and
	// never held while a listener runs.
	mu         sync.Mutex
	self       *remoteParticipant // our own data and endpoints (local matching)
	spdpSN     wire.SequenceNumber
	spdpData   []byte
	remotes    map[wire.GuidPrefix]*remoteParticipant
	locals     map[wire.GUID]*localEndpoint
	nextEntity uint32
	onPart     []func(ParticipantData, bool)
	onEndpoint []func(EndpointData)
	onLive     []func(wire.GuidPrefix, bool)
	builtin    []BuiltinListener
	ign        ignored
	closed     bool
	// unconfirmed queues the remote participants in the order they were
	// admitted, to evict the oldest unconfirmed one first; it may still
	// hold some confirmed or removed since (admit.go).
	unconfirmed []*remoteParticipant
	// nEndpoints is the number of endpoints of all remote participants,
	// epBytes the octets of their serialized SEDP data.
	nEndpoints, epBytes int
	// newcomers are the participants with directed SPDP follow-ups due.
	newcomers []*remoteParticipant

	// leaseMu guards leases, read by the receive path for every datagram.
	leaseMu sync.RWMutex
	leases  map[wire.GuidPrefix]*remoteParticipant

	disp dispatcher
	ctr  counters
}

// remoteParticipant is a participant discovered by SPDP (or ourselves).
type remoteParticipant struct {
	data      ParticipantData
	vendor    wire.VendorID
	lastSeen  atomic.Int64 // UnixNano of the last datagram received from it
	endpoints map[wire.GUID]*remoteEndpoint
	// raw is its last SPDP payload, to tell a changed announcement.
	raw []byte
	// confirmed is set when a submessage of the participant reached one of
	// our endpoints matched with its: it takes part in the protocol.
	confirmed atomic.Bool
	// unmatched, when not 0: our built-in endpoints are not matched with
	// its yet (a newcomer beyond maxNewcomers, see spdp.go), since the
	// datagram of this reception time (UnixNano) brought its first
	// announcement; its next datagram matches them.
	unmatched atomic.Int64
	// gone is set, under Participant.mu, when it is removed.
	gone bool
	// heard is what the OnParticipant functions and built-in listeners know of
	// it: heardPending until the dispatcher runs its first event, heardTold from
	// then on, heardWithheld when it went before that. A participant that comes
	// and goes before the listeners hear of it (unconfirmed ones evicted by a
	// flood of forged announcements, thousands a second) then costs them
	// nothing, and the dispatcher's queue holds no more than the table does.
	heard atomic.Int32
	// directed counts the directed SPDP announcements sent to it (the
	// reply to its first one, follow-ups, answers to its repeats);
	// followUps the follow-ups, the next one due at nextFollowUp;
	// lastDirected is when the last one went.
	directed, followUps        int
	nextFollowUp, lastDirected time.Time
}

// remoteEndpoint is an endpoint discovered by SEDP (or a local one).
type remoteEndpoint struct {
	data *EndpointData // never modified: a new announcement brings a new one
	size int           // octets of the serialized SEDP data it came in
}

// NewParticipant opens the sockets, starts the event loop and begins to
// announce the participant.
func NewParticipant(cfg Config) (*Participant, error) {
	if cfg.LeaseDuration <= 0 {
		cfg.LeaseDuration = DefaultParticipantLease
	}
	if cfg.AnnouncePeriod <= 0 {
		cfg.AnnouncePeriod = cfg.LeaseDuration / 3
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	p := &Participant{
		cfg: cfg, log: transport.OrDiscard(cfg.Logger), limits: cfg.Limits, lingerFor: cfg.WriterLinger,
		remotes: make(map[wire.GuidPrefix]*remoteParticipant),
		locals:  make(map[wire.GUID]*localEndpoint),
		leases:  make(map[wire.GuidPrefix]*remoteParticipant),
	}
	if p.limits.MaxParticipants == 0 {
		p.limits.MaxParticipants = cfg.MaxParticipants
	}
	if p.limits.MaxEndpoints == 0 {
		p.limits.MaxEndpoints = cfg.MaxEndpoints
	}
	p.lim = p.limits.resolved()
	if p.lingerFor == 0 {
		p.lingerFor = DefaultWriterLinger
	}
	eng, err := rtps.NewEngine(rtps.EngineConfig{
		GUIDPrefix: wire.GuidPrefix(cfg.GUIDPrefix),
		Transport: transport.Config{
			Domain: cfg.Domain, IndexMode: cfg.Index, ParticipantIndex: cfg.ParticipantIndex,
			Interfaces: cfg.Interfaces, Peers: cfg.Peers, Net: cfg.Net,
			DisableMulticast: cfg.DisableMulticast, Logger: p.log,
			Ports:      transport.PortMapping(cfg.Ports),
			ReadBuffer: cfg.ReadBuffer, WriteBuffer: cfg.WriteBuffer,
			BusyPoll: cfg.BusyPoll, Helper: cfg.Helper,
		},
		Logger:          p.log,
		Now:             cfg.Now,
		OnTraffic:       p.onTraffic,
		NoLocalDelivery: cfg.NoLocalDelivery || cfg.Net != nil,
	})
	if err != nil {
		return nil, fmt.Errorf("discovery: %w", err)
	}
	p.eng = eng
	p.prefix = eng.GUIDPrefix()
	p.disp.start()
	tr := eng.Transport()
	// No default multicast locator: user traffic to us is unicast, and a
	// group locator shared by every participant makes Fast DDS 2.9
	// reach several of our readers through it alone, never opening
	// (nor registering with its statistics) the readers' unicast
	// locators, and abort on its next directed HEARTBEAT or GAP. See
	// docs/interop.md, "Locators we announce".
	self := ParticipantData{
		GUIDPrefix:                   p.prefix,
		ProtocolVersion:              eng.Version(),
		VendorID:                     eng.Vendor(),
		DomainID:                     uint32(cfg.Domain),
		HasDomainID:                  true,
		DefaultUnicastLocators:       tr.DefaultUnicastLocators(),
		MetatrafficUnicastLocators:   tr.MetatrafficUnicastLocators(),
		MetatrafficMulticastLocators: tr.MetatrafficMulticastLocators(),
		LeaseDuration:                cfg.LeaseDuration,
		BuiltinEndpoints:             builtinEndpoints | typeLookupBits(&cfg),
		Qos:                          participantQos(cfg.UserData),
		EntityName:                   cfg.Name,
		Properties:                   wire.PropertyList{Properties: ProcessProperties()},
	}
	if err := self.Check(p.limits); err != nil {
		_ = eng.Close()
		p.disp.stop()
		return nil, fmt.Errorf("discovery: participant data: %w", err)
	}
	p.self = &remoteParticipant{data: self, vendor: self.VendorID, endpoints: make(map[wire.GUID]*remoteEndpoint)}
	p.spdpSN = 1
	p.spdpData = self.Append(nil)
	p.startBuiltins()
	p.lease = eng.NewTimer(p.checkLeases)
	p.burst = InitialAnnouncements - 1
	p.announce = eng.NewTimer(p.announceTick)
	p.followUp = eng.NewTimer(p.directedTick)
	p.wlp = eng.NewTimer(p.wlpTick)
	// From now on the event loop may call into p.
	eng.HandleRaw(wire.EntityIDSPDPWriter, p.onSPDP)
	// Only then the first announcement: a peer answers it at once (Fast
	// DDS within 0.3 ms, on loopback), and an answer handled before
	// onSPDP is registered is lost; Fast DDS does not answer our next
	// announcements of the initial burst (it knows us), its pre-emptive
	// ACKNACKs reach a participant we do not know, and nothing moves until
	// its periodic announcement 3 s later (TimeToMatch: 2.5 s under
	// load).
	p.announce.Schedule(eng.Now())
	p.wlp.Schedule(eng.Now())
	return p, nil
}

// GUIDPrefix returns the participant's GUID prefix.
func (p *Participant) GUIDPrefix() wire.GuidPrefix { return p.prefix }

// Engine returns the participant's RTPS engine (transport, locators,
// endpoints).
func (p *Participant) Engine() *rtps.Engine { return p.eng }

// OnParticipant registers fn to be called, on the participant's serial
// dispatcher goroutine, when a remote participant is discovered or announces
// changed data (alive true) or goes away (lease expired or disposed: alive
// false). The
// participants already discovered are reported to fn first, so that none
// discovered before the call is missed.
func (p *Participant) OnParticipant(fn func(ParticipantData, bool)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.onPart = append(p.onPart, fn)
	fns := make([]func(), 0, len(p.remotes))
	for _, rp := range p.remotes {
		pd := rp.data
		fns = append(fns, func() {
			if rp.tell() {
				fn(pd, true)
			}
		})
	}
	// Posted under p.mu, like every participant event, so that fn sees
	// them in the order they happened.
	p.disp.post(fns...)
}

// OnEndpoint registers fn to be called, on the participant's serial
// dispatcher goroutine, when an endpoint of a remote participant is first
// announced (matched or not: INCONSISTENT_TOPIC looks at every one). The
// endpoints already known are reported to fn first.
func (p *Participant) OnEndpoint(fn func(EndpointData)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.onEndpoint = append(p.onEndpoint, fn)
	var fns []func()
	for _, rp := range p.remotes {
		for _, re := range rp.endpoints {
			ed := re.data
			fns = append(fns, func() { fn(*ed) })
		}
	}
	p.disp.post(fns...)
}

// Participants returns the remote participants alive now.
func (p *Participant) Participants() []ParticipantData {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]ParticipantData, 0, len(p.remotes))
	for _, rp := range p.remotes {
		out = append(out, rp.data)
	}
	return out
}

// Endpoints returns the endpoints the remote participants announced.
func (p *Participant) Endpoints() []EndpointData {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []EndpointData
	for _, rp := range p.remotes {
		for _, re := range rp.endpoints {
			out = append(out, *re.data)
		}
	}
	return out
}

// Stats returns a snapshot of the participant's counters.
func (p *Participant) Stats() Stats {
	p.mu.Lock()
	n, ne, nu := len(p.remotes), p.nEndpoints, p.unconfirmedLocked()
	p.mu.Unlock()
	c := &p.ctr
	return Stats{
		Engine: p.eng.Stats(), Readers: p.eng.ReaderTotals(), Participants: n, Unconfirmed: nu, Endpoints: ne, ParticipantsEvicted: c.evicted.Load(),
		SPDPReceived: c.spdp.Load(), SPDPInvalid: c.spdpInvalid.Load(), SEDPInvalid: c.sedpInvalid.Load(),
		ForeignEndpoints: c.foreign.Load(), OtherDomain: c.otherDomain.Load(),
		ParticipantsLimited: c.partLimited.Load(), EndpointsLimited: c.epLimited.Load(),
		LeaseExpired: c.leaseExpired.Load(), Disposed: c.disposed.Load(), LivelinessMessages: c.wlp.Load(),
		DirectedSPDP: c.spdpDirected.Load(),
	}
}

// Close withdraws the local endpoints (SEDP disposals) and the participant
// (SPDP disposal), stops the event loop and the dispatcher, and closes the
// sockets.
func (p *Participant) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	locals := make([]*localEndpoint, 0, len(p.locals))
	for _, l := range p.locals {
		locals = append(locals, l)
	}
	p.mu.Unlock()
	for _, l := range locals {
		_ = p.closeLocal(l)
	}
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	p.sendSPDPDisposal()
	err := p.eng.Close()
	p.disp.stop()
	return err
}

// onTraffic renews the lease of the participant a datagram came from, and
// confirms it when heard (see admit.go).
func (p *Participant) onTraffic(src wire.GuidPrefix, heard bool, now time.Time) {
	p.leaseMu.RLock()
	rp := p.leases[src]
	p.leaseMu.RUnlock()
	if rp != nil {
		rp.lastSeen.Store(now.UnixNano())
		if heard && !rp.confirmed.Load() {
			rp.confirmed.Store(true)
		}
		if at := rp.unmatched.Load(); at != 0 && at != now.UnixNano() && rp.unmatched.CompareAndSwap(at, 0) {
			p.mu.Lock()
			if !rp.gone && !p.closed {
				p.connectBuiltins(rp, true)
			}
			p.mu.Unlock()
		}
	}
}

// LastHeard returns when the remote participant prefix last sent a datagram that
// reached us (zero when it is not known): what renews its AUTOMATIC writers'
// liveliness, as any traffic renews Cyclone DDS's proxy participant lease.
func (p *Participant) LastHeard(prefix wire.GuidPrefix) time.Time {
	p.leaseMu.RLock()
	rp := p.leases[prefix]
	p.leaseMu.RUnlock()
	if rp == nil {
		return time.Time{}
	}
	return time.Unix(0, rp.lastSeen.Load())
}

// vendorOf returns the vendor of a known participant.
func (p *Participant) vendorOf(prefix wire.GuidPrefix) (wire.VendorID, bool) {
	p.leaseMu.RLock()
	rp := p.leases[prefix]
	p.leaseMu.RUnlock()
	if rp == nil {
		return wire.VendorID{}, false
	}
	return rp.vendor, true
}

// checkLeases removes the participants whose lease expired and returns
// when the next one expires.
func (p *Participant) checkLeases(now time.Time) time.Time {
	var expired []wire.GuidPrefix
	var next time.Time
	p.mu.Lock()
	for prefix, rp := range p.remotes {
		exp := time.Unix(0, rp.lastSeen.Load()).Add(rp.data.LeaseDuration)
		if !now.Before(exp) {
			expired = append(expired, prefix)
		} else if next.IsZero() || exp.Before(next) {
			next = exp
		}
	}
	p.mu.Unlock()
	for _, prefix := range expired {
		p.removeParticipant(prefix, &p.ctr.leaseExpired, "lease")
	}
	if len(expired) > 0 { // the queue of the unconfirmed lets go of them
		p.mu.Lock()
		p.compactUnconfirmed()
		p.mu.Unlock()
	}
	return next
}

// dispatcher runs listener calls one after the other on its own goroutine,
// outside every lock of the participant.
type dispatcher struct {
	mu     sync.Mutex
	queue  []func()
	signal chan struct{}
	done   chan struct{}
	stopCh chan struct{}
}

func (d *dispatcher) start() {
	d.signal = make(chan struct{}, 1)
	d.done = make(chan struct{})
	d.stopCh = make(chan struct{})
	go d.run()
}

func (d *dispatcher) run() {
	defer close(d.done)
	for {
		if d.drain() > 0 {
			continue
		}
		select {
		case <-d.signal:
		case <-d.stopCh:
			return
		}
	}
}

// post queues fns to run in order.
func (d *dispatcher) post(fns ...func()) {
	if len(fns) == 0 {
		return
	}
	d.mu.Lock()
	d.queue = append(d.queue, fns...)
	d.mu.Unlock()
	select {
	case d.signal <- struct{}{}:
	default:
	}
}

// stop lets the calls queued so far run, then ends the goroutine.
func (d *dispatcher) stop() {
	close(d.stopCh)
	<-d.done
	d.drain()
}

// drain runs the calls queued so far, outside d.mu, and says how many ran.
func (d *dispatcher) drain() int {
	d.mu.Lock()
	q := d.queue
	d.queue = nil
	d.mu.Unlock()
	for _, fn := range q {
		fn()
	}
	return len(q)
}

// participantQos is the QoS a participant with USER_DATA ud announces.
func participantQos(ud []byte) qos.DomainParticipantQos {
	q := qos.DefaultDomainParticipantQos()
	q.UserData.Value = ud
	return q
}
