package transport

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"syscall"

	"golang.org/x/net/ipv4"
)

// UDPNet is the [Net] of the operating system: IPv4 UDP sockets, multicast
// through golang.org/x/net/ipv4 (JoinGroup on each chosen interface,
// multicast loopback as configured, never net.ListenMulticastUDP, which
// turns loopback off). Its sockets implement [BatchConn] with
// recvmmsg/sendmmsg on Linux and one datagram per call elsewhere.
type UDPNet struct{}

var _ Net = UDPNet{}

// ListenUDP implements [Net].
func (UDPNet) ListenUDP(laddr netip.AddrPort, opts SocketOptions) (PacketConn, error) {
	a := laddr.Addr().Unmap()
	if !a.IsValid() {
		a = netip.IPv4Unspecified()
	}
	if !a.Is4() {
		return nil, fmt.Errorf("%w: %s is not IPv4", ErrAddress, laddr)
	}
	return listenUDP(netip.AddrPortFrom(a, laddr.Port()), opts, opts.ReuseAddr, false)
}

// ListenMulticastUDP implements [Net]. The socket binds the unspecified
// address on the group's port (Go binds a multicast address as the
// wildcard anyway), so a unicast datagram sent to that port reaches one of
// the sockets sharing it, as with Cyclone DDS; the RTPS engine must accept
// any datagram on any socket.
func (UDPNet) ListenMulticastUDP(group netip.AddrPort, ifs []Interface, opts SocketOptions) (PacketConn, error) {
	g := group.Addr().Unmap()
	if !g.Is4() || !g.IsMulticast() {
		return nil, fmt.Errorf("%w: %s is not an IPv4 multicast group", ErrAddress, group)
	}
	pc, err := listenUDP(netip.AddrPortFrom(netip.IPv4Unspecified(), group.Port()), opts, true, true)
	if err != nil {
		return nil, err
	}
	c := pc.(*udpConn)
	ga := &net.UDPAddr{IP: g.AsSlice()}
	if len(ifs) == 0 {
		err = c.p.JoinGroup(nil, ga)
	}
	for _, ifi := range ifs {
		if err = c.p.JoinGroup(ifi.netInterface(), ga); err != nil {
			err = fmt.Errorf("transport: join %s on %s: %w", g, ifi.Name, err)
			break
		}
	}
	if err != nil {
		_ = c.Close()
		return nil, err
	}
	return c, nil
}

// Interfaces implements [Net].
func (UDPNet) Interfaces() ([]Interface, error) {
	ifs, err := net.Interfaces()
	if err != nil {
		return nil, fmt.Errorf("transport: %w", err)
	}
	out := make([]Interface, 0, len(ifs))
	for _, ifi := range ifs {
		addrs, err := ifi.Addrs()
		if err != nil {
			return nil, fmt.Errorf("transport: addresses of %s: %w", ifi.Name, err)
		}
		out = append(out, interfaceOf(ifi, addrs))
	}
	return out, nil
}

// listenUDP opens an IPv4 UDP socket bound to bind and applies opts; reuse
// shares the port, group restricts a multicast socket to its own groups.
func listenUDP(bind netip.AddrPort, opts SocketOptions, reuse, group bool) (PacketConn, error) {
	lc := net.ListenConfig{Control: func(_, _ string, rc syscall.RawConn) error {
		var serr error
		err := rc.Control(func(fd uintptr) {
			if reuse {
				serr = setReuse(fd)
			}
			if serr == nil && group {
				serr = setGroupsOwnOnly(fd)
			}
		})
		if err != nil {
			return err
		}
		return serr
	}}
	pc, err := lc.ListenPacket(context.Background(), "udp4", bind.String())
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return nil, fmt.Errorf("%w: %s: %w", ErrPortInUse, bind, err)
		}
		return nil, fmt.Errorf("transport: listen %s: %w", bind, err)
	}
	uc := pc.(*net.UDPConn)
	c := &udpConn{c: uc, p: ipv4.NewPacketConn(uc), raw: newRawIO(uc, opts)}
	if err := c.configure(opts); err != nil {
		_ = uc.Close()
		return nil, err
	}
	c.local = uc.LocalAddr().(*net.UDPAddr).AddrPort()
	c.local = netip.AddrPortFrom(c.local.Addr().Unmap(), c.local.Port())
	return c, nil
}

// udpConn is a PacketConn over *net.UDPConn with batch I/O through x/net.
type udpConn struct {
	c     *net.UDPConn
	p     *ipv4.PacketConn
	local netip.AddrPort
	raw   *rawIO // nil: net's calls (rawio_linux.go)

	rmu sync.Mutex
	rms []ipv4.Message
	rbs [][1][]byte

	wmu sync.Mutex
	wms []ipv4.Message
	wbs [][1][]byte
	was []net.UDPAddr
	wip [][4]byte
}

func (c *udpConn) configure(o SocketOptions) error {
	ttl := o.MulticastTTL
	if ttl <= 0 {
		ttl = 1
	}
	if err := c.p.SetMulticastTTL(ttl); err != nil {
		return fmt.Errorf("transport: multicast TTL: %w", err)
	}
	if err := c.p.SetMulticastLoopback(o.MulticastLoopback); err != nil {
		return fmt.Errorf("transport: multicast loopback: %w", err)
	}
	if !o.MulticastInterface.IsZero() {
		if err := c.p.SetMulticastInterface(o.MulticastInterface.netInterface()); err != nil {
			return fmt.Errorf("transport: multicast interface %s: %w", o.MulticastInterface.Name, err)
		}
	}
	if o.ReadBuffer > 0 {
		if err := c.c.SetReadBuffer(o.ReadBuffer); err != nil {
			return fmt.Errorf("transport: read buffer: %w", err)
		}
	}
	if o.WriteBuffer > 0 {
		if err := c.c.SetWriteBuffer(o.WriteBuffer); err != nil {
			return fmt.Errorf("transport: write buffer: %w", err)
		}
	}
	if o.TOS != 0 {
		if err := c.p.SetTOS(o.TOS); err != nil {
			return fmt.Errorf("transport: TOS %#x: %w", o.TOS, err)
		}
		if err := setPriority(c.c, o.TOS); err != nil {
			return fmt.Errorf("transport: socket priority: %w", err)
		}
	}
	return nil
}

func (c *udpConn) ReadFrom(b []byte) (int, netip.AddrPort, error) {
	n, src, _, err := c.readPolled(b)
	return n, src, err
}

// readPolled is ReadFrom that also reports whether the busy poll found the
// datagram (SocketOptions.BusyPoll).
func (c *udpConn) readPolled(b []byte) (int, netip.AddrPort, bool, error) {
	if c.raw != nil {
		return c.raw.readFrom(b)
	}
	n, src, err := c.c.ReadFromUDPAddrPort(b)
	return n, netip.AddrPortFrom(src.Addr().Unmap(), src.Port()), false, err
}

func (c *udpConn) WriteTo(b []byte, dst netip.AddrPort) (int, error) {
	if c.raw != nil {
		if n, ok, err := c.raw.writeTo(b, dst); ok {
			return n, err
		}
	}
	return c.c.WriteToUDPAddrPort(b, dst)
}

func (c *udpConn) LocalAddr() netip.AddrPort { return c.local }

func (c *udpConn) Close() error {
	if c.raw != nil {
		c.raw.close()
	}
	return c.c.Close()
}

// grow makes room for n messages with their one-buffer slices.
func growMsgs(ms []ipv4.Message, bs [][1][]byte, n int) ([]ipv4.Message, [][1][]byte) {
	if len(ms) >= n {
		return ms, bs
	}
	ms = make([]ipv4.Message, n)
	bs = make([][1][]byte, n)
	for i := range ms {
		ms[i].Buffers = bs[i][:]
	}
	return ms, bs
}

func (c *udpConn) ReadBatch(ms []Message) (int, error) {
	c.rmu.Lock()
	defer c.rmu.Unlock()
	c.rms, c.rbs = growMsgs(c.rms, c.rbs, len(ms))
	rms := c.rms[:len(ms)]
	for i := range ms {
		rms[i].Buffers[0] = ms[i].Buf
	}
	n, err := c.p.ReadBatch(rms, 0)
	for i := range n {
		ms[i].N = rms[i].N
		if ua, ok := rms[i].Addr.(*net.UDPAddr); ok {
			ap := ua.AddrPort()
			ms[i].Addr = netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())
		} else {
			ms[i].Addr = netip.AddrPort{}
		}
		rms[i].Buffers[0], rms[i].Addr = nil, nil
	}
	return n, err
}

func (c *udpConn) WriteBatch(ms []Message) (int, error) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if len(c.wms) < len(ms) {
		c.wms, c.wbs = growMsgs(nil, nil, len(ms))
		c.was = make([]net.UDPAddr, len(ms))
		c.wip = make([][4]byte, len(ms))
	}
	wms := c.wms[:len(ms)]
	for i := range ms {
		a := ms[i].Addr.Addr().Unmap()
		if !a.Is4() {
			return 0, fmt.Errorf("%w: %s is not IPv4", ErrAddress, ms[i].Addr)
		}
		c.wip[i] = a.As4()
		c.was[i] = net.UDPAddr{IP: c.wip[i][:], Port: int(ms[i].Addr.Port())}
		wms[i].Buffers[0] = ms[i].Buf
		wms[i].Addr = &c.was[i]
	}
	n, err := c.p.WriteBatch(wms, 0)
	for i := range n {
		ms[i].N = wms[i].N
	}
	for i := range wms {
		wms[i].Buffers[0], wms[i].Addr = nil, nil
	}
	return n, err
}
