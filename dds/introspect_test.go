package dds

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// With DDSGO_INTROSPECTION=1 a participant publishes the graph of its entities, and
// publishes it again when it changes; another participant reads it.
func TestIntrospection(t *testing.T) {
	t.Setenv(introspectionEnv, "1")
	net := &fakeNet{}
	a, b := testParticipant(t, net, nil), testParticipant(t, net, nil)
	w, _ := endpoints[point](t, a, "points", nil, reliableReader())

	topic, err := NewTopic[participantGraph](b, introspectionTopic)
	require.NoError(t, err)
	r, err := NewReader(topic, Reliable(), TransientLocal())
	require.NoError(t, err)
	ah := a.InstanceHandle()
	// next returns a's next graph that satisfies ok.
	next := func(ok func(g *participantGraph) bool) participantGraph {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		for g, info := range r.Samples(ctx) {
			if info.ValidData && g.Participant == ah && ok(&g) {
				return g
			}
		}
		require.NoError(t, ctx.Err(), "no graph of a")
		return participantGraph{}
	}
	find := func(g *participantGraph, kind, topic string) *graphEntity {
		i := slices.IndexFunc(g.Entities, func(e graphEntity) bool { return e.Kind == kind && e.Topic == topic })
		if i < 0 {
			return nil
		}
		return &g.Entities[i]
	}
	// The graph is polled (introspectionPeriod): one taken between the writer's creation
	// and its match shows it unmatched, so wait for the match (a later graph has it).
	matched := graphStatus{"publication_matched", 1, 1}
	g := next(func(g *participantGraph) bool {
		w := find(g, "writer", "points")
		return w != nil && slices.Contains(w.Statuses, matched)
	})
	pw := find(&g, "writer", "points")
	require.Equal(t, w.InstanceHandle(), pw.Handle)
	require.Equal(t, "test::points", pw.Type)
	require.Equal(t, "RELIABLE VOLATILE KEEP_LAST 1", pw.Qos)
	require.True(t, pw.Enabled)
	require.NotNil(t, find(&g, "participant", ""))
	require.NotNil(t, find(&g, "topic", "points"))
	require.Nil(t, find(&g, "writer", introspectionTopic), "the introspection writer is left out")
	parent := slices.IndexFunc(g.Entities, func(e graphEntity) bool { return e.Handle == pw.Parent })
	require.Equal(t, "publisher", g.Entities[parent].Kind)

	// A new reader of another topic shows in the next graph.
	_, _ = endpoints[point](t, a, "more", nil, nil)
	g = next(func(g *participantGraph) bool {
		r := find(g, "reader", "more")
		return r != nil && slices.Contains(r.Statuses, graphStatus{"subscription_matched", 1, 1})
	})
}
