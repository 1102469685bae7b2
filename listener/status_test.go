package listener

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestStatusKinds(t *testing.T) {
	tests := []struct {
		k     StatusKind
		value uint32
		name  string
	}{
		{InconsistentTopic, 0x0001, "INCONSISTENT_TOPIC"},
		{OfferedDeadlineMissed, 0x0002, "OFFERED_DEADLINE_MISSED"},
		{RequestedDeadlineMissed, 0x0004, "REQUESTED_DEADLINE_MISSED"},
		{OfferedIncompatibleQos, 0x0020, "OFFERED_INCOMPATIBLE_QOS"},
		{RequestedIncompatibleQos, 0x0040, "REQUESTED_INCOMPATIBLE_QOS"},
		{SampleLost, 0x0080, "SAMPLE_LOST"},
		{SampleRejected, 0x0100, "SAMPLE_REJECTED"},
		{DataOnReaders, 0x0200, "DATA_ON_READERS"},
		{DataAvailable, 0x0400, "DATA_AVAILABLE"},
		{LivelinessLost, 0x0800, "LIVELINESS_LOST"},
		{LivelinessChanged, 0x1000, "LIVELINESS_CHANGED"},
		{PublicationMatched, 0x2000, "PUBLICATION_MATCHED"},
		{SubscriptionMatched, 0x4000, "SUBSCRIPTION_MATCHED"},
		{StatusKind(1 << 3), 0x0008, "0x8"},
		{StatusKind(0), 0, "NONE"},
		{DataAvailable | SampleLost, 0x0480, "SAMPLE_LOST|DATA_AVAILABLE"},
	}
	var all StatusMask
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.value, uint32(tt.k))
			require.Equal(t, tt.name, tt.k.String())
		})
		if tt.k != 0 && tt.k&(tt.k-1) == 0 && tt.k != 1<<3 {
			all |= StatusMask(tt.k)
		}
	}
	require.Equal(t, all, MaskAll)
}

func TestStatusMask(t *testing.T) {
	tests := []struct {
		name string
		m    StatusMask
		has  []StatusKind
		not  []StatusKind
		str  string
	}{
		{"none", MaskNone, nil, []StatusKind{DataAvailable, InconsistentTopic}, "NONE"},
		{"all", MaskAll, []StatusKind{InconsistentTopic, SubscriptionMatched, DataOnReaders}, []StatusKind{1 << 3, 1 << 15}, "INCONSISTENT_TOPIC|OFFERED_DEADLINE_MISSED|REQUESTED_DEADLINE_MISSED|OFFERED_INCOMPATIBLE_QOS|REQUESTED_INCOMPATIBLE_QOS|SAMPLE_LOST|SAMPLE_REJECTED|DATA_ON_READERS|DATA_AVAILABLE|LIVELINESS_LOST|LIVELINESS_CHANGED|PUBLICATION_MATCHED|SUBSCRIPTION_MATCHED"},
		{"two", StatusMask(DataAvailable | SubscriptionMatched), []StatusKind{DataAvailable, SubscriptionMatched, DataAvailable | SubscriptionMatched}, []StatusKind{0, SampleLost, DataAvailable | SampleLost}, "DATA_AVAILABLE|SUBSCRIPTION_MATCHED"},
		{"unknown bits", StatusMask(DataAvailable) | 0x8018, []StatusKind{DataAvailable}, nil, "DATA_AVAILABLE|0x8018"},
		{"only unknown", 0xffff0000, nil, []StatusKind{DataAvailable}, "0xffff0000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, k := range tt.has {
				require.True(t, tt.m.Has(k), k)
			}
			for _, k := range tt.not {
				require.False(t, tt.m.Has(k), k)
			}
			require.Equal(t, tt.str, tt.m.String())
		})
	}
}

func TestInstanceHandle(t *testing.T) {
	require.True(t, HandleNil.IsNil())
	var zero InstanceHandle
	require.True(t, zero.IsNil())

	guid := [16]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 0, 1, 0xc1}
	h := InstanceHandle(guid)
	require.False(t, h.IsNil())
	require.Equal(t, "0102030405060708090a0b0c000001c1", h.String())
}

func TestSampleRejectedStatusKind(t *testing.T) {
	for k, want := range map[SampleRejectedStatusKind]string{
		NotRejected:                       "NOT_REJECTED",
		RejectedByInstancesLimit:          "REJECTED_BY_INSTANCES_LIMIT",
		RejectedBySamplesLimit:            "REJECTED_BY_SAMPLES_LIMIT",
		RejectedBySamplesPerInstanceLimit: "REJECTED_BY_SAMPLES_PER_INSTANCE_LIMIT",
		4:                                 "SampleRejectedStatusKind(4)",
	} {
		require.Equal(t, want, k.String())
	}
	require.EqualValues(t, 0, NotRejected)
	require.EqualValues(t, 3, RejectedBySamplesPerInstanceLimit)
}
