// Package qos holds the QoS policies of the OMG DDS 1.4 DCPS (§2.2.3) and of DDS-XTypes
// 1.3 (DATA_REPRESENTATION, TYPE_CONSISTENCY_ENFORCEMENT) as plain Go values, the QoS
// sets of each kind of entity with the spec's defaults, and the rules that relate them:
// validity, which policies may change after an entity is enabled, and the
// requested/offered (RxO) compatibility of writers and readers. It depends on the
// standard library and the module's error codes (internal/errs) only.
//
// # Policies
//
// Each policy is a small struct named after it (Reliability, History, Partition, ...)
// with kind enumerations numbered as in the DCPS IDL (BestEffort < Reliable, Volatile <
// TransientLocal < Transient < Persistent, ...) and String methods that return the spec
// names. Durations are time.Duration; Infinite (math.MaxInt64) is the infinite duration
// and LengthUnlimited (-1) the unlimited resource limit. PolicyID numbers the policies as
// QosPolicyId_t does (DurabilityPolicyID is 2, DataRepresentationPolicyID 23), and says
// whether a policy is RxO and whether it is changeable.
//
// Each policy is declared once, in one row of the package's policy table: id, name,
// RTPS parameter id, the RxO and Changeable columns, wire encoding and decoding,
// validity, RxO rule and printed form. Validate, CheckChange, Clone, FromTopic,
// Compatible, Explain and the discovery codec (which the engine reaches through
// internal/qoswire: no program needs it) all go through it.
//
// # Entity QoS
//
// DomainParticipantFactoryQos, DomainParticipantQos, TopicQos, PublisherQos,
// SubscriberQos, DataWriterQos and DataReaderQos group the policies of each entity. The
// Default… constructors return the defaults of DDS 1.4 §2.2.3: VOLATILE, KEEP_LAST 1, no
// resource limits, AUTOMATIC liveliness with an infinite lease, infinite deadline,
// SHARED ownership, BY_RECEPTION_TIMESTAMP, RELIABLE for writers and BEST_EFFORT for
// readers and topics, both with a max_blocking_time of 100 ms. The values are plain: copy
// them, change fields, and use Clone where a copy must not share the byte and string
// slices. FromTopic applies a topic's QoS to a writer's or reader's (copy_from_topic_qos).
//
// The defaults agree with Cyclone DDS 0.10.2, which however uses a reader
// max_blocking_time of 0 and fills an unset DATA_REPRESENTATION with [XCDR1, XCDR2]
// (for final types) where the spec's empty list means XCDR1 only. Fast DDS 2.9.1 makes
// its writers TRANSIENT_LOCAL by default (its QosPolicies.hpp says so).
//
// # Validation and changes
//
// Validate reports a value out of range (a negative duration, a KEEP_LAST depth below 1, a
// resource limit neither positive nor LengthUnlimited, an unknown kind) as dds.ErrBadParameter
// and policies that contradict each other (a history depth above
// max_samples_per_instance, max_samples below max_samples_per_instance, a deadline
// shorter than the time-based filter) as dds.ErrInconsistentPolicy. CheckChange reports a
// change of a policy that may not change once the entity is enabled as
// dds.ErrImmutablePolicy. The errors are *PolicyError values that name the policy and match
// the return codes with errors.Is.
//
// # Matching
//
// Compatible applies the RxO rules to what a writer and its publisher offer and what a
// reader and its subscriber request, and returns the incompatible policies, which the
// OFFERED_ and REQUESTED_INCOMPATIBLE_QOS statuses count. PartitionsMatch applies the
// partition rules, with fnmatch wildcards on either side.
package qos
