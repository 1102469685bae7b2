package discovery

import (
	"errors"
	"fmt"
	"math"
)

// ErrLimit is wrapped by every error that reports discovery data beyond a
// [Limits] bound: too many locators, properties or partitions, a string or
// octet sequence too long, too many participants or endpoints. A receiver
// counts such data and drops it. Test for it with errors.Is.
var ErrLimit = errors.New("discovery: limit exceeded")

// ErrInvalid is wrapped by every error that reports discovery data that is
// malformed or violates the specification (a bad encapsulation, a missing
// GUID, an enum value out of range, a negative duration). Errors of the
// ParameterList itself wrap the internal/wire errors instead.
var ErrInvalid = errors.New("discovery: invalid data")

// Limits bounds what a remote participant may make this participant hold,
// so that a hostile or broken peer announcing thousands of locators,
// properties or endpoints cannot exhaust memory. The decoders apply the
// per-entity bounds; the table bounds (participants, unconfirmed
// participants, endpoints) are applied by the [Participant] (admit.go
// says how). A zero field takes the default given in its comment; a
// negative field means no limit.
type Limits struct {
	// MaxParticipants bounds the number of remote participants (default
	// 1024). When the table is full, the oldest unconfirmed participant
	// makes room for a new one; a new one is refused only when every
	// participant of the table is confirmed.
	MaxParticipants int
	// MaxUnconfirmedParticipants bounds the remote participants that
	// announced themselves but have not yet taken part in the protocol
	// (no SEDP, HEARTBEAT or ACKNACK from them has reached one of our
	// endpoints): beyond it the oldest of them is evicted for a new one
	// (default 256, at most MaxParticipants).
	MaxUnconfirmedParticipants int
	// MaxEndpointsPerParticipant bounds the writers plus readers of one remote
	// participant (default 4096).
	MaxEndpointsPerParticipant int
	// MaxEndpoints bounds the writers plus readers of all remote
	// participants together (default 16384).
	MaxEndpoints int
	// MaxEndpointBytes bounds the octets of serialized SEDP data of all
	// remote endpoints together, which bounds what their decoded data
	// holds beyond a fixed size per endpoint (default 16 MiB: an average
	// of 1 KiB per endpoint at MaxEndpoints).
	MaxEndpointBytes int
	// MaxLocators bounds each locator list of a participant or endpoint
	// (default 32).
	MaxLocators int
	// MaxStringLen bounds the length in octets of topic, type, entity,
	// partition and property names and values, of the domain tag and of the
	// names in a content filter (default 1024; the filter expression is
	// bounded by MaxDataLen).
	MaxStringLen int
	// MaxProperties bounds the number of properties (plain plus binary) of a
	// participant's PROPERTY_LIST (default 64).
	MaxProperties int
	// MaxPartitions bounds the number of partition names of an endpoint,
	// and also of its data representations and content filter parameters
	// (default 64).
	MaxPartitions int
	// MaxDataLen bounds each opaque value: user, topic and group data,
	// TYPE_INFORMATION, a binary property, a vendor-specific parameter
	// (default 16384).
	MaxDataLen int
	// MaxVendorParams bounds the number of vendor-specific parameters kept
	// raw per entity (default 32).
	MaxVendorParams int
}

// DefaultLimits returns the limits a zero Limits stands for.
func DefaultLimits() Limits {
	return Limits{
		MaxParticipants:            1024,
		MaxUnconfirmedParticipants: 256,
		MaxEndpointsPerParticipant: 4096,
		MaxEndpoints:               16384,
		MaxEndpointBytes:           16 << 20,
		MaxLocators:                32,
		MaxStringLen:               1024,
		MaxProperties:              64,
		MaxPartitions:              64,
		MaxDataLen:                 16384,
		MaxVendorParams:            32,
	}
}

// resolved returns l with zero fields replaced by the defaults and negative
// ones by math.MaxInt.
func (l Limits) resolved() Limits {
	d := DefaultLimits()
	pick := func(v, def int) int {
		switch {
		case v == 0:
			return def
		case v < 0:
			return math.MaxInt
		}
		return v
	}
	r := Limits{
		MaxParticipants:            pick(l.MaxParticipants, d.MaxParticipants),
		MaxUnconfirmedParticipants: pick(l.MaxUnconfirmedParticipants, d.MaxUnconfirmedParticipants),
		MaxEndpointsPerParticipant: pick(l.MaxEndpointsPerParticipant, d.MaxEndpointsPerParticipant),
		MaxEndpoints:               pick(l.MaxEndpoints, d.MaxEndpoints),
		MaxEndpointBytes:           pick(l.MaxEndpointBytes, d.MaxEndpointBytes),
		MaxLocators:                pick(l.MaxLocators, d.MaxLocators),
		MaxStringLen:               pick(l.MaxStringLen, d.MaxStringLen),
		MaxProperties:              pick(l.MaxProperties, d.MaxProperties),
		MaxPartitions:              pick(l.MaxPartitions, d.MaxPartitions),
		MaxDataLen:                 pick(l.MaxDataLen, d.MaxDataLen),
		MaxVendorParams:            pick(l.MaxVendorParams, d.MaxVendorParams),
	}
	r.MaxUnconfirmedParticipants = min(r.MaxUnconfirmedParticipants, r.MaxParticipants)
	return r
}

// LimitError reports a value beyond a [Limits] bound. It matches [ErrLimit]
// with errors.Is.
type LimitError struct {
	// What names the bounded item, e.g. "METATRAFFIC_UNICAST_LOCATOR count".
	What string
	// Got is the size met, Max the bound.
	Got, Max int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("discovery: limit exceeded: %s %d > %d", e.What, e.Got, e.Max)
}

// Is makes errors.Is(err, ErrLimit) true.
func (e *LimitError) Is(target error) bool { return target == ErrLimit }

// check returns a *LimitError when got > maxN.
func check(what string, got, maxN int) error {
	if got > maxN {
		return &LimitError{What: what, Got: got, Max: maxN}
	}
	return nil
}

// CheckParticipants reports whether a new remote participant may be added
// when known are already: an error wrapping [ErrLimit] when known has
// reached MaxParticipants.
func (l Limits) CheckParticipants(known int) error {
	return check("remote participants", known+1, l.resolved().MaxParticipants)
}

// CheckEndpoints reports whether a new endpoint of a remote participant that
// already has known writers and readers may be added: an error wrapping
// [ErrLimit] when known has reached MaxEndpointsPerParticipant.
func (l Limits) CheckEndpoints(known int) error {
	return check("endpoints of a remote participant", known+1, l.resolved().MaxEndpointsPerParticipant)
}
