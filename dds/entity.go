package dds

import (
	"sync"
	"sync/atomic"

	"github.com/ddsgo/ddsgo/dds/internal/status"

	"github.com/ddsgo/ddsgo/dds/internal/dispatch"
	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/internal/wake"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/waitset"
)

// Entity is what every DCPS entity has (Entity of DDS 1.4 §2.2.2.1.2): its handle,
// enabling, its StatusCondition and its changed statuses. The entities are
// *DomainParticipant, *Publisher, *Subscriber, *Topic, *DataWriter[T] and
// *DataReader[T].
type Entity interface {
	// InstanceHandle returns the entity's handle, made from its GUID. It is HandleNil
	// until the entity is enabled.
	InstanceHandle() InstanceHandle
	// Enable enables the entity.
	Enable() error
	// StatusCondition returns the entity's StatusCondition.
	StatusCondition() *StatusCondition
	// StatusChanges returns the statuses changed since they were last read.
	StatusChanges() listener.StatusMask
}

// entityKind is the kind of an entity of the participant's ECM.
type entityKind uint8

const (
	kindParticipant entityKind = iota + 1
	kindPublisher
	kindSubscriber
	kindTopic
	kindWriter
	kindReader
	kindRemoteParticipant
	kindRemoteWriter
	kindRemoteReader
)

// The ECM components of the entities of a participant.
type (
	// kindComp says what the entity is.
	kindComp struct{ Kind entityKind }
	// handleComp is the entity's handle (its GUID); HandleNil until enabled.
	handleComp struct{ Handle InstanceHandle }
	// enabledComp is the enabled flag: the entity's own atomic, so that the hot paths
	// read it without the participant's lock and the ECM holds the one copy.
	enabledComp struct{ Enabled *atomic.Bool }
	// nameComp is a topic's name and type name, or an endpoint's topic's.
	nameComp struct{ Topic, Type string }
	// listenerComp is the listener and its mask.
	listenerComp struct {
		Listener Listener
		Mask     listener.StatusMask
	}
	// objComp refers to the Go object of a local entity.
	objComp struct{ obj entityObject }
	// topicRefComp is the topic entity a writer or reader uses.
	topicRefComp struct{ Topic ecm.Entity }
	// matchesComp is the list of remote endpoints matched with a local endpoint.
	matchesComp struct{ Handles []InstanceHandle }
	// remoteParticipantComp is what a discovered participant announced.
	remoteParticipantComp struct{ Data ParticipantBuiltinTopicData }
	// remoteEndpointComp is what a matched remote endpoint announced, and the number of
	// local endpoints matched with it.
	remoteEndpointComp struct {
		Data EndpointBuiltinTopicData
		Refs int
	}
	// statusComp refers to the status block of a local entity.
	statusComp struct{ s *statusBlock }
)

// entityObject is a local entity's Go object.
type entityObject interface {
	InstanceHandle() InstanceHandle
	core() *entity
	// enableSelf enables the entity alone (its parent is enabled); called with the
	// participant's op lock held, not its lock.
	enableSelf() error
	// teardown releases the entity's resources after it left the ECM: it closes the
	// engine endpoint. Called with the op lock held, not the participant's lock.
	teardown()
}

// entity is the part of every local entity the package handles alike.
type entity struct {
	p    *DomainParticipant
	ent  ecm.Entity
	kind entityKind
	self entityObject

	enabled atomic.Bool // the value of the entity's enabledComp
	deleted atomic.Bool
	// reach is the statuses that a listener of the entity or of one containing it
	// takes: what the hot paths check before posting to the dispatcher. It is derived
	// from the listenerComps of the entity and its ancestors in the ECM, by
	// deriveReachLocked only.
	reach atomic.Uint32

	status statusBlock
	cond   StatusCondition
	slot   dispatch.Slot
	// changed is notified with the StatusCondition, at every change of a status but
	// DATA_AVAILABLE and DATA_ON_READERS, and when the entity is deleted: what the
	// library's own waits for a status (a match) wait on.
	changed wake.Signal
}

// statusBlock keeps the communication statuses of an entity. changes is the
// status-changed mask, written under mu and read atomically.
type statusBlock struct {
	mu           sync.Mutex
	changes      atomic.Uint32
	matched      status.MatchedCounter
	incompatible status.IncompatibleQosCounter
	deadline     status.Counter
	livelinessL  status.Counter
	liveliness   status.LivelinessCounter
	sampleLost   status.Counter
	rejected     status.SampleRejectedCounter
	inconsistent status.Counter
}

// setChanged marks k changed; the caller holds s.mu.
func (s *statusBlock) setChanged(k listener.StatusKind) { s.changes.Or(uint32(k)) }

// clearChanged marks k read.
func (s *statusBlock) clearChanged(k listener.StatusKind) { s.changes.And(^uint32(k)) }

// InstanceHandle returns the entity's handle, made from its GUID; HandleNil while it is
// not enabled.
func (e *entity) InstanceHandle() InstanceHandle {
	e.p.mu.Lock()
	defer e.p.mu.Unlock()
	if e.deleted.Load() {
		return HandleNil
	}
	h, _ := ecm.ComponentData[handleComp](e.p.m, e.ent)
	return h.Handle
}

// StatusCondition returns the entity's StatusCondition (get_statuscondition).
func (e *entity) StatusCondition() *StatusCondition { return &e.cond }

// StatusChanges returns the statuses that changed since they were last read
// (get_status_changes).
func (e *entity) StatusChanges() listener.StatusMask {
	return listener.StatusMask(e.status.changes.Load())
}

// core returns e.
func (e *entity) core() *entity { return e }

// init sets up e as a new entity of p under parent; the caller holds p.mu and adds the
// kind's components after.
func (e *entity) init(p *DomainParticipant, parent *entity, kind entityKind, self entityObject, l Listener, mask listener.StatusMask) {
	e.p, e.kind, e.self = p, kind, self
	e.cond.e = e
	e.cond.enabled.Store(uint32(listener.MaskAll))
	e.slot.Handle = e.dispatch
	e.ent = p.m.CreateEntity()
	ecm.CreateComponent(p.m, e.ent, kindComp{kind})
	ecm.CreateComponent(p.m, e.ent, handleComp{})
	ecm.CreateComponent(p.m, e.ent, enabledComp{&e.enabled})
	ecm.CreateComponent(p.m, e.ent, objComp{self})
	ecm.CreateComponent(p.m, e.ent, statusComp{&e.status})
	if parent != nil {
		p.m.SetParentEntity(e.ent, parent.ent)
	}
	e.setListenerLocked(l, mask)
}

// setListenerLocked stores the listener and derives the reach of the entity and of
// those it contains; the caller holds p.mu.
func (e *entity) setListenerLocked(l Listener, mask listener.StatusMask) {
	ecm.SetComponentData(e.p.m, e.ent, listenerComp{Listener: l, Mask: mask})
	e.p.deriveReachLocked(e.ent)
	for _, d := range e.p.m.Descendants(e.ent) { // in creation order: parents first
		e.p.deriveReachLocked(d)
	}
}

// deriveReachLocked sets the reach of the local entity x from its listener and its
// parent's reach; the caller holds p.mu.
func (p *DomainParticipant) deriveReachLocked(x ecm.Entity) {
	e := p.localLocked(x)
	if e == nil {
		return
	}
	var reach uint32
	if lc, ok := ecm.Get[listenerComp](p.m, x); ok && lc.Listener != nil {
		reach = uint32(lc.Mask)
	}
	if par := p.parentLocked(e); par != nil {
		reach |= par.reach.Load()
	}
	e.reach.Store(reach)
}

// localLocked returns the local entity x, or nil for another (a remote one); the caller
// holds p.mu.
func (p *DomainParticipant) localLocked(x ecm.Entity) *entity {
	if oc, ok := ecm.Get[objComp](p.m, x); ok && oc.obj != nil {
		return oc.obj.core()
	}
	return nil
}

// parentLocked returns the local entity that contains e, nil for the participant; the
// caller holds p.mu.
func (p *DomainParticipant) parentLocked(e *entity) *entity {
	if par := p.m.ParentEntity(e.ent); par != ecm.Null {
		return p.localLocked(par)
	}
	return nil
}

// check returns ErrAlreadyDeleted for a deleted entity and ErrNotEnabled for a disabled
// one.
func (e *entity) check() error {
	if e.deleted.Load() {
		return ErrAlreadyDeleted
	}
	if !e.enabled.Load() {
		return ErrNotEnabled
	}
	return nil
}

// alive returns ErrAlreadyDeleted for a deleted entity.
func (e *entity) alive() error {
	if e.deleted.Load() {
		return ErrAlreadyDeleted
	}
	return nil
}

// listens reports whether the listener of e or of an entity containing it handles k.
func (e *entity) listens(k listener.StatusKind) bool { return e.reach.Load()&uint32(k) != 0 }

// raised notifies the StatusCondition and the listeners of a change of k. Call it after
// setting the change, outside every lock but the caller's own.
func (e *entity) raised(k listener.StatusKind) {
	waitset.Notify(&e.cond)
	e.changed.Notify()
	if e.listens(k) && e.enabled.Load() {
		e.p.disp.Post(&e.slot, uint32(k))
	}
}

// StatusCondition is the condition of an entity's communication statuses
// (StatusCondition of DDS 1.4 §2.2.2.1.9): it is triggered when a status in its enabled
// set has changed and was not read since. Attach it to a waitset.WaitSet.
type StatusCondition struct {
	waitset.Trigger
	e       *entity
	enabled atomic.Uint32
}

// TriggerValue reports whether an enabled status changed since it was last read. The
// condition of a deleted entity is triggered, so that a WaitSet waiting on it returns;
// the entity's operations then return ErrAlreadyDeleted.
func (c *StatusCondition) TriggerValue() bool {
	return c.e.deleted.Load() || c.e.status.changes.Load()&c.enabled.Load() != 0
}

// EnabledStatuses returns the statuses the condition watches (get_enabled_statuses); all
// of them by default.
func (c *StatusCondition) EnabledStatuses() listener.StatusMask {
	return listener.StatusMask(c.enabled.Load())
}

// SetEnabledStatuses sets the statuses the condition watches (set_enabled_statuses).
func (c *StatusCondition) SetEnabledStatuses(m listener.StatusMask) error {
	if err := c.e.alive(); err != nil {
		return err
	}
	c.enabled.Store(uint32(m))
	waitset.Notify(c)
	return nil
}

// Entity returns the entity the condition belongs to (get_entity).
func (c *StatusCondition) Entity() Entity { return c.e.self.(Entity) }
