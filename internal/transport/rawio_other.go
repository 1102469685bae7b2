//go:build !linux

package transport

import (
	"net"
	"net/netip"
)

// rawIO is Linux's (rawio_linux.go); elsewhere there is none and net's calls serve.
type rawIO struct{}

func newRawIO(*net.UDPConn) *rawIO { return nil }

func (*rawIO) readFrom([]byte) (int, netip.AddrPort, error) {
	return 0, netip.AddrPort{}, nil
}

func (*rawIO) writeTo([]byte, netip.AddrPort) (int, bool, error) { return 0, false, nil }
