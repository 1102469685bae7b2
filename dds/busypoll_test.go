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
	netns.Require(t)
	cfg := WithRTPS(rtps.Config{BusyPoll: time.Second})
	pa, err := NewParticipant(38, cfg, withWire())
	require.NoError(t, err)
	defer func() { require.NoError(t, pa.Close()) }()
	pb, err := NewParticipant(38, cfg, withWire())
	require.NoError(t, err)
	defer func() { require.NoError(t, pb.Close()) }()
	w, r := benchEndpoints(t, pa, pb, "busy")
	require.Eventually(t, func() bool {
		ms, _ := w.MatchedSubscriptions()
		return len(ms) == 1
	}, 10*time.Second, time.Millisecond)

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
