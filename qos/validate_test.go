package qos

import (
	"errors"
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/internal/errs"

	"github.com/stretchr/testify/require"
)

type validateCase struct {
	name   string
	mutate func(w *DataWriterQos, r *DataReaderQos, t *TopicQos)
	err    error    // nil: valid
	policy PolicyID // policy named in the error
	// which QoS types the mutation applies to and is checked on
	writer, reader, topic bool
}

func TestValidate(t *testing.T) {
	all := func(f func(h *History, rl *ResourceLimits)) func(w *DataWriterQos, r *DataReaderQos, t *TopicQos) {
		return func(w *DataWriterQos, r *DataReaderQos, t *TopicQos) {
			f(&w.History, &w.ResourceLimits)
			f(&r.History, &r.ResourceLimits)
			f(&t.History, &t.ResourceLimits)
		}
	}
	tests := []validateCase{
		// History and resource limits (§2.2.3.18, §2.2.3.19).
		{"keep last depth 0", all(func(h *History, _ *ResourceLimits) { h.Depth = 0 }), errs.ErrBadParameter, HistoryPolicyID, true, true, true},
		{"keep last depth -1", all(func(h *History, _ *ResourceLimits) { h.Depth = -1 }), errs.ErrBadParameter, HistoryPolicyID, true, true, true},
		{"keep all ignores depth", all(func(h *History, _ *ResourceLimits) { *h = History{Kind: KeepAll, Depth: 0} }), nil, 0, true, true, true},
		{"unknown history kind", all(func(h *History, _ *ResourceLimits) { h.Kind = 2 }), errs.ErrBadParameter, HistoryPolicyID, true, true, true},
		{"depth > max_samples_per_instance", all(func(h *History, rl *ResourceLimits) { h.Depth = 5; rl.MaxSamplesPerInstance = 4 }), errs.ErrInconsistentPolicy, HistoryPolicyID, true, true, true},
		{"depth == max_samples_per_instance", all(func(h *History, rl *ResourceLimits) { h.Depth = 4; rl.MaxSamplesPerInstance = 4 }), nil, 0, true, true, true},
		{"keep all with small max_samples_per_instance", all(func(h *History, rl *ResourceLimits) {
			*h = History{Kind: KeepAll, Depth: 100}
			rl.MaxSamplesPerInstance = 1
		}), nil, 0, true, true, true},
		{"max_samples < max_samples_per_instance", all(func(_ *History, rl *ResourceLimits) { rl.MaxSamples = 2; rl.MaxSamplesPerInstance = 3 }), errs.ErrInconsistentPolicy, ResourceLimitsPolicyID, true, true, true},
		{"max_samples unlimited, per instance limited", all(func(_ *History, rl *ResourceLimits) { rl.MaxSamplesPerInstance = 3 }), nil, 0, true, true, true},
		{"max_samples limited, per instance unlimited", all(func(_ *History, rl *ResourceLimits) { rl.MaxSamples = 3 }), nil, 0, true, true, true},
		{"max_samples 0", all(func(_ *History, rl *ResourceLimits) { rl.MaxSamples = 0 }), errs.ErrBadParameter, ResourceLimitsPolicyID, true, true, true},
		{"max_instances -2", all(func(_ *History, rl *ResourceLimits) { rl.MaxInstances = -2 }), errs.ErrBadParameter, ResourceLimitsPolicyID, true, true, true},
		{"max_samples_per_instance 0", all(func(_ *History, rl *ResourceLimits) { rl.MaxSamplesPerInstance = 0 }), errs.ErrBadParameter, ResourceLimitsPolicyID, true, true, true},

		// Durations and kinds.
		{"negative deadline", func(w *DataWriterQos, r *DataReaderQos, t *TopicQos) {
			w.Deadline.Period, r.Deadline.Period, t.Deadline.Period = -1, -1, -1
		}, errs.ErrBadParameter, DeadlinePolicyID, true, true, true},
		{"zero deadline", func(w *DataWriterQos, r *DataReaderQos, t *TopicQos) {
			w.Deadline.Period, r.Deadline.Period, t.Deadline.Period = 0, 0, 0
		}, nil, 0, true, true, true},
		{"negative latency budget", func(w *DataWriterQos, r *DataReaderQos, t *TopicQos) {
			w.LatencyBudget.Duration, r.LatencyBudget.Duration, t.LatencyBudget.Duration = -1, -1, -1
		}, errs.ErrBadParameter, LatencyBudgetPolicyID, true, true, true},
		{"negative lease", func(w *DataWriterQos, r *DataReaderQos, t *TopicQos) {
			w.Liveliness.LeaseDuration, r.Liveliness.LeaseDuration, t.Liveliness.LeaseDuration = -1, -1, -1
		}, errs.ErrBadParameter, LivelinessPolicyID, true, true, true},
		{"unknown liveliness kind", func(w *DataWriterQos, r *DataReaderQos, t *TopicQos) {
			w.Liveliness.Kind, r.Liveliness.Kind, t.Liveliness.Kind = 3, 3, 3
		}, errs.ErrBadParameter, LivelinessPolicyID, true, true, true},
		{"negative max_blocking_time", func(w *DataWriterQos, r *DataReaderQos, t *TopicQos) {
			w.Reliability.MaxBlockingTime, r.Reliability.MaxBlockingTime, t.Reliability.MaxBlockingTime = -1, -1, -1
		}, errs.ErrBadParameter, ReliabilityPolicyID, true, true, true},
		{"unknown reliability kind", func(w *DataWriterQos, r *DataReaderQos, t *TopicQos) {
			w.Reliability.Kind, r.Reliability.Kind, t.Reliability.Kind = 2, 2, 2
		}, errs.ErrBadParameter, ReliabilityPolicyID, true, true, true},
		{"unknown durability kind", func(w *DataWriterQos, r *DataReaderQos, t *TopicQos) {
			w.Durability.Kind, r.Durability.Kind, t.Durability.Kind = -1, -1, -1
		}, errs.ErrBadParameter, DurabilityPolicyID, true, true, true},
		{"unknown ownership kind", func(w *DataWriterQos, r *DataReaderQos, t *TopicQos) {
			w.Ownership.Kind, r.Ownership.Kind, t.Ownership.Kind = 2, 2, 2
		}, errs.ErrBadParameter, OwnershipPolicyID, true, true, true},
		{"unknown destination order kind", func(w *DataWriterQos, r *DataReaderQos, t *TopicQos) {
			w.DestinationOrder.Kind, r.DestinationOrder.Kind, t.DestinationOrder.Kind = 2, 2, 2
		}, errs.ErrBadParameter, DestinationOrderPolicyID, true, true, true},
		{"unknown data representation", func(w *DataWriterQos, r *DataReaderQos, t *TopicQos) {
			v := []DataRepresentationID{XCDR2, 7}
			w.DataRepresentation.Value, r.DataRepresentation.Value, t.DataRepresentation.Value = v, v, v
		}, errs.ErrBadParameter, DataRepresentationPolicyID, true, true, true},
		{"negative lifespan", func(w *DataWriterQos, _ *DataReaderQos, t *TopicQos) {
			w.Lifespan.Duration, t.Lifespan.Duration = -time.Second, -time.Second
		}, errs.ErrBadParameter, LifespanPolicyID, true, false, true},

		// Durability service (§2.2.3.5), same rules as history and resource limits.
		{"durability service negative cleanup delay", func(w *DataWriterQos, _ *DataReaderQos, t *TopicQos) {
			w.DurabilityService.ServiceCleanupDelay, t.DurabilityService.ServiceCleanupDelay = -1, -1
		}, errs.ErrBadParameter, DurabilityServicePolicyID, true, false, true},
		{"durability service depth 0", func(w *DataWriterQos, _ *DataReaderQos, t *TopicQos) {
			w.DurabilityService.HistoryDepth, t.DurabilityService.HistoryDepth = 0, 0
		}, errs.ErrBadParameter, DurabilityServicePolicyID, true, false, true},
		{"durability service unknown kind", func(w *DataWriterQos, _ *DataReaderQos, t *TopicQos) {
			w.DurabilityService.HistoryKind, t.DurabilityService.HistoryKind = 5, 5
		}, errs.ErrBadParameter, DurabilityServicePolicyID, true, false, true},
		{"durability service bad limit", func(w *DataWriterQos, _ *DataReaderQos, t *TopicQos) {
			w.DurabilityService.MaxInstances, t.DurabilityService.MaxInstances = 0, 0
		}, errs.ErrBadParameter, DurabilityServicePolicyID, true, false, true},
		{"durability service depth > per instance", func(w *DataWriterQos, _ *DataReaderQos, t *TopicQos) {
			w.DurabilityService.HistoryDepth, t.DurabilityService.HistoryDepth = 3, 3
			w.DurabilityService.MaxSamplesPerInstance, t.DurabilityService.MaxSamplesPerInstance = 2, 2
		}, errs.ErrInconsistentPolicy, DurabilityServicePolicyID, true, false, true},
		{"durability service max_samples < per instance", func(w *DataWriterQos, _ *DataReaderQos, t *TopicQos) {
			w.DurabilityService.MaxSamples, t.DurabilityService.MaxSamples = 1, 1
			w.DurabilityService.MaxSamplesPerInstance, t.DurabilityService.MaxSamplesPerInstance = 2, 2
		}, errs.ErrInconsistentPolicy, DurabilityServicePolicyID, true, false, true},

		// Reader only.
		{"deadline < minimum_separation", func(_ *DataWriterQos, r *DataReaderQos, _ *TopicQos) {
			r.Deadline.Period = time.Second
			r.TimeBasedFilter.MinimumSeparation = 2 * time.Second
		}, errs.ErrInconsistentPolicy, DeadlinePolicyID, false, true, false},
		{"deadline == minimum_separation", func(_ *DataWriterQos, r *DataReaderQos, _ *TopicQos) {
			r.Deadline.Period = time.Second
			r.TimeBasedFilter.MinimumSeparation = time.Second
		}, nil, 0, false, true, false},
		{"negative minimum_separation", func(_ *DataWriterQos, r *DataReaderQos, _ *TopicQos) {
			r.TimeBasedFilter.MinimumSeparation = -1
		}, errs.ErrBadParameter, TimeBasedFilterPolicyID, false, true, false},
		{"negative autopurge nowriter", func(_ *DataWriterQos, r *DataReaderQos, _ *TopicQos) {
			r.ReaderDataLifecycle.AutopurgeNoWriterSamplesDelay = -1
		}, errs.ErrBadParameter, ReaderDataLifecyclePolicyID, false, true, false},
		{"negative autopurge disposed", func(_ *DataWriterQos, r *DataReaderQos, _ *TopicQos) {
			r.ReaderDataLifecycle.AutopurgeDisposedSamplesDelay = -1
		}, errs.ErrBadParameter, ReaderDataLifecyclePolicyID, false, true, false},
		{"unknown type consistency kind", func(_ *DataWriterQos, r *DataReaderQos, _ *TopicQos) {
			r.TypeConsistencyEnforcement.Kind = 2
		}, errs.ErrBadParameter, TypeConsistencyEnforcementPolicyID, false, true, false},
	}
	check := func(t *testing.T, tt validateCase, err error) {
		t.Helper()
		if tt.err == nil {
			require.NoError(t, err)
			return
		}
		require.ErrorIs(t, err, tt.err)
		var pe *PolicyError
		require.True(t, errors.As(err, &pe))
		require.Equal(t, tt.policy, pe.Policy)
		require.Contains(t, err.Error(), "dds: ")
		require.Contains(t, err.Error(), tt.policy.String())
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, r, tp := DefaultDataWriterQos(), DefaultDataReaderQos(), DefaultTopicQos()
			tt.mutate(&w, &r, &tp)
			if tt.writer {
				check(t, tt, w.Validate())
			}
			if tt.reader {
				check(t, tt, r.Validate())
			}
			if tt.topic {
				check(t, tt, tp.Validate())
			}
		})
	}
}

func TestValidateGroupQos(t *testing.T) {
	p := DefaultPublisherQos()
	p.Presentation.AccessScope = 3
	err := p.Validate()
	require.ErrorIs(t, err, errs.ErrBadParameter)
	require.EqualError(t, err, "dds: bad parameter: Presentation: unknown access scope AccessScopeKind(3)")

	s := DefaultSubscriberQos()
	s.Presentation = Presentation{AccessScope: GroupScope, CoherentAccess: true, OrderedAccess: true}
	s.Partition.Name = []string{"a*", ""}
	require.NoError(t, s.Validate())
	s.Presentation.AccessScope = -1
	require.ErrorIs(t, s.Validate(), errs.ErrBadParameter)
}
