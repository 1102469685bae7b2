package wire

import (
	"errors"
	"fmt"
)

// ErrNotRTPS is returned by ParseHeader and Reader.Reset for input that does
// not start with the protocol id "RTPS" (for example the 1-byte datagrams
// Cyclone DDS sends to its own sockets on shutdown, or RTI's "RTPX"). A
// receiver drops such datagrams silently.
var ErrNotRTPS = errors.New("wire: not an RTPS message")

// ErrVersion is returned by ParseHeader for an RTPS major version other
// than 2 (RTPS 2.5 §8.3.6.3: a receiver ignores messages of another major
// version).
var ErrVersion = errors.New("wire: unsupported RTPS major version")

var errShortHeader = fmt.Errorf("wire: message header: %w", ErrTruncated)

// Header is the 20-byte header that starts every RTPS message (RTPS 2.5
// §8.3.3.1, §9.4.4): the protocol id "RTPS", the protocol version, the
// vendor id and the GUID prefix of the sending participant. All its fields
// are octets, so it has no byte order.
type Header struct {
	Version ProtocolVersion
	Vendor  VendorID
	Prefix  GuidPrefix
}

// ParseHeader reads a message header from the start of b and returns the
// number of bytes consumed (20). It fails with ErrNotRTPS unless b starts
// with "RTPS", and with ErrVersion unless the major version is 2; minor
// versions are all accepted.
func ParseHeader(b []byte) (Header, int, error) {
	var h Header
	if len(b) < 4 || b[0] != 'R' || b[1] != 'T' || b[2] != 'P' || b[3] != 'S' {
		return h, 0, ErrNotRTPS
	}
	if len(b) < HeaderLen {
		return h, 0, errShortHeader
	}
	h.Version = ProtocolVersion{b[4], b[5]}
	if h.Version.Major != 2 {
		return h, 0, ErrVersion
	}
	h.Vendor = VendorID{b[6], b[7]}
	copy(h.Prefix[:], b[8:20])
	return h, HeaderLen, nil
}

// Append appends the 20 octets of h to b.
func (h Header) Append(b []byte) []byte {
	b = append(b, 'R', 'T', 'P', 'S', h.Version.Major, h.Version.Minor, h.Vendor[0], h.Vendor[1])
	return append(b, h.Prefix[:]...)
}

// Len returns the wire size of h (20).
func (h Header) Len() int { return HeaderLen }
