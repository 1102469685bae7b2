// Package dispatch is the serial listener dispatcher of a DomainParticipant: one goroutine
// that calls the handlers of the entities whose statuses changed, in the order they were
// posted, outside every lock of the poster. It depends on the standard library and
// internal/goid only.
//
// # Helping
//
// A goroutine that posted work and holds no lock may run the queued handlers itself
// (Help) when the dispatcher's goroutine is not running any: the receive goroutine of
// a participant whose listeners run on receive, so that a sample reaches its listener
// without waking another goroutine. Handlers still run one at a time and in order.
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
// (a listener that deletes its participant), on the dispatcher's goroutine or a
// helper's, returns without waiting for the goroutine, which ends when the handler
// returns.
package dispatch
