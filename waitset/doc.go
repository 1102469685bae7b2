// Package waitset implements the conditions and wait-sets of the OMG DDS 1.4 DCPS
// (§2.2.2.1.6 to §2.2.2.1.8): a goroutine attaches conditions to a WaitSet and blocks in
// Wait until one of them triggers. It depends on the standard library only.
//
// # Conditions
//
// A Condition reports its trigger value. GuardCondition is the one whose value the
// application sets. Other packages define their own conditions by embedding Trigger and
// calling Notify with the condition whenever the trigger value may have become true: that is how the
// dds package builds StatusCondition, ReadCondition and QueryCondition, whose trigger
// values it computes from its entities' state. Notify only wakes the waiting goroutines,
// which then call TriggerValue on every attached condition outside the WaitSet's lock.
//
// # Waiting
//
// Wait and WaitInto return the attached conditions whose trigger value is true, blocking
// until there is at least one. A context replaces the spec's timeout: when it is done,
// the error is the context's (context.DeadlineExceeded or context.Canceled), wrapped.
// As DDS requires, only one goroutine may wait on a WaitSet at a time; a second one
// gets an error matching dds.ErrPreconditionNotMet (the module's return codes are
// one vocabulary: see package dds). Waiting does not reset trigger values: the
// application does that, by reading the status, taking the data or setting the guard.
//
// WaitInto fills a caller's slice, so a loop that waits on triggered conditions
// allocates nothing.
package waitset
