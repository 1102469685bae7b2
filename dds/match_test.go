package dds

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A reader lists a writer, and counts it in SUBSCRIPTION_MATCHED, before it can take
// the writer's first sample: the match is recorded in the step that makes it in the
// engine, not a moment later (docs/api.md). Each round makes a new writer, which
// writes as soon as it counts the reader.
func TestMatchedBeforeFirstSample(t *testing.T) {
	a, b := memPair(t, 61)
	ta, err := NewTopic[addRequest](a, "first")
	require.NoError(t, err)
	tb, err := NewTopic[addRequest](b, "first")
	require.NoError(t, err)
	r, err := NewReader(tb, Reliable())
	require.NoError(t, err)
	for i := range 20 {
		w, err := NewWriter(ta, Reliable())
		require.NoError(t, err)
		ctx, cancel := context.WithTimeout(bg, 10*time.Second)
		waitMatched(ctx, t, "writer", 1, func() (int32, error) {
			s, err := w.PublicationMatchedStatus()
			return s.CurrentCount, err
		})
		require.NoError(t, w.Write(ctx, &addRequest{A: int32(i)}))
		for valid := false; !valid; { // the last writer's NOT_ALIVE_NO_WRITERS may come first
			_, infos, err := r.Take(ctx, MaxSamples(1))
			require.NoError(t, err)
			valid = infos[0].ValidData
		}
		cancel()
		pubs, err := r.MatchedPublications()
		require.NoError(t, err)
		require.True(t, slices.Contains(pubs, w.InstanceHandle()), "round %d: matched %v", i, pubs)
		s, err := r.SubscriptionMatchedStatus()
		require.NoError(t, err)
		require.EqualValues(t, 1, s.CurrentCount, "round %d", i)
		require.NoError(t, w.Close())
	}
}
