package dds

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/netns"
)

// Two participants that join a domain of 14 others get a burst of discovery traffic
// from all of them at once. The metatraffic waits in the socket for the event loop
// rather than being read and dropped when the loop is behind: each lost SEDP message
// cost a HEARTBEAT period (100 ms) to repair, and a pair joining this crowd took over
// 100 ms to match in one join of ten, with 36-48 datagrams dropped. Every join must
// drop nothing.
func TestJoinCrowdedDomain(t *testing.T) {
	netns.Require(t)
	const domain, crowd, joins = 37, 14, 8
	for range crowd {
		p, err := NewParticipant(domain)
		require.NoError(t, err)
		t.Cleanup(func() { _ = p.Close() })
		tp, err := NewTopic[point](p, "crowd")
		require.NoError(t, err)
		_, err = NewWriter(tp)
		require.NoError(t, err)
		_, err = NewReader(tp)
		require.NoError(t, err)
	}
	for k := range joins {
		a, err := NewParticipant(domain)
		require.NoError(t, err)
		b, err := NewParticipant(domain)
		require.NoError(t, err)
		name := fmt.Sprintf("join%d", k)
		ta, err := NewTopic[point](a, name)
		require.NoError(t, err)
		tb, err := NewTopic[point](b, name)
		require.NoError(t, err)
		w, err := NewWriter(ta)
		require.NoError(t, err)
		r, err := NewReader(tb)
		require.NoError(t, err)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		t0 := time.Now()
		waitPairMatched(ctx, t, w, r)
		cancel()
		took := time.Since(t0)
		sa, sb := a.Statistics(), b.Statistics()
		require.NoError(t, a.Close())
		require.NoError(t, b.Close())
		t.Logf("join %d: matched in %v", k, took)
		require.Zero(t, sa.QueueFull, "join %d: datagrams dropped by the joiner", k)
		require.Zero(t, sb.QueueFull, "join %d: datagrams dropped by the joiner", k)
	}
}
