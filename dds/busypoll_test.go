package dds

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/netns"
	"github.com/ddsgo/ddsgo/rtps"
)

// Two participants with rtps.Config.BusyPoll exchange samples over UDP with the
// same reliability as without, and their statistics count the datagrams a busy poll
// found: here the samples written one after another, each within the poll that
// followed the previous one (Linux; elsewhere BusyPoll does nothing).
func TestBusyPoll(t *testing.T) {
	_, pb, w, r := pollPair(t, rtps.Config{BusyPoll: time.Second}, "busy")

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var got [1]point
	var infos [1]SampleInfo
	const n = 200
	for i := range n {
		require.NoError(t, w.Write(ctx, &point{ID: 1, X: float64(i)}))
		k, err := r.TakeInto(ctx, got[:], infos[:])
		require.NoError(t, err)
		require.Equal(t, 1, k)
		require.Equal(t, float64(i), got[0].X)
	}
	if runtime.GOOS != "linux" {
		return
	}
	st := pb.Statistics()
	require.NotZero(t, st.BusyPolled, "the reader's participant found nothing while polling")
	require.LessOrEqual(t, st.BusyPolled, st.Received)
}

// By default (rtps.Config.BusyPoll zero) the busy poll is adaptive: a stream
// polls on neither side, the reader's participant sending no user data and the
// writer's receiving none, though the samples come one every few tens of
// microseconds (internal/transport's TestUDPAdaptivePoll shows a
// request/reply polling).
func TestAdaptivePollStream(t *testing.T) {
	pa, pb, w, r := pollPair(t, rtps.Config{}, "stream")

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	const n = 300
	for i := range n {
		require.NoError(t, w.Write(ctx, &point{ID: 1, X: float64(i)}))
		// A pause shorter than the window, so that the reader's socket goes
		// empty and the next sample comes soon after.
		for t0 := time.Now(); time.Since(t0) < 30*time.Microsecond; {
			runtime.Gosched()
		}
	}
	var got [n]point
	var infos [n]SampleInfo
	for k := 0; k < n; {
		m, err := r.TakeInto(ctx, got[k:], infos[k:])
		require.NoError(t, err)
		k += m
	}
	require.Equal(t, float64(n-1), got[n-1].X)
	require.Zero(t, pa.Statistics().BusyPolled, "the writer's participant polled")
	require.Zero(t, pb.Statistics().BusyPolled, "the reader's participant polled")
	require.NotZero(t, pb.Statistics().Received)
}

// pollPair opens two participants of domain 38 over UDP with cfg, closed at the
// test's end, and a matched writer (on pa) and reader (on pb) of topic.
func pollPair(t *testing.T, cfg rtps.Config, topic string) (pa, pb *DomainParticipant, w *DataWriter[point], r *DataReader[point]) {
	t.Helper()
	netns.Require(t)
	for _, p := range []**DomainParticipant{&pa, &pb} {
		var err error
		*p, err = NewParticipant(38, WithRTPS(cfg), withWire())
		require.NoError(t, err)
		dp := *p
		t.Cleanup(func() { require.NoError(t, dp.Close()) })
	}
	w, r = benchEndpoints(t, pa, pb, topic)
	require.Eventually(t, func() bool {
		ms, _ := w.MatchedSubscriptions()
		return len(ms) == 1
	}, 10*time.Second, time.Millisecond)
	return pa, pb, w, r
}
