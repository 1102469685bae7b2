// Command interop-peer is the ddsgo side of the interop tests: a publisher or subscriber
// of interop::Sample with the command line and output of the peer contract in
// interop/README.md, shared with the Cyclone DDS and Fast DDS peer programs, so that any
// two of them can run against each other and their outputs be compared line by line.
//
//	interop-peer -role sub -keys 3 -count 30 &
//	interop-peer -role pub -keys 3 -count 30
//
// It uses only the public API of ddsgo: packages dds, qos, listener and waitset.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/ddsgo/ddsgo/rtps"
	"github.com/ddsgo/ddsgo/waitset"
)

// Sample (final) and SampleA (appendable, the same members) are generated from the IDL the
// Cyclone DDS and Fast DDS peers are built from.
//
//go:generate go run github.com/ddsgo/ddsgo/cmd/ddsgen -package main -o sample_idl.go ../../idl/Sample.idl

// jsonSample is a sample as the peers print it: fields in this order, doubles and
// strings as encoding/json writes them.
type jsonSample struct {
	ID     int32     `json:"id"`
	Text   string    `json:"text"`
	Values []float64 `json:"values"`
	Seq    uint64    `json:"seq"`
}

// jsonCounters is the counters event line (-counters): the participant's Statistics.
type jsonCounters struct {
	Event string `json:"event"`
	dds.Statistics
}

// jsonState is an instance state event line.
type jsonState struct {
	ID    int32  `json:"id"`
	State string `json:"state"`
}

func main() {
	// SIGTERM or SIGINT ends the run early, as success when nothing had failed until
	// then: soak runs (interop/soak.sh) stop their long-lived peers this way.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if ctx.Err() != nil && code == exitTimeout {
		fmt.Fprintln(os.Stderr, "go peer: stopped by signal")
		code = exitOK
	}
	stop()
	os.Exit(code)
}

// peer is one run: its arguments, output and deadline.
type peer struct {
	a       args
	ctx     context.Context // canceled at the deadline (-timeout) or by the caller
	parent  context.Context // canceled by the caller only: bounds -linger
	out     *bufio.Writer
	enc     *json.Encoder
	stderr  io.Writer
	started time.Time
	samples atomic.Int64 // written or taken, for -stats
	dp      *dds.DomainParticipant
}

// run runs the peer with command line argv and returns the exit status. Canceling ctx
// ends the run early (as a timeout).
func run(ctx context.Context, argv []string, stdout, stderr io.Writer) int {
	a, code, ok := parseArgs(argv, stderr)
	if !ok {
		return code
	}
	stderr = &lockedWriter{w: stderr}
	dctx, cancel := context.WithTimeout(ctx, a.timeout)
	defer cancel()
	out := bufio.NewWriterSize(stdout, 1<<16)
	defer func() { _ = out.Flush() }()
	pr := &peer{a: a, ctx: dctx, parent: ctx, out: out, enc: json.NewEncoder(out), stderr: stderr, started: time.Now()}
	if a.stats > 0 {
		w := stderr
		if a.statsFile != "" {
			f, err := os.Create(a.statsFile)
			if err != nil {
				fmt.Fprintf(stderr, "go peer: -stats-file: %v\n", err)
				return exitUsage
			}
			defer func() { _ = f.Close() }()
			w = f
		}
		defer startStats(w, a.stats, pr.started, pr.samples.Load)()
	}
	if a.appendable {
		return runType(pr, SampleA{}.DDSTypeName(), func(s *Sample) *SampleA { return (*SampleA)(s) }, func(s *SampleA) *Sample { return (*Sample)(s) })
	}
	return runType(pr, Sample{}.DDSTypeName(), func(s *Sample) *Sample { return s }, func(s *Sample) *Sample { return s })
}

// jsonLivelinessChanged and jsonLivelinessLost are status event lines (on stderr): the
// status kind in lower case, then its counts in snake case; instance handles are local to
// each implementation and left out.
type jsonLivelinessChanged struct {
	Event               string `json:"event"`
	AliveCount          int32  `json:"alive_count"`
	NotAliveCount       int32  `json:"not_alive_count"`
	AliveCountChange    int32  `json:"alive_count_change"`
	NotAliveCountChange int32  `json:"not_alive_count_change"`
}

type jsonLivelinessLost struct {
	Event            string `json:"event"`
	TotalCount       int32  `json:"total_count"`
	TotalCountChange int32  `json:"total_count_change"`
}

// statusEvents returns the mask of the status events printed: the liveliness ones with
// a finite -lease only.
func (a args) statusEvents(k listener.StatusKind) listener.StatusMask {
	if a.lease > 0 {
		return listener.StatusMask(k)
	}
	return 0
}

// event prints a status event line on stderr; listeners call it.
func (pr *peer) event(v any) {
	b, _ := json.Marshal(v)
	_, _ = pr.stderr.Write(append(b, '\n'))
}

// lockedWriter serializes the writes to w: the listeners print on stderr from their
// own goroutine.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

func (pr *peer) failf(format string, v ...any) int {
	fmt.Fprintf(pr.stderr, "go peer: "+format+"\n", v...)
	return exitFailed
}

// timeoutf reports a timeout, with what the participant knows and has counted: a
// failed run in CI then tells whether the peer was never discovered, its endpoints
// never learned, or its traffic dropped.
func (pr *peer) timeoutf(format string, v ...any) int {
	fmt.Fprintf(pr.stderr, "go peer: timeout after %v: "+format+"\n", append([]any{time.Since(pr.started).Round(time.Millisecond)}, v...)...)
	if pr.dp != nil {
		fmt.Fprintf(pr.stderr, "go peer: statistics: %+v\n", pr.dp.Statistics())
	}
	return exitTimeout
}

// waitStart waits for -start-file to exist (at once without one). The test harness
// makes it when the subscriber reports that its reader has matched the writer (its
// -ready-file): the writer's side of a match says nothing of the reader's, and a
// best-effort or volatile reader gets nothing written before it matched.
func (pr *peer) waitStart() int {
	if pr.a.startFile == "" {
		return exitOK
	}
	for {
		if _, err := os.Stat(pr.a.startFile); err == nil {
			return exitOK
		}
		if pr.ctx.Err() != nil {
			return pr.timeoutf("%s never appeared", pr.a.startFile)
		}
		pr.sleep(pr.ctx, 5*time.Millisecond)
	}
}

// reportReady makes -ready-file once r has matched a writer, and reports whether it
// has.
func (pr *peer) reportReady(r interface {
	SubscriptionMatchedStatus() (listener.SubscriptionMatchedStatus, error)
},
) bool {
	st, err := r.SubscriptionMatchedStatus()
	if err != nil || st.CurrentCount == 0 {
		return false
	}
	if err := os.WriteFile(pr.a.readyFile, nil, 0o644); err != nil {
		fmt.Fprintf(pr.stderr, "go peer: %v\n", err)
	}
	return true
}

// sleep pauses for d, or until the caller cancels the run.
func (pr *peer) sleep(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

func (pr *peer) printSample(s *Sample) {
	if pr.a.quiet {
		return
	}
	v := s.Values
	if v == nil {
		v = []float64{} // "[]", not "null"
	}
	_ = pr.enc.Encode(jsonSample{ID: s.ID, Text: s.Text, Values: v, Seq: s.Seq})
	_ = pr.out.Flush()
}

func (pr *peer) printState(id int32, state string) {
	_ = pr.enc.Encode(jsonState{ID: id, State: state})
	_ = pr.out.Flush()
}

// runType runs the peer with topic type T (Sample or SampleA), converted from and to
// Sample by to and from.
func runType[T any](pr *peer, typeName string, to func(*Sample) *T, from func(*T) *Sample) int {
	a := pr.a
	if a.typeName != "" {
		typeName = a.typeName
	}
	var opts []dds.Option
	if a.maxMessageSize > 0 {
		opts = append(opts, dds.WithRTPS(rtps.Config{MaxMessageSize: a.maxMessageSize}))
	}
	p, err := dds.NewParticipant(a.domain, opts...)
	if err != nil {
		return pr.failf("creating the participant: %v", err)
	}
	pr.dp = p
	defer func() {
		if a.counters {
			pr.event(jsonCounters{"counters", p.Statistics()})
		}
		if err := p.Close(); err != nil {
			fmt.Fprintf(pr.stderr, "go peer: deleting the participant: %v\n", err)
		}
	}()
	topic, err := dds.NewTopic[T](p, a.topic, dds.TypeName(typeName))
	if err != nil {
		return pr.failf("creating the topic: %v", err)
	}
	if a.pub {
		return runPub(pr, p, topic, to)
	}
	return runSub(pr, p, topic, from)
}

// setCommon sets the policies writers and readers share.
func setCommon(a args, rel *qos.Reliability, dur *qos.Durability, hist *qos.History, dr *qos.DataRepresentation, lv *qos.Liveliness) {
	*lv = qos.Liveliness{Kind: a.liveliness, LeaseDuration: qos.Infinite}
	if a.lease > 0 {
		lv.LeaseDuration = a.lease
	}
	rel.Kind = qos.BestEffort
	if a.reliable {
		rel.Kind = qos.Reliable
		rel.MaxBlockingTime = a.timeout
	}
	dur.Kind = a.durability
	*hist = qos.History{Kind: qos.KeepAll, Depth: 1}
	if a.keepLast > 0 {
		*hist = qos.History{Kind: qos.KeepLast, Depth: int32(a.keepLast)}
	}
	if a.xcdr2 {
		dr.Value = []qos.DataRepresentationID{qos.XCDR2}
	}
}

// waitMatched waits until the writer has matched n readers.
func waitMatched[T any](pr *peer, w *dds.DataWriter[T], n int) int {
	sc := w.StatusCondition()
	if err := sc.SetEnabledStatuses(listener.StatusMask(listener.PublicationMatched)); err != nil {
		return pr.failf("status condition: %v", err)
	}
	ws := waitset.New()
	if err := ws.AttachCondition(sc); err != nil {
		return pr.failf("waitset: %v", err)
	}
	for {
		// Reading the status resets its trigger; a match after this read sets it again.
		st, err := w.PublicationMatchedStatus()
		if err != nil {
			return pr.failf("publication matched status: %v", err)
		}
		if int(st.CurrentCount) >= n {
			return exitOK
		}
		if _, err := ws.Wait(pr.ctx); err != nil {
			if pr.ctx.Err() != nil {
				return pr.timeoutf("%d of %d readers matched", st.CurrentCount, n)
			}
			return pr.failf("waiting for readers: %v", err)
		}
	}
}

func runPub[T any](pr *peer, p *dds.DomainParticipant, topic *dds.Topic[T], to func(*Sample) *T) int {
	a := pr.a
	pub, err := p.NewPublisher(groupOptions(a)...)
	if err != nil {
		return pr.failf("creating the publisher: %v", err)
	}
	wq := qos.DefaultDataWriterQos()
	setCommon(a, &wq.Reliability, &wq.Durability, &wq.History, &wq.DataRepresentation, &wq.Liveliness)
	// What a transient-local writer keeps for late joiners is its history.
	wq.DurabilityService.HistoryKind, wq.DurabilityService.HistoryDepth = wq.History.Kind, wq.History.Depth
	// Deleting the writer must not dispose: only -dispose disposes.
	wq.WriterDataLifecycle.AutodisposeUnregisteredInstances = false
	if a.lifespan > 0 {
		wq.Lifespan.Duration = a.lifespan
	}
	if a.exclusive {
		wq.Ownership.Kind = qos.Exclusive
		wq.OwnershipStrength.Value = a.strength
	}
	setQosFlags(a, &wq.Deadline, &wq.LatencyBudget, nil)
	l, mask := writerListener[T](pr)
	w, err := dds.NewWriter(topic, dds.WithPublisher(pub), dds.WithQos(wq), dds.WithListener(l, mask))
	if err != nil {
		return pr.failf("creating the writer: %v", err)
	}
	if code := waitMatched(pr, w, a.waitReaders); code != exitOK {
		return code
	}
	if code := pr.waitStart(); code != exitOK {
		return code
	}
	// The writer may match a reader before that reader matches the writer, which would
	// drop (volatile) or not yet request what is written now.
	if a.waitReaders > 0 {
		pr.sleep(pr.ctx, a.settle)
	}

	if code := writeSamples(pr, w, to); code != exitOK {
		return code
	}

	if a.dispose || a.unregister {
		if code := endInstances(pr, w, to); code != exitOK {
			return code
		}
	}

	if a.reliable {
		if err := w.WaitForAcknowledgments(pr.ctx); err != nil {
			if errors.Is(err, dds.ErrTimeout) || pr.ctx.Err() != nil {
				return pr.timeoutf("waiting for acknowledgements: %v", err)
			}
			return pr.failf("waiting for acknowledgements: %v", err)
		}
	}
	pr.sleep(pr.parent, a.linger)
	return exitOK
}

// writeSamples writes the -count samples at -rate.
func writeSamples[T any](pr *peer, w *dds.DataWriter[T], to func(*Sample) *T) int {
	a := pr.a
	n := int(a.payload / 8)
	s := Sample{Values: make([]float64, n)}
	next := time.Now()
	for seq := uint64(1); seq <= uint64(a.count); seq++ {
		// A write that need not wait (KEEP_LAST, room in the window) does not look at
		// the context, nor does the pause once the context is done.
		if pr.ctx.Err() != nil {
			return pr.timeoutf("%d of %d samples written", seq-1, a.count)
		}
		s.ID = int32(1 + (seq-1)%uint64(a.keys))
		s.Seq = seq
		s.Text = fmt.Sprintf("ddsgo %d %d", s.ID, seq)
		for i := range s.Values {
			s.Values[i] = float64(seq) + float64(i)/8
		}
		if err := w.Write(pr.ctx, to(&s)); err != nil {
			if errors.Is(err, dds.ErrTimeout) {
				return pr.timeoutf("write %d: %v", seq, err)
			}
			return pr.failf("write %d: %v", seq, err)
		}
		pr.printSample(&s)
		pr.samples.Add(1)
		if a.rate > 0 {
			next = next.Add(time.Duration(float64(time.Second) / a.rate))
			pr.sleep(pr.ctx, time.Until(next))
		}
	}
	return exitOK
}

// endInstances disposes (-dispose, then unregisters) or unregisters every instance.
func endInstances[T any](pr *peer, w *dds.DataWriter[T], to func(*Sample) *T) int {
	a := pr.a
	for id := int32(1); id <= int32(a.keys); id++ {
		k := Sample{ID: id}
		if a.dispose {
			if err := w.Dispose(pr.ctx, to(&k)); err != nil {
				return pr.failf("dispose %d: %v", id, err)
			}
			pr.printState(id, "disposed")
		} else {
			if err := w.Unregister(pr.ctx, to(&k)); err != nil {
				return pr.failf("unregister %d: %v", id, err)
			}
			pr.printState(id, "unregistered")
		}
	}
	if !a.dispose {
		return exitOK
	}
	for id := int32(1); id <= int32(a.keys); id++ {
		if err := w.Unregister(pr.ctx, to(&Sample{ID: id})); err != nil {
			return pr.failf("unregister %d: %v", id, err)
		}
	}
	return exitOK
}

// stateTracker reports the first disposed and the first unregistered transition of
// each instance.
type stateTracker struct {
	seen    map[int32]uint8 // bit 1: disposed reported, bit 2: unregistered reported
	keys    int32
	dispose bool // -dispose counts disposed events, -unregister unregistered ones
}

// note prints the transition if it is the first of its kind for id and reports whether
// it is an event the run waits for.
func (t *stateTracker) note(pr *peer, id int32, st dds.InstanceState) bool {
	var bit uint8
	var name string
	switch st {
	case dds.NotAliveDisposedInstanceState:
		bit, name = 1, "disposed"
	case dds.NotAliveNoWritersInstanceState:
		bit, name = 2, "unregistered"
	default:
		return false
	}
	if id < 1 || id > t.keys || t.seen[id]&bit != 0 {
		return false
	}
	t.seen[id] |= bit
	pr.printState(id, name)
	return (bit == 1) == t.dispose
}

func runSub[T any](pr *peer, p *dds.DomainParticipant, topic *dds.Topic[T], from func(*T) *Sample) int {
	a := pr.a
	sub, err := p.NewSubscriber(groupOptions(a)...)
	if err != nil {
		return pr.failf("creating the subscriber: %v", err)
	}
	rq := qos.DefaultDataReaderQos()
	setCommon(a, &rq.Reliability, &rq.Durability, &rq.History, &rq.DataRepresentation, &rq.Liveliness)
	if a.exclusive {
		rq.Ownership.Kind = qos.Exclusive
	}
	setQosFlags(a, &rq.Deadline, &rq.LatencyBudget, &rq.TimeBasedFilter)
	l, mask := readerListener[T](pr)
	r, err := newReader(a, topic, dds.WithSubscriber(sub), dds.WithQos(rq), dds.WithListener(l, mask))
	if err != nil {
		return pr.failf("creating the reader: %v", err)
	}
	wantEvents := a.wantEvents()
	track := stateTracker{seen: map[int32]uint8{}, keys: int32(a.keys), dispose: a.dispose}
	// ids of instance handles, for state changes that come without the key
	idOf := func(v *Sample, h dds.InstanceHandle) int32 {
		if v.ID != 0 {
			return v.ID
		}
		for id := int32(1); id <= int32(a.keys); id++ {
			var k T
			from(&k).ID = id
			if r.LookupInstance(&k) == h {
				return id
			}
		}
		return 0
	}

	var got, events int64
	var last time.Time // of the last valid sample
	ready := a.readyFile == ""
	for got < a.count || events < wantEvents {
		if pr.idleOver(got, last) {
			break
		}
		if pr.ctx.Err() != nil {
			return pr.timeoutf("%d of %d samples, %d of %d events", got, a.count, events, wantEvents)
		}
		poll := 100 * time.Millisecond
		if !ready {
			ready, poll = pr.reportReady(r), 5*time.Millisecond
		}
		wctx, cancel := context.WithTimeout(pr.ctx, poll)
		data, infos, err := r.Take(wctx, dds.MaxSamples(64))
		cancel()
		if err != nil {
			if wctx.Err() != nil {
				continue // nothing within 100 ms: check the run's deadline
			}
			return pr.failf("take: %v", err)
		}
		for i := range data {
			if infos[i].ValidData {
				got++
				last = time.Now()
				pr.samples.Add(1)
				pr.printSample(from(&data[i]))
			}
		}
		// A dispose or unregister arriving while the instance has unread samples
		// may show only as their instance state: report each transition once,
		// after the samples taken with it.
		for i := range data {
			if wantEvents > 0 && track.note(pr, idOf(from(&data[i]), infos[i].InstanceHandle), infos[i].InstanceState) {
				events++
			}
		}
	}
	if code := printLost(pr, r); code != exitOK {
		return code
	}
	// Stay a while so that the writer gets the last acknowledgements.
	pr.sleep(pr.parent, a.linger)
	return exitOK
}

// printLost prints the reader's SAMPLE_LOST total with -sample-lost.
func printLost[T any](pr *peer, r *dds.DataReader[T]) int {
	if !pr.a.sampleLost {
		return exitOK
	}
	st, err := r.SampleLostStatus()
	if err != nil {
		return pr.failf("sample lost status: %v", err)
	}
	_ = pr.enc.Encode(jsonLost{SampleLost: st.TotalCount})
	_ = pr.out.Flush()
	return exitOK
}

// jsonLost is the last line of a subscriber with -sample-lost.
type jsonLost struct {
	SampleLost int32 `json:"sample_lost"`
}

// wantEvents is the number of instance state events the subscriber waits for.
func (a args) wantEvents() int64 {
	if a.dispose || a.unregister {
		return int64(a.keys)
	}
	return 0
}

// idleOver reports whether a subscriber with -idle has had no sample for that long
// since its last one (best effort under loss: what never arrives is not waited for).
func (pr *peer) idleOver(got int64, last time.Time) bool {
	return pr.a.idle > 0 && got > 0 && time.Since(last) >= pr.a.idle
}
