package discovery

import (
	"github.com/ddsgo/ddsgo/qos"
)

// MismatchReason says why a writer and a reader do not match.
type MismatchReason uint8

// The reasons, in the order [Match] checks them.
const (
	// MatchOK: the writer and the reader match.
	MatchOK MismatchReason = iota
	// MismatchRole: the first endpoint is not a writer or the second not a
	// reader.
	MismatchRole
	// MismatchTopic: the topic names differ.
	MismatchTopic
	// MismatchType: the type names differ.
	MismatchType
	// MismatchKeyed: one topic is keyed and the other not (entity kinds
	// 0x02/0x07 against 0x03/0x04).
	MismatchKeyed
	// MismatchQos: an offered policy does not satisfy the requested one; see
	// MatchResult.Incompatible.
	MismatchQos
	// MismatchPartition: the publisher and subscriber share no partition.
	MismatchPartition
	// MismatchTypeAssignability: both announce TypeInformation and the reader's type
	// is not assignable from the writer's (DDS-XTypes 1.3 §7.2.4).
	MismatchTypeAssignability
	// MismatchTypeUnresolved: both announce TypeInformation and a type is still asked
	// for with TypeLookup; the match is decided when it comes or is given up.
	MismatchTypeUnresolved
)

// String returns a short description, e.g. "type name".
func (r MismatchReason) String() string {
	switch r {
	case MatchOK:
		return "match"
	case MismatchRole:
		return "not a writer and a reader"
	case MismatchTopic:
		return "topic name"
	case MismatchType:
		return "type name"
	case MismatchKeyed:
		return "keyed kind"
	case MismatchQos:
		return "incompatible QoS"
	case MismatchPartition:
		return "partition"
	case MismatchTypeAssignability:
		return "type not assignable"
	case MismatchTypeUnresolved:
		return "type not resolved yet"
	}
	return "MismatchReason(?)"
}

// MatchResult is the outcome of [Match].
type MatchResult struct {
	// Reason is MatchOK when the endpoints match.
	Reason MismatchReason
	// Incompatible lists the policies whose offered value does not satisfy
	// the requested one, in PolicyID order (qos.Compatible). It is set
	// whenever topic, type and keyed kind agree, also when the partitions
	// differ: the OFFERED_INCOMPATIBLE_QOS and REQUESTED_INCOMPATIBLE_QOS
	// statuses count a mismatch whenever it is not empty.
	Incompatible []qos.PolicyID
}

// Matched reports whether the endpoints match.
func (m MatchResult) Matched() bool { return m.Reason == MatchOK }

// Match decides whether writer w and reader r communicate:
//
//  1. w is a writer and r a reader;
//  2. equal topic names;
//  3. equal type names;
//  4. both topics keyed or both unkeyed (the entity kinds of their GUIDs);
//  5. the requested/offered QoS rules (qos.Compatible: durability,
//     presentation, deadline, latency budget, ownership, liveliness,
//     reliability, destination order, data representation);
//  6. a partition in common (qos.PartitionsMatch).
//
// An incompatible QoS is reported before a partition mismatch, as both peers
// do; a partition mismatch alone is not an incompatible QoS (DDS 1.4
// §2.2.3.13).
//
// Types are matched by name here. Cyclone DDS, when both sides send
// TYPE_INFORMATION, matches on the type hash instead (so two names may
// match there and not here, and the other way round); when either side
// sends none, it compares names like Fast DDS and this function. Type
// assignability (DDS-XTypes TypeObjects) needs the types: the Participant
// decides it after Match, when both announce TypeInformation
// (typeclient.go: MismatchTypeAssignability, MismatchTypeUnresolved).
func Match(w, r *EndpointData) MatchResult {
	switch {
	case !w.IsWriter() || !r.IsReader():
		return MatchResult{Reason: MismatchRole}
	case w.TopicName != r.TopicName:
		return MatchResult{Reason: MismatchTopic}
	case w.TypeName != r.TypeName:
		return MatchResult{Reason: MismatchType}
	case w.Keyed() != r.Keyed():
		return MatchResult{Reason: MismatchKeyed}
	}
	res := MatchResult{Incompatible: qos.Compatible(w.Offered, r.Requested)}
	switch {
	case len(res.Incompatible) > 0:
		res.Reason = MismatchQos
	case !qos.PartitionsMatch(w.Offered.Publisher.Partition.Name, r.Requested.Subscriber.Partition.Name):
		res.Reason = MismatchPartition
	}
	return res
}
