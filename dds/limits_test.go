package dds

import (
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/internal/discovery"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/stretchr/testify/require"
)

// A reader that stops reading: its cache fills up to its RESOURCE_LIMITS and rejects
// the rest (SAMPLE_REJECTED), leaving it unacknowledged; the reliable KEEP_ALL writer's
// history fills up to its own RESOURCE_LIMITS, and then a write blocks for
// max_blocking_time and fails with ErrTimeout. Nothing grows beyond the limits; once the
// reader takes, the writer goes on and every sample arrives once, in order.
func TestReaderThatStopsReading(t *testing.T) {
	wq := qos.DefaultDataWriterQos()
	wq.Reliability.MaxBlockingTime = 100 * time.Millisecond
	wq.ResourceLimits.MaxSamples = 8
	rq := reliableReader()
	rq.ResourceLimits.MaxSamples = 4
	w, r := matchedPair(t, 21, []Option{WithQos(wq), Reliable(), KeepAll()}, []Option{WithQos(*rq)})
	require.Equal(t, 100*time.Millisecond, w.Qos().Reliability.MaxBlockingTime)

	written := 0
	var blocked time.Duration
	for written < 100 {
		start := time.Now()
		err := w.Write(bg, &message{ID: 1, Seq: uint64(written)})
		if err != nil {
			blocked = time.Since(start)
			require.ErrorIs(t, err, ErrTimeout)
			break
		}
		written++
	}
	require.Less(t, written, 100, "the writer blocked")
	require.GreaterOrEqual(t, blocked, 100*time.Millisecond)
	require.Less(t, blocked, time.Second)
	hist := w.ew.(*discovery.LocalWriter).Writer().HistoryLen()
	require.LessOrEqual(t, hist, 8, "the writer's history stays within max_samples")
	require.LessOrEqual(t, r.cache.Load().Stats().Samples, 4, "the reader's cache stays within max_samples")
	rs, err := r.SampleRejectedStatus()
	require.NoError(t, err)
	require.Positive(t, rs.TotalCount)
	require.Equal(t, listener.RejectedBySamplesLimit, rs.LastReason)

	// The reader reads again: everything written arrives, once, in order.
	var got []uint64
	deadline := time.Now().Add(10 * time.Second)
	for len(got) < written && time.Now().Before(deadline) {
		data, _, err := r.Take(bg, NoWait())
		if err != nil {
			time.Sleep(time.Millisecond)
			continue
		}
		for _, m := range data {
			got = append(got, m.Seq)
		}
	}
	want := make([]uint64, written)
	for i := range want {
		want[i] = uint64(i)
	}
	require.Equal(t, want, got)
	require.NoError(t, w.Write(bg, &message{ID: 1, Seq: uint64(written)}), "the writer goes on")
}

// A writer's RESOURCE_LIMITS max_instances bounds the instances it registers: one more is
// ErrOutOfResources and changes nothing; unregistering one makes room.
func TestWriterMaxInstances(t *testing.T) {
	p := testParticipant(t, nil, nil)
	wq := qos.DefaultDataWriterQos()
	wq.ResourceLimits.MaxInstances = 2
	w, r := endpoints[point](t, p, "limited", &wq, reliableReader())
	require.NoError(t, w.Write(bg, &point{ID: 1}))
	require.NoError(t, w.Write(bg, &point{ID: 2}))
	require.NoError(t, w.Write(bg, &point{ID: 1, X: 1}), "a registered instance")
	err := w.Write(bg, &point{ID: 3})
	require.ErrorIs(t, err, ErrOutOfResources)
	_, err = w.Register(&point{ID: 3})
	require.ErrorIs(t, err, ErrOutOfResources)
	require.NoError(t, w.Unregister(bg, &point{ID: 2}))
	require.NoError(t, w.Write(bg, &point{ID: 3}))
	data, _, err := r.Take(bg, NoWait(), InStates(States{Instance: AliveInstanceState}))
	require.NoError(t, err)
	ids := make([]int32, len(data))
	for i, d := range data {
		ids[i] = d.ID
	}
	require.ElementsMatch(t, []int32{1, 1, 3}, ids)
}
