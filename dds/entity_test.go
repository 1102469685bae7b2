package dds

import (
	"context"
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/stretchr/testify/require"
)

func TestEntityGraph(t *testing.T) {
	p := testParticipant(t, nil, nil)
	w, r := endpoints[point](t, p, "points", nil, nil)
	pub, sub, topic := w.Publisher(), r.Subscriber(), w.Topic()

	// Containment is the ECM parent graph.
	wh := w.InstanceHandle()
	p.entities(func(m ecm.Reader) {
		require.Equal(t, []ecm.Entity{topic.ent, pub.ent, sub.ent}, m.Children(p.ent))
		require.Equal(t, []ecm.Entity{w.ent}, m.Children(pub.ent))
		require.Equal(t, []ecm.Entity{r.ent}, m.Children(sub.ent))
		k, _ := ecm.ComponentData[kindComp](m, w.ent)
		require.Equal(t, kindWriter, k.Kind)
		h, _ := ecm.ComponentData[handleComp](m, w.ent)
		require.Equal(t, wh, h.Handle)
		q, ok := ecm.ComponentData[qos.DataWriterQos](m, w.ent)
		require.True(t, ok)
		require.Equal(t, qos.Reliable, q.Reliability.Kind)
	})
	for _, e := range []Entity{p, pub, sub, topic, w, r} {
		require.False(t, e.InstanceHandle().IsNil())
	}
	require.Equal(t, byte(0x02), w.InstanceHandle()[15]) // writer with key
	require.Equal(t, byte(0x07), r.InstanceHandle()[15]) // reader with key

	// Lookups.
	require.Same(t, topic, p.LookupTopicDescription("points"))
	require.Nil(t, p.LookupTopicDescription("nothing"))
	found, err := p.FindTopic(context.Background(), "points")
	require.NoError(t, err)
	require.Same(t, topic, found)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err = p.FindTopic(ctx, "nothing")
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.NotErrorIs(t, err, ErrTimeout)
	require.Same(t, w, pub.LookupDataWriter("points"))
	require.Same(t, r, sub.LookupDataReader("points"))
	require.Nil(t, sub.LookupDataReader("nothing"))
	for _, e := range []Entity{pub, sub, topic, w, r} {
		ok, err := p.ContainsEntity(e.InstanceHandle())
		require.NoError(t, err)
		require.True(t, ok)
	}
	ok, err := p.ContainsEntity(p.InstanceHandle())
	require.NoError(t, err)
	require.False(t, ok)

	// A topic in use cannot be deleted.
	require.ErrorIs(t, topic.Close(), ErrPreconditionNotMet)

	// Close deletes what the entity contains: the reader's conditions go with it.
	c, err := r.CreateReadCondition(States{})
	require.NoError(t, err)
	require.NoError(t, r.Close())
	require.NoError(t, r.Close()) // closing again does nothing
	require.True(t, c.deleted.Load())
	_, _, err = r.Take(bg, NoWait())
	require.ErrorIs(t, err, ErrAlreadyDeleted)
	require.Nil(t, sub.LookupDataReader("points"))

	// DeleteContainedEntities is a recursive removal.
	_, err = r.CreateReadCondition(States{})
	require.ErrorIs(t, err, ErrAlreadyDeleted)
	require.NoError(t, p.DeleteContainedEntities())
	p.entities(func(m ecm.Reader) {
		require.Empty(t, m.Children(p.ent))
	})
	require.ErrorIs(t, w.Write(bg, &point{}), ErrAlreadyDeleted)
	require.ErrorIs(t, pub.Enable(), ErrAlreadyDeleted)
	require.True(t, topic.InstanceHandle().IsNil())
	require.NoError(t, p.Close())
	require.NoError(t, p.Close())
	_, err = p.NewPublisher()
	require.ErrorIs(t, err, ErrAlreadyDeleted)
}

func TestCreateErrors(t *testing.T) {
	p := testParticipant(t, nil, nil)
	_, err := NewParticipant(-1, withEngine((&fakeNet{}).factory()))
	require.ErrorIs(t, err, ErrBadParameter)
	_, err = NewParticipant(MaxDomainID+1, withEngine((&fakeNet{}).factory()))
	require.ErrorIs(t, err, ErrBadParameter)
	_, err = NewTopic[int](p, "x")
	require.ErrorIs(t, err, ErrBadParameter)
	_, err = NewTopic[point](p, "x", TypeName("x"), Partition("p"))
	require.ErrorIs(t, err, ErrBadParameter)
	require.ErrorContains(t, err, "option Partition does not apply to a topic")

	tp, err := newTopicType[point]("test::Point")
	require.NoError(t, err)
	topic, err := createTopic(p, "t", tp)
	require.NoError(t, err)
	require.True(t, topic.codec.Keyed())
	require.Equal(t, "test::Point", topic.TypeName())
	dflt, err := NewTopic[point](p, "default-name")
	require.NoError(t, err)
	require.Equal(t, "dds::point", dflt.TypeName())
	other, err := newTopicType[message]("test::Message")
	require.NoError(t, err)
	_, err = createTopic(p, "t", other)
	require.ErrorIs(t, err, ErrPreconditionNotMet)
	_, err = createTopic(p, "", tp)
	require.ErrorIs(t, err, ErrBadParameter)

	pub, err := p.NewPublisher()
	require.NoError(t, err)
	sub, err := p.NewSubscriber()
	require.NoError(t, err)
	_, err = NewWriter(topic, WithPublisher(pub), WithSubscriber(sub))
	require.ErrorIs(t, err, ErrBadParameter)
	_, err = NewWriter(topic, WithListener(ReaderListener[point]{}, listener.MaskAll))
	require.ErrorIs(t, err, ErrBadParameter)

	p2 := testParticipant(t, nil, nil)
	pub2, err := p2.NewPublisher()
	require.NoError(t, err)
	_, err = NewWriter(topic, WithPublisher(pub2))
	require.ErrorIs(t, err, ErrBadParameter)
	require.NoError(t, pub.Close()) // Close deletes what the publisher contains

	require.ErrorIs(t, p.IgnoreParticipant(HandleNil), ErrUnsupported)
	require.ErrorIs(t, pub.BeginCoherentChanges(), ErrAlreadyDeleted)
}

func TestQosValidation(t *testing.T) {
	p := testParticipant(t, nil, nil)
	tp, _ := newTopicType[point]("test::Point")
	topic, err := createTopic(p, "t", tp)
	require.NoError(t, err)
	pub, err := p.NewPublisher()
	require.NoError(t, err)

	bad := qos.DefaultDataWriterQos()
	bad.History = qos.History{Kind: qos.KeepLast, Depth: 5}
	bad.ResourceLimits.MaxSamplesPerInstance = 2
	_, err = NewWriter(topic, WithPublisher(pub), WithQos(bad))
	require.ErrorIs(t, err, ErrInconsistentPolicy)
	require.ErrorIs(t, err, ErrInconsistentPolicy)
	var pe *qos.PolicyError
	require.ErrorAs(t, err, &pe)
	require.Equal(t, qos.HistoryPolicyID, pe.Policy)
	require.Contains(t, err.Error(), "dds: inconsistent policy")

	bad = qos.DefaultDataWriterQos()
	bad.History.Depth = 0
	_, err = NewWriter(topic, WithPublisher(pub), WithQos(bad))
	require.ErrorIs(t, err, ErrBadParameter)
	require.ErrorIs(t, pub.SetDefaultDataWriterQos(bad), ErrBadParameter)

	w, err := NewWriter(topic, WithPublisher(pub))
	require.NoError(t, err)
	q := w.Qos()
	q.Durability.Kind = qos.TransientLocal
	err = w.SetQos(q)
	require.ErrorIs(t, err, ErrImmutablePolicy)
	require.ErrorIs(t, err, ErrImmutablePolicy)
	q = w.Qos()
	q.Deadline.Period = time.Second // changeable
	require.NoError(t, w.SetQos(q))
	require.Equal(t, time.Second, w.Qos().Deadline.Period)

	// Before enabling, any valid change is accepted.
	w2 := disabledWriter(t, p, topic)
	q = w2.Qos()
	q.Durability.Kind = qos.TransientLocal
	require.NoError(t, w2.SetQos(q))
	require.NoError(t, w2.Enable())
	require.Equal(t, qos.TransientLocal, w2.Qos().Durability.Kind)

	// Default QoS.
	dq := qos.DefaultTopicQos()
	dq.Reliability.Kind = qos.Reliable
	require.NoError(t, p.SetDefaultTopicQos(dq))
	require.Equal(t, qos.Reliable, p.DefaultTopicQos().Reliability.Kind)
	t2, err := createTopic(p, "t2", tp)
	require.NoError(t, err)
	require.Equal(t, qos.Reliable, t2.Qos().Reliability.Kind)
	wq := qos.DefaultDataWriterQos().FromTopic(t2.Qos())
	require.Equal(t, qos.Reliable, wq.Reliability.Kind)
}

func TestEnableSemantics(t *testing.T) {
	fq := Factory().Qos()
	require.True(t, fq.EntityFactory.AutoenableCreatedEntities)
	require.NoError(t, Factory().SetQos(qos.DomainParticipantFactoryQos{}))
	net := &fakeNet{}
	p, err := NewParticipant(3, withEngine(net.factory()))
	require.NoError(t, Factory().SetQos(fq))
	require.NoError(t, err)
	defer func() {
		require.NoError(t, p.DeleteContainedEntities())
		require.NoError(t, p.Close())
	}()
	require.Same(t, p, Factory().LookupParticipant(3))
	require.Equal(t, 3, p.DomainID())

	// A disabled participant: QoS, listener, conditions, statuses, factory and lookup
	// operations work; the others fail with ErrNotEnabled.
	require.True(t, p.InstanceHandle().IsNil())
	require.Empty(t, net.engines)
	require.NoError(t, p.SetQos(p.Qos()))
	require.NoError(t, p.SetListener(ParticipantListener{}, 0))
	require.NotNil(t, p.StatusCondition())
	require.Zero(t, p.StatusChanges())
	_, err = p.DiscoveredParticipants()
	require.ErrorIs(t, err, ErrNotEnabled)
	_, err = p.CurrentTime()
	require.ErrorIs(t, err, ErrNotEnabled)
	require.ErrorIs(t, p.AssertLiveliness(), ErrNotEnabled)

	topic, pub, sub := topicPubSub[point](t, p, "t", "test::Point")
	w, err := NewWriter(topic, WithPublisher(pub))
	require.NoError(t, err)
	r, err := NewReader(topic, WithSubscriber(sub))
	require.NoError(t, err)

	// Children of a disabled entity are disabled and cannot be enabled.
	for _, e := range []Entity{topic, pub, sub, w, r} {
		require.ErrorIs(t, e.Enable(), ErrPreconditionNotMet)
		require.True(t, e.InstanceHandle().IsNil())
	}
	require.ErrorIs(t, w.Write(bg, &point{}), ErrNotEnabled)
	require.ErrorIs(t, w.Dispose(bg, &point{}), ErrNotEnabled)
	_, err = w.Register(&point{})
	require.ErrorIs(t, err, ErrNotEnabled)
	require.ErrorIs(t, w.WaitForAcknowledgments(context.Background()), ErrNotEnabled)
	_, err = w.MatchedSubscriptions()
	require.ErrorIs(t, err, ErrNotEnabled)
	_, err = w.PublicationMatchedStatus()
	require.NoError(t, err)
	require.NoError(t, w.SetQos(w.Qos()))
	require.NoError(t, w.SetListener(WriterListener[point]{}, 0))
	_, _, err = r.Take(bg, NoWait())
	require.ErrorIs(t, err, ErrNotEnabled)
	_, err = r.TakeInto(bg, make([]point, 1), make([]SampleInfo, 1), NoWait())
	require.ErrorIs(t, err, ErrNotEnabled)
	require.ErrorIs(t, r.WaitForHistoricalData(bg), ErrNotEnabled)
	require.Equal(t, HandleNil, r.LookupInstance(&point{}))
	_, err = r.SubscriptionMatchedStatus()
	require.NoError(t, err)
	c, err := r.CreateReadCondition(States{})
	require.NoError(t, err)
	require.False(t, c.TriggerValue())
	require.NoError(t, r.DeleteReadCondition(c))
	require.ErrorIs(t, sub.NotifyDataReaders(), ErrNotEnabled)
	require.ErrorIs(t, sub.BeginAccess(), ErrNotEnabled)

	// Enabling the participant (autoenable true) enables everything it contains.
	require.NoError(t, p.Enable())
	require.Len(t, net.engines, 1)
	for _, e := range []Entity{p, topic, pub, sub, w, r} {
		require.False(t, e.InstanceHandle().IsNil())
	}
	require.NoError(t, w.Write(bg, &point{ID: 1}))
	_, _, err = r.Take(bg, NoWait())
	require.NoError(t, err)

	// With autoenable false, children stay disabled until enabled one by one.
	w2 := disabledWriter(t, p, topic)
	require.ErrorIs(t, w2.Write(bg, &point{}), ErrNotEnabled)
	require.NoError(t, w2.Enable())
	require.NoError(t, w2.Enable()) // again: nothing to do
	require.NoError(t, w2.Write(bg, &point{}))
}

func TestDeleteParticipantFromListener(t *testing.T) {
	net := &fakeNet{}
	done := make(chan error, 1)
	var p *DomainParticipant
	l := ParticipantListener{}
	l.OnPublicationMatched = func(AnyDataWriter, listener.PublicationMatchedStatus) {
		err := p.DeleteContainedEntities()
		if err == nil {
			err = p.Close()
		}
		done <- err
	}
	var err error
	p, err = NewParticipant(0, withEngine(net.factory()), WithListener(l, listener.StatusMask(listener.PublicationMatched)))
	require.NoError(t, err)
	endpoints[point](t, p, "t", nil, nil)
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(5 * time.Second):
		t.Fatal("no listener call")
	}
	require.NoError(t, p.Close()) // closed already: nothing to do
}

// disabledWriter returns a writer of topic in a new publisher of p that does not
// autoenable what it creates.
func disabledWriter(t *testing.T, p *DomainParticipant, topic *Topic[point]) *DataWriter[point] {
	t.Helper()
	pq := qos.DefaultPublisherQos()
	pq.EntityFactory.AutoenableCreatedEntities = false
	pub, err := p.NewPublisher(WithQos(pq))
	require.NoError(t, err)
	w, err := NewWriter(topic, WithPublisher(pub))
	require.NoError(t, err)
	return w
}
