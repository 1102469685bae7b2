//go:build !linux

package transport

import (
	"net"
	"net/netip"
)

// rawIO is Linux's (rawio_linux.go); elsewhere there is none and net's calls serve,
// without a busy poll.
type rawIO struct{}

func newRawIO(*net.UDPConn, SocketOptions) *rawIO { return nil }

func (*rawIO) readFrom([]byte) (int, netip.AddrPort, bool, error) {
	return 0, netip.AddrPort{}, false, nil
}

func (*rawIO) close() {}

func (*rawIO) writeTo([]byte, netip.AddrPort) (int, bool, error) { return 0, false, nil }
