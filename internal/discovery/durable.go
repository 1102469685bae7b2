package discovery

import (
	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/qos"
)

// WriterHistory returns the history a writer with QoS q keeps. A TRANSIENT or
// PERSISTENT writer's history is also what the durability service keeps of it, so it
// keeps at least what HISTORY and RESOURCE_LIMITS say (the writer's reliability to its
// readers) and at least what DURABILITY_SERVICE says (what late joiners get): KEEP_ALL
// when either is, the larger depth, and for each resource limit the larger one
// (unlimited when either is).
func WriterHistory(q *qos.DataWriterQos) rtps.HistoryConfig {
	h := rtps.HistoryConfig{
		KeepAll: q.History.Kind == qos.KeepAll, Depth: int(q.History.Depth),
		MaxSamples: int(q.ResourceLimits.MaxSamples), MaxInstances: int(q.ResourceLimits.MaxInstances),
		MaxSamplesPerInstance: int(q.ResourceLimits.MaxSamplesPerInstance),
		Lifespan:              lifespan(q),
	}
	if q.Durability.Kind < qos.Transient {
		return h
	}
	ds := &q.DurabilityService
	h.KeepAll = h.KeepAll || ds.HistoryKind == qos.KeepAll
	h.Depth = max(h.Depth, int(ds.HistoryDepth))
	h.MaxSamples = maxLimit(h.MaxSamples, int(ds.MaxSamples))
	h.MaxInstances = maxLimit(h.MaxInstances, int(ds.MaxInstances))
	h.MaxSamplesPerInstance = maxLimit(h.MaxSamplesPerInstance, int(ds.MaxSamplesPerInstance))
	return h
}

// maxLimit is the larger of two resource limits, where 0 or less is unlimited.
func maxLimit(a, b int) int {
	if a <= 0 || b <= 0 {
		return 0
	}
	return max(a, b)
}
