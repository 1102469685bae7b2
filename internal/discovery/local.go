package discovery

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/ddsgo/ddsgo/internal/errs"
	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/qos"
)

// EndpointConfig describes a local writer or reader.
type EndpointConfig struct {
	Topic, Type string
	// Keyed says the topic has a key: it selects the entity kind (writer
	// 0x02 / 0x03, reader 0x07 / 0x04), which peers match on.
	Keyed bool
	// Offered is a writer's QoS as announced, Requested a reader's; the
	// other one is ignored.
	Offered   qos.Offered
	Requested qos.Requested
	// TypeInformation is the raw PID_TYPE_INFORMATION to announce, if any.
	TypeInformation []byte
	// ContentFilter, for a reader of a content-filtered topic, is its
	// PID_CONTENT_FILTER_PROPERTY (Topic stays the related topic's name).
	ContentFilter *wire.ContentFilterProperty
	// ReaderFilter, for a writer, makes the filter of a matched reader
	// from the content filter it announced: nil when the writer cannot
	// evaluate it (another filter class or topic, members it does not
	// know), and then the reader gets every change.
	ReaderFilter func(*wire.ContentFilterProperty) rtps.ReaderFilter
	// Listener, if not nil, is told about matches as they are made, under
	// the participant's lock (see MatchListener).
	Listener MatchListener
	// Release, for writers, receives the payload of every change the writer's
	// history drops (acknowledged, replaced or removed), so that the caller can
	// reuse its buffer; nil lets the garbage collector have it.
	Release func([]byte)
	// OnLiveliness, for readers, is called when a matched writer asserts
	// its liveliness with a HEARTBEAT (its Liveliness flag set), on the
	// receive goroutine with the reader's lock held: it must not block.
	OnLiveliness func(writer wire.GUID)
	// Restore and RestoreLastSN, for a writer, are rtps.WriterConfig's: the
	// history a PERSISTENT writer restarts with.
	Restore       []rtps.Change
	RestoreLastSN wire.SequenceNumber
}

// MatchListener learns which remote (or local) endpoints a local endpoint
// communicates with, in step with the engine: a writer's listener hears of
// a match just after its rtps writer sends to the reader, a reader's just
// before its rtps reader accepts the writer's samples, and both of an
// unmatch just after the engine's. Its methods run under the
// Participant's lock, on whatever goroutine discovery runs on (the event
// loop, or the caller of NewWriter, NewReader, UpdateQos or Close): they
// must be quick, must not call the Participant, and must take no lock that
// is ever held while calling it. remote is valid only during the call.
type MatchListener interface {
	// OnMatch: local now communicates with remote.
	OnMatch(local wire.GUID, remote *EndpointData)
	// OnUnmatch: local no longer communicates with remote (it went away,
	// changed its QoS, or its participant's lease expired).
	OnUnmatch(local wire.GUID, remote wire.GUID)
	// OnIncompatible: topic and type matched but the requested/offered QoS
	// did not; policies lists the failing ones.
	OnIncompatible(local wire.GUID, remote *EndpointData, policies []qos.PolicyID)
}

// WriterInfoListener is the MatchListener of a reader that needs what its
// writers announce before their samples reach it (OWNERSHIP_STRENGTH,
// LIFESPAN).
type WriterInfoListener interface {
	MatchListener
	// WriterAnnounced: the writer remote, matched with the reader local,
	// announced remote: when the two are matched, before the reader can
	// receive from it, and at each announcement that keeps them matched. It
	// runs under the participant's lock, on whatever goroutine discovery runs
	// on: it must be quick and must not call the Participant.
	WriterAnnounced(local wire.GUID, remote *EndpointData)
}

// localEndpoint is a writer or reader of this participant.
type localEndpoint struct {
	data     EndpointData
	w        *rtps.Writer
	r        *rtps.Reader
	listener MatchListener
	matched  map[wire.GUID]struct{}
	// incompatible holds the remote endpoints whose QoS was found incompatible
	// and still is (nil when none): OnIncompatible tells of each once, however
	// often the pair is evaluated again (a re-announcement, type information
	// arriving), as DDS counts each incompatible endpoint discovered once.
	incompatible map[wire.GUID]struct{}
	// readerFilter is EndpointConfig.ReaderFilter.
	readerFilter func(*wire.ContentFilterProperty) rtps.ReaderFilter
	closed       atomic.Bool // set under Participant.mu
}

// LocalWriter is a writer of this participant, announced by SEDP.
type LocalWriter struct {
	p   *Participant
	l   *localEndpoint
	w   *rtps.Writer
	mbt time.Duration // max_blocking_time
}

// LocalReader is a reader of this participant, announced by SEDP.
type LocalReader struct {
	p *Participant
	l *localEndpoint
	r *rtps.Reader
}

// NewWriter creates a writer: it allocates the entity id (kind 0x02 keyed,
// 0x03 not), creates the rtps.Writer with the history, reliability and
// durability of cfg.Offered, announces it in SEDP and matches it with the
// readers known.
func (p *Participant) NewWriter(cfg EndpointConfig) (*LocalWriter, error) {
	kind := byte(wire.EntityKindWriterNoKey)
	if cfg.Keyed {
		kind = wire.EntityKindWriterWithKey
	}
	q := &cfg.Offered.Writer
	wc := rtps.WriterConfig{
		Reliable:       q.Reliability.Kind == qos.Reliable,
		TransientLocal: q.Durability.Kind >= qos.TransientLocal,
		Keyed:          cfg.Keyed,
		History:        WriterHistory(q),
		MaxMessageSize: p.cfg.MaxMessageSize, FragmentSize: p.cfg.FragmentSize,
		Release: cfg.Release,
		Restore: cfg.Restore, RestoreLastSN: cfg.RestoreLastSN,
		LatencyBudget:     q.LatencyBudget.Duration,
		TransportPriority: q.TransportPriority.Value,
	}
	l, err := p.newLocal(cfg, kind, func(g wire.GUID) (*rtps.Writer, *rtps.Reader) {
		wc.GUID = g
		return p.eng.NewWriter(wc), nil
	})
	if err != nil {
		return nil, err
	}
	if q.Liveliness.Kind == qos.Automatic && q.Liveliness.LeaseDuration < p.cfg.LeaseDuration {
		p.wlp.Schedule(p.eng.Now()) // a participant message now, then at the writer's pace
	}
	return &LocalWriter{p: p, l: l, w: l.w, mbt: q.Reliability.MaxBlockingTime}, nil
}

// NewReader creates a reader (kind 0x07 keyed, 0x04 not) that passes the
// samples of matched writers to deliver. deliver runs on the event loop
// with the reader's lock held: it must not block (decode and return). It
// returns false to refuse a sample (no room): a reliable reader leaves it
// unacknowledged and asks for it again after LocalReader.Retry.
func (p *Participant) NewReader(cfg EndpointConfig, deliver rtps.DeliverFunc) (*LocalReader, error) {
	kind := byte(wire.EntityKindReaderNoKey)
	if cfg.Keyed {
		kind = wire.EntityKindReaderWithKey
	}
	rc := rtps.ReaderConfig{
		Reliable:      cfg.Requested.Reader.Reliability.Kind == qos.Reliable,
		MaxSampleSize: p.cfg.MaxSampleSize,
		ReportLost:    true,
		OnLiveliness:  cfg.OnLiveliness,
		// Writers GAP what a reader's filter rejects: not losses.
		ContentFiltered: cfg.ContentFilter != nil,
	}
	l, err := p.newLocal(cfg, kind, func(g wire.GUID) (*rtps.Writer, *rtps.Reader) {
		rc.GUID = g
		return nil, p.eng.NewReader(rc, deliver)
	})
	if err != nil {
		return nil, err
	}
	return &LocalReader{p: p, l: l, r: l.r}, nil
}

// newLocal registers a local endpoint, announces it and matches it.
func (p *Participant) newLocal(cfg EndpointConfig, kind byte,
	create func(wire.GUID) (*rtps.Writer, *rtps.Reader),
) (*localEndpoint, error) {
	p.mu.Lock()
	defer func() { p.mu.Unlock() }()
	if p.closed {
		return nil, ErrClosed
	}
	if p.nextEntity >= 1<<24-1 {
		return nil, fmt.Errorf("discovery: entity ids exhausted: %w", ErrLimit)
	}
	p.nextEntity++
	n := p.nextEntity
	g := wire.GUID{Prefix: p.prefix, Entity: wire.EntityID{Key: [3]byte{byte(n >> 16), byte(n >> 8), byte(n)}, Kind: kind}}
	ed := EndpointData{
		GUID:            g,
		ParticipantGUID: wire.GUID{Prefix: p.prefix, Entity: wire.EntityIDParticipant},
		ProtocolVersion: p.eng.Version(),
		VendorID:        p.eng.Vendor(),
		TopicName:       cfg.Topic,
		TypeName:        cfg.Type,
		TypeInformation: cfg.TypeInformation,
		// Explicit locators: a peer then never gives the endpoint
		// participant defaults it may have from elsewhere (Fast DDS
		// does, EDPSimpleListeners), and the reader's own unicast
		// locator is what a Fast DDS writer selects and opens.
		UnicastLocators: slices.Clone(p.self.data.DefaultUnicastLocators),
	}
	if ed.IsWriter() {
		ed.Offered = cfg.Offered
	} else {
		ed.Requested = cfg.Requested
		ed.ContentFilter = cfg.ContentFilter
	}
	if err := ed.Check(DefaultLimits()); err != nil {
		return nil, fmt.Errorf("discovery: endpoint: %w", err)
	}
	l := &localEndpoint{data: ed, listener: cfg.Listener, matched: make(map[wire.GUID]struct{}), readerFilter: cfg.ReaderFilter}
	l.w, l.r = create(g)
	fns := p.addLocal(l)
	p.announceLocal(l)
	p.disp.post(fns...)
	return l, nil
}

// addLocal matches the new local endpoint l with every endpoint known,
// remote and local, and adds it to our own endpoints. The caller holds p.mu.
func (p *Participant) addLocal(l *localEndpoint) []func() {
	p.locals[l.data.GUID] = l
	d := l.data // l.data changes with the QoS; what was reported does not
	self := &remoteEndpoint{data: &d}
	p.self.endpoints[l.data.GUID] = self
	return p.endpointEventLocked(p.matchLocal(l, self), self.data, true)
}

// matchLocal evaluates the local endpoint l, announced among our own
// endpoints as self, against every endpoint known, remote and local, and
// every other local endpoint against self. Pairing l with itself is a
// no-op. The caller holds p.mu.
func (p *Participant) matchLocal(l *localEndpoint, self *remoteEndpoint) []func() {
	var fns []func()
	for _, rp := range p.remotes {
		for _, re := range rp.endpoints {
			fns = p.evaluate(l, rp, re, fns)
		}
	}
	for _, re := range p.self.endpoints {
		fns = p.evaluate(l, p.self, re, fns)
	}
	for _, o := range p.locals {
		if o != l {
			fns = p.evaluate(o, p.self, self, fns)
		}
	}
	return fns
}

// announceLocal writes l's SEDP data. The caller holds p.mu.
func (p *Participant) announceLocal(l *localEndpoint) {
	now := p.eng.Now()
	w := p.subW
	if l.data.IsWriter() {
		w = p.pubW
	}
	c := rtps.Change{Kind: rtps.Alive, KeyHash: KeyHash(l.data.GUID), Timestamp: wire.TimeFromTime(now), Payload: l.data.Append(nil)}
	if _, err := w.Write(c, now); err != nil {
		p.log.Warn("discovery: SEDP announcement failed", "endpoint", l.data.GUID, "err", err)
	}
}

// updateLocal re-announces l with the QoS set changes and re-evaluates its
// matches.
func (p *Participant) updateLocal(l *localEndpoint, set func(*EndpointData)) error {
	p.mu.Lock()
	if l.closed.Load() || p.closed {
		p.mu.Unlock()
		return ErrClosed
	}
	set(&l.data)
	self := p.self.endpoints[l.data.GUID]
	d := l.data
	self.data = &d
	fns := p.endpointEventLocked(p.matchLocal(l, self), self.data, true)
	p.announceLocal(l)
	p.mu.Unlock()
	p.disp.post(fns...)
	return nil
}

// linger waits until the reliable readers matched with the writer l have
// acknowledged what it wrote, for Config.WriterLinger at most.
func (p *Participant) linger(l *localEndpoint) {
	if l.w == nil || p.lingerFor <= 0 || l.closed.Load() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), p.lingerFor)
	defer cancel()
	if !p.waitAcked(l.w, ctx.Done()) {
		p.log.Debug("discovery: writer closed with unacknowledged data", "writer", l.data.GUID)
	}
}

// waitAcked waits until the reliable readers matched with w have
// acknowledged everything it wrote so far, asking them once, or until done
// is closed; it reports whether they did.
func (p *Participant) waitAcked(w *rtps.Writer, done <-chan struct{}) bool {
	sn := w.LastSN()
	asked := false
	for {
		ch := w.AckWait()
		if w.AckedByAll(sn) {
			return true
		}
		if !asked {
			w.RequestAcks(p.eng.Now())
			asked = true
		}
		select {
		case <-ch:
		case <-done:
			return false
		}
	}
}

// closeLocal withdraws l: once a writer's reliable readers acknowledged
// what it wrote (linger), SEDP dispose and unregister, unmatch everything,
// delete the rtps endpoint.
func (p *Participant) closeLocal(l *localEndpoint) error {
	if l.w != nil {
		l.w.Flush(p.eng.Now()) // what the latency budget holds goes before the SEDP dispose
	}
	p.linger(l)
	p.mu.Lock()
	if l.closed.Load() {
		p.mu.Unlock()
		return nil
	}
	l.closed.Store(true)
	g := l.data.GUID
	delete(p.locals, g)
	delete(p.self.endpoints, g)
	for rg := range l.matched {
		p.disconnect(l, rg, false) // our own endpoint's listener is not told
	}
	p.unmatchAll(g)
	d := l.data
	fns := p.endpointEventLocked(nil, &d, false)
	now := p.eng.Now()
	w := p.subW
	if l.data.IsWriter() {
		w = p.pubW
	}
	x := Disposal{GUID: g, Status: wire.StatusInfoDisposed | wire.StatusInfoUnregistered}
	c := rtps.Change{
		Kind: rtps.NotAliveDisposedUnregistered, KeyHash: KeyHash(g),
		Timestamp: wire.TimeFromTime(now), Payload: x.AppendKey(nil),
	}
	if _, err := w.Write(c, now); err != nil {
		p.log.Warn("discovery: SEDP disposal failed", "endpoint", g, "err", err)
	}
	p.mu.Unlock()
	if l.w != nil {
		p.eng.DeleteWriter(l.w)
	} else {
		p.eng.DeleteReader(l.r)
	}
	p.disp.post(fns...)
	return nil
}

// GUID returns the writer's GUID.
func (w *LocalWriter) GUID() wire.GUID { return w.l.data.GUID }

// Writer returns the underlying rtps.Writer (statistics, matched readers).
func (w *LocalWriter) Writer() *rtps.Writer { return w.w }

// Write writes a change (the writer assigns its sequence number; a zero
// Timestamp means now). When a KEEP_ALL history is full it waits for
// acknowledgments up to the writer's max_blocking_time, then fails with an
// error wrapping errs.ErrTimeout (dds.ErrTimeout) and rtps.ErrHistoryFull; or
// until ctx is done, then it returns ctx's error.
func (w *LocalWriter) Write(ctx context.Context, c rtps.Change) (wire.SequenceNumber, error) {
	eng := w.p.eng
	now := eng.Now()
	if c.Timestamp == (wire.Time{}) {
		c.Timestamp = wire.TimeFromTime(now)
	}
	var timer *time.Timer
	for {
		if w.l.closed.Load() {
			return 0, ErrClosed
		}
		sn, err := w.w.Write(c, now)
		if !errors.Is(err, rtps.ErrHistoryFull) {
			return sn, err
		}
		if timer == nil {
			mbt := w.mbt
			if mbt <= 0 {
				return 0, historyFull(err)
			}
			timer = time.NewTimer(mbt)
			defer timer.Stop()
		}
		// Take the channel before looking again, so that no
		// acknowledgment is missed in between; ask for the ACKNACKs now
		// instead of at the next periodic HEARTBEAT.
		ch := w.w.AckWait()
		w.w.RequestAcks(now)
		if w.w.Full(c.KeyHash) {
			select {
			case <-ch:
			case <-timer.C:
				return 0, historyFull(err)
			case <-ctx.Done():
				return 0, fmt.Errorf("discovery: write: %w", ctx.Err())
			}
		}
		now = eng.Now()
	}
}

// AssertLiveliness sends the matched readers a HEARTBEAT with the Liveliness flag:
// the writer asserts its liveliness (assert_liveliness of a MANUAL_BY_TOPIC writer).
func (w *LocalWriter) AssertLiveliness() {
	if !w.l.closed.Load() {
		w.w.AssertLiveliness(w.p.eng.Now())
	}
}

// historyFull is the error of a write that waited max_blocking_time for room.
func historyFull(err error) error {
	return errs.Wrap(errs.ErrTimeout, err, "write blocked for max_blocking_time")
}

// WaitForAcknowledgments waits until every reliable reader matched has
// acknowledged everything written so far, or ctx ends: then the error wraps
// ctx.Err() (context.Canceled or context.DeadlineExceeded), never
// errs.ErrTimeout, since the caller chose the deadline.
func (w *LocalWriter) WaitForAcknowledgments(ctx context.Context) error {
	if !w.p.waitAcked(w.w, ctx.Done()) {
		return errs.Context(ctx.Err(), "waiting for acknowledgments")
	}
	return nil
}

// UpdateQos changes the QoS announced (the mutable policies) and
// re-evaluates the matches.
func (w *LocalWriter) UpdateQos(q qos.Offered) error {
	w.w.SetLifespan(lifespan(&q.Writer))
	w.w.SetLatencyBudget(q.Writer.LatencyBudget.Duration, w.p.eng.Now())
	w.p.eng.SetTransportPriority(w.w, q.Writer.TransportPriority.Value)
	return w.p.updateLocal(w.l, func(e *EndpointData) { e.Offered = q })
}

// lifespan returns the LIFESPAN of a writer's history: 0 for infinite.
func lifespan(q *qos.DataWriterQos) time.Duration {
	if d := q.Lifespan.Duration; d > 0 && d < qos.Infinite {
		return d
	}
	return 0
}

// Close withdraws the writer (SEDP dispose) and unmatches it, once its
// reliable readers have acknowledged everything it wrote or
// Config.WriterLinger has passed.
func (w *LocalWriter) Close() error { return w.p.closeLocal(w.l) }

// GUID returns the reader's GUID.
func (r *LocalReader) GUID() wire.GUID { return r.l.data.GUID }

// Reader returns the underlying rtps.Reader (statistics, matched writers).
func (r *LocalReader) Reader() *rtps.Reader { return r.r }

// Retry makes the reader ask again for the samples its deliver callback
// refused (rtps.Reader.Retry), on the event loop: it may be called from any
// goroutine, the deliver callback included, and does not block.
func (r *LocalReader) Retry() {
	eng := r.p.eng
	eng.Post(func() {
		if !r.l.closed.Load() {
			r.r.Retry(eng.Now())
		}
	})
}

// WaitForHistoricalData waits until the reader has the historical data of the
// writers it matched (rtps.Reader.HistorySynced), and first for the writers it would
// match: until the SEDP publications reader has every writer announcement the
// participants known have made so far (rtps.Reader.CaughtUp) and the event loop has
// processed them (matched the writers announced). It returns false when done is
// closed or the participant is, first.
func (r *LocalReader) WaitForHistoricalData(done <-chan struct{}) bool {
	p := r.p
	return waitReady(p.pubR.CaughtUp, done, p.eng.Done()) && p.settled(done) &&
		waitReady(r.r.HistorySynced, done, p.eng.Done())
}

// waitReady waits until ready reports true, checking again each time the channel it
// returns is closed, or until done or stop is closed (false).
func waitReady(ready func() (bool, <-chan struct{}), done, stop <-chan struct{}) bool {
	for {
		ok, ch := ready()
		if ok {
			return true
		}
		select {
		case <-ch:
		case <-done:
			return false
		case <-stop:
			return false
		}
	}
}

// settled waits until the event loop has run what was posted to it before the call
// (the SEDP changes received by then), or done is closed or the participant is
// (false).
func (p *Participant) settled(done <-chan struct{}) bool {
	ran := make(chan struct{})
	p.eng.Post(func() { close(ran) })
	select {
	case <-ran:
		return true
	case <-done:
		return false
	case <-p.eng.Done():
		return false
	}
}

// UpdateQos changes the QoS announced and re-evaluates the matches.
func (r *LocalReader) UpdateQos(q qos.Requested) error {
	return r.p.updateLocal(r.l, func(e *EndpointData) { e.Requested = q })
}

// UpdateContentFilter announces the reader's new content filter (new
// parameters); nil announces none.
func (r *LocalReader) UpdateContentFilter(cf *wire.ContentFilterProperty) error {
	return r.p.updateLocal(r.l, func(e *EndpointData) { e.ContentFilter = cf })
}

// Close withdraws the reader (SEDP dispose) and unmatches it.
func (r *LocalReader) Close() error { return r.p.closeLocal(r.l) }
