package qos

import (
	"math"
	"time"
)

// Infinite is the infinite duration (DURATION_INFINITE of DDS 1.4 §2.3.3, on the RTPS
// wire {0x7fffffff, 0xffffffff}). Durations are time.Duration values; every duration
// policy treats Infinite as "never".
const Infinite time.Duration = math.MaxInt64

// LengthUnlimited is LENGTH_UNLIMITED (DDS 1.4 §2.3.3): no limit, in ResourceLimits and
// DurabilityService.
const LengthUnlimited int32 = -1

// UserData is USER_DATA (DDS 1.4 §2.2.3.1): opaque bytes attached to a participant,
// writer or reader and sent with its discovery data.
type UserData struct {
	Value []byte
}

// TopicData is TOPIC_DATA (§2.2.3.2): opaque bytes attached to a topic.
type TopicData struct {
	Value []byte
}

// GroupData is GROUP_DATA (§2.2.3.3): opaque bytes attached to a publisher or subscriber.
type GroupData struct {
	Value []byte
}

// Durability is DURABILITY (§2.2.3.4): whether data outlives the writing of it.
// RxO: offered Kind >= requested Kind.
type Durability struct {
	Kind DurabilityKind
}

// DurabilityService is DURABILITY_SERVICE (§2.2.3.5): the history and limits of the
// service that stores TRANSIENT and PERSISTENT data.
type DurabilityService struct {
	ServiceCleanupDelay   time.Duration
	HistoryKind           HistoryKind
	HistoryDepth          int32
	MaxSamples            int32
	MaxInstances          int32
	MaxSamplesPerInstance int32
}

// Presentation is PRESENTATION (§2.2.3.6), set on publishers and subscribers.
// RxO: offered AccessScope >= requested AccessScope, and a requested CoherentAccess or
// OrderedAccess needs the offered one.
type Presentation struct {
	AccessScope    AccessScopeKind
	CoherentAccess bool
	OrderedAccess  bool
}

// Deadline is DEADLINE (§2.2.3.7): the longest gap between updates of an instance.
// RxO: offered Period <= requested Period.
type Deadline struct {
	Period time.Duration
}

// LatencyBudget is LATENCY_BUDGET (§2.2.3.8): a hint for the acceptable delay.
// RxO: offered Duration <= requested Duration.
type LatencyBudget struct {
	Duration time.Duration
}

// Ownership is OWNERSHIP (§2.2.3.9). RxO: offered Kind == requested Kind.
type Ownership struct {
	Kind OwnershipKind
}

// OwnershipStrength is OWNERSHIP_STRENGTH (§2.2.3.10): a writer's strength for EXCLUSIVE
// ownership.
type OwnershipStrength struct {
	Value int32
}

// Liveliness is LIVELINESS (§2.2.3.11). RxO: offered Kind >= requested Kind and offered
// LeaseDuration <= requested LeaseDuration.
type Liveliness struct {
	Kind          LivelinessKind
	LeaseDuration time.Duration
}

// TimeBasedFilter is TIME_BASED_FILTER (§2.2.3.12): a reader wants at most one sample per
// instance per MinimumSeparation.
type TimeBasedFilter struct {
	MinimumSeparation time.Duration
}

// Partition is PARTITION (§2.2.3.13): the partitions of a publisher or subscriber. Names
// may contain fnmatch wildcards; an empty list means the default partition "". See
// PartitionsMatch.
type Partition struct {
	Name []string
}

// Reliability is RELIABILITY (§2.2.3.14). MaxBlockingTime bounds how long a write may
// block on full resources. RxO: offered Kind >= requested Kind.
type Reliability struct {
	Kind            ReliabilityKind
	MaxBlockingTime time.Duration
}

// TransportPriority is TRANSPORT_PRIORITY (§2.2.3.15): a hint to the transport.
type TransportPriority struct {
	Value int32
}

// Lifespan is LIFESPAN (§2.2.3.16): how long a written sample stays valid.
type Lifespan struct {
	Duration time.Duration
}

// DestinationOrder is DESTINATION_ORDER (§2.2.3.17): which timestamp orders the samples
// of an instance from several writers. RxO: offered Kind >= requested Kind.
type DestinationOrder struct {
	Kind DestinationOrderKind
}

// History is HISTORY (§2.2.3.18): how many samples per instance are kept. Depth applies
// to KeepLast only.
type History struct {
	Kind  HistoryKind
	Depth int32
}

// ResourceLimits is RESOURCE_LIMITS (§2.2.3.19): each limit positive or LengthUnlimited.
type ResourceLimits struct {
	MaxSamples            int32
	MaxInstances          int32
	MaxSamplesPerInstance int32
}

// EntityFactory is ENTITY_FACTORY (§2.2.3.20): whether created entities are enabled at
// once.
type EntityFactory struct {
	AutoenableCreatedEntities bool
}

// WriterDataLifecycle is WRITER_DATA_LIFECYCLE (§2.2.3.21): whether unregistering an
// instance also disposes it.
type WriterDataLifecycle struct {
	AutodisposeUnregisteredInstances bool
}

// ReaderDataLifecycle is READER_DATA_LIFECYCLE (§2.2.3.22): how long a reader keeps
// instances without writers and disposed instances.
type ReaderDataLifecycle struct {
	AutopurgeNoWriterSamplesDelay time.Duration
	AutopurgeDisposedSamplesDelay time.Duration
}

// DataRepresentation is DATA_REPRESENTATION (DDS-XTypes 1.3 §7.6.3.1). A writer offers
// the first element of Value; a reader accepts every element. An empty Value stands for
// XCDR1. RxO: the writer's offered representation is in the reader's list.
type DataRepresentation struct {
	Value []DataRepresentationID
}

// Offered returns the representation a writer with this policy uses: the first element,
// or XCDR1 when the list is empty.
func (p DataRepresentation) Offered() DataRepresentationID {
	if len(p.Value) == 0 {
		return XCDR1
	}
	return p.Value[0]
}

// accepts reports whether a reader with this policy accepts representation id: id is in
// the list, or the list is empty and id is XCDR1.
func (p DataRepresentation) accepts(id DataRepresentationID) bool {
	if len(p.Value) == 0 {
		return id == XCDR1
	}
	for _, v := range p.Value {
		if v == id {
			return true
		}
	}
	return false
}

// TypeConsistencyEnforcement is TYPE_CONSISTENCY_ENFORCEMENT (DDS-XTypes 1.3 §7.6.3.4):
// how a reader decides that a writer's type is assignable to its own.
type TypeConsistencyEnforcement struct {
	Kind                 TypeConsistencyKind
	IgnoreSequenceBounds bool
	IgnoreStringBounds   bool
	IgnoreMemberNames    bool
	PreventTypeWidening  bool
	ForceTypeValidation  bool
}
