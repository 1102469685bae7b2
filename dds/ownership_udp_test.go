package dds

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/netns"
	"github.com/ddsgo/ddsgo/rtps"
)

// ownershipDomain is the domain of TestOwnershipUDP.
const ownershipDomain = 203

// udpParticipant creates a participant on real UDP sockets that finds its peers by
// unicast on 127.0.0.1, closed when the test ends unless closed before.
func udpParticipant(t *testing.T) *DomainParticipant {
	t.Helper()
	p, err := NewParticipant(ownershipDomain, WithRTPS(rtps.Config{
		Interfaces: []string{"127.0.0.1"}, Peers: []string{"127.0.0.1"}, DisableMulticast: true,
	}))
	require.NoError(t, err)
	t.Cleanup(func() { _ = p.Close() })
	return p
}

// waitMatched waits until get reports n matched endpoints.
func waitMatched(ctx context.Context, t *testing.T, what string, n int32, get func() (int32, error)) {
	t.Helper()
	for {
		c, err := get()
		require.NoError(t, err)
		if c == n {
			return
		}
		require.NoError(t, ctx.Err(), "%s: %d matched, want %d", what, c, n)
		time.Sleep(5 * time.Millisecond)
	}
}

// waitPairMatched waits until w and r have matched each other (and nothing else).
func waitPairMatched[T any](ctx context.Context, t *testing.T, w *DataWriter[T], r *DataReader[T]) {
	t.Helper()
	waitMatched(ctx, t, "writer", 1, func() (int32, error) {
		s, err := w.PublicationMatchedStatus()
		return s.CurrentCount, err
	})
	waitMatched(ctx, t, "reader", 1, func() (int32, error) {
		s, err := r.SubscriptionMatchedStatus()
		return s.CurrentCount, err
	})
}

// EXCLUSIVE ownership between participants on real sockets: the reader hears the
// stronger of two writers in other participants, the weaker one after the stronger
// unregisters, the stronger again when it writes, and the weaker for good once the
// stronger's participant is gone. Every write is acknowledged before the next, so
// the dropped samples did reach the reader.
func TestOwnershipUDP(t *testing.T) {
	netns.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	pr, ps, pw := udpParticipant(t), udpParticipant(t), udpParticipant(t)
	topic := func(p *DomainParticipant) *Topic[message] {
		tp, err := NewTopic[message](p, "own_udp")
		require.NoError(t, err)
		return tp
	}
	r := exclusiveReader(t, topic(pr))
	strong := strengthWriter(t, topic(ps), 10)
	weak := strengthWriter(t, topic(pw), 3)
	waitMatched(ctx, t, "reader", 2, func() (int32, error) {
		s, err := r.SubscriptionMatchedStatus()
		return s.CurrentCount, err
	})
	for _, w := range []*DataWriter[message]{strong, weak} {
		waitMatched(ctx, t, "writer", 1, func() (int32, error) {
			s, err := w.PublicationMatchedStatus()
			return s.CurrentCount, err
		})
	}
	send := func(w *DataWriter[message], text string) {
		t.Helper()
		require.NoError(t, w.Write(ctx, &message{ID: 1, Text: text}))
		require.NoError(t, w.WaitForAcknowledgments(ctx))
	}
	got := func() []string {
		t.Helper()
		vs, infos, err := r.Take(ctx, NoWait())
		require.NoError(t, err)
		var out []string
		for i, v := range vs {
			if infos[i].ValidData {
				out = append(out, v.Text)
			}
		}
		return out
	}

	send(strong, "s1")
	send(weak, "w1")
	send(strong, "s2")
	require.Equal(t, []string{"s1", "s2"}, got())

	require.NoError(t, strong.Unregister(ctx, &message{ID: 1}))
	require.NoError(t, strong.WaitForAcknowledgments(ctx))
	send(weak, "w2")
	send(strong, "s3")
	send(weak, "w3")
	require.Equal(t, []string{"w2", "s3"}, got())

	require.NoError(t, ps.Close()) // the owner's participant leaves
	waitMatched(ctx, t, "reader", 1, func() (int32, error) {
		s, err := r.SubscriptionMatchedStatus()
		return s.CurrentCount, err
	})
	send(weak, "w4")
	require.Equal(t, []string{"w4"}, got())
}
