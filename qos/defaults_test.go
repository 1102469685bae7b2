package qos

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestDefaultsFollowSpec(t *testing.T) {
	w := DefaultDataWriterQos()
	r := DefaultDataReaderQos()
	tp := DefaultTopicQos()

	require.Equal(t, Reliability{Kind: Reliable, MaxBlockingTime: 100 * time.Millisecond}, w.Reliability)
	require.Equal(t, Reliability{Kind: BestEffort, MaxBlockingTime: 100 * time.Millisecond}, r.Reliability)
	require.Equal(t, Reliability{Kind: BestEffort, MaxBlockingTime: 100 * time.Millisecond}, tp.Reliability)

	unlimited := ResourceLimits{MaxSamples: -1, MaxInstances: -1, MaxSamplesPerInstance: -1}
	for name, c := range map[string]struct {
		dur   Durability
		dl    Deadline
		lb    LatencyBudget
		lv    Liveliness
		do    DestinationOrder
		h     History
		rl    ResourceLimits
		own   Ownership
		drep  DataRepresentation
		lspan *Lifespan
	}{
		"writer": {w.Durability, w.Deadline, w.LatencyBudget, w.Liveliness, w.DestinationOrder, w.History, w.ResourceLimits, w.Ownership, w.DataRepresentation, &w.Lifespan},
		"reader": {r.Durability, r.Deadline, r.LatencyBudget, r.Liveliness, r.DestinationOrder, r.History, r.ResourceLimits, r.Ownership, r.DataRepresentation, nil},
		"topic":  {tp.Durability, tp.Deadline, tp.LatencyBudget, tp.Liveliness, tp.DestinationOrder, tp.History, tp.ResourceLimits, tp.Ownership, tp.DataRepresentation, &tp.Lifespan},
	} {
		t.Run(name, func(t *testing.T) {
			require.Equal(t, Durability{Kind: Volatile}, c.dur)
			require.Equal(t, Deadline{Period: Infinite}, c.dl)
			require.Equal(t, LatencyBudget{}, c.lb)
			require.Equal(t, Liveliness{Kind: Automatic, LeaseDuration: Infinite}, c.lv)
			require.Equal(t, DestinationOrder{Kind: ByReceptionTimestamp}, c.do)
			require.Equal(t, History{Kind: KeepLast, Depth: 1}, c.h)
			require.Equal(t, unlimited, c.rl)
			require.Equal(t, Ownership{Kind: Shared}, c.own)
			require.Empty(t, c.drep.Value)
			require.Equal(t, XCDR1, c.drep.Offered())
			if c.lspan != nil {
				require.Equal(t, Lifespan{Duration: Infinite}, *c.lspan)
			}
		})
	}

	ds := DurabilityService{HistoryKind: KeepLast, HistoryDepth: 1, MaxSamples: -1, MaxInstances: -1, MaxSamplesPerInstance: -1}
	require.Equal(t, ds, w.DurabilityService)
	require.Equal(t, ds, tp.DurabilityService)
	require.Equal(t, OwnershipStrength{}, w.OwnershipStrength)
	require.Equal(t, TransportPriority{}, w.TransportPriority)
	require.True(t, w.WriterDataLifecycle.AutodisposeUnregisteredInstances)
	require.Equal(t, ReaderDataLifecycle{AutopurgeNoWriterSamplesDelay: Infinite, AutopurgeDisposedSamplesDelay: Infinite}, r.ReaderDataLifecycle)
	require.Equal(t, TimeBasedFilter{}, r.TimeBasedFilter)
	require.Equal(t, TypeConsistencyEnforcement{Kind: AllowTypeCoercion, IgnoreSequenceBounds: true, IgnoreStringBounds: true}, r.TypeConsistencyEnforcement)

	for _, p := range []PublisherQos{DefaultPublisherQos(), PublisherQos(DefaultSubscriberQos())} {
		require.Equal(t, Presentation{AccessScope: InstanceScope}, p.Presentation)
		require.Empty(t, p.Partition.Name)
		require.Empty(t, p.GroupData.Value)
		require.True(t, p.EntityFactory.AutoenableCreatedEntities)
	}
	require.True(t, DefaultDomainParticipantQos().EntityFactory.AutoenableCreatedEntities)
	require.Empty(t, DefaultDomainParticipantQos().UserData.Value)
	require.True(t, DefaultDomainParticipantFactoryQos().EntityFactory.AutoenableCreatedEntities)
}

func TestDefaultsAreValidAndCompatible(t *testing.T) {
	require.NoError(t, DefaultDomainParticipantFactoryQos().Validate())
	require.NoError(t, DefaultDomainParticipantQos().Validate())
	require.NoError(t, DefaultTopicQos().Validate())
	require.NoError(t, DefaultPublisherQos().Validate())
	require.NoError(t, DefaultSubscriberQos().Validate())
	require.NoError(t, DefaultDataWriterQos().Validate())
	require.NoError(t, DefaultDataReaderQos().Validate())
	require.Empty(t, Compatible(defaultOffered(), defaultRequested()))
}

func TestFromTopic(t *testing.T) {
	tp := TopicQos{
		TopicData:          TopicData{Value: []byte("td")},
		Durability:         Durability{Kind: Persistent},
		DurabilityService:  DurabilityService{ServiceCleanupDelay: time.Second, HistoryKind: KeepAll, MaxSamples: 5, MaxInstances: 6, MaxSamplesPerInstance: 7},
		Deadline:           Deadline{Period: time.Second},
		LatencyBudget:      LatencyBudget{Duration: 2 * time.Second},
		Liveliness:         Liveliness{Kind: ManualByTopic, LeaseDuration: 3 * time.Second},
		Reliability:        Reliability{Kind: Reliable, MaxBlockingTime: 4 * time.Second},
		DestinationOrder:   DestinationOrder{Kind: BySourceTimestamp},
		History:            History{Kind: KeepAll, Depth: 9},
		ResourceLimits:     ResourceLimits{MaxSamples: 10, MaxInstances: 11, MaxSamplesPerInstance: 12},
		TransportPriority:  TransportPriority{Value: 13},
		Lifespan:           Lifespan{Duration: 14 * time.Second},
		Ownership:          Ownership{Kind: Exclusive},
		DataRepresentation: DataRepresentation{Value: []DataRepresentationID{XCDR2}},
	}

	base := DefaultDataWriterQos()
	base.UserData.Value = []byte("ud")
	base.OwnershipStrength.Value = 99
	base.WriterDataLifecycle.AutodisposeUnregisteredInstances = false
	w := base.FromTopic(tp)
	require.Equal(t, DataWriterQos{
		Durability:          tp.Durability,
		DurabilityService:   tp.DurabilityService,
		Deadline:            tp.Deadline,
		LatencyBudget:       tp.LatencyBudget,
		Liveliness:          tp.Liveliness,
		Reliability:         tp.Reliability,
		DestinationOrder:    tp.DestinationOrder,
		History:             tp.History,
		ResourceLimits:      tp.ResourceLimits,
		TransportPriority:   tp.TransportPriority,
		Lifespan:            tp.Lifespan,
		UserData:            UserData{Value: []byte("ud")},
		Ownership:           tp.Ownership,
		OwnershipStrength:   OwnershipStrength{Value: 99},
		WriterDataLifecycle: WriterDataLifecycle{},
		DataRepresentation:  tp.DataRepresentation,
	}, w)
	tp.DataRepresentation.Value[0] = XML
	require.Equal(t, XCDR2, w.DataRepresentation.Value[0], "FromTopic must not share the slice")

	rbase := DefaultDataReaderQos()
	rbase.TimeBasedFilter.MinimumSeparation = time.Millisecond
	r := rbase.FromTopic(tp)
	require.Equal(t, tp.Durability, r.Durability)
	require.Equal(t, tp.Deadline, r.Deadline)
	require.Equal(t, tp.LatencyBudget, r.LatencyBudget)
	require.Equal(t, tp.Liveliness, r.Liveliness)
	require.Equal(t, tp.Reliability, r.Reliability)
	require.Equal(t, tp.DestinationOrder, r.DestinationOrder)
	require.Equal(t, tp.History, r.History)
	require.Equal(t, tp.ResourceLimits, r.ResourceLimits)
	require.Equal(t, tp.Ownership, r.Ownership)
	require.Equal(t, tp.DataRepresentation, r.DataRepresentation)
	require.Equal(t, time.Millisecond, r.TimeBasedFilter.MinimumSeparation)
	require.Equal(t, rbase.ReaderDataLifecycle, r.ReaderDataLifecycle)
	require.Equal(t, rbase.TypeConsistencyEnforcement, r.TypeConsistencyEnforcement)
}

func TestClone(t *testing.T) {
	requireCloneUnshared(t, DefaultDataWriterQos(), DataWriterQos.Clone,
		func(q *DataWriterQos) *[]byte { return &q.UserData.Value },
		func(q *DataWriterQos) *[]DataRepresentationID { return &q.DataRepresentation.Value }, XCDR2, XCDR1)
	requireCloneUnshared(t, DefaultDataReaderQos(), DataReaderQos.Clone,
		func(q *DataReaderQos) *[]byte { return &q.UserData.Value },
		func(q *DataReaderQos) *[]DataRepresentationID { return &q.DataRepresentation.Value }, XCDR2, XCDR1)
	requireCloneUnshared(t, DefaultTopicQos(), TopicQos.Clone,
		func(q *TopicQos) *[]byte { return &q.TopicData.Value },
		func(q *TopicQos) *[]DataRepresentationID { return &q.DataRepresentation.Value }, XCDR2, XCDR1)
	requireCloneUnshared(t, DefaultPublisherQos(), PublisherQos.Clone,
		func(q *PublisherQos) *[]byte { return &q.GroupData.Value },
		func(q *PublisherQos) *[]string { return &q.Partition.Name }, "a", "b")
	requireCloneUnshared(t, DefaultSubscriberQos(), SubscriberQos.Clone,
		func(q *SubscriberQos) *[]byte { return &q.GroupData.Value },
		func(q *SubscriberQos) *[]string { return &q.Partition.Name }, "a", "b")

	dp := DefaultDomainParticipantQos()
	dp.UserData.Value = []byte{1}
	dc := dp.Clone()
	dc.UserData.Value[0] = 2
	require.Equal(t, byte(1), dp.UserData.Value[0])
}

// requireCloneUnshared sets the octets of q to {1} and its other slice to
// {was}, and checks that clone copies them and that changing the copy (to 2
// and to changed) leaves q as it was.
func requireCloneUnshared[Q any, E any](t *testing.T, q Q, clone func(Q) Q, octets func(*Q) *[]byte, other func(*Q) *[]E, was, changed E) {
	t.Helper()
	*octets(&q) = []byte{1}
	*other(&q) = []E{was}
	c := clone(q)
	require.Equal(t, q, c)
	(*octets(&c))[0] = 2
	(*other(&c))[0] = changed
	require.Equal(t, byte(1), (*octets(&q))[0])
	require.Equal(t, was, (*other(&q))[0])
}
