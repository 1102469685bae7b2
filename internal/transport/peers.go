package transport

import (
	"fmt"
	"net"
	"strconv"
	"strings"
)

// Peer is an entry of the static unicast peer list: a host that SPDP
// announcements are sent to directly, for networks without multicast.
type Peer struct {
	// Host is an IPv4 address literal or a host name.
	Host string
	// Port is the UDP port; 0 means "probe the well-known metatraffic
	// unicast ports of participant indices 0..N-1" (see [Config].PeerProbe).
	Port uint16
}

// String formats p as "host:port" or "host".
func (p Peer) String() string {
	if p.Port == 0 {
		return p.Host
	}
	return net.JoinHostPort(p.Host, strconv.Itoa(int(p.Port)))
}

// ParsePeer parses "host:port" or "host" (an IPv4 address or a host name;
// an IPv6 literal in brackets is rejected for now).
func ParsePeer(s string) (Peer, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Peer{}, fmt.Errorf("%w: empty peer", ErrAddress)
	}
	host, port := s, ""
	if strings.Contains(s, ":") {
		h, p, err := net.SplitHostPort(s)
		if err != nil {
			return Peer{}, fmt.Errorf("%w: peer %q: %w", ErrAddress, s, err)
		}
		host, port = h, p
	}
	if host == "" || strings.ContainsAny(host, ":[]/ ") {
		return Peer{}, fmt.Errorf("%w: peer %q: bad host", ErrAddress, s)
	}
	pr := Peer{Host: host}
	if port != "" {
		n, err := strconv.ParseUint(port, 10, 16)
		if err != nil || n == 0 {
			return Peer{}, fmt.Errorf("%w: peer %q: bad port", ErrAddress, s)
		}
		pr.Port = uint16(n)
	}
	return pr, nil
}
