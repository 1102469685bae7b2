package dds

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/listener"
)

// The rules of the Fast DDS documentation's Entity page
// (https://fast-dds.docs.eprosima.com/en/latest/fastdds/dds_layer/core/entity/entity.html,
// Fast-DDS-docs docs/fastdds/dds_layer/core/entity/entity.rst), on the fake engine
// (issue 31, item 3).

// disabledParticipant creates a participant while the factory's ENTITY_FACTORY says
// autoenable_created_entities false, so that it is created disabled, and restores the
// factory's QoS at once.
func disabledParticipant(t *testing.T, net *fakeNet) *DomainParticipant {
	t.Helper()
	fq := Factory().Qos()
	off := fq
	off.EntityFactory.AutoenableCreatedEntities = false
	require.NoError(t, Factory().SetQos(off))
	p, err := NewParticipant(0, withEngine(net.factory()))
	require.NoError(t, Factory().SetQos(fq))
	require.NoError(t, err)
	t.Cleanup(func() {
		require.NoError(t, p.DeleteContainedEntities())
		require.NoError(t, p.Close())
	})
	return p
}

// TestDocEntityEnablingDisabledFactory reproduces entity.rst "Enabling Entities": by
// default factories create their entities enabled; with EntityFactoryQosPolicy
// autoenable_created_entities false they are created disabled; "A disabled factory
// creates disabled entities regardless of its QoS". Enabling a child of a disabled
// factory fails with PRECONDITION_NOT_MET (DDS 1.4 §2.2.2.1.1.7, which the page does
// not spell out); enabling the factory, whose own ENTITY_FACTORY says autoenable,
// enables what it created.
func TestDocEntityEnablingDisabledFactory(t *testing.T) {
	require.True(t, Factory().Qos().EntityFactory.AutoenableCreatedEntities, "default: enabled")
	enabled := testParticipant(t, nil, nil)
	require.False(t, enabled.InstanceHandle().IsNil(), "created enabled by default")

	net := &fakeNet{}
	p := disabledParticipant(t, net)
	require.True(t, p.InstanceHandle().IsNil(), "created disabled")
	require.Empty(t, net.engines, "a disabled participant does not start")
	require.True(t, p.Qos().EntityFactory.AutoenableCreatedEntities)

	// The participant's own QoS says autoenable, but it is disabled: its children are too.
	topic, pub, sub := topicPubSub[point](t, p, "t", "test::Point")
	require.True(t, pub.Qos().EntityFactory.AutoenableCreatedEntities)
	w, err := NewWriter(topic, WithPublisher(pub))
	require.NoError(t, err)
	r, err := NewReader(topic, WithSubscriber(sub))
	require.NoError(t, err)
	for _, e := range []Entity{topic, pub, sub, w, r} {
		require.True(t, e.InstanceHandle().IsNil())
		require.ErrorIs(t, e.Enable(), ErrPreconditionNotMet)
	}
	require.ErrorIs(t, w.Write(bg, &point{ID: 1}), ErrNotEnabled)

	require.NoError(t, p.Enable())
	for _, e := range []Entity{p, topic, pub, sub, w, r} {
		require.False(t, e.InstanceHandle().IsNil(), "enabled with the participant")
	}
	require.NoError(t, w.Write(bg, &point{ID: 1}))
}

// TestDocEntityEnablingFactoryQos reproduces entity.rst "Enabling Entities": the
// EntityFactoryQosPolicy of an enabled factory decides whether the entities it
// creates are enabled; a disabled entity is enabled with enable(). The policy applies
// to the entities created after it changes (DDS 1.4 ENTITY_FACTORY), not to those
// already created.
func TestDocEntityEnablingFactoryQos(t *testing.T) {
	p := testParticipant(t, nil, nil)
	topic, err := NewTopic[point](p, "t", TypeName("test::Point"))
	require.NoError(t, err)

	// DomainParticipant as factory of publishers, subscribers and topics.
	pq := p.Qos()
	pq.EntityFactory.AutoenableCreatedEntities = false
	require.NoError(t, p.SetQos(pq))
	pub, err := p.NewPublisher()
	require.NoError(t, err)
	sub, err := p.NewSubscriber()
	require.NoError(t, err)
	require.True(t, pub.InstanceHandle().IsNil())
	require.True(t, sub.InstanceHandle().IsNil())
	require.NoError(t, pub.Enable())
	require.NoError(t, sub.Enable())
	require.False(t, pub.InstanceHandle().IsNil())
	require.NoError(t, pub.Enable(), "enabling again: nothing to do")

	// Publisher and Subscriber as factories of writers and readers.
	pubq := pub.Qos()
	pubq.EntityFactory.AutoenableCreatedEntities = false
	require.NoError(t, pub.SetQos(pubq))
	subq := sub.Qos()
	subq.EntityFactory.AutoenableCreatedEntities = false
	require.NoError(t, sub.SetQos(subq))
	w, err := NewWriter(topic, WithPublisher(pub))
	require.NoError(t, err)
	r, err := NewReader(topic, WithSubscriber(sub), WithQos(*reliableReader()))
	require.NoError(t, err)
	require.True(t, w.InstanceHandle().IsNil())
	require.True(t, r.InstanceHandle().IsNil())

	// Back to autoenable: only entities created from now on are enabled.
	pubq.EntityFactory.AutoenableCreatedEntities = true
	require.NoError(t, pub.SetQos(pubq))
	require.True(t, w.InstanceHandle().IsNil(), "created before the change")
	w2, err := NewWriter(topic, WithPublisher(pub))
	require.NoError(t, err)
	require.False(t, w2.InstanceHandle().IsNil(), "created after the change")

	// enable() on the disabled writer and reader: they work.
	require.NoError(t, w.Enable())
	require.NoError(t, r.Enable())
	require.NoError(t, w.Write(bg, &point{ID: 7}))
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	defer cancel()
	data, _, err := r.Take(ctx)
	require.NoError(t, err)
	require.Equal(t, []point{{ID: 7}}, data)
}

// TestDocEntityDisabledOperations reproduces entity.rst "Enabling Entities": a
// disabled entity may set/get its QoS, set/get its listener, create/delete
// subentities, get its statuses and do lookups; "Any other function called in this
// state will return NOT_ENABLED" (ErrNotEnabled), for each of DomainParticipant,
// Publisher, Subscriber, DataWriter and DataReader.
func TestDocEntityDisabledOperations(t *testing.T) {
	p := disabledParticipant(t, &fakeNet{})

	// DomainParticipant.
	require.NoError(t, p.SetQos(p.Qos()))
	require.NoError(t, p.SetListener(ParticipantListener{}))
	_ = p.Listener()
	require.Zero(t, p.StatusChanges())
	require.NotNil(t, p.StatusCondition())
	topic, pub, sub := topicPubSub[point](t, p, "t", "test::Point")
	require.Same(t, topic, p.LookupTopicDescription("t"), "lookup")
	_, err := p.DiscoveredParticipants()
	require.ErrorIs(t, err, ErrNotEnabled)
	_, err = p.CurrentTime()
	require.ErrorIs(t, err, ErrNotEnabled)
	require.ErrorIs(t, p.AssertLiveliness(), ErrNotEnabled)

	// Publisher and DataWriter.
	require.NoError(t, pub.SetQos(pub.Qos()))
	require.NoError(t, pub.SetListener(PublisherListener{}))
	w, err := NewWriter(topic, WithPublisher(pub))
	require.NoError(t, err, "create a subentity")
	require.Same(t, w, pub.LookupDataWriter("t"), "lookup")
	require.NoError(t, w.SetQos(w.Qos()))
	require.NoError(t, w.SetListener(WriterListener[point]{}))
	st, err := w.PublicationMatchedStatus()
	require.NoError(t, err, "statuses, even if they will not change")
	require.Zero(t, st.TotalCount)
	require.ErrorIs(t, w.Write(bg, &point{}), ErrNotEnabled)
	require.ErrorIs(t, w.Dispose(bg, &point{}), ErrNotEnabled)
	_, err = w.Register(&point{})
	require.ErrorIs(t, err, ErrNotEnabled)
	_, err = w.MatchedSubscriptions()
	require.ErrorIs(t, err, ErrNotEnabled)
	require.ErrorIs(t, w.WaitForAcknowledgments(bg), ErrNotEnabled)

	// Subscriber and DataReader.
	require.NoError(t, sub.SetQos(sub.Qos()))
	require.NoError(t, sub.SetListener(SubscriberListener{}))
	r, err := NewReader(topic, WithSubscriber(sub))
	require.NoError(t, err, "create a subentity")
	require.Same(t, r, sub.LookupDataReader("t"), "lookup")
	require.NoError(t, r.SetQos(r.Qos()))
	require.NoError(t, r.SetListener(ReaderListener[point]{}))
	_, err = r.SubscriptionMatchedStatus()
	require.NoError(t, err)
	require.Equal(t, HandleNil, r.LookupInstance(&point{}), "lookup")
	_, _, err = r.Take(bg, NoWait())
	require.ErrorIs(t, err, ErrNotEnabled)
	_, _, err = r.Read(bg, NoWait())
	require.ErrorIs(t, err, ErrNotEnabled)
	_, err = r.MatchedPublications()
	require.ErrorIs(t, err, ErrNotEnabled)
	require.ErrorIs(t, sub.NotifyDataReaders(), ErrNotEnabled)
	require.ErrorIs(t, sub.BeginAccess(), ErrNotEnabled)

	// Delete subentities.
	require.NoError(t, w.Close())
	require.NoError(t, r.Close())
	require.Nil(t, pub.LookupDataWriter("t"))
}

// TestDocListenerStatusMask reproduces entity.rst "Listener": an event "is handled by
// the lowest level entity with a listener that is non-null and has the corresponding
// callback enabled in its StatusMask". A reader listener whose mask leaves
// DATA_AVAILABLE out is not called for it and the participant's listener is.
// StatusMask::none on the reader disables its standard callbacks, and the events go
// up the hierarchy. ddsgo differs from Fast DDS in one respect, deliberately: a
// listener without a mask handles the statuses it has functions for (Fast DDS's
// default mask is all, with no-op callbacks that swallow the others), and a status in
// the mask whose function is nil goes on to the parent.
func TestDocListenerStatusMask(t *testing.T) {
	var rec recorder
	net := &fakeNet{}
	pl := ParticipantListener{}
	pl.OnDataAvailable = func(AnyDataReader) { rec.add("participant:data_available") }
	pl.OnSubscriptionMatched = func(AnyDataReader, listener.SubscriptionMatchedStatus) {
		rec.add("participant:subscription_matched")
	}
	p, err := NewParticipant(0, withEngine(net.factory()), WithListener(pl, listener.MaskAll))
	require.NoError(t, err)
	t.Cleanup(func() {
		require.NoError(t, p.DeleteContainedEntities())
		require.NoError(t, p.Close())
	})
	topic, pub, sub := topicPubSub[point](t, p, "t", "test::Point")
	rl := ReaderListener[point]{
		OnDataAvailable:       func(*DataReader[point]) { rec.add("reader:data_available") },
		OnSubscriptionMatched: func(*DataReader[point], listener.SubscriptionMatchedStatus) { rec.add("reader:subscription_matched") },
	}
	// The mask enables SUBSCRIPTION_MATCHED only.
	r, err := NewReader(topic, WithSubscriber(sub), WithQos(*reliableReader()),
		WithListener(rl, listener.StatusMask(listener.SubscriptionMatched)))
	require.NoError(t, err)
	w, err := NewWriter(topic, WithPublisher(pub))
	require.NoError(t, err)
	p.disp.Sync()
	require.Equal(t, []string{"reader:subscription_matched"}, rec.take(), "in the mask: the reader's")
	require.NoError(t, w.Write(bg, &point{ID: 1}))
	p.disp.Sync()
	require.Equal(t, []string{"participant:data_available"}, rec.take(), "not in the mask: the parent's")

	// Both bits: the reader's listener takes both.
	require.NoError(t, r.SetListener(rl, listener.StatusMask(listener.SubscriptionMatched|listener.DataAvailable)))
	require.NoError(t, w.Write(bg, &point{ID: 2}))
	p.disp.Sync()
	require.Equal(t, []string{"reader:data_available"}, rec.take())

	// StatusMask::none: the reader's standard callbacks are disabled; the event goes up.
	require.NoError(t, r.SetListener(rl, listener.MaskNone))
	require.NoError(t, w.Write(bg, &point{ID: 3}))
	p.disp.Sync()
	require.Equal(t, []string{"participant:data_available"}, rec.take())

	// And with the participant's mask none too, nobody is called; the status stays
	// changed for a read to see.
	require.NoError(t, p.SetListener(pl, listener.MaskNone))
	require.NoError(t, w.Write(bg, &point{ID: 4}))
	p.disp.Sync()
	require.Empty(t, rec.take())
	require.True(t, r.StatusChanges().Has(listener.DataAvailable))

	// ddsgo: no mask means the statuses the listener has functions for.
	require.NoError(t, p.SetListener(pl))
	require.NoError(t, r.SetListener(ReaderListener[point]{
		OnSubscriptionMatched: func(*DataReader[point], listener.SubscriptionMatchedStatus) {},
	}))
	require.NoError(t, w.Write(bg, &point{ID: 5}))
	p.disp.Sync()
	require.Equal(t, []string{"participant:data_available"}, rec.take(), "no function: passed on")
}

// TestDocListenerHierarchy reproduces entity.rst "Listener" (listeners inheritance
// diagram): a status of a DataWriter without a listener for it goes to its
// Publisher's listener, then to the DomainParticipant's; a DataReader's to its
// Subscriber's, then to the DomainParticipant's.
func TestDocListenerHierarchy(t *testing.T) {
	var rec recorder
	pl := ParticipantListener{}
	pl.OnPublicationMatched = func(AnyDataWriter, listener.PublicationMatchedStatus) { rec.add("participant:publication_matched") }
	pl.OnSubscriptionMatched = func(AnyDataReader, listener.SubscriptionMatchedStatus) {
		rec.add("participant:subscription_matched")
	}
	p, err := NewParticipant(0, withEngine((&fakeNet{}).factory()), WithListener(pl))
	require.NoError(t, err)
	t.Cleanup(func() {
		require.NoError(t, p.DeleteContainedEntities())
		require.NoError(t, p.Close())
	})

	// Publisher and subscriber with listeners: they take their endpoints' statuses.
	topic, pub, sub := topicPubSub[point](t, p, "a", "test::Point")
	require.NoError(t, pub.SetListener(PublisherListener{
		OnPublicationMatched: func(AnyDataWriter, listener.PublicationMatchedStatus) { rec.add("publisher:publication_matched") },
	}))
	require.NoError(t, sub.SetListener(SubscriberListener{
		OnSubscriptionMatched: func(AnyDataReader, listener.SubscriptionMatchedStatus) { rec.add("subscriber:subscription_matched") },
	}))
	w, err := NewWriter(topic, WithPublisher(pub))
	require.NoError(t, err)
	_, err = NewReader(topic, WithSubscriber(sub))
	require.NoError(t, err)
	p.disp.Sync()
	require.ElementsMatch(t, []string{"publisher:publication_matched", "subscriber:subscription_matched"}, rec.take())

	// Endpoint listeners take precedence over their parents'.
	require.NoError(t, w.SetListener(WriterListener[point]{
		OnPublicationMatched: func(*DataWriter[point], listener.PublicationMatchedStatus) { rec.add("writer:publication_matched") },
	}))
	_, err = NewReader(topic, WithSubscriber(sub), WithListener(ReaderListener[point]{
		OnSubscriptionMatched: func(*DataReader[point], listener.SubscriptionMatchedStatus) { rec.add("reader:subscription_matched") },
	}))
	require.NoError(t, err)
	p.disp.Sync()
	require.ElementsMatch(t, []string{"writer:publication_matched", "reader:subscription_matched"}, rec.take())

	// Publisher and subscriber without listeners: the participant's.
	topic2, pub2, sub2 := topicPubSub[point](t, p, "b", "test::Point")
	_, err = NewWriter(topic2, WithPublisher(pub2))
	require.NoError(t, err)
	_, err = NewReader(topic2, WithSubscriber(sub2))
	require.NoError(t, err)
	p.disp.Sync()
	require.ElementsMatch(t, []string{"participant:publication_matched", "participant:subscription_matched"}, rec.take())
}

// TestDocListenerDataOnReaders reproduces the note of entity.rst "Listener":
// on_data_on_readers "intercepts messages before" on_data_available: a
// DomainParticipantListener (or SubscriberListener) handling DATA_ON_READERS is called
// instead of the DataReaderListener's on_data_available, and the reader's listener
// gets the data only when DATA_ON_READERS is disabled in the mask (or the subscriber
// calls notify_datareaders). ddsgo differs deliberately where Fast DDS's default mask
// (all) would make a participant listener without on_data_on_readers swallow every
// on_data_available: a ddsgo listener without a mask handles only the statuses it has
// functions for.
func TestDocListenerDataOnReaders(t *testing.T) {
	var rec recorder
	pl := ParticipantListener{}
	pl.OnDataOnReaders = func(*Subscriber) { rec.add("participant:data_on_readers") }
	p, err := NewParticipant(0, withEngine((&fakeNet{}).factory()), WithListener(pl, listener.MaskAll))
	require.NoError(t, err)
	t.Cleanup(func() {
		require.NoError(t, p.DeleteContainedEntities())
		require.NoError(t, p.Close())
	})
	topic, pub, sub := topicPubSub[point](t, p, "t", "test::Point")
	r, err := NewReader(topic, WithSubscriber(sub), WithQos(*reliableReader()), WithListener(ReaderListener[point]{
		OnDataAvailable: func(*DataReader[point]) { rec.add("reader:data_available") },
	}))
	require.NoError(t, err)
	w, err := NewWriter(topic, WithPublisher(pub))
	require.NoError(t, err)
	p.disp.Sync()
	rec.take()

	require.NoError(t, w.Write(bg, &point{ID: 1}))
	p.disp.Sync()
	require.Equal(t, []string{"participant:data_on_readers"}, rec.take(), "intercepted before on_data_available")
	require.True(t, r.StatusChanges().Has(listener.DataAvailable))

	// The subscriber's own on_data_on_readers comes before the participant's; its
	// notify_datareaders calls the readers' on_data_available.
	require.NoError(t, sub.SetListener(SubscriberListener{OnDataOnReaders: func(s *Subscriber) {
		rec.add("subscriber:data_on_readers")
		require.NoError(t, s.NotifyDataReaders())
	}}))
	require.NoError(t, w.Write(bg, &point{ID: 2}))
	p.disp.Sync()
	require.Equal(t, []string{"subscriber:data_on_readers", "reader:data_available"}, rec.take())

	// DATA_ON_READERS disabled in the masks: on_data_available is called.
	require.NoError(t, sub.SetListener(SubscriberListener{}, listener.MaskNone))
	require.NoError(t, p.SetListener(pl, listener.MaskAll&^listener.StatusMask(listener.DataOnReaders)))
	require.NoError(t, w.Write(bg, &point{ID: 3}))
	p.disp.Sync()
	require.Equal(t, []string{"reader:data_available"}, rec.take())

	// ddsgo: a participant listener without OnDataOnReaders does not intercept.
	require.NoError(t, p.SetListener(ParticipantListener{}))
	require.NoError(t, w.Write(bg, &point{ID: 4}))
	p.disp.Sync()
	require.Equal(t, []string{"reader:data_available"}, rec.take())
}
