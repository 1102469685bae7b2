package dds

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/discovery"
	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
)

// budgetPair returns a writer with the LATENCY_BUDGET budget and a matched
// reader, both reliable and KEEP_ALL, on the in-memory network, and the
// writer's engine writer for its counters.
func budgetPair(t *testing.T, budget time.Duration) (*DataWriter[message], *DataReader[message], *rtps.Writer) {
	t.Helper()
	pa, pb := memPair(t, 4)
	pub, ta, sub, tb := pubSub(t, pa, pb, "interop::Sample", "Budget")
	wq := qos.DefaultDataWriterQos()
	wq.History = qos.History{Kind: qos.KeepAll}
	wq.LatencyBudget.Duration = budget
	w, err := NewWriter(ta, WithPublisher(pub), WithQos(wq))
	require.NoError(t, err)
	rq := reliableReader()
	rq.LatencyBudget.Duration = time.Hour // RxO: a reader accepts a writer's budget up to its own
	r, err := NewReader(tb, WithSubscriber(sub), WithQos(*rq))
	require.NoError(t, err)
	waitStatus(t, w, listener.PublicationMatched)
	waitStatus(t, r, listener.SubscriptionMatched)
	return w, r, w.ew.(*discovery.LocalWriter).Writer()
}

// takeSeqs takes n samples from r and returns their Seq fields in order.
func takeSeqs(t *testing.T, r *DataReader[message], n int) []uint64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	defer cancel()
	var seqs []uint64
	for len(seqs) < n {
		vs, infos, err := r.Take(ctx)
		require.NoError(t, err)
		for i, v := range vs {
			if infos[i].ValidData {
				seqs = append(seqs, v.Seq)
			}
		}
	}
	return seqs
}

// TestLatencyBudgetWriter: on the in-memory network and the virtual clock,
// a burst written with a LATENCY_BUDGET leaves in fewer datagrams than
// samples, no sample arrives later than the budget, all arrive in order;
// without a budget each write is a datagram; SetQos changes the budget of
// the next writes; WaitForAcknowledgments and the writer's deletion send
// what is held at once.
func TestLatencyBudgetWriter(t *testing.T) {
	const n = 50
	burst := func(t *testing.T, w *DataWriter[message], r *DataReader[message], ew *rtps.Writer) (datagrams uint64, took time.Duration) {
		before := ew.Stats()
		start := time.Now()
		for i := range n {
			require.NoError(t, w.Write(bg, &message{ID: 1, Seq: uint64(i)}))
		}
		seqs := takeSeqs(t, r, n)
		took = time.Since(start)
		want := make([]uint64, n)
		for i := range want {
			want[i] = uint64(i)
		}
		require.Equal(t, want, seqs)
		after := ew.Stats()
		require.Equal(t, uint64(n), after.DataSent-before.DataSent)
		return after.Messages - before.Messages, took
	}
	t.Run("budget", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			w, r, ew := budgetPair(t, 20*time.Millisecond)
			dg, took := burst(t, w, r, ew)
			require.Less(t, dg, uint64(n/5), "datagrams for %d samples", n)
			require.LessOrEqual(t, took, 20*time.Millisecond, "held longer than the budget")
			t.Logf("%d samples in %d datagrams, after %v", n, dg, took)

			// Changed at run time: 0 sends each write at once.
			q := w.Qos()
			q.LatencyBudget.Duration = 0
			require.NoError(t, w.SetQos(q))
			dg, _ = burst(t, w, r, ew)
			require.GreaterOrEqual(t, dg, uint64(n))
		})
	})
	t.Run("none", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			w, r, ew := budgetPair(t, 0)
			dg, _ := burst(t, w, r, ew)
			require.GreaterOrEqual(t, dg, uint64(n), "one datagram (at least) per write")
		})
	})
	t.Run("flush", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			w, r, _ := budgetPair(t, time.Hour)
			start := time.Now()
			for i := range 3 {
				require.NoError(t, w.Write(bg, &message{ID: 1, Seq: uint64(i)}))
			}
			ctx, cancel := context.WithTimeout(bg, time.Second)
			defer cancel()
			require.NoError(t, w.WaitForAcknowledgments(ctx))
			require.Equal(t, []uint64{0, 1, 2}, takeSeqs(t, r, 3))
			require.Less(t, time.Since(start), time.Second)

			require.NoError(t, w.Write(bg, &message{ID: 2, Seq: 3}))
			require.NoError(t, w.Close())
			require.Equal(t, []uint64{3}, takeSeqs(t, r, 1), "sent when the writer is deleted")
		})
	})
}

// TestTransportPriorityMemnet: on the in-memory network, which has no TOS, a writer
// with TRANSPORT_PRIORITY still reaches its reader (through a send socket of its own),
// before and after a change at run time.
func TestTransportPriorityMemnet(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pa, pb := memPair(t, 5)
		pub, ta, sub, tb := pubSub(t, pa, pb, "interop::Sample", "Priority")
		wq := qos.DefaultDataWriterQos()
		wq.TransportPriority.Value = 184
		w, err := NewWriter(ta, WithPublisher(pub), WithQos(wq))
		require.NoError(t, err)
		r, err := NewReader(tb, WithSubscriber(sub), WithQos(*reliableReader()))
		require.NoError(t, err)
		waitStatus(t, w, listener.PublicationMatched)
		for i, v := range []int32{184, 0, 32} {
			wq.TransportPriority.Value = v
			require.NoError(t, w.SetQos(wq))
			require.NoError(t, w.Write(bg, &message{ID: 1, Seq: uint64(i)}))
			require.Equal(t, []uint64{uint64(i)}, takeSeqs(t, r, 1))
		}
	})
}

// TestLatencyBudgetCoherent: the changes of a coherent set and its end marker may be
// held by the budget like any others: a coherent reader sees none of the set before its
// end, and all of it once the budget has let the marker go.
func TestLatencyBudgetCoherent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pa, pb := memPair(t, 6)
		tt, err := newTopicType[message]("interop::Sample")
		require.NoError(t, err)
		ta, err := createTopic(pa, "CoherentBudget", tt)
		require.NoError(t, err)
		tb, err := createTopic(pb, "CoherentBudget", tt)
		require.NoError(t, err)
		pq := qos.DefaultPublisherQos()
		pq.Presentation = qos.Presentation{AccessScope: qos.TopicScope, CoherentAccess: true}
		pub, err := pa.NewPublisher(WithQos(pq))
		require.NoError(t, err)
		sq := qos.DefaultSubscriberQos()
		sq.Presentation = pq.Presentation
		sub, err := pb.NewSubscriber(WithQos(sq))
		require.NoError(t, err)
		wq := qos.DefaultDataWriterQos()
		wq.History = qos.History{Kind: qos.KeepAll}
		wq.LatencyBudget.Duration = 20 * time.Millisecond
		w, err := NewWriter(ta, WithPublisher(pub), WithQos(wq))
		require.NoError(t, err)
		rq := reliableReader()
		rq.LatencyBudget.Duration = time.Hour
		r, err := NewReader(tb, WithSubscriber(sub), WithQos(*rq))
		require.NoError(t, err)
		waitStatus(t, w, listener.PublicationMatched)
		waitStatus(t, r, listener.SubscriptionMatched)

		require.NoError(t, pub.BeginCoherentChanges())
		for i := range 5 {
			require.NoError(t, w.Write(bg, &message{ID: int32(i), Seq: uint64(i)}))
		}
		time.Sleep(50 * time.Millisecond) // the budget has sent the set's changes, not its end
		_, _, err = r.Take(bg, NoWait())
		require.ErrorIs(t, err, ErrNoData, "nothing of an open set")
		require.NoError(t, pub.EndCoherentChanges())
		got := takeSeqs(t, r, 5)
		require.ElementsMatch(t, []uint64{0, 1, 2, 3, 4}, got)
	})
}
