// Package dispatch is the serial listener dispatcher of a DomainParticipant: one goroutine
// that calls the handlers of the entities whose statuses changed, in the order they were
// posted, outside every lock of the poster. It depends on the standard library only.
//
// # Slots
//
// Every entity owns a Slot whose Handle function receives the status kinds posted for it.
// Posting to a slot that is already queued only adds kinds to it: a burst of samples
// becomes one DATA_AVAILABLE call, and Post allocates nothing.
//
// # Closing
//
// Close stops the goroutine; kinds still queued are dropped. Close called from a handler
// (a listener that deletes its participant) returns without waiting for the goroutine,
// which ends when the handler returns.
package dispatch
