// Package listener holds the communication statuses of the OMG DDS 1.4 DCPS (§2.2.4):
// the StatusKind bits and StatusMask, the status structures, InstanceHandle, the listener
// interfaces and the counters that keep the statuses. It depends on the standard library
// and package qos only, so that the dds package and the layers above can share it.
//
// # Statuses
//
// StatusKind has the spec's bit values (DataAvailable is 1<<10); a StatusMask is a set of
// them, such as StatusMask(DataAvailable|SubscriptionMatched), MaskAll or MaskNone. The
// status structures (SubscriptionMatchedStatus, SampleRejectedStatus, ...) have the
// spec's fields; the *Change fields count what changed since the status was last read.
//
// # Handles
//
// InstanceHandle is a 16-byte value. An entity's handle is its RTPS GUID
// (HandleFromGUID), an instance's is derived from its key hash (HandleFromKeyHash), and
// the zero value is HandleNil.
//
// # Listeners
//
// The interfaces follow the spec's hierarchy: DataReaderListener, DataWriterListener and
// TopicListener for one entity, SubscriberListener and PublisherListener for the entities
// of a group, DomainParticipantListener for all of them. The dds package calls the
// listener of the lowest entity whose StatusMask enables a status, from one serial
// dispatcher and outside its locks. Because this package cannot import dds, the entity
// argument is an Entity interface holding the dds entity. The *Funcs types turn a few
// functions into a listener; their nil functions do nothing, and their Mask methods give
// the mask of the functions set:
//
//	l := listener.DataReaderFuncs{DataAvailable: func(listener.Entity) { ... }}
//	// pass l and l.Mask() when creating the reader
//
// # Counters
//
// Counter, SampleRejectedCounter, LivelinessCounter, MatchedCounter and
// IncompatibleQosCounter keep the statuses for the dds package: events update the counts
// and the change fields, Changed is the status-changed flag, and the Take methods return
// the status and reset the change fields, as reading a status does.
package listener
