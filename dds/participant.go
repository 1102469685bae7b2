package dds

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ddsgo/ddsgo/internal/errs"
	"github.com/ddsgo/ddsgo/internal/wake"
	"github.com/ddsgo/ddsgo/waitset"

	"github.com/ddsgo/ddsgo/dds/internal/status"

	"github.com/ddsgo/ddsgo/dds/internal/dispatch"
	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/internal/discovery"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
)

// Local entity kinds of the GUIDs of publishers, subscribers and topics, which RTPS
// does not announce: the group kinds of RTPS 2.5 §9.3.1.2 and a vendor-specific kind
// for topics.
const (
	topicEntityKind = wire.EntityKindVendorFlag | 0x05
)

// participantDefaults are the default QoS a participant gives the entities it creates.
type participantDefaults struct {
	Publisher  qos.PublisherQos
	Subscriber qos.SubscriberQos
	Topic      qos.TopicQos
}

// DomainParticipant is a participant in a DDS domain (DomainParticipant of DDS 1.4
// §2.2.2.2.1): the factory of publishers, subscribers and topics, and the owner of the
// RTPS participant that discovers and talks to the other participants of the domain.
//
// Its entities, local and discovered, live in its entity-component manager (see
// Entities).
type DomainParticipant struct {
	entity

	factory *DomainParticipantFactory
	domain  int
	opts    settings
	now     func() time.Time
	clk     clock // the timers' clock (deadlines)
	// realTime: clk is time.Now, the engine's clock too, so a sample's
	// reception time can be the engine's reading for its datagram (receivedAt).
	realTime bool

	// defMu guards the default publisher and subscriber, made on first use.
	defMu      sync.Mutex
	defaultPub *Publisher
	defaultSub *Subscriber

	// opMu serializes the operations that change the entity graph (create, delete,
	// enable, set QoS); it is held while calling the engine, p.mu is not.
	opMu sync.Mutex
	// mu guards m and what the components hold.
	mu      sync.Mutex
	m       *ecm.Manager
	prefix  wire.GuidPrefix
	nextKey uint32

	serviceIDs atomic.Uint32 // the last client or service id (rpc.go)
	// groupSN numbers the changes of the writers of its grouped publishers, in one
	// order for all of them (coherent.go).
	groupSN atomic.Int64
	// known are the remote writers discovery announced, for group coherent sets.
	known knownWriters

	eng  engine
	disp *dispatch.Dispatcher
	live *livelinessMonitor // the leases of its writers and its readers' writers
	dur  *durabilityService // TRANSIENT and PERSISTENT data (durability.go)
	bt   builtinFeed        // the built-in topics (builtin.go)
	// topicMade is notified when a topic is made: FindTopic waits on it.
	topicMade wake.Signal
	// introStop ends the publication of the introspection topic (introspect.go); nil
	// when it is off.
	introStop chan struct{}
}

func newParticipant(f *DomainParticipantFactory, domain int, q qos.DomainParticipantQos, l Listener, o settings) *DomainParticipant {
	p := &DomainParticipant{
		factory: f,
		domain:  domain,
		opts:    o,
		clk:     o.clock,
		m:       ecm.New(),
		disp:    dispatch.New(),
	}
	if p.clk == nil {
		p.clk = realClock{}
	}
	_, p.realTime = p.clk.(realClock)
	p.now = p.clk.Now
	p.dur = newDurabilityService(p, o.persistDir)
	p.live = newLivelinessMonitor(p.clk, func() { p.eng.AssertLiveliness() }, func(prefix wire.GuidPrefix) time.Time {
		return p.eng.LastHeard(prefix)
	})
	p.mu.Lock()
	p.init(p, nil, kindParticipant, p, l, o.mask)
	ecm.CreateComponent(p.m, p.ent, q)
	ecm.CreateComponent(p.m, p.ent, participantDefaults{
		Publisher:  qos.DefaultPublisherQos(),
		Subscriber: qos.DefaultSubscriberQos(),
		Topic:      qos.DefaultTopicQos(),
	})
	p.mu.Unlock()
	return p
}

// DomainID returns the participant's domain id (get_domain_id).
func (p *DomainParticipant) DomainID() int { return p.domain }

// Enable enables the participant: it starts its RTPS participant, which starts
// discovery, and enables the entities it contains when its ENTITY_FACTORY QoS says so.
func (p *DomainParticipant) Enable() error {
	p.opMu.Lock()
	defer p.opMu.Unlock()
	return p.enable(p)
}

func (p *DomainParticipant) enableSelf() error {
	p.mu.Lock()
	q, _ := ecm.ComponentData[qos.DomainParticipantQos](p.m, p.ent)
	p.mu.Unlock()
	if p.opts.onReceive {
		p.opts.helper = p.disp
	}
	eng, err := p.opts.engine(p.domain, &p.opts, q)
	if err != nil {
		return wrapErr(ErrError, err, "starting the RTPS participant")
	}
	p.eng = eng
	p.mu.Lock()
	p.prefix = eng.GUIDPrefix()
	ecm.SetComponentData(p.m, p.ent, handleComp{status.GUIDHandle(guidBytes(wire.GUID{Prefix: p.prefix, Entity: wire.EntityIDParticipant}))})
	p.mu.Unlock()
	eng.OnParticipant(p.onParticipant)
	eng.OnEndpoint(p.onEndpoint)
	p.bt.start(p, eng)
	eng.OnLiveliness(p.live.remoteAsserted)
	if introspecting() {
		p.introStop = make(chan struct{})
		go p.introspect(p.introStop) // it waits for the enabling to end (opMu)
	}
	return nil
}

// teardown stops the engine.
func (p *DomainParticipant) teardown() {
	if p.introStop != nil {
		close(p.introStop)
	}
	p.live.close()
	p.dur.close()
	if p.eng != nil {
		_ = p.eng.Close()
	}
}

// guidBytes returns the 16 bytes of g.
// guidOf is the GUID of handle h made by guidBytes.
func guidOf(h InstanceHandle) wire.GUID {
	var g wire.GUID
	copy(g.Prefix[:], h[:12])
	copy(g.Entity.Key[:], h[12:15])
	g.Entity.Kind = h[15]
	return g
}

func guidBytes(g wire.GUID) [16]byte {
	var b [16]byte
	copy(b[:], g.Prefix[:])
	copy(b[12:], g.Entity.Key[:])
	b[15] = g.Entity.Kind
	return b
}

// localGUID allocates the handle of a publisher, subscriber or topic; the caller holds
// p.mu.
func (p *DomainParticipant) localHandle(kind byte) InstanceHandle {
	p.nextKey++
	k := p.nextKey
	return status.GUIDHandle(guidBytes(wire.GUID{Prefix: p.prefix, Entity: wire.EntityID{Key: [3]byte{byte(k >> 16), byte(k >> 8), byte(k)}, Kind: kind}}))
}

// enable enables o, and its children when its ENTITY_FACTORY QoS says so. The caller
// holds p.opMu.
func (p *DomainParticipant) enable(o entityObject) error {
	e := o.core()
	if err := e.alive(); err != nil {
		return err
	}
	if e.enabled.Load() {
		return nil
	}
	p.mu.Lock()
	parent := p.parentLocked(e)
	p.mu.Unlock()
	if parent != nil && !parent.enabled.Load() {
		return errorf(ErrPreconditionNotMet, "the entity's factory is not enabled")
	}
	if err := o.enableSelf(); err != nil {
		return err
	}
	p.mu.Lock()
	e.enabled.Store(true) // enabledComp's value
	var children []entityObject
	if p.autoenable(e) {
		children = p.childrenLocked(e)
	}
	p.mu.Unlock()
	// Statuses that changed while the entity was being enabled (a match the engine
	// reported at once) reach the listeners now.
	if ch := e.status.changes.Load(); ch != 0 {
		waitset.Notify(&e.cond)
		p.disp.Post(&e.slot, ch)
	}
	for _, c := range children {
		if err := p.enable(c); err != nil {
			return err
		}
	}
	return nil
}

// autoenable reports whether e's ENTITY_FACTORY enables the entities it creates; the
// caller holds p.mu.
func (p *DomainParticipant) autoenable(e *entity) bool {
	switch e.kind {
	case kindParticipant:
		q, _ := ecm.ComponentData[qos.DomainParticipantQos](p.m, e.ent)
		return q.EntityFactory.AutoenableCreatedEntities
	case kindPublisher:
		q, _ := ecm.ComponentData[qos.PublisherQos](p.m, e.ent)
		return q.EntityFactory.AutoenableCreatedEntities
	case kindSubscriber:
		q, _ := ecm.ComponentData[qos.SubscriberQos](p.m, e.ent)
		return q.EntityFactory.AutoenableCreatedEntities
	default:
		return false
	}
}

// childrenLocked returns the objects of e's children, topics first (writers and
// readers need theirs enabled); the caller holds p.mu.
func (p *DomainParticipant) childrenLocked(e *entity) []entityObject {
	var out []entityObject
	for _, c := range p.m.Children(e.ent) {
		if o, ok := ecm.Get[objComp](p.m, c); ok {
			out = append(out, o.obj)
		}
	}
	slices.SortStableFunc(out, func(a, b entityObject) int {
		ta, tb := a.core().kind == kindTopic, b.core().kind == kindTopic
		switch {
		case ta && !tb:
			return -1
		case tb && !ta:
			return 1
		}
		return 0
	})
	return out
}

// create runs fn, which sets up a new entity under p.mu, and enables the entity when
// its factory is enabled and autoenables; on an enable error the entity is deleted.
func (p *DomainParticipant) create(o entityObject, parent *entity, fn func()) error {
	p.mu.Lock()
	fn()
	auto := parent.enabled.Load() && p.autoenable(parent)
	p.mu.Unlock()
	if !auto {
		return nil
	}
	if err := p.enable(o); err != nil {
		_ = p.remove(o, true)
		return err
	}
	return nil
}

// remove deletes o, and with recursive everything it contains. The caller holds
// p.opMu.
func (p *DomainParticipant) remove(o entityObject, recursive bool) error {
	e := o.core()
	if err := e.alive(); err != nil {
		return err
	}
	p.mu.Lock()
	if !recursive && (len(p.m.Children(e.ent)) > 0 || busy(o)) {
		p.mu.Unlock()
		return errorf(ErrPreconditionNotMet, "the entity still contains entities")
	}
	if e.kind == kindTopic && p.topicInUse(e.ent) {
		p.mu.Unlock()
		return errorf(ErrPreconditionNotMet, "the topic has writers or readers")
	}
	var objs []entityObject
	for _, d := range p.m.Descendants(e.ent) {
		if oc, ok := ecm.Get[objComp](p.m, d); ok {
			oc.obj.core().deleted.Store(true)
			objs = append(objs, oc.obj)
		}
	}
	p.m.RequestRemoveEntity(e.ent, true)
	p.m.ProcessRemoveEntityRequests()
	p.mu.Unlock()
	// Descendants come in creation order: tear the children down first. Their
	// StatusConditions, triggered now, wake the WaitSets waiting on them.
	for i := len(objs) - 1; i >= 0; i-- {
		objs[i].teardown()
		waitset.Notify(&objs[i].core().cond)
		objs[i].core().changed.Notify()
	}
	return nil
}

// busier is implemented by entities that contain things other than entities (a reader's
// conditions).
type busier interface{ busy() bool }

func busy(o entityObject) bool {
	b, ok := o.(busier)
	return ok && b.busy()
}

// topicInUse reports whether a writer or reader uses topic t; the caller holds p.mu.
func (p *DomainParticipant) topicInUse(t ecm.Entity) bool {
	used := false
	ecm.EachRO1(p.m, func(_ ecm.Entity, r topicRefComp) bool {
		used = r.Topic == t
		return !used
	})
	return used
}

// deleteChildren deletes the children of e, and what they contain: not-topic children
// first, since topics cannot go while writers or readers use them.
func (p *DomainParticipant) deleteChildren(e *entity) error {
	if err := e.alive(); err != nil {
		return err
	}
	p.mu.Lock()
	children := p.childrenLocked(e)
	p.mu.Unlock()
	slices.Reverse(children) // topics last
	for _, c := range children {
		if err := p.remove(c, true); err != nil && !errors.Is(err, ErrAlreadyDeleted) {
			return err
		}
	}
	return nil
}

// DeleteContainedEntities deletes every publisher, subscriber and topic of the
// participant, with their writers, readers and conditions (delete_contained_entities):
// a recursive removal from the participant's entity graph.
func (p *DomainParticipant) DeleteContainedEntities() error {
	p.opMu.Lock()
	defer p.opMu.Unlock()
	return p.deleteChildren(&p.entity)
}

// Close deletes the participant and everything it contains (delete_contained_entities,
// then delete_participant): its reliable writers first linger until their readers
// acknowledged what they wrote, at most rtps.Config.WriterLinger; then the RTPS
// participant announces its end and stops. Every WaitSet waiting on a condition of the
// participant's entities wakes up: a deleted entity's StatusCondition is triggered. A
// listener function running when Close is called finishes first, unless Close is
// called from that function. Closing a closed participant does nothing.
func (p *DomainParticipant) Close() error {
	p.opMu.Lock()
	if p.deleted.Load() {
		p.opMu.Unlock()
		return nil
	}
	err := p.deleteChildren(&p.entity)
	p.mu.Lock()
	p.deleted.Store(true)
	p.mu.Unlock()
	p.teardown()
	p.opMu.Unlock()
	waitset.Notify(&p.cond)
	p.changed.Notify()
	p.disp.Close()
	p.factory.forget(p)
	return err
}

// closeEntity deletes o and what it contains, or with recursive false fails when it
// contains something; deleting a deleted entity does nothing.
func (p *DomainParticipant) closeEntity(o entityObject, recursive bool) error {
	p.opMu.Lock()
	defer p.opMu.Unlock()
	if o.core().deleted.Load() {
		return nil
	}
	return p.remove(o, recursive)
}

// Qos returns the participant's QoS (get_qos).
func (p *DomainParticipant) Qos() qos.DomainParticipantQos {
	p.mu.Lock()
	defer p.mu.Unlock()
	q, _ := ecm.ComponentData[qos.DomainParticipantQos](p.m, p.ent)
	return q.Clone()
}

// SetQos changes the participant's QoS (set_qos). A new USER_DATA is announced at once
// (SPDP) to the participants known, whose built-in DCPSParticipant readers see it.
func (p *DomainParticipant) SetQos(q qos.DomainParticipantQos) error {
	p.opMu.Lock()
	defer p.opMu.Unlock()
	old := getQos[qos.DomainParticipantQos](&p.entity)
	if err := setQos(&p.entity, q); err != nil {
		return err
	}
	if p.enabled.Load() && !bytes.Equal(old.UserData.Value, q.UserData.Value) {
		if err := p.eng.SetUserData(q.UserData.Value); err != nil {
			return wrapErr(ErrError, err, "announcing the participant")
		}
	}
	return nil
}

// Listener returns the participant's listener (get_listener).
func (p *DomainParticipant) Listener() ParticipantListener {
	l, _ := p.listener().(ParticipantListener)
	return l
}

// SetListener sets the participant's listener and the statuses it handles (set_listener):
// with no mask, those it has functions for; WithListener tells the rules.
func (p *DomainParticipant) SetListener(l ParticipantListener, mask ...listener.StatusMask) error {
	return p.setListener(l, mask)
}

// listener returns e's listener.
func (e *entity) listener() Listener {
	e.p.mu.Lock()
	defer e.p.mu.Unlock()
	lc, _ := ecm.ComponentData[listenerComp](e.p.m, e.ent)
	return lc.Listener
}

func (e *entity) setListener(l Listener, masks []listener.StatusMask) error {
	if err := e.alive(); err != nil {
		return err
	}
	mask, err := effectiveMask(l, masks)
	if err != nil {
		return err
	}
	e.p.mu.Lock()
	defer e.p.mu.Unlock()
	e.setListenerLocked(l, mask)
	return nil
}

// qosValue is the method set of the QoS types of the entities.
type qosValue[Q any] interface {
	Validate() error
	CheckChange(next Q) error
	Clone() Q
}

// setQos validates q and stores it as e's QoS; once e is enabled, only changeable
// policies may change.
func setQos[Q qosValue[Q]](e *entity, q Q) error {
	if err := e.alive(); err != nil {
		return err
	}
	if err := q.Validate(); err != nil {
		return qosErr(err)
	}
	p := e.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if e.enabled.Load() {
		cur, _ := ecm.ComponentData[Q](p.m, e.ent)
		if err := cur.CheckChange(q); err != nil {
			return qosErr(err)
		}
	}
	ecm.SetComponentData(p.m, e.ent, q.Clone())
	return nil
}

// getQos returns a copy of e's QoS of type Q.
func getQos[Q qosValue[Q]](e *entity) Q {
	e.p.mu.Lock()
	defer e.p.mu.Unlock()
	q, _ := ecm.ComponentData[Q](e.p.m, e.ent)
	return q.Clone()
}

// defaults returns the participant's default QoS.
func (p *DomainParticipant) defaults() participantDefaults {
	p.mu.Lock()
	defer p.mu.Unlock()
	d, _ := ecm.ComponentData[participantDefaults](p.m, p.ent)
	return d
}

// setDefault validates q and stores it as the default QoS field picks.
func setDefault[Q qosValue[Q]](p *DomainParticipant, q Q, field func(*participantDefaults) *Q) error {
	if err := q.Validate(); err != nil {
		return qosErr(err)
	}
	if err := p.alive(); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	d, _ := ecm.ComponentData[participantDefaults](p.m, p.ent)
	*field(&d) = q.Clone()
	ecm.SetComponentData(p.m, p.ent, d)
	return nil
}

// DefaultPublisherQos returns the QoS NewPublisher starts from.
func (p *DomainParticipant) DefaultPublisherQos() qos.PublisherQos {
	return p.defaults().Publisher.Clone()
}

// SetDefaultPublisherQos sets the QoS NewPublisher starts from.
func (p *DomainParticipant) SetDefaultPublisherQos(q qos.PublisherQos) error {
	return setDefault(p, q, func(d *participantDefaults) *qos.PublisherQos { return &d.Publisher })
}

// DefaultSubscriberQos returns the QoS NewSubscriber starts from.
func (p *DomainParticipant) DefaultSubscriberQos() qos.SubscriberQos {
	return p.defaults().Subscriber.Clone()
}

// SetDefaultSubscriberQos sets the QoS NewSubscriber starts from.
func (p *DomainParticipant) SetDefaultSubscriberQos(q qos.SubscriberQos) error {
	return setDefault(p, q, func(d *participantDefaults) *qos.SubscriberQos { return &d.Subscriber })
}

// DefaultTopicQos returns the QoS NewTopic starts from.
func (p *DomainParticipant) DefaultTopicQos() qos.TopicQos {
	return p.defaults().Topic.Clone()
}

// SetDefaultTopicQos sets the QoS NewTopic starts from.
func (p *DomainParticipant) SetDefaultTopicQos(q qos.TopicQos) error {
	return setDefault(p, q, func(d *participantDefaults) *qos.TopicQos { return &d.Topic })
}

// NewPublisher creates a publisher (create_publisher) with the participant's default
// publisher QoS changed by opts: Partition, WithQos(qos.PublisherQos), WithListener with
// a PublisherListener. It is enabled when the participant is and its ENTITY_FACTORY QoS
// autoenables. NewWriter without WithPublisher uses a default publisher instead.
func (p *DomainParticipant) NewPublisher(opts ...Option) (*Publisher, error) {
	bind := func(s *settings, q *qos.PublisherQos) { s.publisher = q }
	return newGroup[*Publisher, qos.PublisherQos, PublisherListener](p, &Publisher{}, kindPublisher, "publisher", bind,
		func(d participantDefaults) qos.PublisherQos { return d.Publisher },
		publisherDefaults{qos.DefaultDataWriterQos()}, opts)
}

// NewSubscriber creates a subscriber (create_subscriber) with the participant's default
// subscriber QoS changed by opts: Partition, WithQos(qos.SubscriberQos), WithListener
// with a SubscriberListener. NewReader without WithSubscriber uses a default subscriber
// instead.
func (p *DomainParticipant) NewSubscriber(opts ...Option) (*Subscriber, error) {
	bind := func(s *settings, q *qos.SubscriberQos) { s.subscriber = q }
	return newGroup[*Subscriber, qos.SubscriberQos, SubscriberListener](p, &Subscriber{}, kindSubscriber, "subscriber", bind,
		func(d participantDefaults) qos.SubscriberQos { return d.Subscriber },
		subscriberDefaults{qos.DefaultDataReaderQos()}, opts)
}

// newGroup adds the publisher or subscriber o to p and returns it: its QoS is p's
// default for its kind (dflt) changed by opts, its listener an L, and D the default QoS
// of its endpoints.
func newGroup[G entityObject, Q qosValue[Q], L Listener, D any](p *DomainParticipant, o G, kind entityKind, what string,
	bind func(*settings, *Q), dflt func(participantDefaults) Q, endpoints D, opts []Option,
) (G, error) {
	var none G
	if err := p.alive(); err != nil {
		return none, err
	}
	q := dflt(p.defaults())
	s := settings{what: what}
	bind(&s, &q)
	if err := s.apply(opts); err != nil {
		return none, err
	}
	if err := q.Validate(); err != nil {
		return none, qosErr(err)
	}
	l, err := listenerFor[L](s.listener, what)
	if err != nil {
		return none, err
	}
	p.opMu.Lock()
	defer p.opMu.Unlock()
	e := o.core()
	err = p.create(o, &p.entity, func() {
		e.init(p, &p.entity, kind, o, l, s.mask)
		ecm.CreateComponent(p.m, e.ent, q)
		ecm.CreateComponent(p.m, e.ent, endpoints)
	})
	if err != nil {
		return none, err
	}
	return o, nil
}

// defaultPublisher returns the publisher of the writers made without WithPublisher,
// creating it on first use.
func (p *DomainParticipant) defaultPublisher() (*Publisher, error) {
	return defaultGroup(p, &p.defaultPub, p.NewPublisher)
}

// defaultSubscriber returns the subscriber of the readers made without WithSubscriber,
// creating it on first use.
func (p *DomainParticipant) defaultSubscriber() (*Subscriber, error) {
	return defaultGroup(p, &p.defaultSub, p.NewSubscriber)
}

// defaultGroup returns the default publisher or subscriber in *g, creating it with
// create when there is none or it was deleted.
func defaultGroup[G interface {
	comparable
	entityObject
}](p *DomainParticipant, g *G, create func(...Option) (G, error),
) (G, error) {
	p.defMu.Lock()
	defer p.defMu.Unlock()
	var none G
	if *g == none || (*g).core().deleted.Load() {
		n, err := create()
		if err != nil {
			return none, err
		}
		*g = n
	}
	return *g, nil
}

// lookupTopic returns the first topic named name.
func (p *DomainParticipant) lookupTopic(name string) TopicDescription {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range p.m.ChildrenByComponents(p.ent, ecm.Match(kindComp{kindTopic})) {
		n, _ := ecm.ComponentData[nameComp](p.m, e)
		if n.Topic == name {
			o, _ := ecm.ComponentData[objComp](p.m, e)
			return o.obj.(TopicDescription)
		}
	}
	return nil
}

// LookupTopicDescription returns the participant's topic named name, or nil
// (lookup_topicdescription).
func (p *DomainParticipant) LookupTopicDescription(name string) TopicDescription {
	if t := p.lookupTopic(name); t != nil {
		return t
	}
	return nil
}

// FindTopic waits until the participant has a topic named name and returns it
// (find_topic). Only local topics are found: the returned Topic is the one
// NewTopic made, not a separate proxy. When ctx ends first the error is ctx's, wrapped.
func (p *DomainParticipant) FindTopic(ctx context.Context, name string) (TopicDescription, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	for {
		made, gone := p.topicMade.Wait(), p.changed.Wait()
		if t := p.lookupTopic(name); t != nil {
			return t, nil
		}
		select {
		case <-ctx.Done():
			return nil, errs.Context(ctx.Err(), "finding topic "+name)
		case <-made:
		case <-gone: // deleted, perhaps
			if err := p.check(); err != nil {
				return nil, err
			}
		}
	}
}

// AssertLiveliness asserts the liveliness of the participant (assert_liveliness): it
// renews the leases of its MANUAL_BY_PARTICIPANT writers and sends their readers a
// MANUAL_LIVELINESS_UPDATE participant message (at most one per quarter of the
// shortest of those leases; none when the participant has no such writer). AUTOMATIC
// writers need nothing: the participant asserts them with its participant messages.
func (p *DomainParticipant) AssertLiveliness() error {
	if err := p.check(); err != nil {
		return err
	}
	p.live.assertManual()
	return nil
}

// CurrentTime returns the participant's current time (get_current_time).
func (p *DomainParticipant) CurrentTime() (time.Time, error) {
	if err := p.check(); err != nil {
		return time.Time{}, err
	}
	return p.now(), nil
}

// ContainsEntity reports whether h is the handle of an entity the participant contains,
// directly or not (contains_entity).
func (p *DomainParticipant) ContainsEntity(h InstanceHandle) (bool, error) {
	if err := p.check(); err != nil {
		return false, err
	}
	if h.IsNil() {
		return false, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range p.m.EntitiesByComponents(ecm.Match(handleComp{h})) {
		if e == p.ent {
			continue
		}
		if k, _ := ecm.ComponentData[kindComp](p.m, e); k.Kind <= kindReader {
			return true, nil
		}
	}
	return false, nil
}

// DiscoveredParticipants returns the handles of the participants discovered in the
// domain (get_discovered_participants).
func (p *DomainParticipant) DiscoveredParticipants() ([]InstanceHandle, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []InstanceHandle
	ecm.EachRO2(p.m, func(_ ecm.Entity, k kindComp, h handleComp) bool {
		if k.Kind == kindRemoteParticipant {
			out = append(out, h.Handle)
		}
		return true
	})
	return out, nil
}

// DiscoveredPublications returns every remote writer discovery knows of, matched with a
// local reader or not (the DCPSPublication builtin topic's contents).
func (p *DomainParticipant) DiscoveredPublications() ([]EndpointBuiltinTopicData, error) {
	return p.discoveredEndpoints(true)
}

// DiscoveredSubscriptions returns every remote reader discovery knows of, matched with a
// local writer or not (the DCPSSubscription builtin topic's contents).
func (p *DomainParticipant) DiscoveredSubscriptions() ([]EndpointBuiltinTopicData, error) {
	return p.discoveredEndpoints(false)
}

func (p *DomainParticipant) discoveredEndpoints(writers bool) ([]EndpointBuiltinTopicData, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	var out []EndpointBuiltinTopicData
	eps := p.eng.Endpoints()
	for i := range eps {
		if eps[i].IsWriter() == writers {
			out = append(out, endpointData(&eps[i]))
		}
	}
	return out, nil
}

// DiscoveredTopics returns the handles of the topics of the domain
// (get_discovered_topics): those the DCPSTopic built-in topic shows, a topic name and
// type name used by a local topic or by a local or discovered endpoint, but the topics
// ignored (IgnoreTopic).
func (p *DomainParticipant) DiscoveredTopics() ([]InstanceHandle, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	ts := p.bt.topicList()
	out := make([]InstanceHandle, len(ts))
	for i := range ts {
		out[i] = ts[i].Key
	}
	return out, nil
}

// DiscoveredTopicData returns the DCPSTopic sample of topic h (get_discovered_topic_data);
// ErrPreconditionNotMet when h is not one of DiscoveredTopics.
func (p *DomainParticipant) DiscoveredTopicData(h InstanceHandle) (TopicBuiltinTopicData, error) {
	if err := p.check(); err != nil {
		return TopicBuiltinTopicData{}, err
	}
	for _, t := range p.bt.topicList() {
		if t.Key == h {
			return t, nil
		}
	}
	return TopicBuiltinTopicData{}, errorf(ErrPreconditionNotMet, "no discovered topic %v", h)
}

// DiscoveredParticipantData returns what the discovered participant h announced
// (get_discovered_participant_data); ErrPreconditionNotMet when h is not one (the
// spec's error for a handle that is not a discovered participant's).
func (p *DomainParticipant) DiscoveredParticipantData(h InstanceHandle) (ParticipantBuiltinTopicData, error) {
	if err := p.check(); err != nil {
		return ParticipantBuiltinTopicData{}, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	e := p.m.EntityByComponents(ecm.Match(kindComp{kindRemoteParticipant}), ecm.Match(handleComp{h}))
	d, ok := ecm.ComponentData[remoteParticipantComp](p.m, e)
	if !ok {
		return ParticipantBuiltinTopicData{}, errorf(ErrPreconditionNotMet, "no discovered participant %v", h)
	}
	return d.Data, nil
}

// entities calls fn with a read-only view of the participant's entity-component
// manager, under the participant's lock: fn must not call the participant. Every entity
// of the participant is an ECM entity, with containment as the parent graph; the
// discovered participants are roots with their matched endpoints as children. (Not
// exported: it would run user code under the lock, on component types a user cannot
// name; the introspection topic is the public view.)
func (p *DomainParticipant) entities(fn func(r ecm.Reader)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fn(p.m.Reader())
}

// onParticipant records a participant discovered or lost.
func (p *DomainParticipant) onParticipant(d discovery.ParticipantData, alive bool) {
	h := status.GUIDHandle(guidBytes(d.GUID()))
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.deleted.Load() || d.GUIDPrefix == p.prefix {
		return
	}
	e := p.m.EntityByComponents(ecm.Match(kindComp{kindRemoteParticipant}), ecm.Match(handleComp{h}))
	if !alive {
		// Matches are recorded before this event arrives (match.go): a participant
		// with endpoints again came back in the meantime, and stays.
		if e != ecm.Null && len(p.m.Children(e)) == 0 {
			p.m.RequestRemoveEntity(e, true)
			p.m.ProcessRemoveEntityRequests()
		}
		return
	}
	if e == ecm.Null {
		e = p.m.CreateEntity()
		ecm.CreateComponent(p.m, e, kindComp{kindRemoteParticipant})
		ecm.CreateComponent(p.m, e, handleComp{h})
	}
	ecm.SetComponentData(p.m, e, remoteParticipantComp{participantData(h, &d)})
}

// remoteParticipant returns the entity of the discovered participant with prefix
// prefix, creating it if needed; the caller holds p.mu.
func (p *DomainParticipant) remoteParticipant(prefix wire.GuidPrefix) ecm.Entity {
	h := status.GUIDHandle(guidBytes(wire.GUID{Prefix: prefix, Entity: wire.EntityIDParticipant}))
	e := p.m.EntityByComponents(ecm.Match(kindComp{kindRemoteParticipant}), ecm.Match(handleComp{h}))
	if e == ecm.Null {
		e = p.m.CreateEntity()
		ecm.CreateComponent(p.m, e, kindComp{kindRemoteParticipant})
		ecm.CreateComponent(p.m, e, handleComp{h})
		ecm.CreateComponent(p.m, e, remoteParticipantComp{ParticipantBuiltinTopicData{Key: h}})
	}
	return e
}
