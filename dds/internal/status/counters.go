package status

import (
	"math"

	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
)

// The counters keep the statuses of DDS 1.4 §2.2.4.1 for the dds package: an event
// updates the totals and the *Change fields and marks the status changed; Take returns the
// status, resets the *Change fields to zero and clears the changed mark, as reading a
// status through get_*_status or a listener invocation does (§2.2.4.2). Changed is the
// "communication status changed" flag that a StatusCondition's trigger value and the
// listener dispatch look at.
//
// The counters are plain values without locks: the entity that owns one guards it. They
// allocate nothing, except IncompatibleQosCounter's Take, which returns a new Policies
// slice. Counts saturate at math.MaxInt32 instead of wrapping.

func inc(v *int32) {
	if *v < math.MaxInt32 {
		*v++
	}
}

func dec(v *int32) {
	if *v > math.MinInt32 {
		*v--
	}
}

// Counter keeps a status made of total_count, total_count_change and, for the deadline
// statuses, last_instance_handle: INCONSISTENT_TOPIC, SAMPLE_LOST, LIVELINESS_LOST,
// OFFERED_DEADLINE_MISSED and REQUESTED_DEADLINE_MISSED.
type Counter struct {
	total, change int32
	last          listener.InstanceHandle
	changed       bool
}

// Increment counts one event, on instance h (listener.HandleNil where the status has no
// instance).
func (c *Counter) Increment(h listener.InstanceHandle) {
	inc(&c.total)
	inc(&c.change)
	c.last = h
	c.changed = true
}

// Add counts n events at once (the SAMPLE_LOST of a gap), on instance h; n = 0 is no
// event.
func (c *Counter) Add(h listener.InstanceHandle, n uint64) {
	if n == 0 {
		return
	}
	d := int64(min(n, math.MaxInt32))
	c.total = int32(min(int64(c.total)+d, math.MaxInt32))
	c.change = int32(min(int64(c.change)+d, math.MaxInt32))
	c.last = h
	c.changed = true
}

// Changed reports whether the status changed since it was last taken.
func (c *Counter) Changed() bool { return c.changed }

func (c *Counter) take() (total, change int32, last listener.InstanceHandle) {
	total, change, last = c.total, c.change, c.last
	c.change = 0
	c.changed = false
	return total, change, last
}

// TakeInconsistentTopic returns the status as an listener.InconsistentTopicStatus and resets its
// change.
func (c *Counter) TakeInconsistentTopic() listener.InconsistentTopicStatus {
	t, ch, _ := c.take()
	return listener.InconsistentTopicStatus{TotalCount: t, TotalCountChange: ch}
}

// TakeSampleLost returns the status as a listener.SampleLostStatus and resets its change.
func (c *Counter) TakeSampleLost() listener.SampleLostStatus {
	t, ch, _ := c.take()
	return listener.SampleLostStatus{TotalCount: t, TotalCountChange: ch}
}

// TakeLivelinessLost returns the status as a listener.LivelinessLostStatus and resets its change.
func (c *Counter) TakeLivelinessLost() listener.LivelinessLostStatus {
	t, ch, _ := c.take()
	return listener.LivelinessLostStatus{TotalCount: t, TotalCountChange: ch}
}

// TakeOfferedDeadlineMissed returns the status as an listener.OfferedDeadlineMissedStatus and
// resets its change.
func (c *Counter) TakeOfferedDeadlineMissed() listener.OfferedDeadlineMissedStatus {
	t, ch, h := c.take()
	return listener.OfferedDeadlineMissedStatus{TotalCount: t, TotalCountChange: ch, LastInstanceHandle: h}
}

// TakeRequestedDeadlineMissed returns the status as a listener.RequestedDeadlineMissedStatus and
// resets its change.
func (c *Counter) TakeRequestedDeadlineMissed() listener.RequestedDeadlineMissedStatus {
	t, ch, h := c.take()
	return listener.RequestedDeadlineMissedStatus{TotalCount: t, TotalCountChange: ch, LastInstanceHandle: h}
}

// kept is a status kept as its listener type S, and its changed mark.
type kept[S any] struct {
	st      S
	changed bool
}

// Changed reports whether the status changed since it was last taken.
func (k *kept[S]) Changed() bool { return k.changed }

// take returns the status, resets its *Change fields with reset and clears the changed
// mark.
func (k *kept[S]) take(reset func(*S)) S {
	st := k.st
	reset(&k.st)
	k.changed = false
	return st
}

// SampleRejectedCounter keeps SAMPLE_REJECTED.
type SampleRejectedCounter struct {
	kept[listener.SampleRejectedStatus]
}

// Reject counts a sample of instance h rejected for reason.
func (c *SampleRejectedCounter) Reject(reason listener.SampleRejectedStatusKind, h listener.InstanceHandle) {
	inc(&c.st.TotalCount)
	inc(&c.st.TotalCountChange)
	c.st.LastReason = reason
	c.st.LastInstanceHandle = h
	c.changed = true
}

// Take returns the status and resets its change.
func (c *SampleRejectedCounter) Take() listener.SampleRejectedStatus {
	return c.take(func(s *listener.SampleRejectedStatus) { s.TotalCountChange = 0 })
}

// WriterLiveliness is what a reader knows of a matched writer's liveliness.
type WriterLiveliness uint8

// The liveliness states of a writer, as a reader sees it.
const (
	// WriterUnknown: not matched (before it is matched, or after it is unmatched).
	WriterUnknown WriterLiveliness = iota
	// WriterAlive: matched and alive.
	WriterAlive
	// WriterNotAlive: matched, but its liveliness lapsed.
	WriterNotAlive
)

// LivelinessCounter keeps LIVELINESS_CHANGED: alive_count and not_alive_count are the
// matched writers in each state.
type LivelinessCounter struct {
	kept[listener.LivelinessChangedStatus]
}

// Transition records that writer h went from one state to another; a transition to the
// same state changes nothing.
func (c *LivelinessCounter) Transition(h listener.InstanceHandle, from, to WriterLiveliness) {
	if from == to {
		return
	}
	c.count(from, dec)
	c.count(to, inc)
	c.st.LastPublicationHandle = h
	c.changed = true
}

// count applies op (inc or dec) to the count of the writers in state l and its change.
func (c *LivelinessCounter) count(l WriterLiveliness, op func(*int32)) {
	switch l {
	case WriterAlive:
		op(&c.st.AliveCount)
		op(&c.st.AliveCountChange)
	case WriterNotAlive:
		op(&c.st.NotAliveCount)
		op(&c.st.NotAliveCountChange)
	case WriterUnknown:
	}
}

// Take returns the status and resets its changes.
func (c *LivelinessCounter) Take() listener.LivelinessChangedStatus {
	return c.take(func(s *listener.LivelinessChangedStatus) { s.AliveCountChange, s.NotAliveCountChange = 0, 0 })
}

// MatchedCounter keeps PUBLICATION_MATCHED (of a writer, counting readers) or
// SUBSCRIPTION_MATCHED (of a reader, counting writers), as the former: the latter differs
// only in the name of its last handle.
type MatchedCounter struct {
	kept[listener.PublicationMatchedStatus]
}

// Add counts a match with the remote endpoint h.
func (c *MatchedCounter) Add(h listener.InstanceHandle) {
	inc(&c.st.TotalCount)
	inc(&c.st.TotalCountChange)
	inc(&c.st.CurrentCount)
	inc(&c.st.CurrentCountChange)
	c.st.LastSubscriptionHandle = h
	c.changed = true
}

// Remove counts the end of the match with h. With no current match it does nothing.
func (c *MatchedCounter) Remove(h listener.InstanceHandle) {
	if c.st.CurrentCount == 0 {
		return
	}
	c.st.CurrentCount--
	dec(&c.st.CurrentCountChange)
	c.st.LastSubscriptionHandle = h
	c.changed = true
}

// Current returns current_count, the number of endpoints matched now.
func (c *MatchedCounter) Current() int32 { return c.st.CurrentCount }

// TakePublicationMatched returns the status of a writer and resets its changes.
func (c *MatchedCounter) TakePublicationMatched() listener.PublicationMatchedStatus {
	return c.take(func(s *listener.PublicationMatchedStatus) { s.TotalCountChange, s.CurrentCountChange = 0, 0 })
}

// TakeSubscriptionMatched returns the status of a reader and resets its changes.
func (c *MatchedCounter) TakeSubscriptionMatched() listener.SubscriptionMatchedStatus {
	st := c.TakePublicationMatched()
	return listener.SubscriptionMatchedStatus{
		TotalCount:            st.TotalCount,
		TotalCountChange:      st.TotalCountChange,
		CurrentCount:          st.CurrentCount,
		CurrentCountChange:    st.CurrentCountChange,
		LastPublicationHandle: st.LastSubscriptionHandle,
	}
}

// IncompatibleQosCounter keeps OFFERED_INCOMPATIBLE_QOS (of a writer) or
// REQUESTED_INCOMPATIBLE_QOS (of a reader).
type IncompatibleQosCounter struct {
	total, change int32
	last          qos.PolicyID
	counts        [qos.NumPolicyIDs]int32
	changed       bool
}

// Add counts one remote endpoint found incompatible for the given policies, as
// qos.Compatible returns them; the first becomes last_policy_id. An empty list counts
// nothing, and unknown ids are not counted per policy.
func (c *IncompatibleQosCounter) Add(policies []qos.PolicyID) {
	if len(policies) == 0 {
		return
	}
	inc(&c.total)
	inc(&c.change)
	c.last = policies[0]
	for _, id := range policies {
		if id > qos.InvalidPolicyID && id < qos.NumPolicyIDs {
			inc(&c.counts[id])
		}
	}
	c.changed = true
}

// Changed reports whether the status changed since it was last taken.
func (c *IncompatibleQosCounter) Changed() bool { return c.changed }

func (c *IncompatibleQosCounter) take() (total, change int32, last qos.PolicyID, policies []listener.QosPolicyCount) {
	for id, n := range c.counts {
		if n > 0 {
			policies = append(policies, listener.QosPolicyCount{PolicyID: qos.PolicyID(id), Count: n})
		}
	}
	total, change, last = c.total, c.change, c.last
	c.change = 0
	c.changed = false
	return total, change, last, policies
}

// TakeOffered returns the status of a writer and resets its change.
func (c *IncompatibleQosCounter) TakeOffered() listener.OfferedIncompatibleQosStatus {
	t, ch, last, p := c.take()
	return listener.OfferedIncompatibleQosStatus{TotalCount: t, TotalCountChange: ch, LastPolicyID: last, Policies: p}
}

// TakeRequested returns the status of a reader and resets its change.
func (c *IncompatibleQosCounter) TakeRequested() listener.RequestedIncompatibleQosStatus {
	t, ch, last, p := c.take()
	return listener.RequestedIncompatibleQosStatus{TotalCount: t, TotalCountChange: ch, LastPolicyID: last, Policies: p}
}

// Total returns total_count without taking the status.
func (c *Counter) Total() int32 { return c.total }

// Peek returns the status without taking it.
func (c *MatchedCounter) Peek() listener.PublicationMatchedStatus { return c.st }

// Peek returns the status without taking it.
func (c *LivelinessCounter) Peek() listener.LivelinessChangedStatus { return c.st }

// Total returns total_count without taking the status.
func (c *IncompatibleQosCounter) Total() int32 { return c.total }

// Total returns total_count without taking the status.
func (c *SampleRejectedCounter) Total() int32 { return c.st.TotalCount }
