package listener

// Entity is what the dds package passes to a listener as the entity whose status changed.
// Package listener sits below dds and cannot name its types, so the argument is the
// concrete entity (*dds.Topic, *dds.DataWriter[T], *dds.DataReader[T], *dds.Publisher,
// *dds.Subscriber) behind this interface: type-assert it, or, more simply, use the entity
// the listener's closure already holds.
type Entity interface {
	// InstanceHandle returns the entity's handle, made from its GUID.
	InstanceHandle() InstanceHandle
}

// The listener interfaces of DDS 1.4 §2.2.4.3. The dds package calls them from one serial
// dispatcher goroutine, never under its internal locks; a callback may call back into
// dds, but should not block for long. The *Funcs types implement them with optional
// functions.

// TopicListener handles the statuses of a topic.
type TopicListener interface {
	OnInconsistentTopic(topic Entity, status InconsistentTopicStatus)
}

// DataWriterListener handles the statuses of a writer.
type DataWriterListener interface {
	OnOfferedDeadlineMissed(writer Entity, status OfferedDeadlineMissedStatus)
	OnOfferedIncompatibleQos(writer Entity, status OfferedIncompatibleQosStatus)
	OnLivelinessLost(writer Entity, status LivelinessLostStatus)
	OnPublicationMatched(writer Entity, status PublicationMatchedStatus)
}

// DataReaderListener handles the statuses of a reader.
type DataReaderListener interface {
	OnRequestedDeadlineMissed(reader Entity, status RequestedDeadlineMissedStatus)
	OnRequestedIncompatibleQos(reader Entity, status RequestedIncompatibleQosStatus)
	OnSampleRejected(reader Entity, status SampleRejectedStatus)
	OnLivelinessChanged(reader Entity, status LivelinessChangedStatus)
	OnDataAvailable(reader Entity)
	OnSubscriptionMatched(reader Entity, status SubscriptionMatchedStatus)
	OnSampleLost(reader Entity, status SampleLostStatus)
}

// PublisherListener handles the statuses of the writers of a publisher whose own
// listeners do not.
type PublisherListener interface {
	DataWriterListener
}

// SubscriberListener handles DATA_ON_READERS and the statuses of the readers of a
// subscriber whose own listeners do not.
type SubscriberListener interface {
	DataReaderListener
	OnDataOnReaders(subscriber Entity)
}

// DomainParticipantListener handles the statuses of every entity of a participant that no
// lower listener handles.
type DomainParticipantListener interface {
	TopicListener
	PublisherListener
	SubscriberListener
}

// TopicFuncs is a TopicListener whose nil functions do nothing.
type TopicFuncs struct {
	InconsistentTopic func(topic Entity, status InconsistentTopicStatus)
}

var _ TopicListener = TopicFuncs{}

// OnInconsistentTopic calls f.InconsistentTopic if it is set.
func (f TopicFuncs) OnInconsistentTopic(topic Entity, s InconsistentTopicStatus) {
	if f.InconsistentTopic != nil {
		f.InconsistentTopic(topic, s)
	}
}

// Mask returns the kinds that have a function.
func (f TopicFuncs) Mask() StatusMask {
	return maskIf(f.InconsistentTopic != nil, InconsistentTopic)
}

// DataWriterFuncs is a DataWriterListener whose nil functions do nothing, e.g.
// DataWriterFuncs{PublicationMatched: f}.
type DataWriterFuncs struct {
	OfferedDeadlineMissed  func(writer Entity, status OfferedDeadlineMissedStatus)
	OfferedIncompatibleQos func(writer Entity, status OfferedIncompatibleQosStatus)
	LivelinessLost         func(writer Entity, status LivelinessLostStatus)
	PublicationMatched     func(writer Entity, status PublicationMatchedStatus)
}

var _ DataWriterListener = DataWriterFuncs{}

// OnOfferedDeadlineMissed calls f.OfferedDeadlineMissed if it is set.
func (f DataWriterFuncs) OnOfferedDeadlineMissed(w Entity, s OfferedDeadlineMissedStatus) {
	if f.OfferedDeadlineMissed != nil {
		f.OfferedDeadlineMissed(w, s)
	}
}

// OnOfferedIncompatibleQos calls f.OfferedIncompatibleQos if it is set.
func (f DataWriterFuncs) OnOfferedIncompatibleQos(w Entity, s OfferedIncompatibleQosStatus) {
	if f.OfferedIncompatibleQos != nil {
		f.OfferedIncompatibleQos(w, s)
	}
}

// OnLivelinessLost calls f.LivelinessLost if it is set.
func (f DataWriterFuncs) OnLivelinessLost(w Entity, s LivelinessLostStatus) {
	if f.LivelinessLost != nil {
		f.LivelinessLost(w, s)
	}
}

// OnPublicationMatched calls f.PublicationMatched if it is set.
func (f DataWriterFuncs) OnPublicationMatched(w Entity, s PublicationMatchedStatus) {
	if f.PublicationMatched != nil {
		f.PublicationMatched(w, s)
	}
}

// Mask returns the kinds that have a function.
func (f DataWriterFuncs) Mask() StatusMask {
	return maskIf(f.OfferedDeadlineMissed != nil, OfferedDeadlineMissed) |
		maskIf(f.OfferedIncompatibleQos != nil, OfferedIncompatibleQos) |
		maskIf(f.LivelinessLost != nil, LivelinessLost) |
		maskIf(f.PublicationMatched != nil, PublicationMatched)
}

// DataReaderFuncs is a DataReaderListener whose nil functions do nothing, e.g.
// DataReaderFuncs{DataAvailable: f}.
type DataReaderFuncs struct {
	RequestedDeadlineMissed  func(reader Entity, status RequestedDeadlineMissedStatus)
	RequestedIncompatibleQos func(reader Entity, status RequestedIncompatibleQosStatus)
	SampleRejected           func(reader Entity, status SampleRejectedStatus)
	LivelinessChanged        func(reader Entity, status LivelinessChangedStatus)
	DataAvailable            func(reader Entity)
	SubscriptionMatched      func(reader Entity, status SubscriptionMatchedStatus)
	SampleLost               func(reader Entity, status SampleLostStatus)
}

var _ DataReaderListener = DataReaderFuncs{}

// OnRequestedDeadlineMissed calls f.RequestedDeadlineMissed if it is set.
func (f DataReaderFuncs) OnRequestedDeadlineMissed(r Entity, s RequestedDeadlineMissedStatus) {
	if f.RequestedDeadlineMissed != nil {
		f.RequestedDeadlineMissed(r, s)
	}
}

// OnRequestedIncompatibleQos calls f.RequestedIncompatibleQos if it is set.
func (f DataReaderFuncs) OnRequestedIncompatibleQos(r Entity, s RequestedIncompatibleQosStatus) {
	if f.RequestedIncompatibleQos != nil {
		f.RequestedIncompatibleQos(r, s)
	}
}

// OnSampleRejected calls f.SampleRejected if it is set.
func (f DataReaderFuncs) OnSampleRejected(r Entity, s SampleRejectedStatus) {
	if f.SampleRejected != nil {
		f.SampleRejected(r, s)
	}
}

// OnLivelinessChanged calls f.LivelinessChanged if it is set.
func (f DataReaderFuncs) OnLivelinessChanged(r Entity, s LivelinessChangedStatus) {
	if f.LivelinessChanged != nil {
		f.LivelinessChanged(r, s)
	}
}

// OnDataAvailable calls f.DataAvailable if it is set.
func (f DataReaderFuncs) OnDataAvailable(r Entity) {
	if f.DataAvailable != nil {
		f.DataAvailable(r)
	}
}

// OnSubscriptionMatched calls f.SubscriptionMatched if it is set.
func (f DataReaderFuncs) OnSubscriptionMatched(r Entity, s SubscriptionMatchedStatus) {
	if f.SubscriptionMatched != nil {
		f.SubscriptionMatched(r, s)
	}
}

// OnSampleLost calls f.SampleLost if it is set.
func (f DataReaderFuncs) OnSampleLost(r Entity, s SampleLostStatus) {
	if f.SampleLost != nil {
		f.SampleLost(r, s)
	}
}

// Mask returns the kinds that have a function.
func (f DataReaderFuncs) Mask() StatusMask {
	return maskIf(f.RequestedDeadlineMissed != nil, RequestedDeadlineMissed) |
		maskIf(f.RequestedIncompatibleQos != nil, RequestedIncompatibleQos) |
		maskIf(f.SampleRejected != nil, SampleRejected) |
		maskIf(f.LivelinessChanged != nil, LivelinessChanged) |
		maskIf(f.DataAvailable != nil, DataAvailable) |
		maskIf(f.SubscriptionMatched != nil, SubscriptionMatched) |
		maskIf(f.SampleLost != nil, SampleLost)
}

// PublisherFuncs is a PublisherListener whose nil functions do nothing.
type PublisherFuncs struct {
	DataWriterFuncs
}

var _ PublisherListener = PublisherFuncs{}

// SubscriberFuncs is a SubscriberListener whose nil functions do nothing.
type SubscriberFuncs struct {
	DataReaderFuncs
	DataOnReaders func(subscriber Entity)
}

var _ SubscriberListener = SubscriberFuncs{}

// OnDataOnReaders calls f.DataOnReaders if it is set.
func (f SubscriberFuncs) OnDataOnReaders(s Entity) {
	if f.DataOnReaders != nil {
		f.DataOnReaders(s)
	}
}

// Mask returns the kinds that have a function.
func (f SubscriberFuncs) Mask() StatusMask {
	return f.DataReaderFuncs.Mask() | maskIf(f.DataOnReaders != nil, DataOnReaders)
}

// DomainParticipantFuncs is a DomainParticipantListener whose nil functions do nothing.
type DomainParticipantFuncs struct {
	TopicFuncs
	DataWriterFuncs
	SubscriberFuncs
}

var _ DomainParticipantListener = DomainParticipantFuncs{}

// Mask returns the kinds that have a function.
func (f DomainParticipantFuncs) Mask() StatusMask {
	return f.TopicFuncs.Mask() | f.DataWriterFuncs.Mask() | f.SubscriberFuncs.Mask()
}

func maskIf(cond bool, k StatusKind) StatusMask {
	if cond {
		return StatusMask(k)
	}
	return 0
}
