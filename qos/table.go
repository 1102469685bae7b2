package qos

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/ddsgo/ddsgo/internal/errs"
)

// The policy table: every policy declared once, with its QosPolicyId_t, name, RTPS
// parameter id, RxO and Changeable columns (DDS 1.4 §2.2.3, DDS-XTypes 1.3 §7.6.3, RTPS
// 2.5 Table 9.12), its wire encoding (RTPS 2.5 §9.6.3.2; decoders accept values longer
// than they need, since later specifications append fields), its validity, its RxO rule
// (offered, requested) and how it prints in an incompatibility report. Validate,
// CheckChange, Compatible, Clone, FromTopic and the discovery codec all read it.
var (
	userData = declare(UserDataPolicyID, "UserData", 0x002c, false, true,
		octetsDef(func(p *UserData) *[]byte { return &p.Value }))

	durability = declare(DurabilityPolicyID, "Durability", 0x001d, true, false,
		kindDef(func(p *Durability) *DurabilityKind { return &p.Kind }, Persistent, DurabilityPolicyID))

	presentation = declare(PresentationPolicyID, "Presentation", 0x0021, true, false, def[Presentation]{
		enc: func(e *encoder, p *Presentation) {
			e.u32(uint32(p.AccessScope))
			e.boolean(p.CoherentAccess)
			e.boolean(p.OrderedAccess)
		},
		dec: func(d *decoder, p *Presentation) {
			p.AccessScope = kind(d, GroupScope)
			p.CoherentAccess, p.OrderedAccess = d.boolean(), d.boolean()
		},
		eq: same[Presentation],
		check: func(p *Presentation) error {
			return checkKind(PresentationPolicyID, "access scope", p.AccessScope.valid(), p.AccessScope)
		},
		compat: func(o, r *Presentation) bool {
			return o.AccessScope >= r.AccessScope && (o.CoherentAccess || !r.CoherentAccess) &&
				(o.OrderedAccess || !r.OrderedAccess)
		},
	})

	deadline = declare(DeadlinePolicyID, "Deadline", 0x0023, true, true,
		durationDef(func(p *Deadline) *time.Duration { return &p.Period }, DeadlinePolicyID, "period", atMost))

	latencyBudget = declare(LatencyBudgetPolicyID, "LatencyBudget", 0x0027, true, true,
		durationDef(func(p *LatencyBudget) *time.Duration { return &p.Duration }, LatencyBudgetPolicyID, "duration", atMost))

	ownership = declare(OwnershipPolicyID, "Ownership", 0x001f, true, false,
		kindDef(func(p *Ownership) *OwnershipKind { return &p.Kind }, Exclusive, OwnershipPolicyID))

	ownershipStrength = declare(OwnershipStrengthPolicyID, "OwnershipStrength", 0x0006, false, true,
		int32Def(func(p *OwnershipStrength) *int32 { return &p.Value }))

	liveliness = declare(LivelinessPolicyID, "Liveliness", 0x001b, true, false, def[Liveliness]{
		enc: func(e *encoder, p *Liveliness) {
			e.u32(uint32(p.Kind))
			e.duration(p.LeaseDuration)
		},
		dec: func(d *decoder, p *Liveliness) {
			p.Kind = kind(d, ManualByTopic)
			p.LeaseDuration = d.duration()
		},
		eq: same[Liveliness],
		check: func(p *Liveliness) error {
			return firstError(checkKind(LivelinessPolicyID, "kind", p.Kind.valid(), p.Kind),
				checkDuration(LivelinessPolicyID, "lease_duration", p.LeaseDuration))
		},
		compat: func(o, r *Liveliness) bool {
			return o.Kind >= r.Kind && o.LeaseDuration <= r.LeaseDuration
		},
		show: func(p *Liveliness) string { return p.Kind.String() + " lease " + durString(p.LeaseDuration) },
	})

	timeBasedFilter = declare(TimeBasedFilterPolicyID, "TimeBasedFilter", 0x0004, false, true,
		durationDef(func(p *TimeBasedFilter) *time.Duration { return &p.MinimumSeparation }, TimeBasedFilterPolicyID, "minimum_separation", nil))

	partition = declare(PartitionPolicyID, "Partition", 0x0029, false, true, def[Partition]{
		enc:   func(e *encoder, p *Partition) { e.strings(p.Name) },
		dec:   func(d *decoder, p *Partition) { p.Name = d.strings() },
		eq:    func(a, b *Partition) bool { return slices.Equal(a.Name, b.Name) },
		skip:  func(p *Partition) bool { return len(p.Name) == 0 },
		clone: func(p *Partition) { p.Name = slices.Clone(p.Name) },
		show:  func(p *Partition) string { return fmt.Sprintf("%q", p.Name) },
	})

	reliability = declare(ReliabilityPolicyID, "Reliability", 0x001a, true, false, def[Reliability]{
		// On the wire BEST_EFFORT is 1 and RELIABLE 2 (RTPS 2.5 §9.6.3.2). A 4-octet value
		// (the kind alone, as some old implementations send) has no max_blocking_time.
		enc: func(e *encoder, p *Reliability) {
			e.u32(uint32(p.Kind) + 1)
			e.duration(p.MaxBlockingTime)
		},
		dec: func(d *decoder, p *Reliability) {
			p.Kind = kind(d, ReliabilityKind(2)) - 1
			if d.err == nil && p.Kind < 0 {
				d.fail(errs.ErrBadParameter, "kind 0 is neither 1 (best effort) nor 2 (reliable)")
			}
			if d.rest() >= 8 {
				p.MaxBlockingTime = d.duration()
			}
		},
		eq: same[Reliability],
		check: func(p *Reliability) error {
			return firstError(checkKind(ReliabilityPolicyID, "kind", p.Kind.valid(), p.Kind),
				checkDuration(ReliabilityPolicyID, "max_blocking_time", p.MaxBlockingTime))
		},
		compat: func(o, r *Reliability) bool { return o.Kind >= r.Kind },
		show:   func(p *Reliability) string { return p.Kind.String() },
	})

	destinationOrder = declare(DestinationOrderPolicyID, "DestinationOrder", 0x0025, true, false,
		kindDef(func(p *DestinationOrder) *DestinationOrderKind { return &p.Kind }, BySourceTimestamp, DestinationOrderPolicyID))

	history = declare(HistoryPolicyID, "History", 0x0040, false, false, def[History]{
		// Cyclone DDS sends KEEP_ALL with depth -1, Fast DDS with the configured depth.
		enc: func(e *encoder, p *History) {
			e.u32(uint32(p.Kind))
			e.i32(p.Depth)
		},
		dec: func(d *decoder, p *History) {
			p.Kind = kind(d, KeepAll)
			p.Depth = d.i32()
		},
		eq:    same[History],
		check: func(p *History) error { return validateHistory(HistoryPolicyID, p.Kind, p.Depth) },
	})

	resourceLimits = declare(ResourceLimitsPolicyID, "ResourceLimits", 0x0041, false, false, def[ResourceLimits]{
		enc: func(e *encoder, p *ResourceLimits) {
			e.i32(p.MaxSamples)
			e.i32(p.MaxInstances)
			e.i32(p.MaxSamplesPerInstance)
		},
		dec: func(d *decoder, p *ResourceLimits) {
			p.MaxSamples, p.MaxInstances, p.MaxSamplesPerInstance = d.i32(), d.i32(), d.i32()
		},
		eq: same[ResourceLimits],
		check: func(p *ResourceLimits) error {
			return validateLimits(ResourceLimitsPolicyID, p.MaxSamples, p.MaxInstances, p.MaxSamplesPerInstance)
		},
	})

	// ENTITY_FACTORY and the two DATA_LIFECYCLE policies are local: no parameter id.
	entityFactory = declare(EntityFactoryPolicyID, "EntityFactory", 0, false, true,
		localDef[EntityFactory]())
	writerDataLifecycle = declare(WriterDataLifecyclePolicyID, "WriterDataLifecycle", 0, false, true,
		localDef[WriterDataLifecycle]())
	readerDataLifecycle = declare(ReaderDataLifecyclePolicyID, "ReaderDataLifecycle", 0, false, true, def[ReaderDataLifecycle]{
		eq: same[ReaderDataLifecycle],
		check: func(p *ReaderDataLifecycle) error {
			const id = ReaderDataLifecyclePolicyID
			return firstError(checkDuration(id, "autopurge_nowriter_samples_delay", p.AutopurgeNoWriterSamplesDelay),
				checkDuration(id, "autopurge_disposed_samples_delay", p.AutopurgeDisposedSamplesDelay))
		},
	})

	topicData = declare(TopicDataPolicyID, "TopicData", 0x002e, false, true,
		octetsDef(func(p *TopicData) *[]byte { return &p.Value }))

	groupData = declare(GroupDataPolicyID, "GroupData", 0x002d, false, true,
		octetsDef(func(p *GroupData) *[]byte { return &p.Value }))

	transportPriority = declare(TransportPriorityPolicyID, "TransportPriority", 0x0049, false, true,
		int32Def(func(p *TransportPriority) *int32 { return &p.Value }))

	lifespan = declare(LifespanPolicyID, "Lifespan", 0x002b, false, true,
		durationDef(func(p *Lifespan) *time.Duration { return &p.Duration }, LifespanPolicyID, "duration", nil))

	durabilityService = declare(DurabilityServicePolicyID, "DurabilityService", 0x001e, false, false, def[DurabilityService]{
		enc: func(e *encoder, p *DurabilityService) {
			e.duration(p.ServiceCleanupDelay)
			e.u32(uint32(p.HistoryKind))
			e.i32(p.HistoryDepth)
			e.i32(p.MaxSamples)
			e.i32(p.MaxInstances)
			e.i32(p.MaxSamplesPerInstance)
		},
		dec: func(d *decoder, p *DurabilityService) {
			p.ServiceCleanupDelay = d.duration()
			p.HistoryKind = kind(d, KeepAll)
			p.HistoryDepth, p.MaxSamples, p.MaxInstances, p.MaxSamplesPerInstance = d.i32(), d.i32(), d.i32(), d.i32()
		},
		eq:    same[DurabilityService],
		check: validateDurabilityService,
	})

	dataRepresentation = declare(DataRepresentationPolicyID, "DataRepresentation", 0x0073, true, false, def[DataRepresentation]{
		// Cyclone DDS sends [XCDR1, XCDR2] and treats an empty list as absent; Fast DDS
		// 2.9 sends none by default. So an empty list is not sent.
		enc: func(e *encoder, p *DataRepresentation) {
			e.u32(uint32(len(p.Value)))
			for _, v := range p.Value {
				e.u16(uint16(v))
			}
		},
		dec: func(d *decoder, p *DataRepresentation) {
			n := d.count(2, d.lim.MaxCount, "DATA_REPRESENTATION")
			if n > 0 {
				p.Value = make([]DataRepresentationID, n)
			}
			for i := range n {
				p.Value[i] = DataRepresentationID(d.u16())
			}
		},
		eq:    func(a, b *DataRepresentation) bool { return slices.Equal(a.Value, b.Value) },
		check: validateDataRepresentation,
		compat: func(o, r *DataRepresentation) bool {
			return r.accepts(o.Offered())
		},
		skip:  func(p *DataRepresentation) bool { return len(p.Value) == 0 },
		clone: func(p *DataRepresentation) { p.Value = slices.Clone(p.Value) },
		show: func(p *DataRepresentation) string {
			if len(p.Value) == 0 {
				return "[] (XCDR1)"
			}
			return fmt.Sprint(p.Value)
		},
	})

	typeConsistency = declare(TypeConsistencyEnforcementPolicyID, "TypeConsistencyEnforcement", 0x0074, false, false, def[TypeConsistencyEnforcement]{
		// A 16-bit kind and five booleans. Fast DDS sends 8 octets (kind and two flags) and
		// accepts a value cut after any field; so do we.
		enc: func(e *encoder, p *TypeConsistencyEnforcement) {
			e.u16(uint16(p.Kind))
			for _, f := range [...]bool{p.IgnoreSequenceBounds, p.IgnoreStringBounds, p.IgnoreMemberNames, p.PreventTypeWidening, p.ForceTypeValidation} {
				e.boolean(f)
			}
		},
		dec: func(d *decoder, p *TypeConsistencyEnforcement) {
			if k := d.u16(); k > uint16(AllowTypeCoercion) {
				d.fail(errs.ErrBadParameter, "kind "+strconv.Itoa(int(k))+" out of range 0..1")
			} else {
				p.Kind = TypeConsistencyKind(k)
			}
			for _, f := range [...]*bool{&p.IgnoreSequenceBounds, &p.IgnoreStringBounds, &p.IgnoreMemberNames, &p.PreventTypeWidening, &p.ForceTypeValidation} {
				*f = d.optBool()
			}
		},
		eq: same[TypeConsistencyEnforcement],
		check: func(p *TypeConsistencyEnforcement) error {
			return checkKind(TypeConsistencyEnforcementPolicyID, "kind", p.Kind.valid(), p.Kind)
		},
	})
)

// The shapes several policies share.

// kindDef is a policy holding one kind, which RxO orders (offered >= requested) except
// OWNERSHIP (equal).
func kindDef[P comparable, K interface {
	~int32
	String() string
}](field func(*P) *K, maxK K, id PolicyID,
) def[P] {
	return def[P]{
		enc: func(e *encoder, p *P) { e.u32(uint32(*field(p))) },
		dec: func(d *decoder, p *P) { *field(p) = kind(d, maxK) },
		eq:  same[P],
		check: func(p *P) error {
			k := *field(p)
			return checkKind(id, "kind", k >= 0 && k <= maxK, k)
		},
		compat: func(o, r *P) bool {
			if id == OwnershipPolicyID {
				return *field(o) == *field(r)
			}
			return *field(o) >= *field(r)
		},
		show: func(p *P) string { return (*field(p)).String() },
	}
}

// atMost is the RxO rule of DEADLINE and LATENCY_BUDGET: offered <= requested.
func atMost(o, r time.Duration) bool { return o <= r }

// durationDef is a policy holding one non-negative duration; rxo is its RxO rule, nil
// for a policy that is not RxO.
func durationDef[P comparable](field func(*P) *time.Duration, id PolicyID, name string, rxo func(o, r time.Duration) bool) def[P] {
	d := def[P]{
		enc:   func(e *encoder, p *P) { e.duration(*field(p)) },
		dec:   func(d *decoder, p *P) { *field(p) = d.duration() },
		eq:    same[P],
		check: func(p *P) error { return checkDuration(id, name, *field(p)) },
		show:  func(p *P) string { return durString(*field(p)) },
	}
	if rxo != nil {
		d.compat = func(o, r *P) bool { return rxo(*field(o), *field(r)) }
	}
	return d
}

// int32Def is a policy holding one integer.
func int32Def[P comparable](field func(*P) *int32) def[P] {
	return def[P]{
		enc: func(e *encoder, p *P) { e.i32(*field(p)) },
		dec: func(d *decoder, p *P) { *field(p) = d.i32() },
		eq:  same[P],
	}
}

// octetsDef is a policy holding a sequence<octet>, not sent when empty.
func octetsDef[P any](field func(*P) *[]byte) def[P] {
	return def[P]{
		enc:   func(e *encoder, p *P) { e.octets(*field(p)) },
		dec:   func(d *decoder, p *P) { *field(p) = d.octets() },
		eq:    func(a, b *P) bool { return bytes.Equal(*field(a), *field(b)) },
		skip:  func(p *P) bool { return len(*field(p)) == 0 },
		clone: func(p *P) { *field(p) = slices.Clone(*field(p)) },
	}
}

// localDef is a policy that is never sent.
func localDef[P comparable]() def[P] {
	return def[P]{eq: same[P]}
}

// durString prints a duration, Infinite as "infinite".
func durString(d time.Duration) string {
	if d == Infinite {
		return "infinite"
	}
	return d.String()
}
