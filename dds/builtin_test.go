package dds_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/waitset"
)

type chat struct {
	ID   int32 `dds:"key"`
	Text string
}

func (chat) DDSTypeName() string { return "test::Chat" }

// builtinReaders returns the readers of p's built-in subscriber.
func builtinReaders(t *testing.T, p *dds.DomainParticipant) (
	parts *dds.DataReader[dds.ParticipantBuiltinTopicData], pubs, subs *dds.DataReader[dds.EndpointBuiltinTopicData],
	topics *dds.DataReader[dds.TopicBuiltinTopicData],
) {
	sub, err := p.BuiltinSubscriber()
	require.NoError(t, err)
	again, err := p.BuiltinSubscriber()
	require.NoError(t, err)
	require.Same(t, sub, again)
	parts = sub.LookupDataReader("DCPSParticipant").(*dds.DataReader[dds.ParticipantBuiltinTopicData])
	pubs = sub.LookupDataReader("DCPSPublication").(*dds.DataReader[dds.EndpointBuiltinTopicData])
	subs = sub.LookupDataReader("DCPSSubscription").(*dds.DataReader[dds.EndpointBuiltinTopicData])
	topics = sub.LookupDataReader("DCPSTopic").(*dds.DataReader[dds.TopicBuiltinTopicData])
	return parts, pubs, subs, topics
}

// awaitInstance waits, on a WaitSet with a ReadCondition of r's unread samples, until
// instance h of r is in one of the states want, and returns its last valid sample.
func awaitInstance[T any](ctx context.Context, t *testing.T, r *dds.DataReader[T], h dds.InstanceHandle, want dds.InstanceState) T {
	t.Helper()
	c, err := r.CreateReadCondition(dds.NotReadStates)
	require.NoError(t, err)
	defer func() { require.NoError(t, r.DeleteReadCondition(c)) }()
	ws := waitset.New()
	require.NoError(t, ws.AttachCondition(c))
	var last T
	for {
		vs, infos, err := r.Read(ctx, dds.NoWait())
		if err != nil && !errors.Is(err, dds.ErrNoData) {
			require.NoError(t, err)
		}
		for i, info := range infos {
			if info.InstanceHandle != h {
				continue
			}
			if info.ValidData {
				last = vs[i]
			}
			if info.InstanceState&want != 0 {
				return last
			}
		}
		_, err = ws.Wait(ctx)
		require.NoError(t, err, "instance %v never reached %v", h, want)
	}
}

// The built-in readers show the participants, writers, readers and topics of the
// domain, local and remote, as they come, change and go, through the reader's ordinary
// delivery: WaitSet, listener, instance states.
func TestBuiltinTopicsFollowDiscovery(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	newParticipant := memnetParticipants(t)
	a := newParticipant("a")
	parts, pubs, subs, topics := builtinReaders(t, a)
	var available atomic.Int32
	require.NoError(t, parts.SetListener(dds.ReaderListener[dds.ParticipantBuiltinTopicData]{
		OnDataAvailable: func(*dds.DataReader[dds.ParticipantBuiltinTopicData]) { available.Add(1) },
	}, listener.StatusMask(listener.DataAvailable)))

	// Ourselves, as Cyclone DDS shows its own participant.
	self := awaitInstance(ctx, t, parts, a.InstanceHandle(), dds.AliveInstanceState)
	require.Equal(t, a.InstanceHandle(), self.Key)
	require.Equal(t, "a", self.Name)

	b := newParticipant("b")
	pb := awaitInstance(ctx, t, parts, b.InstanceHandle(), dds.AliveInstanceState)
	require.Equal(t, "b", pb.Name)
	require.Equal(t, [2]byte{0x01, 0xdd}, pb.VendorID)
	require.Eventually(t, func() bool { return available.Load() > 0 }, 5*time.Second, 10*time.Millisecond,
		"DATA_AVAILABLE on the built-in reader's listener")

	// A remote writer and a local reader, and their topic.
	bt, err := dds.NewTopic[chat](b, "Chat", dds.Reliable())
	require.NoError(t, err)
	w, err := dds.NewWriter(bt)
	require.NoError(t, err)
	pw := awaitInstance(ctx, t, pubs, w.InstanceHandle(), dds.AliveInstanceState)
	require.Equal(t, "Chat", pw.TopicName)
	require.Equal(t, "test::Chat", pw.TypeName)
	require.Equal(t, b.InstanceHandle(), pw.ParticipantKey)
	at, err := dds.NewTopic[chat](a, "Chat", dds.Reliable())
	require.NoError(t, err)
	r, err := dds.NewReader(at)
	require.NoError(t, err)
	sr := awaitInstance(ctx, t, subs, r.InstanceHandle(), dds.AliveInstanceState)
	require.Equal(t, a.InstanceHandle(), sr.ParticipantKey)
	handle := parts.LookupInstance(&dds.ParticipantBuiltinTopicData{Key: b.InstanceHandle()})
	require.Equal(t, b.InstanceHandle(), handle)

	var chatTopic dds.InstanceHandle
	tds, infos, err := topics.Read(ctx)
	require.NoError(t, err)
	for i, td := range tds {
		if td.Name == "Chat" {
			chatTopic = infos[i].InstanceHandle
			require.Equal(t, "test::Chat", td.TypeName)
			require.Equal(t, td.Key, chatTopic)
		}
	}
	require.False(t, chatTopic.IsNil(), "DCPSTopic has Chat")
	// get_discovered_topics and get_discovered_topic_data show the same instances.
	ths, err := a.DiscoveredTopics()
	require.NoError(t, err)
	require.Contains(t, ths, chatTopic)
	require.Len(t, ths, len(tds))
	td, err := a.DiscoveredTopicData(chatTopic)
	require.NoError(t, err)
	require.Equal(t, dds.TopicBuiltinTopicData{Key: chatTopic, Name: "Chat", TypeName: "test::Chat"}, td)
	_, err = a.DiscoveredTopicData(b.InstanceHandle())
	require.ErrorIs(t, err, dds.ErrPreconditionNotMet)
	_, err = a.DiscoveredParticipantData(chatTopic)
	require.ErrorIs(t, err, dds.ErrPreconditionNotMet)

	// A QoS change of the writer is a new sample of its instance.
	wq := w.Qos()
	wq.UserData.Value = []byte("v2")
	require.NoError(t, w.SetQos(wq))
	require.Eventually(t, func() bool {
		vs, _, err := pubs.Read(ctx, dds.Instance(w.InstanceHandle()), dds.InStates(dds.NotReadStates))
		return err == nil && string(vs[len(vs)-1].Offered.Writer.UserData.Value) == "v2"
	}, 10*time.Second, 10*time.Millisecond)

	// Going: the writer, then its participant.
	wh, bh, rh := w.InstanceHandle(), b.InstanceHandle(), r.InstanceHandle()
	require.NoError(t, w.Close())
	awaitInstance(ctx, t, pubs, wh, dds.NotAliveDisposedInstanceState)
	require.NoError(t, b.Close())
	awaitInstance(ctx, t, parts, bh, dds.NotAliveDisposedInstanceState)

	// The local reader's topic stays; deleting reader and topic disposes it.
	require.NoError(t, r.Close())
	awaitInstance(ctx, t, subs, rh, dds.NotAliveDisposedInstanceState)
	require.NoError(t, at.Close())
	awaitInstance(ctx, t, topics, chatTopic, dds.NotAliveDisposedInstanceState)

	// The built-in topics are not written by anyone else.
	_, err = dds.NewWriter(parts.Topic())
	require.ErrorIs(t, err, dds.ErrBadParameter)
}

// A reader made later on a built-in topic gets what is known at once.
func TestBuiltinReaderLateJoiner(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	newParticipant := memnetParticipants(t)
	a, b := newParticipant("a"), newParticipant("b")
	parts, _, _, _ := builtinReaders(t, a)
	awaitInstance(ctx, t, parts, b.InstanceHandle(), dds.AliveInstanceState)
	late, err := dds.NewReader(parts.Topic())
	require.NoError(t, err)
	vs, _, err := late.Take(ctx, dds.NoWait())
	require.NoError(t, err)
	require.Len(t, vs, 2) // a and b
	require.Equal(t, time.Minute, parts.Qos().ReaderDataLifecycle.AutopurgeDisposedSamplesDelay)

	// A deleted built-in subscriber is made again, with what is known.
	require.NoError(t, parts.Subscriber().Close())
	again, _, _, _ := builtinReaders(t, a)
	require.NotSame(t, parts, again)
	vs, _, err = again.Take(ctx, dds.NoWait())
	require.NoError(t, err)
	require.Len(t, vs, 2)
}

// Ignoring a participant stops what it sends from reaching the ignoring participant's
// readers, while another participant's reader still gets it.
func TestIgnoreParticipant(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	newParticipant := memnetParticipants(t)
	a, b, c := newParticipant("a"), newParticipant("b"), newParticipant("c")
	parts, pubs, _, _ := builtinReaders(t, a)

	bt, err := dds.NewTopic[chat](b, "Chat", dds.Reliable())
	require.NoError(t, err)
	w, err := dds.NewWriter(bt)
	require.NoError(t, err)
	reader := func(p *dds.DomainParticipant) *dds.DataReader[chat] {
		tp, err := dds.NewTopic[chat](p, "Chat", dds.Reliable())
		require.NoError(t, err)
		r, err := dds.NewReader(tp)
		require.NoError(t, err)
		return r
	}
	ra, rc := reader(a), reader(c)
	require.Eventually(t, func() bool {
		m, err := w.MatchedSubscriptions()
		return err == nil && len(m) == 2
	}, 10*time.Second, 10*time.Millisecond)
	require.NoError(t, w.Write(ctx, &chat{ID: 1, Text: "before"}))
	for _, r := range []*dds.DataReader[chat]{ra, rc} {
		vs, _, err := r.Take(ctx)
		require.NoError(t, err)
		require.Equal(t, "before", vs[0].Text)
	}

	require.NoError(t, a.IgnoreParticipant(b.InstanceHandle()))
	awaitInstance(ctx, t, parts, b.InstanceHandle(), dds.NotAliveDisposedInstanceState)
	awaitInstance(ctx, t, pubs, w.InstanceHandle(), dds.NotAliveDisposedInstanceState)
	require.Eventually(t, func() bool {
		m, err := ra.MatchedPublications()
		return err == nil && len(m) == 0
	}, 5*time.Second, 10*time.Millisecond)

	require.NoError(t, w.Write(ctx, &chat{ID: 2, Text: "after"}))
	vs, _, err := rc.Take(ctx)
	require.NoError(t, err)
	require.Equal(t, "after", vs[0].Text)
	// Long enough for b's announcements (SPDP, SEDP) to come again: still ignored.
	time.Sleep(500 * time.Millisecond)
	got, infos, err := ra.Take(ctx, dds.NoWait())
	for i := range got {
		require.False(t, infos[i].ValidData && got[i].Text == "after", "an ignored participant's sample was delivered")
	}
	if err != nil {
		require.ErrorIs(t, err, dds.ErrNoData)
	}
	m, err := ra.MatchedPublications()
	require.NoError(t, err)
	require.Empty(t, m)
	known, err := a.DiscoveredParticipants()
	require.NoError(t, err)
	require.NotContains(t, known, b.InstanceHandle())

	// Bad handles.
	require.ErrorIs(t, a.IgnoreParticipant(dds.HandleNil), dds.ErrBadParameter)
	require.ErrorIs(t, a.IgnoreParticipant(a.InstanceHandle()), dds.ErrBadParameter)
	require.ErrorIs(t, a.IgnoreParticipant(w.InstanceHandle()), dds.ErrBadParameter)
	require.ErrorIs(t, a.IgnorePublication(b.InstanceHandle()), dds.ErrBadParameter)
	require.ErrorIs(t, a.IgnoreSubscription(w.InstanceHandle()), dds.ErrBadParameter)
	require.ErrorIs(t, a.IgnoreSubscription(ra.InstanceHandle()), dds.ErrBadParameter)
	require.ErrorIs(t, a.IgnoreTopic(w.InstanceHandle()), dds.ErrBadParameter)
}

// Ignoring one writer, or a topic, unmatches just that.
func TestIgnorePublicationAndTopic(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	newParticipant := memnetParticipants(t)
	a, b := newParticipant("a"), newParticipant("b")
	_, _, subs, topics := builtinReaders(t, a)

	writer := func(topic string) *dds.DataWriter[chat] {
		tp, err := dds.NewTopic[chat](b, topic, dds.Reliable())
		require.NoError(t, err)
		w, err := dds.NewWriter(tp)
		require.NoError(t, err)
		return w
	}
	reader := func(topic string) *dds.DataReader[chat] {
		tp, err := dds.NewTopic[chat](a, topic, dds.Reliable())
		require.NoError(t, err)
		r, err := dds.NewReader(tp)
		require.NoError(t, err)
		return r
	}
	w1, w2, w3 := writer("One"), writer("One"), writer("Three")
	r1, r3 := reader("One"), reader("Three")
	matched := func(r *dds.DataReader[chat], n int) {
		require.Eventually(t, func() bool {
			m, err := r.MatchedPublications()
			return err == nil && len(m) == n
		}, 10*time.Second, 10*time.Millisecond)
	}
	matched(r1, 2)
	matched(r3, 1)
	// The writers' side of the match too: a volatile sample written before w2 knows r1
	// never reaches it (this once made Take wait 30 s under GOMAXPROCS=8 and -race).
	require.Eventually(t, func() bool {
		m, err := w2.MatchedSubscriptions()
		return err == nil && len(m) == 1
	}, 10*time.Second, 10*time.Millisecond)

	require.NoError(t, a.IgnorePublication(w1.InstanceHandle()))
	matched(r1, 1)
	require.NoError(t, w1.Write(ctx, &chat{ID: 1, Text: "ignored"}))
	require.NoError(t, w2.Write(ctx, &chat{ID: 2, Text: "kept"}))
	vs, _, err := r1.Take(ctx)
	require.NoError(t, err)
	require.Equal(t, []chat{{ID: 2, Text: "kept"}}, vs)

	// A remote reader can be ignored too.
	rb, err := dds.NewReader(w3.Topic())
	require.NoError(t, err)
	awaitInstance(ctx, t, subs, rb.InstanceHandle(), dds.AliveInstanceState)
	require.NoError(t, a.IgnoreSubscription(rb.InstanceHandle()))
	awaitInstance(ctx, t, subs, rb.InstanceHandle(), dds.NotAliveDisposedInstanceState)

	var three dds.InstanceHandle
	tds, _, err := topics.Read(ctx)
	require.NoError(t, err)
	for _, td := range tds {
		if td.Name == "Three" {
			three = td.Key
		}
	}
	ths, err := a.DiscoveredTopics()
	require.NoError(t, err)
	require.Contains(t, ths, three)
	require.NoError(t, a.IgnoreTopic(three))
	matched(r3, 0)
	matched(r1, 1)
	// An ignored topic is no longer a discovered one.
	ths, err = a.DiscoveredTopics()
	require.NoError(t, err)
	require.NotContains(t, ths, three)
	_, err = a.DiscoveredTopicData(three)
	require.ErrorIs(t, err, dds.ErrPreconditionNotMet)
}
