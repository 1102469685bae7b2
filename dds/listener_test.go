package dds

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/ddsgo/ddsgo/waitset"
	"github.com/stretchr/testify/require"
)

// recorder records listener calls by name.
type recorder struct {
	mu    sync.Mutex
	calls []string
}

func (r *recorder) add(s string) {
	r.mu.Lock()
	r.calls = append(r.calls, s)
	r.mu.Unlock()
}

func (r *recorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.calls
	r.calls = nil
	return c
}

func TestListenerRouting(t *testing.T) {
	var rec recorder
	pl := ParticipantListener{}
	pl.OnSubscriptionMatched = func(AnyDataReader, listener.SubscriptionMatchedStatus) { rec.add("participant:subscription_matched") }
	pl.OnDataAvailable = func(AnyDataReader) { rec.add("participant:data_available") }
	pl.OnPublicationMatched = func(_ AnyDataWriter, s listener.PublicationMatchedStatus) {
		rec.add("participant:publication_matched")
	}
	plMask := listener.StatusMask(listener.SubscriptionMatched | listener.DataAvailable | listener.PublicationMatched)
	net := &fakeNet{}
	p, err := NewParticipant(0, withEngine(net.factory()), WithListener(pl, plMask))
	require.NoError(t, err)
	t.Cleanup(func() {
		require.NoError(t, p.DeleteContainedEntities())
		require.NoError(t, p.Close())
	})
	topic, pub, sub := topicPubSub[point](t, p, "t", "test::Point")

	// The reader's listener takes DATA_AVAILABLE; SUBSCRIPTION_MATCHED, not in its
	// mask, goes up to the participant's.
	var reader *DataReader[point]
	rl := ReaderListener[point]{OnDataAvailable: func(r *DataReader[point]) {
		require.Same(t, reader, r)
		rec.add("reader:data_available")
	}}
	reader, err = NewReader(topic, WithSubscriber(sub), WithQos(*reliableReader()), WithListener(rl, listener.StatusMask(listener.DataAvailable)))
	require.NoError(t, err)
	w, err := NewWriter(topic, WithPublisher(pub))
	require.NoError(t, err)
	p.disp.Sync()
	require.ElementsMatch(t, []string{"participant:subscription_matched", "participant:publication_matched"}, rec.take())
	st, err := reader.SubscriptionMatchedStatus()
	require.NoError(t, err)
	require.Equal(t, int32(1), st.TotalCount)
	require.Zero(t, st.TotalCountChange) // the listener read it

	require.NoError(t, w.Write(bg, &point{ID: 1}))
	p.disp.Sync()
	require.Equal(t, []string{"reader:data_available"}, rec.take())
	require.Zero(t, reader.StatusChanges()&listener.StatusMask(listener.DataAvailable))

	// DATA_ON_READERS on the subscriber takes precedence over DATA_AVAILABLE.
	sl := SubscriberListener{OnDataOnReaders: func(s *Subscriber) {
		require.Same(t, sub, s)
		rec.add("subscriber:data_on_readers")
	}}
	require.NoError(t, sub.SetListener(sl, listener.StatusMask(listener.DataOnReaders)))
	require.NoError(t, w.Write(bg, &point{ID: 2}))
	p.disp.Sync()
	require.Equal(t, []string{"subscriber:data_on_readers"}, rec.take())
	require.True(t, reader.StatusChanges().Has(listener.DataAvailable))
	require.NoError(t, sub.NotifyDataReaders())
	require.Equal(t, []string{"reader:data_available"}, rec.take())

	// Without the reader's listener, the participant's gets DATA_AVAILABLE.
	require.NoError(t, sub.SetListener(SubscriberListener{}, 0))
	require.NoError(t, reader.SetListener(ReaderListener[point]{}, 0))
	require.NoError(t, w.Write(bg, &point{ID: 3}))
	p.disp.Sync()
	require.Equal(t, []string{"participant:data_available"}, rec.take())

	// A mask without the status means no call, and the status stays changed.
	require.NoError(t, p.SetListener(pl, listener.MaskNone))
	require.NoError(t, w.Write(bg, &point{ID: 4}))
	p.disp.Sync()
	require.Empty(t, rec.take())
	require.True(t, reader.StatusChanges().Has(listener.DataAvailable))
	_, _, err = reader.Take(bg, NoWait())
	require.NoError(t, err)
	require.False(t, reader.StatusChanges().Has(listener.DataAvailable))
	require.False(t, sub.StatusChanges().Has(listener.DataOnReaders))
}

func TestStatusConditionAndWaitSet(t *testing.T) {
	p := testParticipant(t, nil, nil)
	w, r := endpoints[point](t, p, "points", nil, reliableReader())

	sc := r.StatusCondition()
	require.Equal(t, listener.MaskAll, sc.EnabledStatuses())
	require.Same(t, r, sc.Entity())
	require.True(t, sc.TriggerValue()) // the match changed SUBSCRIPTION_MATCHED
	require.NoError(t, sc.SetEnabledStatuses(listener.StatusMask(listener.DataAvailable)))
	require.False(t, sc.TriggerValue())

	rc, err := r.CreateReadCondition(NotReadStates)
	require.NoError(t, err)
	qc, err := r.CreateQueryCondition(States{}, func(v *point) bool { return v.X > 10 })
	require.NoError(t, err)
	var guard waitset.GuardCondition
	ws := waitset.New()
	for _, c := range []waitset.Condition{sc, rc, qc, &guard} {
		require.NoError(t, ws.AttachCondition(c))
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	_, err = ws.Wait(ctx)
	require.ErrorIs(t, err, context.DeadlineExceeded)

	done := make(chan []waitset.Condition)
	go func() {
		got, err := ws.Wait(context.Background())
		if err != nil {
			got = nil
		}
		done <- got
	}()
	time.Sleep(5 * time.Millisecond)
	require.NoError(t, w.Write(bg, &point{ID: 1, X: 1}))
	got := <-done
	require.ElementsMatch(t, []waitset.Condition{sc, rc}, got)

	// Reading resets DATA_AVAILABLE and makes the samples READ.
	_, _, err = r.Read(bg, NoWait())
	require.NoError(t, err)
	require.False(t, sc.TriggerValue())
	require.False(t, rc.TriggerValue())
	require.False(t, qc.TriggerValue())

	require.NoError(t, w.Write(bg, &point{ID: 2, X: 20}))
	require.True(t, qc.TriggerValue())
	data, _, err := r.Take(bg, WithCondition(qc), NoWait())
	require.NoError(t, err)
	require.Equal(t, []point{{ID: 2, X: 20}}, data)
	require.False(t, qc.TriggerValue())
	data, _, err = r.Read(bg, WithCondition(rc), NoWait())
	require.ErrorIs(t, err, ErrNoData)
	require.Nil(t, data)

	guard.SetTriggerValue(true)
	got, err = ws.Wait(context.Background())
	require.NoError(t, err)
	require.Equal(t, []waitset.Condition{&guard}, got)

	// Conditions of another reader are refused.
	_, r2 := endpoints[point](t, p, "other", nil, nil)
	_, _, err = r2.Read(bg, WithCondition(rc), NoWait())
	require.ErrorIs(t, err, ErrPreconditionNotMet)
	require.ErrorIs(t, r2.DeleteReadCondition(rc), ErrPreconditionNotMet)
	require.NoError(t, r.DeleteContainedEntities())
	require.False(t, rc.TriggerValue())
}

func TestSubscriberAccess(t *testing.T) {
	p := testParticipant(t, nil, nil)
	w, r := endpoints[point](t, p, "points", nil, nil)
	sub := r.Subscriber()
	require.ErrorIs(t, sub.EndAccess(), ErrPreconditionNotMet)
	require.NoError(t, sub.BeginAccess())
	require.NoError(t, sub.EndAccess())
	readers, err := sub.DataReaders(States{})
	require.NoError(t, err)
	require.Empty(t, readers)
	require.NoError(t, w.Write(bg, &point{ID: 1}))
	readers, err = sub.DataReaders(NotReadStates)
	require.NoError(t, err)
	require.Equal(t, []AnyDataReader{r}, readers)
	require.NoError(t, w.Publisher().WaitForAcknowledgments(context.Background()))
	require.NoError(t, w.Publisher().SuspendPublications())
	require.NoError(t, w.Publisher().ResumePublications())

	// A publisher partition change is announced again.
	pq := qos.DefaultPublisherQos()
	pq.Partition.Name = []string{"a"}
	require.NoError(t, w.Publisher().SetQos(pq))
	require.Equal(t, []string{"a"}, w.ew.(*fakeWriter).data.Offered.Publisher.Partition.Name)
}

// The rules of a listener's mask: without one, the statuses the listener has functions
// for; a status in the mask without a function, or a function the mask leaves out, goes
// on to the containing entity's listener; two masks are a bad parameter.
func TestListenerMaskRules(t *testing.T) {
	var rec recorder
	p, err := NewParticipant(0, withEngine((&fakeNet{}).factory()))
	require.NoError(t, err)
	t.Cleanup(func() {
		require.NoError(t, p.DeleteContainedEntities())
		require.NoError(t, p.Close())
	})
	topic, pub, sub := topicPubSub[point](t, p, "t", "test::Point")
	require.NoError(t, sub.SetListener(SubscriberListener{
		OnDataAvailable:       func(AnyDataReader) { rec.add("subscriber:data_available") },
		OnSubscriptionMatched: func(AnyDataReader, listener.SubscriptionMatchedStatus) { rec.add("subscriber:subscription_matched") },
	}))

	// No mask: the reader's listener takes what it has a function for, the subscriber's
	// the rest.
	reader, err := NewReader(topic, WithSubscriber(sub), WithQos(*reliableReader()), WithListener(ReaderListener[point]{
		OnDataAvailable: func(*DataReader[point]) { rec.add("reader:data_available") },
	}))
	require.NoError(t, err)
	w, err := NewWriter(topic, WithPublisher(pub))
	require.NoError(t, err)
	p.disp.Sync()
	require.Equal(t, []string{"subscriber:subscription_matched"}, rec.take())
	require.NoError(t, w.Write(bg, &point{ID: 1}))
	p.disp.Sync()
	require.Equal(t, []string{"reader:data_available"}, rec.take())

	// A bit without a function passes the status on.
	require.NoError(t, reader.SetListener(ReaderListener[point]{
		OnSampleLost: func(*DataReader[point], listener.SampleLostStatus) {},
	}, listener.MaskAll))
	require.NoError(t, w.Write(bg, &point{ID: 2}))
	p.disp.Sync()
	require.Equal(t, []string{"subscriber:data_available"}, rec.take())

	// A function the mask leaves out is not called: the status goes on up.
	rl := ReaderListener[point]{OnDataAvailable: func(*DataReader[point]) { rec.add("reader:data_available") }}
	require.NoError(t, reader.SetListener(rl, listener.StatusMask(listener.SampleLost)))
	require.NoError(t, w.Write(bg, &point{ID: 3}))
	p.disp.Sync()
	require.Equal(t, []string{"subscriber:data_available"}, rec.take())
	require.ErrorIs(t, reader.SetListener(rl, listener.MaskAll, listener.MaskAll), ErrBadParameter, "one mask")
	_, err = NewReader(topic, WithSubscriber(sub), WithListener(rl, listener.MaskAll, listener.MaskNone))
	require.ErrorIs(t, err, ErrBadParameter)
	require.NoError(t, reader.SetListener(rl, listener.MaskNone), "MaskNone mutes it")
}
