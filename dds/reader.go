package dds

import (
	"context"
	"errors"
	"iter"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ddsgo/ddsgo/internal/errs"
	"github.com/ddsgo/ddsgo/waitset"

	"github.com/ddsgo/ddsgo/dds/internal/status"

	"github.com/ddsgo/ddsgo/dds/internal/rhc"
	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/internal/cdr"
	"github.com/ddsgo/ddsgo/internal/discovery"
	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
)

// DataReader reads samples of type T from a topic (DataReader of DDS 1.4 §2.2.2.5.3).
// Make one with NewReader.
//
// Take and Read wait, bounded by their context, until samples are there; Samples ranges
// over them as they come. TakeInto and ReadInto fill the caller's slices, so that a
// loop taking samples of a type of fixed size allocates nothing. Values returned by a
// read share their slices and strings with the reader's cache: do not modify them.
// Values returned by a take are the caller's.
type DataReader[T any] struct {
	entity
	sub   *Subscriber
	topic *Topic[T]
	cft   *ContentFilteredTopic[T] // nil for a reader of a Topic (filter.go)
	codec *cdr.Codec[T]
	keyed bool
	match matcher

	cache atomic.Pointer[rhc.Cache[T]]
	er    engineReader // set by enableSelf, before enabled
	// deadline watches the DEADLINE (nil without a finite one); set when enabled.
	deadline atomic.Pointer[deadlineMonitor]
	// retrier is er for the cache's OnSpaceAvailable hook, which may run before
	// enableSelf sets er (on the engine's goroutine).
	retrier atomic.Pointer[engineReader]
	// waits holds the blocking reads waiting for data (wait).
	waits waitList

	// dmu guards the delivery scratch state.
	dmu     sync.Mutex
	scratch rhc.Change[T]
	dec     cdr.Decoder
	// writers holds what deliver and the liveliness watch need of each matched writer.
	writers map[wire.GUID]writerInfo
	// recycled holds values given back with ReturnLoan; deliver decodes into them so
	// that their slices are reused. recycleMax is how many it keeps: maxRecycled, or
	// more when ReturnLoan gave back more at once (see recycle).
	recycled   []T
	recycleMax int
	// judging counts the query filters running (see judge).
	judging atomic.Int32
	// headers, for the reader of a service, takes rmw_cyclonedds's request headers off
	// the samples of Cyclone DDS writers into stripped (see svcHeaders).
	headers  atomic.Pointer[svcHeaders]
	stripped []byte
	// loaned counts the values takes returned and ReturnLoan did not get back yet:
	// ReturnLoan refuses more values than that (values from a read, say).
	loaned atomic.Int64
	// rejectedSN is the highest sequence number rejected of each writer, so that a
	// sample refused again when it is resent counts once in SAMPLE_REJECTED.
	rejectedSN map[wire.GUID]wire.SequenceNumber

	// coh holds back coherent sets (nil without coherent access); set by enableSelf.
	coh *coherentReader
	// commitMu makes a coherent set's insertion and a Take's count-and-take atomic to
	// each other (coherent.go); taken before rmu.
	commitMu sync.Mutex
	// rmu guards the read scratch state.
	rmu      sync.Mutex
	rinfos   []rhc.SampleInfo
	sel      rhc.Selector[T]
	lastNext struct {
		h  InstanceHandle
		rh rhc.InstanceHandle
	}

	cmu   sync.Mutex
	conds []*ReadCondition[T]
}

// NewReader creates a reader of topic t (create_datareader), in the participant's
// default subscriber or the one given with WithSubscriber. Its QoS is the subscriber's
// default reader QoS (BEST_EFFORT, KEEP_LAST 1, VOLATILE), then the QoS options t was
// created with, then opts: Reliable, KeepAll, TransientLocal, ..., WithQos with a whole
// qos.DataReaderQos, WithListener with a ReaderListener[T]. The reader is enabled when
// the subscriber is and its ENTITY_FACTORY QoS autoenables.
func NewReader[T any](t *Topic[T], opts ...Option) (*DataReader[T], error) {
	return newReader(t, nil, opts)
}

func newReader[T any](t *Topic[T], cft *ContentFilteredTopic[T], opts []Option) (*DataReader[T], error) {
	var sub *Subscriber
	group := func(s *settings) (*entity, qos.DataReaderQos, error) {
		var err error
		if sub = s.sub; sub == nil {
			sub, err = t.p.defaultSubscriber()
		}
		if err != nil {
			return nil, qos.DataReaderQos{}, err
		}
		return &sub.entity, sub.DefaultDataReaderQos(), nil
	}
	bind := func(s *settings, q *qos.DataReaderQos) { s.reader = q }
	s, rq, l, err := endpointSettings[qos.DataReaderQos, ReaderListener[T]](t, "reader", bind, group, opts)
	if err != nil {
		return nil, err
	}
	// A built-in topic has no codec, and keys.
	r := &DataReader[T]{sub: sub, topic: t, cft: cft, codec: t.codec, keyed: t.codec == nil || t.codec.Keyed() || t.dyn != nil && t.dyn.keyed || dynamicKeyed(t), writers: map[wire.GUID]writerInfo{}}
	r.match = matcher{e: &r.entity, hooks: r}
	if err := createEndpoint(t, r, &sub.entity, kindReader, l, s.mask, rq); err != nil {
		return nil, err
	}
	return r, nil
}

// TopicDescription returns the reader's topic (get_topicdescription).
func (r *DataReader[T]) TopicDescription() TopicDescription { return r.topic }

// Topic returns the reader's topic.
func (r *DataReader[T]) Topic() *Topic[T] { return r.topic }

// Subscriber returns the reader's subscriber.
func (r *DataReader[T]) Subscriber() *Subscriber { return r.sub }

// Close deletes the reader and its read conditions (delete_datareader). Reads waiting
// for data return ErrAlreadyDeleted. Closing a closed reader does nothing.
func (r *DataReader[T]) Close() error { return r.p.closeEntity(r, true) }

// Enable enables the reader (enable): it creates its cache and the RTPS reader and
// announces it. The subscriber and the topic must be enabled.
func (r *DataReader[T]) Enable() error {
	r.p.opMu.Lock()
	defer r.p.opMu.Unlock()
	return r.p.enable(r)
}

// readerRepresentation is the DATA_REPRESENTATION a reader announces: for an empty list
// both XCDR1 and XCDR2, which it decodes alike (as Cyclone DDS does).
func readerRepresentation(dr qos.DataRepresentation) qos.DataRepresentation {
	if len(dr.Value) == 0 {
		return qos.DataRepresentation{Value: []qos.DataRepresentationID{qos.XCDR1, qos.XCDR2}}
	}
	return dr
}

// endpointQosLocked returns what the reader announces; the caller holds p.mu.
func (r *DataReader[T]) endpointQosLocked() (qos.Requested, qos.DataReaderQos) {
	m := r.p.m
	rq, _ := ecm.ComponentData[qos.DataReaderQos](m, r.ent)
	sq, _ := ecm.ComponentData[qos.SubscriberQos](m, r.sub.ent)
	tq, _ := ecm.ComponentData[qos.TopicQos](m, r.topic.ent)
	eq := qos.Requested{Reader: rq, Subscriber: sq, TopicData: tq.TopicData}
	eq.Reader.DataRepresentation = readerRepresentation(rq.DataRepresentation)
	return eq, rq
}

func (r *DataReader[T]) builtinDataLocked() EndpointBuiltinTopicData {
	eq, _ := r.endpointQosLocked()
	h, _ := ecm.ComponentData[handleComp](r.p.m, r.ent)
	ph, _ := ecm.ComponentData[handleComp](r.p.m, r.p.ent)
	return EndpointBuiltinTopicData{Key: h.Handle, ParticipantKey: ph.Handle, TopicName: r.topic.name, TypeName: r.topic.TypeName(), Requested: eq}
}

// cacheConfig returns the cache configuration of reader QoS q.
func cacheConfig(q qos.DataReaderQos) rhc.Config {
	limit := func(n int32) int {
		if n <= 0 {
			return 0
		}
		return int(n)
	}
	purge := func(d time.Duration) time.Duration {
		switch {
		case d == qos.Infinite:
			return 0
		case d <= 0:
			return time.Nanosecond
		}
		return d
	}
	return rhc.Config{
		KeepAll:                       q.History.Kind == qos.KeepAll,
		Depth:                         limit(q.History.Depth),
		MaxSamples:                    limit(q.ResourceLimits.MaxSamples),
		MaxInstances:                  limit(q.ResourceLimits.MaxInstances),
		MaxSamplesPerInstance:         limit(q.ResourceLimits.MaxSamplesPerInstance),
		BySourceTimestamp:             q.DestinationOrder.Kind == qos.BySourceTimestamp,
		ExclusiveOwnership:            q.Ownership.Kind == qos.Exclusive,
		MinimumSeparation:             q.TimeBasedFilter.MinimumSeparation,
		AutopurgeNoWriterSamplesDelay: purge(q.ReaderDataLifecycle.AutopurgeNoWriterSamplesDelay),
		AutopurgeDisposedSamplesDelay: purge(q.ReaderDataLifecycle.AutopurgeDisposedSamplesDelay),
	}
}

func (r *DataReader[T]) enableSelf() error {
	if !r.topic.enabled.Load() {
		return errorf(ErrPreconditionNotMet, "the topic is not enabled")
	}
	p := r.p
	p.mu.Lock()
	eq, rq := r.endpointQosLocked()
	p.mu.Unlock()
	cfg := cacheConfig(rq)
	cfg.OrderedAccess = orderedAccess(eq.Subscriber.Presentation) // coherent.go
	if groupOrdered(eq.Subscriber.Presentation) {
		cfg.Arrivals = &r.sub.arrivals // one order across the subscriber's readers
	}
	cfg.OnDataAvailable = r.onData
	cfg.OnSpaceAvailable = r.onSpace
	cache, err := rhc.New[T](cfg)
	if err != nil {
		return err // matches ErrBadParameter or ErrInconsistentPolicy
	}
	r.cache.Store(cache)
	if r.codec == nil {
		return r.enableBuiltin(rq)
	}
	er, err := p.eng.NewReader(endpointConfig{
		Topic:         r.topic.name,
		Type:          r.topic.TypeName(),
		Keyed:         r.keyed,
		Requested:     eq,
		Listener:      &r.match,
		OnLiveliness:  r.onLivelinessHeartbeat,
		ContentFilter: r.contentFilterProperty(),

		TypeInformation: typeInfoOf[T](r.topic.TypeName()),
	}, r.deliverFunc(eq))
	if err != nil {
		return wrapErr(ErrError, err, "creating the RTPS reader")
	}
	r.er = er
	r.retrier.Store(&er)
	r.deadline.Store(newDeadlineMonitor(rq.Deadline.Period, p.clk, r.deadlineMissed))
	p.mu.Lock()
	ecm.SetComponentData(p.m, r.ent, handleComp{status.GUIDHandle(guidBytes(er.GUID()))})
	p.mu.Unlock()
	return nil
}

func (r *DataReader[T]) reannounce() error {
	r.p.mu.Lock()
	eq, rq := r.endpointQosLocked()
	r.p.mu.Unlock()
	r.deadline.Load().setPeriod(rq.Deadline.Period)
	if cache := r.cache.Load(); cache != nil {
		c := cacheConfig(rq)
		if err := cache.SetLifecycle(c.MinimumSeparation, c.AutopurgeNoWriterSamplesDelay, c.AutopurgeDisposedSamplesDelay, r.p.now()); err != nil {
			return wrapErr(ErrBadParameter, err, "reader of "+r.topic.name)
		}
	}
	if r.er == nil { // a built-in topic's: nothing to announce
		return nil
	}
	if err := r.er.UpdateQos(eq); err != nil {
		return wrapErr(ErrError, err, "announcing the reader")
	}
	return nil
}

func (r *DataReader[T]) teardown() {
	r.deadline.Load().close()
	if r.cft != nil {
		r.cft.dropReader(r)
	}
	r.forgetWriters()
	r.coh.gone(r.topic.name)
	r.waits.wakeAll()
	r.waits.close()
	r.cmu.Lock()
	r.forget(r.conds, true)
	r.conds = nil
	r.cmu.Unlock()
	if r.er != nil {
		_ = r.er.Close()
	}
}

func (r *DataReader[T]) busy() bool {
	r.cmu.Lock()
	defer r.cmu.Unlock()
	return len(r.conds) > 0
}

// writerInfo is what a reader keeps of a matched writer.
type writerInfo struct {
	lifespan time.Duration // 0: infinite
	strength int32         // OWNERSHIP_STRENGTH
	lease    *lease        // nil: its liveliness is not watched
	// group is the writer's participant's, which its data asserts (nil for a writer of
	// the reader's own participant).
	group *leaseGroup
}

// writerInfoOf returns what a reader uses of the QoS the writer remote announced.
func writerInfoOf(remote *discovery.EndpointData) writerInfo {
	ls := remote.Offered.Writer.Lifespan.Duration
	if ls == qos.Infinite || ls < 0 {
		ls = 0
	}
	return writerInfo{lifespan: ls, strength: remote.Offered.Writer.OwnershipStrength.Value}
}

// matched records the lifespan and strength of a matched writer and watches its
// liveliness.
func (r *DataReader[T]) matched(remote *discovery.EndpointData) {
	if !remote.IsWriter() {
		return
	}
	g := remote.GUID
	self := g.Prefix == r.p.prefix
	wi := writerInfoOf(remote)
	wi.lease = r.p.live.watch(g, remote.Offered.Writer.Liveliness, false, self, func(alive bool) {
		r.writerLiveliness(g, alive)
	})
	if !self {
		wi.group = r.p.live.join(g.Prefix)
	}
	r.dmu.Lock()
	r.writers[g] = wi
	r.dmu.Unlock()
	h := status.GUIDHandle(guidBytes(g))
	r.event(listener.LivelinessChanged, func(s *statusBlock) {
		s.liveliness.Transition(h, status.WriterUnknown, status.WriterAlive)
	})
}

// updated takes in the QoS of a writer being matched, or matched and announcing a
// change, before its samples can arrive: a new OWNERSHIP_STRENGTH applies at once to
// the instances the writer owns, and to its later samples. It runs under discovery's
// lock, and takes dmu and the cache's lock only.
func (r *DataReader[T]) updated(remote *discovery.EndpointData) {
	if !remote.IsWriter() {
		return
	}
	wi := writerInfoOf(remote)
	r.dmu.Lock()
	old, ok := r.writers[remote.GUID]
	wi.lease, wi.group = old.lease, old.group // matched watches the liveliness
	r.writers[remote.GUID] = wi
	r.dmu.Unlock()
	if c := r.cache.Load(); ok && c != nil && old.strength != wi.strength {
		c.SetStrength(rhc.GUID(guidBytes(remote.GUID)), wi.strength)
	}
}

// unmatched forgets a writer: its instances lose it.
func (r *DataReader[T]) unmatched(remote wire.GUID) {
	r.dmu.Lock()
	wi, ok := r.writers[remote]
	delete(r.writers, remote)
	delete(r.rejectedSN, remote)
	r.dmu.Unlock()
	if !ok {
		return
	}
	from := status.WriterAlive
	if !r.p.live.forget(wi.lease) {
		from = status.WriterNotAlive
	}
	if wi.group != nil {
		r.p.live.leave(remote.Prefix)
	}
	r.coh.forget(remote)
	r.writerNotAlive(remote)
	h := status.GUIDHandle(guidBytes(remote))
	r.event(listener.LivelinessChanged, func(s *statusBlock) {
		s.liveliness.Transition(h, from, status.WriterUnknown)
	})
}

// writerNotAlive takes the writer g out of the reader's instances, as when it loses its
// liveliness or is no longer matched: it unregisters from each (an instance left
// without writers becomes NOT_ALIVE_NO_WRITERS) and, with EXCLUSIVE ownership, gives
// up those it owns, so that the next sample of another writer takes them. Its next
// sample registers it again.
func (r *DataReader[T]) writerNotAlive(g wire.GUID) {
	if c := r.cache.Load(); c != nil {
		c.WriterLost(rhc.GUID(guidBytes(g)), r.p.now())
	}
}

// deadlineMissed counts a missed REQUESTED_DEADLINE of instance h; with EXCLUSIVE
// ownership its owner loses it (DDS 1.4 §2.2.3.9: the owner must keep the deadline).
func (r *DataReader[T]) deadlineMissed(h InstanceHandle) {
	if c := r.cache.Load(); c != nil {
		c.ReleaseOwnership(rhc.KeyHash(keyHashOf(h)))
	}
	r.event(listener.RequestedDeadlineMissed, func(s *statusBlock) { s.deadline.Increment(h) })
}

// forgetWriters stops watching the liveliness of the matched writers: a deleted reader
// hears of no unmatch.
func (r *DataReader[T]) forgetWriters() {
	r.dmu.Lock()
	writers := r.writers
	r.writers = map[wire.GUID]writerInfo{}
	r.dmu.Unlock()
	for g, wi := range writers {
		r.p.live.forget(wi.lease)
		if wi.group != nil {
			r.p.live.leave(g.Prefix)
		}
		r.coh.forget(g) // its sets no longer wait for this reader's parts
	}
}

// writerLiveliness is the one place where a matched writer's liveliness changes: alive
// again on an assertion after its lease lapsed, or not alive when it lapsed. A writer
// not alive is no longer a writer of its instances: those it was the only live writer
// of become NOT_ALIVE_NO_WRITERS (DDS 1.4 §2.2.3.11); its next sample makes it one
// again. LIVELINESS_CHANGED counts the transition. It is called under the liveliness
// monitor's lock, one transition at a time.
func (r *DataReader[T]) writerLiveliness(g wire.GUID, alive bool) {
	from, to := status.WriterNotAlive, status.WriterAlive
	if !alive {
		from, to = to, from
		r.writerNotAlive(g)
	}
	h := status.GUIDHandle(guidBytes(g))
	r.event(listener.LivelinessChanged, func(s *statusBlock) { s.liveliness.Transition(h, from, to) })
}

// onLivelinessHeartbeat renews the lease of writer, which sent a HEARTBEAT with the
// Liveliness flag, and those of its participant's MANUAL_BY_PARTICIPANT writers, as
// Cyclone DDS does. It runs on the receive goroutine.
func (r *DataReader[T]) onLivelinessHeartbeat(writer wire.GUID) {
	r.dmu.Lock()
	wi := r.writers[writer]
	r.dmu.Unlock()
	now := r.p.now()
	r.p.live.renew(wi.lease, now)
	r.p.live.groupAsserted(wi.group, now)
}

// Qos returns the reader's QoS (get_qos).
func (r *DataReader[T]) Qos() qos.DataReaderQos { return getQos[qos.DataReaderQos](&r.entity) }

// SetQos changes the reader's QoS (set_qos); once enabled, only the changeable policies
// may change, and the change is announced. DEADLINE, TIME_BASED_FILTER and
// READER_DATA_LIFECYCLE apply at once (a new autopurge delay also to the instances
// already waiting for theirs).
func (r *DataReader[T]) SetQos(q qos.DataReaderQos) error {
	r.p.opMu.Lock()
	defer r.p.opMu.Unlock()
	if err := setQos(&r.entity, q); err != nil {
		return err
	}
	if r.enabled.Load() {
		return r.reannounce()
	}
	return nil
}

// Listener returns the reader's listener (get_listener).
func (r *DataReader[T]) Listener() ReaderListener[T] {
	l, _ := r.listener().(ReaderListener[T])
	return l
}

// SetListener sets the reader's listener and the statuses it handles (set_listener):
// with no mask, those it has functions for; WithListener tells the rules.
func (r *DataReader[T]) SetListener(l ReaderListener[T], mask ...listener.StatusMask) error {
	return r.setListener(l, mask)
}

// deliver is the engine's delivery callback: it decodes a change into the cache. It
// runs on the engine's receive goroutine and does not block. It refuses (false) a
// change the cache rejects for its resource limits: a reliable reader leaves it
// unacknowledged and asks for it again when onSpace says there is room. Changes that
// cannot be decoded are accepted and counted lost, and so are, with the change accepted
// or alone (s.LostOnly), those the protocol reports never to come (s.Lost).
func (r *DataReader[T]) deliver(s *rtps.Sample) bool {
	cache := r.cache.Load()
	if cache == nil || r.deleted.Load() {
		return true
	}
	if s.LostOnly {
		r.lost(s.Lost)
		return true
	}
	r.dmu.Lock()
	ch := &r.scratch
	wi := r.writers[s.Writer]
	if !r.decodeChange(ch, s, wi) {
		var zero T
		ch.Value = zero
		r.dmu.Unlock()
		r.lost(s.Lost + 1)
		return true
	}
	now := r.p.receivedAt(s)
	out, pass := rhc.Ignored, r.passes(ch)
	if pass {
		out = cache.Insert(ch, now)
	}
	kh, kind := ch.KeyHash, ch.Kind
	r.recycleAfterInsert(ch, out)
	counted := out.Rejected() && r.firstRejection(s)
	r.dmu.Unlock()
	// The writer's data asserts its liveliness, and that of its participant's
	// MANUAL_BY_PARTICIPANT writers.
	r.p.live.renew(wi.lease, now)
	r.p.live.groupAsserted(wi.group, now)
	if !out.Rejected() {
		r.lost(s.Lost) // what the protocol knows never came before it
		// A non-owner's sample is not one the reader receives: it neither keeps the
		// instance's deadline nor ends it.
		if d := r.deadline.Load(); pass && d != nil && d.period.Load() != 0 && out != rhc.DroppedNotOwner {
			if h := status.KeyHandle(kh); kind == rhc.Write {
				d.touch(h)
			} else {
				d.forget(h) // not alive: no deadline
			}
		}
		return true
	}
	if counted { // a sample refused again when resent counted the first time
		r.rejected(out, kh)
	}
	return false
}

// receivedAt returns the reception time of s: the engine's clock reading for the
// datagram that brought it, when that clock is the participant's, else the
// participant's clock now. One reading per datagram instead of one per sample: with a
// dozen samples in a datagram, time.Now was 7 % of a subscriber's CPU.
func (p *DomainParticipant) receivedAt(s *rtps.Sample) time.Time {
	if p.realTime && !s.Received.IsZero() {
		return s.Received
	}
	return p.now()
}

// decodeChange fills ch from s, a sample of the writer wi describes: kind, writer,
// timestamps, lifespan, strength, value (into a recycled value when there is one) and
// key hash. It reports false when s cannot be decoded or its instance cannot be told;
// the caller holds dmu.
func (r *DataReader[T]) decodeChange(ch *rhc.Change[T], s *rtps.Sample, wi writerInfo) bool {
	var zero T
	ch.Value = zero
	ch.Writer = rhc.GUID(guidBytes(s.Writer))
	ch.SourceTimestamp = time.Time{}
	if ts := s.SourceTimestamp; ts != wire.TimeZero && ts != wire.TimeInvalid && ts != wire.TimeInfinite {
		ch.SourceTimestamp = ts.Time()
	}
	ch.Lifespan, ch.Strength = wi.lifespan, wi.strength
	ch.SN, ch.Related, ch.Size = int64(s.SN), rhc.Identity{}, int32(len(s.Payload))
	if s.Related.WriterGUID != (wire.GUID{}) {
		ch.Related = rhc.Identity{Writer: rhc.GUID(guidBytes(s.Related.WriterGUID)), SN: int64(s.Related.SN)}
	}
	var haveKey bool
	if s.Kind == rtps.Alive {
		ch.Kind = rhc.Write
		if n := len(r.recycled); n > 0 {
			ch.Value, r.recycled[n-1] = r.recycled[n-1], zero
			r.recycled = r.recycled[:n-1]
		}
		payload := s.Payload
		if h := r.headers.Load(); h != nil {
			payload = h.strip(s, &r.stripped)
		}
		if r.codec.Unmarshal(payload, &ch.Value) != nil {
			return false
		}
		haveKey = true
	} else {
		ch.Kind = instanceChangeKind(s.Kind)
		haveKey = r.decodeKeyOf(ch, s)
	}
	switch {
	case !r.keyed:
		ch.KeyHash = rhc.KeyHash{}
	case s.HasKeyHash:
		ch.KeyHash = rhc.KeyHash(s.KeyHash)
	case haveKey:
		ch.KeyHash = rhc.KeyHash(r.codec.KeyHash(&ch.Value))
	default:
		return false
	}
	return true
}

// instanceChangeKind returns the cache's kind of a dispose or unregister.
func instanceChangeKind(k rtps.ChangeKind) rhc.ChangeKind {
	switch k {
	case rtps.NotAliveDisposed:
		return rhc.Dispose
	case rtps.NotAliveUnregistered:
		return rhc.Unregister
	default:
		return rhc.DisposeUnregister
	}
}

// decodeKeyOf decodes the key fields of a dispose or unregister s into ch.Value and
// reports whether it could.
func (r *DataReader[T]) decodeKeyOf(ch *rhc.Change[T], s *rtps.Sample) bool {
	switch {
	case len(s.Payload) > 0 && s.KeyOnly:
		if r.dec.Reset(s.Payload) != nil {
			return false
		}
		r.codec.DecodeKey(&r.dec, &ch.Value)
		return r.dec.Err() == nil
	case len(s.Payload) > 0:
		return r.codec.Unmarshal(s.Payload, &ch.Value) == nil
	case s.HasKeyHash && r.codec.KeyHashIsKey():
		// No payload (Fast DDS's form, and ours for short keys): the hash is the key.
		return r.codec.DecodeKeyHash(cdr.KeyHash(s.KeyHash), &ch.Value) == nil
	}
	return false
}

// recycleAfterInsert keeps for reuse the values the cache did not keep, which nobody
// else references: the one it refused, and an unread one KEEP_LAST replaced. The
// caller holds dmu.
func (r *DataReader[T]) recycleAfterInsert(ch *rhc.Change[T], out rhc.Outcome) {
	var zero T
	if ch.HasReplaced {
		r.recycle(ch.Replaced)
		ch.Replaced, ch.HasReplaced = zero, false
	}
	if ch.Kind == rhc.Write && out != rhc.Accepted {
		r.recycle(ch.Value)
	}
	ch.Value = zero
}

// rejected raises SAMPLE_REJECTED for a sample of instance kh the cache refused.
func (r *DataReader[T]) rejected(out rhc.Outcome, kh rhc.KeyHash) {
	h := status.KeyHandle(kh)
	r.status.mu.Lock()
	r.status.rejected.Reject(listener.SampleRejectedStatusKind(out.Reason()), h)
	r.status.setChanged(listener.SampleRejected)
	r.status.mu.Unlock()
	r.raised(listener.SampleRejected)
}

// onSpace is the cache's OnSpaceAvailable hook: take, a purge or an expiry made room
// after a rejection, so the engine asks the writers for the refused samples again. It
// runs with no cache lock held, on a user goroutine or the engine's (Retry only posts
// work to the engine's event loop).
func (r *DataReader[T]) onSpace() {
	if er := r.retrier.Load(); er != nil {
		(*er).Retry()
	}
}

// lost counts n lost samples (SAMPLE_LOST): changes that could not be decoded, and
// those the protocol knows will never come (rtps.Sample.Lost).
func (r *DataReader[T]) lost(n uint64) {
	if n == 0 {
		return
	}
	r.status.mu.Lock()
	r.status.sampleLost.Add(HandleNil, n)
	r.status.setChanged(listener.SampleLost)
	r.status.mu.Unlock()
	r.raised(listener.SampleLost)
}

// onData is the cache's DATA_AVAILABLE hook.
func (r *DataReader[T]) onData() {
	r.waits.wakeAll()
	sub := r.sub
	r.status.changes.Or(uint32(listener.DataAvailable))
	sub.status.changes.Or(uint32(listener.DataOnReaders))
	r.notifyConditions()
	waitset.Notify(&r.cond)
	waitset.Notify(&sub.cond)
	if !r.enabled.Load() {
		return
	}
	if sub.listens(listener.DataOnReaders) {
		r.p.disp.Post(&sub.slot, uint32(listener.DataOnReaders))
	}
	if r.listens(listener.DataAvailable) {
		r.p.disp.Post(&r.slot, uint32(listener.DataAvailable))
	}
}

// notifyConditions wakes the waitsets of the reader's read conditions.
func (r *DataReader[T]) notifyConditions() {
	r.cmu.Lock()
	for _, c := range r.conds {
		waitset.Notify(c)
	}
	r.cmu.Unlock()
}

// The access operations.
type accessOp uint8

const (
	opRead accessOp = iota
	opTake
	opReadInstance
	opTakeInstance
	opReadNext
	opTakeNext
)

// access runs op into dst and infos (up to the shorter length), selecting with sel (or
// st when sel is nil), for the instance h of the instance operations.
func (r *DataReader[T]) access(op accessOp, dst []T, infos []SampleInfo, st States, sel *rhc.Selector[T], h InstanceHandle) (int, error) {
	if err := r.check(); err != nil {
		return 0, err
	}
	n := min(len(dst), len(infos))
	if n == 0 {
		return 0, errorf(ErrBadParameter, "reader of %s: no room for samples", r.topic.name)
	}
	if err := r.judge(r.cache.Load(), sel); err != nil {
		return 0, err
	}
	r.rmu.Lock()
	if cap(r.rinfos) < n {
		r.rinfos = make([]rhc.SampleInfo, n)
	}
	ri := r.rinfos[:n]
	if sel == nil {
		r.sel = selectorOf[T](st)
		sel = &r.sel
	}
	c, err := r.run(op, dst[:n], ri, sel, h)
	for i := range c {
		infos[i].from(&ri[i])
	}
	if op&1 == opTake { // the take operations are odd
		r.loaned.Add(int64(c))
	}
	r.sel.Filter = nil
	r.rmu.Unlock()
	r.accessed()
	if err != nil {
		if errors.Is(err, rhc.ErrBadHandle) {
			err = wrapErr(ErrBadParameter, err, "reader of "+r.topic.name)
		}
		return 0, err
	}
	if c == 0 {
		return 0, ErrNoData
	}
	return c, nil
}

// run runs op on the cache; the caller holds rmu.
func (r *DataReader[T]) run(op accessOp, dst []T, ri []rhc.SampleInfo, sel *rhc.Selector[T], h InstanceHandle) (int, error) {
	cache := r.cache.Load()
	var now time.Time
	if cache.ReadsNeedTime() {
		now = r.p.now()
	}
	switch op {
	case opRead:
		return cache.Read(dst, ri, sel, now), nil
	case opTake:
		return cache.Take(dst, ri, sel, now), nil
	case opReadInstance, opTakeInstance:
		rh := cache.Lookup(rhc.KeyHash(keyHashOf(h)))
		switch {
		case h.IsNil() || rh == rhc.HandleNil:
			return 0, errorf(ErrBadParameter, "reader of %s: no instance %v", r.topic.name, h)
		case op == opReadInstance:
			return cache.ReadInstance(dst, ri, rh, sel, now)
		default:
			return cache.TakeInstance(dst, ri, rh, sel, now)
		}
	case opReadNext, opTakeNext:
	}
	rh, err := r.nextStart(cache, h)
	if err != nil {
		return 0, err
	}
	var c int
	if op == opReadNext {
		c = cache.ReadNextInstance(dst, ri, rh, sel, now)
	} else {
		c = cache.TakeNextInstance(dst, ri, rh, sel, now)
	}
	if c > 0 {
		r.lastNext.h, r.lastNext.rh = status.KeyHandle(ri[0].KeyHash), ri[0].InstanceHandle
	}
	return c, nil
}

// nextStart returns the cache's handle of the instance after which the next-instance
// operations look: none for HandleNil, the last one found when h is it (it may have
// left the cache since), or h's.
func (r *DataReader[T]) nextStart(cache *rhc.Cache[T], h InstanceHandle) (rhc.InstanceHandle, error) {
	switch {
	case h.IsNil():
		return rhc.HandleNil, nil
	case h == r.lastNext.h:
		return r.lastNext.rh, nil
	}
	rh := cache.Lookup(rhc.KeyHash(keyHashOf(h)))
	if rh == rhc.HandleNil {
		return rh, errorf(ErrBadParameter, "reader of %s: no instance %v", r.topic.name, h)
	}
	return rh, nil
}

// accessed resets DATA_AVAILABLE and the subscriber's DATA_ON_READERS after a read or
// take, and wakes the read conditions, whose trigger may have changed.
func (r *DataReader[T]) accessed() {
	r.status.clearChanged(listener.DataAvailable)
	r.sub.status.clearChanged(listener.DataOnReaders)
	r.notifyConditions()
}

// ReadOption is an optional argument of the read and take operations.
type ReadOption func(readArgs) readArgs

type readArgs struct {
	max      int  // 0: all
	maxBad   bool // MaxSamples was given a count that is none
	maxGiven int
	states   States
	h        InstanceHandle
	instance bool // only instance h
	next     bool // the next instance after h
	cond     any  // a *ReadCondition[T] of the reader
	noWait   bool
}

// MaxSamples bounds the number of samples Read and Take return (all by default); n is
// positive, or qos.LengthUnlimited (-1), the spec's LENGTH_UNLIMITED: all. Any other n
// makes the read or take fail with ErrBadParameter.
func MaxSamples(n int) ReadOption {
	return func(a readArgs) readArgs {
		a.max, a.maxBad, a.maxGiven = max(n, 0), n == 0 || n < int(qos.LengthUnlimited), n
		return a
	}
}

// InStates selects the samples in the states st (every state by default).
func InStates(st States) ReadOption {
	return func(a readArgs) readArgs { a.states = st; return a }
}

// Instance selects the samples of instance h (read_instance, take_instance); an
// instance the reader does not have is ErrBadParameter.
func Instance(h InstanceHandle) ReadOption {
	return func(a readArgs) readArgs { a.h, a.instance, a.next = h, true, false; return a }
}

// NextInstance selects the samples of the first instance after prev that has samples in
// the states selected (read_next_instance, take_next_instance); HandleNil starts with
// the first instance.
func NextInstance(prev InstanceHandle) ReadOption {
	return func(a readArgs) readArgs { a.h, a.next, a.instance = prev, true, false; return a }
}

// WithCondition selects with the states and filter of c, a ReadCondition or
// QueryCondition of the reader (read_w_condition, take_w_condition).
func WithCondition[T any](c *ReadCondition[T]) ReadOption {
	return func(a readArgs) readArgs { a.cond = c; return a }
}

// NoWait makes a read or take return at once: ErrNoData when there is no sample, as the
// DCPS operations do.
func NoWait() ReadOption { return func(a readArgs) readArgs { a.noWait = true; return a } }

// Read returns the samples selected, leaving them in the cache marked READ (read). It
// waits until there is one, or ctx is done (ctx's error, wrapped); with NoWait,
// ErrNoData reports that there was none.
func (r *DataReader[T]) Read(ctx context.Context, opts ...ReadOption) ([]T, []SampleInfo, error) {
	return r.collect(ctx, opRead, opts)
}

// Take is Read that removes the samples from the cache (take).
func (r *DataReader[T]) Take(ctx context.Context, opts ...ReadOption) ([]T, []SampleInfo, error) {
	return r.collect(ctx, opTake, opts)
}

// ReadInto is Read into data and infos, up to the length of the shorter; it returns the
// number of samples and allocates nothing.
func (r *DataReader[T]) ReadInto(ctx context.Context, data []T, infos []SampleInfo, opts ...ReadOption) (int, error) {
	return r.into(ctx, opRead, data, infos, opts)
}

// TakeInto is ReadInto that removes the samples from the cache; it allocates nothing.
func (r *DataReader[T]) TakeInto(ctx context.Context, data []T, infos []SampleInfo, opts ...ReadOption) (int, error) {
	return r.into(ctx, opTake, data, infos, opts)
}

// Samples returns an iterator over the samples taken from the reader one at a time, as
// they arrive, with their SampleInfo:
//
//	for s, info := range r.Samples(ctx) { ... }
//
// It ends when ctx is done or the reader is deleted; a sample is taken only when the
// loop asks for it, so breaking out of the loop loses nothing.
func (r *DataReader[T]) Samples(ctx context.Context, opts ...ReadOption) iter.Seq2[T, SampleInfo] {
	return func(yield func(T, SampleInfo) bool) {
		var v [1]T
		var info [1]SampleInfo
		for {
			if _, err := r.into(ctx, opTake, v[:], info[:], opts); err != nil {
				return
			}
			if !yield(v[0], info[0]) {
				return
			}
		}
	}
}

// args applies opts to a and returns the access they ask for, and the condition's
// selector.
func (r *DataReader[T]) args(op accessOp, opts []ReadOption, a *readArgs) (accessOp, *rhc.Selector[T], error) {
	for _, o := range opts {
		*a = o(*a)
	}
	if a.maxBad {
		return op, nil, errorf(ErrBadParameter, "reader of %s: MaxSamples(%d): neither a positive count nor LengthUnlimited (-1)", r.topic.name, a.maxGiven)
	}
	var sel *rhc.Selector[T]
	if a.cond != nil {
		c, ok := a.cond.(*ReadCondition[T])
		if !ok {
			return op, nil, errorf(ErrPreconditionNotMet, "reader of %s: the condition is not the reader's", r.topic.name)
		}
		var err error
		if sel, err = r.conditionSelector(c); err != nil {
			return op, nil, err
		}
	}
	switch {
	case a.instance:
		op += opReadInstance
	case a.next:
		op += opReadNext
	}
	return op, sel, nil
}

// into runs op into data and infos, waiting for samples unless NoWait.
func (r *DataReader[T]) into(ctx context.Context, op accessOp, data []T, infos []SampleInfo, opts []ReadOption) (int, error) {
	var a readArgs
	op, sel, err := r.args(op, opts, &a)
	if err != nil {
		return 0, err
	}
	if a.max > 0 {
		data = data[:min(len(data), a.max)]
	}
	// The first try without the closure: what a loop taking what is there does.
	if a.noWait {
		return r.access(op, data, infos, a.states, sel, a.h)
	}
	w := r.waits.add() // before the try: see wait
	n, err := r.access(op, data, infos, a.states, sel, a.h)
	if !errors.Is(err, ErrNoData) {
		r.waits.done(w)
		return n, err
	}
	return r.wait(ctx, w, func() (int, error) {
		return r.access(op, data, infos, a.states, sel, a.h)
	})
}

// collect runs op into new slices.
func (r *DataReader[T]) collect(ctx context.Context, op accessOp, opts []ReadOption) ([]T, []SampleInfo, error) {
	var a readArgs
	op, sel, err := r.args(op, opts, &a)
	if err != nil {
		return nil, nil, err
	}
	var dst []T
	var infos []SampleInfo
	try := func() (int, error) {
		if err := r.check(); err != nil {
			return 0, err
		}
		r.commitMu.Lock()
		defer r.commitMu.Unlock()
		s := r.cache.Load().Stats()
		n := s.Samples + s.InvalidSamples
		if a.max > 0 && a.max < n {
			n = a.max
		}
		if n == 0 && a.instance {
			n = 1 // an empty cache still tells an unknown instance (bad parameter) from no data
		}
		if n == 0 {
			r.accessed()
			return 0, ErrNoData
		}
		dst, infos = make([]T, n), make([]SampleInfo, n)
		c, err := r.access(op, dst, infos, a.states, sel, a.h)
		dst, infos = dst[:c], infos[:c]
		return c, err
	}
	if a.noWait {
		_, err = try()
	} else {
		_, err = r.tryWait(ctx, try)
	}
	if err != nil {
		return nil, nil, err
	}
	return dst, infos, nil
}

// tryWait runs try, and waits for data and runs it again while it finds nothing.
func (r *DataReader[T]) tryWait(ctx context.Context, try func() (int, error)) (int, error) {
	w := r.waits.add() // before the try: see wait
	if n, err := try(); !errors.Is(err, ErrNoData) {
		r.waits.done(w)
		return n, err
	}
	return r.wait(ctx, w, try)
}

// wait waits for data and runs try until it returns something other than ErrNoData,
// or ctx is done. The caller put w in the wait list before it tried once and found
// nothing, so that data arriving after that try signals w (a blocking read tries
// twice, once before and once after the wait, not three times); w stays in the list
// until the read returns, so data arriving while it tries again signals it again.
func (r *DataReader[T]) wait(ctx context.Context, w *waiter, try func() (int, error)) (int, error) {
	w.reg.Set(ctx, w.wake)
	for {
		// After Set, so a cancellation this does not see signals w.
		if err := ctx.Err(); err != nil {
			r.waits.done(w)
			return 0, errs.Context(err, "reader of "+r.topic.name+": waiting for data")
		}
		<-w.wake
		if n, err := try(); !errors.Is(err, ErrNoData) {
			r.waits.done(w)
			return n, err
		}
	}
}

// firstRejection reports whether the refused sample s is refused for the first time
// (not resent after an earlier refusal) and remembers it; the caller holds dmu.
func (r *DataReader[T]) firstRejection(s *rtps.Sample) bool {
	if last, ok := r.rejectedSN[s.Writer]; ok && s.SN <= last {
		return false
	}
	if r.rejectedSN == nil {
		r.rejectedSN = make(map[wire.GUID]wire.SequenceNumber)
	}
	r.rejectedSN[s.Writer] = s.SN
	return true
}

// maxRecycled bounds the values a reader keeps for reuse, unless the application gave
// back more at once (up to maxRecycledLoan).
const (
	maxRecycled     = 64
	maxRecycledLoan = 4096
)

// judge runs the filter of sel's query, if any, on the samples it has not judged yet.
// It holds no lock while the filter runs; meanwhile values leaving the cache are not
// recycled, since the filter may be looking at a copy that shares their slices.
func (r *DataReader[T]) judge(cache *rhc.Cache[T], sel *rhc.Selector[T]) error {
	if sel == nil || sel.Query == nil {
		return nil
	}
	r.judging.Add(1)
	defer r.judging.Add(-1)
	if err := cache.Evaluate(sel.Query); err != nil {
		return wrapErr(ErrOutOfResources, err, "reader of "+r.topic.name)
	}
	return nil
}

// recycle keeps as many of vs as there is room for, for deliver to decode into, unless
// a query filter is running (see judge); the caller holds dmu.
func (r *DataReader[T]) recycle(vs ...T) {
	if r.judging.Load() > 0 {
		return
	}
	room := max(max(maxRecycled, r.recycleMax)-len(r.recycled), 0)
	r.recycled = append(r.recycled, vs[:min(len(vs), room)]...)
}

// ReturnLoan gives back to the reader the values a take returned, once the caller is
// done with them (the memory side of return_loan, DDS 1.4 §2.2.2.5.3): the reader
// decodes later samples into them, reusing their sequences (slices), so that taking
// samples with sequences allocates nothing in steady state, like taking samples of a
// fixed-size type. It sets data's elements to zero values. Afterwards the caller must
// not use the slices the values held; values a read returned must not be given back,
// since the reader's cache still holds them. Strings are immutable and never reused.
//
// The reader counts the values its takes returned: giving back more than were taken
// and not yet given back is ErrPreconditionNotMet (as return_loan of a buffer that is
// not a loan), and nothing is reused then. That catches ReturnLoan after a read
// without a take; values of a read mixed with fewer taken ones go unnoticed.
func (r *DataReader[T]) ReturnLoan(data []T) error {
	if err := r.check(); err != nil {
		clear(data)
		return err
	}
	for {
		out := r.loaned.Load()
		if int64(len(data)) > out {
			return errorf(ErrPreconditionNotMet, "%d values given back, %d taken and not given back", len(data), out)
		}
		if r.loaned.CompareAndSwap(out, out-int64(len(data))) {
			break
		}
	}
	r.dmu.Lock()
	// A take of n samples at once is followed by as many deliveries before the
	// next: keeping n values, which the application held at once anyway, lets
	// every one of them decode into a returned value. With at most maxRecycled
	// kept, a subscriber taking 256 samples at a time allocated the sequences of
	// three in four of them.
	r.recycleMax = max(r.recycleMax, min(len(data), maxRecycledLoan))
	r.recycle(data...)
	r.dmu.Unlock()
	clear(data)
	return nil
}

// conditionSelector checks that c is one of r's conditions and returns its selector.
func (r *DataReader[T]) conditionSelector(c *ReadCondition[T]) (*rhc.Selector[T], error) {
	if c == nil || c.r != r || c.deleted.Load() {
		return nil, errorf(ErrPreconditionNotMet, "the condition is not the reader's")
	}
	return &c.sel, nil
}

// selectorOf returns the selector of the samples in the states st.
func selectorOf[T any](st States) rhc.Selector[T] {
	return rhc.Selector[T]{
		SampleStates:   rhc.SampleState(st.Sample),
		ViewStates:     rhc.ViewState(st.View),
		InstanceStates: rhc.InstanceState(st.Instance),
	}
}

// hasSamples reports whether the cache holds samples in the states st.
func (r *DataReader[T]) hasSamples(st States) bool {
	c := r.cache.Load()
	if c == nil {
		return false
	}
	sel := selectorOf[T](st)
	return c.Matches(&sel)
}

// arrivals appends the subscriber-wide arrival numbers of the samples in states st.
func (r *DataReader[T]) arrivals(st States, dst []uint64) []uint64 {
	c := r.cache.Load()
	if c == nil {
		return dst
	}
	sel := selectorOf[T](st)
	return c.Arrivals(&sel, dst)
}

// LookupInstance returns the handle of the instance of *v's key, or HandleNil when the
// reader does not have it (lookup_instance).
func (r *DataReader[T]) LookupInstance(v *T) InstanceHandle {
	if r.check() != nil || v == nil {
		return HandleNil
	}
	if r.codec == nil {
		return r.builtinLookup(v)
	}
	var kh cdr.KeyHash
	if r.keyed {
		kh = r.codec.KeyHash(v)
	}
	if r.cache.Load().Lookup(rhc.KeyHash(kh)) == rhc.HandleNil {
		return HandleNil
	}
	return status.KeyHandle(kh)
}

// KeyValue returns a sample whose key fields are those of instance h (get_key_value).
// It needs a sample of the instance, valid or carrying the key, in the cache; the
// samples' states do not change.
func (r *DataReader[T]) KeyValue(h InstanceHandle) (T, error) {
	var v T
	if err := r.check(); err != nil {
		return v, err
	}
	if r.codec == nil {
		return r.builtinKeyValue(h)
	}
	dst := &v
	want := cdr.KeyHash(keyHashOf(h))
	var key []byte
	r.cache.Load().Matches(&rhc.Selector[T]{Filter: func(v *T) bool {
		if r.keyed && r.codec.KeyHash(v) != want {
			return false
		}
		var e cdr.Encoder
		e.Reset(nil, cdr.CDRLE)
		r.codec.EncodeKey(&e, v)
		key = e.Finish()
		return true
	}})
	if key == nil {
		return v, errorf(ErrBadParameter, "reader of %s: no key of instance %v", r.topic.name, h)
	}
	return v, decodeKey(r.codec, key, dst)
}

// SubscriptionMatchedStatus returns and resets the SUBSCRIPTION_MATCHED status.
func (r *DataReader[T]) SubscriptionMatchedStatus() (listener.SubscriptionMatchedStatus, error) {
	return readStatus(&r.entity, (*statusBlock).takeSubscriptionMatched)
}

// RequestedIncompatibleQosStatus returns and resets the REQUESTED_INCOMPATIBLE_QOS
// status.
func (r *DataReader[T]) RequestedIncompatibleQosStatus() (listener.RequestedIncompatibleQosStatus, error) {
	return readStatus(&r.entity, (*statusBlock).takeRequestedIncompatibleQos)
}

// SampleLostStatus returns and resets the SAMPLE_LOST status: changes that could not be
// decoded.
func (r *DataReader[T]) SampleLostStatus() (listener.SampleLostStatus, error) {
	return readStatus(&r.entity, (*statusBlock).takeSampleLost)
}

// SampleRejectedStatus returns and resets the SAMPLE_REJECTED status.
func (r *DataReader[T]) SampleRejectedStatus() (listener.SampleRejectedStatus, error) {
	return readStatus(&r.entity, (*statusBlock).takeSampleRejected)
}

// LivelinessChangedStatus returns and resets the LIVELINESS_CHANGED status: a matched
// writer counts as alive until it is unmatched.
func (r *DataReader[T]) LivelinessChangedStatus() (listener.LivelinessChangedStatus, error) {
	return readStatus(&r.entity, (*statusBlock).takeLivelinessChanged)
}

// RequestedDeadlineMissedStatus returns and resets the REQUESTED_DEADLINE_MISSED
// status: with a finite DEADLINE period, one miss per alive instance and period without
// a sample (the current period), the last instance that missed.
func (r *DataReader[T]) RequestedDeadlineMissedStatus() (listener.RequestedDeadlineMissedStatus, error) {
	return readStatus(&r.entity, (*statusBlock).takeRequestedDeadlineMissed)
}

// WaitForHistoricalData waits until the reader has received the historical data
// of the writers it matches (wait_for_historical_data, DDS 1.4 §2.2.2.5.2.13). It
// first waits for the writers whose announcements the participant knows of (the SEDP
// publications the discovered participants have announced so far, received and
// matched), then, from each reliable writer matched, for every change it held for
// the reader when it first announced its history (the last sequence number of its
// first HEARTBEAT after the match), delivered to the reader's cache or known lost; a
// best-effort writer sends its history at once and is not waited for. A writer whose
// announcement has not reached the participant cannot be waited for: right after the
// participant's creation, or a peer's, wait for the writers expected first
// (DiscoveredPublications, SubscriptionMatchedStatus). A VOLATILE reader gets no
// historical data and returns at once; a reader deleted while it waits returns
// ErrAlreadyDeleted. When ctx ends first, the error is ctx's, wrapped.
//
// Cyclone DDS and Fast DDS 2.9 return at once (they do not implement the wait).
func (r *DataReader[T]) WaitForHistoricalData(ctx context.Context) error {
	if err := r.check(); err != nil {
		return err
	}
	if r.Qos().Durability.Kind == qos.Volatile {
		return nil
	}
	if !r.er.WaitForHistoricalData(ctx.Done()) {
		if ctx.Err() == nil {
			return errorf(ErrAlreadyDeleted, "reader of %s: its participant closed while it waited for historical data", r.topic.name)
		}
		return errs.Context(ctx.Err(), "reader of "+r.topic.name+": waiting for historical data")
	}
	return r.alive() // deleted while it waited: its writers were unmatched
}

// MatchedPublications returns the handles of the writers matched with the reader
// (get_matched_publications).
func (r *DataReader[T]) MatchedPublications() ([]InstanceHandle, error) {
	return r.matchedHandles()
}

// MatchedPublicationData returns what the matched writer h announced
// (get_matched_publication_data).
func (r *DataReader[T]) MatchedPublicationData(h InstanceHandle) (EndpointBuiltinTopicData, error) {
	return r.matchedData(h)
}

// DeleteContainedEntities deletes the reader's read and query conditions
// (delete_contained_entities).
func (r *DataReader[T]) DeleteContainedEntities() error {
	if err := r.alive(); err != nil {
		return err
	}
	r.cmu.Lock()
	r.forget(r.conds, false)
	r.conds = nil
	r.cmu.Unlock()
	return nil
}
