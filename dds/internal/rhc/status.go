package rhc

import "strconv"

// Outcome is what Insert did with a change. The protocol needs only Rejected: a rejected
// sample was not stored for lack of resources and a reliable reader should not
// acknowledge it, so that the writer sends it again; every other outcome is final.
type Outcome uint8

// The outcomes of Insert.
const (
	// Accepted: the sample was stored or the instance changed state.
	Accepted Outcome = iota
	// Ignored: nothing to do, e.g. a repeated dispose, or an unregister of an instance
	// or writer the cache does not know.
	Ignored
	// DroppedOutOfOrder: with BySourceTimestamp, the change is older than the latest
	// one of its instance.
	DroppedOutOfOrder
	// DroppedByTimeFilter: the sample came less than MinimumSeparation after the
	// previous accepted sample of its instance.
	DroppedByTimeFilter
	// DroppedExpired: the sample's lifespan had already ended when it arrived.
	DroppedExpired
	// DroppedNotOwner: with ExclusiveOwnership, the write or dispose came from a writer
	// that does not own the instance and is not stronger than its owner.
	DroppedNotOwner
	// RejectedByInstancesLimit: a new instance would exceed MaxInstances.
	RejectedByInstancesLimit
	// RejectedBySamplesLimit: the sample would exceed MaxSamples.
	RejectedBySamplesLimit
	// RejectedBySamplesPerInstanceLimit: the sample would exceed MaxSamplesPerInstance.
	RejectedBySamplesPerInstanceLimit
)

// Rejected reports whether the change was refused for lack of resources (and counted in
// SampleRejectedStatus). A reliable reader leaves it unacknowledged and retries it after
// Config.OnSpaceAvailable.
func (o Outcome) Rejected() bool {
	return o >= RejectedByInstancesLimit && o <= RejectedBySamplesPerInstanceLimit
}

// Reason returns the SampleRejectedStatusKind of a rejected outcome, NotRejected for the
// others.
func (o Outcome) Reason() RejectedReason {
	switch o {
	case RejectedByInstancesLimit:
		return RejectedByInstances
	case RejectedBySamplesLimit:
		return RejectedBySamples
	case RejectedBySamplesPerInstanceLimit:
		return RejectedBySamplesPerInstance
	default:
		return NotRejected
	}
}

var outcomeNames = [...]string{
	Accepted:                          "accepted",
	Ignored:                           "ignored",
	DroppedOutOfOrder:                 "dropped: out of order",
	DroppedByTimeFilter:               "dropped: time-based filter",
	DroppedExpired:                    "dropped: lifespan expired",
	DroppedNotOwner:                   "dropped: not the owner",
	RejectedByInstancesLimit:          "rejected: max_instances",
	RejectedBySamplesLimit:            "rejected: max_samples",
	RejectedBySamplesPerInstanceLimit: "rejected: max_samples_per_instance",
}

// String describes the outcome.
func (o Outcome) String() string { return enumString(o, "Outcome", outcomeNames[:]) }

// enumString returns names[v], or typ(v) for a v without a name.
func enumString[E ~uint8 | ~int32](v E, typ string, names []string) string {
	if i := int(v); i >= 0 && i < len(names) {
		return names[i]
	}
	return typ + "(" + strconv.Itoa(int(v)) + ")"
}

// RejectedReason is SampleRejectedStatusKind (DDS 1.4 §2.2.4.1), numbered as in the IDL.
type RejectedReason int32

// The reasons for rejecting a sample.
const (
	NotRejected                  RejectedReason = 0
	RejectedByInstances          RejectedReason = 1
	RejectedBySamples            RejectedReason = 2
	RejectedBySamplesPerInstance RejectedReason = 3
)

var rejectedReasonNames = [...]string{
	NotRejected:                  "NOT_REJECTED",
	RejectedByInstances:          "REJECTED_BY_INSTANCES_LIMIT",
	RejectedBySamples:            "REJECTED_BY_SAMPLES_LIMIT",
	RejectedBySamplesPerInstance: "REJECTED_BY_SAMPLES_PER_INSTANCE_LIMIT",
}

// String returns the spec name, e.g. "REJECTED_BY_SAMPLES_LIMIT".
func (r RejectedReason) String() string {
	return enumString(r, "RejectedReason", rejectedReasonNames[:])
}

// SampleRejectedStatus is SAMPLE_REJECTED_STATUS (DDS 1.4 §2.2.4.1). Every rejection
// counts, so a sample that a reliable writer sends again and that is rejected again
// counts again.
type SampleRejectedStatus struct {
	TotalCount         int32
	TotalCountChange   int32
	LastReason         RejectedReason
	LastInstanceHandle InstanceHandle // HandleNil when a new instance was rejected
}

// SampleLostStatus is SAMPLE_LOST_STATUS (DDS 1.4 §2.2.4.1): samples the protocol knows
// were never received, reported with AddSamplesLost.
type SampleLostStatus struct {
	TotalCount       int32
	TotalCountChange int32
}

// Stats are the current contents of a cache.
type Stats struct {
	Instances      int // instances, including those without samples
	Samples        int // valid samples, the ones the resource limits count
	InvalidSamples int // invalid samples (at most one per instance)
}

// addSat adds n to v without overflowing.
func addSat(v int32, n int) int32 {
	if int64(v)+int64(n) > int64(1<<31-1) {
		return 1<<31 - 1
	}
	return v + int32(n)
}
