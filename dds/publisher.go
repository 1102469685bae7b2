package dds

import (
	"context"

	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
)

// publisherDefaults is the default writer QoS of a publisher.
type publisherDefaults struct{ Writer qos.DataWriterQos }

// Publisher groups DataWriters (Publisher of DDS 1.4 §2.2.2.4.1). Make one with
// DomainParticipant.NewPublisher and give it to NewWriter with WithPublisher.
type Publisher struct {
	entity
	coh coherentPub // coherent.go
}

// AnyDataWriter is a DataWriter[T] of any T.
type AnyDataWriter interface {
	Entity
	TopicDescription() TopicDescription
	Publisher() *Publisher
	core() *entity
}

// Participant returns the participant that created the publisher.
func (pub *Publisher) Participant() *DomainParticipant { return pub.p }

// Enable enables the publisher, and its writers when its ENTITY_FACTORY QoS
// autoenables (enable).
func (pub *Publisher) Enable() error {
	pub.p.opMu.Lock()
	defer pub.p.opMu.Unlock()
	return pub.p.enable(pub)
}

func (pub *Publisher) enableSelf() error {
	pub.p.mu.Lock()
	defer pub.p.mu.Unlock()
	ecm.SetComponentData(pub.p.m, pub.ent, handleComp{pub.p.localHandle(0x08)})
	return nil
}

func (pub *Publisher) teardown() {}

// Qos returns the publisher's QoS (get_qos).
func (pub *Publisher) Qos() qos.PublisherQos { return getQos[qos.PublisherQos](&pub.entity) }

// SetQos changes the publisher's QoS (set_qos). A change of PARTITION or GROUP_DATA is
// announced again for every writer.
func (pub *Publisher) SetQos(q qos.PublisherQos) error {
	pub.p.opMu.Lock()
	defer pub.p.opMu.Unlock()
	if err := setQos(&pub.entity, q); err != nil {
		return err
	}
	return pub.p.reannounceChildren(&pub.entity)
}

// Listener returns the publisher's listener (get_listener).
func (pub *Publisher) Listener() PublisherListener {
	l, _ := pub.listener().(PublisherListener)
	return l
}

// SetListener sets the publisher's listener and the statuses it handles (set_listener):
// with no mask, those it has functions for; WithListener tells the rules.
func (pub *Publisher) SetListener(l PublisherListener, mask ...listener.StatusMask) error {
	return pub.setListener(l, mask)
}

// DefaultDataWriterQos returns the QoS NewWriter starts from.
func (pub *Publisher) DefaultDataWriterQos() qos.DataWriterQos {
	pub.p.mu.Lock()
	defer pub.p.mu.Unlock()
	d, _ := ecm.ComponentData[publisherDefaults](pub.p.m, pub.ent)
	return d.Writer.Clone()
}

// SetDefaultDataWriterQos sets the QoS NewWriter starts from.
func (pub *Publisher) SetDefaultDataWriterQos(q qos.DataWriterQos) error {
	if err := pub.alive(); err != nil {
		return err
	}
	if err := q.Validate(); err != nil {
		return qosErr(err)
	}
	pub.p.mu.Lock()
	defer pub.p.mu.Unlock()
	ecm.SetComponentData(pub.p.m, pub.ent, publisherDefaults{q.Clone()})
	return nil
}

// Close deletes the publisher and its writers (delete_contained_entities, then
// delete_publisher); the writers linger for acknowledgments as DataWriter.Close says.
// Closing a closed publisher does nothing.
func (pub *Publisher) Close() error { return pub.p.closeEntity(pub, true) }

// LookupDataWriter returns a writer of the publisher on the topic named topic, or nil
// (lookup_datawriter).
func (pub *Publisher) LookupDataWriter(topic string) AnyDataWriter {
	o := pub.p.lookupEndpoint(&pub.entity, topic)
	if o == nil {
		return nil
	}
	return o.(AnyDataWriter)
}

// lookupEndpoint returns the first child of e on topic.
func (p *DomainParticipant) lookupEndpoint(e *entity, topic string) entityObject {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.m.Children(e.ent) {
		if n, ok := ecm.ComponentData[nameComp](p.m, c); ok && n.Topic == topic {
			o, _ := ecm.ComponentData[objComp](p.m, c)
			return o.obj
		}
	}
	return nil
}

// DeleteContainedEntities deletes every writer of the publisher
// (delete_contained_entities).
func (pub *Publisher) DeleteContainedEntities() error {
	pub.p.opMu.Lock()
	defer pub.p.opMu.Unlock()
	return pub.p.deleteChildren(&pub.entity)
}

// SuspendPublications is accepted and does nothing: writes are sent at once
// (suspend_publications is a hint).
func (pub *Publisher) SuspendPublications() error { return pub.check() }

// ResumePublications ends SuspendPublications (resume_publications); it does nothing.
func (pub *Publisher) ResumePublications() error { return pub.check() }

// WaitForAcknowledgments waits until every writer of the publisher has its data
// acknowledged by its reliable readers (wait_for_acknowledgments). When ctx ends first
// the error is ctx's, wrapped.
func (pub *Publisher) WaitForAcknowledgments(ctx context.Context) error {
	if err := pub.check(); err != nil {
		return err
	}
	pub.p.mu.Lock()
	children := pub.p.childrenLocked(&pub.entity)
	pub.p.mu.Unlock()
	for _, c := range children {
		if w, ok := c.(interface {
			WaitForAcknowledgments(context.Context) error
		}); ok {
			if err := w.WaitForAcknowledgments(ctx); err != nil {
				return err
			}
		}
	}
	return nil
}

// announcer is an endpoint whose announced QoS depends on its parent's.
type announcer interface{ reannounce() error }

// reannounceChildren announces again the children of e; the caller holds p.opMu.
func (p *DomainParticipant) reannounceChildren(e *entity) error {
	if !e.enabled.Load() {
		return nil
	}
	p.mu.Lock()
	children := p.childrenLocked(e)
	p.mu.Unlock()
	for _, c := range children {
		if a, ok := c.(announcer); ok && c.core().enabled.Load() {
			if err := a.reannounce(); err != nil {
				return err
			}
		}
	}
	return nil
}

// reannounceUsers re-announces the enabled writers and readers of the topic t (their
// SEDP data carries its TOPIC_DATA).
func (p *DomainParticipant) reannounceUsers(t ecm.Entity) error {
	var users []announcer
	p.mu.Lock()
	ecm.EachRO1(p.m, func(e ecm.Entity, r topicRefComp) bool {
		if oc, ok := ecm.Get[objComp](p.m, e); ok && r.Topic == t && oc.obj.core().enabled.Load() {
			if a, ok := oc.obj.(announcer); ok {
				users = append(users, a)
			}
		}
		return true
	})
	p.mu.Unlock()
	for _, a := range users {
		if err := a.reannounce(); err != nil {
			return err
		}
	}
	return nil
}
