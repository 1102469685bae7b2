package memnet

import (
	"container/heap"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/netip"
	"sync"
	"time"

	"github.com/ddsgo/ddsgo/internal/transport"
)

// MaxDatagram is the largest datagram a socket sends, as for IPv4 UDP.
const MaxDatagram = 65507

// DefaultQueueLen is the receive queue length of a socket when
// Config.QueueLen is zero.
const DefaultQueueLen = 256

// firstEphemeralPort is where a host's ephemeral ports start.
const firstEphemeralPort = 32768

var (
	errTooBig = errors.New("memnet: datagram too large")
	loopback  = netip.AddrFrom4([4]byte{127, 0, 0, 1})
)

// Impairments are applied to every delivery of a datagram to a socket
// (each receiver of a multicast datagram draws its own fate), including
// deliveries between sockets of one host. Probabilities are in [0, 1].
type Impairments struct {
	// Loss is the probability that a delivery is lost.
	Loss float64
	// Duplicate is the probability that a delivery happens twice.
	Duplicate float64
	// Reorder is the probability that a delivery is held back by
	// ReorderDelay, so that later datagrams overtake it.
	Reorder float64
	// Delay is the fixed one-way delay.
	Delay time.Duration
	// Jitter adds a uniformly drawn delay in [0, Jitter).
	Jitter time.Duration
	// ReorderDelay is the extra delay of a reordered delivery. Zero:
	// Delay + Jitter + 1 ms.
	ReorderDelay time.Duration
}

// validate checks the probabilities and durations.
func (im Impairments) validate() error {
	for _, p := range []float64{im.Loss, im.Duplicate, im.Reorder} {
		if !(p >= 0 && p <= 1) {
			return fmt.Errorf("memnet: probability %v not in [0, 1]", p)
		}
	}
	if im.Delay < 0 || im.Jitter < 0 || im.ReorderDelay < 0 {
		return errors.New("memnet: negative delay")
	}
	return nil
}

// Config configures a [Network].
type Config struct {
	// Seed seeds the random source of every impairment decision: the same
	// seed and the same sequence of sends give the same fates.
	Seed uint64
	// Impairments start applied; change them with SetImpairments.
	Impairments Impairments
	// QueueLen is each socket's receive queue length; a delivery to a full
	// queue is dropped and counted. Zero: DefaultQueueLen.
	QueueLen int
}

// Stats counts what a [Network] did with the datagrams sent.
type Stats struct {
	Sent       uint64 // datagrams accepted by WriteTo
	Delivered  uint64 // deliveries put in a receive queue
	Lost       uint64 // deliveries dropped by Loss
	Duplicated uint64 // extra deliveries made by Duplicate
	Reordered  uint64 // deliveries held back by Reorder
	QueueDrops uint64 // deliveries dropped because the receive queue was full
	NoRoute    uint64 // datagrams or deliveries with no socket to go to, or to or from a host that is down
}

// Network is an in-memory IPv4 network of hosts with unicast and
// multicast, and seeded impairments. Its hosts implement transport.Net.
// Create it, its hosts and their sockets inside the testing/synctest
// bubble that uses them: delays run on time.AfterFunc timers.
type Network struct {
	mu       sync.Mutex
	rng      *rand.Rand
	imp      Impairments
	queueLen int
	hosts    map[netip.Addr]*Host
	groups   map[netip.AddrPort][]*Conn
	pending  deliveries
	seq      uint64
	timer    *time.Timer
	stats    Stats
}

// New returns an empty network.
func New(cfg Config) (*Network, error) {
	if err := cfg.Impairments.validate(); err != nil {
		return nil, err
	}
	if cfg.QueueLen <= 0 {
		cfg.QueueLen = DefaultQueueLen
	}
	return &Network{
		rng:      rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15)),
		imp:      cfg.Impairments,
		queueLen: cfg.QueueLen,
		hosts:    make(map[netip.Addr]*Host),
		groups:   make(map[netip.AddrPort][]*Conn),
	}, nil
}

// SetImpairments replaces the impairments for datagrams sent from now on.
func (n *Network) SetImpairments(im Impairments) error {
	if err := im.validate(); err != nil {
		return err
	}
	n.mu.Lock()
	n.imp = im
	n.mu.Unlock()
	return nil
}

// Stats returns the network's counters.
func (n *Network) Stats() Stats { return transport.Locked(&n.mu, &n.stats) }

// Pending returns the number of delayed deliveries not yet made.
func (n *Network) Pending() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.pending)
}

// Close drops the delayed deliveries and stops the delivery timer. Sockets
// stay open; close them yourself.
func (n *Network) Close() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.pending = nil
	if n.timer != nil {
		n.timer.Stop()
	}
}

// AddHost adds a host with one interface "eth0" holding addr (a unicast
// IPv4 address, /24) and a loopback interface "lo" with 127.0.0.1/8.
func (n *Network) AddHost(name string, addr netip.Addr) (*Host, error) {
	addr = addr.Unmap()
	if !addr.Is4() || addr.IsMulticast() || addr.IsLoopback() || addr.IsUnspecified() {
		return nil, fmt.Errorf("memnet: host address %s is not a unicast IPv4 address", addr)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if _, ok := n.hosts[addr]; ok {
		return nil, fmt.Errorf("memnet: address %s already used", addr)
	}
	h := &Host{
		net: n, name: name, addr: addr,
		ports:    make(map[uint16][]*Conn),
		nextPort: firstEphemeralPort,
		ifs: []transport.Interface{
			{Name: "lo", Index: 1, MTU: 65536, Flags: net.FlagUp | net.FlagLoopback | net.FlagMulticast, Addrs: []netip.Prefix{netip.PrefixFrom(loopback, 8)}},
			{Name: "eth0", Index: 2, MTU: 1500, Flags: net.FlagUp | net.FlagBroadcast | net.FlagMulticast, Addrs: []netip.Prefix{netip.PrefixFrom(addr, 24)}},
		},
	}
	n.hosts[addr] = h
	return h, nil
}

// Host is a machine on a [Network]. It implements transport.Net.
type Host struct {
	net      *Network
	name     string
	addr     netip.Addr
	ifs      []transport.Interface
	ports    map[uint16][]*Conn // unicast sockets by port, guarded by net.mu
	nextPort uint16
	down     bool
}

var _ transport.Net = (*Host)(nil)

// Name returns the host's name.
func (h *Host) Name() string { return h.name }

// Addr returns the host's address.
func (h *Host) Addr() netip.Addr { return h.addr }

// SetDown cuts the host off (true) or reconnects it: while it is down,
// every datagram to or from it is dropped and counted in NoRoute, as if
// the machine had crashed, but its sockets stay open.
func (h *Host) SetDown(down bool) {
	h.net.mu.Lock()
	h.down = down
	h.net.mu.Unlock()
}

// Interfaces implements transport.Net.
func (h *Host) Interfaces() ([]transport.Interface, error) {
	out := make([]transport.Interface, len(h.ifs))
	copy(out, h.ifs)
	return out, nil
}

// ListenUDP implements transport.Net. laddr may be unspecified, the host's
// address or 127.0.0.1; a port is exclusive unless every socket bound to it
// set ReuseAddr.
func (h *Host) ListenUDP(laddr netip.AddrPort, opts transport.SocketOptions) (transport.PacketConn, error) {
	a := laddr.Addr().Unmap()
	if !a.IsValid() {
		a = netip.IPv4Unspecified()
	}
	if a != netip.IPv4Unspecified() && a != h.addr && a != loopback {
		return nil, fmt.Errorf("%w: memnet: %s is not an address of host %s", transport.ErrAddress, a, h.name)
	}
	n := h.net
	n.mu.Lock()
	defer n.mu.Unlock()
	port := laddr.Port()
	if port == 0 {
		var ok bool
		if port, ok = h.ephemeral(); !ok {
			return nil, fmt.Errorf("memnet: host %s: no free port", h.name)
		}
	}
	for _, o := range h.ports[port] {
		if !opts.ReuseAddr || !o.opts.ReuseAddr {
			return nil, fmt.Errorf("%w: memnet: %s:%d on host %s", transport.ErrPortInUse, a, port, h.name)
		}
	}
	c := h.newConn(netip.AddrPortFrom(a, port), netip.Addr{}, opts)
	h.ports[port] = append(h.ports[port], c)
	return c, nil
}

// ephemeral returns a free port from 32768 upwards, wrapping around.
func (h *Host) ephemeral() (uint16, bool) {
	for range 65536 - firstEphemeralPort {
		p := h.nextPort
		h.nextPort++
		if h.nextPort == 0 {
			h.nextPort = firstEphemeralPort
		}
		if len(h.ports[p]) == 0 {
			return p, true
		}
	}
	return 0, false
}

// ListenMulticastUDP implements transport.Net. The socket receives the
// datagrams sent to group from every host, and from its own host when the
// sender set MulticastLoopback. Each entry of ifs must name one of the
// host's interfaces; the network is one segment, so which one does not
// matter.
func (h *Host) ListenMulticastUDP(group netip.AddrPort, ifs []transport.Interface, opts transport.SocketOptions) (transport.PacketConn, error) {
	g := group.Addr().Unmap()
	if !g.Is4() || !g.IsMulticast() {
		return nil, fmt.Errorf("%w: memnet: %s is not an IPv4 multicast group", transport.ErrAddress, group)
	}
	for _, ifi := range ifs {
		found := false
		for _, hi := range h.ifs {
			found = found || hi.Name == ifi.Name
		}
		if !found {
			return nil, fmt.Errorf("%w: memnet: host %s has no interface %q", transport.ErrNoInterface, h.name, ifi.Name)
		}
	}
	n := h.net
	n.mu.Lock()
	defer n.mu.Unlock()
	key := netip.AddrPortFrom(g, group.Port())
	c := h.newConn(key, g, opts)
	n.groups[key] = append(n.groups[key], c)
	return c, nil
}

func (h *Host) newConn(local netip.AddrPort, group netip.Addr, opts transport.SocketOptions) *Conn {
	return &Conn{
		host: h, local: local, group: group, opts: opts,
		queue: make(chan datagram, h.net.queueLen),
		done:  make(chan struct{}),
	}
}

// datagram is a queued datagram; data is shared by all its deliveries and
// never written after the send.
type datagram struct {
	data []byte
	src  netip.AddrPort
}

// Conn is a socket of a [Host]. It implements transport.BatchConn.
type Conn struct {
	host   *Host
	local  netip.AddrPort
	group  netip.Addr // valid for a multicast socket
	opts   transport.SocketOptions
	queue  chan datagram
	done   chan struct{}
	closed bool // guarded by net.mu
}

var _ transport.BatchConn = (*Conn)(nil)

// LocalAddr implements transport.PacketConn.
func (c *Conn) LocalAddr() netip.AddrPort { return c.local }

// ReadFrom implements transport.PacketConn.
func (c *Conn) ReadFrom(b []byte) (int, netip.AddrPort, error) {
	select {
	case d := <-c.queue:
		return copy(b, d.data), d.src, nil
	case <-c.done:
		return 0, netip.AddrPort{}, fmt.Errorf("memnet: read %s: %w", c.local, net.ErrClosed)
	}
}

// ReadBatch implements transport.BatchConn: it waits for one datagram and
// takes the ones already queued behind it.
func (c *Conn) ReadBatch(ms []transport.Message) (int, error) {
	if len(ms) == 0 {
		return 0, nil
	}
	var err error
	if ms[0].N, ms[0].Addr, err = c.ReadFrom(ms[0].Buf); err != nil {
		return 0, err
	}
	for i := 1; i < len(ms); i++ {
		select {
		case d := <-c.queue:
			ms[i].N, ms[i].Addr = copy(ms[i].Buf, d.data), d.src
		default:
			return i, nil
		}
	}
	return len(ms), nil
}

// WriteBatch implements transport.BatchConn.
func (c *Conn) WriteBatch(ms []transport.Message) (int, error) {
	return transport.WriteEach(c, ms)
}

// Close implements transport.PacketConn.
func (c *Conn) Close() error {
	n := c.host.net
	n.mu.Lock()
	defer n.mu.Unlock()
	if c.closed {
		return fmt.Errorf("memnet: close %s: %w", c.local, net.ErrClosed)
	}
	c.closed = true
	close(c.done)
	if c.group.IsValid() {
		n.groups[c.local] = remove(n.groups[c.local], c)
		if len(n.groups[c.local]) == 0 {
			delete(n.groups, c.local)
		}
	} else {
		h := c.host
		h.ports[c.local.Port()] = remove(h.ports[c.local.Port()], c)
		if len(h.ports[c.local.Port()]) == 0 {
			delete(h.ports, c.local.Port())
		}
	}
	return nil
}

func remove(cs []*Conn, c *Conn) []*Conn {
	for i, o := range cs {
		if o == c {
			return append(cs[:i:i], cs[i+1:]...)
		}
	}
	return cs
}

// WriteTo implements transport.PacketConn. A datagram to a multicast group
// goes to every socket that joined it, except those of the sender's host
// unless MulticastLoopback is set; a unicast datagram goes to the first
// socket bound to the destination port of the host owning the address
// (127.0.0.0/8: the sender's host). Nothing listening is not an error, as
// with UDP.
func (c *Conn) WriteTo(b []byte, dst netip.AddrPort) (int, error) {
	if len(b) > MaxDatagram {
		return 0, fmt.Errorf("memnet: write to %s: %w (%d bytes)", dst, errTooBig, len(b))
	}
	da := dst.Addr().Unmap()
	if !da.Is4() || dst.Port() == 0 {
		return 0, fmt.Errorf("%w: memnet: destination %s", transport.ErrAddress, dst)
	}
	n := c.host.net
	n.mu.Lock()
	defer n.mu.Unlock()
	if c.closed {
		return 0, fmt.Errorf("memnet: write %s: %w", c.local, net.ErrClosed)
	}
	n.stats.Sent++
	if c.host.down {
		n.stats.NoRoute++
		return len(b), nil
	}
	data := append([]byte(nil), b...)
	src := c.source(da)
	if da.IsMulticast() {
		delivered := false
		for _, r := range n.groups[netip.AddrPortFrom(da, dst.Port())] {
			if r.host == c.host && !c.opts.MulticastLoopback {
				continue
			}
			delivered = true
			n.impair(r, datagram{data, src})
		}
		if !delivered {
			n.stats.NoRoute++
		}
		return len(b), nil
	}
	var h *Host
	if da.IsLoopback() {
		h = c.host
	} else {
		h = n.hosts[da]
	}
	if h == nil || len(h.ports[dst.Port()]) == 0 {
		n.stats.NoRoute++
		return len(b), nil
	}
	n.impair(h.ports[dst.Port()][0], datagram{data, src})
	return len(b), nil
}

// source returns the source address of a datagram from c to dst.
func (c *Conn) source(dst netip.Addr) netip.AddrPort {
	a := c.local.Addr()
	switch {
	case c.group.IsValid():
		a = c.host.addr
	case dst.IsLoopback():
		a = loopback
	case a.IsUnspecified() || a.IsLoopback():
		a = c.host.addr
	}
	return netip.AddrPortFrom(a, c.local.Port())
}

// impair decides the fate of one delivery to r and makes or schedules it.
// It runs with n.mu held.
func (n *Network) impair(r *Conn, d datagram) {
	if r.host.down {
		n.stats.NoRoute++
		return
	}
	im := n.imp
	if im.Loss > 0 && n.rng.Float64() < im.Loss {
		n.stats.Lost++
		return
	}
	copies := 1
	if im.Duplicate > 0 && n.rng.Float64() < im.Duplicate {
		copies = 2
		n.stats.Duplicated++
	}
	for range copies {
		delay := im.Delay
		if im.Jitter > 0 {
			delay += time.Duration(n.rng.Int64N(int64(im.Jitter)))
		}
		if im.Reorder > 0 && n.rng.Float64() < im.Reorder {
			rd := im.ReorderDelay
			if rd == 0 {
				rd = im.Delay + im.Jitter + time.Millisecond
			}
			delay += rd
			n.stats.Reordered++
		}
		if delay == 0 {
			n.enqueue(r, d)
			continue
		}
		n.seq++
		heap.Push(&n.pending, delivery{at: time.Now().Add(delay), seq: n.seq, to: r, d: d})
	}
	n.armTimer()
}

// enqueue puts d in r's receive queue, dropping it when full. It runs with
// n.mu held.
func (n *Network) enqueue(r *Conn, d datagram) {
	if r.closed {
		n.stats.NoRoute++
		return
	}
	select {
	case r.queue <- d:
		n.stats.Delivered++
	default:
		n.stats.QueueDrops++
	}
}

// armTimer sets the delivery timer to the earliest pending delivery. It
// runs with n.mu held.
func (n *Network) armTimer() {
	if len(n.pending) == 0 {
		return
	}
	d := max(time.Until(n.pending[0].at), 0)
	if n.timer == nil {
		n.timer = time.AfterFunc(d, n.fire)
		return
	}
	n.timer.Reset(d)
}

// fire makes the deliveries that are due, in order of due time and then of
// scheduling, and re-arms the timer.
func (n *Network) fire() {
	n.mu.Lock()
	defer n.mu.Unlock()
	now := time.Now()
	for len(n.pending) > 0 && !n.pending[0].at.After(now) {
		dl := heap.Pop(&n.pending).(delivery)
		n.enqueue(dl.to, dl.d)
	}
	n.armTimer()
}

// delivery is a delayed delivery.
type delivery struct {
	at  time.Time
	seq uint64
	to  *Conn
	d   datagram
}

// deliveries is a min-heap by (at, seq).
type deliveries []delivery

func (h deliveries) Len() int { return len(h) }
func (h deliveries) Less(i, j int) bool {
	if h[i].at.Equal(h[j].at) {
		return h[i].seq < h[j].seq
	}
	return h[i].at.Before(h[j].at)
}
func (h deliveries) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *deliveries) Push(x any)   { *h = append(*h, x.(delivery)) }
func (h *deliveries) Pop() any {
	old := *h
	x := old[len(old)-1]
	old[len(old)-1] = delivery{}
	*h = old[:len(old)-1]
	return x
}
