package qos

import "github.com/ddsgo/ddsgo/internal/errs"

// CheckChange methods implement the "Changeable" column of DDS 1.4 §2.2.3 (and DDS-XTypes
// 1.3 §7.6.3), as the policy table holds it: once an entity is enabled, set_qos may not
// change DURABILITY, DURABILITY_SERVICE, PRESENTATION, OWNERSHIP, LIVELINESS, RELIABILITY,
// DESTINATION_ORDER, HISTORY, RESOURCE_LIMITS, DATA_REPRESENTATION or
// TYPE_CONSISTENCY_ENFORCEMENT. Before the entity is enabled every policy may change, so
// the caller checks only enabled entities. The error names the first changed policy in
// PolicyID order and wraps dds.ErrImmutablePolicy.

func immutable(id PolicyID) error {
	return &PolicyError{Policy: id, Reason: "not changeable after the entity is enabled", Err: errs.ErrImmutablePolicy}
}

// CheckChange reports whether a factory QoS may change from q to next. Every policy of
// it is changeable.
func (q DomainParticipantFactoryQos) CheckChange(next DomainParticipantFactoryQos) error {
	return factoryPolicies.checkChange(&q, &next)
}

// CheckChange reports whether an enabled participant's QoS may change from q to next.
// Every policy of it is changeable.
func (q DomainParticipantQos) CheckChange(next DomainParticipantQos) error {
	return participantPolicies.checkChange(&q, &next)
}

// CheckChange reports whether an enabled topic's QoS may change from q to next.
func (q TopicQos) CheckChange(next TopicQos) error { return topicPolicies.checkChange(&q, &next) }

// CheckChange reports whether an enabled publisher's QoS may change from q to next.
func (q PublisherQos) CheckChange(next PublisherQos) error {
	return publisherPolicies.checkChange(&q, &next)
}

// CheckChange reports whether an enabled subscriber's QoS may change from q to next.
func (q SubscriberQos) CheckChange(next SubscriberQos) error {
	return subscriberPolicies.checkChange(&q, &next)
}

// CheckChange reports whether an enabled writer's QoS may change from q to next.
func (q DataWriterQos) CheckChange(next DataWriterQos) error {
	return writerPolicies.checkChange(&q, &next)
}

// CheckChange reports whether an enabled reader's QoS may change from q to next.
func (q DataReaderQos) CheckChange(next DataReaderQos) error {
	return readerPolicies.checkChange(&q, &next)
}
