package dds

import (
	"slices"
	"sync"

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

// NewParticipant creates a participant in domain (0 to MaxDomainID) with the default
// participant QoS changed by opts (create_participant): WithRTPS for the network side,
// WithQos(qos.DomainParticipantQos), WithListener with a ParticipantListener. The
// participant is enabled, which starts its RTPS participant and discovery, when the
// factory's ENTITY_FACTORY QoS autoenables (the default). Close it when done.
func NewParticipant(domain int, opts ...Option) (*DomainParticipant, error) {
	return factory.newParticipant(domain, opts)
}

func (f *DomainParticipantFactory) newParticipant(domain int, opts []Option) (*DomainParticipant, error) {
	if domain < 0 || domain > MaxDomainID {
		return nil, errorf(ErrBadParameter, "domain id %d out of 0..%d", domain, MaxDomainID)
	}
	f.mu.Lock()
	pq := f.defaultQos.Clone()
	auto := f.qos.EntityFactory.AutoenableCreatedEntities
	f.mu.Unlock()
	s := settings{what: "participant", participant: &pq, engine: newRTPSEngine}
	if err := s.apply(opts); err != nil {
		return nil, err
	}
	if s.engine == nil {
		return nil, errorf(ErrUnsupported, "no RTPS engine is linked in")
	}
	if err := pq.Validate(); err != nil {
		return nil, qosErr(err)
	}
	l, err := listenerFor[ParticipantListener](s.listener, "participant")
	if err != nil {
		return nil, err
	}
	p := newParticipant(f, domain, pq, l, s)
	f.mu.Lock()
	f.participants = append(f.participants, p)
	f.mu.Unlock()
	if auto {
		if err := p.Enable(); err != nil {
			_ = p.Close()
			return nil, err
		}
	}
	return p, nil
}

// forget removes p from the factory's participants.
func (f *DomainParticipantFactory) forget(p *DomainParticipant) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if i := slices.Index(f.participants, p); i >= 0 {
		f.participants = slices.Delete(f.participants, i, i+1)
	}
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

// SetQos sets the factory's QoS (set_qos): whether NewParticipant enables the
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

// DefaultParticipantQos returns the QoS NewParticipant starts from
// (get_default_participant_qos).
func (f *DomainParticipantFactory) DefaultParticipantQos() qos.DomainParticipantQos {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.defaultQos.Clone()
}

// SetDefaultParticipantQos sets the QoS NewParticipant starts from
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
