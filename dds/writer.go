package dds

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ddsgo/ddsgo/internal/errs"

	"github.com/ddsgo/ddsgo/dds/internal/status"

	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/internal/cdr"
	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
)

// DataWriter writes samples of type T to a topic (DataWriter of DDS 1.4 §2.2.2.4.2).
// Make one with NewWriter.
//
// Samples are passed by pointer so that writing needs no copy: the writer serializes the
// sample, into a pooled buffer, before the call returns and does not keep the pointer.
type DataWriter[T any] struct {
	entity
	pub   *Publisher
	topic *Topic[T]
	codec *cdr.Codec[T]
	dyn   *dynCodec // a topic made WithType: serializes instead of codec (T is DynamicSample)
	keyed bool
	match matcher

	// Set by enableSelf, before enabled, and read-only after.
	ew           engineWriter
	enc          cdr.EncapsulationID // of samples and serialized keys
	maxInstances int

	autodispose atomic.Bool
	pool        bufPool

	mu        sync.Mutex
	kenc      cdr.Encoder
	instances map[cdr.KeyHash][]byte // registered instances: their serialized keys

	deadline *deadlineMonitor // nil without a finite DEADLINE
	// liveKind is the LIVELINESS kind; lease the writer's own lease (nil: not
	// watched). Set by enableSelf.
	liveKind qos.LivelinessKind
	lease    *lease
	// durable is the durability service's side of a TRANSIENT or PERSISTENT
	// writer (durability.go); nil for the others. Set by enableSelf.
	durable *durableWriter
	coh     coherentWriter // coherent.go
}

// NewWriter creates a writer of topic t (create_datawriter), in the participant's
// default publisher or the one given with WithPublisher. Its QoS is the publisher's
// default writer QoS (RELIABLE, KEEP_LAST 1, VOLATILE), then the QoS options t was
// created with, then opts: Reliable, KeepAll, TransientLocal, ..., WithQos with a whole
// qos.DataWriterQos, WithListener with a WriterListener[T]. The writer is enabled when
// the publisher is and its ENTITY_FACTORY QoS autoenables.
func NewWriter[T any](t *Topic[T], opts ...Option) (*DataWriter[T], error) {
	var pub *Publisher
	group := func(s *settings) (*entity, qos.DataWriterQos, error) {
		var err error
		if pub = s.pub; pub == nil {
			pub, err = t.p.defaultPublisher()
		}
		if err != nil {
			return nil, qos.DataWriterQos{}, err
		}
		return &pub.entity, pub.DefaultDataWriterQos(), nil
	}
	bind := func(s *settings, q *qos.DataWriterQos) { s.writer = q }
	s, wq, l, err := endpointSettings[qos.DataWriterQos, WriterListener[T]](t, "writer", bind, group, opts)
	if err != nil {
		return nil, err
	}
	if wq.DataRepresentation.Offered() == qos.XML {
		return nil, errorf(ErrUnsupported, "writer of %s: XML data representation", t.name)
	}
	w := &DataWriter[T]{pub: pub, topic: t, codec: t.codec, keyed: t.codec.Keyed(), instances: map[cdr.KeyHash][]byte{}}
	if isDynamic[T]() {
		if t.dyn == nil {
			return nil, errorf(ErrPreconditionNotMet, "writer of %s: a writer of DynamicSample needs a topic made WithType", t.name)
		}
		w.dyn, w.keyed = &dynCodec{t: t.dyn}, t.dyn.keyed
	}
	w.match.e = &w.entity
	w.autodispose.Store(wq.WriterDataLifecycle.AutodisposeUnregisteredInstances)
	if err := createEndpoint(t, w, &pub.entity, kindWriter, l, s.mask, wq); err != nil {
		return nil, err
	}
	return w, nil
}

// Topic returns the writer's topic.
func (w *DataWriter[T]) Topic() *Topic[T] { return w.topic }

// TopicDescription returns the writer's topic.
func (w *DataWriter[T]) TopicDescription() TopicDescription { return w.topic }

// Publisher returns the writer's publisher.
func (w *DataWriter[T]) Publisher() *Publisher { return w.pub }

// Close deletes the writer (delete_datawriter): it unregisters its instances (which
// disposes them with the default WRITER_DATA_LIFECYCLE) and, when reliable, lingers
// until its readers acknowledged what it wrote, at most rtps.Config.WriterLinger.
// Closing a closed writer does nothing.
func (w *DataWriter[T]) Close() error { return w.p.closeEntity(w, true) }

// Enable enables the writer (enable): it creates the RTPS writer and announces it.
// The publisher and the topic must be enabled.
func (w *DataWriter[T]) Enable() error {
	w.p.opMu.Lock()
	defer w.p.opMu.Unlock()
	return w.p.enable(w)
}

// representation returns the encapsulation a writer of extensibility ext uses with
// DATA_REPRESENTATION dr, and the representation it announces: for an empty list,
// XCDR1 for final types and XCDR2 for the others, as the peers do.
func representation(ext cdr.Extensibility, dr qos.DataRepresentation) (enc cdr.EncapsulationID, announced qos.DataRepresentation) {
	announced = dr
	if len(dr.Value) == 0 && ext != cdr.Final {
		announced = qos.DataRepresentation{Value: []qos.DataRepresentationID{qos.XCDR2}}
	}
	v2 := announced.Offered() == qos.XCDR2
	return cdr.Encapsulation(ext, v2, false), announced
}

// endpointQosLocked returns what the writer announces; the caller holds p.mu.
func (w *DataWriter[T]) endpointQosLocked() (qos.Offered, qos.DataWriterQos) {
	m := w.p.m
	wq, _ := ecm.ComponentData[qos.DataWriterQos](m, w.ent)
	pq, _ := ecm.ComponentData[qos.PublisherQos](m, w.pub.ent)
	tq, _ := ecm.ComponentData[qos.TopicQos](m, w.topic.ent)
	eq := qos.Offered{Writer: wq, Publisher: pq, TopicData: tq.TopicData}
	_, eq.Writer.DataRepresentation = representation(w.extensibility(), wq.DataRepresentation)
	return eq, wq
}

func (w *DataWriter[T]) builtinDataLocked() EndpointBuiltinTopicData {
	eq, _ := w.endpointQosLocked()
	h, _ := ecm.ComponentData[handleComp](w.p.m, w.ent)
	ph, _ := ecm.ComponentData[handleComp](w.p.m, w.p.ent)
	return EndpointBuiltinTopicData{Key: h.Handle, ParticipantKey: ph.Handle, TopicName: w.topic.name, TypeName: w.topic.TypeName(), Offered: eq}
}

func (w *DataWriter[T]) enableSelf() error {
	if !w.topic.enabled.Load() {
		return errorf(ErrPreconditionNotMet, "the topic is not enabled")
	}
	p := w.p
	p.mu.Lock()
	eq, wq := w.endpointQosLocked()
	p.mu.Unlock()
	w.enc, _ = representation(w.extensibility(), wq.DataRepresentation)
	if n := wq.ResourceLimits.MaxInstances; n > 0 {
		w.maxInstances = int(n)
	}
	cfg := endpointConfig{
		Topic:    w.topic.name,
		Type:     w.topic.TypeName(),
		Keyed:    w.keyed,
		Offered:  eq,
		Listener: &w.match,
		Release:  w.pool.put,
		// Writer-side content filtering (filter.go).
		ReaderFilter: w.readerFilter,

		TypeInformation: typeInfoOf[T](w.topic.TypeName()),
	}
	w.coh.grouped = grouped(eq.Publisher.Presentation)
	d, err := p.dur.openWriter(w.topic.name, w.topic.TypeName(), &wq, &cfg)
	if err != nil {
		return err
	}
	ew, err := p.eng.NewWriter(cfg)
	if err != nil {
		d.abort()
		return wrapErr(ErrError, err, "creating the RTPS writer")
	}
	w.ew = ew
	if d != nil {
		d.ew, w.durable = ew, d
	}
	w.deadline = newDeadlineMonitor(wq.Deadline.Period, p.clk, func(h InstanceHandle) {
		w.event(listener.OfferedDeadlineMissed, func(s *statusBlock) { s.deadline.Increment(h) })
	})
	w.liveKind = wq.Liveliness.Kind
	w.lease = p.live.watch(ew.GUID(), wq.Liveliness, true, true, func(alive bool) {
		if !alive {
			w.event(listener.LivelinessLost, func(s *statusBlock) { s.livelinessL.Increment(HandleNil) })
		}
	})
	p.mu.Lock()
	ecm.SetComponentData(p.m, w.ent, handleComp{status.GUIDHandle(guidBytes(ew.GUID()))})
	p.mu.Unlock()
	w.joinOpenSet()
	return nil
}

func (w *DataWriter[T]) reannounce() error {
	w.p.mu.Lock()
	eq, wq := w.endpointQosLocked()
	w.p.mu.Unlock()
	w.deadline.setPeriod(wq.Deadline.Period)
	if err := w.ew.UpdateQos(eq); err != nil {
		return wrapErr(ErrError, err, "announcing the writer")
	}
	return nil
}

// teardown unregisters the writer's instances (disposing them when autodispose is set)
// and closes the RTPS writer.
func (w *DataWriter[T]) teardown() {
	if w.ew == nil {
		return
	}
	w.deadline.close()
	w.p.live.forget(w.lease)
	kind := w.unregisterKind()
	// The durability service takes over the registrations of a TRANSIENT or
	// PERSISTENT writer that does not dispose its instances (durability.go).
	handOver := w.durable != nil && kind == rtps.NotAliveUnregistered
	now := wire.TimeFromTime(w.p.now())
	// In a coherent set still open, the unregisters belong to it: a set never ended is
	// never delivered, and a change outside it would end it.
	cs, gs := w.coherentTag(), w.groupTag()
	w.mu.Lock()
	for kh, key := range w.instances {
		if handOver {
			delete(w.instances, kh)
			continue
		}
		sn, _ := w.write(context.Background(), rtps.Change{Kind: kind, KeyHash: wire.KeyHash(kh), Timestamp: now, Payload: w.keyPayload(key), Coherent: cs, Group: gs})
		if cs == rtps.CoherentFirst {
			cs = sn
		}
		delete(w.instances, kh)
	}
	w.mu.Unlock()
	if w.durable != nil {
		w.durable.retain() // the durability service keeps the data (durability.go)
		return
	}
	_ = w.ew.Close()
}

// write hands c to the RTPS writer, through the durability service for a TRANSIENT or
// PERSISTENT writer.
func (w *DataWriter[T]) write(ctx context.Context, c rtps.Change) (wire.SequenceNumber, error) {
	w.numberInGroup(&c)
	if w.durable != nil {
		if c.Timestamp == (wire.Time{}) {
			c.Timestamp = wire.TimeFromTime(w.p.now()) // the store keeps it
		}
		return w.durable.write(ctx, c)
	}
	return w.ew.Write(ctx, c)
}

func (w *DataWriter[T]) unregisterKind() rtps.ChangeKind {
	if w.autodispose.Load() {
		return rtps.NotAliveDisposedUnregistered
	}
	return rtps.NotAliveUnregistered
}

// Qos returns the writer's QoS (get_qos).
func (w *DataWriter[T]) Qos() qos.DataWriterQos { return getQos[qos.DataWriterQos](&w.entity) }

// SetQos changes the writer's QoS (set_qos); once enabled, only the changeable policies
// may change, and the change is announced.
func (w *DataWriter[T]) SetQos(q qos.DataWriterQos) error {
	w.p.opMu.Lock()
	defer w.p.opMu.Unlock()
	if err := setQos(&w.entity, q); err != nil {
		return err
	}
	w.autodispose.Store(q.WriterDataLifecycle.AutodisposeUnregisteredInstances)
	if w.enabled.Load() {
		return w.reannounce()
	}
	return nil
}

// Listener returns the writer's listener (get_listener).
func (w *DataWriter[T]) Listener() WriterListener[T] {
	l, _ := w.listener().(WriterListener[T])
	return l
}

// SetListener sets the writer's listener and the statuses it handles (set_listener):
// with no mask, those it has functions for; WithListener tells the rules.
func (w *DataWriter[T]) SetListener(l WriterListener[T], mask ...listener.StatusMask) error {
	return w.setListener(l, mask)
}

// keyHash returns v's key hash (zero for an unkeyed type).
func (w *DataWriter[T]) keyHash(v *T) cdr.KeyHash {
	if !w.keyed {
		return cdr.KeyHash{}
	}
	if w.dyn != nil {
		return w.dyn.keyHash(any(v).(*DynamicSample))
	}
	return w.codec.KeyHash(v)
}

// extensibility returns the extensibility of the writer's type.
func (w *DataWriter[T]) extensibility() cdr.Extensibility {
	if w.dyn != nil {
		return w.dyn.t.ext
	}
	return w.codec.Extensibility()
}

// marshal serializes v into a buffer of the pool.
func (w *DataWriter[T]) marshal(v *T) ([]byte, error) {
	if w.dyn != nil {
		return w.dyn.marshal(w.pool.get(), w.enc, any(v).(*DynamicSample))
	}
	return w.codec.Marshal(w.pool.get(), w.enc, v)
}

// registerLocked registers the instance of v with key hash kh if it is not; the caller
// holds w.mu.
func (w *DataWriter[T]) registerLocked(kh cdr.KeyHash, v *T) ([]byte, error) {
	if key, ok := w.instances[kh]; ok {
		return key, nil
	}
	if w.maxInstances > 0 && len(w.instances) >= w.maxInstances {
		return nil, errorf(ErrOutOfResources, "max_instances %d reached", w.maxInstances)
	}
	// A serialized key is flat (no DHEADER or member headers) but carries the data's
	// encapsulation id: Cyclone DDS 0.10 sends D_CDR2 keys of appendable types and drops
	// a key under another id.
	w.kenc.Reset(nil, w.enc)
	if w.dyn != nil {
		if err := w.dyn.encodeKey(&w.kenc, any(v).(*DynamicSample)); err != nil {
			return nil, wrapErr(ErrBadParameter, err, "key")
		}
	} else {
		w.codec.EncodeKey(&w.kenc, v)
	}
	key := slices.Clone(w.kenc.Finish())
	if err := w.kenc.Err(); err != nil {
		return nil, wrapErr(ErrBadParameter, err, "key")
	}
	w.instances[kh] = key
	return key, nil
}

// WriteOption is an optional argument of Write, Dispose and Unregister.
type WriteOption func(writeArgs) writeArgs

type writeArgs struct {
	ts      time.Time
	h       InstanceHandle
	related SampleIdentity
	out     *SampleIdentity
	header  *[16]byte // rmw_cyclonedds's request header, put before the body
}

// Timestamp gives the sample its source timestamp instead of the current time
// (write_w_timestamp and the other _w_timestamp operations).
func Timestamp(t time.Time) WriteOption {
	return func(a writeArgs) writeArgs { a.ts = t; return a }
}

// OfInstance names the instance a Dispose or Unregister is about by its handle; the
// sample may then be nil.
func OfInstance(h InstanceHandle) WriteOption {
	return func(a writeArgs) writeArgs { a.h = h; return a }
}

// RelatedTo says which sample this one answers: readers find id in
// SampleInfo.RelatedIdentity (DDS-RPC's related_sample_identity, sent as
// PID_RELATED_SAMPLE_IDENTITY and as Fast DDS's 0x800f, as rmw_fastrtps replies do).
func RelatedTo(id SampleIdentity) WriteOption {
	return func(a writeArgs) writeArgs { a.related = id; return a }
}

// WrittenAs stores in *id the identity the write gave the sample (the writer's GUID and
// the sequence number), which readers see as SampleInfo.Identity: a requester keeps it to
// recognize the replies RelatedTo it.
func WrittenAs(id *SampleIdentity) WriteOption {
	return func(a writeArgs) writeArgs { a.out = id; return a }
}

// args returns what opts say, with the current time by default; none when the
// participant's clock is the engine's: then the engine's reading for the write, which
// it takes anyway, is the source timestamp (one clock reading per write, not two).
func (w *DataWriter[T]) args(opts []WriteOption) (a writeArgs) {
	for _, o := range opts {
		a = o(a)
	}
	if a.ts.IsZero() && !w.p.realTime {
		a.ts = w.p.now()
	}
	return a
}

// Write writes the sample *v (write), registering its instance if needed. A RELIABLE
// writer with a KEEP_ALL history full of samples not acknowledged yet blocks until
// there is room, at most the reliability max_blocking_time (then ErrTimeout) or until
// ctx is done (then ctx's error, wrapped).
func (w *DataWriter[T]) Write(ctx context.Context, v *T, opts ...WriteOption) error {
	if err := w.check(); err != nil {
		return err
	}
	if v == nil {
		return errorf(ErrBadParameter, "writer of %s: nil sample", w.topic.name)
	}
	a := w.args(opts)
	kh := w.keyHash(v)
	if !a.h.IsNil() && a.h != status.KeyHandle(kh) {
		return errorf(ErrPreconditionNotMet, "writer of %s: the handle is not the sample's instance", w.topic.name)
	}
	w.mu.Lock()
	_, err := w.registerLocked(kh, v)
	w.mu.Unlock()
	if err != nil {
		return err
	}
	payload, err := w.marshal(v)
	if err != nil {
		w.pool.put(payload)
		return wrapErr(ErrBadParameter, err, "writer of "+w.topic.name)
	}
	if a.header != nil {
		payload = prependHeader(payload, a.header)
	}
	if err := w.send(ctx, rtps.Alive, kh, payload, &a); err != nil {
		return err
	}
	w.deadline.touch(status.KeyHandle(kh))
	return nil
}

// send hands a change to the engine.
func (w *DataWriter[T]) send(ctx context.Context, kind rtps.ChangeKind, kh cdr.KeyHash, payload []byte, a *writeArgs) error {
	c := rtps.Change{Kind: kind, KeyHash: wire.KeyHash(kh), Payload: payload, Coherent: w.coherentTag(), Group: w.groupTag()}
	if !a.ts.IsZero() {
		c.Timestamp = wire.TimeFromTime(a.ts) // else the engine's now
	}
	if !a.related.Writer.IsNil() {
		c.Related = wire.SampleIdentity{WriterGUID: guidOf(a.related.Writer), SN: wire.SequenceNumber(a.related.SN)}
	}
	sn, err := w.write(ctx, c)
	if err == nil {
		w.coherentWritten(c.Coherent, sn)
		w.asserted()
		if a.out != nil {
			*a.out = SampleIdentity{Writer: status.GUIDHandle(guidBytes(w.ew.GUID())), SN: int64(sn)}
		}
		return nil
	}
	switch {
	case w.deleted.Load():
		return ErrAlreadyDeleted
	case ctx.Err() != nil:
		return errs.Context(ctx.Err(), "writing "+w.topic.name)
	case errors.Is(err, rtps.ErrHistoryFull):
		return wrapErr(ErrTimeout, err, "writer of "+w.topic.name+": history full for max_blocking_time")
	case errors.Is(err, rtps.ErrOutOfResources):
		return wrapErr(ErrOutOfResources, err, "")
	}
	return wrapErr(ErrError, err, "")
}

// instanceChange sends a dispose or an unregister of the instance with key hash kh
// (registering it from v for a dispose when needed).
func (w *DataWriter[T]) instanceChange(ctx context.Context, kind rtps.ChangeKind, v *T, a *writeArgs) error {
	h := a.h
	if err := w.check(); err != nil {
		return err
	}
	var kh cdr.KeyHash
	switch {
	case v != nil:
		kh = w.keyHash(v)
		if !h.IsNil() && h != status.KeyHandle(kh) {
			return errorf(ErrPreconditionNotMet, "the handle is not the sample's instance")
		}
	case !h.IsNil():
		kh = keyHashOf(h)
	default:
		return errorf(ErrBadParameter, "no sample and no handle")
	}
	w.mu.Lock()
	key, ok := w.instances[kh]
	switch {
	case ok:
	case kind == rtps.NotAliveDisposed && v != nil:
		var err error
		if key, err = w.registerLocked(kh, v); err != nil {
			w.mu.Unlock()
			return err
		}
	default:
		w.mu.Unlock()
		return errorf(ErrPreconditionNotMet, "the instance is not registered")
	}
	if kind != rtps.NotAliveDisposed {
		delete(w.instances, kh)
	}
	payload := w.keyPayload(key)
	w.mu.Unlock()
	w.deadline.forget(status.KeyHandle(kh)) // no longer promised
	return w.send(ctx, kind, kh, payload, a)
}

// keyPayload returns the payload of a dispose or unregister of the instance whose
// serialized key is key: none when the key hash is the key itself, as Fast DDS sends them
// (Fast DDS 2.9 copies a key payload of up to 16 bytes over the instance handle it took
// from the inline KEY_HASH, encapsulation header included, and drops the change), and
// the serialized key otherwise. Types other than final always get the key: Cyclone DDS
// 0.10 takes their key hash for a digest (it recovers keys from hashes of final types
// only) and drops a dispose it cannot find the key of; Fast DDS has no XCDR2 to meet them.
func (w *DataWriter[T]) keyPayload(key []byte) []byte {
	fits := w.codec.KeyHashIsKey()
	if w.dyn != nil {
		fits = w.dyn.t.keyFits
	}
	if fits && w.extensibility() == cdr.Final {
		return nil
	}
	return append(w.pool.get(), key...)
}

// Dispose disposes the instance of *v, or of OfInstance's handle with a nil v (dispose,
// dispose_w_timestamp with Timestamp): readers see it NOT_ALIVE_DISPOSED.
func (w *DataWriter[T]) Dispose(ctx context.Context, v *T, opts ...WriteOption) error {
	a := w.args(opts)
	return w.instanceChange(ctx, rtps.NotAliveDisposed, v, &a)
}

// Unregister unregisters the writer from the instance of *v, or of OfInstance's handle
// with a nil v (unregister_instance); with WRITER_DATA_LIFECYCLE
// autodispose_unregistered_instances (the default) the instance is disposed too.
// ErrPreconditionNotMet reports an instance that is not registered.
func (w *DataWriter[T]) Unregister(ctx context.Context, v *T, opts ...WriteOption) error {
	a := w.args(opts)
	return w.instanceChange(ctx, w.unregisterKind(), v, &a)
}

// Register registers the instance of *v and returns its handle (register_instance).
// Nothing is sent.
func (w *DataWriter[T]) Register(v *T) (InstanceHandle, error) {
	if err := w.check(); err != nil {
		return HandleNil, err
	}
	if v == nil {
		return HandleNil, errorf(ErrBadParameter, "nil sample")
	}
	kh := w.keyHash(v)
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := w.registerLocked(kh, v); err != nil {
		return HandleNil, err
	}
	return status.KeyHandle(kh), nil
}

// LookupInstance returns the handle of the instance of *v, or HandleNil when it is not
// registered (lookup_instance).
func (w *DataWriter[T]) LookupInstance(v *T) InstanceHandle {
	if w.check() != nil || v == nil {
		return HandleNil
	}
	kh := w.keyHash(v)
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, ok := w.instances[kh]; !ok {
		return HandleNil
	}
	return status.KeyHandle(kh)
}

// KeyValue returns a sample whose key fields are those of the registered instance h
// (get_key_value).
func (w *DataWriter[T]) KeyValue(h InstanceHandle) (T, error) {
	var v T
	if err := w.check(); err != nil {
		return v, err
	}
	w.mu.Lock()
	key, ok := w.instances[keyHashOf(h)]
	w.mu.Unlock()
	if !ok {
		return v, errorf(ErrBadParameter, "writer of %s: no registered instance %v", w.topic.name, h)
	}
	if w.dyn != nil {
		s, err := w.dyn.keyValue(key)
		*any(&v).(*DynamicSample) = s
		return v, err
	}
	return v, decodeKey(w.codec, key, &v)
}

// decodeKey decodes the serialized key payload key into the key fields of *dst.
func decodeKey[T any](c *cdr.Codec[T], key []byte, dst *T) error {
	var d cdr.Decoder
	if err := d.Reset(key); err != nil {
		return wrapErr(ErrError, err, "key")
	}
	c.DecodeKey(&d, dst)
	if err := d.Err(); err != nil {
		return wrapErr(ErrError, err, "key")
	}
	return nil
}

// WaitForAcknowledgments waits until the reliable readers have acknowledged everything
// written (wait_for_acknowledgments). When ctx ends first the error is ctx's, wrapped.
func (w *DataWriter[T]) WaitForAcknowledgments(ctx context.Context) error {
	if err := w.check(); err != nil {
		return err
	}
	if err := w.ew.WaitForAcknowledgments(ctx); err != nil {
		if ctx.Err() != nil {
			return errs.Context(ctx.Err(), "writer of "+w.topic.name+": waiting for acknowledgments")
		}
		return wrapErr(ErrError, err, "writer of "+w.topic.name)
	}
	return nil
}

// asserted notes that the writer asserted its liveliness (a write, a dispose, an
// unregister or AssertLiveliness): a MANUAL_BY_TOPIC writer renews its lease, a
// MANUAL_BY_PARTICIPANT writer those of its participant's writers of that kind.
func (w *DataWriter[T]) asserted() {
	switch w.liveKind {
	case qos.ManualByTopic:
		w.p.live.renew(w.lease, w.p.now())
	case qos.ManualByParticipant:
		w.p.live.assertManual()
	case qos.Automatic:
	}
}

// AssertLiveliness asserts the writer's liveliness (assert_liveliness), for the
// MANUAL liveliness kinds; writing asserts it too. A MANUAL_BY_TOPIC writer sends its
// readers a HEARTBEAT with the Liveliness flag; a MANUAL_BY_PARTICIPANT writer asserts
// its participant (DomainParticipant.AssertLiveliness). An AUTOMATIC writer is alive
// as long as its participant: this only checks that it is enabled.
func (w *DataWriter[T]) AssertLiveliness() error {
	if err := w.check(); err != nil {
		return err
	}
	if w.liveKind != qos.ManualByTopic {
		w.asserted()
		return nil
	}
	w.p.live.writerAsserted(w.ew.GUID(), w.p.now())
	w.ew.AssertLiveliness()
	return nil
}

// PublicationMatchedStatus returns and resets the PUBLICATION_MATCHED status.
func (w *DataWriter[T]) PublicationMatchedStatus() (listener.PublicationMatchedStatus, error) {
	return readStatus(&w.entity, (*statusBlock).takePublicationMatched)
}

// OfferedIncompatibleQosStatus returns and resets the OFFERED_INCOMPATIBLE_QOS status.
func (w *DataWriter[T]) OfferedIncompatibleQosStatus() (listener.OfferedIncompatibleQosStatus, error) {
	return readStatus(&w.entity, (*statusBlock).takeOfferedIncompatibleQos)
}

// OfferedDeadlineMissedStatus returns and resets the OFFERED_DEADLINE_MISSED status: with
// a finite DEADLINE period, one miss per registered instance and period without a write
// (the current period), the last instance that missed.
func (w *DataWriter[T]) OfferedDeadlineMissedStatus() (listener.OfferedDeadlineMissedStatus, error) {
	return readStatus(&w.entity, (*statusBlock).takeOfferedDeadlineMissed)
}

// LivelinessLostStatus returns and resets the LIVELINESS_LOST status: the times a
// MANUAL_BY_PARTICIPANT or MANUAL_BY_TOPIC writer with a finite lease_duration let it
// lapse without asserting its liveliness (once per lapse).
func (w *DataWriter[T]) LivelinessLostStatus() (listener.LivelinessLostStatus, error) {
	return readStatus(&w.entity, (*statusBlock).takeLivelinessLost)
}

// MatchedSubscriptions returns the handles of the readers matched with the writer
// (get_matched_subscriptions).
func (w *DataWriter[T]) MatchedSubscriptions() ([]InstanceHandle, error) {
	return w.matchedHandles()
}

// MatchedSubscriptionData returns what the matched reader h announced
// (get_matched_subscription_data).
func (w *DataWriter[T]) MatchedSubscriptionData(h InstanceHandle) (EndpointBuiltinTopicData, error) {
	return w.matchedData(h)
}
