package transport

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"sync/atomic"

	pion "github.com/pion/transport/v3"
)

// NewPionNet adapts a pion/transport/v3 Net, typically a vnet.Net, to
// [Net], for unicast impairment tests (vnet routers take loss, delay and
// duplication filters). vnet has no multicast: ListenMulticastUDP returns
// ErrMulticastUnsupported, so a [Transport] over it needs DisableMulticast
// and static Peers. Options other than the address are ignored.
func NewPionNet(n pion.Net) Net { return pionNet{n} }

type pionNet struct{ n pion.Net }

func (p pionNet) ListenUDP(laddr netip.AddrPort, _ SocketOptions) (PacketConn, error) {
	a := laddr.Addr().Unmap()
	if !a.IsValid() {
		a = netip.IPv4Unspecified()
	}
	if !a.Is4() {
		return nil, fmt.Errorf("%w: %s is not IPv4", ErrAddress, laddr)
	}
	c, err := p.n.ListenUDP("udp4", net.UDPAddrFromAddrPort(netip.AddrPortFrom(a, laddr.Port())))
	if err != nil {
		// vnet reports a taken port only by its message.
		if strings.Contains(err.Error(), "address already in use") {
			return nil, fmt.Errorf("%w: %s: %w", ErrPortInUse, laddr, err)
		}
		return nil, fmt.Errorf("transport: listen %s: %w", laddr, err)
	}
	pc := &pionConn{c: c}
	if ua, ok := c.LocalAddr().(*net.UDPAddr); ok {
		ap := ua.AddrPort()
		pc.local = netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())
	}
	return pc, nil
}

func (pionNet) ListenMulticastUDP(netip.AddrPort, []Interface, SocketOptions) (PacketConn, error) {
	return nil, ErrMulticastUnsupported
}

func (p pionNet) Interfaces() ([]Interface, error) {
	ifs, err := p.n.Interfaces()
	if err != nil {
		return nil, fmt.Errorf("transport: %w", err)
	}
	out := make([]Interface, 0, len(ifs))
	for _, ifc := range ifs {
		addrs, err := ifc.Addrs()
		if err != nil && !errors.Is(err, pion.ErrNoAddressAssigned) {
			return nil, fmt.Errorf("transport: addresses of %s: %w", ifc.Name, err)
		}
		out = append(out, interfaceOf(ifc.Interface, addrs))
	}
	return out, nil
}

// pionConn adapts a pion UDPConn; it reports reads after Close with
// net.ErrClosed, which vnet does not.
type pionConn struct {
	c      pion.UDPConn
	local  netip.AddrPort
	closed atomic.Bool
}

func (c *pionConn) ReadFrom(b []byte) (int, netip.AddrPort, error) {
	n, ua, err := c.c.ReadFromUDP(b)
	if err != nil {
		if c.closed.Load() {
			return 0, netip.AddrPort{}, fmt.Errorf("transport: read: %w", net.ErrClosed)
		}
		return 0, netip.AddrPort{}, err
	}
	ap := ua.AddrPort()
	return n, netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()), nil
}

func (c *pionConn) WriteTo(b []byte, dst netip.AddrPort) (int, error) {
	if c.closed.Load() {
		return 0, fmt.Errorf("transport: write: %w", net.ErrClosed)
	}
	return c.c.WriteToUDP(b, net.UDPAddrFromAddrPort(dst))
}

func (c *pionConn) LocalAddr() netip.AddrPort { return c.local }

func (c *pionConn) Close() error {
	if c.closed.Swap(true) {
		return fmt.Errorf("transport: close: %w", net.ErrClosed)
	}
	return c.c.Close()
}
