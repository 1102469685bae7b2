package qos

// Offered is what a writer offers to the requested/offered (RxO) matching of DDS 1.4
// §2.2.3: its own QoS and its publisher's (PRESENTATION). The topic's QoS takes part only
// through DataWriterQos.FromTopic.
type Offered struct {
	Writer    DataWriterQos
	Publisher PublisherQos
}

// Requested is what a reader requests in the RxO matching: its own QoS and its
// subscriber's (PRESENTATION).
type Requested struct {
	Reader     DataReaderQos
	Subscriber SubscriberQos
}

// Compatible returns the policies whose offered value does not satisfy the requested one,
// in PolicyID order, or nil when the writer and reader are compatible. The rules (DDS 1.4
// §2.2.3, DDS-XTypes 1.3 §7.6.3.1.2):
//
//	DURABILITY          offered kind >= requested kind
//	PRESENTATION        offered access scope >= requested; requested coherent_access
//	                    and ordered_access need the offered ones
//	DEADLINE            offered period <= requested period
//	LATENCY_BUDGET      offered duration <= requested duration
//	OWNERSHIP           offered kind == requested kind
//	LIVELINESS          offered kind >= requested kind; offered lease <= requested lease
//	RELIABILITY         offered kind >= requested kind
//	DESTINATION_ORDER   offered kind >= requested kind
//	DATA_REPRESENTATION the writer's first representation (XCDR1 when empty) is in the
//	                    reader's list (XCDR1 only when empty)
//
// Partitions are not part of it (a partition mismatch means no match, not an incompatible
// QoS): see PartitionsMatch. Type consistency is decided with the types, not here.
func Compatible(o Offered, r Requested) []PolicyID {
	return AppendIncompatible(nil, o, r)
}

// AppendIncompatible appends the policies Compatible would return to dst and returns the
// extended slice; it allocates nothing when dst has room.
func AppendIncompatible(dst []PolicyID, o Offered, r Requested) []PolicyID {
	w, rd := &o.Writer, &r.Reader
	op, rp := &o.Publisher.Presentation, &r.Subscriber.Presentation
	if w.Durability.Kind < rd.Durability.Kind {
		dst = append(dst, DurabilityPolicyID)
	}
	if op.AccessScope < rp.AccessScope ||
		(rp.CoherentAccess && !op.CoherentAccess) ||
		(rp.OrderedAccess && !op.OrderedAccess) {
		dst = append(dst, PresentationPolicyID)
	}
	if w.Deadline.Period > rd.Deadline.Period {
		dst = append(dst, DeadlinePolicyID)
	}
	if w.LatencyBudget.Duration > rd.LatencyBudget.Duration {
		dst = append(dst, LatencyBudgetPolicyID)
	}
	if w.Ownership.Kind != rd.Ownership.Kind {
		dst = append(dst, OwnershipPolicyID)
	}
	if w.Liveliness.Kind < rd.Liveliness.Kind || w.Liveliness.LeaseDuration > rd.Liveliness.LeaseDuration {
		dst = append(dst, LivelinessPolicyID)
	}
	if w.Reliability.Kind < rd.Reliability.Kind {
		dst = append(dst, ReliabilityPolicyID)
	}
	if w.DestinationOrder.Kind < rd.DestinationOrder.Kind {
		dst = append(dst, DestinationOrderPolicyID)
	}
	if !rd.DataRepresentation.Accepts(w.DataRepresentation.Offered()) {
		dst = append(dst, DataRepresentationPolicyID)
	}
	return dst
}
