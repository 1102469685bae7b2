package dds

import (
	"cmp"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
)

// subscriberDefaults is the default reader QoS of a subscriber.
type subscriberDefaults struct{ Reader qos.DataReaderQos }

// Subscriber groups DataReaders (Subscriber of DDS 1.4 §2.2.2.5.1). Make one with
// DomainParticipant.NewSubscriber and give it to NewReader with WithSubscriber.
type Subscriber struct {
	entity
	accessMu sync.Mutex
	access   int
	grp      *groupSets // made by the first coherent reader (coherent_group.go)
	// arrivals numbers the samples of the readers of a GROUP ordered subscriber, in
	// one order across them (DataReaders).
	arrivals atomic.Uint64
}

// groupSets returns the subscriber's group coherent sets, made on first use.
func (sub *Subscriber) groupSets() *groupSets {
	sub.accessMu.Lock()
	defer sub.accessMu.Unlock()
	if sub.grp == nil {
		sub.grp = newGroupSets(&sub.p.known)
		sub.grp.access = sub.access
	}
	return sub.grp
}

// AnyDataReader is a DataReader[T] of any T.
type AnyDataReader interface {
	Entity
	TopicDescription() TopicDescription
	Subscriber() *Subscriber
	core() *entity
}

// Participant returns the participant that created the subscriber.
func (sub *Subscriber) Participant() *DomainParticipant { return sub.p }

// Enable enables the subscriber, and its readers when its ENTITY_FACTORY QoS
// autoenables (enable).
func (sub *Subscriber) Enable() error {
	sub.p.opMu.Lock()
	defer sub.p.opMu.Unlock()
	return sub.p.enable(sub)
}

func (sub *Subscriber) enableSelf() error {
	sub.p.mu.Lock()
	defer sub.p.mu.Unlock()
	ecm.SetComponentData(sub.p.m, sub.ent, handleComp{sub.p.localHandle(0x09)})
	return nil
}

func (sub *Subscriber) teardown() {}

// Qos returns the subscriber's QoS (get_qos).
func (sub *Subscriber) Qos() qos.SubscriberQos { return getQos[qos.SubscriberQos](&sub.entity) }

// SetQos changes the subscriber's QoS (set_qos). A change of PARTITION or GROUP_DATA is
// announced again for every reader.
func (sub *Subscriber) SetQos(q qos.SubscriberQos) error {
	sub.p.opMu.Lock()
	defer sub.p.opMu.Unlock()
	if err := setQos(&sub.entity, q); err != nil {
		return err
	}
	return sub.p.reannounceChildren(&sub.entity)
}

// Listener returns the subscriber's listener (get_listener).
func (sub *Subscriber) Listener() SubscriberListener {
	l, _ := sub.listener().(SubscriberListener)
	return l
}

// SetListener sets the subscriber's listener and the statuses it handles (set_listener):
// with no mask, those it has functions for; WithListener tells the rules.
func (sub *Subscriber) SetListener(l SubscriberListener, mask ...listener.StatusMask) error {
	return sub.setListener(l, mask)
}

// DefaultDataReaderQos returns the QoS NewReader starts from.
func (sub *Subscriber) DefaultDataReaderQos() qos.DataReaderQos {
	sub.p.mu.Lock()
	defer sub.p.mu.Unlock()
	d, _ := ecm.ComponentData[subscriberDefaults](sub.p.m, sub.ent)
	return d.Reader.Clone()
}

// SetDefaultDataReaderQos sets the QoS NewReader starts from.
func (sub *Subscriber) SetDefaultDataReaderQos(q qos.DataReaderQos) error {
	if err := sub.alive(); err != nil {
		return err
	}
	if err := q.Validate(); err != nil {
		return qosErr(err)
	}
	sub.p.mu.Lock()
	defer sub.p.mu.Unlock()
	ecm.SetComponentData(sub.p.m, sub.ent, subscriberDefaults{q.Clone()})
	return nil
}

// Close deletes the subscriber and its readers (delete_contained_entities, then
// delete_subscriber). Closing a closed subscriber does nothing.
func (sub *Subscriber) Close() error { return sub.p.closeEntity(sub, true) }

// LookupDataReader returns a reader of the subscriber on the topic named topic, or nil
// (lookup_datareader).
func (sub *Subscriber) LookupDataReader(topic string) AnyDataReader {
	o := sub.p.lookupEndpoint(&sub.entity, topic)
	if o == nil {
		return nil
	}
	return o.(AnyDataReader)
}

// DeleteContainedEntities deletes every reader of the subscriber with its conditions
// (delete_contained_entities).
func (sub *Subscriber) DeleteContainedEntities() error {
	sub.p.opMu.Lock()
	defer sub.p.opMu.Unlock()
	return sub.p.deleteChildren(&sub.entity)
}

// readerObject is what the subscriber needs of a DataReader[T].
type readerObject interface {
	AnyDataReader
	hasSamples(st States) bool
	arrivals(st States, dst []uint64) []uint64
}

// DataReaders returns the readers of the subscriber that have samples in the states st
// (get_datareaders). With PRESENTATION GROUP scope and ordered_access, a reader appears
// once per such sample, in the order the subscriber stored the samples across its
// readers (a group coherent set's in the order its publisher wrote them): taking one
// sample from each reader of the list in turn reads them in that order.
func (sub *Subscriber) DataReaders(st States) ([]AnyDataReader, error) {
	if err := sub.check(); err != nil {
		return nil, err
	}
	sub.p.mu.Lock()
	children := sub.p.childrenLocked(&sub.entity)
	sq, _ := ecm.ComponentData[qos.SubscriberQos](sub.p.m, sub.ent)
	sub.p.mu.Unlock()
	ordered := groupOrdered(sq.Presentation)
	var out []AnyDataReader
	type arrival struct {
		n uint64
		r AnyDataReader
	}
	var all []arrival
	var ns []uint64
	for _, c := range children {
		r, ok := c.(readerObject)
		switch {
		case !ok:
		case ordered:
			ns = r.arrivals(st, ns[:0])
			for _, n := range ns {
				all = append(all, arrival{n, r})
			}
		case r.hasSamples(st):
			out = append(out, r)
		}
	}
	slices.SortFunc(all, func(a, b arrival) int { return cmp.Compare(a.n, b.n) })
	for _, a := range all {
		out = append(out, a.r)
	}
	return out, nil
}

// NotifyDataReaders calls the DataAvailable function of the listeners of the readers
// whose DATA_AVAILABLE status changed (notify_datareaders), on the calling goroutine.
func (sub *Subscriber) NotifyDataReaders() error {
	if err := sub.check(); err != nil {
		return err
	}
	p := sub.p
	type call struct {
		l Listener
		r entityObject
	}
	var calls []call
	p.mu.Lock()
	for _, c := range p.childrenLocked(&sub.entity) {
		e := c.core()
		if !listener.StatusMask(e.status.changes.Load()).Has(listener.DataAvailable) {
			continue
		}
		lc, _ := ecm.ComponentData[listenerComp](p.m, e.ent)
		if lc.Listener != nil && lc.Mask.Has(listener.DataAvailable) {
			calls = append(calls, call{lc.Listener, c})
		}
	}
	p.mu.Unlock()
	for _, c := range calls {
		c.l.call(c.r, listener.DataAvailable, &c.r.core().status)
	}
	return nil
}

// BeginAccess starts an access to the subscriber's readers (begin_access). With
// coherent access, the coherent sets that become whole until the matching EndAccess
// appear in the readers at EndAccess, so that what the readers show during the access
// does not change set by set (docs/qos.md). Calls nest.
func (sub *Subscriber) BeginAccess() error {
	if err := sub.check(); err != nil {
		return err
	}
	sub.accessMu.Lock()
	defer sub.accessMu.Unlock()
	sub.access++
	if sub.grp != nil {
		sub.grp.begin()
	}
	return nil
}

// EndAccess ends a BeginAccess (end_access); ErrPreconditionNotMet without one.
func (sub *Subscriber) EndAccess() error {
	if err := sub.check(); err != nil {
		return err
	}
	sub.accessMu.Lock()
	defer sub.accessMu.Unlock()
	if sub.access == 0 {
		return errorf(ErrPreconditionNotMet, "EndAccess without BeginAccess")
	}
	sub.access--
	if sub.grp != nil {
		sub.grp.end()
	}
	return nil
}
