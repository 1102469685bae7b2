package main

import (
	"strings"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
)

// jsonDeadlineMissed is an offered_deadline_missed or requested_deadline_missed event
// line (on stderr).
type jsonDeadlineMissed struct {
	Event            string `json:"event"`
	TotalCount       int32  `json:"total_count"`
	TotalCountChange int32  `json:"total_count_change"`
}

// jsonIncompatibleQos is an offered_incompatible_qos or requested_incompatible_qos event
// line: the counts and the last incompatible policy's name (policyName).
type jsonIncompatibleQos struct {
	Event            string `json:"event"`
	TotalCount       int32  `json:"total_count"`
	TotalCountChange int32  `json:"total_count_change"`
	Policy           string `json:"policy"`
}

// policyName is the name of policy id as the status events print it: the spec's name in
// upper case, words joined by '_' ("RELIABILITY", "TIME_BASED_FILTER"), as the C and C++
// peers print it from their own policy ids (peer_common.h).
func policyName(id qos.PolicyID) string {
	var b strings.Builder
	for i, c := range id.String() {
		if c >= 'A' && c <= 'Z' && i > 0 {
			b.WriteByte('_')
		}
		b.WriteRune(c)
	}
	return strings.ToUpper(b.String())
}

// writerListener returns the listener of the publisher's writer and the statuses it
// prints: liveliness lost with a finite -lease, offered deadline missed with a -deadline,
// offered incompatible QoS always.
func writerListener[T any](pr *peer) (dds.WriterListener[T], listener.StatusMask) {
	mask := pr.a.statusEvents(listener.LivelinessLost) | listener.StatusMask(listener.OfferedIncompatibleQos)
	if pr.a.deadline > 0 {
		mask |= listener.StatusMask(listener.OfferedDeadlineMissed)
	}
	return dds.WriterListener[T]{
		OnLivelinessLost: func(_ *dds.DataWriter[T], s listener.LivelinessLostStatus) {
			pr.event(jsonLivelinessLost{"liveliness_lost", s.TotalCount, s.TotalCountChange})
		},
		OnOfferedDeadlineMissed: func(_ *dds.DataWriter[T], s listener.OfferedDeadlineMissedStatus) {
			pr.event(jsonDeadlineMissed{"offered_deadline_missed", s.TotalCount, s.TotalCountChange})
		},
		OnOfferedIncompatibleQos: func(_ *dds.DataWriter[T], s listener.OfferedIncompatibleQosStatus) {
			pr.event(jsonIncompatibleQos{"offered_incompatible_qos", s.TotalCount, s.TotalCountChange, policyName(s.LastPolicyID)})
		},
	}, mask
}

// readerListener is writerListener's counterpart for the subscriber's reader.
func readerListener[T any](pr *peer) (dds.ReaderListener[T], listener.StatusMask) {
	mask := pr.a.statusEvents(listener.LivelinessChanged) | listener.StatusMask(listener.RequestedIncompatibleQos)
	if pr.a.deadline > 0 {
		mask |= listener.StatusMask(listener.RequestedDeadlineMissed)
	}
	return dds.ReaderListener[T]{
		OnLivelinessChanged: func(_ *dds.DataReader[T], s listener.LivelinessChangedStatus) {
			pr.event(jsonLivelinessChanged{"liveliness_changed", s.AliveCount, s.NotAliveCount, s.AliveCountChange, s.NotAliveCountChange})
		},
		OnRequestedDeadlineMissed: func(_ *dds.DataReader[T], s listener.RequestedDeadlineMissedStatus) {
			pr.event(jsonDeadlineMissed{"requested_deadline_missed", s.TotalCount, s.TotalCountChange})
		},
		OnRequestedIncompatibleQos: func(_ *dds.DataReader[T], s listener.RequestedIncompatibleQosStatus) {
			pr.event(jsonIncompatibleQos{"requested_incompatible_qos", s.TotalCount, s.TotalCountChange, policyName(s.LastPolicyID)})
		},
	}, mask
}

// setQosFlags sets the policies of -deadline (both roles) and -time-filter (readers;
// tf is nil for a writer).
func setQosFlags(a args, d *qos.Deadline, lb *qos.LatencyBudget, tf *qos.TimeBasedFilter) {
	if a.deadline > 0 {
		d.Period = a.deadline
	}
	lb.Duration = a.latencyBudget
	if tf != nil {
		tf.MinimumSeparation = a.timeFilter
	}
}

// groupOptions are the options of the publisher or subscriber: -partition.
func groupOptions(a args) []dds.Option {
	if len(a.partition) == 0 {
		return nil
	}
	return []dds.Option{dds.Partition(a.partition...)}
}
