package dds

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ddsgo/ddsgo/internal/discovery"
	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/qos"
)

// fakeNet connects fake engines: the endpoints of all its engines match as the real
// discovery would, and writes are delivered at once to the matched readers.
type fakeNet struct {
	mu      sync.Mutex
	engines []*fakeEngine
	next    byte
	// vendors are the vendor ids of the engines, in the order they are created; the
	// others are ddsgo's.
	vendors []wire.VendorID
}

// factory returns the engine factory of participants on n.
func (n *fakeNet) factory() engineFactory {
	return func(int, *settings, qos.DomainParticipantQos) (engine, error) {
		n.mu.Lock()
		n.next++
		e := &fakeEngine{net: n, prefix: wire.GuidPrefix{0x01, 0xdd, n.next}, vendor: wire.VendorDDSGo}
		if i := int(n.next) - 1; i < len(n.vendors) {
			e.vendor = n.vendors[i]
		}
		others := append([]*fakeEngine(nil), n.engines...)
		n.engines = append(n.engines, e)
		n.mu.Unlock()
		for _, o := range others {
			o.participant(e, true)
		}
		return e, nil
	}
}

type fakeEngine struct {
	net    *fakeNet
	prefix wire.GuidPrefix
	vendor wire.VendorID
	mu     sync.Mutex
	key    uint32
	onPart func(discovery.ParticipantData, bool)
	onEnd  func(discovery.EndpointData)
	onLive func(wire.GuidPrefix, bool)
	heard  map[wire.GuidPrefix]time.Time
	// manualSent counts the MANUAL_LIVELINESS_UPDATE messages sent.
	manualSent atomic.Int32
	// userData is the USER_DATA SetUserData announced last.
	userData []byte
	// endpoints of this engine
	writers []*fakeWriter
	readers []*fakeReader
}

func (e *fakeEngine) participant(other *fakeEngine, alive bool) {
	e.mu.Lock()
	fn := e.onPart
	e.mu.Unlock()
	if fn != nil {
		fn(discovery.ParticipantData{GUIDPrefix: other.prefix, VendorID: other.vendor}, alive)
	}
}

func (e *fakeEngine) GUIDPrefix() wire.GuidPrefix { return e.prefix }

func (e *fakeEngine) OnLiveliness(fn func(wire.GuidPrefix, bool)) { e.locked(func() { e.onLive = fn }) }

// LastHeard returns what the test set with heardFrom.
func (e *fakeEngine) LastHeard(prefix wire.GuidPrefix) time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.heard[prefix]
}

// heardFrom sets when the participant prefix was last heard from.
func (e *fakeEngine) heardFrom(prefix wire.GuidPrefix, t time.Time) {
	e.locked(func() {
		if e.heard == nil {
			e.heard = map[wire.GuidPrefix]time.Time{}
		}
		e.heard[prefix] = t
	})
}

// AssertLiveliness delivers a MANUAL_LIVELINESS_UPDATE to the other engines.
// SetUserData records the participant's new USER_DATA.
func (e *fakeEngine) SetUserData(ud []byte) error {
	e.locked(func() { e.userData = ud })
	return nil
}

func (e *fakeEngine) AssertLiveliness() {
	e.manualSent.Add(1)
	e.participantMessage(true)
}

// participantMessage delivers a participant message of e to the other engines.
func (e *fakeEngine) participantMessage(manual bool) {
	e.net.mu.Lock()
	others := append([]*fakeEngine(nil), e.net.engines...)
	e.net.mu.Unlock()
	for _, o := range others {
		o.mu.Lock()
		fn := o.onLive
		o.mu.Unlock()
		if o != e && fn != nil {
			fn(e.prefix, manual)
		}
	}
}

func (e *fakeEngine) OnParticipant(fn func(discovery.ParticipantData, bool)) {
	e.mu.Lock()
	e.onPart = fn
	e.mu.Unlock()
	e.net.mu.Lock()
	others := append([]*fakeEngine(nil), e.net.engines...)
	e.net.mu.Unlock()
	for _, o := range others {
		if o != e {
			fn(discovery.ParticipantData{GUIDPrefix: o.prefix, VendorID: o.vendor}, true)
		}
	}
}

// OnEndpoint reports the endpoints of the other engines, those there are and those
// created later (announced).
func (e *fakeEngine) OnEndpoint(fn func(discovery.EndpointData)) {
	e.locked(func() { e.onEnd = fn })
	for _, d := range e.Endpoints() {
		fn(d)
	}
}

// announce reports the new endpoint d to the other engines.
func (e *fakeEngine) announce(d *discovery.EndpointData) {
	e.net.mu.Lock()
	others := append([]*fakeEngine(nil), e.net.engines...)
	e.net.mu.Unlock()
	for _, o := range others {
		o.mu.Lock()
		fn := o.onEnd
		o.mu.Unlock()
		if o != e && fn != nil {
			fn(*d)
		}
	}
}

func (e *fakeEngine) Endpoints() []discovery.EndpointData {
	var out []discovery.EndpointData
	for _, w := range e.net.writers() {
		if w.data.GUID.Prefix != e.prefix {
			out = append(out, *w.data)
		}
	}
	for _, r := range e.net.readers() {
		if r.data.GUID.Prefix != e.prefix {
			out = append(out, *r.data)
		}
	}
	return out
}

func (e *fakeEngine) Participants() []discovery.ParticipantData {
	e.net.mu.Lock()
	defer e.net.mu.Unlock()
	var out []discovery.ParticipantData
	for _, o := range e.net.engines {
		if o != e {
			out = append(out, discovery.ParticipantData{GUIDPrefix: o.prefix, VendorID: o.vendor})
		}
	}
	return out
}

func (e *fakeEngine) Close() error {
	e.net.mu.Lock()
	for i, o := range e.net.engines {
		if o == e {
			e.net.engines = append(e.net.engines[:i], e.net.engines[i+1:]...)
			break
		}
	}
	others := append([]*fakeEngine(nil), e.net.engines...)
	e.net.mu.Unlock()
	for _, o := range others {
		o.participant(e, false)
	}
	return nil
}

func (e *fakeEngine) guid(kind byte) wire.GUID {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.key++
	return wire.GUID{Prefix: e.prefix, Entity: wire.EntityID{Key: [3]byte{0, byte(e.key >> 8), byte(e.key)}, Kind: kind}}
}

func fakeEndpointData(g wire.GUID, cfg endpointConfig) *discovery.EndpointData {
	return &discovery.EndpointData{
		GUID:            g,
		ParticipantGUID: wire.GUID{Prefix: g.Prefix, Entity: wire.EntityIDParticipant},
		TopicName:       cfg.Topic,
		TypeName:        cfg.Type,
		Offered:         cfg.Offered,
		Requested:       cfg.Requested,
	}
}

// endpointData gives a new endpoint of cfg its GUID, of kind noKey or withKey as the
// topic is keyed, and its discovery data.
func (e *fakeEngine) endpointData(cfg endpointConfig, noKey, withKey byte) *discovery.EndpointData {
	kind := noKey
	if cfg.Keyed {
		kind = withKey
	}
	return fakeEndpointData(e.guid(kind), cfg)
}

func (e *fakeEngine) NewWriter(cfg endpointConfig) (engineWriter, error) {
	w := &fakeWriter{e: e, cfg: cfg, data: e.endpointData(cfg, wire.EntityKindWriterNoKey, wire.EntityKindWriterWithKey)}
	e.locked(func() { e.writers = append(e.writers, w) })
	e.announce(w.data)
	e.net.matchAll([]*fakeWriter{w}, e.net.readers())
	return w, nil
}

func (e *fakeEngine) NewReader(cfg endpointConfig, deliver rtps.DeliverFunc) (engineReader, error) {
	r := &fakeReader{e: e, cfg: cfg, deliver: deliver, data: e.endpointData(cfg, wire.EntityKindReaderNoKey, wire.EntityKindReaderWithKey)}
	e.locked(func() { e.readers = append(e.readers, r) })
	e.announce(r.data)
	e.net.matchAll(e.net.writers(), []*fakeReader{r})
	return r, nil
}

// locked runs f holding e.mu.
func (e *fakeEngine) locked(f func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	f()
}

func (n *fakeNet) readers() []*fakeReader {
	return allEndpoints(n, func(e *fakeEngine) []*fakeReader { return e.readers })
}

func (n *fakeNet) writers() []*fakeWriter {
	return allEndpoints(n, func(e *fakeEngine) []*fakeWriter { return e.writers })
}

// allEndpoints gathers the endpoints (of) of all the engines of n.
func allEndpoints[T any](n *fakeNet, of func(*fakeEngine) []T) []T {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []T
	for _, e := range n.engines {
		e.mu.Lock()
		out = append(out, of(e)...)
		e.mu.Unlock()
	}
	return out
}

// matchAll matches each of ws with each of rs.
func (n *fakeNet) matchAll(ws []*fakeWriter, rs []*fakeReader) {
	for _, w := range ws {
		for _, r := range rs {
			n.match(w, r)
		}
	}
}

// match matches w and r as discovery would and tells both listeners.
func (n *fakeNet) match(w *fakeWriter, r *fakeReader) {
	res := discovery.Match(w.data, r.data)
	switch {
	case res.Matched():
		if u, ok := r.cfg.Listener.(discovery.WriterInfoListener); ok {
			u.WriterAnnounced(r.data.GUID, w.data)
		}
		w.cfg.Listener.OnMatch(w.data.GUID, r.data)
		r.cfg.Listener.OnMatch(r.data.GUID, w.data)
		w.mu.Lock()
		w.matched = append(w.matched, r)
		// A late joiner of a durable writer gets its history (the last change), as
		// from the real engine; a write racing with the match is delivered once,
		// by one or the other, since both hold w.mu.
		if w.last != nil && w.data.Offered.Writer.Durability.Kind > qos.Volatile &&
			r.data.Requested.Reader.Durability.Kind > qos.Volatile {
			r.deliver(&w.sample)
		}
		w.mu.Unlock()
	case len(res.Incompatible) > 0:
		w.cfg.Listener.OnIncompatible(w.data.GUID, r.data, res.Incompatible)
		r.cfg.Listener.OnIncompatible(r.data.GUID, w.data, res.Incompatible)
	}
}

type fakeWriter struct {
	e    *fakeEngine
	cfg  endpointConfig
	data *discovery.EndpointData

	mu      sync.Mutex
	matched []*fakeReader
	sn      wire.SequenceNumber
	last    []byte
	sample  rtps.Sample
	closed  bool
	changes []rtps.Change // when recording
	record  bool
}

func (w *fakeWriter) GUID() wire.GUID { return w.data.GUID }

// Write delivers c to the matched readers and keeps it as the only change of its
// history, releasing the previous one.
func (w *fakeWriter) Write(_ context.Context, c rtps.Change) (wire.SequenceNumber, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return 0, context.Canceled
	}
	w.sn++
	if c.Timestamp == (wire.Time{}) { // as discovery.LocalWriter: the engine's now
		c.Timestamp = wire.TimeFromTime(time.Now())
	}
	if w.record {
		rc := c
		rc.Payload = append([]byte(nil), c.Payload...)
		w.changes = append(w.changes, rc)
	}
	s := &w.sample
	*s = rtps.Sample{
		Writer:          w.data.GUID,
		SN:              w.sn,
		Kind:            c.Kind,
		KeyHash:         c.KeyHash,
		HasKeyHash:      w.cfg.Keyed && c.Kind != rtps.Alive,
		KeyOnly:         c.Kind != rtps.Alive,
		SourceTimestamp: c.Timestamp,
		Related:         c.Related,
		Vendor:          w.e.vendor,
		Payload:         c.Payload,
	}
	for _, r := range w.matched {
		r.deliver(s)
	}
	if w.last != nil && w.cfg.Release != nil {
		w.cfg.Release(w.last)
	}
	w.last = c.Payload
	return w.sn, nil
}

func (w *fakeWriter) WaitForAcknowledgments(context.Context) error { return nil }

// AssertLiveliness is a HEARTBEAT with the Liveliness flag to the matched readers.
func (w *fakeWriter) AssertLiveliness() {
	w.mu.Lock()
	matched := slices.Clone(w.matched)
	w.mu.Unlock()
	for _, r := range matched {
		if r.cfg.OnLiveliness != nil {
			r.cfg.OnLiveliness(w.data.GUID)
		}
	}
}

// UpdateQos changes the writer's announcement and tells the readers matched with it, as
// discovery does.
func (w *fakeWriter) UpdateQos(q qos.Offered) error {
	w.mu.Lock()
	w.data.Offered = q
	d := *w.data
	matched := slices.Clone(w.matched)
	w.mu.Unlock()
	for _, r := range matched {
		if u, ok := r.cfg.Listener.(discovery.WriterInfoListener); ok {
			u.WriterAnnounced(r.data.GUID, &d)
		}
	}
	return nil
}

func (w *fakeWriter) Close() error {
	w.mu.Lock()
	w.closed = true
	matched := w.matched
	w.matched = nil
	w.mu.Unlock()
	for _, r := range matched {
		r.cfg.Listener.OnUnmatch(r.data.GUID, w.data.GUID)
		w.cfg.Listener.OnUnmatch(w.data.GUID, r.data.GUID)
	}
	w.e.locked(func() { w.e.writers = slices.DeleteFunc(w.e.writers, func(x *fakeWriter) bool { return x == w }) })
	return nil
}

type fakeReader struct {
	e       *fakeEngine
	cfg     endpointConfig
	data    *discovery.EndpointData
	deliver rtps.DeliverFunc
	retries atomic.Int32
}

func (r *fakeReader) GUID() wire.GUID { return r.data.GUID }

// Retry counts the calls: the fake writers do not resend refused samples.
func (r *fakeReader) Retry() { r.retries.Add(1) }

// WaitForHistoricalData has nothing to wait for: the fake writers hand a reader
// their history when they match it.
func (r *fakeReader) WaitForHistoricalData(<-chan struct{}) bool { return true }

func (r *fakeReader) UpdateQos(q qos.Requested) error {
	r.data.Requested = q
	return nil
}

func (r *fakeReader) Close() error {
	for _, w := range r.e.net.writers() {
		w.mu.Lock()
		n := len(w.matched)
		w.matched = slices.DeleteFunc(w.matched, func(x *fakeReader) bool { return x == r })
		found := len(w.matched) < n
		w.mu.Unlock()
		if found {
			w.cfg.Listener.OnUnmatch(w.data.GUID, r.data.GUID)
			r.cfg.Listener.OnUnmatch(r.data.GUID, w.data.GUID)
		}
	}
	r.e.locked(func() { r.e.readers = slices.DeleteFunc(r.e.readers, func(x *fakeReader) bool { return x == r }) })
	return nil
}
