package dds

import (
	"context"
	"net/netip"
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/rtps"

	"github.com/ddsgo/ddsgo/internal/transport/memnet"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/ddsgo/ddsgo/waitset"
	"github.com/stretchr/testify/require"
)

// memParticipant creates a participant with the real engine on a host of n.
func memParticipant(t *testing.T, n *memnet.Network, name string, addr string) *DomainParticipant {
	t.Helper()
	h, err := n.AddHost(name, netip.MustParseAddr(addr))
	require.NoError(t, err)
	p, err := NewParticipant(7, withNet(h), WithRTPS(rtps.Config{Name: name}))
	require.NoError(t, err)
	t.Cleanup(func() {
		require.NoError(t, p.DeleteContainedEntities())
		require.NoError(t, p.Close())
	})
	return p
}

// pubSub creates, for the message type named typeName, a publisher and the topic
// topic in pa, and a subscriber and the same topic in pb.
func pubSub(t *testing.T, pa, pb *DomainParticipant, typeName, topic string) (*Publisher, *Topic[message], *Subscriber, *Topic[message]) {
	t.Helper()
	tt, err := newTopicType[message](typeName)
	require.NoError(t, err)
	ta, err := createTopic(pa, topic, tt)
	require.NoError(t, err)
	tb, err := createTopic(pb, topic, tt)
	require.NoError(t, err)
	pub, err := pa.NewPublisher()
	require.NoError(t, err)
	sub, err := pb.NewSubscriber()
	require.NoError(t, err)
	return pub, ta, sub, tb
}

// waitStatus waits until the entity's status condition for k triggers.
func waitStatus(t *testing.T, e Entity, k listener.StatusKind) {
	t.Helper()
	c := e.StatusCondition()
	require.NoError(t, c.SetEnabledStatuses(listener.StatusMask(k)))
	ws := waitset.New()
	require.NoError(t, ws.AttachCondition(c))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := ws.Wait(ctx)
	require.NoError(t, err, "waiting for %v", k)
}

// memPair returns two participants with the real engine on an in-memory network whose
// impairments draw from seed.
func memPair(t *testing.T, seed uint64) (pa, pb *DomainParticipant) {
	t.Helper()
	n, err := memnet.New(memnet.Config{Seed: seed})
	require.NoError(t, err)
	t.Cleanup(n.Close)
	return memParticipant(t, n, "a", "10.0.0.1"), memParticipant(t, n, "b", "10.0.0.2")
}

func TestRTPSEngine(t *testing.T) {
	pa, pb := memPair(t, 1)
	pub, ta, sub, tb := pubSub(t, pa, pb, "interop::Sample", "Sample")
	w, err := NewWriter(ta, WithPublisher(pub), TransientLocal(), KeepAll())
	require.NoError(t, err)
	for i := range 3 {
		require.NoError(t, w.Write(bg, &message{ID: int32(i), Text: "early", Seq: 1}))
	}

	// A late-joining transient-local reader gets the history.
	rq := reliableReader()
	rq.Durability.Kind = qos.TransientLocal
	r, err := NewReader(tb, WithSubscriber(sub), WithQos(*rq))
	require.NoError(t, err)
	waitStatus(t, w, listener.PublicationMatched)
	ms, err := w.PublicationMatchedStatus()
	require.NoError(t, err)
	require.Equal(t, int32(1), ms.CurrentCount)
	require.Equal(t, r.InstanceHandle(), ms.LastSubscriptionHandle)
	// A late-joining volatile reader gets only what is written after it matched.
	rv, err := NewReader(tb, WithSubscriber(sub), WithQos(*reliableReader()))
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		ms, err := w.PublicationMatchedStatus()
		return err == nil && ms.CurrentCount == 2
	}, 10*time.Second, 5*time.Millisecond)

	require.NoError(t, w.Write(bg, &message{ID: 1, Text: "late", Values: []float64{1, 2}, Seq: 2}))
	require.NoError(t, w.Dispose(bg, &message{ID: 2}))
	require.NoError(t, w.WaitForAcknowledgments(context.Background()))

	got := map[int32][]message{}
	states := map[int32]InstanceState{}
	deadline := time.Now().Add(10 * time.Second)
	for len(got) < 3 || len(got[1]) < 2 || states[2] != NotAliveDisposedInstanceState {
		require.True(t, time.Now().Before(deadline), "samples: %v %v", got, states)
		data, infos, err := r.Take(bg, NoWait())
		if err != nil {
			require.ErrorIs(t, err, ErrNoData)
			time.Sleep(5 * time.Millisecond)
			continue
		}
		for i := range data {
			states[data[i].ID] = infos[i].InstanceState
			if infos[i].ValidData {
				got[data[i].ID] = append(got[data[i].ID], data[i])
				require.Equal(t, w.InstanceHandle(), infos[i].PublicationHandle)
			}
		}
	}
	require.Equal(t, []message{{ID: 1, Text: "early", Seq: 1}, {ID: 1, Text: "late", Values: []float64{1, 2}, Seq: 2}}, got[1])
	var late []message
	require.Eventually(t, func() bool {
		data, infos, err := rv.Take(bg, NoWait())
		for i := range data {
			if infos[i].ValidData {
				late = append(late, data[i])
			} else {
				require.Equal(t, NotAliveDisposedInstanceState, infos[i].InstanceState)
			}
		}
		return err == nil && len(late) > 0
	}, 10*time.Second, 5*time.Millisecond)
	require.Equal(t, []message{{ID: 1, Text: "late", Values: []float64{1, 2}, Seq: 2}}, late)

	parts, err := pb.DiscoveredParticipants()
	require.NoError(t, err)
	require.Contains(t, parts, pa.InstanceHandle())
	pubs, err := r.MatchedPublications()
	require.NoError(t, err)
	require.Equal(t, []InstanceHandle{w.InstanceHandle()}, pubs)
}

// SampleInfo.SerializedSize is the length of the sample as it arrived: encapsulation
// and body (two int32: 4 + 8 octets).
func TestSerializedSize(t *testing.T) {
	a, b := memPair(t, 49)
	ta, err := NewTopic[addRequest](a, "size")
	require.NoError(t, err)
	tb, err := NewTopic[addRequest](b, "size")
	require.NoError(t, err)
	r, err := NewReader(tb, Reliable())
	require.NoError(t, err)
	w, err := NewWriter(ta, Reliable())
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	defer cancel()
	waitMatched(ctx, t, "writer", 1, func() (int32, error) {
		s, err := w.PublicationMatchedStatus()
		return s.CurrentCount, err
	})
	require.NoError(t, w.Write(ctx, &addRequest{1, 2}))
	for _, info := range r.Samples(ctx) {
		require.True(t, info.ValidData)
		require.Equal(t, 12, info.SerializedSize)
		break
	}
}
