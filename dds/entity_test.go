package dds

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/ddsgo/ddsgo/sim/ecm"
	"github.com/stretchr/testify/require"
)

func TestEntityGraph(t *testing.T) {
	p := testParticipant(t, nil, nil)
	w, r := endpoints[point](t, p, "points", nil, nil)
	pub, sub, topic := w.Publisher(), r.Subscriber(), w.Topic()

	// Containment is the ECM parent graph.
	wh := w.InstanceHandle()
	p.Entities(func(m ecm.Reader) {
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
	require.ErrorIs(t, err, ErrTimeout)
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

	// Deleting an entity that contains entities, or a topic in use, fails.
	require.ErrorIs(t, p.DeletePublisher(pub), ErrPreconditionNotMet)
	require.ErrorIs(t, p.DeleteSubscriber(sub), ErrPreconditionNotMet)
	require.ErrorIs(t, p.DeleteTopic(topic), ErrPreconditionNotMet)
	require.ErrorIs(t, Factory().DeleteParticipant(p), ErrPreconditionNotMet)
	require.ErrorIs(t, sub.DeleteDataReader(w2r(w)), ErrPreconditionNotMet)

	// A reader with a condition cannot be deleted alone.
	c, err := r.CreateReadCondition(States{})
	require.NoError(t, err)
	require.ErrorIs(t, sub.DeleteDataReader(r), ErrPreconditionNotMet)
	require.NoError(t, r.DeleteReadCondition(c))
	require.NoError(t, sub.DeleteDataReader(r))
	require.ErrorIs(t, sub.DeleteDataReader(r), ErrAlreadyDeleted)
	_, _, err = r.Take(0, States{})
	require.ErrorIs(t, err, ErrAlreadyDeleted)
	require.Nil(t, sub.LookupDataReader("points"))

	// DeleteContainedEntities is a recursive removal.
	_, err = r.CreateReadCondition(States{})
	require.ErrorIs(t, err, ErrAlreadyDeleted)
	require.NoError(t, p.DeleteContainedEntities())
	p.Entities(func(m ecm.Reader) {
		require.Empty(t, m.Children(p.ent))
	})
	require.ErrorIs(t, w.Write(&point{}), ErrAlreadyDeleted)
	require.ErrorIs(t, pub.Enable(), ErrAlreadyDeleted)
	require.True(t, topic.InstanceHandle().IsNil())
	require.NoError(t, Factory().DeleteParticipant(p))
	require.ErrorIs(t, Factory().DeleteParticipant(p), ErrAlreadyDeleted)
	_, err = p.CreatePublisher(nil, nil, 0)
	require.ErrorIs(t, err, ErrAlreadyDeleted)
}

// w2r pretends a writer is a reader, to check DeleteDataReader rejects it.
func w2r(w *DataWriter[point]) AnyDataReader { return fakeAnyReader{w} }

type fakeAnyReader struct{ *DataWriter[point] }

func (fakeAnyReader) TopicDescription() TopicDescription { return nil }
func (fakeAnyReader) Subscriber() *Subscriber            { return nil }

func TestCreateErrors(t *testing.T) {
	p := testParticipant(t, nil, nil)
	_, err := CreateParticipant(-1, nil, nil, 0, withEngine((&fakeNet{}).factory()))
	require.ErrorIs(t, err, ErrBadParameter)
	_, err = CreateParticipant(MaxDomainID+1, nil, nil, 0, withEngine((&fakeNet{}).factory()))
	require.ErrorIs(t, err, ErrBadParameter)
	_, err = NewTopicType[int]("x")
	require.ErrorIs(t, err, ErrBadParameter)
	_, err = NewTopicType[point]("")
	require.ErrorIs(t, err, ErrBadParameter)

	tp, err := NewTopicType[point]("test::Point")
	require.NoError(t, err)
	require.True(t, tp.Keyed())
	topic, err := p.CreateTopic("t", tp, nil, nil, 0)
	require.NoError(t, err)
	require.Equal(t, "test::Point", topic.TypeName())
	other, err := NewTopicType[message]("test::Message")
	require.NoError(t, err)
	_, err = p.CreateTopic("t", other, nil, nil, 0)
	require.ErrorIs(t, err, ErrPreconditionNotMet)
	_, err = p.CreateTopic("", tp, nil, nil, 0)
	require.ErrorIs(t, err, ErrBadParameter)

	pub, err := p.CreatePublisher(nil, nil, 0)
	require.NoError(t, err)
	_, err = CreateDataWriter[message](pub, topic, nil, nil, 0)
	require.ErrorIs(t, err, ErrBadParameter)

	p2 := testParticipant(t, nil, nil)
	pub2, err := p2.CreatePublisher(nil, nil, 0)
	require.NoError(t, err)
	_, err = CreateDataWriter[point](pub2, topic, nil, nil, 0)
	require.ErrorIs(t, err, ErrBadParameter)
	require.ErrorIs(t, p2.DeletePublisher(pub), ErrPreconditionNotMet)

	require.ErrorIs(t, p.IgnoreParticipant(HandleNil), ErrUnsupported)
	require.ErrorIs(t, pub.BeginCoherentChanges(), ErrUnsupported)
}

func TestQosValidation(t *testing.T) {
	p := testParticipant(t, nil, nil)
	tp, _ := NewTopicType[point]("test::Point")
	topic, err := p.CreateTopic("t", tp, nil, nil, 0)
	require.NoError(t, err)
	pub, err := p.CreatePublisher(nil, nil, 0)
	require.NoError(t, err)

	bad := qos.DefaultDataWriterQos()
	bad.History = qos.History{Kind: qos.KeepLast, Depth: 5}
	bad.ResourceLimits.MaxSamplesPerInstance = 2
	_, err = CreateDataWriter[point](pub, topic, &bad, nil, 0)
	require.ErrorIs(t, err, ErrInconsistentPolicy)
	require.ErrorIs(t, err, ErrInconsistentPolicy)
	var pe *qos.PolicyError
	require.ErrorAs(t, err, &pe)
	require.Equal(t, qos.HistoryPolicyID, pe.Policy)
	require.Contains(t, err.Error(), "dds: inconsistent policy")

	bad = qos.DefaultDataWriterQos()
	bad.History.Depth = 0
	_, err = CreateDataWriter[point](pub, topic, &bad, nil, 0)
	require.ErrorIs(t, err, ErrBadParameter)
	require.ErrorIs(t, pub.SetDefaultDataWriterQos(bad), ErrBadParameter)

	w, err := CreateDataWriter[point](pub, topic, nil, nil, 0)
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
	pq := qos.DefaultPublisherQos()
	pq.EntityFactory.AutoenableCreatedEntities = false
	pub2, err := p.CreatePublisher(&pq, nil, 0)
	require.NoError(t, err)
	w2, err := CreateDataWriter[point](pub2, topic, nil, nil, 0)
	require.NoError(t, err)
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
	t2, err := p.CreateTopic("t2", tp, nil, nil, 0)
	require.NoError(t, err)
	require.Equal(t, qos.Reliable, t2.Qos().Reliability.Kind)
	wq := pub.CopyFromTopicQos(qos.DefaultDataWriterQos(), t2.Qos())
	require.Equal(t, qos.Reliable, wq.Reliability.Kind)
}

func TestEnableSemantics(t *testing.T) {
	fq := Factory().Qos()
	require.True(t, fq.EntityFactory.AutoenableCreatedEntities)
	require.NoError(t, Factory().SetQos(qos.DomainParticipantFactoryQos{}))
	net := &fakeNet{}
	p, err := CreateParticipant(3, nil, nil, 0, withEngine(net.factory()))
	require.NoError(t, Factory().SetQos(fq))
	require.NoError(t, err)
	defer func() {
		require.NoError(t, p.DeleteContainedEntities())
		require.NoError(t, Factory().DeleteParticipant(p))
	}()
	require.Same(t, p, Factory().LookupParticipant(3))
	require.Equal(t, 3, p.DomainID())

	// A disabled participant: QoS, listener, conditions, statuses, factory and lookup
	// operations work; the others fail with ErrNotEnabled.
	require.True(t, p.InstanceHandle().IsNil())
	require.Empty(t, net.engines)
	require.NoError(t, p.SetQos(p.Qos()))
	require.NoError(t, p.SetListener(listener.DomainParticipantFuncs{}, 0))
	require.NotNil(t, p.StatusCondition())
	require.Zero(t, p.StatusChanges())
	_, err = p.DiscoveredParticipants()
	require.ErrorIs(t, err, ErrNotEnabled)
	_, err = p.CurrentTime()
	require.ErrorIs(t, err, ErrNotEnabled)
	require.ErrorIs(t, p.AssertLiveliness(), ErrNotEnabled)

	tp, _ := NewTopicType[point]("test::Point")
	topic, err := p.CreateTopic("t", tp, nil, nil, 0)
	require.NoError(t, err)
	pub, err := p.CreatePublisher(nil, nil, 0)
	require.NoError(t, err)
	sub, err := p.CreateSubscriber(nil, nil, 0)
	require.NoError(t, err)
	w, err := CreateDataWriter[point](pub, topic, nil, nil, 0)
	require.NoError(t, err)
	r, err := CreateDataReader[point](sub, topic, nil, nil, 0)
	require.NoError(t, err)

	// Children of a disabled entity are disabled and cannot be enabled.
	for _, e := range []Entity{topic, pub, sub, w, r} {
		require.ErrorIs(t, e.Enable(), ErrPreconditionNotMet)
		require.True(t, e.InstanceHandle().IsNil())
	}
	require.ErrorIs(t, w.Write(&point{}), ErrNotEnabled)
	require.ErrorIs(t, w.Dispose(&point{}), ErrNotEnabled)
	_, err = w.RegisterInstance(&point{})
	require.ErrorIs(t, err, ErrNotEnabled)
	require.ErrorIs(t, w.WaitForAcknowledgments(context.Background()), ErrNotEnabled)
	_, err = w.MatchedSubscriptions()
	require.ErrorIs(t, err, ErrNotEnabled)
	_, err = w.PublicationMatchedStatus()
	require.NoError(t, err)
	require.NoError(t, w.SetQos(w.Qos()))
	require.NoError(t, w.SetListener(listener.DataWriterFuncs{}, 0))
	_, _, err = r.Take(0, States{})
	require.ErrorIs(t, err, ErrNotEnabled)
	_, err = r.TakeInto(make([]point, 1), make([]SampleInfo, 1), States{})
	require.ErrorIs(t, err, ErrNotEnabled)
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
	require.NoError(t, w.Write(&point{ID: 1}))
	_, _, err = r.Take(0, States{})
	require.NoError(t, err)

	// With autoenable false, children stay disabled until enabled one by one.
	pq := qos.DefaultPublisherQos()
	pq.EntityFactory.AutoenableCreatedEntities = false
	pub2, err := p.CreatePublisher(&pq, nil, 0)
	require.NoError(t, err)
	w2, err := CreateDataWriter[point](pub2, topic, nil, nil, 0)
	require.NoError(t, err)
	require.ErrorIs(t, w2.Write(&point{}), ErrNotEnabled)
	require.NoError(t, w2.Enable())
	require.NoError(t, w2.Enable()) // again: nothing to do
	require.NoError(t, w2.Write(&point{}))
}

func TestDeleteParticipantFromListener(t *testing.T) {
	net := &fakeNet{}
	done := make(chan error, 1)
	var p *DomainParticipant
	l := listener.DomainParticipantFuncs{}
	l.PublicationMatched = func(listener.Entity, listener.PublicationMatchedStatus) {
		err := p.DeleteContainedEntities()
		if err == nil {
			err = Factory().DeleteParticipant(p)
		}
		done <- err
	}
	var err error
	p, err = CreateParticipant(0, nil, l, l.Mask(), withEngine(net.factory()))
	require.NoError(t, err)
	endpoints[point](t, p, "t", nil, nil)
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(5 * time.Second):
		t.Fatal("no listener call")
	}
	require.True(t, errors.Is(Factory().DeleteParticipant(p), ErrAlreadyDeleted))
}
