package dds

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/waitset"
)

// TestInconsistentTopic: a topic counts in INCONSISTENT_TOPIC, once each, the endpoints
// of other participants with its name and another type name, those discovered before it
// was created too; its listener hears of them and its StatusCondition triggers; reading
// the status resets total_count_change; such endpoints never match, and endpoints of
// the same type name neither count nor fail to match.
func TestInconsistentTopic(t *testing.T) {
	net := &fakeNet{}
	pa, pb, pc := testParticipant(t, net, nil), testParticipant(t, net, nil), testParticipant(t, net, nil)
	heard := make(chan listener.InconsistentTopicStatus, 8)
	ta, err := NewTopic[message](pa, "shared", TypeName("a::T"), WithListener(TopicListener[message]{
		OnInconsistentTopic: func(_ *Topic[message], s listener.InconsistentTopicStatus) { heard <- s },
	}, listener.StatusMask(listener.InconsistentTopic)))
	require.NoError(t, err)
	ra, err := NewReader(ta, Reliable())
	require.NoError(t, err)

	// pb's topic comes after ra: it counts ra when it is created.
	tb, err := NewTopic[message](pb, "shared", TypeName("b::T"))
	require.NoError(t, err)
	cond := tb.StatusCondition()
	require.NoError(t, cond.SetEnabledStatuses(listener.StatusMask(listener.InconsistentTopic)))
	ws := waitset.New()
	require.NoError(t, ws.AttachCondition(cond))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	active, err := ws.Wait(ctx)
	require.NoError(t, err)
	require.Equal(t, []waitset.Condition{cond}, active)
	st, err := tb.InconsistentTopicStatus()
	require.NoError(t, err)
	require.Equal(t, listener.InconsistentTopicStatus{TotalCount: 1, TotalCountChange: 1}, st)
	st, err = tb.InconsistentTopicStatus()
	require.NoError(t, err)
	require.Equal(t, listener.InconsistentTopicStatus{TotalCount: 1}, st, "reading resets the change")

	// pb's writer is counted by pa's topic, and does not match ra.
	_, err = NewWriter(tb, Reliable())
	require.NoError(t, err)
	require.Equal(t, listener.InconsistentTopicStatus{TotalCount: 1, TotalCountChange: 1}, <-heard)
	_, err = NewWriter(tb, Reliable())
	require.NoError(t, err)
	require.Equal(t, listener.InconsistentTopicStatus{TotalCount: 2, TotalCountChange: 1}, <-heard)
	ms, err := ra.SubscriptionMatchedStatus()
	require.NoError(t, err)
	require.Zero(t, ms.TotalCount, "endpoints of another type do not match")

	// A writer of the same type name matches and is not inconsistent.
	tc, err := NewTopic[message](pc, "shared", TypeName("a::T"))
	require.NoError(t, err)
	_, err = NewWriter(tc, Reliable())
	require.NoError(t, err)
	ms, err = ra.SubscriptionMatchedStatus()
	require.NoError(t, err)
	require.Equal(t, int32(1), ms.TotalCount)
	sc, err := tc.InconsistentTopicStatus()
	require.NoError(t, err)
	require.Equal(t, int32(2), sc.TotalCount, "pc's topic counts pb's two writers")
	require.Empty(t, heard)
	st, err = tb.InconsistentTopicStatus()
	require.NoError(t, err)
	require.Equal(t, listener.InconsistentTopicStatus{TotalCount: 2, TotalCountChange: 1}, st, "pb's topic counts ra and pc's writer")
}

// TestInconsistentTopicRTPS: on the real engine, SEDP reports the remote endpoints:
// a writer of another type name on the topic makes the local topic INCONSISTENT_TOPIC,
// and the reader of the local type does not match it.
func TestInconsistentTopicRTPS(t *testing.T) {
	pa, pb := memPair(t, 4)
	ta, err := NewTopic[message](pa, "Shared", TypeName("a::T"))
	require.NoError(t, err)
	ra, err := NewReader(ta, Reliable())
	require.NoError(t, err)
	tb, err := NewTopic[message](pb, "Shared", TypeName("b::T"))
	require.NoError(t, err)
	_, err = NewWriter(tb, Reliable())
	require.NoError(t, err)
	waitStatus(t, ta, listener.InconsistentTopic)
	st, err := ta.InconsistentTopicStatus()
	require.NoError(t, err)
	require.Equal(t, listener.InconsistentTopicStatus{TotalCount: 1, TotalCountChange: 1}, st)
	waitStatus(t, tb, listener.InconsistentTopic) // pb learns of ra
	ms, err := ra.SubscriptionMatchedStatus()
	require.NoError(t, err)
	require.Zero(t, ms.TotalCount)
}
