package qos

import (
	"slices"

	"github.com/ddsgo/ddsgo/internal/errs"
)

// CheckChange methods implement the "Changeable" column of DDS 1.4 §2.2.3 (and DDS-XTypes
// 1.3 §7.6.3): once an entity is enabled, set_qos may not change DURABILITY,
// DURABILITY_SERVICE, PRESENTATION, OWNERSHIP, LIVELINESS, RELIABILITY, DESTINATION_ORDER,
// HISTORY, RESOURCE_LIMITS, DATA_REPRESENTATION or TYPE_CONSISTENCY_ENFORCEMENT. Before
// the entity is enabled every policy may change, so the caller checks only enabled
// entities. The error names the first changed policy in PolicyID order and wraps
// dds.ErrImmutablePolicy.

func immutable(id PolicyID, changed bool) error {
	if changed {
		return &PolicyError{Policy: id, Reason: "not changeable after the entity is enabled", Err: errs.ImmutablePolicy}
	}
	return nil
}

// CheckChange reports whether a factory QoS may change from q to next. Every policy of
// it is changeable.
func (q DomainParticipantFactoryQos) CheckChange(next DomainParticipantFactoryQos) error {
	return nil
}

// CheckChange reports whether an enabled participant's QoS may change from q to next.
// Every policy of it is changeable.
func (q DomainParticipantQos) CheckChange(next DomainParticipantQos) error { return nil }

// CheckChange reports whether an enabled topic's QoS may change from q to next.
func (q TopicQos) CheckChange(next TopicQos) error {
	return firstError(
		immutable(DurabilityPolicyID, q.Durability != next.Durability),
		immutable(OwnershipPolicyID, q.Ownership != next.Ownership),
		immutable(LivelinessPolicyID, q.Liveliness != next.Liveliness),
		immutable(ReliabilityPolicyID, q.Reliability != next.Reliability),
		immutable(DestinationOrderPolicyID, q.DestinationOrder != next.DestinationOrder),
		immutable(HistoryPolicyID, q.History != next.History),
		immutable(ResourceLimitsPolicyID, q.ResourceLimits != next.ResourceLimits),
		immutable(DurabilityServicePolicyID, q.DurabilityService != next.DurabilityService),
		immutable(DataRepresentationPolicyID, !slices.Equal(q.DataRepresentation.Value, next.DataRepresentation.Value)),
	)
}

// CheckChange reports whether an enabled publisher's QoS may change from q to next.
func (q PublisherQos) CheckChange(next PublisherQos) error {
	return immutable(PresentationPolicyID, q.Presentation != next.Presentation)
}

// CheckChange reports whether an enabled subscriber's QoS may change from q to next.
func (q SubscriberQos) CheckChange(next SubscriberQos) error {
	return immutable(PresentationPolicyID, q.Presentation != next.Presentation)
}

// CheckChange reports whether an enabled writer's QoS may change from q to next.
func (q DataWriterQos) CheckChange(next DataWriterQos) error {
	return firstError(
		immutable(DurabilityPolicyID, q.Durability != next.Durability),
		immutable(OwnershipPolicyID, q.Ownership != next.Ownership),
		immutable(LivelinessPolicyID, q.Liveliness != next.Liveliness),
		immutable(ReliabilityPolicyID, q.Reliability != next.Reliability),
		immutable(DestinationOrderPolicyID, q.DestinationOrder != next.DestinationOrder),
		immutable(HistoryPolicyID, q.History != next.History),
		immutable(ResourceLimitsPolicyID, q.ResourceLimits != next.ResourceLimits),
		immutable(DurabilityServicePolicyID, q.DurabilityService != next.DurabilityService),
		immutable(DataRepresentationPolicyID, !slices.Equal(q.DataRepresentation.Value, next.DataRepresentation.Value)),
	)
}

// CheckChange reports whether an enabled reader's QoS may change from q to next.
func (q DataReaderQos) CheckChange(next DataReaderQos) error {
	return firstError(
		immutable(DurabilityPolicyID, q.Durability != next.Durability),
		immutable(OwnershipPolicyID, q.Ownership != next.Ownership),
		immutable(LivelinessPolicyID, q.Liveliness != next.Liveliness),
		immutable(ReliabilityPolicyID, q.Reliability != next.Reliability),
		immutable(DestinationOrderPolicyID, q.DestinationOrder != next.DestinationOrder),
		immutable(HistoryPolicyID, q.History != next.History),
		immutable(ResourceLimitsPolicyID, q.ResourceLimits != next.ResourceLimits),
		immutable(DataRepresentationPolicyID, !slices.Equal(q.DataRepresentation.Value, next.DataRepresentation.Value)),
		immutable(TypeConsistencyEnforcementPolicyID, q.TypeConsistencyEnforcement != next.TypeConsistencyEnforcement),
	)
}
