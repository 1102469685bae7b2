package transport

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"sync"
	"time"

	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/rtps"
)

// IndexMode selects how a [Transport] picks its participant index, which
// fixes its unicast ports: the public rtps.IndexMode.
type IndexMode = rtps.IndexMode

// Participant index modes (see rtps.IndexMode).
const (
	IndexAuto  = rtps.IndexAuto
	IndexFixed = rtps.IndexFixed
	IndexNone  = rtps.IndexNone
)

// Defaults of [Config].
const (
	// DefaultMaxParticipantIndex is the last index IndexAuto tries.
	DefaultMaxParticipantIndex = 119
	// DefaultPeerProbe is how many participant indices (0..N-1) are probed
	// on a static peer given without a port.
	DefaultPeerProbe = 10
	// DefaultReadBuffer is the SO_RCVBUF asked for (the kernel may cap
	// it at net.core.rmem_max).
	DefaultReadBuffer = 2 << 20
)

// ErrNoParticipantIndex is returned by [Open] when IndexAuto finds no
// participant index with free ports.
var ErrNoParticipantIndex = errors.New("transport: no free participant index")

// ErrClosed is returned by the methods of a closed [Transport].
var ErrClosed = errors.New("transport: closed")

// Config configures a [Transport]. Every zero value is a documented
// default; Open validates it once and copies it.
type Config struct {
	// Domain is the DDS domain id; it fixes the ports (0..232 with the
	// default mapping).
	Domain int
	// IndexMode selects the participant index: zero is IndexAuto.
	IndexMode IndexMode
	// ParticipantIndex is the index used with IndexFixed.
	ParticipantIndex int
	// MaxParticipantIndex is the last index IndexAuto tries. Zero:
	// DefaultMaxParticipantIndex (bounded further by the port range).
	MaxParticipantIndex int
	// Interfaces names the interfaces to use, by name or address. Empty:
	// every up, multicast-capable, non-loopback interface with an IPv4
	// address, or loopback when there is no such interface (see
	// SelectInterfaces). The first one carries unicast traffic's
	// multicast sends and is the default multicast interface.
	Interfaces []string
	// MulticastGroup is the SPDP and user multicast group. Zero:
	// 239.255.0.1.
	MulticastGroup netip.Addr
	// DisableMulticast opens no multicast socket and sends nothing to the
	// group: discovery then relies on Peers.
	DisableMulticast bool
	// MulticastTTL is the TTL of multicast datagrams. Zero: 1.
	MulticastTTL int
	// Peers are static unicast peers, "host:port" or "host" (see
	// ParsePeer). SPDP is sent to them in addition to the group. A host
	// without port expands to the metatraffic unicast ports of participant
	// indices 0..PeerProbe-1, as Cyclone DDS and Fast DDS do. Host names are
	// resolved once, by Open.
	Peers []string
	// PeerProbe is the number of indices probed for a peer without port.
	// Zero: DefaultPeerProbe.
	PeerProbe int
	// Ports is the port mapping. Zero: DefaultPortMapping().
	Ports PortMapping
	// Net opens the sockets. Nil: UDPNet{} (the operating system).
	Net Net
	// ReadBuffer is SO_RCVBUF. Zero: DefaultReadBuffer; negative: the
	// system default.
	ReadBuffer int
	// WriteBuffer is SO_SNDBUF. Zero: the system default.
	WriteBuffer int
	// BusyPoll is the busy poll of the user-traffic sockets
	// (rtps.Config.BusyPoll): positive, SocketOptions.BusyPoll (a poll this
	// long after every datagram); zero, the adaptive Poll with
	// DefaultPollWindow; negative, none.
	BusyPoll time.Duration
	// ReadBatch is the number of datagrams read per system call (see
	// ReceiverConfig.Batch). Zero: one, with no allocation per read.
	ReadBatch int
	// Deliver receives every datagram read, on the socket's receive
	// goroutine; use a Queue's Push or PushWait for a bounded queue. Required.
	Deliver DeliverFunc
	// Helper, if set, is the ReceiverConfig.Helper of the user-traffic
	// sockets' receivers: the RTPS engine handles their datagrams on the
	// receive goroutine. The metatraffic receivers have none: their
	// datagrams go to the engine's event loop (which may make them wait,
	// Queue.PushWait), and a receiver that helps must not wait, since
	// listener work is left to it while it receives.
	Helper Helper
	// Logger receives diagnostics. Nil: discard.
	Logger *slog.Logger
}

// Transport owns the UDP sockets of one participant: metatraffic and user
// unicast on the ports of its participant index (or ephemeral ones), and
// the SPDP and user multicast groups on their shared ports, each read by
// one receive goroutine that hands datagrams to Config.Deliver.
type Transport struct {
	cfg    Config
	ifs    []Interface
	index  int
	ports  [5]uint16
	recv   [5]*Receiver
	stats  [5]Stats
	out    Stats
	send   PacketConn   // unicast sends, and multicast on ifs[0]
	mcSend []PacketConn // multicast sends, one per interface
	extra  []PacketConn // send-only sockets of ifs[1:]
	peers  []netip.AddrPort
	opts   SocketOptions // of the unicast sockets
	poll   *Poll         // the user-traffic sockets' adaptive poll; nil: none

	mu     sync.Mutex
	closed bool
	prio   map[int]PacketConn // send sockets by TOS (priority.go)
}

// Open validates cfg, opens the sockets and starts their receive
// goroutines.
func Open(cfg Config) (*Transport, error) {
	if err := cfg.normalize(); err != nil {
		return nil, err
	}
	t := &Transport{cfg: cfg, index: -1}
	if cfg.BusyPoll == 0 {
		t.poll = NewPoll(DefaultPollWindow)
	}
	all, err := cfg.Net.Interfaces()
	if err != nil {
		return nil, err
	}
	if t.ifs, err = SelectInterfaces(all, cfg.Interfaces); err != nil {
		return nil, err
	}
	if t.peers, err = cfg.resolvePeers(); err != nil {
		return nil, err
	}
	opts := SocketOptions{
		MulticastInterface: t.ifs[0],
		MulticastTTL:       cfg.MulticastTTL,
		MulticastLoopback:  true,
		ReadBuffer:         max(cfg.ReadBuffer, 0),
		WriteBuffer:        cfg.WriteBuffer,
	}
	t.opts = opts
	conns := [5]PacketConn{}
	fail := func(err error) (*Transport, error) {
		for _, c := range conns {
			if c != nil {
				_ = c.Close()
			}
		}
		for _, c := range t.extra {
			_ = c.Close()
		}
		return nil, err
	}
	if conns[SocketMetaUnicast], conns[SocketUserUnicast], err = t.openUnicast(opts); err != nil {
		return fail(err)
	}
	if !cfg.DisableMulticast {
		mp, _ := cfg.Ports.SPDPMulticastPort(cfg.Domain)
		up, _ := cfg.Ports.UserMulticastPort(cfg.Domain)
		if conns[SocketMetaMulticast], err = cfg.Net.ListenMulticastUDP(netip.AddrPortFrom(cfg.MulticastGroup, mp), t.ifs, opts); err != nil {
			return fail(err)
		}
		if conns[SocketUserMulticast], err = cfg.Net.ListenMulticastUDP(netip.AddrPortFrom(cfg.MulticastGroup, up), t.ifs, t.userOpts()); err != nil {
			return fail(err)
		}
		t.mcSend = append(t.mcSend, conns[SocketMetaUnicast])
		for _, ifi := range t.ifs[1:] {
			o := opts
			o.MulticastInterface = ifi
			c, err := cfg.Net.ListenUDP(netip.AddrPortFrom(ifi.IPv4(), 0), o)
			if err != nil {
				return fail(err)
			}
			t.extra = append(t.extra, c)
			t.mcSend = append(t.mcSend, c)
		}
	}
	t.send = conns[SocketMetaUnicast]
	for k, c := range conns {
		if c == nil {
			continue
		}
		t.ports[k] = c.LocalAddr().Port()
		var h Helper
		if kind := SocketKind(k); kind == SocketUserUnicast || kind == SocketUserMulticast {
			h = cfg.Helper
		}
		t.recv[k] = StartReceiver(c, ReceiverConfig{
			Kind: SocketKind(k), Deliver: cfg.Deliver, Batch: cfg.ReadBatch,
			Stats: &t.stats[k], Logger: cfg.Logger, Helper: h,
		})
	}
	cfg.Logger.Debug("transport: open", "domain", cfg.Domain, "index", t.index,
		"metaUnicast", t.ports[SocketMetaUnicast], "userUnicast", t.ports[SocketUserUnicast],
		"interfaces", len(t.ifs), "multicast", !cfg.DisableMulticast)
	return t, nil
}

// OrDiscard returns l, or a logger that discards everything when l is nil:
// the default of the Logger fields of the engine's configurations.
func OrDiscard(l *slog.Logger) *slog.Logger {
	if l == nil {
		return slog.New(slog.DiscardHandler)
	}
	return l
}

// Locked returns a copy of *p read under mu: the snapshot getters of the
// engine's types (an endpoint's counters, a memnet network's statistics)
// whose fields other goroutines update under that lock.
func Locked[T any](mu *sync.Mutex, p *T) T {
	mu.Lock()
	defer mu.Unlock()
	return *p
}

// normalize applies the defaults and validates c.
func (c *Config) normalize() error {
	if c.Deliver == nil {
		return errors.New("transport: Config.Deliver is nil")
	}
	if c.Net == nil {
		c.Net = UDPNet{}
	}
	c.Logger = OrDiscard(c.Logger)
	if c.Ports == (PortMapping{}) {
		c.Ports = DefaultPortMapping()
	}
	if err := c.Ports.ValidateDomain(c.Domain); err != nil {
		return err
	}
	if !c.MulticastGroup.IsValid() {
		c.MulticastGroup = DefaultMulticastGroup
	}
	c.MulticastGroup = c.MulticastGroup.Unmap()
	if !c.MulticastGroup.Is4() || !c.MulticastGroup.IsMulticast() {
		return fmt.Errorf("%w: group %s is not IPv4 multicast", ErrAddress, c.MulticastGroup)
	}
	if c.MaxParticipantIndex <= 0 {
		c.MaxParticipantIndex = DefaultMaxParticipantIndex
	}
	c.MaxParticipantIndex = min(c.MaxParticipantIndex, c.Ports.MaxParticipantIndex(c.Domain))
	if c.PeerProbe <= 0 {
		c.PeerProbe = DefaultPeerProbe
	}
	c.PeerProbe = min(c.PeerProbe, c.Ports.MaxParticipantIndex(c.Domain)+1)
	if c.ReadBuffer == 0 {
		c.ReadBuffer = DefaultReadBuffer
	}
	if c.MulticastTTL < 0 || c.MulticastTTL > 255 {
		return fmt.Errorf("transport: multicast TTL %d not in 0..255", c.MulticastTTL)
	}
	switch c.IndexMode {
	case IndexFixed:
		if _, err := c.Ports.UserUnicastPort(c.Domain, c.ParticipantIndex); err != nil {
			return err
		}
	case IndexAuto, IndexNone:
	default:
		return fmt.Errorf("transport: unknown %v", c.IndexMode)
	}
	c.Interfaces = append([]string(nil), c.Interfaces...)
	c.Peers = append([]string(nil), c.Peers...)
	return nil
}

// resolvePeers expands the static peer list into destinations.
func (c *Config) resolvePeers() ([]netip.AddrPort, error) {
	var out []netip.AddrPort
	for _, s := range c.Peers {
		p, err := ParsePeer(s)
		if err != nil {
			return nil, err
		}
		addrs, err := resolveHost(p.Host)
		if err != nil {
			return nil, err
		}
		for _, a := range addrs {
			if p.Port != 0 {
				out = append(out, netip.AddrPortFrom(a, p.Port))
				continue
			}
			for i := range c.PeerProbe {
				port, _ := c.Ports.MetaUnicastPort(c.Domain, i)
				out = append(out, netip.AddrPortFrom(a, port))
			}
		}
	}
	return out, nil
}

// resolveHost returns the IPv4 addresses of host, a literal or a name.
func resolveHost(host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(host); err == nil {
		if a = a.Unmap(); !a.Is4() {
			return nil, fmt.Errorf("%w: peer %s is not IPv4", ErrAddress, host)
		}
		return []netip.Addr{a}, nil
	}
	addrs, err := net.DefaultResolver.LookupNetIP(context.Background(), "ip4", host)
	if err != nil {
		return nil, fmt.Errorf("transport: resolve peer %s: %w", host, err)
	}
	for i := range addrs {
		addrs[i] = addrs[i].Unmap()
	}
	return addrs, nil
}

// userOpts returns the options of the user-traffic sockets: those of the
// unicast sockets with the busy poll.
func (t *Transport) userOpts() SocketOptions {
	o := t.opts
	o.BusyPoll, o.Poll = t.cfg.BusyPoll, t.poll
	return o
}

// openUnicast binds the metatraffic and user unicast sockets according to
// the index mode, and records the index.
func (t *Transport) openUnicast(opts SocketOptions) (meta, user PacketConn, err error) {
	c := &t.cfg
	listen := func(port uint16, o SocketOptions) (PacketConn, error) {
		return c.Net.ListenUDP(netip.AddrPortFrom(netip.IPv4Unspecified(), port), o)
	}
	uo := t.userOpts()
	bind := func(port uint16) (PacketConn, error) { return listen(port, opts) }
	bindUser := func(port uint16) (PacketConn, error) { return listen(port, uo) }
	pair := func(i int) (PacketConn, PacketConn, error) {
		mp, err := c.Ports.MetaUnicastPort(c.Domain, i)
		if err != nil {
			return nil, nil, err
		}
		up, err := c.Ports.UserUnicastPort(c.Domain, i)
		if err != nil {
			return nil, nil, err
		}
		m, err := bind(mp)
		if err != nil {
			return nil, nil, err
		}
		u, err := bindUser(up)
		if err != nil {
			_ = m.Close()
			return nil, nil, err
		}
		return m, u, nil
	}
	switch c.IndexMode {
	case IndexFixed:
		if meta, user, err = pair(c.ParticipantIndex); err == nil {
			t.index = c.ParticipantIndex
		}
		return meta, user, err
	case IndexNone:
		if meta, err = bind(0); err != nil {
			return nil, nil, err
		}
		if user, err = bindUser(0); err != nil {
			_ = meta.Close()
			return nil, nil, err
		}
		return meta, user, nil
	case IndexAuto:
	}
	for i := 0; i <= c.MaxParticipantIndex; i++ {
		meta, user, err = pair(i)
		if err == nil {
			t.index = i
			return meta, user, nil
		}
		if !errors.Is(err, ErrPortInUse) {
			return nil, nil, err
		}
	}
	return nil, nil, fmt.Errorf("%w: indices 0..%d of domain %d are taken", ErrNoParticipantIndex, c.MaxParticipantIndex, c.Domain)
}

// ParticipantIndex returns the participant index, or -1 with IndexNone.
func (t *Transport) ParticipantIndex() int { return t.index }

// Domain returns the domain id.
func (t *Transport) Domain() int { return t.cfg.Domain }

// Interfaces returns the interfaces in use; the first one is the default.
func (t *Transport) Interfaces() []Interface { return append([]Interface(nil), t.ifs...) }

// UDPv4Overhead is the IPv4 and UDP header size that a link's MTU also carries.
const UDPv4Overhead = 20 + 8

// MaxDatagram returns the largest UDP payload that crosses every interface in use
// without IP fragmentation (its MTU less UDPv4Overhead), or 0 when no interface tells
// its MTU.
func (t *Transport) MaxDatagram() int {
	m := 0
	for _, i := range t.ifs {
		if i.MTU > UDPv4Overhead && (m == 0 || i.MTU-UDPv4Overhead < m) {
			m = i.MTU - UDPv4Overhead
		}
	}
	return m
}

// Port returns the local port of the socket of kind k, 0 if there is none.
func (t *Transport) Port(k SocketKind) uint16 {
	if int(k) >= len(t.ports) {
		return 0
	}
	return t.ports[k]
}

// unicastLocators returns one UDPv4 locator per interface address on port.
func (t *Transport) unicastLocators(port uint16) []wire.Locator {
	var out []wire.Locator
	for _, ifi := range t.ifs {
		out = append(out, wire.LocatorFromAddrPort(netip.AddrPortFrom(ifi.IPv4(), port)))
	}
	return out
}

// multicastLocators returns the group locator on port, none when multicast
// is disabled.
func (t *Transport) multicastLocators(k SocketKind) []wire.Locator {
	if t.cfg.DisableMulticast {
		return nil
	}
	return []wire.Locator{wire.LocatorFromAddrPort(netip.AddrPortFrom(t.cfg.MulticastGroup, t.ports[k]))}
}

// MetatrafficUnicastLocators returns the locators to announce as
// PID_METATRAFFIC_UNICAST_LOCATOR: each interface's address with the
// metatraffic unicast port.
func (t *Transport) MetatrafficUnicastLocators() []wire.Locator {
	return t.unicastLocators(t.ports[SocketMetaUnicast])
}

// MetatrafficMulticastLocators returns the SPDP group locator, to announce
// as PID_METATRAFFIC_MULTICAST_LOCATOR (none without multicast).
func (t *Transport) MetatrafficMulticastLocators() []wire.Locator {
	return t.multicastLocators(SocketMetaMulticast)
}

// DefaultUnicastLocators returns the user traffic unicast locators, to
// announce as PID_DEFAULT_UNICAST_LOCATOR.
func (t *Transport) DefaultUnicastLocators() []wire.Locator {
	return t.unicastLocators(t.ports[SocketUserUnicast])
}

// DefaultMulticastLocators returns the user multicast group locator, to
// announce as PID_DEFAULT_MULTICAST_LOCATOR (none without multicast).
func (t *Transport) DefaultMulticastLocators() []wire.Locator {
	return t.multicastLocators(SocketUserMulticast)
}

// SPDPDestinations returns where SPDP announcements go: the SPDP group
// (unless multicast is disabled), then the expanded static peers.
func (t *Transport) SPDPDestinations() []netip.AddrPort {
	var out []netip.AddrPort
	if !t.cfg.DisableMulticast {
		out = append(out, netip.AddrPortFrom(t.cfg.MulticastGroup, t.ports[SocketMetaMulticast]))
	}
	return append(out, t.peers...)
}

// WriteTo sends b as one datagram to dst. A multicast destination is sent
// once per interface in use. It allocates nothing.
func (t *Transport) WriteTo(b []byte, dst netip.AddrPort) error {
	if !dst.Addr().IsMulticast() {
		return t.write(t.send, b, dst)
	}
	if len(t.mcSend) == 0 {
		return fmt.Errorf("%w: multicast is disabled", ErrAddress)
	}
	var first error
	for _, c := range t.mcSend {
		if err := t.write(c, b, dst); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func (t *Transport) write(c PacketConn, b []byte, dst netip.AddrPort) error {
	t.poll.Sent(b)
	n, err := c.WriteTo(b, dst)
	if err != nil {
		t.out.WriteErrors.Add(1)
		return err
	}
	t.out.DatagramsOut.Add(1)
	t.out.BytesOut.Add(uint64(n))
	return nil
}

// WriteToLocator sends b to a UDPv4 locator; other kinds give an error
// wrapping ErrAddress.
func (t *Transport) WriteToLocator(b []byte, l wire.Locator) error {
	ap, ok := l.AddrPort()
	if !ok || l.Kind != wire.LocatorKindUDPv4 {
		return fmt.Errorf("%w: locator %v", ErrAddress, l)
	}
	return t.WriteTo(b, ap)
}

// WriteBatch sends the unicast datagrams of ms in as few system calls as
// the platform allows and returns how many were sent.
func (t *Transport) WriteBatch(ms []Message) (int, error) { return t.WriteBatchConn(nil, ms) }

// WriteBatchConn is WriteBatch through the send socket c from PriorityConn
// (nil: the default one).
func (t *Transport) WriteBatchConn(c PacketConn, ms []Message) (int, error) {
	for i := range ms {
		if ms[i].Addr.Addr().IsMulticast() {
			return 0, fmt.Errorf("%w: WriteBatch is unicast only", ErrAddress)
		}
	}
	if c == nil {
		c = t.send
	}
	if len(ms) > 0 {
		t.poll.Sent(ms[0].Buf)
	}
	n, err := WriteBatch(c, ms)
	t.out.DatagramsOut.Add(uint64(n))
	for i := range n {
		t.out.BytesOut.Add(uint64(ms[i].N))
	}
	if err != nil {
		t.out.WriteErrors.Add(1)
	}
	return n, err
}

// Stats returns the sum of the counters of all sockets.
func (t *Transport) Stats() StatsSnapshot {
	s := t.out.Snapshot()
	for i := range t.stats {
		s = s.Add(t.stats[i].Snapshot())
	}
	return s
}

// SocketStats returns the receive counters of the socket of kind k.
func (t *Transport) SocketStats(k SocketKind) StatsSnapshot {
	if int(k) >= len(t.stats) {
		return StatsSnapshot{}
	}
	return t.stats[k].Snapshot()
}

// Close closes every socket and waits for the receive goroutines to exit.
// Packets already delivered stay valid until released.
func (t *Transport) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return ErrClosed
	}
	t.closed = true
	var errs []error
	for _, r := range t.recv {
		if r != nil {
			errs = append(errs, r.Close())
		}
	}
	for _, c := range t.extra {
		errs = append(errs, c.Close())
	}
	t.closePriority()
	return errors.Join(errs...)
}
