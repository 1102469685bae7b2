package qos

import "time"

// DefaultMaxBlockingTime is the default RELIABILITY max_blocking_time of DDS 1.4
// §2.2.3.14 for every entity (Cyclone DDS 0.10.2 uses it for writers but 0 for readers,
// where it has no effect).
const DefaultMaxBlockingTime = 100 * time.Millisecond

// DomainParticipantFactoryQos is DomainParticipantFactoryQos (DDS 1.4 §2.2.2.2.2).
type DomainParticipantFactoryQos struct {
	EntityFactory EntityFactory
}

// DomainParticipantQos is DomainParticipantQos (DDS 1.4 §2.2.2.2.1).
type DomainParticipantQos struct {
	UserData      UserData
	EntityFactory EntityFactory
}

// TopicQos is TopicQos (DDS 1.4 §2.2.2.3.1, plus DATA_REPRESENTATION of DDS-XTypes 1.3).
// A topic's QoS takes no part in matching; it reaches writers and readers through
// DataWriterQos.FromTopic and DataReaderQos.FromTopic.
type TopicQos struct {
	TopicData          TopicData
	Durability         Durability
	DurabilityService  DurabilityService
	Deadline           Deadline
	LatencyBudget      LatencyBudget
	Liveliness         Liveliness
	Reliability        Reliability
	DestinationOrder   DestinationOrder
	History            History
	ResourceLimits     ResourceLimits
	TransportPriority  TransportPriority
	Lifespan           Lifespan
	Ownership          Ownership
	DataRepresentation DataRepresentation
}

// PublisherQos is PublisherQos (DDS 1.4 §2.2.2.4.1).
type PublisherQos struct {
	Presentation  Presentation
	Partition     Partition
	GroupData     GroupData
	EntityFactory EntityFactory
}

// SubscriberQos is SubscriberQos (DDS 1.4 §2.2.2.5.1).
type SubscriberQos struct {
	Presentation  Presentation
	Partition     Partition
	GroupData     GroupData
	EntityFactory EntityFactory
}

// DataWriterQos is DataWriterQos (DDS 1.4 §2.2.2.4.2, plus DATA_REPRESENTATION of
// DDS-XTypes 1.3).
type DataWriterQos struct {
	Durability          Durability
	DurabilityService   DurabilityService
	Deadline            Deadline
	LatencyBudget       LatencyBudget
	Liveliness          Liveliness
	Reliability         Reliability
	DestinationOrder    DestinationOrder
	History             History
	ResourceLimits      ResourceLimits
	TransportPriority   TransportPriority
	Lifespan            Lifespan
	UserData            UserData
	Ownership           Ownership
	OwnershipStrength   OwnershipStrength
	WriterDataLifecycle WriterDataLifecycle
	DataRepresentation  DataRepresentation
}

// DataReaderQos is DataReaderQos (DDS 1.4 §2.2.2.5.2, plus DATA_REPRESENTATION and
// TYPE_CONSISTENCY_ENFORCEMENT of DDS-XTypes 1.3).
type DataReaderQos struct {
	Durability                 Durability
	Deadline                   Deadline
	LatencyBudget              LatencyBudget
	Liveliness                 Liveliness
	Reliability                Reliability
	DestinationOrder           DestinationOrder
	History                    History
	ResourceLimits             ResourceLimits
	UserData                   UserData
	Ownership                  Ownership
	TimeBasedFilter            TimeBasedFilter
	ReaderDataLifecycle        ReaderDataLifecycle
	DataRepresentation         DataRepresentation
	TypeConsistencyEnforcement TypeConsistencyEnforcement
}

// The defaults of the "Value" column of DDS 1.4 §2.2.3 and of DDS-XTypes 1.3 §7.6.3.

func defaultDurabilityService() DurabilityService {
	return DurabilityService{
		ServiceCleanupDelay:   0,
		HistoryKind:           KeepLast,
		HistoryDepth:          1,
		MaxSamples:            LengthUnlimited,
		MaxInstances:          LengthUnlimited,
		MaxSamplesPerInstance: LengthUnlimited,
	}
}

func defaultResourceLimits() ResourceLimits {
	return ResourceLimits{
		MaxSamples:            LengthUnlimited,
		MaxInstances:          LengthUnlimited,
		MaxSamplesPerInstance: LengthUnlimited,
	}
}

// DefaultDomainParticipantFactoryQos returns the default factory QoS: entities are
// enabled when created.
func DefaultDomainParticipantFactoryQos() DomainParticipantFactoryQos {
	return DomainParticipantFactoryQos{EntityFactory: EntityFactory{AutoenableCreatedEntities: true}}
}

// DefaultDomainParticipantQos returns the default participant QoS: no user data, entities
// enabled when created.
func DefaultDomainParticipantQos() DomainParticipantQos {
	return DomainParticipantQos{EntityFactory: EntityFactory{AutoenableCreatedEntities: true}}
}

// DefaultTopicQos returns the default topic QoS: VOLATILE, BEST_EFFORT (max blocking
// 100 ms), KEEP_LAST 1, no resource limits, AUTOMATIC liveliness with infinite lease,
// infinite deadline and lifespan, SHARED ownership, BY_RECEPTION_TIMESTAMP, no latency
// budget, transport priority 0, empty data representation (XCDR1).
func DefaultTopicQos() TopicQos {
	return TopicQos{
		Durability:        Durability{Kind: Volatile},
		DurabilityService: defaultDurabilityService(),
		Deadline:          Deadline{Period: Infinite},
		LatencyBudget:     LatencyBudget{Duration: 0},
		Liveliness:        Liveliness{Kind: Automatic, LeaseDuration: Infinite},
		Reliability:       Reliability{Kind: BestEffort, MaxBlockingTime: DefaultMaxBlockingTime},
		DestinationOrder:  DestinationOrder{Kind: ByReceptionTimestamp},
		History:           History{Kind: KeepLast, Depth: 1},
		ResourceLimits:    defaultResourceLimits(),
		TransportPriority: TransportPriority{Value: 0},
		Lifespan:          Lifespan{Duration: Infinite},
		Ownership:         Ownership{Kind: Shared},
	}
}

// DefaultPublisherQos returns the default publisher QoS: INSTANCE presentation without
// coherent or ordered access, the default partition, entities enabled when created.
func DefaultPublisherQos() PublisherQos {
	return PublisherQos{
		Presentation:  Presentation{AccessScope: InstanceScope},
		EntityFactory: EntityFactory{AutoenableCreatedEntities: true},
	}
}

// DefaultSubscriberQos returns the default subscriber QoS, the same as the publisher's.
func DefaultSubscriberQos() SubscriberQos {
	return SubscriberQos{
		Presentation:  Presentation{AccessScope: InstanceScope},
		EntityFactory: EntityFactory{AutoenableCreatedEntities: true},
	}
}

// DefaultDataWriterQos returns the default writer QoS: as DefaultTopicQos but RELIABLE
// (max blocking 100 ms), with ownership strength 0 and autodispose of unregistered
// instances.
func DefaultDataWriterQos() DataWriterQos {
	q := DataWriterQos{
		OwnershipStrength:   OwnershipStrength{Value: 0},
		WriterDataLifecycle: WriterDataLifecycle{AutodisposeUnregisteredInstances: true},
	}.FromTopic(DefaultTopicQos())
	q.Reliability.Kind = Reliable
	return q
}

// DefaultDataReaderQos returns the default reader QoS: as DefaultTopicQos (BEST_EFFORT),
// no time-based filter, never autopurge, and type coercion allowed ignoring sequence and
// string bounds.
func DefaultDataReaderQos() DataReaderQos {
	return DataReaderQos{
		TimeBasedFilter: TimeBasedFilter{MinimumSeparation: 0},
		ReaderDataLifecycle: ReaderDataLifecycle{
			AutopurgeNoWriterSamplesDelay: Infinite,
			AutopurgeDisposedSamplesDelay: Infinite,
		},
		TypeConsistencyEnforcement: TypeConsistencyEnforcement{
			Kind:                 AllowTypeCoercion,
			IgnoreSequenceBounds: true,
			IgnoreStringBounds:   true,
		},
	}.FromTopic(DefaultTopicQos())
}

// FromTopic returns q with the policies it shares with the topic QoS t replaced by t's
// (copy_from_topic_qos of the Publisher, DDS 1.4 §2.2.2.4.1): durability, durability service,
// deadline, latency budget, liveliness, reliability, destination order, history, resource
// limits, transport priority, lifespan, ownership and data representation. Note that the
// default topic reliability is BEST_EFFORT.
func (q DataWriterQos) FromTopic(t TopicQos) DataWriterQos {
	copyFrom(writerPolicies, &q, topicPolicies, &t)
	return q
}

// FromTopic returns q with the policies it shares with the topic QoS t replaced by t's
// (copy_from_topic_qos of the Subscriber, DDS 1.4 §2.2.2.5.1): durability, deadline, latency budget,
// liveliness, reliability, destination order, history, resource limits, ownership and
// data representation.
func (q DataReaderQos) FromTopic(t TopicQos) DataReaderQos {
	copyFrom(readerPolicies, &q, topicPolicies, &t)
	return q
}

// Clone returns a copy of q that shares no memory with it.
func (q DomainParticipantQos) Clone() DomainParticipantQos { return cloned(participantPolicies, q) }

// Clone returns a copy of q that shares no memory with it.
func (q TopicQos) Clone() TopicQos { return cloned(topicPolicies, q) }

// Clone returns a copy of q that shares no memory with it.
func (q PublisherQos) Clone() PublisherQos { return cloned(publisherPolicies, q) }

// Clone returns a copy of q that shares no memory with it.
func (q SubscriberQos) Clone() SubscriberQos { return cloned(subscriberPolicies, q) }

// Clone returns a copy of q that shares no memory with it.
func (q DataWriterQos) Clone() DataWriterQos { return cloned(writerPolicies, q) }

// Clone returns a copy of q that shares no memory with it.
func (q DataReaderQos) Clone() DataReaderQos { return cloned(readerPolicies, q) }
