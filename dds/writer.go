package dds

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ddsgo/ddsgo/internal/cdr"
	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/ddsgo/ddsgo/sim/ecm"
)

// DataWriter writes samples of type T to a topic (DataWriter of DDS 1.4 §2.2.2.4.2).
// Make one with CreateDataWriter.
//
// Samples are passed by pointer so that writing needs no copy: the writer serializes the
// sample, into a pooled buffer, before the call returns and does not keep the pointer.
type DataWriter[T any] struct {
	entity
	pub   *Publisher
	topic *Topic
	codec *cdr.Codec[T]
	keyed bool
	match matcher

	// Set by enableSelf, before enabled, and read-only after.
	ew           engineWriter
	enc, keyEnc  cdr.EncapsulationID
	maxInstances int

	autodispose atomic.Bool
	pool        bufPool

	mu        sync.Mutex
	kenc      cdr.Encoder
	instances map[cdr.KeyHash][]byte // registered instances: their serialized keys
}

// CreateDataWriter creates a writer of T on topic in pub (create_datawriter). A nil q
// means the publisher's default writer QoS; use pub.CopyFromTopicQos to start from the
// topic's. The topic's type must be a TopicType[T]. The writer is enabled when the
// publisher is and its ENTITY_FACTORY QoS autoenables.
func CreateDataWriter[T any](pub *Publisher, topic *Topic, q *qos.DataWriterQos, l listener.DataWriterListener, mask listener.StatusMask) (*DataWriter[T], error) {
	if pub == nil || topic == nil {
		return nil, errorf(ErrBadParameter, "nil publisher or topic")
	}
	if err := pub.alive(); err != nil {
		return nil, err
	}
	if err := topic.alive(); err != nil {
		return nil, err
	}
	p := pub.p
	if topic.p != p {
		return nil, errorf(ErrBadParameter, "the topic belongs to another participant")
	}
	tt, ok := topic.ts.(*TopicType[T])
	if !ok {
		var zero T
		return nil, errorf(ErrBadParameter, "topic %q has type %s, not %T", topic.name, topic.ts.TypeName(), zero)
	}
	wq := pub.DefaultDataWriterQos()
	if q != nil {
		wq = q.Clone()
	}
	if err := wq.Validate(); err != nil {
		return nil, qosErr(err)
	}
	if wq.DataRepresentation.Offered() == qos.XML {
		return nil, errorf(ErrUnsupported, "XML data representation")
	}
	w := &DataWriter[T]{pub: pub, topic: topic, codec: tt.codec, keyed: tt.codec.Keyed(), instances: map[cdr.KeyHash][]byte{}}
	w.match.e = &w.entity
	w.autodispose.Store(wq.WriterDataLifecycle.AutodisposeUnregisteredInstances)
	p.opMu.Lock()
	defer p.opMu.Unlock()
	if err := pub.alive(); err != nil {
		return nil, err
	}
	err := p.create(w, &pub.entity, func() {
		w.init(p, &pub.entity, kindWriter, w, listenerOf(l), mask)
		ecm.CreateComponent(p.m, w.ent, wq)
		ecm.CreateComponent(p.m, w.ent, nameComp{Topic: topic.name, Type: tt.name})
		ecm.CreateComponent(p.m, w.ent, topicRefComp{topic.ent})
		ecm.CreateComponent(p.m, w.ent, matchesComp{})
	})
	if err != nil {
		return nil, err
	}
	return w, nil
}

// Topic returns the writer's topic.
func (w *DataWriter[T]) Topic() *Topic { return w.topic }

// Publisher returns the writer's publisher.
func (w *DataWriter[T]) Publisher() *Publisher { return w.pub }

// Enable enables the writer (enable): it creates the RTPS writer and announces it.
// The publisher and the topic must be enabled.
func (w *DataWriter[T]) Enable() error {
	w.p.opMu.Lock()
	defer w.p.opMu.Unlock()
	return w.p.enable(w)
}

// representation returns the encapsulations a writer of extensibility ext uses with
// DATA_REPRESENTATION dr, and the representation it announces: for an empty list,
// XCDR1 for final types and XCDR2 for the others, as the peers do.
func representation(ext cdr.Extensibility, dr qos.DataRepresentation) (enc, keyEnc cdr.EncapsulationID, announced qos.DataRepresentation) {
	announced = dr
	if len(dr.Value) == 0 && ext != cdr.Final {
		announced = qos.DataRepresentation{Value: []qos.DataRepresentationID{qos.XCDR2}}
	}
	v2 := announced.Offered() == qos.XCDR2
	return cdr.Encapsulation(ext, v2, false), cdr.Encapsulation(cdr.Final, v2, false), announced
}

// endpointQosLocked returns what the writer announces; the caller holds p.mu.
func (w *DataWriter[T]) endpointQosLocked() (qos.Offered, qos.DataWriterQos) {
	m := w.p.m
	wq, _ := ecm.ComponentData[qos.DataWriterQos](m, w.ent)
	pq, _ := ecm.ComponentData[qos.PublisherQos](m, w.pub.ent)
	tq, _ := ecm.ComponentData[qos.TopicQos](m, w.topic.ent)
	eq := qos.Offered{Writer: wq, Publisher: pq, TopicData: tq.TopicData}
	_, _, eq.Writer.DataRepresentation = representation(w.codec.Extensibility(), wq.DataRepresentation)
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
	w.enc, w.keyEnc, _ = representation(w.codec.Extensibility(), wq.DataRepresentation)
	if n := wq.ResourceLimits.MaxInstances; n > 0 {
		w.maxInstances = int(n)
	}
	ew, err := p.eng.NewWriter(endpointConfig{
		Topic:    w.topic.name,
		Type:     w.topic.TypeName(),
		Keyed:    w.keyed,
		Offered:  eq,
		Listener: &w.match,
		Release:  w.pool.put,
	})
	if err != nil {
		return wrapErr(ErrError, err, "creating the RTPS writer")
	}
	w.ew = ew
	p.mu.Lock()
	ecm.SetComponentData(p.m, w.ent, handleComp{listener.HandleFromGUID(guidBytes(ew.GUID()))})
	p.mu.Unlock()
	return nil
}

func (w *DataWriter[T]) reannounce() error {
	w.p.mu.Lock()
	eq, _ := w.endpointQosLocked()
	w.p.mu.Unlock()
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
	kind := w.unregisterKind()
	now := wire.TimeFromTime(w.p.now())
	w.mu.Lock()
	for kh, key := range w.instances {
		_, _ = w.ew.Write(rtps.Change{Kind: kind, KeyHash: wire.KeyHash(kh), Timestamp: now, Payload: w.keyPayload(key)})
		delete(w.instances, kh)
	}
	w.mu.Unlock()
	_ = w.ew.Close()
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
func (w *DataWriter[T]) Listener() listener.DataWriterListener {
	l, _ := w.listener().(listener.DataWriterListener)
	return l
}

// SetListener sets the writer's listener and the statuses it handles (set_listener).
func (w *DataWriter[T]) SetListener(l listener.DataWriterListener, mask listener.StatusMask) error {
	return w.setListener(listenerOf(l), mask)
}

// keyHash returns v's key hash (zero for an unkeyed type).
func (w *DataWriter[T]) keyHash(v *T) cdr.KeyHash {
	if !w.keyed {
		return cdr.KeyHash{}
	}
	return w.codec.KeyHash(v)
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
	w.kenc.Reset(nil, w.keyEnc)
	w.codec.EncodeKey(&w.kenc, v)
	key := slices.Clone(w.kenc.Finish())
	if err := w.kenc.Err(); err != nil {
		return nil, wrapErr(ErrBadParameter, err, "key")
	}
	w.instances[kh] = key
	return key, nil
}

// Write writes the sample *v with the current time as its source timestamp (write).
func (w *DataWriter[T]) Write(v *T) error { return w.WriteWithTimestamp(v, w.p.now()) }

// WriteWithTimestamp writes the sample *v with source timestamp ts
// (write_w_timestamp). It registers the sample's instance if needed. With a KEEP_ALL
// history full of unacknowledged samples it blocks up to the reliability
// max_blocking_time and then fails with ErrTimeout.
func (w *DataWriter[T]) WriteWithTimestamp(v *T, ts time.Time) error {
	if err := w.check(); err != nil {
		return err
	}
	if v == nil {
		return errorf(ErrBadParameter, "nil sample")
	}
	kh := w.keyHash(v)
	w.mu.Lock()
	_, err := w.registerLocked(kh, v)
	w.mu.Unlock()
	if err != nil {
		return err
	}
	payload, err := w.codec.Marshal(w.pool.get(), w.enc, v)
	if err != nil {
		w.pool.put(payload)
		return wrapErr(ErrBadParameter, err, "")
	}
	return w.send(rtps.Alive, kh, payload, ts)
}

// send hands a change to the engine.
func (w *DataWriter[T]) send(kind rtps.ChangeKind, kh cdr.KeyHash, payload []byte, ts time.Time) error {
	_, err := w.ew.Write(rtps.Change{Kind: kind, KeyHash: wire.KeyHash(kh), Timestamp: wire.TimeFromTime(ts), Payload: payload})
	if err == nil {
		return nil
	}
	switch {
	case w.deleted.Load():
		return ErrAlreadyDeleted
	case errors.Is(err, rtps.ErrHistoryFull), errors.Is(err, context.DeadlineExceeded):
		return wrapErr(ErrTimeout, err, "")
	case errors.Is(err, rtps.ErrOutOfResources):
		return wrapErr(ErrOutOfResources, err, "")
	}
	return wrapErr(ErrError, err, "")
}

// instanceChange sends a dispose or an unregister of the instance with key hash kh
// (registering it from v for a dispose when needed).
func (w *DataWriter[T]) instanceChange(kind rtps.ChangeKind, v *T, h InstanceHandle, ts time.Time) error {
	if err := w.check(); err != nil {
		return err
	}
	var kh cdr.KeyHash
	switch {
	case v != nil:
		kh = w.keyHash(v)
		if !h.IsNil() && h != listener.HandleFromKeyHash(kh) {
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
	return w.send(kind, kh, payload, ts)
}

// keyPayload returns the payload of a dispose or unregister of the instance whose
// serialized key is key: none when the key hash is the key itself, as Fast DDS sends them
// (Fast DDS 2.9 copies a key payload of up to 16 bytes over the instance handle it took
// from the inline KEY_HASH, encapsulation header included, and drops the change), and
// the serialized key otherwise.
func (w *DataWriter[T]) keyPayload(key []byte) []byte {
	if w.codec.KeyHashIsKey() {
		return nil
	}
	return append(w.pool.get(), key...)
}

// Dispose disposes the instance of *v (dispose): readers see it NOT_ALIVE_DISPOSED.
func (w *DataWriter[T]) Dispose(v *T) error {
	return w.instanceChange(rtps.NotAliveDisposed, v, HandleNil, w.p.now())
}

// DisposeWithTimestamp disposes the instance of *v with source timestamp ts
// (dispose_w_timestamp).
func (w *DataWriter[T]) DisposeWithTimestamp(v *T, ts time.Time) error {
	return w.instanceChange(rtps.NotAliveDisposed, v, HandleNil, ts)
}

// DisposeInstance disposes the registered instance h.
func (w *DataWriter[T]) DisposeInstance(h InstanceHandle) error {
	return w.instanceChange(rtps.NotAliveDisposed, nil, h, w.p.now())
}

// UnregisterInstance unregisters the writer from the instance of *v
// (unregister_instance); with WRITER_DATA_LIFECYCLE autodispose_unregistered_instances
// (the default) the instance is disposed too. ErrPreconditionNotMet reports an instance
// that is not registered.
func (w *DataWriter[T]) UnregisterInstance(v *T) error {
	return w.instanceChange(w.unregisterKind(), v, HandleNil, w.p.now())
}

// UnregisterInstanceWithTimestamp is UnregisterInstance with source timestamp ts
// (unregister_instance_w_timestamp).
func (w *DataWriter[T]) UnregisterInstanceWithTimestamp(v *T, ts time.Time) error {
	return w.instanceChange(w.unregisterKind(), v, HandleNil, ts)
}

// UnregisterInstanceHandle is UnregisterInstance of the instance with handle h.
func (w *DataWriter[T]) UnregisterInstanceHandle(h InstanceHandle) error {
	return w.instanceChange(w.unregisterKind(), nil, h, w.p.now())
}

// RegisterInstance registers the instance of *v and returns its handle
// (register_instance). Nothing is sent.
func (w *DataWriter[T]) RegisterInstance(v *T) (InstanceHandle, error) {
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
	return listener.HandleFromKeyHash(kh), nil
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
	return listener.HandleFromKeyHash(kh)
}

// GetKeyValue sets the key fields of *dst to those of the registered instance h
// (get_key_value).
func (w *DataWriter[T]) GetKeyValue(dst *T, h InstanceHandle) error {
	if err := w.check(); err != nil {
		return err
	}
	w.mu.Lock()
	key, ok := w.instances[keyHashOf(h)]
	w.mu.Unlock()
	if !ok || dst == nil {
		return errorf(ErrBadParameter, "no registered instance %v", h)
	}
	return decodeKey(w.codec, key, dst)
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
// written (wait_for_acknowledgments). When ctx ends first the error matches ErrTimeout.
func (w *DataWriter[T]) WaitForAcknowledgments(ctx context.Context) error {
	if err := w.check(); err != nil {
		return err
	}
	if err := w.ew.WaitForAcknowledgments(ctx); err != nil {
		if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
			return wrapErr(ErrTimeout, err, "")
		}
		return wrapErr(ErrError, err, "")
	}
	return nil
}

// AssertLiveliness asserts the writer's liveliness (assert_liveliness). Liveliness is
// asserted by the participant's announcements, so this only checks the writer is
// enabled.
func (w *DataWriter[T]) AssertLiveliness() error { return w.check() }

// PublicationMatchedStatus returns and resets the PUBLICATION_MATCHED status.
func (w *DataWriter[T]) PublicationMatchedStatus() (listener.PublicationMatchedStatus, error) {
	if err := w.alive(); err != nil {
		return listener.PublicationMatchedStatus{}, err
	}
	return w.status.takePublicationMatched(), nil
}

// OfferedIncompatibleQosStatus returns and resets the OFFERED_INCOMPATIBLE_QOS status.
func (w *DataWriter[T]) OfferedIncompatibleQosStatus() (listener.OfferedIncompatibleQosStatus, error) {
	if err := w.alive(); err != nil {
		return listener.OfferedIncompatibleQosStatus{}, err
	}
	return w.status.takeOfferedIncompatibleQos(), nil
}

// OfferedDeadlineMissedStatus returns and resets the OFFERED_DEADLINE_MISSED status.
// Deadlines are not monitored yet: it stays zero.
func (w *DataWriter[T]) OfferedDeadlineMissedStatus() (listener.OfferedDeadlineMissedStatus, error) {
	if err := w.alive(); err != nil {
		return listener.OfferedDeadlineMissedStatus{}, err
	}
	return w.status.takeOfferedDeadlineMissed(), nil
}

// LivelinessLostStatus returns and resets the LIVELINESS_LOST status. Manual liveliness
// is not monitored yet: it stays zero.
func (w *DataWriter[T]) LivelinessLostStatus() (listener.LivelinessLostStatus, error) {
	if err := w.alive(); err != nil {
		return listener.LivelinessLostStatus{}, err
	}
	return w.status.takeLivelinessLost(), nil
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
