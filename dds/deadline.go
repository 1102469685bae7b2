package dds

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/ddsgo/ddsgo/qos"
)

// clock is the time source of a participant's timers: the time package, or a virtual
// clock in tests (withClock).
type clock interface {
	Now() time.Time
	// AfterFunc calls f in its own goroutine after d; stop cancels the call and reports
	// whether it did.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

// realClock is the time package's clock.
type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) AfterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }

// deadlineMonitor watches the DEADLINE of a writer or a reader: an instance that goes a
// whole period without a write (writer: OFFERED_DEADLINE_MISSED) or a sample (reader:
// REQUESTED_DEADLINE_MISSED) misses its deadline, and misses it again every period
// after that until it is written or received again. Instances that are unregistered or
// disposed are no longer watched. One timer serves all instances, armed at the
// earliest deadline. An infinite period watches nothing; SetQos may change it.
type deadlineMonitor struct {
	period atomic.Int64 // a time.Duration; 0: infinite, nothing watched
	clk    clock
	miss   func(h InstanceHandle) // raises the status; called with no lock held

	mu     sync.Mutex
	due    map[InstanceHandle]time.Time
	at     time.Time   // when the armed timer fires
	stop   func() bool // stops it; nil when none is armed
	closed bool
}

// newDeadlineMonitor returns the monitor of a deadline period.
func newDeadlineMonitor(period time.Duration, clk clock, miss func(InstanceHandle)) *deadlineMonitor {
	d := &deadlineMonitor{clk: clk, miss: miss, due: map[InstanceHandle]time.Time{}}
	d.setPeriod(period)
	return d
}

// setPeriod changes the period: the deadlines already set stand, the next ones follow
// the new period. An infinite period stops the watch.
func (d *deadlineMonitor) setPeriod(period time.Duration) {
	if d == nil {
		return
	}
	if period <= 0 || period >= qos.Infinite {
		period = 0
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.period.Store(int64(period))
	if period == 0 {
		clear(d.due)
		if d.stop != nil {
			d.stop()
			d.stop = nil
		}
	}
}

// touch notes a write or a sample of instance h now: its next deadline is a period
// away.
func (d *deadlineMonitor) touch(h InstanceHandle) {
	if d == nil || d.period.Load() == 0 {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	period := time.Duration(d.period.Load())
	if d.closed || period == 0 {
		return
	}
	due := d.clk.Now().Add(period)
	d.due[h] = due
	d.armLocked(due)
}

// forget stops watching instance h (unregistered or disposed).
func (d *deadlineMonitor) forget(h InstanceHandle) {
	if d == nil || d.period.Load() == 0 {
		return
	}
	d.mu.Lock()
	delete(d.due, h)
	d.mu.Unlock()
}

// armLocked arms the timer for due unless it fires before.
func (d *deadlineMonitor) armLocked(due time.Time) {
	if d.stop != nil && !d.at.After(due) {
		return
	}
	if d.stop != nil {
		d.stop()
	}
	d.at, d.stop = due, d.clk.AfterFunc(due.Sub(d.clk.Now()), d.fire)
}

// fire counts the deadlines missed by now, one per instance and period, and arms the
// timer for the next one.
func (d *deadlineMonitor) fire() {
	d.mu.Lock()
	period := time.Duration(d.period.Load())
	if d.closed || period == 0 {
		d.mu.Unlock()
		return
	}
	now := d.clk.Now()
	d.stop = nil
	var missed []InstanceHandle
	var next time.Time
	for h, due := range d.due {
		for !due.After(now) {
			missed = append(missed, h)
			due = due.Add(period)
		}
		d.due[h] = due
		if next.IsZero() || due.Before(next) {
			next = due
		}
	}
	if !next.IsZero() {
		d.armLocked(next)
	}
	d.mu.Unlock()
	for _, h := range missed {
		d.miss(h)
	}
}

// close stops the monitor.
func (d *deadlineMonitor) close() {
	if d == nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closed = true
	if d.stop != nil {
		d.stop()
		d.stop = nil
	}
}
