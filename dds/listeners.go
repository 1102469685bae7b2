package dds

import (
	"github.com/ddsgo/ddsgo/listener"
)

// Listener is a listener of one of the entity kinds: ReaderListener[T],
// WriterListener[T], TopicListener[T], SubscriberListener, PublisherListener or
// ParticipantListener. Give one to an entity with WithListener or its SetListener.
//
// A listener is a struct of functions; a nil function does nothing. The package calls
// them from one serial dispatcher goroutine per participant, never under one of its
// locks, so a function may call any operation of the package, create and delete
// entities included (deleting the entity being notified ends its notifications).
// A function should return quickly: while it runs, the participant's other
// notifications wait.
type Listener interface {
	// call invokes the function for status k of entity self, reading the status from
	// s; it reports false when the listener has no function for k's entity kind.
	call(self entityObject, k listener.StatusKind, s *statusBlock) bool
	// handles returns the statuses the listener has a function for.
	handles() listener.StatusMask
}

// effectiveMask returns the mask a listener l set with masks takes statuses with: with
// no mask, the statuses l has a function for, as Fast DDS's default mask (all) gives
// them; with a mask, those of its statuses that l has a function for, so that a status
// in the mask without a function goes on to the listener of the containing entity. A
// function whose status the mask leaves out is not called, as in the other stacks,
// where a listener's mask selects among its operations.
func effectiveMask(l Listener, masks []listener.StatusMask) (listener.StatusMask, error) {
	if len(masks) > 1 {
		return 0, errorf(ErrBadParameter, "listener: one mask, not %d", len(masks))
	}
	if l == nil {
		return 0, nil
	}
	has := l.handles()
	if len(masks) == 0 {
		return has, nil
	}
	return masks[0] & has, nil
}

// fnBit returns k's bit when its listener function is set.
func fnBit(set bool, k listener.StatusKind) listener.StatusMask {
	if !set {
		return 0
	}
	return listener.StatusMask(k)
}

// ReaderListener is the listener of a DataReader[T] (DataReaderListener of DDS 1.4
// §2.2.4.4.4). Each function receives the reader and, but for OnDataAvailable, the
// status, which reading it reset.
type ReaderListener[T any] struct {
	OnDataAvailable            func(r *DataReader[T])
	OnSubscriptionMatched      func(r *DataReader[T], s listener.SubscriptionMatchedStatus)
	OnRequestedDeadlineMissed  func(r *DataReader[T], s listener.RequestedDeadlineMissedStatus)
	OnRequestedIncompatibleQos func(r *DataReader[T], s listener.RequestedIncompatibleQosStatus)
	OnSampleLost               func(r *DataReader[T], s listener.SampleLostStatus)
	OnSampleRejected           func(r *DataReader[T], s listener.SampleRejectedStatus)
	OnLivelinessChanged        func(r *DataReader[T], s listener.LivelinessChangedStatus)
}

func (l ReaderListener[T]) call(self entityObject, k listener.StatusKind, s *statusBlock) bool {
	r, ok := self.(*DataReader[T])
	if !ok {
		return false
	}
	readerCall(r, k, s, l.OnDataAvailable, l.OnSubscriptionMatched, l.OnRequestedDeadlineMissed,
		l.OnRequestedIncompatibleQos, l.OnSampleLost, l.OnSampleRejected, l.OnLivelinessChanged)
	return true
}

func (l ReaderListener[T]) handles() listener.StatusMask {
	return readerHandles(l.OnDataAvailable, l.OnSubscriptionMatched, l.OnRequestedDeadlineMissed,
		l.OnRequestedIncompatibleQos, l.OnSampleLost, l.OnSampleRejected, l.OnLivelinessChanged)
}

// readerHandles returns the reader statuses whose functions are set.
func readerHandles[R any](data func(R),
	matched func(R, listener.SubscriptionMatchedStatus),
	deadline func(R, listener.RequestedDeadlineMissedStatus),
	incompatible func(R, listener.RequestedIncompatibleQosStatus),
	lost func(R, listener.SampleLostStatus),
	rejected func(R, listener.SampleRejectedStatus),
	liveliness func(R, listener.LivelinessChangedStatus),
) listener.StatusMask {
	return fnBit(data != nil, listener.DataAvailable) | fnBit(matched != nil, listener.SubscriptionMatched) |
		fnBit(deadline != nil, listener.RequestedDeadlineMissed) | fnBit(incompatible != nil, listener.RequestedIncompatibleQos) |
		fnBit(lost != nil, listener.SampleLost) | fnBit(rejected != nil, listener.SampleRejected) |
		fnBit(liveliness != nil, listener.LivelinessChanged)
}

// readerCall calls the function of status k of a reader listener with reader r.
func readerCall[R any](r R, k listener.StatusKind, s *statusBlock,
	data func(R),
	matched func(R, listener.SubscriptionMatchedStatus),
	deadline func(R, listener.RequestedDeadlineMissedStatus),
	incompatible func(R, listener.RequestedIncompatibleQosStatus),
	lost func(R, listener.SampleLostStatus),
	rejected func(R, listener.SampleRejectedStatus),
	liveliness func(R, listener.LivelinessChangedStatus),
) {
	switch k {
	case listener.DataAvailable:
		s.clearChanged(k)
		callIf(data, r)
	case listener.SubscriptionMatched:
		callWith(matched, r, s.takeSubscriptionMatched())
	case listener.RequestedDeadlineMissed:
		callWith(deadline, r, s.takeRequestedDeadlineMissed())
	case listener.RequestedIncompatibleQos:
		callWith(incompatible, r, s.takeRequestedIncompatibleQos())
	case listener.SampleLost:
		callWith(lost, r, s.takeSampleLost())
	case listener.SampleRejected:
		callWith(rejected, r, s.takeSampleRejected())
	case listener.LivelinessChanged:
		callWith(liveliness, r, s.takeLivelinessChanged())
	default:
	}
}

// WriterListener is the listener of a DataWriter[T] (DataWriterListener of DDS 1.4
// §2.2.4.4.2).
type WriterListener[T any] struct {
	OnPublicationMatched     func(w *DataWriter[T], s listener.PublicationMatchedStatus)
	OnOfferedDeadlineMissed  func(w *DataWriter[T], s listener.OfferedDeadlineMissedStatus)
	OnOfferedIncompatibleQos func(w *DataWriter[T], s listener.OfferedIncompatibleQosStatus)
	OnLivelinessLost         func(w *DataWriter[T], s listener.LivelinessLostStatus)
}

func (l WriterListener[T]) call(self entityObject, k listener.StatusKind, s *statusBlock) bool {
	w, ok := self.(*DataWriter[T])
	if !ok {
		return false
	}
	writerCall(w, k, s, l.OnPublicationMatched, l.OnOfferedDeadlineMissed, l.OnOfferedIncompatibleQos, l.OnLivelinessLost)
	return true
}

func (l WriterListener[T]) handles() listener.StatusMask {
	return writerHandles(l.OnPublicationMatched, l.OnOfferedDeadlineMissed, l.OnOfferedIncompatibleQos, l.OnLivelinessLost)
}

// writerHandles returns the writer statuses whose functions are set.
func writerHandles[W any](matched func(W, listener.PublicationMatchedStatus),
	deadline func(W, listener.OfferedDeadlineMissedStatus),
	incompatible func(W, listener.OfferedIncompatibleQosStatus),
	lost func(W, listener.LivelinessLostStatus),
) listener.StatusMask {
	return fnBit(matched != nil, listener.PublicationMatched) | fnBit(deadline != nil, listener.OfferedDeadlineMissed) |
		fnBit(incompatible != nil, listener.OfferedIncompatibleQos) | fnBit(lost != nil, listener.LivelinessLost)
}

// writerCall calls the function of status k of a writer listener with writer w.
func writerCall[W any](w W, k listener.StatusKind, s *statusBlock,
	matched func(W, listener.PublicationMatchedStatus),
	deadline func(W, listener.OfferedDeadlineMissedStatus),
	incompatible func(W, listener.OfferedIncompatibleQosStatus),
	lost func(W, listener.LivelinessLostStatus),
) {
	switch k {
	case listener.PublicationMatched:
		callWith(matched, w, s.takePublicationMatched())
	case listener.OfferedDeadlineMissed:
		callWith(deadline, w, s.takeOfferedDeadlineMissed())
	case listener.OfferedIncompatibleQos:
		callWith(incompatible, w, s.takeOfferedIncompatibleQos())
	case listener.LivelinessLost:
		callWith(lost, w, s.takeLivelinessLost())
	default:
	}
}

// TopicListener is the listener of a Topic[T] (TopicListener of DDS 1.4 §2.2.4.4.1).
type TopicListener[T any] struct {
	OnInconsistentTopic func(t *Topic[T], s listener.InconsistentTopicStatus)
}

func (l TopicListener[T]) call(self entityObject, k listener.StatusKind, s *statusBlock) bool {
	t, ok := self.(*Topic[T])
	if !ok || k != listener.InconsistentTopic {
		return false
	}
	callWith(l.OnInconsistentTopic, t, s.takeInconsistentTopic())
	return true
}

func (l TopicListener[T]) handles() listener.StatusMask {
	return fnBit(l.OnInconsistentTopic != nil, listener.InconsistentTopic)
}

// PublisherListener is the listener of a Publisher (PublisherListener of DDS 1.4
// §2.2.4.4.3): it takes the statuses of the publisher's writers that their own listeners
// do not.
type PublisherListener struct {
	OnPublicationMatched     func(w AnyDataWriter, s listener.PublicationMatchedStatus)
	OnOfferedDeadlineMissed  func(w AnyDataWriter, s listener.OfferedDeadlineMissedStatus)
	OnOfferedIncompatibleQos func(w AnyDataWriter, s listener.OfferedIncompatibleQosStatus)
	OnLivelinessLost         func(w AnyDataWriter, s listener.LivelinessLostStatus)
}

func (l PublisherListener) call(self entityObject, k listener.StatusKind, s *statusBlock) bool {
	w, ok := self.(AnyDataWriter)
	if !ok {
		return false
	}
	writerCall(w, k, s, l.OnPublicationMatched, l.OnOfferedDeadlineMissed, l.OnOfferedIncompatibleQos, l.OnLivelinessLost)
	return true
}

func (l PublisherListener) handles() listener.StatusMask {
	return writerHandles(l.OnPublicationMatched, l.OnOfferedDeadlineMissed, l.OnOfferedIncompatibleQos, l.OnLivelinessLost)
}

// SubscriberListener is the listener of a Subscriber (SubscriberListener of DDS 1.4
// §2.2.4.4.5): OnDataOnReaders for the subscriber, and the statuses of its readers that
// their own listeners do not take.
type SubscriberListener struct {
	// OnDataOnReaders is called when any reader of the subscriber has new data; it
	// takes precedence over the readers' OnDataAvailable.
	OnDataOnReaders            func(sub *Subscriber)
	OnDataAvailable            func(r AnyDataReader)
	OnSubscriptionMatched      func(r AnyDataReader, s listener.SubscriptionMatchedStatus)
	OnRequestedDeadlineMissed  func(r AnyDataReader, s listener.RequestedDeadlineMissedStatus)
	OnRequestedIncompatibleQos func(r AnyDataReader, s listener.RequestedIncompatibleQosStatus)
	OnSampleLost               func(r AnyDataReader, s listener.SampleLostStatus)
	OnSampleRejected           func(r AnyDataReader, s listener.SampleRejectedStatus)
	OnLivelinessChanged        func(r AnyDataReader, s listener.LivelinessChangedStatus)
}

func (l SubscriberListener) call(self entityObject, k listener.StatusKind, s *statusBlock) bool {
	if k == listener.DataOnReaders {
		sub, ok := self.(*Subscriber)
		if ok {
			s.clearChanged(k)
			callIf(l.OnDataOnReaders, sub)
		}
		return ok
	}
	r, ok := self.(AnyDataReader)
	if !ok {
		return false
	}
	readerCall(r, k, s, l.OnDataAvailable, l.OnSubscriptionMatched, l.OnRequestedDeadlineMissed,
		l.OnRequestedIncompatibleQos, l.OnSampleLost, l.OnSampleRejected, l.OnLivelinessChanged)
	return true
}

func (l SubscriberListener) handles() listener.StatusMask {
	return fnBit(l.OnDataOnReaders != nil, listener.DataOnReaders) |
		readerHandles(l.OnDataAvailable, l.OnSubscriptionMatched, l.OnRequestedDeadlineMissed,
			l.OnRequestedIncompatibleQos, l.OnSampleLost, l.OnSampleRejected, l.OnLivelinessChanged)
}

// ParticipantListener is the listener of a DomainParticipant (DomainParticipantListener
// of DDS 1.4 §2.2.4.4.6): it takes the statuses of every entity of the participant that
// a lower listener does not.
type ParticipantListener struct {
	PublisherListener
	SubscriberListener
	OnInconsistentTopic func(t TopicDescription, s listener.InconsistentTopicStatus)
}

func (l ParticipantListener) call(self entityObject, k listener.StatusKind, s *statusBlock) bool {
	if t, ok := self.(TopicDescription); ok {
		if k == listener.InconsistentTopic {
			callWith(l.OnInconsistentTopic, t, s.takeInconsistentTopic())
		}
		return true
	}
	return l.PublisherListener.call(self, k, s) || l.SubscriberListener.call(self, k, s)
}

func (l ParticipantListener) handles() listener.StatusMask {
	return l.PublisherListener.handles() | l.SubscriberListener.handles() |
		fnBit(l.OnInconsistentTopic != nil, listener.InconsistentTopic)
}

func callIf[E any](fn func(E), e E) {
	if fn != nil {
		fn(e)
	}
}

func callWith[E, S any](fn func(E, S), e E, s S) {
	if fn != nil {
		fn(e, s)
	}
}
