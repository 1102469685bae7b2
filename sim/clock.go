package sim

import "time"

// Clock is the source of wall-clock time of a Runner, replaceable so that tests run
// without sleeping.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// NewTimer returns a channel that receives once d has elapsed, and a function
	// that stops the timer (it reports whether the timer was still pending).
	NewTimer(d time.Duration) (c <-chan time.Time, stop func() bool)
}

// systemClock is the Clock of package time, the default.
type systemClock struct{}

// Now returns time.Now().
func (systemClock) Now() time.Time { return time.Now() }

// NewTimer returns a time.Timer's channel and Stop.
func (systemClock) NewTimer(d time.Duration) (<-chan time.Time, func() bool) {
	t := time.NewTimer(d)
	return t.C, t.Stop
}

// stopwatch measures the time spent running (unpaused).
type stopwatch struct {
	running bool
	start   time.Time     // when it last started, if running
	total   time.Duration // accumulated before start
}

// set starts or stops the stopwatch at now.
func (w *stopwatch) set(run bool, now time.Time) {
	if run == w.running {
		return
	}
	if run {
		w.start = now
	} else {
		w.total += now.Sub(w.start)
	}
	w.running = run
}

// elapsed returns the running time at now.
func (w *stopwatch) elapsed(now time.Time) time.Duration {
	if w.running {
		return w.total + now.Sub(w.start)
	}
	return w.total
}

// reset zeroes the stopwatch and starts it at now if run.
func (w *stopwatch) reset(run bool, now time.Time) {
	*w = stopwatch{running: run, start: now}
}
