package qos

import "strconv"

// The kind enumerations keep the order and numbering of the DCPS IDL (DDS 1.4 §2.3.3), so
// that the RxO rules can compare them with < and >. The RTPS wire encoding of some of them
// differs (reliability is 1 and 2 on the wire); converting is the wire layer's job.

// DurabilityKind is DurabilityQosPolicyKind, ordered VOLATILE < TRANSIENT_LOCAL <
// TRANSIENT < PERSISTENT.
type DurabilityKind int32

// The durability kinds.
const (
	Volatile DurabilityKind = iota
	TransientLocal
	Transient
	Persistent
)

// String returns the spec name, e.g. "TRANSIENT_LOCAL".
func (k DurabilityKind) String() string {
	return enumString(int32(k), "DurabilityKind", "VOLATILE", "TRANSIENT_LOCAL", "TRANSIENT", "PERSISTENT")
}

// AccessScopeKind is PresentationQosPolicyAccessScopeKind, ordered INSTANCE < TOPIC <
// GROUP.
type AccessScopeKind int32

// The presentation access scopes.
const (
	InstanceScope AccessScopeKind = iota
	TopicScope
	GroupScope
)

func (k AccessScopeKind) valid() bool { return k >= InstanceScope && k <= GroupScope }

// String returns the spec name, e.g. "TOPIC".
func (k AccessScopeKind) String() string {
	return enumString(int32(k), "AccessScopeKind", "INSTANCE", "TOPIC", "GROUP")
}

// OwnershipKind is OwnershipQosPolicyKind; offered and requested must be equal.
type OwnershipKind int32

// The ownership kinds.
const (
	Shared OwnershipKind = iota
	Exclusive
)

// String returns the spec name, "SHARED" or "EXCLUSIVE".
func (k OwnershipKind) String() string {
	return enumString(int32(k), "OwnershipKind", "SHARED", "EXCLUSIVE")
}

// LivelinessKind is LivelinessQosPolicyKind, ordered AUTOMATIC < MANUAL_BY_PARTICIPANT <
// MANUAL_BY_TOPIC.
type LivelinessKind int32

// The liveliness kinds.
const (
	Automatic LivelinessKind = iota
	ManualByParticipant
	ManualByTopic
)

func (k LivelinessKind) valid() bool { return k >= Automatic && k <= ManualByTopic }

// String returns the spec name, e.g. "MANUAL_BY_PARTICIPANT".
func (k LivelinessKind) String() string {
	return enumString(int32(k), "LivelinessKind", "AUTOMATIC", "MANUAL_BY_PARTICIPANT", "MANUAL_BY_TOPIC")
}

// ReliabilityKind is ReliabilityQosPolicyKind, ordered BEST_EFFORT < RELIABLE. (On the
// RTPS wire BEST_EFFORT is 1 and RELIABLE is 2.)
type ReliabilityKind int32

// The reliability kinds.
const (
	BestEffort ReliabilityKind = iota
	Reliable
)

func (k ReliabilityKind) valid() bool { return k == BestEffort || k == Reliable }

// String returns the spec name, "BEST_EFFORT" or "RELIABLE".
func (k ReliabilityKind) String() string {
	return enumString(int32(k), "ReliabilityKind", "BEST_EFFORT", "RELIABLE")
}

// DestinationOrderKind is DestinationOrderQosPolicyKind, ordered BY_RECEPTION_TIMESTAMP <
// BY_SOURCE_TIMESTAMP.
type DestinationOrderKind int32

// The destination order kinds.
const (
	ByReceptionTimestamp DestinationOrderKind = iota
	BySourceTimestamp
)

// String returns the spec name, e.g. "BY_SOURCE_TIMESTAMP".
func (k DestinationOrderKind) String() string {
	return enumString(int32(k), "DestinationOrderKind", "BY_RECEPTION_TIMESTAMP", "BY_SOURCE_TIMESTAMP")
}

// HistoryKind is HistoryQosPolicyKind.
type HistoryKind int32

// The history kinds.
const (
	KeepLast HistoryKind = iota
	KeepAll
)

func (k HistoryKind) valid() bool { return k == KeepLast || k == KeepAll }

// String returns the spec name, "KEEP_LAST" or "KEEP_ALL".
func (k HistoryKind) String() string {
	return enumString(int32(k), "HistoryKind", "KEEP_LAST", "KEEP_ALL")
}

// DataRepresentationID is DataRepresentationId_t of DDS-XTypes 1.3 §7.6.3.1.1.
type DataRepresentationID int16

// The data representations.
const (
	XCDR1 DataRepresentationID = 0 // XCDR_DATA_REPRESENTATION, extended CDR version 1
	XML   DataRepresentationID = 1 // XML_DATA_REPRESENTATION
	XCDR2 DataRepresentationID = 2 // XCDR2_DATA_REPRESENTATION, extended CDR version 2
)

func (k DataRepresentationID) valid() bool { return k >= XCDR1 && k <= XCDR2 }

// String returns "XCDR1", "XML" or "XCDR2".
func (k DataRepresentationID) String() string {
	return enumString(int32(k), "DataRepresentationID", "XCDR1", "XML", "XCDR2")
}

// TypeConsistencyKind is TypeConsistencyKind of DDS-XTypes 1.3 §7.6.3.4.
type TypeConsistencyKind int32

// The type consistency kinds.
const (
	DisallowTypeCoercion TypeConsistencyKind = iota
	AllowTypeCoercion
)

func (k TypeConsistencyKind) valid() bool {
	return k == DisallowTypeCoercion || k == AllowTypeCoercion
}

// String returns the spec name, "DISALLOW_TYPE_COERCION" or "ALLOW_TYPE_COERCION".
func (k TypeConsistencyKind) String() string {
	return enumString(int32(k), "TypeConsistencyKind", "DISALLOW_TYPE_COERCION", "ALLOW_TYPE_COERCION")
}

func enumString(v int32, typ string, names ...string) string {
	if v >= 0 && int(v) < len(names) {
		return names[v]
	}
	return typ + "(" + strconv.Itoa(int(v)) + ")"
}
