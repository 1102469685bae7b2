package dds

import (
	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/listener"
)

// dispatch is the dispatcher's handler of e: it calls, for each kind posted, the
// listener of the lowest entity whose mask enables it (e, then its parents). It runs on
// the dispatcher goroutine, outside every lock of the package.
func (e *entity) dispatch(kinds uint32) {
	for k := kinds; k != 0; k &= k - 1 {
		if e.deleted.Load() || e.p.deleted.Load() {
			return
		}
		e.deliver(listener.StatusKind(k & -k))
	}
}

// findListener returns the listener that takes status k of e: the one of the lowest
// entity, from e up, whose mask has k. For DATA_AVAILABLE it returns nil when an entity
// above e takes DATA_ON_READERS, which takes precedence (the subscriber's slot calls
// that one). One walk up, under one lock.
func (p *DomainParticipant) findListener(e *entity, k listener.StatusKind) Listener {
	p.mu.Lock()
	defer p.mu.Unlock()
	var found Listener
	for x := e.ent; x != ecm.Null; x = p.m.ParentEntity(x) {
		lc, ok := ecm.Get[listenerComp](p.m, x)
		if !ok || lc.Listener == nil {
			continue
		}
		if k == listener.DataAvailable && x != e.ent && lc.Mask.Has(listener.DataOnReaders) {
			return nil
		}
		if found == nil && lc.Mask.Has(k) {
			if found = lc.Listener; k != listener.DataAvailable {
				return found
			}
		}
	}
	return found
}

// deliver calls the listener that takes status k of e.
func (e *entity) deliver(k listener.StatusKind) {
	if l := e.p.findListener(e, k); l != nil {
		l.call(e.self, k, &e.status)
	}
}

// readStatus returns e's status that take returns and resets (the get_*_status
// operations); ErrAlreadyDeleted for a deleted entity.
func readStatus[S any](e *entity, take func(*statusBlock) S) (S, error) {
	if err := e.alive(); err != nil {
		var zero S
		return zero, err
	}
	return take(&e.status), nil
}

// The take methods return a status and reset its changes, as reading it does.

func (s *statusBlock) takeInconsistentTopic() listener.InconsistentTopicStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clearChanged(listener.InconsistentTopic)
	return s.inconsistent.TakeInconsistentTopic()
}

func (s *statusBlock) takeOfferedDeadlineMissed() listener.OfferedDeadlineMissedStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clearChanged(listener.OfferedDeadlineMissed)
	return s.deadline.TakeOfferedDeadlineMissed()
}

func (s *statusBlock) takeRequestedDeadlineMissed() listener.RequestedDeadlineMissedStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clearChanged(listener.RequestedDeadlineMissed)
	return s.deadline.TakeRequestedDeadlineMissed()
}

func (s *statusBlock) takeOfferedIncompatibleQos() listener.OfferedIncompatibleQosStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clearChanged(listener.OfferedIncompatibleQos)
	return s.incompatible.TakeOffered()
}

func (s *statusBlock) takeRequestedIncompatibleQos() listener.RequestedIncompatibleQosStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clearChanged(listener.RequestedIncompatibleQos)
	return s.incompatible.TakeRequested()
}

func (s *statusBlock) takeLivelinessLost() listener.LivelinessLostStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clearChanged(listener.LivelinessLost)
	return s.livelinessL.TakeLivelinessLost()
}

func (s *statusBlock) takeLivelinessChanged() listener.LivelinessChangedStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clearChanged(listener.LivelinessChanged)
	return s.liveliness.Take()
}

func (s *statusBlock) takePublicationMatched() listener.PublicationMatchedStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clearChanged(listener.PublicationMatched)
	return s.matched.TakePublicationMatched()
}

func (s *statusBlock) takeSubscriptionMatched() listener.SubscriptionMatchedStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clearChanged(listener.SubscriptionMatched)
	return s.matched.TakeSubscriptionMatched()
}

func (s *statusBlock) takeSampleRejected() listener.SampleRejectedStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clearChanged(listener.SampleRejected)
	return s.rejected.Take()
}

func (s *statusBlock) takeSampleLost() listener.SampleLostStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clearChanged(listener.SampleLost)
	return s.sampleLost.TakeSampleLost()
}

// event updates the status of kind k with fn under the status lock, marks it changed and
// notifies the condition and the listeners.
func (e *entity) event(k listener.StatusKind, fn func(s *statusBlock)) {
	e.status.mu.Lock()
	fn(&e.status)
	e.status.setChanged(k)
	e.status.mu.Unlock()
	e.raised(k)
}
