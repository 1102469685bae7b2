package dds_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/internal/transport/memnet"
	"github.com/ddsgo/ddsgo/qos"
)

// csSample is a sample of a coherent set: Set numbers the set, ID the instance.
type csSample struct {
	ID  int32 `dds:"key"`
	Set int32
}

func coherentPresentation(scope qos.AccessScopeKind) qos.Presentation {
	return qos.Presentation{AccessScope: scope, CoherentAccess: true}
}

// coherentPair returns a writer of a coherent publisher in one participant and a reader
// of a coherent subscriber in another, on a memnet network with the impairments given.
func coherentPair(t *testing.T, imp memnet.Impairments, scope qos.AccessScopeKind, rel dds.Option) (*dds.Publisher, *dds.DataWriter[csSample], *dds.DataReader[csSample], *dds.DataReader[csSample]) {
	t.Helper()
	add := memnetHosts(t, 12, imp, 3)
	wp, rp := add("w"), add("r")
	pq := qos.DefaultPublisherQos()
	pq.Presentation = coherentPresentation(scope)
	pub, err := wp.NewPublisher(dds.WithQos(pq))
	require.NoError(t, err)
	sq := qos.DefaultSubscriberQos()
	sq.Presentation = coherentPresentation(scope)
	sub, err := rp.NewSubscriber(dds.WithQos(sq))
	require.NoError(t, err)
	wt, err := dds.NewTopic[csSample](wp, "coherent")
	require.NoError(t, err)
	rt, err := dds.NewTopic[csSample](rp, "coherent")
	require.NoError(t, err)
	w, err := dds.NewWriter(wt, dds.WithPublisher(pub), rel, dds.KeepAll())
	require.NoError(t, err)
	r, err := dds.NewReader(rt, dds.WithSubscriber(sub), rel, dds.KeepAll())
	require.NoError(t, err)
	// A reader of a subscriber without coherent access, next to it.
	plain, err := dds.NewReader(rt, rel, dds.KeepAll())
	require.NoError(t, err)
	waitMatched(t, w, 2, r, plain)
	return pub, w, r, plain
}

// waitMatched waits until w has matched n readers and each of rs has matched a writer:
// across a lossy network one side can learn of the other much later (a lost SEDP
// message waits for a heartbeat), and a best-effort reader drops what comes before.
func waitMatched(t *testing.T, w *dds.DataWriter[csSample], n int, rs ...*dds.DataReader[csSample]) {
	t.Helper()
	require.Eventually(t, func() bool {
		s, err := w.PublicationMatchedStatus()
		if err != nil || int(s.CurrentCount) < n {
			return false
		}
		for _, r := range rs {
			if s, err := r.SubscriptionMatchedStatus(); err != nil || s.CurrentCount < 1 {
				return false
			}
		}
		return true
	}, 10*time.Second, 5*time.Millisecond)
}

// writeSet writes one coherent set: size samples, instance i of set k has ID i.
func writeSet(t *testing.T, pub *dds.Publisher, w *dds.DataWriter[csSample], k, size int) {
	t.Helper()
	require.NoError(t, pub.BeginCoherentChanges())
	for i := range size {
		require.NoError(t, w.Write(context.Background(), &csSample{ID: int32(i), Set: int32(k)}))
	}
	require.NoError(t, pub.EndCoherentChanges())
}

// takeSets takes what r has until quiet, and checks that every take holds whole sets
// of size samples; it returns the sets seen, in the order they came.
func takeSets(t *testing.T, r *dds.DataReader[csSample], size int, quiet time.Duration) []int32 {
	t.Helper()
	var sets []int32
	seen := map[int32]bool{}
	for {
		ctx, cancel := context.WithTimeout(context.Background(), quiet)
		vs, _, err := r.Take(ctx)
		cancel()
		if err != nil {
			return sets
		}
		count := map[int32]int{}
		for _, v := range vs {
			count[v.Set]++
		}
		for _, v := range vs {
			require.Equalf(t, size, count[v.Set], "set %d seen partly in one take: %v", v.Set, vs)
			require.Falsef(t, seen[v.Set] && count[v.Set] > 0 && !contains(sets, v.Set), "set %d", v.Set)
			if !seen[v.Set] {
				seen[v.Set] = true
				sets = append(sets, v.Set)
			}
		}
	}
}

func contains(s []int32, v int32) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// A best-effort reader of a coherent subscriber, across a network that loses 15 % of
// the datagrams, sees each set whole or not at all: some sets come, some do not, and no
// take ever holds part of one.
func TestCoherentSetsUnderLoss(t *testing.T) {
	pub, w, r, plain := coherentPair(t, memnet.Impairments{Loss: 0.15}, qos.TopicScope, dds.BestEffort())
	const sets, size = 60, 4
	for k := range sets {
		writeSet(t, pub, w, k, size)
		time.Sleep(2 * time.Millisecond)
	}
	got := takeSets(t, r, size, 500*time.Millisecond)
	require.NotEmpty(t, got, "no set came whole")
	require.Less(t, len(got), sets-1, "no set was lost: the loss did not happen")
	for i := 1; i < len(got); i++ {
		require.Less(t, got[i-1], got[i], "sets out of order: %v", got)
	}
	// The plain reader got parts of sets: the loss hit samples of sets.
	vs, _, err := plain.Take(context.Background())
	require.NoError(t, err)
	count := map[int32]int{}
	for _, v := range vs {
		count[v.Set]++
	}
	partial := 0
	for _, c := range count {
		if c < size {
			partial++
		}
	}
	require.Positive(t, partial)
}

// A reliable reader of a coherent subscriber across a lossy network gets every set,
// whole, in order, and sees none before its end.
func TestCoherentSetsReliable(t *testing.T) {
	for _, scope := range []qos.AccessScopeKind{qos.InstanceScope, qos.TopicScope, qos.GroupScope} {
		t.Run(scope.String(), func(t *testing.T) {
			pub, w, r, plain := coherentPair(t, memnet.Impairments{Loss: 0.2}, scope, dds.Reliable())
			// Held back until the end of the set.
			require.NoError(t, pub.BeginCoherentChanges())
			for i := range 3 {
				require.NoError(t, w.Write(context.Background(), &csSample{ID: int32(i), Set: 100}))
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			n := 0
			for n < 3 { // the plain reader has them all...
				vs, _, err := plain.Take(ctx)
				require.NoError(t, err)
				n += len(vs)
			}
			short, cancelShort := context.WithTimeout(context.Background(), 200*time.Millisecond)
			_, _, err := r.Take(short) // ...the coherent one none
			cancelShort()
			require.ErrorIs(t, err, context.DeadlineExceeded)
			require.NoError(t, pub.EndCoherentChanges())
			vs, _, err := r.Take(ctx)
			require.NoError(t, err)
			require.Len(t, vs, 3)

			const sets, size = 20, 5
			for k := range sets {
				writeSet(t, pub, w, k, size)
			}
			got := takeSets(t, r, size, time.Second)
			want := make([]int32, sets)
			for k := range want {
				want[k] = int32(k)
			}
			require.Equal(t, want, got)
		})
	}
}

// Samples written outside a set reach a coherent reader at once; nested sets end with
// the outermost end; the API errors are the spec's.
func TestCoherentChangesAPI(t *testing.T) {
	pub, w, r, _ := coherentPair(t, memnet.Impairments{}, qos.TopicScope, dds.Reliable())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	require.NoError(t, w.Write(ctx, &csSample{ID: 1, Set: -1}))
	vs, _, err := r.Take(ctx)
	require.NoError(t, err)
	require.Equal(t, []csSample{{ID: 1, Set: -1}}, vs)

	require.ErrorIs(t, pub.EndCoherentChanges(), dds.ErrPreconditionNotMet)
	require.NoError(t, pub.BeginCoherentChanges())
	require.NoError(t, pub.BeginCoherentChanges())
	require.NoError(t, w.Write(ctx, &csSample{ID: 2, Set: 7}))
	require.NoError(t, pub.EndCoherentChanges()) // inner: the set stays open
	require.NoError(t, w.Write(ctx, &csSample{ID: 3, Set: 7}))
	short, cancelShort := context.WithTimeout(ctx, 200*time.Millisecond)
	_, _, err = r.Take(short)
	cancelShort()
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.NoError(t, pub.EndCoherentChanges())
	vs, _, err = r.Take(ctx)
	require.NoError(t, err)
	require.ElementsMatch(t, []csSample{{ID: 2, Set: 7}, {ID: 3, Set: 7}}, vs)
	require.ErrorIs(t, pub.EndCoherentChanges(), dds.ErrPreconditionNotMet)

	// An empty set sends nothing and ends cleanly.
	require.NoError(t, pub.BeginCoherentChanges())
	require.NoError(t, pub.EndCoherentChanges())

	// A writer deleted with its set open: the set never comes, nor its unregisters.
	require.NoError(t, pub.BeginCoherentChanges())
	require.NoError(t, w.Write(ctx, &csSample{ID: 4, Set: 8}))
	require.NoError(t, w.Close())
	time.Sleep(300 * time.Millisecond)
	short, cancelShort = context.WithTimeout(ctx, 100*time.Millisecond)
	vs, infos, _ := r.Take(short) // the instances' loss of their writer, if anything
	cancelShort()
	for i, v := range vs {
		require.False(t, infos[i].ValidData, "%+v", v)
		require.NotEqual(t, dds.NotAliveDisposedInstanceState, infos[i].InstanceState, "%+v", v)
	}
	require.NoError(t, pub.EndCoherentChanges())
	// Unmatched, the writer's open set is dropped: its sample and unregisters are lost.
	require.Eventually(t, func() bool {
		st, err := r.SampleLostStatus()
		return err == nil && st.TotalCount >= 2
	}, 5*time.Second, 10*time.Millisecond)

	p := pub.Participant()
	disabled, err := p.NewPublisher()
	require.NoError(t, err)
	require.NoError(t, disabled.Close())
	require.ErrorIs(t, disabled.BeginCoherentChanges(), dds.ErrAlreadyDeleted)
}
