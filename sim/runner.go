package sim

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ddsgo/ddsgo/ecm"
)

// DefaultStepSize is the step size of a Runner whose Config does not set one: 1 ms,
// Gazebo's default max_step_size.
const DefaultStepSize = time.Millisecond

// Config configures a Runner. The zero value is valid.
type Config struct {
	// StepSize is the simulation time of one unpaused step; 0 means DefaultStepSize.
	StepSize time.Duration
	// RealTimeFactor is the target ratio of simulation time to wall-clock time: the
	// runner sleeps so that every step takes StepSize/RealTimeFactor of wall time.
	// 0 means as fast as possible.
	RealTimeFactor float64
	// InitialSimTime is the simulation time at the start and after a reset.
	InitialSimTime time.Duration
	// Paused starts the runner paused.
	Paused bool
	// PausedPeriod is the wall time between two paused steps of Run; 0 means 10 ms.
	// Paused steps still call the systems (with Dt 0), as in Gazebo.
	PausedPeriod time.Duration
	// Clock is the wall clock; nil means the time package's.
	Clock Clock
	// Logger receives warnings; nil discards them.
	Logger *slog.Logger
}

// ErrRunning is returned by Run and RunOnce when the Runner is already stepping on
// another goroutine.
var ErrRunning = errors.New("sim: runner already running")

// entry is one system attached to a Runner.
type entry struct {
	sys      System
	cfg      SystemConfig
	priority int32
	pre      PreUpdater
	upd      Updater
	post     PostUpdater
	reset    Resetter
	postFn   func() // runs PostUpdate on its own goroutine
}

// Runner runs the systems over a Manager, step after step, as Gazebo's simulation
// runner does. See the package documentation for the phases and the time semantics.
//
// Run and RunOnce step on the calling goroutine, which owns the Manager while they
// run; AddSystem must be called on that goroutine (from a system) or while no step
// runs. SetPaused, Step, Reset, SetRealTimeFactor, Paused and Info may be called from
// any goroutine. Services read and change the Manager between steps, never during one.
type Runner struct {
	m            *ecm.Manager
	clock        Clock
	log          *slog.Logger
	stepSize     time.Duration
	initialSim   time.Duration
	pausedPeriod time.Duration

	// Owned by the stepping goroutine.
	systems  []*entry // active, in load order
	pending  []*entry // added, active from the next step
	pre, upd []*entry // by priority, then load order
	post     []*entry
	info     UpdateInfo
	watch    stopwatch
	captured bool
	initial  []byte // serialized initial state of the Manager
	initErr  error
	snapshot func() ([]byte, error)
	restore  func([]byte) error
	postInfo UpdateInfo
	reader   ecm.Reader
	wg       sync.WaitGroup

	busy atomic.Bool

	// stepMu is held while a step runs, and by do: the lock order is stepMu, then mu.
	stepMu sync.Mutex

	mu           sync.Mutex // guards the fields below
	paused       bool
	stepping     bool
	pendingSteps uint64
	resetReq     bool
	rtf          float64
	last         UpdateInfo
	wake         chan struct{} // cap 1: a control changed
	quitting     bool          // quit was called: Run returns before its next step
	steps        uint64        // steps taken, paused ones included
	resetsAsked  uint64        // reset steps begun or requested
	resetsDone   uint64        // reset steps finished
	stepped      chan struct{} // closed and replaced after a step if watched
	watched      bool          // someone waits on stepped
}

// NewRunner returns a Runner of the systems of m configured by cfg.
func NewRunner(m *ecm.Manager, cfg Config) (*Runner, error) {
	if m == nil {
		return nil, errors.New("sim: nil manager")
	}
	if cfg.StepSize < 0 || cfg.PausedPeriod < 0 {
		return nil, errors.New("sim: negative step size or paused period")
	}
	if err := checkRTF(cfg.RealTimeFactor); err != nil {
		return nil, err
	}
	r := &Runner{
		m:            m,
		clock:        cfg.Clock,
		log:          cfg.Logger,
		stepSize:     cmp.Or(cfg.StepSize, DefaultStepSize),
		initialSim:   cfg.InitialSimTime,
		pausedPeriod: cmp.Or(cfg.PausedPeriod, 10*time.Millisecond),
		paused:       cfg.Paused,
		rtf:          cfg.RealTimeFactor,
		wake:         make(chan struct{}, 1),
		stepped:      make(chan struct{}),
	}
	if r.clock == nil {
		r.clock = systemClock{}
	}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	r.info = UpdateInfo{SimTime: cfg.InitialSimTime, Paused: cfg.Paused}
	r.last = r.info
	r.snapshot = func() ([]byte, error) { return m.State(nil, nil) }
	r.restore = m.SetState
	return r, nil
}

func checkRTF(f float64) error {
	if f < 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		return fmt.Errorf("sim: bad real-time factor %v", f)
	}
	return nil
}

// Manager returns the Manager the runner steps.
func (r *Runner) Manager() *ecm.Manager { return r.m }

// StepSize returns the simulation time of one unpaused step.
func (r *Runner) StepSize() time.Duration { return r.stepSize }

// AddSystem configures s (if it is a Configurer) and adds it; it takes part in the
// steps from the next one. Its priority is the <gz:system_priority> of c.Element, or
// s.Priority() for a Prioritizer, or DefaultPriority. An error from Configure, a
// malformed priority, or a priority element without the gz: prefix (such as
// <system_priority>, which Gazebo would not read either) keeps s out.
func (r *Runner) AddSystem(s System, c SystemConfig) error {
	e, err := r.newEntry(s, c)
	if err != nil {
		var le *LineError
		if errors.As(err, &le) {
			return err
		}
		return fmt.Errorf("sim: configuring system %q: %w", c.Name, err)
	}
	r.pending = append(r.pending, e)
	return nil
}

// systemCount returns the number of systems added.
func (r *Runner) systemCount() int { return len(r.systems) + len(r.pending) }

// newEntry configures s and returns its entry; errors are Configure's, unwrapped.
func (r *Runner) newEntry(s System, c SystemConfig) (*entry, error) {
	if c.Element == nil {
		c.Element = &Element{Name: "plugin"}
	}
	p, err := priorityOf(s, c.Element)
	if err != nil {
		return nil, err
	}
	if cf, ok := s.(Configurer); ok {
		if err := cf.Configure(c.Entity, c.Element, r.m); err != nil {
			return nil, err
		}
	}
	e := &entry{sys: s, cfg: c, priority: p}
	e.pre, _ = s.(PreUpdater)
	e.upd, _ = s.(Updater)
	e.post, _ = s.(PostUpdater)
	e.reset, _ = s.(Resetter)
	if e.post != nil {
		e.postFn = func() {
			defer r.wg.Done()
			e.post.PostUpdate(r.postInfo, r.reader)
		}
	}
	return e, nil
}

// activate makes the pending systems active.
func (r *Runner) activate() {
	if len(r.pending) == 0 {
		return
	}
	r.systems = append(r.systems, r.pending...)
	clear(r.pending)
	r.pending = r.pending[:0]
	r.rebuild()
}

// rebuild sorts the systems into the phase lists.
func (r *Runner) rebuild() {
	r.pre, r.upd, r.post = r.pre[:0], r.upd[:0], r.post[:0]
	for _, e := range r.systems {
		if e.pre != nil {
			r.pre = append(r.pre, e)
		}
		if e.upd != nil {
			r.upd = append(r.upd, e)
		}
		if e.post != nil {
			r.post = append(r.post, e)
		}
	}
	byPriority := func(a, b *entry) int { return cmp.Compare(a.priority, b.priority) }
	slices.SortStableFunc(r.pre, byPriority)
	slices.SortStableFunc(r.upd, byPriority)
}

// signal wakes a paused Run. Called with mu held.
func (r *Runner) signal() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// SetPaused pauses or resumes the simulation from the next step on. It cancels the
// remaining steps of Step.
func (r *Runner) SetPaused(paused bool) {
	r.mu.Lock()
	r.paused, r.stepping, r.pendingSteps = paused, false, 0
	r.signal()
	r.mu.Unlock()
}

// Paused reports whether the next step will be paused.
func (r *Runner) Paused() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.paused
}

// Step runs n unpaused steps and then pauses again, like Gazebo's multi-step. It only
// applies while paused (or while an earlier Step is still stepping, which it extends)
// and reports whether it applied. The steps are taken by Run (or RunOnce).
func (r *Runner) Step(n uint64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if n == 0 || (!r.paused && !r.stepping) {
		return false
	}
	r.pendingSteps += n
	r.paused, r.stepping = false, true
	r.signal()
	return true
}

// Reset makes the next step a reset step: the Manager returns to the state it had
// before the first step, time returns to Config.InitialSimTime, and the systems are
// reset (see Resetter). Paused-ness is kept. If the initial state cannot be applied,
// the step fails (Run and RunOnce return the error) and the Manager may be left empty.
func (r *Runner) Reset() { r.requestReset() }

// requestReset asks for a reset step and returns the number resetsDone reaches when
// it has been taken.
func (r *Runner) requestReset() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.resetReq {
		r.resetReq = true
		r.resetsAsked++
	}
	r.signal()
	return r.resetsAsked
}

// quit makes Run return, without error, before its next step: the simulation ends
// (SetSimulationState's STATE_QUITTING). It cannot be undone.
func (r *Runner) quit() {
	r.mu.Lock()
	r.quitting = true
	r.mu.Unlock()
	r.signal()
}

// isQuitting reports whether quit was called.
func (r *Runner) isQuitting() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.quitting
}

// initialState returns the serialized state of the Manager before the first step, and
// whether a step captured it. Called between steps (in do).
func (r *Runner) initialState() ([]byte, bool, error) { return r.initial, r.captured, r.initErr }

// rewindTime takes the simulation time and the iterations back to their start, between
// two steps, leaving the Manager and the systems as they are (ResetSimulation's
// SCOPE_TIME).
func (r *Runner) rewindTime() {
	r.do(func(*ecm.Manager) {
		now := r.clock.Now()
		r.mu.Lock()
		defer r.mu.Unlock()
		r.info.Dt = r.initialSim - r.info.SimTime
		r.info.SimTime, r.info.Iterations = r.initialSim, 0
		r.watch.reset(!r.paused, now)
		r.info.RealTime = 0
		r.last = r.info
	})
}

// do runs fn between two steps, with the Manager: while fn runs no step does. It may
// be called from any goroutine but a step's (a system calling it would deadlock).
func (r *Runner) do(fn func(m *ecm.Manager)) {
	r.stepMu.Lock()
	defer r.stepMu.Unlock()
	fn(r.m)
}

// waitUntil waits until done, called with the runner's controls locked, reports true;
// it checks after every step. It returns ctx's error if ctx ends first.
func (r *Runner) waitUntil(ctx context.Context, done func() bool) error {
	for {
		r.mu.Lock()
		ok, ch := done(), r.stepped
		r.watched = r.watched || !ok
		r.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// SetRealTimeFactor changes the real-time factor target (0: as fast as possible).
func (r *Runner) SetRealTimeFactor(f float64) error {
	if err := checkRTF(f); err != nil {
		return err
	}
	r.mu.Lock()
	r.rtf = f
	r.mu.Unlock()
	return nil
}

// RealTimeFactor returns the real-time factor target.
func (r *Runner) RealTimeFactor() float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rtf
}

// Info returns the UpdateInfo of the last step taken (before the first step: the
// initial time).
func (r *Runner) Info() UpdateInfo {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}

// period returns the wall time one unpaused step should take.
func (r *Runner) period() time.Duration {
	r.mu.Lock()
	f := r.rtf
	r.mu.Unlock()
	if f < 1e-9 {
		return 0
	}
	return time.Duration(float64(r.stepSize) / f)
}

// RunOnce takes one step now, without sleeping, and returns its UpdateInfo.
func (r *Runner) RunOnce() (UpdateInfo, error) {
	if !r.busy.CompareAndSwap(false, true) {
		return UpdateInfo{}, ErrRunning
	}
	defer r.busy.Store(false)
	return r.iterate()
}

// Run takes steps until ctx is done or, if iterations is not 0, until it took that
// many unpaused steps (paused steps do not count, as in Gazebo). Unpaused steps are
// paced by the real-time factor target; paused steps are taken every
// Config.PausedPeriod, or at once when a control (SetPaused, Step, Reset) arrives. It
// returns nil after the iterations, ctx.Err() when ctx ends first, or the error of a
// failed reset.
func (r *Runner) Run(ctx context.Context, iterations uint64) error {
	if !r.busy.CompareAndSwap(false, true) {
		return ErrRunning
	}
	defer r.busy.Store(false)
	next := r.clock.Now().Add(r.period())
	var done uint64
	for iterations == 0 || done < iterations {
		if err := ctx.Err(); err != nil {
			return err
		}
		if r.isQuitting() {
			return nil
		}
		info, err := r.iterate()
		if err != nil {
			return err
		}
		if info.Paused {
			if !r.wait(ctx, r.pausedPeriod, true) {
				return ctx.Err()
			}
			next = r.clock.Now().Add(r.period())
			continue
		}
		done++
		p := r.period()
		if now := r.clock.Now(); next.After(now) {
			if !r.wait(ctx, next.Sub(now), false) {
				return ctx.Err()
			}
		}
		now := r.clock.Now()
		if next = next.Add(p); next.Before(now) {
			next = now.Add(p)
		}
	}
	return nil
}

// wait waits for d, ctx, or (if wakeable) a control; it reports false if ctx ended.
func (r *Runner) wait(ctx context.Context, d time.Duration, wakeable bool) bool {
	c, stop := r.clock.NewTimer(d)
	var wake chan struct{}
	if wakeable {
		wake = r.wake
	}
	select {
	case <-c:
		return true
	case <-wake:
		stop()
		return true
	case <-ctx.Done():
		stop()
		return false
	}
}

// iterate takes one step.
func (r *Runner) iterate() (UpdateInfo, error) {
	r.stepMu.Lock()
	defer r.stepMu.Unlock()
	r.mu.Lock()
	paused, rewind := r.paused, r.resetReq
	r.resetReq = false
	r.mu.Unlock()

	now := r.clock.Now()
	if !r.captured {
		r.captured = true
		r.initial, r.initErr = r.snapshot()
	}
	r.activate()
	if rewind {
		if err := r.resetStep(paused, now); err != nil {
			return r.info, err
		}
	} else {
		r.watch.set(!paused, now)
		r.info.RealTime = r.watch.elapsed(now)
		r.info.Paused = paused
		r.info.Dt = 0
		if !paused {
			r.info.SimTime += r.stepSize
			r.info.Iterations++
			r.info.Dt = r.stepSize
		}
		r.update()
	}
	r.m.EndStep()

	r.mu.Lock()
	if !paused && r.pendingSteps > 0 {
		r.pendingSteps--
		if r.pendingSteps == 0 {
			r.paused, r.stepping = true, false
		}
	}
	r.last = r.info
	r.steps++
	if rewind {
		r.resetsDone++
	}
	if r.watched { // no allocation per step unless someone waits
		close(r.stepped)
		r.stepped, r.watched = make(chan struct{}), false
	}
	r.mu.Unlock()
	return r.info, nil
}

// update runs the three phases.
func (r *Runner) update() {
	for _, e := range r.pre {
		e.pre.PreUpdate(r.info, r.m)
	}
	for _, e := range r.upd {
		e.upd.Update(r.info, r.m)
	}
	switch len(r.post) {
	case 0:
	case 1:
		r.post[0].post.PostUpdate(r.info, r.m.Reader())
	default:
		r.postInfo = r.info
		r.reader = r.m.Reader()
		r.wg.Add(len(r.post))
		for _, e := range r.post {
			go e.postFn()
		}
		r.wg.Wait()
	}
}

// resetStep restores the initial state, rewinds time and resets the systems; no
// update phase runs in this step (as in Gazebo).
func (r *Runner) resetStep(paused bool, now time.Time) error {
	if r.initErr != nil {
		return fmt.Errorf("sim: reset: initial state unavailable: %w", r.initErr)
	}
	r.m.RequestRemoveEntities()
	r.m.EndStep()
	if err := r.restore(r.initial); err != nil {
		return fmt.Errorf("sim: reset: restoring the initial state: %w", err)
	}
	r.info = UpdateInfo{
		SimTime: r.initialSim,
		Dt:      r.initialSim - r.info.SimTime,
		Paused:  paused,
	}
	r.watch.reset(!paused, now)
	for i, e := range r.systems {
		switch {
		case e.reset != nil:
			e.reset.Reset(r.info, r.m)
		case e.cfg.Factory != nil:
			n, err := r.newEntry(e.cfg.Factory(), e.cfg)
			if err != nil {
				return fmt.Errorf("sim: reset: configuring system %q: %w", e.cfg.Name, err)
			}
			r.systems[i] = n
		default:
			r.log.Warn("sim: system without Reset nor Factory kept as is on reset", "system", e.cfg.Name)
		}
	}
	r.rebuild()
	return nil
}
