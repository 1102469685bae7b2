package discovery

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/qoswire"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/qos"
)

// TestPolicyPIDs: the parameter ids of the qos table are those of RTPS 2.5
// Table 9.12 and DDS-XTypes that internal/wire names.
func TestPolicyPIDs(t *testing.T) {
	for id, pid := range map[qos.PolicyID]wire.ParameterID{
		qos.UserDataPolicyID: wire.PIDUserData, qos.DurabilityPolicyID: wire.PIDDurability,
		qos.PresentationPolicyID: wire.PIDPresentation, qos.DeadlinePolicyID: wire.PIDDeadline,
		qos.LatencyBudgetPolicyID: wire.PIDLatencyBudget, qos.OwnershipPolicyID: wire.PIDOwnership,
		qos.OwnershipStrengthPolicyID: wire.PIDOwnershipStrength, qos.LivelinessPolicyID: wire.PIDLiveliness,
		qos.TimeBasedFilterPolicyID: wire.PIDTimeBasedFilter, qos.PartitionPolicyID: wire.PIDPartition,
		qos.ReliabilityPolicyID: wire.PIDReliability, qos.DestinationOrderPolicyID: wire.PIDDestinationOrder,
		qos.HistoryPolicyID: wire.PIDHistory, qos.ResourceLimitsPolicyID: wire.PIDResourceLimits,
		qos.EntityFactoryPolicyID: 0, qos.WriterDataLifecyclePolicyID: 0, qos.ReaderDataLifecyclePolicyID: 0,
		qos.TopicDataPolicyID: wire.PIDTopicData, qos.GroupDataPolicyID: wire.PIDGroupData,
		qos.TransportPriorityPolicyID: wire.PIDTransportPriority, qos.LifespanPolicyID: wire.PIDLifespan,
		qos.DurabilityServicePolicyID: wire.PIDDurabilityService, qos.DataRepresentationPolicyID: wire.PIDDataRepresentation,
		qos.TypeConsistencyEnforcementPolicyID: wire.PIDTypeConsistencyEnforcement,
	} {
		require.Equal(t, uint16(pid), qoswire.PID(uint32(id)), id)
	}
}

// TestSEDPPolicyRoundTrip: every policy an endpoint or a topic announces,
// set to a value other than its default, comes back from SEDP encoding and
// decoding.
func TestSEDPPolicyRoundTrip(t *testing.T) {
	writer := map[qos.PolicyID]func(*qos.Offered){
		qos.UserDataPolicyID:   func(o *qos.Offered) { o.Writer.UserData.Value = []byte("u") },
		qos.DurabilityPolicyID: func(o *qos.Offered) { o.Writer.Durability.Kind = qos.Persistent },
		qos.PresentationPolicyID: func(o *qos.Offered) {
			o.Publisher.Presentation = qos.Presentation{AccessScope: qos.GroupScope, OrderedAccess: true}
		},
		qos.DeadlinePolicyID: func(o *qos.Offered) { o.Writer.Deadline.Period = time.Second },
		qos.LatencyBudgetPolicyID: func(o *qos.Offered) {
			o.Writer.LatencyBudget.Duration = time.Millisecond
		},
		qos.OwnershipPolicyID:         func(o *qos.Offered) { o.Writer.Ownership.Kind = qos.Exclusive },
		qos.OwnershipStrengthPolicyID: func(o *qos.Offered) { o.Writer.OwnershipStrength.Value = 7 },
		qos.LivelinessPolicyID: func(o *qos.Offered) {
			o.Writer.Liveliness = qos.Liveliness{Kind: qos.ManualByParticipant, LeaseDuration: 3 * time.Second}
		},
		qos.PartitionPolicyID:         func(o *qos.Offered) { o.Publisher.Partition.Name = []string{"a", "b*"} },
		qos.ReliabilityPolicyID:       func(o *qos.Offered) { o.Writer.Reliability = qos.Reliability{Kind: qos.BestEffort} },
		qos.DestinationOrderPolicyID:  func(o *qos.Offered) { o.Writer.DestinationOrder.Kind = qos.BySourceTimestamp },
		qos.HistoryPolicyID:           func(o *qos.Offered) { o.Writer.History = qos.History{Kind: qos.KeepAll, Depth: -1} },
		qos.ResourceLimitsPolicyID:    func(o *qos.Offered) { o.Writer.ResourceLimits.MaxSamples = 100 },
		qos.TopicDataPolicyID:         func(o *qos.Offered) { o.TopicData.Value = []byte("t") },
		qos.GroupDataPolicyID:         func(o *qos.Offered) { o.Publisher.GroupData.Value = []byte("g") },
		qos.TransportPriorityPolicyID: func(o *qos.Offered) { o.Writer.TransportPriority.Value = 3 },
		qos.LifespanPolicyID:          func(o *qos.Offered) { o.Writer.Lifespan.Duration = time.Minute },
		qos.DurabilityServicePolicyID: func(o *qos.Offered) { o.Writer.DurabilityService.ServiceCleanupDelay = time.Second },
		qos.DataRepresentationPolicyID: func(o *qos.Offered) {
			o.Writer.DataRepresentation.Value = []qos.DataRepresentationID{qos.XCDR2}
		},
	}
	reader := map[qos.PolicyID]func(*qos.Requested){
		qos.TimeBasedFilterPolicyID: func(r *qos.Requested) { r.Reader.TimeBasedFilter.MinimumSeparation = time.Millisecond },
		qos.TypeConsistencyEnforcementPolicyID: func(r *qos.Requested) {
			r.Reader.TypeConsistencyEnforcement = qos.TypeConsistencyEnforcement{Kind: qos.DisallowTypeCoercion, ForceTypeValidation: true}
		},
		qos.PartitionPolicyID: func(r *qos.Requested) { r.Subscriber.Partition.Name = []string{"x"} },
		qos.HistoryPolicyID:   func(r *qos.Requested) { r.Reader.History.Depth = 9 },
		qos.DataRepresentationPolicyID: func(r *qos.Requested) {
			r.Reader.DataRepresentation.Value = []qos.DataRepresentationID{qos.XCDR1, qos.XCDR2}
		},
		qos.ReliabilityPolicyID: func(r *qos.Requested) { r.Reader.Reliability.Kind = qos.Reliable },
	}
	for id := qos.PolicyID(1); id < qos.NumPolicyIDs; id++ {
		_, w := writer[id]
		_, r := reader[id]
		require.Equal(t, qoswire.PID(uint32(id)) != 0, w || r, "%s: every policy sent is covered", id)
	}
	requireQosRoundTrip(t, writer, testWriter, qos.DefaultOffered,
		func(e *EndpointData) *qos.Offered { return &e.Offered })
	requireQosRoundTrip(t, reader, testReader, qos.DefaultRequested,
		func(e *EndpointData) *qos.Requested { return &e.Requested })
}

// requireQosRoundTrip checks, for each policy in mods, that an endpoint from
// base whose QoS half (at) is the default changed by that policy's mod
// comes back from the SEDP encoding with that half as it was.
func requireQosRoundTrip[Q any](t *testing.T, mods map[qos.PolicyID]func(*Q), base func() EndpointData, def func() Q, at func(*EndpointData) *Q) {
	t.Helper()
	for id, mod := range mods {
		e := base()
		*at(&e) = def()
		mod(at(&e))
		require.NotEqual(t, def(), *at(&e), id)
		back, err := ParseEndpointData(e.Append(nil))
		require.NoError(t, err, id)
		require.Equal(t, *at(&e), *at(&back), id)
	}
}

// TestSEDPTopicPolicyRoundTrip: a topic with every policy off its default.
func TestSEDPTopicPolicyRoundTrip(t *testing.T) {
	tp := testTopic()
	tp.Qos = qos.TopicQos{
		TopicData:          qos.TopicData{Value: []byte("td")},
		Durability:         qos.Durability{Kind: qos.TransientLocal},
		DurabilityService:  qos.DurabilityService{ServiceCleanupDelay: time.Second, HistoryKind: qos.KeepAll, HistoryDepth: 2, MaxSamples: 6, MaxInstances: 4, MaxSamplesPerInstance: 5},
		Deadline:           qos.Deadline{Period: time.Second},
		LatencyBudget:      qos.LatencyBudget{Duration: time.Millisecond},
		Liveliness:         qos.Liveliness{Kind: qos.ManualByTopic, LeaseDuration: time.Minute},
		Reliability:        qos.Reliability{Kind: qos.Reliable, MaxBlockingTime: time.Second},
		DestinationOrder:   qos.DestinationOrder{Kind: qos.BySourceTimestamp},
		History:            qos.History{Kind: qos.KeepLast, Depth: 4},
		ResourceLimits:     qos.ResourceLimits{MaxSamples: 8, MaxInstances: 2, MaxSamplesPerInstance: 4},
		TransportPriority:  qos.TransportPriority{Value: 1},
		Lifespan:           qos.Lifespan{Duration: time.Hour},
		Ownership:          qos.Ownership{Kind: qos.Exclusive},
		DataRepresentation: qos.DataRepresentation{Value: []qos.DataRepresentationID{qos.XCDR2}},
	}
	def := qos.DefaultTopicQos()
	require.NoError(t, tp.Qos.Validate())
	require.Error(t, def.CheckChange(tp.Qos), "not the defaults")
	back, err := ParseTopicData(tp.Append(nil))
	require.NoError(t, err)
	require.Equal(t, tp.Qos, back.Qos)
}
