package sim

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/ecm"
)

// fakeClock is a Clock whose timers fire at once, moving the time forward to their
// deadline, so runner tests never sleep.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers int
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Unix(1000, 0)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) NewTimer(d time.Duration) (<-chan time.Time, func() bool) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.timers++
	ch := make(chan time.Time, 1)
	ch <- c.now
	c.mu.Unlock()
	return ch, func() bool { return false }
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// recorder is a system with every phase, logging its calls.
type recorder struct {
	name string
	mu   *sync.Mutex
	log  *[]string
	prio *int32
	on   func(phase string, info UpdateInfo)
}

func (s *recorder) note(phase string, info UpdateInfo) {
	s.mu.Lock()
	*s.log = append(*s.log, phase+":"+s.name)
	s.mu.Unlock()
	if s.on != nil {
		s.on(phase, info)
	}
}

func (s *recorder) PreUpdate(info UpdateInfo, _ *ecm.Manager) { s.note("pre", info) }
func (s *recorder) Update(info UpdateInfo, _ *ecm.Manager)    { s.note("upd", info) }
func (s *recorder) PostUpdate(info UpdateInfo, _ ecm.Reader)  { s.note("post", info) }

type prioRecorder struct{ *recorder }

func (s prioRecorder) Priority() int32 { return *s.prio }

func newRunner(t *testing.T, cfg Config) (*Runner, *fakeClock) {
	t.Helper()
	clk := newFakeClock()
	if cfg.Clock == nil {
		cfg.Clock = clk
	}
	r, err := NewRunner(ecm.New(), cfg)
	require.NoError(t, err)
	return r, clk
}

// moverRunner returns a runner, without snapshots, of n entities with a pos, moved by
// the system mover.
func moverRunner(t *testing.T, n int) *Runner {
	t.Helper()
	m := ecm.New()
	for range n {
		ecm.Create1(m, pos{})
	}
	r, err := NewRunner(m, Config{Clock: newFakeClock()})
	require.NoError(t, err)
	r.snapshot = func() ([]byte, error) { return nil, nil }
	require.NoError(t, r.AddSystem(mover{}, SystemConfig{}))
	return r
}

// lineErrorCase is a table row of a test of configuration errors: src fails with a
// *LineError at line whose message contains msg.
type lineErrorCase struct {
	name, src string
	line      int
	msg       string
}

// requireLineError asserts that err is a *LineError at line whose message contains msg,
// and returns the file it names.
func requireLineError(t *testing.T, err error, line int, msg string) (file string) {
	t.Helper()
	var le *LineError
	require.ErrorAs(t, err, &le, "%v", err)
	require.Equal(t, line, le.Line, "%v", err)
	require.Contains(t, err.Error(), msg)
	return le.File
}

func prioElement(p string) *Element {
	return &Element{Name: "plugin", Children: []*Element{{Name: priorityElement, Text: p, Line: 7}}}
}

func TestPhaseOrderAndPriority(t *testing.T) {
	r, _ := newRunner(t, Config{})
	var (
		mu  sync.Mutex
		log []string
	)
	mk := func(name string) *recorder { return &recorder{name: name, mu: &mu, log: &log} }
	five := int32(5)
	require.NoError(t, r.AddSystem(mk("a"), SystemConfig{Name: "a"}))
	require.NoError(t, r.AddSystem(mk("b"), SystemConfig{Name: "b", Element: prioElement("-10")}))
	require.NoError(t, r.AddSystem(mk("c"), SystemConfig{Name: "c"}))
	d := mk("d")
	d.prio = &five
	require.NoError(t, r.AddSystem(prioRecorder{d}, SystemConfig{Name: "d"}))
	e := mk("e")
	e.prio = &five
	require.NoError(t, r.AddSystem(prioRecorder{e}, SystemConfig{Name: "e", Element: prioElement(" -20 ")}))
	require.Equal(t, 5, r.systemCount())

	_, err := r.RunOnce()
	require.NoError(t, err)
	require.Equal(t, []string{
		"pre:e", "pre:b", "pre:a", "pre:c", "pre:d",
		"upd:e", "upd:b", "upd:a", "upd:c", "upd:d",
	}, log[:10])
	post := slices.Clone(log[10:])
	slices.Sort(post)
	require.Equal(t, []string{"post:a", "post:b", "post:c", "post:d", "post:e"}, post)
}

func TestBadPriority(t *testing.T) {
	r, _ := newRunner(t, Config{})
	err := r.AddSystem(&recorder{}, SystemConfig{Element: prioElement("high")})
	requireLineError(t, err, 7, "gz:system_priority")
	require.Equal(t, 0, r.systemCount())
}

// Gazebo reads only <gz:system_priority>; an element that looks like a priority but
// lacks the prefix is refused at its line rather than silently leaving priority 0.
func TestUnprefixedPriority(t *testing.T) {
	for _, name := range []string{"system_priority", "gz::system_priority", "ign:system_priority"} {
		t.Run(name, func(t *testing.T) {
			r, _ := newRunner(t, Config{})
			el := &Element{Name: "plugin", Children: []*Element{
				{Name: "speed", Text: "1", Line: 4},
				{Name: name, Text: "-10", Line: 5},
			}}
			err := r.AddSystem(&recorder{}, SystemConfig{Name: "x", Element: el})
			requireLineError(t, err, 5, "<"+name+"> is not read: the priority element is <gz:system_priority>")
			require.Equal(t, 0, r.systemCount())
		})
	}
	// Other elements ending in priority are the plugin's own.
	r, _ := newRunner(t, Config{})
	el := &Element{Name: "plugin", Children: []*Element{{Name: "my_system_priority", Text: "x", Line: 3}}}
	require.NoError(t, r.AddSystem(&recorder{}, SystemConfig{Name: "x", Element: el}))
}

type failing struct{}

func (failing) Configure(ecm.Entity, *Element, *ecm.Manager) error { return errors.New("boom") }

func TestConfigureError(t *testing.T) {
	r, _ := newRunner(t, Config{})
	err := r.AddSystem(failing{}, SystemConfig{Name: "f"})
	require.EqualError(t, err, `sim: configuring system "f": boom`)
	require.Equal(t, 0, r.systemCount())
}

// infoLog records the UpdateInfo of each phase call.
type infoLog struct {
	mu     sync.Mutex
	pre    []UpdateInfo
	post   []UpdateInfo
	resets []UpdateInfo
	onPre  func(UpdateInfo)
}

func (s *infoLog) PreUpdate(info UpdateInfo, _ *ecm.Manager) {
	s.mu.Lock()
	s.pre = append(s.pre, info)
	s.mu.Unlock()
	if s.onPre != nil {
		s.onPre(info)
	}
}

func (s *infoLog) PostUpdate(info UpdateInfo, _ ecm.Reader) {
	s.mu.Lock()
	s.post = append(s.post, info)
	s.mu.Unlock()
}

func (s *infoLog) Reset(info UpdateInfo, _ *ecm.Manager) { s.resets = append(s.resets, info) }

const ms = time.Millisecond

func TestUpdateInfoUnpaused(t *testing.T) {
	r, _ := newRunner(t, Config{StepSize: 10 * ms, InitialSimTime: time.Second})
	s := &infoLog{}
	require.NoError(t, r.AddSystem(s, SystemConfig{}))
	for range 3 {
		_, err := r.RunOnce()
		require.NoError(t, err)
	}
	require.Equal(t, []UpdateInfo{
		{SimTime: time.Second + 10*ms, Dt: 10 * ms, Iterations: 1},
		{SimTime: time.Second + 20*ms, Dt: 10 * ms, Iterations: 2},
		{SimTime: time.Second + 30*ms, Dt: 10 * ms, Iterations: 3},
	}, s.pre)
	require.Equal(t, s.pre, s.post)
	require.Equal(t, s.pre[2], r.Info())
}

func TestUpdateInfoPaused(t *testing.T) {
	r, clk := newRunner(t, Config{StepSize: 10 * ms, Paused: true})
	s := &infoLog{}
	require.NoError(t, r.AddSystem(s, SystemConfig{}))
	run := func() UpdateInfo {
		info, err := r.RunOnce()
		require.NoError(t, err)
		clk.Advance(ms)
		return info
	}
	// Started paused: systems run, time and iterations stay.
	require.Equal(t, UpdateInfo{Paused: true}, run())
	require.Equal(t, UpdateInfo{Paused: true}, run())
	r.SetPaused(false)
	require.False(t, r.Paused())
	require.Equal(t, UpdateInfo{SimTime: 10 * ms, Dt: 10 * ms, Iterations: 1}, run())
	require.Equal(t, UpdateInfo{SimTime: 20 * ms, RealTime: ms, Dt: 10 * ms, Iterations: 2}, run())
	r.SetPaused(true)
	// Real time stops with the pause.
	require.Equal(t, UpdateInfo{SimTime: 20 * ms, RealTime: 2 * ms, Iterations: 2, Paused: true}, run())
	require.Equal(t, UpdateInfo{SimTime: 20 * ms, RealTime: 2 * ms, Iterations: 2, Paused: true}, run())
	r.SetPaused(false)
	require.Equal(t, UpdateInfo{SimTime: 30 * ms, RealTime: 2 * ms, Dt: 10 * ms, Iterations: 3}, run())
	require.Len(t, s.pre, 7)
}

func TestStepWhilePaused(t *testing.T) {
	r, _ := newRunner(t, Config{StepSize: 10 * ms, Paused: true})
	s := &infoLog{}
	require.NoError(t, r.AddSystem(s, SystemConfig{}))
	require.False(t, r.Step(0))
	require.True(t, r.Step(2))
	require.True(t, r.Step(1)) // extends the stepping
	require.NoError(t, r.Run(context.Background(), 3))
	require.True(t, r.Paused())
	require.Len(t, s.pre, 3)
	for i, info := range s.pre {
		require.False(t, info.Paused)
		require.Equal(t, uint64(i+1), info.Iterations)
	}

	// Paused steps of Run do not count: stop it from a system.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.onPre = func(info UpdateInfo) {
		require.True(t, info.Paused)
		require.Equal(t, 30*ms, info.SimTime)
		require.Zero(t, info.Dt)
		if len(s.pre) == 8 {
			cancel()
		}
	}
	require.ErrorIs(t, r.Run(ctx, 1), context.Canceled)
	require.Len(t, s.pre, 8)

	s.onPre = nil
	r.SetPaused(false)
	require.False(t, r.Step(1), "Step applies only while paused")
}

func TestRealTimeFactor(t *testing.T) {
	r, clk := newRunner(t, Config{StepSize: 10 * ms, RealTimeFactor: 2})
	s := &infoLog{}
	require.NoError(t, r.AddSystem(s, SystemConfig{}))
	start := clk.Now()
	require.NoError(t, r.Run(context.Background(), 100))
	require.Equal(t, 500*ms, clk.Now().Sub(start))
	last := r.Info()
	require.Equal(t, time.Second, last.SimTime)
	require.Equal(t, 495*ms, last.RealTime)

	// As fast as possible: no timer at all.
	require.NoError(t, r.SetRealTimeFactor(0))
	timers := clk.timers
	require.NoError(t, r.Run(context.Background(), 50))
	require.Equal(t, timers, clk.timers)
	require.Equal(t, 1500*ms, r.Info().SimTime)

	// Steps slower than the period: no sleeping, the schedule restarts.
	require.NoError(t, r.SetRealTimeFactor(2))
	s.onPre = func(UpdateInfo) { clk.Advance(8 * ms) }
	start = clk.Now()
	require.NoError(t, r.Run(context.Background(), 10))
	require.Equal(t, 80*ms, clk.Now().Sub(start))

	require.Error(t, r.SetRealTimeFactor(-1))
	_, err := NewRunner(ecm.New(), Config{RealTimeFactor: -2})
	require.Error(t, err)
}

type keepSys struct{ pre int }

func (k *keepSys) PreUpdate(UpdateInfo, *ecm.Manager) { k.pre++ }

type factorySys struct {
	configured *int
	pre        int
}

func (f *factorySys) Configure(ecm.Entity, *Element, *ecm.Manager) error {
	*f.configured++
	return nil
}
func (f *factorySys) PreUpdate(UpdateInfo, *ecm.Manager) { f.pre++ }

func TestResetTimeAndSystems(t *testing.T) {
	r, _ := newRunner(t, Config{StepSize: 10 * ms, InitialSimTime: time.Second})
	var restored [][]byte
	r.snapshot = func() ([]byte, error) { return []byte("initial"), nil }
	r.restore = func(b []byte) error { restored = append(restored, b); return nil }

	s := &infoLog{}
	require.NoError(t, r.AddSystem(s, SystemConfig{}))
	keep := &keepSys{}
	require.NoError(t, r.AddSystem(keep, SystemConfig{Name: "keep"}))
	configured, made := 0, 0
	var instances []*factorySys
	factory := func() System {
		made++
		f := &factorySys{configured: &configured}
		instances = append(instances, f)
		return f
	}
	require.NoError(t, r.AddSystem(factory(), SystemConfig{Name: "fact", Factory: factory}))

	for range 5 {
		_, err := r.RunOnce()
		require.NoError(t, err)
	}
	r.Reset()
	info, err := r.RunOnce()
	require.NoError(t, err)
	want := UpdateInfo{SimTime: time.Second, Dt: -50 * ms}
	require.Equal(t, want, info)
	require.Equal(t, []UpdateInfo{want}, s.resets)
	require.Equal(t, [][]byte{[]byte("initial")}, restored)
	require.Len(t, s.pre, 5, "no update phase on the reset step")
	require.Equal(t, 5, keep.pre)
	require.Equal(t, 2, made)
	require.Equal(t, 2, configured)

	info, err = r.RunOnce()
	require.NoError(t, err)
	require.Equal(t, UpdateInfo{SimTime: time.Second + 10*ms, Dt: 10 * ms, Iterations: 1}, info)
	require.Equal(t, 6, keep.pre)
	require.Equal(t, 5, instances[0].pre)
	require.Equal(t, 1, instances[1].pre)

	// A reset while paused stays paused.
	r.SetPaused(true)
	r.Reset()
	info, err = r.RunOnce()
	require.NoError(t, err)
	require.Equal(t, UpdateInfo{SimTime: time.Second, Dt: -10 * ms, Paused: true}, info)

	// No initial state: the reset fails clearly.
	r2, _ := newRunner(t, Config{})
	r2.snapshot = func() ([]byte, error) { return nil, errors.New("no state") }
	r2.Reset()
	_, err = r2.RunOnce()
	require.ErrorContains(t, err, "sim: reset: initial state unavailable: no state")
}

type pos struct{ X float64 }

type spawner struct{}

func (spawner) Update(info UpdateInfo, m *ecm.Manager) {
	e, p := ecm.First[pos](m)
	p.X++
	m.SetChanged(e, ecm.ID[pos](m), ecm.OneTimeChange)
	m.CreateEntity()
}

func TestResetRestoresManager(t *testing.T) {
	m := ecm.New()
	ecm.Register(m, "test.pos", ecm.Codec[pos]{})
	e := ecm.Create1(m, pos{X: 1})
	_, err := m.State(nil, nil) // Reset restores the state the runner took at its start
	require.NoError(t, err)
	r, err := NewRunner(m, Config{Clock: newFakeClock()})
	require.NoError(t, err)
	require.NoError(t, r.AddSystem(spawner{}, SystemConfig{}))
	for range 3 {
		_, err := r.RunOnce()
		require.NoError(t, err)
	}
	require.Equal(t, 4, m.EntityCount())
	r.Reset()
	_, err = r.RunOnce()
	require.NoError(t, err)
	require.Equal(t, 1, m.EntityCount())
	p, ok := ecm.ComponentData[pos](m, e)
	require.True(t, ok)
	require.Equal(t, pos{X: 1}, p)
}

// barrierSys's PostUpdate returns only when all n of them are in PostUpdate at once,
// which proves that they run in parallel; it reads the Manager meanwhile.
type barrierSys struct {
	n       int
	arrived *atomic.Int32
	release chan struct{}
	sum     *atomic.Int64
}

func (b *barrierSys) PostUpdate(info UpdateInfo, rd ecm.Reader) {
	if int(b.arrived.Add(1)) == b.n {
		close(b.release)
	}
	select {
	case <-b.release:
	case <-time.After(10 * time.Second):
		panic("PostUpdate systems did not run in parallel")
	}
	ecm.EachRO1(rd, func(e ecm.Entity, p pos) bool {
		b.sum.Add(int64(p.X))
		return true
	})
	if v, ok := ecm.ComponentData[pos](rd, 1); ok {
		b.sum.Add(int64(v.X))
	}
}

type mover struct{}

func (mover) Update(_ UpdateInfo, m *ecm.Manager) {
	ecm.Each1(m, func(e ecm.Entity, p *pos) bool {
		p.X++
		return true
	})
}

func TestParallelPostUpdate(t *testing.T) {
	r := moverRunner(t, 100)
	const n = 8
	var sum atomic.Int64
	var barriers []*barrierSys
	for range n {
		b := &barrierSys{n: n, sum: &sum}
		barriers = append(barriers, b)
		require.NoError(t, r.AddSystem(b, SystemConfig{}))
	}
	const steps = 20
	for i := range steps {
		arrived := new(atomic.Int32)
		release := make(chan struct{})
		for _, b := range barriers {
			b.arrived, b.release = arrived, release
		}
		_, err := r.RunOnce()
		require.NoError(t, err, "step %d", i)
	}
	// Step k: every entity at k; each system adds 100*k + k.
	want := int64(0)
	for k := 1; k <= steps; k++ {
		want += n * 101 * int64(k)
	}
	require.Equal(t, want, sum.Load())
}

func TestRunBusy(t *testing.T) {
	r, _ := newRunner(t, Config{})
	var got error
	s := &infoLog{onPre: func(UpdateInfo) { _, got = r.RunOnce() }}
	require.NoError(t, r.AddSystem(s, SystemConfig{}))
	_, err := r.RunOnce()
	require.NoError(t, err)
	require.ErrorIs(t, got, ErrRunning)
}

func TestAddSystemDuringStep(t *testing.T) {
	r, _ := newRunner(t, Config{})
	late := &keepSys{}
	added := false
	s := &infoLog{onPre: func(UpdateInfo) {
		if !added {
			added = true
			require.NoError(t, r.AddSystem(late, SystemConfig{}))
		}
	}}
	require.NoError(t, r.AddSystem(s, SystemConfig{}))
	for range 3 {
		_, err := r.RunOnce()
		require.NoError(t, err)
	}
	require.Equal(t, 2, late.pre, "active from the next step")
}

func TestStepAllocs(t *testing.T) {
	r := moverRunner(t, 10)
	require.NoError(t, r.AddSystem(&keepSys{}, SystemConfig{}))
	_, err := r.RunOnce()
	require.NoError(t, err)
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := r.RunOnce(); err != nil {
			panic(err)
		}
	})
	require.Zero(t, allocs, fmt.Sprint("allocations per step: ", allocs))
}

type nopPost struct{}

func (nopPost) PostUpdate(UpdateInfo, ecm.Reader) {}

func TestParallelStepAllocs(t *testing.T) {
	r, _ := newRunner(t, Config{})
	r.snapshot = func() ([]byte, error) { return nil, nil }
	for range 3 {
		require.NoError(t, r.AddSystem(nopPost{}, SystemConfig{}))
	}
	_, err := r.RunOnce()
	require.NoError(t, err)
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := r.RunOnce(); err != nil {
			panic(err)
		}
	})
	require.Zero(t, allocs)
}

// do runs its function between steps, never during one, while Run steps on another
// goroutine; waitUntil sees a requested reset step taken.
func TestDoBetweenSteps(t *testing.T) {
	r, err := NewRunner(ecm.New(), Config{Paused: true, PausedPeriod: time.Millisecond})
	require.NoError(t, err)
	s := &stepFlag{}
	require.NoError(t, r.AddSystem(s, SystemConfig{}))
	e := ecm.Create1(r.Manager(), Name("a"))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx, 0) }()
	for i := range 50 {
		r.do(func(m *ecm.Manager) {
			require.False(t, s.in.Load())
			ecm.SetComponentData(m, e, Name(fmt.Sprint(i)))
		})
	}
	require.True(t, r.Step(5))
	require.NoError(t, r.waitUntil(ctx, func() bool { return !r.stepping }))
	require.Equal(t, uint64(5), r.Info().Iterations)
	gen := r.requestReset()
	var after UpdateInfo
	require.NoError(t, r.waitUntil(ctx, func() bool { after = r.last; return r.resetsDone >= gen }))
	require.Equal(t, uint64(0), after.Iterations, "the reset step was taken")
	require.Equal(t, time.Duration(0), after.SimTime)
	cancel()
	require.ErrorIs(t, <-done, context.Canceled)
	short, stop := context.WithTimeout(context.Background(), time.Millisecond)
	defer stop()
	require.ErrorIs(t, r.waitUntil(short, func() bool { return false }), context.DeadlineExceeded)
}

// stepFlag is set from the first phase of a step to the last.
type stepFlag struct{ in atomic.Bool }

func (s *stepFlag) PreUpdate(UpdateInfo, *ecm.Manager) { s.in.Store(true) }
func (s *stepFlag) PostUpdate(UpdateInfo, ecm.Reader)  { s.in.Store(false) }
