package qos

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func defaultOffered() Offered {
	return Offered{Writer: DefaultDataWriterQos(), Publisher: DefaultPublisherQos()}
}

func defaultRequested() Requested {
	return Requested{Reader: DefaultDataReaderQos(), Subscriber: DefaultSubscriberQos()}
}

func TestCompatible(t *testing.T) {
	tests := []struct {
		name string
		set  func(o *Offered, r *Requested)
		want []PolicyID
	}{
		{"defaults", func(*Offered, *Requested) {}, nil},

		// DURABILITY: offered >= requested.
		{"durability equal", func(o *Offered, r *Requested) {
			o.Writer.Durability.Kind, r.Reader.Durability.Kind = TransientLocal, TransientLocal
		}, nil},
		{"durability offered higher", func(o *Offered, r *Requested) {
			o.Writer.Durability.Kind, r.Reader.Durability.Kind = Persistent, TransientLocal
		}, nil},
		{"durability offered lower", func(o *Offered, r *Requested) {
			o.Writer.Durability.Kind, r.Reader.Durability.Kind = Volatile, TransientLocal
		}, []PolicyID{DurabilityPolicyID}},
		{"durability transient vs persistent", func(o *Offered, r *Requested) {
			o.Writer.Durability.Kind, r.Reader.Durability.Kind = Transient, Persistent
		}, []PolicyID{DurabilityPolicyID}},

		// PRESENTATION: access scope and coherent/ordered access.
		{"presentation scope higher", func(o *Offered, r *Requested) {
			o.Publisher.Presentation.AccessScope, r.Subscriber.Presentation.AccessScope = GroupScope, TopicScope
		}, nil},
		{"presentation scope lower", func(o *Offered, r *Requested) {
			o.Publisher.Presentation.AccessScope, r.Subscriber.Presentation.AccessScope = TopicScope, GroupScope
		}, []PolicyID{PresentationPolicyID}},
		{"coherent requested not offered", func(_ *Offered, r *Requested) {
			r.Subscriber.Presentation.CoherentAccess = true
		}, []PolicyID{PresentationPolicyID}},
		{"coherent offered not requested", func(o *Offered, _ *Requested) {
			o.Publisher.Presentation.CoherentAccess = true
		}, nil},
		{"ordered requested not offered", func(_ *Offered, r *Requested) {
			r.Subscriber.Presentation.OrderedAccess = true
		}, []PolicyID{PresentationPolicyID}},
		{"ordered both", func(o *Offered, r *Requested) {
			o.Publisher.Presentation.OrderedAccess, r.Subscriber.Presentation.OrderedAccess = true, true
		}, nil},

		// DEADLINE: offered period <= requested period.
		{"deadline offered shorter", func(o *Offered, r *Requested) {
			o.Writer.Deadline.Period, r.Reader.Deadline.Period = time.Second, 2*time.Second
		}, nil},
		{"deadline equal", func(o *Offered, r *Requested) {
			o.Writer.Deadline.Period, r.Reader.Deadline.Period = time.Second, time.Second
		}, nil},
		{"deadline offered longer", func(o *Offered, r *Requested) {
			o.Writer.Deadline.Period, r.Reader.Deadline.Period = 2*time.Second, time.Second
		}, []PolicyID{DeadlinePolicyID}},
		{"deadline offered infinite", func(_ *Offered, r *Requested) {
			r.Reader.Deadline.Period = time.Hour
		}, []PolicyID{DeadlinePolicyID}},

		// LATENCY_BUDGET: offered duration <= requested duration.
		{"latency budget offered lower", func(o *Offered, r *Requested) {
			o.Writer.LatencyBudget.Duration, r.Reader.LatencyBudget.Duration = time.Millisecond, time.Second
		}, nil},
		{"latency budget offered higher", func(o *Offered, _ *Requested) {
			o.Writer.LatencyBudget.Duration = time.Millisecond
		}, []PolicyID{LatencyBudgetPolicyID}},

		// OWNERSHIP: equal kinds.
		{"ownership both exclusive", func(o *Offered, r *Requested) {
			o.Writer.Ownership.Kind, r.Reader.Ownership.Kind = Exclusive, Exclusive
		}, nil},
		{"ownership exclusive offered, shared requested", func(o *Offered, _ *Requested) {
			o.Writer.Ownership.Kind = Exclusive
		}, []PolicyID{OwnershipPolicyID}},
		{"ownership shared offered, exclusive requested", func(_ *Offered, r *Requested) {
			r.Reader.Ownership.Kind = Exclusive
		}, []PolicyID{OwnershipPolicyID}},

		// LIVELINESS: kind offered >= requested, lease offered <= requested.
		{"liveliness kind higher", func(o *Offered, r *Requested) {
			o.Writer.Liveliness.Kind, r.Reader.Liveliness.Kind = ManualByTopic, ManualByParticipant
		}, nil},
		{"liveliness kind lower", func(o *Offered, r *Requested) {
			o.Writer.Liveliness.Kind, r.Reader.Liveliness.Kind = Automatic, ManualByParticipant
		}, []PolicyID{LivelinessPolicyID}},
		{"liveliness lease shorter", func(o *Offered, r *Requested) {
			o.Writer.Liveliness.LeaseDuration, r.Reader.Liveliness.LeaseDuration = time.Second, 2*time.Second
		}, nil},
		{"liveliness lease longer", func(o *Offered, r *Requested) {
			o.Writer.Liveliness.LeaseDuration, r.Reader.Liveliness.LeaseDuration = 3*time.Second, 2*time.Second
		}, []PolicyID{LivelinessPolicyID}},

		// RELIABILITY: offered >= requested.
		{"reliable offered, best effort requested", func(*Offered, *Requested) {}, nil},
		{"best effort offered, reliable requested", func(o *Offered, r *Requested) {
			o.Writer.Reliability.Kind, r.Reader.Reliability.Kind = BestEffort, Reliable
		}, []PolicyID{ReliabilityPolicyID}},
		{"reliable both", func(_ *Offered, r *Requested) {
			r.Reader.Reliability.Kind = Reliable
		}, nil},
		{"max blocking time irrelevant", func(o *Offered, r *Requested) {
			o.Writer.Reliability.MaxBlockingTime, r.Reader.Reliability.MaxBlockingTime = time.Hour, 0
		}, nil},

		// DESTINATION_ORDER: offered >= requested.
		{"source timestamp offered", func(o *Offered, _ *Requested) {
			o.Writer.DestinationOrder.Kind = BySourceTimestamp
		}, nil},
		{"source timestamp requested", func(_ *Offered, r *Requested) {
			r.Reader.DestinationOrder.Kind = BySourceTimestamp
		}, []PolicyID{DestinationOrderPolicyID}},

		// DATA_REPRESENTATION: writer's first in reader's list.
		{"xcdr2 writer, default reader", func(o *Offered, _ *Requested) {
			o.Writer.DataRepresentation.Value = []DataRepresentationID{XCDR2}
		}, []PolicyID{DataRepresentationPolicyID}},
		{"xcdr2 writer, cyclone-like reader", func(o *Offered, r *Requested) {
			o.Writer.DataRepresentation.Value = []DataRepresentationID{XCDR2}
			r.Reader.DataRepresentation.Value = []DataRepresentationID{XCDR1, XCDR2}
		}, nil},
		{"only the writer's first counts", func(o *Offered, r *Requested) {
			o.Writer.DataRepresentation.Value = []DataRepresentationID{XCDR2, XCDR1}
			r.Reader.DataRepresentation.Value = []DataRepresentationID{XCDR1}
		}, []PolicyID{DataRepresentationPolicyID}},
		{"default writer, xcdr2-only reader", func(_ *Offered, r *Requested) {
			r.Reader.DataRepresentation.Value = []DataRepresentationID{XCDR2}
		}, []PolicyID{DataRepresentationPolicyID}},

		// Not RxO: no effect.
		{"history, limits, partitions, user data", func(o *Offered, r *Requested) {
			o.Writer.History = History{Kind: KeepAll}
			r.Reader.History.Depth = 100
			r.Reader.ResourceLimits.MaxSamples = 1
			o.Publisher.Partition.Name = []string{"a"}
			r.Subscriber.Partition.Name = []string{"b"}
			o.Writer.UserData.Value = []byte("x")
			o.Writer.Lifespan.Duration = time.Second
			r.Reader.TimeBasedFilter.MinimumSeparation = time.Second
			r.Reader.TypeConsistencyEnforcement.Kind = DisallowTypeCoercion
		}, nil},

		// Several at once, in id order.
		{"many", func(o *Offered, r *Requested) {
			r.Reader.DataRepresentation.Value = []DataRepresentationID{XCDR2}
			o.Writer.Reliability.Kind, r.Reader.Reliability.Kind = BestEffort, Reliable
			r.Reader.Durability.Kind = Transient
			r.Subscriber.Presentation.AccessScope = GroupScope
			r.Reader.Deadline.Period = time.Second
			o.Writer.LatencyBudget.Duration = time.Second
			r.Reader.Ownership.Kind = Exclusive
			r.Reader.Liveliness.Kind = ManualByTopic
			r.Reader.DestinationOrder.Kind = BySourceTimestamp
		}, []PolicyID{
			DurabilityPolicyID, PresentationPolicyID, DeadlinePolicyID, LatencyBudgetPolicyID,
			OwnershipPolicyID, LivelinessPolicyID, ReliabilityPolicyID, DestinationOrderPolicyID,
			DataRepresentationPolicyID,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, r := defaultOffered(), defaultRequested()
			tt.set(&o, &r)
			got := Compatible(o, r)
			require.Equal(t, tt.want, got)
			for _, id := range got {
				require.True(t, id.isRxO(), "%v is not RxO", id)
			}
		})
	}
}

func TestAppendIncompatibleAllocs(t *testing.T) {
	o, r := defaultOffered(), defaultRequested()
	r.Reader.Reliability.Kind = Reliable
	o.Writer.Reliability.Kind = BestEffort
	dst := make([]PolicyID, 0, NumPolicyIDs)
	allocs := testing.AllocsPerRun(100, func() {
		dst = appendIncompatible(dst[:0], o, r)
	})
	require.Zero(t, allocs)
	require.Equal(t, []PolicyID{ReliabilityPolicyID}, dst)
}

func TestExplain(t *testing.T) {
	o := Offered{Writer: DefaultDataWriterQos(), Publisher: DefaultPublisherQos()}
	r := Requested{Reader: DefaultDataReaderQos(), Subscriber: DefaultSubscriberQos()}
	require.Empty(t, Explain(o, r))
	o.Writer.Reliability.Kind = BestEffort
	r.Reader.Reliability.Kind = Reliable
	o.Writer.Deadline.Period = Infinite
	r.Reader.Deadline.Period = time.Second
	o.Writer.DataRepresentation.Value = []DataRepresentationID{XCDR2}
	got := Explain(o, r)
	require.Equal(t, []Incompatibility{
		{DeadlinePolicyID, "infinite", "1s"},
		{ReliabilityPolicyID, "BEST_EFFORT", "RELIABLE"},
		{DataRepresentationPolicyID, "[XCDR2]", "[] (XCDR1)"},
	}, got)
	require.Equal(t, "Reliability: offered BEST_EFFORT, requested RELIABLE", got[1].String())
	ids := make([]PolicyID, len(got))
	for i, in := range got {
		ids[i] = in.Policy
	}
	require.Equal(t, Compatible(o, r), ids)
}
