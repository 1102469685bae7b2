package dds

import (
	"context"
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/transport/memnet"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/ddsgo/ddsgo/rtps"
)

// durableNet returns an in-memory network and a function that adds a participant to it
// with opts (its host named after the call's order).
func durableNet(t *testing.T) func(opts ...Option) *DomainParticipant {
	t.Helper()
	return impairedNet(t, memnet.Impairments{})
}

// impairedNet is durableNet with the network's impairments.
func impairedNet(t *testing.T, imp memnet.Impairments) func(opts ...Option) *DomainParticipant {
	t.Helper()
	n, err := memnet.New(memnet.Config{Seed: 1, Impairments: imp})
	require.NoError(t, err)
	t.Cleanup(n.Close)
	hosts := 0
	return func(opts ...Option) *DomainParticipant {
		hosts++
		name := string(rune('a' + hosts - 1))
		h, err := n.AddHost(name, netip.AddrFrom4([4]byte{10, 0, 0, byte(hosts)}))
		require.NoError(t, err)
		p, err := NewParticipant(7, append([]Option{withNet(h), WithRTPS(rtps.Config{Name: name})}, opts...)...)
		require.NoError(t, err)
		t.Cleanup(func() { require.NoError(t, p.Close()) })
		return p
	}
}

// durableWriterQos is a reliable writer QoS of durability kind k whose deletion leaves
// its instances registered-then-unregistered, not disposed, and whose durability
// service keeps depth samples per instance.
func durableWriterQos(k qos.DurabilityKind, depth int32) qos.DataWriterQos {
	q := qos.DefaultDataWriterQos()
	q.Reliability.Kind = qos.Reliable
	q.Durability.Kind = k
	q.DurabilityService.HistoryDepth = depth
	q.WriterDataLifecycle.AutodisposeUnregisteredInstances = false
	return q
}

// lateReader creates a reliable reader of durability k on t, in a subscriber of its
// own, and returns what it receives within wait (valid samples, in order) once it
// received want of them or wait passed.
func lateReader(t *testing.T, tp *Topic[message], k qos.DurabilityKind, want int, wait time.Duration) ([]message, []SampleInfo) {
	t.Helper()
	rq := reliableReader()
	rq.Durability.Kind = k
	r, err := NewReader(tp, WithQos(*rq))
	require.NoError(t, err)
	defer func() { require.NoError(t, r.Close()) }()
	ctx, cancel := context.WithTimeout(bg, wait)
	defer cancel()
	var got []message
	var infos []SampleInfo
	for len(got) < want {
		data, info, err := r.Take(ctx)
		if err != nil {
			break
		}
		for i := range data {
			if info[i].ValidData {
				got = append(got, data[i])
				infos = append(infos, info[i])
			}
		}
	}
	return got, infos
}

// TestTransientOutlivesWriter: the data of a deleted TRANSIENT writer stays with its
// participant's durability service, cut to DURABILITY_SERVICE's depth (2 here, where
// the writer's HISTORY kept 5), and late-joining readers get it, on the other
// participant and on the same one; the samples keep their writer identity. A
// TRANSIENT_LOCAL writer's data goes with it.
func TestTransientOutlivesWriter(t *testing.T) {
	add := durableNet(t)
	pa, pb := add(), add()
	tt, err := newTopicType[message]("test::Durable")
	require.NoError(t, err)
	ta, err := createTopic(pa, "Transient", tt)
	require.NoError(t, err)
	tb, err := createTopic(pb, "Transient", tt)
	require.NoError(t, err)

	wq := durableWriterQos(qos.Transient, 2)
	wq.History.Depth = 5
	w, err := NewWriter(ta, WithQos(wq))
	require.NoError(t, err)
	for i := range 4 {
		require.NoError(t, w.Write(bg, &message{ID: 1, Seq: uint64(i)}))
	}
	var last SampleIdentity
	require.NoError(t, w.Write(bg, &message{ID: 2, Seq: 9}, WrittenAs(&last)))
	require.NoError(t, w.Close())
	require.Len(t, pa.dur.retained, 1, "the durability service keeps the deleted writer")

	want := []message{{ID: 1, Seq: 2}, {ID: 1, Seq: 3}, {ID: 2, Seq: 9}}
	for name, tp := range map[string]*Topic[message]{"remote": tb, "local": ta} {
		got, infos := lateReader(t, tp, qos.Transient, len(want), 10*time.Second)
		require.ElementsMatch(t, want, got, name)
		for i, m := range got {
			require.Equal(t, AliveInstanceState, infos[i].InstanceState, "%s: the service holds the registrations", name)
			if m.ID == 2 {
				require.Equal(t, last, infos[i].Identity, "%s: the sample keeps its writer and sequence number", name)
			}
		}
	}

	// A TRANSIENT_LOCAL writer's data does not outlive it.
	tl, err := NewWriter(ta, TransientLocal(), Reliable(), KeepLast(5))
	require.NoError(t, err)
	require.NoError(t, tl.Write(bg, &message{ID: 3}))
	require.NoError(t, tl.Close())
	got, _ := lateReader(t, tb, qos.TransientLocal, len(want)+1, 2*time.Second)
	require.ElementsMatch(t, want, got, "only the TRANSIENT data is there")
}

// TestTransientResourceLimits: DURABILITY_SERVICE max_instances bounds what the service
// keeps of a deleted writer: the instance written longest ago goes.
func TestTransientResourceLimits(t *testing.T) {
	add := durableNet(t)
	pa := add()
	tt, err := newTopicType[message]("test::Durable")
	require.NoError(t, err)
	ta, err := createTopic(pa, "Limits", tt)
	require.NoError(t, err)
	wq := durableWriterQos(qos.Transient, 1)
	wq.DurabilityService.MaxInstances = 2
	wq.DurabilityService.MaxSamples = 2
	w, err := NewWriter(ta, WithQos(wq))
	require.NoError(t, err)
	for _, id := range []int32{1, 2, 1, 3} {
		require.NoError(t, w.Write(bg, &message{ID: id}))
	}
	require.NoError(t, w.Close())
	got, _ := lateReader(t, ta, qos.Transient, 3, 2*time.Second)
	require.ElementsMatch(t, []message{{ID: 1}, {ID: 3}}, got)
}

// TestTransientCleanupDelay, on a virtual clock: a deleted TRANSIENT writer whose
// instances are all disposed (the default WRITER_DATA_LIFECYCLE disposes them on
// deletion) is kept for service_cleanup_delay, serving late joiners, then withdrawn;
// with a delay of 0 it goes at once; one whose instances are only unregistered stays.
func TestTransientCleanupDelay(t *testing.T) {
	clk := newFakeClock()
	add := durableNet(t)
	pa, pb := add(withClock(clk)), add()
	tt, err := newTopicType[message]("test::Durable")
	require.NoError(t, err)
	ta, err := createTopic(pa, "Cleanup", tt)
	require.NoError(t, err)
	tb, err := createTopic(pb, "Cleanup", tt)
	require.NoError(t, err)

	wq := durableWriterQos(qos.Transient, 2) // the sample and the dispose
	wq.WriterDataLifecycle.AutodisposeUnregisteredInstances = true
	wq.DurabilityService.ServiceCleanupDelay = time.Minute
	w, err := NewWriter(ta, WithQos(wq))
	require.NoError(t, err)
	require.NoError(t, w.Write(bg, &message{ID: 1, Text: "kept a minute"}))
	require.NoError(t, w.Close())
	require.Len(t, pa.dur.retained, 1)

	rq := reliableReader()
	rq.Durability.Kind = qos.Transient
	r, err := NewReader(tb, WithQos(*rq))
	require.NoError(t, err)
	waitStatus(t, r, listener.SubscriptionMatched)
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	defer cancel()
	data, info, err := r.Read(ctx)
	require.NoError(t, err)
	require.Equal(t, message{ID: 1, Text: "kept a minute"}, data[0])
	require.True(t, info[0].ValidData)
	require.Eventually(t, func() bool {
		_, info, err := r.Read(bg, NoWait())
		return err == nil && info[0].InstanceState == NotAliveDisposedInstanceState
	}, 10*time.Second, time.Millisecond, "the late joiner sees the dispose too")

	clk.Advance(59 * time.Second)
	require.Len(t, pa.dur.retained, 1)
	clk.Advance(time.Second)
	require.Empty(t, pa.dur.retained, "withdrawn after service_cleanup_delay")
	require.Eventually(t, func() bool {
		st, err := r.SubscriptionMatchedStatus()
		return err == nil && st.CurrentCount == 0
	}, 10*time.Second, time.Millisecond, "the reader loses the writer")

	// Delay 0: gone at once.
	wq.DurabilityService.ServiceCleanupDelay = 0
	w, err = NewWriter(ta, WithQos(wq))
	require.NoError(t, err)
	require.NoError(t, w.Write(bg, &message{ID: 2}))
	require.NoError(t, w.Close())
	require.Empty(t, pa.dur.retained)

	// Unregistered, not disposed: kept whatever the time.
	wq.WriterDataLifecycle.AutodisposeUnregisteredInstances = false
	w, err = NewWriter(ta, WithQos(wq))
	require.NoError(t, err)
	require.NoError(t, w.Write(bg, &message{ID: 3}))
	require.NoError(t, w.Close())
	clk.Advance(time.Hour)
	require.Len(t, pa.dur.retained, 1)
}

// TestPersistentRestart: a PERSISTENT writer's data is in the store of its
// participant's PersistenceDir; a participant started later on the same directory
// (the process restarted) gets it back in its writer of the same topic and type, whose
// sequence numbers continue, and late joiners get the old samples and the new ones.
// A second PERSISTENT writer of the same topic and type meanwhile is refused.
func TestPersistentRestart(t *testing.T) {
	dir := t.TempDir()
	add := durableNet(t)
	wq := durableWriterQos(qos.Persistent, 10)
	tt, err := newTopicType[message]("test::Durable")
	require.NoError(t, err)

	pa := add(PersistenceDir(dir))
	ta, err := createTopic(pa, "Persistent", tt)
	require.NoError(t, err)
	w, err := NewWriter(ta, WithQos(wq))
	require.NoError(t, err)
	_, err = NewWriter(ta, WithQos(wq))
	require.ErrorIs(t, err, ErrPreconditionNotMet)
	for i := range 3 {
		require.NoError(t, w.Write(bg, &message{ID: 1, Seq: uint64(i)}))
	}
	require.NoError(t, pa.DeleteContainedEntities())
	require.NoError(t, pa.Close())

	pa = add(PersistenceDir(dir))
	ta, err = createTopic(pa, "Persistent", tt)
	require.NoError(t, err)
	w, err = NewWriter(ta, WithQos(wq))
	require.NoError(t, err)
	var id SampleIdentity
	require.NoError(t, w.Write(bg, &message{ID: 1, Seq: 3}, WrittenAs(&id)))
	require.Equal(t, int64(4), id.SN, "the sequence numbers continue")

	pb := add()
	tb, err := createTopic(pb, "Persistent", tt)
	require.NoError(t, err)
	got, _ := lateReader(t, tb, qos.Persistent, 4, 10*time.Second)
	require.Equal(t, []message{{ID: 1, Seq: 0}, {ID: 1, Seq: 1}, {ID: 1, Seq: 2}, {ID: 1, Seq: 3}}, got)
}

// TestPersistentWithoutStore: with no directory, a PERSISTENT writer is kept in memory
// as a TRANSIENT one is.
func TestPersistentWithoutStore(t *testing.T) {
	t.Setenv(persistenceEnv, "")
	add := durableNet(t)
	pa := add()
	tt, err := newTopicType[message]("test::Durable")
	require.NoError(t, err)
	ta, err := createTopic(pa, "NoStore", tt)
	require.NoError(t, err)
	w, err := NewWriter(ta, WithQos(durableWriterQos(qos.Persistent, 1)))
	require.NoError(t, err)
	require.NoError(t, w.Write(bg, &message{ID: 1}))
	require.NoError(t, w.Close())
	require.Nil(t, pa.dur.store)
	got, _ := lateReader(t, ta, qos.Persistent, 1, 10*time.Second)
	require.Equal(t, []message{{ID: 1}}, got)
}

// TestPersistentTakeOver: a PERSISTENT writer created while a deleted one of its topic
// and type is still kept takes its place: the kept one is withdrawn, the new one
// starts from the store and continues the sequence numbers, and a late joiner gets each
// sample once.
func TestPersistentTakeOver(t *testing.T) {
	add := durableNet(t)
	pa := add(PersistenceDir(t.TempDir()))
	tt, err := newTopicType[message]("test::Durable")
	require.NoError(t, err)
	ta, err := createTopic(pa, "TakeOver", tt)
	require.NoError(t, err)
	wq := durableWriterQos(qos.Persistent, 10)
	w, err := NewWriter(ta, WithQos(wq))
	require.NoError(t, err)
	for i := range 2 {
		require.NoError(t, w.Write(bg, &message{ID: 1, Seq: uint64(i)}))
	}
	require.NoError(t, w.Close())
	require.Len(t, pa.dur.retained, 1)

	w, err = NewWriter(ta, WithQos(wq))
	require.NoError(t, err)
	require.Empty(t, pa.dur.retained, "the new writer takes over")
	var id SampleIdentity
	require.NoError(t, w.Write(bg, &message{ID: 1, Seq: 2}, WrittenAs(&id)))
	require.Equal(t, int64(3), id.SN)
	got, _ := lateReader(t, ta, qos.Persistent, 4, 2*time.Second)
	require.Equal(t, []message{{ID: 1, Seq: 0}, {ID: 1, Seq: 1}, {ID: 1, Seq: 2}}, got)
}

// TestWaitForHistoricalData: across 20 % loss, a late-joining TRANSIENT_LOCAL reader's
// WaitForHistoricalData, called right after the reader's creation (its participant has
// discovered the writers), returns once both writers of the other participant are
// matched and their history (a TRANSIENT_LOCAL writer's 300 samples and what the
// durability service keeps of a deleted TRANSIENT writer) is all in its cache: a take
// that does not wait finds every sample. A reader of the writers' own participant waits
// the same way. A reader whose cache refuses the history (RESOURCE_LIMITS) waits until
// its context ends, and returns once what it took made room for the rest; one deleted
// while it waits returns ErrAlreadyDeleted; a VOLATILE reader returns at once.
func TestWaitForHistoricalData(t *testing.T) {
	add := impairedNet(t, memnet.Impairments{Loss: 0.2})
	pa, pb := add(), add()
	tt, err := newTopicType[message]("test::History")
	require.NoError(t, err)
	ta, err := createTopic(pa, "History", tt)
	require.NoError(t, err)
	tb, err := createTopic(pb, "History", tt)
	require.NoError(t, err)

	tr, err := NewWriter(ta, WithQos(durableWriterQos(qos.Transient, 3)))
	require.NoError(t, err)
	for i := range 3 {
		require.NoError(t, tr.Write(bg, &message{ID: 1, Seq: uint64(i)}))
	}
	require.NoError(t, tr.Close())
	const n = 300
	w, err := NewWriter(ta, TransientLocal(), Reliable(), KeepLast(n))
	require.NoError(t, err)
	for i := range n {
		require.NoError(t, w.Write(bg, &message{ID: 2, Seq: uint64(i)}))
	}

	// takeNow takes what the reader's cache holds, without waiting.
	takeNow := func(r *DataReader[message]) (got int) {
		for {
			data, info, err := r.Take(bg, NoWait())
			if err != nil {
				require.ErrorIs(t, err, ErrNoData)
				return got
			}
			for i := range data {
				if info[i].ValidData {
					got++
				}
			}
		}
	}
	matched := func(r *DataReader[message], want int32) {
		require.Eventually(t, func() bool {
			st, err := r.SubscriptionMatchedStatus()
			return err == nil && st.CurrentCount == want
		}, 20*time.Second, time.Millisecond)
	}

	// Once pb has discovered pa's writers, a reader created and waiting at once has
	// them matched when the wait returns, and their histories in.
	require.Eventually(t, func() bool {
		pubs, err := pb.DiscoveredPublications()
		n := 0
		for _, d := range pubs {
			if d.TopicName == "History" {
				n++
			}
		}
		return err == nil && n == 2
	}, 20*time.Second, time.Millisecond, "pb discovers pa's writers")
	rq := reliableReader()
	rq.Durability.Kind = qos.TransientLocal
	r, err := NewReader(tb, WithQos(*rq))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(bg, 20*time.Second)
	defer cancel()
	require.NoError(t, r.WaitForHistoricalData(ctx))
	st, err := r.SubscriptionMatchedStatus()
	require.NoError(t, err)
	require.Equal(t, int32(2), st.CurrentCount, "both writers matched when the wait returns")
	require.Equal(t, n+3, takeNow(r), "the whole history is in the cache when the wait returns")
	require.NoError(t, r.WaitForHistoricalData(ctx), "and stays so")

	// A reader of the writers' own participant (same-process delivery): the same.
	local, err := NewReader(ta, WithQos(*rq))
	require.NoError(t, err)
	require.NoError(t, local.WaitForHistoricalData(ctx))
	require.Equal(t, n+3, takeNow(local), "a local late joiner")

	// A cache with room for 10 samples refuses the rest of the history.
	rq.ResourceLimits.MaxSamples = 10
	small, err := NewReader(tb, WithQos(*rq))
	require.NoError(t, err)
	matched(small, 2)
	short, cancelShort := context.WithTimeout(bg, 300*time.Millisecond)
	defer cancelShort()
	err = small.WaitForHistoricalData(short)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.NotErrorIs(t, err, ErrTimeout)
	// A reader deleted while it waits ends the wait.
	gone, err := NewReader(tb, WithQos(*rq))
	require.NoError(t, err)
	matched(gone, 2)
	ended := make(chan error, 1)
	go func() { ended <- gone.WaitForHistoricalData(ctx) }()
	time.Sleep(10 * time.Millisecond)
	require.NoError(t, gone.Close())
	select {
	case err := <-ended:
		require.ErrorIs(t, err, ErrAlreadyDeleted)
	case <-time.After(10 * time.Second):
		t.Fatal("the wait did not end with the reader")
	}

	got := 0
	for got < n+3 {
		got += takeNow(small)
		require.NoError(t, ctx.Err(), "took %d of %d", got, n+3)
		time.Sleep(time.Millisecond)
	}
	require.NoError(t, small.WaitForHistoricalData(ctx))

	vq := reliableReader()
	v, err := NewReader(tb, WithQos(*vq))
	require.NoError(t, err)
	expired, cancelExpired := context.WithCancel(bg)
	cancelExpired()
	require.NoError(t, v.WaitForHistoricalData(expired), "a VOLATILE reader has no historical data to wait for")
}
