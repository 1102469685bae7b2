package transport

import (
	"errors"
	"fmt"
	"math"
	"net/netip"
)

// Well-known port mapping parameters (RTPS 2.5 §9.6.1.1): port numbers are
// PB + DG·domainId + offset (+ PG·participantIndex for unicast ports).
const (
	PortBase            = 7400 // PB
	DomainIDGain        = 250  // DG
	ParticipantIDGain   = 2    // PG
	OffsetMetaMulticast = 0    // d0: SPDP multicast
	OffsetMetaUnicast   = 10   // d1: SPDP/SEDP unicast
	OffsetUserMulticast = 1    // d2: user traffic multicast
	OffsetUserUnicast   = 11   // d3: user traffic unicast
)

// DefaultMaxDomainID is the largest domain id of the default mapping (232):
// above it the user unicast port of participant index 0 exceeds 65535.
const DefaultMaxDomainID = (math.MaxUint16 - PortBase - OffsetUserUnicast) / DomainIDGain

// DefaultMulticastGroup is the IPv4 multicast group of SPDP and of user
// multicast traffic (RTPS 2.5 §9.6.1.4.1): 239.255.0.1.
var DefaultMulticastGroup = netip.AddrFrom4([4]byte{239, 255, 0, 1})

// ErrDomainID is wrapped by errors about a domain id outside the range the
// port mapping allows.
var ErrDomainID = errors.New("transport: domain id out of range")

// ErrParticipantIndex is wrapped by errors about a participant index whose
// ports do not fit in 16 bits.
var ErrParticipantIndex = errors.New("transport: participant index out of range")

// PortMapping holds the parameters of the well-known port formulas of RTPS
// 2.5 §9.6.1.1. The zero value is not useful: start from
// [DefaultPortMapping]. All results are checked to fit in 16 bits.
type PortMapping struct {
	PB, DG, PG     int
	D0, D1, D2, D3 int
}

// DefaultPortMapping returns the standard mapping: PB 7400, DG 250, PG 2,
// d0 0, d1 10, d2 1, d3 11. With it domain ids 0..232 are valid.
func DefaultPortMapping() PortMapping {
	return PortMapping{
		PB: PortBase, DG: DomainIDGain, PG: ParticipantIDGain,
		D0: OffsetMetaMulticast, D1: OffsetMetaUnicast, D2: OffsetUserMulticast, D3: OffsetUserUnicast,
	}
}

// MaxDomainID returns the largest domain id for which the multicast ports
// and the unicast ports of participant index 0 fit in 16 bits (232 for the
// default mapping).
func (m PortMapping) MaxDomainID() int {
	if m.DG <= 0 {
		return 0
	}
	hi := max(m.D0, m.D1, m.D2, m.D3)
	return max((math.MaxUint16-m.PB-hi)/m.DG, -1)
}

// ValidateDomain reports an error wrapping [ErrDomainID] when domain is
// negative or above MaxDomainID.
func (m PortMapping) ValidateDomain(domain int) error {
	if domain < 0 || domain > m.MaxDomainID() {
		return fmt.Errorf("%w: %d not in 0..%d", ErrDomainID, domain, m.MaxDomainID())
	}
	return nil
}

// MaxParticipantIndex returns the largest participant index whose unicast
// ports fit in 16 bits in domain, or -1 when domain is invalid.
func (m PortMapping) MaxParticipantIndex(domain int) int {
	if m.ValidateDomain(domain) != nil || m.PG <= 0 {
		return -1
	}
	return (math.MaxUint16 - m.PB - m.DG*domain - max(m.D1, m.D3)) / m.PG
}

func (m PortMapping) port(domain, offset int) (uint16, error) {
	if err := m.ValidateDomain(domain); err != nil {
		return 0, err
	}
	p := m.PB + m.DG*domain + offset
	if p <= 0 || p > math.MaxUint16 {
		return 0, fmt.Errorf("%w: domain %d gives port %d", ErrDomainID, domain, p)
	}
	return uint16(p), nil
}

func (m PortMapping) unicastPort(domain, index, offset int) (uint16, error) {
	if err := m.ValidateDomain(domain); err != nil {
		return 0, err
	}
	if index < 0 || index > m.MaxParticipantIndex(domain) {
		return 0, fmt.Errorf("%w: %d not in 0..%d for domain %d", ErrParticipantIndex, index, m.MaxParticipantIndex(domain), domain)
	}
	return uint16(m.PB + m.DG*domain + offset + m.PG*index), nil
}

// SPDPMulticastPort returns PB + DG·domain + d0, the port of the SPDP
// multicast group (7400 for domain 0).
func (m PortMapping) SPDPMulticastPort(domain int) (uint16, error) { return m.port(domain, m.D0) }

// UserMulticastPort returns PB + DG·domain + d2, the port of user traffic
// sent to the multicast group (7401 for domain 0).
func (m PortMapping) UserMulticastPort(domain int) (uint16, error) { return m.port(domain, m.D2) }

// MetaUnicastPort returns PB + DG·domain + d1 + PG·index, the metatraffic
// (SPDP/SEDP) unicast port of participant index (7410+2·index in domain 0).
func (m PortMapping) MetaUnicastPort(domain, index int) (uint16, error) {
	return m.unicastPort(domain, index, m.D1)
}

// UserUnicastPort returns PB + DG·domain + d3 + PG·index, the user traffic
// unicast port of participant index (7411+2·index in domain 0).
func (m PortMapping) UserUnicastPort(domain, index int) (uint16, error) {
	return m.unicastPort(domain, index, m.D3)
}

// SPDPMulticastPort returns the SPDP multicast port of domain with the
// default mapping.
func SPDPMulticastPort(domain int) (uint16, error) {
	return DefaultPortMapping().SPDPMulticastPort(domain)
}

// UserMulticastPort returns the user multicast port of domain with the
// default mapping.
func UserMulticastPort(domain int) (uint16, error) {
	return DefaultPortMapping().UserMulticastPort(domain)
}

// MetaUnicastPort returns the metatraffic unicast port of participant index
// in domain with the default mapping.
func MetaUnicastPort(domain, index int) (uint16, error) {
	return DefaultPortMapping().MetaUnicastPort(domain, index)
}

// UserUnicastPort returns the user unicast port of participant index in
// domain with the default mapping.
func UserUnicastPort(domain, index int) (uint16, error) {
	return DefaultPortMapping().UserUnicastPort(domain, index)
}
