package testutil

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"syscall"
	"time"
	"unsafe"
)

// TOSReceiver is a UDP socket on loopback that reports the IP TOS octet of
// each datagram it reads (IP_RECVTOS), for the TRANSPORT_PRIORITY tests.
type TOSReceiver struct {
	c *net.UDPConn
}

// NewTOSReceiver opens a TOSReceiver on 127.0.0.1 and an ephemeral port.
func NewTOSReceiver() (*TOSReceiver, error) {
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return nil, err
	}
	rc, err := c.SyscallConn()
	if err != nil {
		_ = c.Close()
		return nil, err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) {
		serr = syscall.SetsockoptInt(int(fd), syscall.IPPROTO_IP, syscall.IP_RECVTOS, 1)
	}); err != nil || serr != nil {
		_ = c.Close()
		return nil, errors.Join(err, serr)
	}
	return &TOSReceiver{c: c}, nil
}

// Addr returns the address the receiver listens on.
func (r *TOSReceiver) Addr() netip.AddrPort { return r.c.LocalAddr().(*net.UDPAddr).AddrPort() }

// Read reads one datagram, waiting up to timeout, and returns it with its TOS
// octet.
func (r *TOSReceiver) Read(timeout time.Duration) (msg []byte, tos int, err error) {
	if err := r.c.SetReadDeadline(time.Now().Add(timeout)); err != nil {
		return nil, 0, err
	}
	buf := make([]byte, 65536)
	oob := make([]byte, 128)
	n, oobn, _, _, err := r.c.ReadMsgUDPAddrPort(buf, oob)
	if err != nil {
		return nil, 0, err
	}
	cms, err := syscall.ParseSocketControlMessage(oob[:oobn])
	if err != nil {
		return nil, 0, err
	}
	for _, cm := range cms {
		if cm.Header.Level == syscall.IPPROTO_IP && cm.Header.Type == syscall.IP_TOS && len(cm.Data) > 0 {
			return buf[:n], int(cm.Data[0]), nil
		}
	}
	return buf[:n], 0, errors.New("testutil: no IP_TOS control message")
}

// Close closes the socket.
func (r *TOSReceiver) Close() error { return r.c.Close() }

// Capture reads the IPv4 UDP datagrams that cross the loopback interface
// (an AF_PACKET socket: it needs CAP_NET_RAW, which the test network
// namespace gives), with their TOS octet.
type Capture struct{ fd int }

// captureBuffer is the receive buffer a Capture asks for.
const captureBuffer = 16 << 20

// NewCapture opens a Capture on lo.
func NewCapture() (*Capture, error) {
	lo, err := net.InterfaceByName("lo")
	if err != nil {
		return nil, err
	}
	const ethPIP = 0x0800
	proto := int(ethPIP>>8 | (ethPIP&0xff)<<8) // network order
	fd, err := syscall.Socket(syscall.AF_PACKET, syscall.SOCK_DGRAM, proto)
	if err != nil {
		return nil, err
	}
	if err := syscall.Bind(fd, &syscall.SockaddrLinklayer{Protocol: uint16(proto), Ifindex: lo.Index}); err != nil {
		_ = syscall.Close(fd)
		return nil, err
	}
	// The socket sees every datagram on lo, the whole test suite's when it runs in one
	// namespace: a small buffer overflows under load and loses the datagram looked for
	// (TestTransportPriority failed so in CI). Take a large one (FORCE: above rmem_max,
	// which root in the namespace may).
	if syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_RCVBUFFORCE, captureBuffer) != nil {
		_ = syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_RCVBUF, captureBuffer)
	}
	tv := syscall.NsecToTimeval(int64(50 * time.Millisecond))
	if err := syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv); err != nil {
		_ = syscall.Close(fd)
		return nil, err
	}
	return &Capture{fd: fd}, nil
}

// Next returns the UDP payload and TOS octet of the next IPv4 UDP datagram
// seen on lo for which keep (given its source port and payload) returns
// true, waiting until deadline. Loopback shows each datagram twice: sent and
// received.
func (c *Capture) Next(deadline time.Time, keep func(srcPort uint16, payload []byte) bool) (payload []byte, tos int, err error) {
	buf := make([]byte, 65536)
	for time.Now().Before(deadline) {
		n, _, err := syscall.Recvfrom(c.fd, buf, 0)
		if errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return nil, 0, err
		}
		p := buf[:n]
		if len(p) < 20 || p[0]>>4 != 4 || p[9] != syscall.IPPROTO_UDP {
			continue
		}
		ihl := int(p[0]&0xf) * 4
		if len(p) < ihl+8 {
			continue
		}
		if udp := p[ihl+8:]; keep(uint16(p[ihl])<<8|uint16(p[ihl+1]), udp) {
			return append([]byte(nil), udp...), int(p[1]), nil
		}
	}
	return nil, 0, fmt.Errorf("testutil: no matching datagram captured (%d dropped by the capture socket)", c.Drops())
}

// Drops returns the number of datagrams the capture socket dropped for want of room
// since the last call (PACKET_STATISTICS).
func (c *Capture) Drops() uint32 {
	var st struct{ packets, drops uint32 }
	n := uint32(unsafe.Sizeof(st))
	_, _, e := syscall.Syscall6(syscall.SYS_GETSOCKOPT, uintptr(c.fd), syscall.SOL_PACKET, packetStatistics,
		uintptr(unsafe.Pointer(&st)), uintptr(unsafe.Pointer(&n)), 0)
	if e != 0 {
		return 0
	}
	return st.drops
}

// packetStatistics is PACKET_STATISTICS (linux/if_packet.h).
const packetStatistics = 6

// Close closes the capture socket.
func (c *Capture) Close() error { return syscall.Close(c.fd) }
