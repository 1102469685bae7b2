package status

import (
	"math"
	"testing"

	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/stretchr/testify/require"
)

func h(b byte) listener.InstanceHandle { return listener.InstanceHandle{15: b} }

func TestCounter(t *testing.T) {
	var c Counter
	require.False(t, c.Changed())
	require.Equal(t, listener.InconsistentTopicStatus{}, c.TakeInconsistentTopic())

	c.Increment(h(1))
	c.Increment(h(2))
	require.True(t, c.Changed())
	require.Equal(t, listener.OfferedDeadlineMissedStatus{TotalCount: 2, TotalCountChange: 2, LastInstanceHandle: h(2)}, c.TakeOfferedDeadlineMissed())
	require.False(t, c.Changed())
	require.Equal(t, listener.RequestedDeadlineMissedStatus{TotalCount: 2, TotalCountChange: 0, LastInstanceHandle: h(2)}, c.TakeRequestedDeadlineMissed())

	c.Increment(listener.HandleNil)
	require.Equal(t, listener.SampleLostStatus{TotalCount: 3, TotalCountChange: 1}, c.TakeSampleLost())
	c.Increment(listener.HandleNil)
	require.Equal(t, listener.LivelinessLostStatus{TotalCount: 4, TotalCountChange: 1}, c.TakeLivelinessLost())
	c.Increment(listener.HandleNil)
	require.Equal(t, listener.InconsistentTopicStatus{TotalCount: 5, TotalCountChange: 1}, c.TakeInconsistentTopic())

	c.Add(listener.HandleNil, 0)
	require.False(t, c.Changed(), "adding nothing is no event")
	c.Add(listener.HandleNil, 10)
	require.Equal(t, listener.SampleLostStatus{TotalCount: 15, TotalCountChange: 10}, c.TakeSampleLost())
	c.Add(listener.HandleNil, math.MaxUint64)
	require.Equal(t, listener.SampleLostStatus{TotalCount: math.MaxInt32, TotalCountChange: math.MaxInt32}, c.TakeSampleLost())

	// Saturation instead of wrap-around.
	c = Counter{total: math.MaxInt32, change: math.MaxInt32}
	c.Increment(listener.HandleNil)
	require.Equal(t, listener.SampleLostStatus{TotalCount: math.MaxInt32, TotalCountChange: math.MaxInt32}, c.TakeSampleLost())
}

func TestSampleRejectedCounter(t *testing.T) {
	var c SampleRejectedCounter
	require.False(t, c.Changed())
	c.Reject(listener.RejectedBySamplesLimit, h(1))
	c.Reject(listener.RejectedByInstancesLimit, h(2))
	require.True(t, c.Changed())
	require.Equal(t, listener.SampleRejectedStatus{TotalCount: 2, TotalCountChange: 2, LastReason: listener.RejectedByInstancesLimit, LastInstanceHandle: h(2)}, c.Take())
	require.False(t, c.Changed())
	require.Equal(t, listener.SampleRejectedStatus{TotalCount: 2, LastReason: listener.RejectedByInstancesLimit, LastInstanceHandle: h(2)}, c.Take())
}

func TestLivelinessCounter(t *testing.T) {
	type step struct {
		h        byte
		from, to WriterLiveliness
	}
	tests := []struct {
		name    string
		steps   []step
		want    listener.LivelinessChangedStatus
		changed bool
	}{
		{"nothing", nil, listener.LivelinessChangedStatus{}, false},
		{"same state is no change", []step{{1, WriterAlive, WriterAlive}}, listener.LivelinessChangedStatus{}, false},
		{"new alive writer", []step{{1, WriterUnknown, WriterAlive}}, listener.LivelinessChangedStatus{AliveCount: 1, AliveCountChange: 1, LastPublicationHandle: h(1)}, true},
		{"alive then lost", []step{{1, WriterUnknown, WriterAlive}, {1, WriterAlive, WriterNotAlive}}, listener.LivelinessChangedStatus{NotAliveCount: 1, NotAliveCountChange: 1, LastPublicationHandle: h(1)}, true},
		{"lost then back", []step{{1, WriterUnknown, WriterAlive}, {1, WriterAlive, WriterNotAlive}, {1, WriterNotAlive, WriterAlive}}, listener.LivelinessChangedStatus{AliveCount: 1, AliveCountChange: 1, LastPublicationHandle: h(1)}, true},
		{"two writers, one unmatched while not alive", []step{{1, WriterUnknown, WriterAlive}, {2, WriterUnknown, WriterAlive}, {2, WriterAlive, WriterNotAlive}, {2, WriterNotAlive, WriterUnknown}}, listener.LivelinessChangedStatus{AliveCount: 1, AliveCountChange: 1, LastPublicationHandle: h(2)}, true},
		{"unmatched while alive", []step{{1, WriterUnknown, WriterAlive}, {1, WriterAlive, WriterUnknown}}, listener.LivelinessChangedStatus{LastPublicationHandle: h(1)}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c LivelinessCounter
			for _, s := range tt.steps {
				c.Transition(h(s.h), s.from, s.to)
			}
			require.Equal(t, tt.changed, c.Changed())
			require.Equal(t, tt.want, c.Take())
			require.False(t, c.Changed())
			after := c.Take()
			require.Zero(t, after.AliveCountChange)
			require.Zero(t, after.NotAliveCountChange)
			require.Equal(t, tt.want.AliveCount, after.AliveCount)
			require.Equal(t, tt.want.NotAliveCount, after.NotAliveCount)
		})
	}

	// Changes accumulate across reads as deltas.
	var c LivelinessCounter
	c.Transition(h(1), WriterUnknown, WriterAlive)
	c.Take()
	c.Transition(h(1), WriterAlive, WriterNotAlive)
	require.Equal(t, listener.LivelinessChangedStatus{NotAliveCount: 1, AliveCountChange: -1, NotAliveCountChange: 1, LastPublicationHandle: h(1)}, c.Take())
}

func TestMatchedCounter(t *testing.T) {
	var c MatchedCounter
	require.False(t, c.Changed())
	c.Add(h(1))
	c.Add(h(2))
	require.Equal(t, int32(2), c.Current())
	require.Equal(t, listener.SubscriptionMatchedStatus{TotalCount: 2, TotalCountChange: 2, CurrentCount: 2, CurrentCountChange: 2, LastPublicationHandle: h(2)}, c.TakeSubscriptionMatched())
	require.False(t, c.Changed())

	c.Remove(h(1))
	require.True(t, c.Changed())
	require.Equal(t, listener.PublicationMatchedStatus{TotalCount: 2, CurrentCount: 1, CurrentCountChange: -1, LastSubscriptionHandle: h(1)}, c.TakePublicationMatched())

	c.Remove(h(2))
	c.Add(h(3))
	require.Equal(t, listener.SubscriptionMatchedStatus{TotalCount: 3, TotalCountChange: 1, CurrentCount: 1, CurrentCountChange: 0, LastPublicationHandle: h(3)}, c.TakeSubscriptionMatched())

	// A remove without a match is ignored.
	c.Remove(h(3))
	c.TakeSubscriptionMatched()
	c.Remove(h(3))
	require.False(t, c.Changed())
	require.Equal(t, int32(0), c.Current())
}

func TestIncompatibleQosCounter(t *testing.T) {
	var c IncompatibleQosCounter
	c.Add(nil)
	require.False(t, c.Changed())
	require.Equal(t, listener.OfferedIncompatibleQosStatus{}, c.TakeOffered())

	c.Add([]qos.PolicyID{qos.ReliabilityPolicyID})
	c.Add([]qos.PolicyID{qos.DurabilityPolicyID, qos.ReliabilityPolicyID, qos.PolicyID(99), qos.InvalidPolicyID})
	require.True(t, c.Changed())
	want := []listener.QosPolicyCount{{PolicyID: qos.DurabilityPolicyID, Count: 1}, {PolicyID: qos.ReliabilityPolicyID, Count: 2}}
	require.Equal(t, listener.OfferedIncompatibleQosStatus{TotalCount: 2, TotalCountChange: 2, LastPolicyID: qos.DurabilityPolicyID, Policies: want}, c.TakeOffered())
	require.False(t, c.Changed())
	require.Equal(t, listener.RequestedIncompatibleQosStatus{TotalCount: 2, LastPolicyID: qos.DurabilityPolicyID, Policies: want}, c.TakeRequested())

	// Take returns its own slice.
	st := c.TakeRequested()
	st.Policies[0].Count = 100
	require.Equal(t, int32(1), c.TakeRequested().Policies[0].Count)
}

func TestCountersAllocateNothing(t *testing.T) {
	var (
		c  Counter
		sr SampleRejectedCounter
		lv LivelinessCounter
		m  MatchedCounter
		iq IncompatibleQosCounter
	)
	ids := []qos.PolicyID{qos.ReliabilityPolicyID}
	allocs := testing.AllocsPerRun(100, func() {
		c.Increment(h(1))
		_ = c.TakeRequestedDeadlineMissed()
		sr.Reject(listener.RejectedBySamplesLimit, h(1))
		_ = sr.Take()
		lv.Transition(h(1), WriterUnknown, WriterAlive)
		lv.Transition(h(1), WriterAlive, WriterUnknown)
		_ = lv.Take()
		m.Add(h(1))
		m.Remove(h(1))
		_ = m.TakeSubscriptionMatched()
		iq.Add(ids)
	})
	require.Zero(t, allocs)
}
