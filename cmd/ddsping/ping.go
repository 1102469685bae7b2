package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/waitset"
)

// takeBatch is how many samples one take returns at most.
const takeBatch = 64

// ponger echoes the samples of the ping topics, reliable and best-effort.
type ponger struct {
	pairs []pongPair
	// perf answers ddsperf's pingers; nil when not asked to.
	perf *perfPonger
	ws   *waitset.WaitSet
	// Echoed counts the samples written back.
	echoed atomic.Uint64
}

type pongPair struct {
	r  *dds.DataReader[sample]
	rc *dds.ReadCondition[sample]
	w  *dds.DataWriter[sample]
	// data and infos are the pair's take buffers.
	data  []sample
	infos []dds.SampleInfo
}

// newPonger creates the readers and writers of pong in n, and those of a ddsperf pong
// when perf says so (n must then announce perfUserData).
func newPonger(n *node, perf bool) (*ponger, error) {
	p := &ponger{ws: waitset.New()}
	if perf {
		pp, err := newPerfPonger(n, true)
		if err != nil {
			return nil, err
		}
		if err := p.addPerf(pp); err != nil {
			return nil, err
		}
	}
	for _, reliable := range []bool{true, false} {
		ping, pong := pingTopics(reliable)
		wq, rq := endpointQos(reliable, pingDepth)
		w, err := n.writer(pong, wq)
		if err != nil {
			return nil, err
		}
		r, err := n.reader(ping, rq)
		if err != nil {
			return nil, err
		}
		rc, err := r.CreateReadCondition(dds.States{})
		if err != nil {
			return nil, err
		}
		if err := p.ws.AttachCondition(rc); err != nil {
			return nil, err
		}
		p.pairs = append(p.pairs, pongPair{r: r, rc: rc, w: w, data: make([]sample, takeBatch), infos: make([]dds.SampleInfo, takeBatch)})
	}
	return p, nil
}

// echo writes back what pp's reader has.
func (p *ponger) echo(ctx context.Context, pp *pongPair) error {
	return drain(ctx, pp.r, pp.data, pp.infos, func(data []sample, infos []dds.SampleInfo) error {
		for j := range data {
			if !infos[j].ValidData {
				continue
			}
			if err := pp.w.Write(ctx, &data[j]); err != nil && ctx.Err() == nil {
				return fmt.Errorf("pong: %w", err)
			}
			p.echoed.Add(1)
		}
		return nil
	})
}

// listen echoes samples from the readers' listeners until ctx ends: on the goroutine
// that received each ping when the node's participant has dds.ListenersOnReceive, so
// that no goroutine is woken between a ping and its answer. The wait set is not used.
func (p *ponger) listen(ctx context.Context) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	fail := func(err error) {
		if err != nil {
			cancel(err)
		}
	}
	for i := range p.pairs {
		pp := &p.pairs[i]
		l := dds.ReaderListener[sample]{OnDataAvailable: func(*dds.DataReader[sample]) { fail(p.echo(ctx, pp)) }}
		if err := pp.r.SetListener(l, listener.StatusMask(listener.DataAvailable)); err != nil {
			return err
		}
	}
	if p.perf != nil {
		if err := p.perf.listen(ctx, fail); err != nil {
			return err
		}
	}
	<-ctx.Done()
	if err := context.Cause(ctx); !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

// run echoes samples until ctx ends.
func (p *ponger) run(ctx context.Context) error {
	conds := make([]waitset.Condition, 0, len(p.pairs))
	for {
		var ok bool
		if conds, ok = waitOn(ctx, p.ws, conds); !ok {
			return nil
		}
		for i := range p.pairs {
			pp := &p.pairs[i]
			if !slices.Contains(conds, waitset.Condition(pp.rc)) {
				continue // nothing for this one: no take that finds nothing
			}
			if err := p.echo(ctx, pp); err != nil {
				return err
			}
		}
		if p.perf != nil && p.perf.triggered(conds) {
			if err := p.perf.serve(ctx); err != nil {
				return err
			}
		}
	}
}

// addPerf makes p answer ddsperf's pingers with pp.
func (p *ponger) addPerf(pp *perfPonger) error {
	p.perf = pp
	for _, c := range pp.conditions() {
		if err := p.ws.AttachCondition(c); err != nil {
			return err
		}
	}
	return nil
}

// answerPerfPings answers ddsperf's pingers from n until the returned function is
// called, as every ddsperf participant does, pinger or not: a ddsperf pinger counts
// every participant that announces perfUserData and waits for its pong.
func answerPerfPings(ctx context.Context, n *node) (stop func() error, err error) {
	pp, err := newPerfPonger(n, false)
	if err != nil {
		return nil, err
	}
	po := &ponger{ws: waitset.New()}
	if err := po.addPerf(pp); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- po.run(ctx) }()
	return func() error {
		cancel()
		return <-done
	}, nil
}

// total returns the number of samples echoed.
func (p *ponger) total() uint64 {
	if p.perf == nil {
		return p.echoed.Load()
	}
	return p.echoed.Load() + p.perf.echoed.Load()
}

func setupPong(fs *flag.FlagSet, o *options) func(context.Context) error {
	dur := fs.Duration("duration", 0, "stop after this long (0: run until interrupted)")
	return func(ctx context.Context) error {
		// Announced as a ddsperf participant, or ddsperf pingers do not wait for the pongs.
		// Listeners on the receive goroutine answer a ping where it arrives.
		n, err := newNodeWith(o, "ddsping pong", perfUserData(), dds.ListenersOnReceive())
		if err != nil {
			return err
		}
		defer n.close()
		p, err := newPonger(n, true)
		if err != nil {
			return err
		}
		if !o.json {
			pr, _, _ := perfTopics(true)
			pu, _, _ := perfTopics(false)
			fmt.Fprintf(o.out, "pong: domain %d, answering %s, %s (ddsping) and %s, %s (ddsperf)\n", o.domain, topicPing, topicPingBE, pr, pu)
		}
		ctx, cancel := durationUntil(ctx, *dur)
		defer cancel()
		err = p.listen(ctx)
		if o.json {
			return json.NewEncoder(o.out).Encode(map[string]any{"echoed": p.total()})
		}
		fmt.Fprintf(o.out, "pong: echoed %d samples\n", p.total())
		return err
	}
}

// pingConfig is what a ping run measures.
type pingConfig struct {
	size     int
	rate     float64
	count    int
	duration time.Duration
	reliable bool
	// wait bounds the wait for pong to match.
	wait time.Duration
	// warmup is the number of round trips not counted.
	warmup int
	// interval is the period of the statistics lines; 0 prints none.
	interval time.Duration
	// ddsperf also pings on ddsperf's topics, for a Cyclone DDS ddsperf pong; the
	// participant must announce perfUserData.
	ddsperf bool
}

// pinger sends pings and times the pongs.
type pinger struct {
	cfg pingConfig
	id  uint32
	// links are the candidate links until one matches, then link is the one kept.
	links []pingLink
	link  pingLink
	ws    *waitset.WaitSet
	tick  waitset.GuardCondition
}

// pingResult is the outcome of a ping run.
type pingResult struct {
	// Peer is the kind of pong that answered: "ddsping" or "ddsperf".
	Peer         string   `json:"peer"`
	Size         int      `json:"size"`
	Reliable     bool     `json:"reliable"`
	Rate         float64  `json:"rate_hz"`
	RTT          rttStats `json:"rtt"`
	Sent         uint64   `json:"sent"`
	Received     uint64   `json:"received"`
	Lost         uint64   `json:"lost"`
	Seconds      float64  `json:"seconds"`
	AllocsPerRTT float64  `json:"allocs_per_roundtrip"`
	// hist is the histogram of the round trips, for -svg.
	hist *hist
}

// newPinger creates the writers and readers of a pinger in n: on ddsping's topics, and
// on ddsperf's too when cfg.ddsperf says so.
func newPinger(n *node, cfg pingConfig) (*pinger, error) {
	p := &pinger{cfg: cfg, id: rand.Uint32(), ws: waitset.New()}
	nl, err := newNativeLink(n, cfg.reliable)
	if err != nil {
		return nil, err
	}
	p.links = append(p.links, nl)
	if cfg.ddsperf {
		pl, err := newPerfLink(n, cfg.reliable, p.id)
		if err != nil {
			return nil, err
		}
		p.links = append(p.links, pl)
	}
	if err := p.ws.AttachCondition(&p.tick); err != nil {
		return nil, err
	}
	return p, nil
}

// close deletes the pinger's readers and writers.
func (p *pinger) close(*node) error {
	if p.link != nil {
		if err := p.ws.DetachCondition(p.link.readCondition()); err != nil {
			return err
		}
	}
	for _, l := range p.links {
		if err := l.close(); err != nil {
			return err
		}
	}
	p.links = nil
	return nil
}

// perfGrace is how long a pinger whose ddsperf link matched first waits for its ddsping
// link to match too: a ddsping pong serves both, and ddsping's own topics measure more
// (a deeper history, a timestamp in the sample).
const perfGrace = 100 * time.Millisecond

// waitMatch waits until the ping writer and the pong reader of one link are both
// matched, keeps that link (deleting the others) and returns how long that took.
func (p *pinger) waitMatch(ctx context.Context) (time.Duration, error) {
	start := time.Now()
	var conds []waitset.Condition
	for _, l := range p.links {
		cs, err := l.statusConditions()
		if err != nil {
			return 0, err
		}
		conds = append(conds, cs...)
	}
	i, err := waitFirstMatch(ctx, conds, p.matchedLink)
	if err != nil {
		return 0, err
	}
	if i < 0 {
		return time.Since(start), fmt.Errorf("%w: no match within %v (%s)", errFailed, time.Since(start).Round(time.Millisecond), p.matchSummary())
	}
	return time.Since(start), p.keep(i)
}

// waitFirstMatch waits until matched reports an index, looking again each time one of
// conds triggers, and returns it; -1 when ctx ends first. Index 0 is ddsping's own
// topics: another one is returned only when 0 has not matched within perfGrace of it.
func waitFirstMatch(ctx context.Context, conds []waitset.Condition, matched func() (int, error)) (int, error) {
	ws := waitset.New()
	for _, c := range conds {
		if err := ws.AttachCondition(c); err != nil {
			return -1, err
		}
	}
	var first time.Time // when an index other than 0 matched
	for {
		i, err := matched()
		if err != nil || i == 0 {
			return i, err
		}
		wctx, cancel := ctx, context.CancelFunc(func() {})
		if i > 0 {
			if first.IsZero() {
				first = time.Now()
			}
			if time.Since(first) >= perfGrace {
				return i, nil
			}
			wctx, cancel = context.WithDeadline(ctx, first.Add(perfGrace))
		}
		_, err = ws.Wait(wctx)
		cancel()
		if err != nil && ctx.Err() != nil {
			return -1, nil
		}
	}
}

// matchedLink returns the index of the first link whose writer and reader both matched,
// -1 when none has.
func (p *pinger) matchedLink() (int, error) {
	for i, l := range p.links {
		nw, nr, err := l.matched()
		if err != nil {
			return -1, err
		}
		if nw > 0 && nr > 0 {
			return i, nil
		}
	}
	return -1, nil
}

// matchSummary says what each link matched.
func (p *pinger) matchSummary() string {
	var b strings.Builder
	for i, l := range p.links {
		nw, nr, _ := l.matched()
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s: writer matched %d readers, reader matched %d writers", l.topics(), nw, nr)
	}
	return b.String()
}

// keep makes link i the pinger's link and deletes the others.
func (p *pinger) keep(i int) error {
	p.link = p.links[i]
	for j, l := range p.links {
		if j != i {
			if err := l.close(); err != nil {
				return err
			}
		}
	}
	p.links = []pingLink{p.link}
	return p.ws.AttachCondition(p.link.readCondition())
}

// intervalFunc receives the statistics of the round trips of one interval.
type intervalFunc func(elapsed time.Duration, s rttStats)

// run pings until the count or the duration is reached or ctx ends. It calls report
// every cfg.interval.
func (p *pinger) run(ctx context.Context, report intervalFunc) (pingResult, error) {
	cfg := p.cfg
	res := pingResult{Peer: p.link.peer(), Size: cfg.size, Reliable: cfg.reliable, Rate: cfg.rate}
	ctx, cancel := durationUntil(ctx, cfg.duration)
	defer cancel()

	// A ticker goroutine raises the guard every 10 ms: interval reports and the
	// timeout of a lost ping.
	const tickPeriod = 10 * time.Millisecond
	tctx, tcancel := context.WithCancel(context.Background())
	defer tcancel()
	go tickEvery(tctx, tickPeriod, &p.tick)

	m := &pingRun{p: p, out: sample{ID: p.id, Payload: make([]byte, cfg.size)}}
	m.onPong = m.pong
	m.start = time.Now()
	m.lastReport = m.start
	if cfg.warmup == 0 {
		m.startMeasuring()
	}
	// Pacing: with a rate, a sender goroutine writes; without, listenLoop writes the
	// next ping when the answer to the last arrives (one outstanding).
	senderDone := make(chan error, 1)
	sctx, scancel := context.WithCancel(ctx)
	defer scancel()
	if cfg.rate > 0 {
		go func() { senderDone <- m.pace(sctx) }()
	} else if err := m.send(); err != nil {
		return res, err
	}

	var err error
	if cfg.rate == 0 {
		err = m.listenLoop(ctx, report)
	} else {
		err = m.loop(ctx, report)
	}
	if cfg.rate > 0 {
		scancel()
		if serr := <-senderDone; err == nil && serr != nil {
			err = serr
		}
		// Collect the answers still in flight, for a fair loss count.
		gctx, gcancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		m.drain = true
		if derr := m.loop(gctx, nil); err == nil && derr != nil {
			err = derr
		}
		gcancel()
	}
	m.finish()
	if cfg.interval > 0 && m.iv.n > 0 && report != nil {
		report(time.Since(m.start), m.iv.stats())
	}
	res.RTT = m.total.stats()
	total := m.total
	res.hist = &total
	res.Received = m.total.n
	res.Seconds = m.seconds
	res.AllocsPerRTT = m.allocsPerRTT
	res.Sent = m.sentMeasured.Load()
	if cfg.rate == 0 {
		res.Lost = m.lost
		// The ping outstanding at the end is neither received nor lost.
		res.Sent = min(res.Sent, res.Received+res.Lost)
	} else {
		res.Lost = res.Sent - min(res.Sent, res.Received)
	}
	if err != nil {
		return res, err
	}
	if !m.measuring.Load() || m.total.n == 0 {
		return res, fmt.Errorf("%w: no answer from pong (%d pings sent)", errFailed, m.sent.Load())
	}
	return res, nil
}

// pingRun is the state of one run of a pinger.
type pingRun struct {
	p   *pinger
	out sample
	// sent counts every ping, sentMeasured those sent after the warm-up; measuring
	// says the warm-up is over. The pacing goroutine updates them.
	sent, sentMeasured atomic.Uint64
	measuring          atomic.Bool
	warm               int
	answered           bool
	drain              bool
	lost               uint64
	lastSent           time.Time
	start, lastReport  time.Time
	measureStart       time.Time
	allocs0            uint64
	total, iv          hist
	// onPong is m.pong, made once: a method value passed at each take allocated
	// one closure per round trip.
	onPong func(*sample, *dds.SampleInfo)
	// Filled by finish.
	done         bool
	seconds      float64
	allocsPerRTT float64
}

// send writes the next ping (one outstanding).
func (m *pingRun) send() error {
	m.out.Seq++
	m.out.Stamp = now()
	m.lastSent = time.Now()
	m.answered = false
	m.sent.Add(1)
	if m.measuring.Load() {
		m.sentMeasured.Add(1)
	}
	return m.p.link.write(context.Background(), &m.out)
}

// pace writes pings at the configured rate until ctx ends; it returns a write error.
func (m *pingRun) pace(ctx context.Context) error {
	period := time.Duration(float64(time.Second) / m.p.cfg.rate)
	next := time.Now()
	s := sample{ID: m.out.ID, Payload: m.out.Payload}
	for ctx.Err() == nil {
		if c := m.p.cfg.count; c > 0 && m.sentMeasured.Load() >= uint64(c) {
			return nil
		}
		next = next.Add(period)
		if d := time.Until(next); d > 0 {
			time.Sleep(d)
		}
		s.Seq++
		s.Stamp = now()
		m.sent.Add(1)
		if m.measuring.Load() {
			m.sentMeasured.Add(1)
		}
		if err := m.p.link.write(ctx, &s); err != nil && ctx.Err() == nil {
			return err
		}
	}
	return nil
}

// startMeasuring ends the warm-up.
func (m *pingRun) startMeasuring() {
	m.measureStart, m.allocs0 = time.Now(), mallocs()
	m.measuring.Store(true)
}

// finish records the duration and allocations of the measurement.
func (m *pingRun) finish() {
	if m.done || !m.measuring.Load() {
		return
	}
	m.done = true
	m.seconds = time.Since(m.measureStart).Seconds()
	if n := m.total.n; n > 0 {
		m.allocsPerRTT = float64(mallocs()-m.allocs0) / float64(n)
	}
}

// listenLoop is loop for one ping outstanding: the pong reader's listener takes each
// pong and sends the next ping, on the goroutine that received the pong (the node has
// dds.ListenersOnReceive), and this goroutine only handles the ticks. mu serializes the
// two.
func (m *pingRun) listenLoop(ctx context.Context, report intervalFunc) error {
	p, cfg := m.p, m.p.cfg
	var mu sync.Mutex
	var end waitset.GuardCondition
	var err error
	stop := func(e error) { // with mu held
		if err == nil {
			err = e
		}
		end.SetTriggerValue(true)
	}
	if err := p.ws.DetachCondition(p.link.readCondition()); err != nil {
		return err
	}
	if err := p.ws.AttachCondition(&end); err != nil {
		return err
	}
	defer func() {
		_ = p.ws.DetachCondition(&end)
		_ = p.ws.AttachCondition(p.link.readCondition()) // close detaches it
	}()
	onData := func() {
		mu.Lock()
		defer mu.Unlock()
		if end.TriggerValue() {
			return
		}
		if e := m.takePongs(ctx); e != nil {
			stop(e)
			return
		}
		if cfg.count > 0 && int(m.total.n) >= cfg.count {
			m.finish()
			stop(nil)
			return
		}
		if m.answered {
			if e := m.send(); e != nil {
				stop(e)
			}
		}
	}
	if err := p.link.onData(onData); err != nil {
		return err
	}
	defer func() { _ = p.link.onData(nil) }()
	onData() // pongs that came before the listener
	conds := make([]waitset.Condition, 0, 2)
	for {
		var ok bool
		conds, ok = waitOn(ctx, p.ws, conds)
		mu.Lock()
		if !ok {
			end.SetTriggerValue(true)
		}
		if end.TriggerValue() {
			mu.Unlock()
			return err
		}
		if slices.Contains(conds, waitset.Condition(&p.tick)) {
			if e := m.onTick(report); e != nil {
				stop(e)
			}
		}
		mu.Unlock()
	}
}

// loop takes the pongs of a paced run (a rate) until the count is reached or ctx
// ends; in drain mode it stops as soon as every ping is answered.
func (m *pingRun) loop(ctx context.Context, report intervalFunc) error {
	p, cfg := m.p, m.p.cfg
	conds := make([]waitset.Condition, 0, 2)
	for {
		if m.drain && m.total.n >= m.sentMeasured.Load() {
			return nil
		}
		var ok bool
		if conds, ok = waitOn(ctx, p.ws, conds); !ok {
			return nil
		}
		for _, c := range conds {
			if c != waitset.Condition(&p.tick) {
				continue
			}
			if err := m.onTick(report); err != nil {
				return err
			}
		}
		if err := m.takePongs(ctx); err != nil {
			return err
		}
		if cfg.count > 0 && int(m.total.n) >= cfg.count && !m.drain {
			m.finish()
			return nil
		}
	}
}

// onTick reports the interval when it is time, and sends the next ping when the last
// one (or its pong) is given up as lost: after a timeout, shorter while warming up,
// when a pong writer may not yet know our reader.
func (m *pingRun) onTick(report intervalFunc) error {
	cfg := m.p.cfg
	m.p.tick.SetTriggerValue(false)
	if cfg.interval > 0 && report != nil && time.Since(m.lastReport) >= cfg.interval {
		m.lastReport = time.Now()
		report(time.Since(m.start), m.iv.stats())
		m.iv.reset()
	}
	timeout := time.Second
	if !m.measuring.Load() {
		timeout = 20 * time.Millisecond
	}
	if cfg.rate != 0 || m.drain || time.Since(m.lastSent) <= timeout {
		return nil
	}
	if m.measuring.Load() {
		m.lost++
	}
	return m.send()
}

// takePongs takes the pongs there are and accounts for them.
func (m *pingRun) takePongs(ctx context.Context) error {
	return m.p.link.take(ctx, m.onPong)
}

// waitOn waits until a condition of ws triggers; it reports false when ctx ended first,
// which ends the run. (WaitInto's only other error, a second goroutine waiting on ws,
// cannot happen: each WaitSet here has one waiter.)
func waitOn(ctx context.Context, ws *waitset.WaitSet, conds []waitset.Condition) ([]waitset.Condition, bool) {
	conds, err := ws.WaitInto(ctx, conds)
	return conds, err == nil
}

// drain takes what r has, in batches of up to len(data) samples, passes each batch to
// each and gives its values back to r (ReturnLoan); it returns when a take finds fewer
// than len(data) samples: what comes after that triggers the caller's condition again,
// and a take that finds nothing is work a round trip does not need.
func drain[T any](ctx context.Context, r *dds.DataReader[T], data []T, infos []dds.SampleInfo, each func([]T, []dds.SampleInfo) error) error {
	for {
		n, err := r.TakeInto(ctx, data, infos, dds.NoWait())
		if n == 0 || errors.Is(err, dds.ErrNoData) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := each(data[:n], infos[:n]); err != nil {
			return err
		}
		if err := r.ReturnLoan(data[:n]); err != nil {
			return err
		}
		if n < len(data) {
			return nil
		}
	}
}

// pong records the answer s.
func (m *pingRun) pong(s *sample, info *dds.SampleInfo) {
	if !info.ValidData || s.ID != m.p.id {
		return
	}
	rtt := time.Duration(now() - s.Stamp)
	if m.p.cfg.rate == 0 {
		if s.Seq != m.out.Seq {
			return // the answer to a ping given up on
		}
		m.answered = true
	}
	if !m.measuring.Load() {
		if m.warm++; m.warm >= m.p.cfg.warmup {
			m.startMeasuring()
		}
		return
	}
	if c := m.p.cfg.count; c > 0 && m.total.n >= uint64(c) {
		return // answers to the pings in flight at the end of a paced run
	}
	m.total.add(rtt)
	m.iv.add(rtt)
}

func setupPing(fs *flag.FlagSet, o *options) func(context.Context) error {
	var cfg pingConfig
	bestEffort := fs.Bool("best-effort", false, "best-effort instead of reliable")
	fs.Bool("reliable", true, "reliable (the default)")
	fs.IntVar(&cfg.size, "size", 16, "payload `bytes` per sample (against ddsperf: its size, 12 bytes of seq, key and length included)")
	fs.Float64Var(&cfg.rate, "rate", 0, "pings per second (0: as fast as possible, one outstanding)")
	fs.IntVar(&cfg.count, "count", 0, "stop after N round trips (0: no limit)")
	fs.DurationVar(&cfg.duration, "duration", 10*time.Second, "stop after this long (0: no limit)")
	fs.DurationVar(&cfg.wait, "wait", 10*time.Second, "how long to wait for pong to match")
	fs.IntVar(&cfg.warmup, "warmup", 10, "round trips not counted at the start")
	fs.DurationVar(&cfg.interval, "interval", time.Second, "period of the statistics lines (0: only the summary)")
	svg := fs.String("svg", "", "write the round-trip histogram as an SVG plot to `file`")
	return func(ctx context.Context) error {
		cfg.reliable = !*bestEffort
		if cfg.size < 0 || cfg.rate < 0 || cfg.count < 0 || cfg.warmup < 0 {
			return fmt.Errorf("%w: -size, -rate, -count and -warmup may not be negative", errUsage)
		}
		// Announced as a ddsperf participant, or no ddsperf pong answers.
		n, err := newNodeWith(o, "ddsping ping", perfUserData(), dds.ListenersOnReceive())
		if err != nil {
			return err
		}
		defer n.close()
		cfg.ddsperf = true
		p, err := newPinger(n, cfg)
		if err != nil {
			return err
		}
		if !o.json {
			fmt.Fprintf(o.out, "ping: domain %d, %s, %s payload, waiting for pong\n", o.domain, reliability(cfg.reliable), bytesString(cfg.size))
		}
		wctx, cancel := context.WithTimeout(ctx, cfg.wait)
		d, err := p.waitMatch(wctx)
		cancel()
		if err != nil {
			return err
		}
		if !o.json {
			fmt.Fprintf(o.out, "ping: matched a %s pong on %s after %v\n", p.link.peer(), p.link.topics(), d.Round(time.Microsecond))
		}
		if p.link.peer() == "ddsperf" {
			stop, err := answerPerfPings(ctx, n)
			if err != nil {
				return err
			}
			defer func() {
				if serr := stop(); serr != nil && !o.json {
					fmt.Fprintln(o.out, "ping: answering ddsperf's pings:", serr)
				}
			}()
		}
		res, err := p.run(ctx, func(el time.Duration, s rttStats) {
			printInterval(o, el, cfg.size, s)
		})
		printPingResult(o, res)
		if serr := plotPing(*svg, res); serr != nil {
			return serr
		}
		// ddsperf's ping reader and pong writer keep the last sample only (KEEP_LAST 1):
		// reliable, they may still overwrite a ping with the next when paced, so losses
		// against ddsperf are counted but do not fail the run.
		if err == nil && cfg.reliable && res.Lost > 0 && res.Peer != "ddsperf" {
			err = fmt.Errorf("%w: %d pongs lost on a reliable topic", errFailed, res.Lost)
		}
		return err
	}
}

// plotPing writes the histogram of res to the SVG file path, if path is set and there
// were round trips.
func plotPing(path string, res pingResult) error {
	if path == "" || res.hist == nil || res.hist.n == 0 {
		return nil
	}
	title := fmt.Sprintf("ddsping ping: %d round trips, %s payload, %s, against %s pong", res.Received, bytesString(res.Size), reliability(res.Reliable), res.Peer)
	if err := writeSVGFile(path, title, res.hist); err != nil {
		return fmt.Errorf("writing the plot: %w", err)
	}
	return nil
}

// printInterval prints the statistics of one interval.
func printInterval(o *options, el time.Duration, size int, s rttStats) {
	if o.json {
		_ = json.NewEncoder(o.out).Encode(map[string]any{"t": el.Seconds(), "size": size, "rtt": s})
		return
	}
	fmt.Fprintf(o.out, "%8.3f  size %d %v\n", el.Seconds(), size, s)
}

// printPingResult prints the summary of a ping run.
func printPingResult(o *options, r pingResult) {
	if o.json {
		_ = json.NewEncoder(o.out).Encode(r)
		return
	}
	writePingResult(o.out, "", r)
}

func writePingResult(w io.Writer, indent string, r pingResult) {
	rate := 0.0
	if r.Seconds > 0 {
		rate = float64(r.RTT.Count) / r.Seconds
	}
	fmt.Fprintf(w, "%sround trip, %s payload, %s: %d in %.2f s (%.0f/s), %d lost\n",
		indent, bytesString(r.Size), reliability(r.Reliable), r.RTT.Count, r.Seconds, rate, r.Lost)
	fmt.Fprintf(w, "%s  %v\n", indent, r.RTT)
	fmt.Fprintf(w, "%s  %.1f heap allocations per round trip (whole process)\n", indent, r.AllocsPerRTT)
}

func reliability(reliable bool) string {
	if reliable {
		return "reliable"
	}
	return "best-effort"
}

// bytesString formats a size: "16 B", "1 KiB", "1500 B".
func bytesString(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}
