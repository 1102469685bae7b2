package dds

import (
	"slices"
	"sync"

	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
)

// MaxDomainID is the largest domain id: with the standard port mapping the ports of
// larger ones do not fit in 16 bits.
const MaxDomainID = 232

// DomainParticipantFactory creates and deletes participants
// (DomainParticipantFactory of DDS 1.4 §2.2.2.2.2). There is one, returned by Factory.
type DomainParticipantFactory struct {
	mu           sync.Mutex
	qos          qos.DomainParticipantFactoryQos
	defaultQos   qos.DomainParticipantQos
	participants []*DomainParticipant
}

var factory = &DomainParticipantFactory{
	qos:        qos.DefaultDomainParticipantFactoryQos(),
	defaultQos: qos.DefaultDomainParticipantQos(),
}

// Factory returns the DomainParticipantFactory (get_instance).
func Factory() *DomainParticipantFactory { return factory }

// CreateParticipant creates a participant with Factory (create_participant).
func CreateParticipant(domain int, q *qos.DomainParticipantQos, l listener.DomainParticipantListener, mask listener.StatusMask, opts ...Option) (*DomainParticipant, error) {
	return factory.CreateParticipant(domain, q, l, mask, opts...)
}

// CreateParticipant creates a participant in domain (0 to MaxDomainID) with QoS q (nil
// means the default participant QoS), listener l for the statuses in mask, and options
// such as WithConfig (create_participant). The participant is enabled, which starts its
// RTPS participant, when the factory's ENTITY_FACTORY QoS autoenables (the default).
func (f *DomainParticipantFactory) CreateParticipant(domain int, q *qos.DomainParticipantQos, l listener.DomainParticipantListener, mask listener.StatusMask, opts ...Option) (*DomainParticipant, error) {
	if domain < 0 || domain > MaxDomainID {
		return nil, errorf(ErrBadParameter, "domain id %d out of 0..%d", domain, MaxDomainID)
	}
	o := options{engine: newRTPSEngine}
	for _, opt := range opts {
		opt(&o)
	}
	if o.engine == nil {
		return nil, errorf(ErrUnsupported, "no RTPS engine is linked in")
	}
	f.mu.Lock()
	pq := f.defaultQos.Clone()
	auto := f.qos.EntityFactory.AutoenableCreatedEntities
	f.mu.Unlock()
	if q != nil {
		pq = q.Clone()
	}
	if err := pq.Validate(); err != nil {
		return nil, qosErr(err)
	}
	p := newParticipant(f, domain, pq, l, mask, o)
	f.mu.Lock()
	f.participants = append(f.participants, p)
	f.mu.Unlock()
	if auto {
		if err := p.Enable(); err != nil {
			_ = f.DeleteParticipant(p)
			return nil, err
		}
	}
	return p, nil
}

// DeleteParticipant deletes a participant that contains no entity any more
// (delete_participant): it stops its RTPS participant, which announces its end.
func (f *DomainParticipantFactory) DeleteParticipant(p *DomainParticipant) error {
	if p == nil {
		return errorf(ErrBadParameter, "nil participant")
	}
	p.opMu.Lock()
	if p.deleted.Load() {
		p.opMu.Unlock()
		return ErrAlreadyDeleted
	}
	p.mu.Lock()
	if len(p.m.Children(p.ent)) > 0 {
		p.mu.Unlock()
		p.opMu.Unlock()
		return errorf(ErrPreconditionNotMet, "the participant still contains entities")
	}
	p.deleted.Store(true)
	p.mu.Unlock()
	p.teardown()
	p.opMu.Unlock()
	p.disp.Close()
	f.mu.Lock()
	if i := slices.Index(f.participants, p); i >= 0 {
		f.participants = slices.Delete(f.participants, i, i+1)
	}
	f.mu.Unlock()
	return nil
}

// LookupParticipant returns a participant of domain, or nil (lookup_participant).
func (f *DomainParticipantFactory) LookupParticipant(domain int) *DomainParticipant {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, p := range f.participants {
		if p.domain == domain {
			return p
		}
	}
	return nil
}

// Qos returns the factory's QoS (get_qos).
func (f *DomainParticipantFactory) Qos() qos.DomainParticipantFactoryQos {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.qos
}

// SetQos sets the factory's QoS (set_qos): whether CreateParticipant enables the
// participants it creates.
func (f *DomainParticipantFactory) SetQos(q qos.DomainParticipantFactoryQos) error {
	if err := q.Validate(); err != nil {
		return qosErr(err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.qos = q
	return nil
}

// DefaultParticipantQos returns the QoS CreateParticipant uses for a nil QoS
// (get_default_participant_qos).
func (f *DomainParticipantFactory) DefaultParticipantQos() qos.DomainParticipantQos {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.defaultQos.Clone()
}

// SetDefaultParticipantQos sets the QoS CreateParticipant uses for a nil QoS
// (set_default_participant_qos).
func (f *DomainParticipantFactory) SetDefaultParticipantQos(q qos.DomainParticipantQos) error {
	if err := q.Validate(); err != nil {
		return qosErr(err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.defaultQos = q.Clone()
	return nil
}
