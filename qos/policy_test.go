package qos

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPolicyID(t *testing.T) {
	tests := []struct {
		id         PolicyID
		value      int32
		name       string
		rxo        bool
		changeable bool
	}{
		{InvalidPolicyID, 0, "Invalid", false, false},
		{UserDataPolicyID, 1, "UserData", false, true},
		{DurabilityPolicyID, 2, "Durability", true, false},
		{PresentationPolicyID, 3, "Presentation", true, false},
		{DeadlinePolicyID, 4, "Deadline", true, true},
		{LatencyBudgetPolicyID, 5, "LatencyBudget", true, true},
		{OwnershipPolicyID, 6, "Ownership", true, false},
		{OwnershipStrengthPolicyID, 7, "OwnershipStrength", false, true},
		{LivelinessPolicyID, 8, "Liveliness", true, false},
		{TimeBasedFilterPolicyID, 9, "TimeBasedFilter", false, true},
		{PartitionPolicyID, 10, "Partition", false, true},
		{ReliabilityPolicyID, 11, "Reliability", true, false},
		{DestinationOrderPolicyID, 12, "DestinationOrder", true, false},
		{HistoryPolicyID, 13, "History", false, false},
		{ResourceLimitsPolicyID, 14, "ResourceLimits", false, false},
		{EntityFactoryPolicyID, 15, "EntityFactory", false, true},
		{WriterDataLifecyclePolicyID, 16, "WriterDataLifecycle", false, true},
		{ReaderDataLifecyclePolicyID, 17, "ReaderDataLifecycle", false, true},
		{TopicDataPolicyID, 18, "TopicData", false, true},
		{GroupDataPolicyID, 19, "GroupData", false, true},
		{TransportPriorityPolicyID, 20, "TransportPriority", false, true},
		{LifespanPolicyID, 21, "Lifespan", false, true},
		{DurabilityServicePolicyID, 22, "DurabilityService", false, false},
		{DataRepresentationPolicyID, 23, "DataRepresentation", true, false},
		{TypeConsistencyEnforcementPolicyID, 24, "TypeConsistencyEnforcement", false, false},
		{PolicyID(25), 25, "PolicyID(25)", false, false},
		{PolicyID(-1), -1, "PolicyID(-1)", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.value, int32(tt.id))
			require.Equal(t, tt.name, tt.id.String())
			require.Equal(t, tt.rxo, tt.id.isRxO())
			require.Equal(t, tt.changeable, tt.id.changeable())
		})
	}
}

func TestKindStrings(t *testing.T) {
	tests := []struct {
		s    interface{ String() string }
		want string
	}{
		{Volatile, "VOLATILE"},
		{TransientLocal, "TRANSIENT_LOCAL"},
		{Transient, "TRANSIENT"},
		{Persistent, "PERSISTENT"},
		{DurabilityKind(4), "DurabilityKind(4)"},
		{InstanceScope, "INSTANCE"},
		{TopicScope, "TOPIC"},
		{GroupScope, "GROUP"},
		{AccessScopeKind(-1), "AccessScopeKind(-1)"},
		{Shared, "SHARED"},
		{Exclusive, "EXCLUSIVE"},
		{OwnershipKind(2), "OwnershipKind(2)"},
		{Automatic, "AUTOMATIC"},
		{ManualByParticipant, "MANUAL_BY_PARTICIPANT"},
		{ManualByTopic, "MANUAL_BY_TOPIC"},
		{LivelinessKind(3), "LivelinessKind(3)"},
		{BestEffort, "BEST_EFFORT"},
		{Reliable, "RELIABLE"},
		{ReliabilityKind(2), "ReliabilityKind(2)"},
		{ByReceptionTimestamp, "BY_RECEPTION_TIMESTAMP"},
		{BySourceTimestamp, "BY_SOURCE_TIMESTAMP"},
		{DestinationOrderKind(2), "DestinationOrderKind(2)"},
		{KeepLast, "KEEP_LAST"},
		{KeepAll, "KEEP_ALL"},
		{HistoryKind(2), "HistoryKind(2)"},
		{XCDR1, "XCDR1"},
		{XML, "XML"},
		{XCDR2, "XCDR2"},
		{DataRepresentationID(3), "DataRepresentationID(3)"},
		{DisallowTypeCoercion, "DISALLOW_TYPE_COERCION"},
		{AllowTypeCoercion, "ALLOW_TYPE_COERCION"},
		{TypeConsistencyKind(2), "TypeConsistencyKind(2)"},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, tt.s.String())
	}
}

func TestDataRepresentationOfferedAccepts(t *testing.T) {
	tests := []struct {
		name    string
		p       DataRepresentation
		offered DataRepresentationID
		accepts []DataRepresentationID
		rejects []DataRepresentationID
	}{
		{"empty means XCDR1", DataRepresentation{}, XCDR1, []DataRepresentationID{XCDR1}, []DataRepresentationID{XML, XCDR2}},
		{"first is offered", DataRepresentation{Value: []DataRepresentationID{XCDR2, XCDR1}}, XCDR2, []DataRepresentationID{XCDR1, XCDR2}, []DataRepresentationID{XML}},
		{"single", DataRepresentation{Value: []DataRepresentationID{XCDR2}}, XCDR2, []DataRepresentationID{XCDR2}, []DataRepresentationID{XCDR1, XML}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.offered, tt.p.Offered())
			for _, id := range tt.accepts {
				require.True(t, tt.p.accepts(id), id)
			}
			for _, id := range tt.rejects {
				require.False(t, tt.p.accepts(id), id)
			}
		})
	}
}
