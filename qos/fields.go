package qos

// Which policies each entity QoS holds (DDS 1.4 §2.2.2, the "Concerns" column of
// §2.2.3): a list of fields bound to the policy table's rows. The generic functions
// below apply the table to any of them, so that Validate, CheckChange, Clone, FromTopic
// and the wire codec have no per-policy code of their own.

// field is one policy of an entity QoS Q: its row and where it lives in a Q.
type field[Q any] struct {
	p  *policy
	at func(*Q) any // returns a pointer to the policy value
}

// has binds policy d to the field of Q that at returns; the types make a wrong binding
// a compile error.
func has[Q, P any](d decl[P], at func(*Q) *P) field[Q] {
	return field[Q]{p: d.p, at: func(q *Q) any { return at(q) }}
}

// within lifts the fields of an inner QoS R (a writer's within Offered, say) to Q.
func within[Q, R any](fs []field[R], at func(*Q) *R) []field[Q] {
	out := make([]field[Q], len(fs))
	for i, f := range fs {
		out[i] = field[Q]{p: f.p, at: func(q *Q) any { return f.at(at(q)) }}
	}
	return out
}

// policySet is the fields of an entity QoS, with the rules that relate two of them.
type policySet[Q any] struct {
	fields []field[Q]
	byID   [NumPolicyIDs]func(*Q) any
	// consistent checks the combinations of valid policies (nil: none).
	consistent func(*Q) error
}

func newPolicySet[Q any](consistent func(*Q) error, fs ...[]field[Q]) *policySet[Q] {
	s := &policySet[Q]{consistent: consistent}
	for _, part := range fs {
		for _, f := range part {
			s.fields = append(s.fields, f)
			s.byID[f.p.id] = f.at
		}
	}
	return s
}

// validate checks each policy in field order, then the combinations.
func (s *policySet[Q]) validate(q *Q) error {
	for _, f := range s.fields {
		if err := f.p.ops.validate(f.at(q)); err != nil {
			return err
		}
	}
	if s.consistent != nil {
		return s.consistent(q)
	}
	return nil
}

// checkChange returns an ImmutablePolicy error for the first policy, in PolicyID order,
// that is not changeable and differs between q and next.
func (s *policySet[Q]) checkChange(q, next *Q) error {
	for id := range PolicyID(NumPolicyIDs) {
		at := s.byID[id]
		if at != nil && !policies[id].changeable && !policies[id].ops.equal(at(q), at(next)) {
			return immutable(id)
		}
	}
	return nil
}

// clone unshares the slices of q.
func (s *policySet[Q]) clone(q *Q) {
	for _, f := range s.fields {
		f.p.ops.assign(f.at(q), f.at(q))
	}
}

// cloned returns q with its slices unshared.
func cloned[Q any](s *policySet[Q], q Q) Q {
	s.clone(&q)
	return q
}

// copyFrom sets the policies of dst that src (of set from) also has to src's.
func copyFrom[Q, R any](s *policySet[Q], dst *Q, from *policySet[R], src *R) {
	for _, f := range s.fields {
		if at := from.byID[f.p.id]; at != nil {
			f.p.ops.assign(f.at(dst), at(src))
		}
	}
}

var (
	writerFields = []field[DataWriterQos]{
		has(durability, func(q *DataWriterQos) *Durability { return &q.Durability }),
		has(durabilityService, func(q *DataWriterQos) *DurabilityService { return &q.DurabilityService }),
		has(deadline, func(q *DataWriterQos) *Deadline { return &q.Deadline }),
		has(latencyBudget, func(q *DataWriterQos) *LatencyBudget { return &q.LatencyBudget }),
		has(liveliness, func(q *DataWriterQos) *Liveliness { return &q.Liveliness }),
		has(reliability, func(q *DataWriterQos) *Reliability { return &q.Reliability }),
		has(destinationOrder, func(q *DataWriterQos) *DestinationOrder { return &q.DestinationOrder }),
		has(history, func(q *DataWriterQos) *History { return &q.History }),
		has(resourceLimits, func(q *DataWriterQos) *ResourceLimits { return &q.ResourceLimits }),
		has(transportPriority, func(q *DataWriterQos) *TransportPriority { return &q.TransportPriority }),
		has(lifespan, func(q *DataWriterQos) *Lifespan { return &q.Lifespan }),
		has(userData, func(q *DataWriterQos) *UserData { return &q.UserData }),
		has(ownership, func(q *DataWriterQos) *Ownership { return &q.Ownership }),
		has(ownershipStrength, func(q *DataWriterQos) *OwnershipStrength { return &q.OwnershipStrength }),
		has(writerDataLifecycle, func(q *DataWriterQos) *WriterDataLifecycle { return &q.WriterDataLifecycle }),
		has(dataRepresentation, func(q *DataWriterQos) *DataRepresentation { return &q.DataRepresentation }),
	}
	readerFields = []field[DataReaderQos]{
		has(durability, func(q *DataReaderQos) *Durability { return &q.Durability }),
		has(deadline, func(q *DataReaderQos) *Deadline { return &q.Deadline }),
		has(latencyBudget, func(q *DataReaderQos) *LatencyBudget { return &q.LatencyBudget }),
		has(liveliness, func(q *DataReaderQos) *Liveliness { return &q.Liveliness }),
		has(reliability, func(q *DataReaderQos) *Reliability { return &q.Reliability }),
		has(destinationOrder, func(q *DataReaderQos) *DestinationOrder { return &q.DestinationOrder }),
		has(history, func(q *DataReaderQos) *History { return &q.History }),
		has(resourceLimits, func(q *DataReaderQos) *ResourceLimits { return &q.ResourceLimits }),
		has(userData, func(q *DataReaderQos) *UserData { return &q.UserData }),
		has(ownership, func(q *DataReaderQos) *Ownership { return &q.Ownership }),
		has(timeBasedFilter, func(q *DataReaderQos) *TimeBasedFilter { return &q.TimeBasedFilter }),
		has(readerDataLifecycle, func(q *DataReaderQos) *ReaderDataLifecycle { return &q.ReaderDataLifecycle }),
		has(dataRepresentation, func(q *DataReaderQos) *DataRepresentation { return &q.DataRepresentation }),
		has(typeConsistency, func(q *DataReaderQos) *TypeConsistencyEnforcement { return &q.TypeConsistencyEnforcement }),
	}
	topicFields = []field[TopicQos]{
		has(topicData, func(q *TopicQos) *TopicData { return &q.TopicData }),
		has(durability, func(q *TopicQos) *Durability { return &q.Durability }),
		has(durabilityService, func(q *TopicQos) *DurabilityService { return &q.DurabilityService }),
		has(deadline, func(q *TopicQos) *Deadline { return &q.Deadline }),
		has(latencyBudget, func(q *TopicQos) *LatencyBudget { return &q.LatencyBudget }),
		has(liveliness, func(q *TopicQos) *Liveliness { return &q.Liveliness }),
		has(reliability, func(q *TopicQos) *Reliability { return &q.Reliability }),
		has(destinationOrder, func(q *TopicQos) *DestinationOrder { return &q.DestinationOrder }),
		has(history, func(q *TopicQos) *History { return &q.History }),
		has(resourceLimits, func(q *TopicQos) *ResourceLimits { return &q.ResourceLimits }),
		has(transportPriority, func(q *TopicQos) *TransportPriority { return &q.TransportPriority }),
		has(lifespan, func(q *TopicQos) *Lifespan { return &q.Lifespan }),
		has(ownership, func(q *TopicQos) *Ownership { return &q.Ownership }),
		has(dataRepresentation, func(q *TopicQos) *DataRepresentation { return &q.DataRepresentation }),
	}
	publisherFields = []field[PublisherQos]{
		has(presentation, func(q *PublisherQos) *Presentation { return &q.Presentation }),
		has(partition, func(q *PublisherQos) *Partition { return &q.Partition }),
		has(groupData, func(q *PublisherQos) *GroupData { return &q.GroupData }),
		has(entityFactory, func(q *PublisherQos) *EntityFactory { return &q.EntityFactory }),
	}
	subscriberFields = []field[SubscriberQos]{
		has(presentation, func(q *SubscriberQos) *Presentation { return &q.Presentation }),
		has(partition, func(q *SubscriberQos) *Partition { return &q.Partition }),
		has(groupData, func(q *SubscriberQos) *GroupData { return &q.GroupData }),
		has(entityFactory, func(q *SubscriberQos) *EntityFactory { return &q.EntityFactory }),
	}

	factoryPolicies = newPolicySet[DomainParticipantFactoryQos](nil, []field[DomainParticipantFactoryQos]{
		has(entityFactory, func(q *DomainParticipantFactoryQos) *EntityFactory { return &q.EntityFactory }),
	})
	participantPolicies = newPolicySet[DomainParticipantQos](nil, []field[DomainParticipantQos]{
		has(userData, func(q *DomainParticipantQos) *UserData { return &q.UserData }),
		has(entityFactory, func(q *DomainParticipantQos) *EntityFactory { return &q.EntityFactory }),
	})
	topicPolicies = newPolicySet(func(q *TopicQos) error {
		return historyAndLimits(&q.History, &q.ResourceLimits)
	}, topicFields)
	publisherPolicies  = newPolicySet[PublisherQos](nil, publisherFields)
	subscriberPolicies = newPolicySet[SubscriberQos](nil, subscriberFields)
	writerPolicies     = newPolicySet(func(q *DataWriterQos) error {
		return historyAndLimits(&q.History, &q.ResourceLimits)
	}, writerFields)
	readerPolicies = newPolicySet(func(q *DataReaderQos) error {
		if err := historyAndLimits(&q.History, &q.ResourceLimits); err != nil {
			return err
		}
		if q.Deadline.Period < q.TimeBasedFilter.MinimumSeparation {
			return inconsistent(DeadlinePolicyID, "period "+q.Deadline.Period.String()+
				" < time-based filter minimum_separation "+q.TimeBasedFilter.MinimumSeparation.String())
		}
		return nil
	}, readerFields)

	// What a writer and a reader announce in discovery: their own policies, their
	// publisher's or subscriber's, and their topic's TOPIC_DATA.
	offeredPolicies = newPolicySet[Offered](nil,
		within(writerFields, func(o *Offered) *DataWriterQos { return &o.Writer }),
		within(publisherFields, func(o *Offered) *PublisherQos { return &o.Publisher }),
		[]field[Offered]{has(topicData, func(o *Offered) *TopicData { return &o.TopicData })})
	requestedPolicies = newPolicySet[Requested](nil,
		within(readerFields, func(r *Requested) *DataReaderQos { return &r.Reader }),
		within(subscriberFields, func(r *Requested) *SubscriberQos { return &r.Subscriber }),
		[]field[Requested]{has(topicData, func(r *Requested) *TopicData { return &r.TopicData })})
)
