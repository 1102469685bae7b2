package qos

import (
	"fmt"
	"strconv"
	"time"
)

// Validation follows DDS 1.4 §2.2.3 ("Value" and "Meaning" columns and the consistency
// rules of §2.2.3.18 HISTORY, §2.2.3.19 RESOURCE_LIMITS and §2.2.3.12 TIME_BASED_FILTER):
// a value out of its range is dds.ErrBadParameter, a combination of valid values that cannot
// hold together is dds.ErrInconsistentPolicy.

func checkDuration(id PolicyID, field string, d time.Duration) error {
	if d < 0 {
		return badParameter(id, field+" is negative ("+d.String()+")")
	}
	return nil
}

func checkLimit(id PolicyID, field string, v int32) error {
	if v < 1 && v != LengthUnlimited {
		return badParameter(id, field+" "+itoa(v)+" is neither positive nor LengthUnlimited")
	}
	return nil
}

func itoa(v int32) string { return strconv.Itoa(int(v)) }

// checkKind reports an unknown kind.
func checkKind(id PolicyID, what string, valid bool, k fmt.Stringer) error {
	if !valid {
		return badParameter(id, "unknown "+what+" "+k.String())
	}
	return nil
}

// validateHistory checks a history kind and depth for policy id (HISTORY or
// DURABILITY_SERVICE).
func validateHistory(id PolicyID, kind HistoryKind, depth int32) error {
	if !kind.valid() {
		return badParameter(id, "unknown history kind "+kind.String())
	}
	if kind == KeepLast && depth < 1 {
		return badParameter(id, "KEEP_LAST depth "+itoa(depth)+" < 1")
	}
	return nil
}

// validateLimits checks resource limits for policy id (RESOURCE_LIMITS or
// DURABILITY_SERVICE), and that max_samples >= max_samples_per_instance unless one of them
// is unlimited (§2.2.3.19).
func validateLimits(id PolicyID, maxSamples, maxInstances, maxPerInstance int32) error {
	if err := checkLimit(id, "max_samples", maxSamples); err != nil {
		return err
	}
	if err := checkLimit(id, "max_instances", maxInstances); err != nil {
		return err
	}
	if err := checkLimit(id, "max_samples_per_instance", maxPerInstance); err != nil {
		return err
	}
	if maxSamples != LengthUnlimited && maxPerInstance != LengthUnlimited && maxSamples < maxPerInstance {
		return inconsistent(id, "max_samples "+itoa(maxSamples)+" < max_samples_per_instance "+itoa(maxPerInstance))
	}
	return nil
}

// validateHistoryLimits checks the combination: a KEEP_LAST depth may not exceed
// max_samples_per_instance (§2.2.3.18).
func validateHistoryLimits(id PolicyID, kind HistoryKind, depth, maxPerInstance int32) error {
	if kind == KeepLast && maxPerInstance != LengthUnlimited && depth > maxPerInstance {
		return inconsistent(id, "KEEP_LAST depth "+itoa(depth)+" > max_samples_per_instance "+itoa(maxPerInstance))
	}
	return nil
}

// historyAndLimits is the consistency of HISTORY and RESOURCE_LIMITS (§2.2.3.18).
func historyAndLimits(h *History, r *ResourceLimits) error {
	return validateHistoryLimits(HistoryPolicyID, h.Kind, h.Depth, r.MaxSamplesPerInstance)
}

func validateDurabilityService(p *DurabilityService) error {
	const id = DurabilityServicePolicyID
	return firstError(
		checkDuration(id, "service_cleanup_delay", p.ServiceCleanupDelay),
		validateHistory(id, p.HistoryKind, p.HistoryDepth),
		validateLimits(id, p.MaxSamples, p.MaxInstances, p.MaxSamplesPerInstance),
		validateHistoryLimits(id, p.HistoryKind, p.HistoryDepth, p.MaxSamplesPerInstance),
	)
}

func validateDataRepresentation(p *DataRepresentation) error {
	for _, v := range p.Value {
		if !v.valid() {
			return badParameter(DataRepresentationPolicyID, "unknown representation "+v.String())
		}
	}
	return nil
}

// firstError returns the first non-nil error.
func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Validate reports whether q is a valid factory QoS. Every value is; it exists for
// symmetry with the other QoS types.
func (q DomainParticipantFactoryQos) Validate() error { return factoryPolicies.validate(&q) }

// Validate reports whether q is a valid participant QoS. Every value is; it exists for
// symmetry with the other QoS types.
func (q DomainParticipantQos) Validate() error { return participantPolicies.validate(&q) }

// Validate checks every policy of q and their combinations. The error is a *PolicyError
// wrapping dds.ErrBadParameter or dds.ErrInconsistentPolicy.
func (q TopicQos) Validate() error { return topicPolicies.validate(&q) }

// Validate checks every policy of q. The error is a *PolicyError wrapping
// dds.ErrBadParameter.
func (q PublisherQos) Validate() error { return publisherPolicies.validate(&q) }

// Validate checks every policy of q. The error is a *PolicyError wrapping
// dds.ErrBadParameter.
func (q SubscriberQos) Validate() error { return subscriberPolicies.validate(&q) }

// Validate checks every policy of q and their combinations. The error is a *PolicyError
// wrapping dds.ErrBadParameter or dds.ErrInconsistentPolicy.
func (q DataWriterQos) Validate() error { return writerPolicies.validate(&q) }

// Validate checks every policy of q and their combinations, including that the deadline
// period is not shorter than the time-based filter's minimum separation (§2.2.3.12). The
// error is a *PolicyError wrapping dds.ErrBadParameter or dds.ErrInconsistentPolicy.
func (q DataReaderQos) Validate() error { return readerPolicies.validate(&q) }
