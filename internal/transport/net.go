package transport

import (
	"errors"
	"net"
	"net/netip"
	"time"
)

// Errors shared by every [Net] implementation. Test for them with errors.Is.
var (
	// ErrPortInUse is wrapped by ListenUDP when the requested port is
	// taken; participant index allocation moves on to the next index.
	ErrPortInUse = errors.New("transport: port in use")
	// ErrMulticastUnsupported is returned by ListenMulticastUDP of a
	// network without multicast (the pion vnet adapter).
	ErrMulticastUnsupported = errors.New("transport: multicast not supported by this network")
	// ErrNoInterface is wrapped by errors about interface selection.
	ErrNoInterface = errors.New("transport: no usable interface")
	// ErrAddress is wrapped by errors about an address that is not IPv4 or
	// not of the kind an operation expects.
	ErrAddress = errors.New("transport: unsupported address")
)

// Net opens sockets and lists network interfaces. [UDPNet] uses the
// operating system; memnet.Host is an in-memory network for deterministic
// tests; [NewPionNet] adapts a pion/transport vnet for unicast impairment
// tests. Only IPv4 is supported.
type Net interface {
	// ListenUDP opens a unicast socket bound to laddr. An invalid or
	// unspecified address binds all interfaces; port 0 picks an ephemeral
	// port. A port that is taken gives an error wrapping ErrPortInUse
	// (unless opts.ReuseAddr allows sharing it).
	ListenUDP(laddr netip.AddrPort, opts SocketOptions) (PacketConn, error)
	// ListenMulticastUDP opens a socket on group's port that receives the
	// datagrams sent to group, joined on each of ifs (on the system's
	// default interface when ifs is empty). The port is always shared
	// (SO_REUSEADDR and SO_REUSEPORT): several participants of one host
	// listen on the same discovery port.
	ListenMulticastUDP(group netip.AddrPort, ifs []Interface, opts SocketOptions) (PacketConn, error)
	// Interfaces lists the network interfaces.
	Interfaces() ([]Interface, error)
}

// SocketOptions configures a socket opened by a [Net]. The zero value is a
// plain socket with the system defaults.
type SocketOptions struct {
	// ReuseAddr sets SO_REUSEADDR and SO_REUSEPORT on a unicast socket.
	// Leave it off for unicast ports that identify a participant index.
	ReuseAddr bool
	// MulticastInterface is the interface datagrams sent to a multicast
	// group leave by. Zero: the system's choice.
	MulticastInterface Interface
	// MulticastTTL is the time-to-live of multicast datagrams sent. Zero
	// means 1 (the link only).
	MulticastTTL int
	// MulticastLoopback delivers the multicast datagrams this socket sends
	// to the sockets of the same host that joined the group. Off by default
	// for a bare socket; [Transport] always turns it on, or two participants
	// of one host never meet.
	MulticastLoopback bool
	// ReadBuffer and WriteBuffer set SO_RCVBUF and SO_SNDBUF in bytes. Zero:
	// the system default.
	ReadBuffer, WriteBuffer int
	// TOS is the IP TOS octet (DSCP and ECN) of the datagrams sent; on Linux
	// it also sets SO_PRIORITY (see PriorityTOS). Zero: the system default.
	// The in-memory networks ignore it.
	TOS int
	// BusyPoll keeps a read that finds the socket empty trying again for up
	// to this long after the socket's last datagram, yielding the processor
	// between tries, before it waits in Go's netpoller: a datagram that
	// arrives meanwhile skips the netpoller's wake-up. Zero: wait at once.
	// Linux only (rawio_linux.go); the in-memory networks ignore it.
	BusyPoll time.Duration
	// Poll, when BusyPoll is zero, polls like BusyPoll where it judges a
	// reply near (Poll's doc); shared by a participant's user-traffic
	// sockets. Nil: none. Linux only, as BusyPoll.
	Poll *Poll
}

// PacketConn is a datagram socket. Its methods may be called concurrently.
// Close makes blocked and later reads and writes fail with an error that
// wraps net.ErrClosed.
type PacketConn interface {
	// ReadFrom reads one datagram into b and returns its length and the
	// source address. A datagram longer than b is truncated.
	ReadFrom(b []byte) (n int, src netip.AddrPort, err error)
	// WriteTo sends b as one datagram to dst.
	WriteTo(b []byte, dst netip.AddrPort) (int, error)
	// LocalAddr returns the address the socket is bound to.
	LocalAddr() netip.AddrPort
	// Close closes the socket.
	Close() error
}

// Message is one datagram of a batch read or write.
type Message struct {
	// Buf holds the datagram to send, or receives the datagram read.
	Buf []byte
	// N is the length of the datagram read or the number of bytes sent.
	N int
	// Addr is the destination of a write or the source of a read.
	Addr netip.AddrPort
}

// BatchConn is a PacketConn that moves several datagrams per system call
// (recvmmsg/sendmmsg on Linux). [ReadBatch] and [WriteBatch] use it when a
// PacketConn implements it and fall back to one datagram per call
// otherwise.
type BatchConn interface {
	PacketConn
	// ReadBatch blocks until at least one datagram is available and reads
	// up to len(ms) datagrams; it returns how many it read.
	ReadBatch(ms []Message) (int, error)
	// WriteBatch sends the datagrams of ms and returns how many were sent.
	WriteBatch(ms []Message) (int, error)
}

// ReadBatch reads up to len(ms) datagrams from c, with one system call when
// c is a [BatchConn] and one datagram otherwise.
func ReadBatch(c PacketConn, ms []Message) (int, error) {
	if len(ms) == 0 {
		return 0, nil
	}
	if bc, ok := c.(BatchConn); ok {
		return bc.ReadBatch(ms)
	}
	n, src, err := c.ReadFrom(ms[0].Buf)
	if err != nil {
		return 0, err
	}
	ms[0].N, ms[0].Addr = n, src
	return 1, nil
}

// WriteBatch sends all datagrams of ms over c, batched when c is a
// [BatchConn]. It returns how many were sent before the first error.
func WriteBatch(c PacketConn, ms []Message) (int, error) {
	if bc, ok := c.(BatchConn); ok {
		sent := 0
		for sent < len(ms) {
			n, err := bc.WriteBatch(ms[sent:])
			sent += n
			if err != nil {
				return sent, err
			}
			if n == 0 {
				return sent, errors.New("transport: batch write made no progress")
			}
		}
		return sent, nil
	}
	return WriteEach(c, ms)
}

// WriteEach sends the datagrams of ms over c one at a time, for a conn
// without batch writes (or one that implements them so). It returns how
// many were sent before the first error.
func WriteEach(c PacketConn, ms []Message) (int, error) {
	for i := range ms {
		n, err := c.WriteTo(ms[i].Buf, ms[i].Addr)
		if err != nil {
			return i, err
		}
		ms[i].N = n
	}
	return len(ms), nil
}

// Interface describes a network interface.
type Interface struct {
	Name  string
	Index int // positive; zero in the zero Interface
	MTU   int
	Flags net.Flags
	// Addrs are the interface's addresses with their prefix lengths.
	Addrs []netip.Prefix
}

// interfaceOf returns ifc as an Interface whose Addrs are the IP networks among addrs,
// IPv4-mapped ones as IPv4 prefixes.
func interfaceOf(ifc net.Interface, addrs []net.Addr) Interface {
	i := Interface{Name: ifc.Name, Index: ifc.Index, MTU: ifc.MTU, Flags: ifc.Flags}
	for _, a := range addrs {
		ipn, ok := a.(*net.IPNet)
		if !ok {
			continue
		}
		ip, ok := netip.AddrFromSlice(ipn.IP)
		if !ok {
			continue
		}
		ones, _ := ipn.Mask.Size()
		if ip.Is4In6() && ones >= 96 {
			ones -= 96
		}
		i.Addrs = append(i.Addrs, netip.PrefixFrom(ip.Unmap(), ones))
	}
	return i
}

// IsZero reports whether i is the zero Interface (no interface).
func (i Interface) IsZero() bool { return i.Name == "" && i.Index == 0 }

// IsUp reports whether the interface is administratively up.
func (i Interface) IsUp() bool { return i.Flags&net.FlagUp != 0 }

// IsLoopback reports whether the interface is a loopback interface.
func (i Interface) IsLoopback() bool { return i.Flags&net.FlagLoopback != 0 }

// IsMulticast reports whether the interface supports multicast.
func (i Interface) IsMulticast() bool { return i.Flags&net.FlagMulticast != 0 }

// IPv4 returns the interface's first IPv4 address, or the zero Addr.
func (i Interface) IPv4() netip.Addr {
	for _, p := range i.Addrs {
		if a := p.Addr().Unmap(); a.Is4() {
			return a
		}
	}
	return netip.Addr{}
}

// HasAddr reports whether a is one of the interface's addresses.
func (i Interface) HasAddr(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range i.Addrs {
		if p.Addr().Unmap() == a {
			return true
		}
	}
	return false
}

// netInterface converts i for the standard library and x/net.
func (i Interface) netInterface() *net.Interface {
	return &net.Interface{Index: i.Index, MTU: i.MTU, Name: i.Name, Flags: i.Flags}
}
