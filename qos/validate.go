package qos

import (
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

func (p Durability) validate() error {
	if !p.Kind.valid() {
		return badParameter(DurabilityPolicyID, "unknown kind "+p.Kind.String())
	}
	return nil
}

func (p Presentation) validate() error {
	if !p.AccessScope.valid() {
		return badParameter(PresentationPolicyID, "unknown access scope "+p.AccessScope.String())
	}
	return nil
}

func (p Deadline) validate() error {
	return checkDuration(DeadlinePolicyID, "period", p.Period)
}

func (p LatencyBudget) validate() error {
	return checkDuration(LatencyBudgetPolicyID, "duration", p.Duration)
}

func (p Ownership) validate() error {
	if !p.Kind.valid() {
		return badParameter(OwnershipPolicyID, "unknown kind "+p.Kind.String())
	}
	return nil
}

func (p Liveliness) validate() error {
	if !p.Kind.valid() {
		return badParameter(LivelinessPolicyID, "unknown kind "+p.Kind.String())
	}
	return checkDuration(LivelinessPolicyID, "lease_duration", p.LeaseDuration)
}

func (p TimeBasedFilter) validate() error {
	return checkDuration(TimeBasedFilterPolicyID, "minimum_separation", p.MinimumSeparation)
}

func (p Reliability) validate() error {
	if !p.Kind.valid() {
		return badParameter(ReliabilityPolicyID, "unknown kind "+p.Kind.String())
	}
	return checkDuration(ReliabilityPolicyID, "max_blocking_time", p.MaxBlockingTime)
}

func (p Lifespan) validate() error {
	return checkDuration(LifespanPolicyID, "duration", p.Duration)
}

func (p DestinationOrder) validate() error {
	if !p.Kind.valid() {
		return badParameter(DestinationOrderPolicyID, "unknown kind "+p.Kind.String())
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

func validateHistoryAndLimits(h History, r ResourceLimits) error {
	if err := validateHistory(HistoryPolicyID, h.Kind, h.Depth); err != nil {
		return err
	}
	if err := validateLimits(ResourceLimitsPolicyID, r.MaxSamples, r.MaxInstances, r.MaxSamplesPerInstance); err != nil {
		return err
	}
	return validateHistoryLimits(HistoryPolicyID, h.Kind, h.Depth, r.MaxSamplesPerInstance)
}

func (p DurabilityService) validate() error {
	const id = DurabilityServicePolicyID
	if err := checkDuration(id, "service_cleanup_delay", p.ServiceCleanupDelay); err != nil {
		return err
	}
	if err := validateHistory(id, p.HistoryKind, p.HistoryDepth); err != nil {
		return err
	}
	if err := validateLimits(id, p.MaxSamples, p.MaxInstances, p.MaxSamplesPerInstance); err != nil {
		return err
	}
	return validateHistoryLimits(id, p.HistoryKind, p.HistoryDepth, p.MaxSamplesPerInstance)
}

func (p ReaderDataLifecycle) validate() error {
	const id = ReaderDataLifecyclePolicyID
	if err := checkDuration(id, "autopurge_nowriter_samples_delay", p.AutopurgeNoWriterSamplesDelay); err != nil {
		return err
	}
	return checkDuration(id, "autopurge_disposed_samples_delay", p.AutopurgeDisposedSamplesDelay)
}

func (p DataRepresentation) validate() error {
	for _, v := range p.Value {
		if !v.valid() {
			return badParameter(DataRepresentationPolicyID, "unknown representation "+v.String())
		}
	}
	return nil
}

func (p TypeConsistencyEnforcement) validate() error {
	if !p.Kind.valid() {
		return badParameter(TypeConsistencyEnforcementPolicyID, "unknown kind "+p.Kind.String())
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
func (q DomainParticipantFactoryQos) Validate() error { return nil }

// Validate reports whether q is a valid participant QoS. Every value is; it exists for
// symmetry with the other QoS types.
func (q DomainParticipantQos) Validate() error { return nil }

// Validate checks every policy of q and their combinations. The error is a *PolicyError
// wrapping dds.ErrBadParameter or dds.ErrInconsistentPolicy.
func (q TopicQos) Validate() error {
	return firstError(
		q.Durability.validate(),
		q.DurabilityService.validate(),
		q.Deadline.validate(),
		q.LatencyBudget.validate(),
		q.Liveliness.validate(),
		q.Reliability.validate(),
		q.DestinationOrder.validate(),
		validateHistoryAndLimits(q.History, q.ResourceLimits),
		q.Lifespan.validate(),
		q.Ownership.validate(),
		q.DataRepresentation.validate(),
	)
}

// Validate checks every policy of q. The error is a *PolicyError wrapping
// dds.ErrBadParameter.
func (q PublisherQos) Validate() error { return q.Presentation.validate() }

// Validate checks every policy of q. The error is a *PolicyError wrapping
// dds.ErrBadParameter.
func (q SubscriberQos) Validate() error { return q.Presentation.validate() }

// Validate checks every policy of q and their combinations. The error is a *PolicyError
// wrapping dds.ErrBadParameter or dds.ErrInconsistentPolicy.
func (q DataWriterQos) Validate() error {
	return firstError(
		q.Durability.validate(),
		q.DurabilityService.validate(),
		q.Deadline.validate(),
		q.LatencyBudget.validate(),
		q.Liveliness.validate(),
		q.Reliability.validate(),
		q.DestinationOrder.validate(),
		validateHistoryAndLimits(q.History, q.ResourceLimits),
		q.Lifespan.validate(),
		q.Ownership.validate(),
		q.DataRepresentation.validate(),
	)
}

// Validate checks every policy of q and their combinations, including that the deadline
// period is not shorter than the time-based filter's minimum separation (§2.2.3.12). The
// error is a *PolicyError wrapping dds.ErrBadParameter or dds.ErrInconsistentPolicy.
func (q DataReaderQos) Validate() error {
	if err := firstError(
		q.Durability.validate(),
		q.Deadline.validate(),
		q.LatencyBudget.validate(),
		q.Liveliness.validate(),
		q.Reliability.validate(),
		q.DestinationOrder.validate(),
		validateHistoryAndLimits(q.History, q.ResourceLimits),
		q.Ownership.validate(),
		q.TimeBasedFilter.validate(),
		q.ReaderDataLifecycle.validate(),
		q.DataRepresentation.validate(),
		q.TypeConsistencyEnforcement.validate(),
	); err != nil {
		return err
	}
	if q.Deadline.Period < q.TimeBasedFilter.MinimumSeparation {
		return inconsistent(DeadlinePolicyID, "period "+q.Deadline.Period.String()+
			" < time-based filter minimum_separation "+q.TimeBasedFilter.MinimumSeparation.String())
	}
	return nil
}
