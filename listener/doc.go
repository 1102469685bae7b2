// Package listener holds the communication statuses of the OMG DDS 1.4 DCPS (§2.2.4):
// the StatusKind bits and StatusMask, the status structures and InstanceHandle. It
// depends on the standard library and package qos only.
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
// InstanceHandle is a 16-byte value. An entity's handle is its RTPS GUID, an instance's
// is derived from its key hash, and the zero value is HandleNil.
//
// # Listeners
//
// The listeners themselves are in package dds (dds.ReaderListener[T] and the others):
// structs of functions that receive the typed entity and one of these statuses. A
// StatusMask says which statuses an entity's listener takes:
//
//	l := dds.ReaderListener[Msg]{OnDataAvailable: func(r *dds.DataReader[Msg]) { ... }}
//	r, err := dds.NewReader(topic, dds.WithListener(l, listener.StatusMask(listener.DataAvailable)))
package listener
