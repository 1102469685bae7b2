package wire

import "fmt"

// QoS policies as they travel in SPDP/SEDP ParameterLists (RTPS 2.5 §9.6.3.2
// and Table 9.12, DDS 1.4 §2.2.3, DDS-XTypes 1.3 §7.6.3). These structs are
// wire-shaped: enums carry the numbers of the wire, durations are RTPS
// Durations and lengths are int32 with -1 meaning unlimited; the qos package
// converts them to and from the DCPS policies. Each has a ParseX function,
// and PID, Append and Len methods; ParamWriter.Put writes one as a parameter.
// Parsers accept values longer than they need and ignore the excess, since
// later specifications append fields.

var errShortQoS = fmt.Errorf("wire: QoS policy: %w", ErrTruncated)

// DurabilityKind is the DURABILITY kind on the wire.
type DurabilityKind uint32

// Durability kinds.
const (
	DurabilityVolatile       DurabilityKind = 0
	DurabilityTransientLocal DurabilityKind = 1
	DurabilityTransient      DurabilityKind = 2
	DurabilityPersistent     DurabilityKind = 3
)

// Durability is PID_DURABILITY.
type Durability struct {
	Kind DurabilityKind
}

// ParseDurability reads a Durability.
func ParseDurability(b []byte, be bool) (Durability, int, error) {
	if len(b) < 4 {
		return Durability{}, 0, errShortQoS
	}
	return Durability{Kind: DurabilityKind(u32(b, be))}, 4, nil
}

// PID returns PIDDurability.
func (Durability) PID() ParameterID { return PIDDurability }

// Append appends d.
func (d Durability) Append(b []byte, be bool) []byte { return appendU32(b, uint32(d.Kind), be) }

// Len returns 4.
func (Durability) Len() int { return 4 }

// HistoryKind is the HISTORY kind on the wire.
type HistoryKind uint32

// History kinds.
const (
	HistoryKeepLast HistoryKind = 0
	HistoryKeepAll  HistoryKind = 1
)

// History is PID_HISTORY. Cyclone DDS sends KEEP_ALL with Depth -1, Fast DDS
// with the configured depth.
type History struct {
	Kind  HistoryKind
	Depth int32
}

// ParseHistory reads a History.
func ParseHistory(b []byte, be bool) (History, int, error) {
	if len(b) < 8 {
		return History{}, 0, errShortQoS
	}
	return History{Kind: HistoryKind(u32(b, be)), Depth: int32(u32(b[4:], be))}, 8, nil
}

// PID returns PIDHistory.
func (History) PID() ParameterID { return PIDHistory }

// Append appends h.
func (h History) Append(b []byte, be bool) []byte {
	b = appendU32(b, uint32(h.Kind), be)
	return appendU32(b, uint32(h.Depth), be)
}

// Len returns 8.
func (History) Len() int { return 8 }

// DurabilityService is PID_DURABILITY_SERVICE.
type DurabilityService struct {
	ServiceCleanupDelay   Duration
	HistoryKind           HistoryKind
	HistoryDepth          int32
	MaxSamples            int32
	MaxInstances          int32
	MaxSamplesPerInstance int32
}

// ParseDurabilityService reads a DurabilityService.
func ParseDurabilityService(b []byte, be bool) (DurabilityService, int, error) {
	if len(b) < 28 {
		return DurabilityService{}, 0, errShortQoS
	}
	d, _, _ := ParseDuration(b, be)
	return DurabilityService{
		ServiceCleanupDelay:   d,
		HistoryKind:           HistoryKind(u32(b[8:], be)),
		HistoryDepth:          int32(u32(b[12:], be)),
		MaxSamples:            int32(u32(b[16:], be)),
		MaxInstances:          int32(u32(b[20:], be)),
		MaxSamplesPerInstance: int32(u32(b[24:], be)),
	}, 28, nil
}

// PID returns PIDDurabilityService.
func (DurabilityService) PID() ParameterID { return PIDDurabilityService }

// Append appends d.
func (d DurabilityService) Append(b []byte, be bool) []byte {
	b = d.ServiceCleanupDelay.Append(b, be)
	b = appendU32(b, uint32(d.HistoryKind), be)
	b = appendU32(b, uint32(d.HistoryDepth), be)
	b = appendU32(b, uint32(d.MaxSamples), be)
	b = appendU32(b, uint32(d.MaxInstances), be)
	return appendU32(b, uint32(d.MaxSamplesPerInstance), be)
}

// Len returns 28.
func (DurabilityService) Len() int { return 28 }

// parseDurationQoS reads the Duration of a single-duration policy.
func parseDurationQoS(b []byte, be bool) (Duration, int, error) {
	if len(b) < 8 {
		return Duration{}, 0, errShortQoS
	}
	return ParseDuration(b, be)
}

// Deadline is PID_DEADLINE.
type Deadline struct {
	Period Duration
}

// ParseDeadline reads a Deadline.
func ParseDeadline(b []byte, be bool) (Deadline, int, error) {
	d, n, err := parseDurationQoS(b, be)
	return Deadline{Period: d}, n, err
}

// PID returns PIDDeadline.
func (Deadline) PID() ParameterID { return PIDDeadline }

// Append appends d.
func (d Deadline) Append(b []byte, be bool) []byte { return d.Period.Append(b, be) }

// Len returns 8.
func (Deadline) Len() int { return 8 }

// LatencyBudget is PID_LATENCY_BUDGET.
type LatencyBudget struct {
	Duration Duration
}

// ParseLatencyBudget reads a LatencyBudget.
func ParseLatencyBudget(b []byte, be bool) (LatencyBudget, int, error) {
	d, n, err := parseDurationQoS(b, be)
	return LatencyBudget{Duration: d}, n, err
}

// PID returns PIDLatencyBudget.
func (LatencyBudget) PID() ParameterID { return PIDLatencyBudget }

// Append appends l.
func (l LatencyBudget) Append(b []byte, be bool) []byte { return l.Duration.Append(b, be) }

// Len returns 8.
func (LatencyBudget) Len() int { return 8 }

// Lifespan is PID_LIFESPAN.
type Lifespan struct {
	Duration Duration
}

// ParseLifespan reads a Lifespan.
func ParseLifespan(b []byte, be bool) (Lifespan, int, error) {
	d, n, err := parseDurationQoS(b, be)
	return Lifespan{Duration: d}, n, err
}

// PID returns PIDLifespan.
func (Lifespan) PID() ParameterID { return PIDLifespan }

// Append appends l.
func (l Lifespan) Append(b []byte, be bool) []byte { return l.Duration.Append(b, be) }

// Len returns 8.
func (Lifespan) Len() int { return 8 }

// TimeBasedFilter is PID_TIME_BASED_FILTER.
type TimeBasedFilter struct {
	MinimumSeparation Duration
}

// ParseTimeBasedFilter reads a TimeBasedFilter.
func ParseTimeBasedFilter(b []byte, be bool) (TimeBasedFilter, int, error) {
	d, n, err := parseDurationQoS(b, be)
	return TimeBasedFilter{MinimumSeparation: d}, n, err
}

// PID returns PIDTimeBasedFilter.
func (TimeBasedFilter) PID() ParameterID { return PIDTimeBasedFilter }

// Append appends t.
func (t TimeBasedFilter) Append(b []byte, be bool) []byte { return t.MinimumSeparation.Append(b, be) }

// Len returns 8.
func (TimeBasedFilter) Len() int { return 8 }

// LivelinessKind is the LIVELINESS kind on the wire.
type LivelinessKind uint32

// Liveliness kinds.
const (
	LivelinessAutomatic           LivelinessKind = 0
	LivelinessManualByParticipant LivelinessKind = 1
	LivelinessManualByTopic       LivelinessKind = 2
)

// Liveliness is PID_LIVELINESS.
type Liveliness struct {
	Kind          LivelinessKind
	LeaseDuration Duration
}

// ParseLiveliness reads a Liveliness.
func ParseLiveliness(b []byte, be bool) (Liveliness, int, error) {
	if len(b) < 12 {
		return Liveliness{}, 0, errShortQoS
	}
	d, _, _ := ParseDuration(b[4:], be)
	return Liveliness{Kind: LivelinessKind(u32(b, be)), LeaseDuration: d}, 12, nil
}

// PID returns PIDLiveliness.
func (Liveliness) PID() ParameterID { return PIDLiveliness }

// Append appends l.
func (l Liveliness) Append(b []byte, be bool) []byte {
	b = appendU32(b, uint32(l.Kind), be)
	return l.LeaseDuration.Append(b, be)
}

// Len returns 12.
func (Liveliness) Len() int { return 12 }

// ReliabilityKind is the RELIABILITY kind on the wire: note that it differs
// from the DCPS enum (RTPS 2.5 §9.6.3.2: 1 best effort, 2 reliable).
type ReliabilityKind uint32

// Reliability kinds.
const (
	ReliabilityBestEffort ReliabilityKind = 1
	ReliabilityReliable   ReliabilityKind = 2
)

// Reliability is PID_RELIABILITY. Both peers send 12 octets, the kind and
// max_blocking_time.
type Reliability struct {
	Kind            ReliabilityKind
	MaxBlockingTime Duration
}

// ParseReliability reads a Reliability. A 4-octet value (kind only, as some
// old implementations send) gives a zero MaxBlockingTime.
func ParseReliability(b []byte, be bool) (Reliability, int, error) {
	if len(b) < 4 {
		return Reliability{}, 0, errShortQoS
	}
	r := Reliability{Kind: ReliabilityKind(u32(b, be))}
	if len(b) < 12 {
		return r, 4, nil
	}
	r.MaxBlockingTime, _, _ = ParseDuration(b[4:], be)
	return r, 12, nil
}

// PID returns PIDReliability.
func (Reliability) PID() ParameterID { return PIDReliability }

// Append appends r.
func (r Reliability) Append(b []byte, be bool) []byte {
	b = appendU32(b, uint32(r.Kind), be)
	return r.MaxBlockingTime.Append(b, be)
}

// Len returns 12.
func (Reliability) Len() int { return 12 }

// DestinationOrderKind is the DESTINATION_ORDER kind on the wire.
type DestinationOrderKind uint32

// Destination order kinds.
const (
	DestinationOrderByReceptionTimestamp DestinationOrderKind = 0
	DestinationOrderBySourceTimestamp    DestinationOrderKind = 1
)

// DestinationOrder is PID_DESTINATION_ORDER.
type DestinationOrder struct {
	Kind DestinationOrderKind
}

// ParseDestinationOrder reads a DestinationOrder.
func ParseDestinationOrder(b []byte, be bool) (DestinationOrder, int, error) {
	if len(b) < 4 {
		return DestinationOrder{}, 0, errShortQoS
	}
	return DestinationOrder{Kind: DestinationOrderKind(u32(b, be))}, 4, nil
}

// PID returns PIDDestinationOrder.
func (DestinationOrder) PID() ParameterID { return PIDDestinationOrder }

// Append appends d.
func (d DestinationOrder) Append(b []byte, be bool) []byte { return appendU32(b, uint32(d.Kind), be) }

// Len returns 4.
func (DestinationOrder) Len() int { return 4 }

// ResourceLimits is PID_RESOURCE_LIMITS; -1 means unlimited.
type ResourceLimits struct {
	MaxSamples            int32
	MaxInstances          int32
	MaxSamplesPerInstance int32
}

// ParseResourceLimits reads a ResourceLimits.
func ParseResourceLimits(b []byte, be bool) (ResourceLimits, int, error) {
	if len(b) < 12 {
		return ResourceLimits{}, 0, errShortQoS
	}
	return ResourceLimits{
		MaxSamples:            int32(u32(b, be)),
		MaxInstances:          int32(u32(b[4:], be)),
		MaxSamplesPerInstance: int32(u32(b[8:], be)),
	}, 12, nil
}

// PID returns PIDResourceLimits.
func (ResourceLimits) PID() ParameterID { return PIDResourceLimits }

// Append appends r.
func (r ResourceLimits) Append(b []byte, be bool) []byte {
	b = appendU32(b, uint32(r.MaxSamples), be)
	b = appendU32(b, uint32(r.MaxInstances), be)
	return appendU32(b, uint32(r.MaxSamplesPerInstance), be)
}

// Len returns 12.
func (ResourceLimits) Len() int { return 12 }

// OwnershipKind is the OWNERSHIP kind on the wire.
type OwnershipKind uint32

// Ownership kinds.
const (
	OwnershipShared    OwnershipKind = 0
	OwnershipExclusive OwnershipKind = 1
)

// Ownership is PID_OWNERSHIP.
type Ownership struct {
	Kind OwnershipKind
}

// ParseOwnership reads an Ownership.
func ParseOwnership(b []byte, be bool) (Ownership, int, error) {
	if len(b) < 4 {
		return Ownership{}, 0, errShortQoS
	}
	return Ownership{Kind: OwnershipKind(u32(b, be))}, 4, nil
}

// PID returns PIDOwnership.
func (Ownership) PID() ParameterID { return PIDOwnership }

// Append appends o.
func (o Ownership) Append(b []byte, be bool) []byte { return appendU32(b, uint32(o.Kind), be) }

// Len returns 4.
func (Ownership) Len() int { return 4 }

// OwnershipStrength is PID_OWNERSHIP_STRENGTH.
type OwnershipStrength struct {
	Value int32
}

// ParseOwnershipStrength reads an OwnershipStrength.
func ParseOwnershipStrength(b []byte, be bool) (OwnershipStrength, int, error) {
	if len(b) < 4 {
		return OwnershipStrength{}, 0, errShortQoS
	}
	return OwnershipStrength{Value: int32(u32(b, be))}, 4, nil
}

// PID returns PIDOwnershipStrength.
func (OwnershipStrength) PID() ParameterID { return PIDOwnershipStrength }

// Append appends o.
func (o OwnershipStrength) Append(b []byte, be bool) []byte {
	return appendU32(b, uint32(o.Value), be)
}

// Len returns 4.
func (OwnershipStrength) Len() int { return 4 }

// TransportPriority is PID_TRANSPORT_PRIORITY.
type TransportPriority struct {
	Value int32
}

// ParseTransportPriority reads a TransportPriority.
func ParseTransportPriority(b []byte, be bool) (TransportPriority, int, error) {
	if len(b) < 4 {
		return TransportPriority{}, 0, errShortQoS
	}
	return TransportPriority{Value: int32(u32(b, be))}, 4, nil
}

// PID returns PIDTransportPriority.
func (TransportPriority) PID() ParameterID { return PIDTransportPriority }

// Append appends t.
func (t TransportPriority) Append(b []byte, be bool) []byte {
	return appendU32(b, uint32(t.Value), be)
}

// Len returns 4.
func (TransportPriority) Len() int { return 4 }

// PresentationAccessScope is the PRESENTATION access scope on the wire.
type PresentationAccessScope uint32

// Presentation access scopes.
const (
	PresentationInstance PresentationAccessScope = 0
	PresentationTopic    PresentationAccessScope = 1
	PresentationGroup    PresentationAccessScope = 2
)

// Presentation is PID_PRESENTATION: the scope, then two booleans and two
// octets of padding.
type Presentation struct {
	AccessScope    PresentationAccessScope
	CoherentAccess bool
	OrderedAccess  bool
}

// ParsePresentation reads a Presentation.
func ParsePresentation(b []byte, be bool) (Presentation, int, error) {
	if len(b) < 6 {
		return Presentation{}, 0, errShortQoS
	}
	return Presentation{
		AccessScope:    PresentationAccessScope(u32(b, be)),
		CoherentAccess: b[4] != 0,
		OrderedAccess:  b[5] != 0,
	}, 6, nil
}

// PID returns PIDPresentation.
func (Presentation) PID() ParameterID { return PIDPresentation }

// Append appends p without the trailing padding.
func (p Presentation) Append(b []byte, be bool) []byte {
	b = appendU32(b, uint32(p.AccessScope), be)
	b = AppendBool(b, p.CoherentAccess)
	return AppendBool(b, p.OrderedAccess)
}

// Len returns 6.
func (Presentation) Len() int { return 6 }

// Partition is PID_PARTITION, a sequence of partition names (with
// wildcards).
type Partition struct {
	Names []string
}

// ParsePartition reads a Partition.
func ParsePartition(b []byte, be bool) (Partition, int, error) {
	ss, n, err := parseStringSeq(b, be)
	return Partition{Names: ss}, n, err
}

// PID returns PIDPartition.
func (Partition) PID() ParameterID { return PIDPartition }

// Append appends p without trailing padding.
func (p Partition) Append(b []byte, be bool) []byte { return appendStringSeq(b, len(b), p.Names, be) }

// Len returns the size of p without trailing padding.
func (p Partition) Len() int { return stringSeqLen(0, p.Names) }

// DataRepresentationID identifies a data representation (DDS-XTypes 1.3
// §7.6.3.1.1).
type DataRepresentationID int16

// Data representations.
const (
	DataRepresentationXCDR  DataRepresentationID = 0
	DataRepresentationXML   DataRepresentationID = 1
	DataRepresentationXCDR2 DataRepresentationID = 2
)

// DataRepresentation is PID_DATA_REPRESENTATION, a sequence of
// representation ids; a writer offers the first, a reader accepts any.
// Cyclone DDS sends [XCDR, XCDR2]; Fast DDS 2.9 sends none by default.
type DataRepresentation struct {
	Values []DataRepresentationID
}

// ParseDataRepresentation reads a DataRepresentation.
func ParseDataRepresentation(b []byte, be bool) (DataRepresentation, int, error) {
	n, err := seqCount(b, be, 2)
	if err != nil {
		return DataRepresentation{}, 0, err
	}
	var d DataRepresentation
	if n > 0 {
		d.Values = make([]DataRepresentationID, n)
	}
	for i := range n {
		d.Values[i] = DataRepresentationID(u16(b[4+2*i:], be))
	}
	return d, 4 + 2*n, nil
}

// PID returns PIDDataRepresentation.
func (DataRepresentation) PID() ParameterID { return PIDDataRepresentation }

// Append appends d without trailing padding.
func (d DataRepresentation) Append(b []byte, be bool) []byte {
	b = appendU32(b, uint32(len(d.Values)), be)
	for _, v := range d.Values {
		b = appendU16(b, uint16(v), be)
	}
	return b
}

// Len returns the size of d without trailing padding.
func (d DataRepresentation) Len() int { return 4 + 2*len(d.Values) }

// TypeConsistencyKind is the TYPE_CONSISTENCY_ENFORCEMENT kind, 16 bits on
// the wire.
type TypeConsistencyKind uint16

// Type consistency kinds.
const (
	TypeConsistencyDisallowTypeCoercion TypeConsistencyKind = 0
	TypeConsistencyAllowTypeCoercion    TypeConsistencyKind = 1
)

// TypeConsistencyEnforcement is PID_TYPE_CONSISTENCY_ENFORCEMENT
// (DDS-XTypes 1.3 §7.6.3.4): a 16-bit kind and five booleans. Fast DDS sends
// 8 octets (kind 1, ignore sequence and string bounds) with its readers; it
// accepts a value cut after any field, and so does ParseTypeConsistencyEnforcement.
type TypeConsistencyEnforcement struct {
	Kind                 TypeConsistencyKind
	IgnoreSequenceBounds bool
	IgnoreStringBounds   bool
	IgnoreMemberNames    bool
	PreventTypeWidening  bool
	ForceTypeValidation  bool
}

// ParseTypeConsistencyEnforcement reads a TypeConsistencyEnforcement.
func ParseTypeConsistencyEnforcement(b []byte, be bool) (TypeConsistencyEnforcement, int, error) {
	if len(b) < 2 {
		return TypeConsistencyEnforcement{}, 0, errShortQoS
	}
	var f [5]bool
	n := 2
	for i := range f {
		if n >= len(b) {
			break
		}
		f[i] = b[n] != 0
		n++
	}
	return TypeConsistencyEnforcement{
		Kind:                 TypeConsistencyKind(u16(b, be)),
		IgnoreSequenceBounds: f[0],
		IgnoreStringBounds:   f[1],
		IgnoreMemberNames:    f[2],
		PreventTypeWidening:  f[3],
		ForceTypeValidation:  f[4],
	}, n, nil
}

// PID returns PIDTypeConsistencyEnforcement.
func (TypeConsistencyEnforcement) PID() ParameterID { return PIDTypeConsistencyEnforcement }

// Append appends t without trailing padding (7 octets).
func (t TypeConsistencyEnforcement) Append(b []byte, be bool) []byte {
	b = appendU16(b, uint16(t.Kind), be)
	b = AppendBool(b, t.IgnoreSequenceBounds)
	b = AppendBool(b, t.IgnoreStringBounds)
	b = AppendBool(b, t.IgnoreMemberNames)
	b = AppendBool(b, t.PreventTypeWidening)
	return AppendBool(b, t.ForceTypeValidation)
}

// Len returns 7.
func (TypeConsistencyEnforcement) Len() int { return 7 }
