package dds

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/ddsgo/ddsgo/dds/internal/rhc"
	"github.com/ddsgo/ddsgo/internal/cdr"
	"github.com/ddsgo/ddsgo/internal/discovery"
	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/ddsgo/ddsgo/sim/ecm"
)

// DataReader reads samples of type T from a topic (DataReader of DDS 1.4 §2.2.2.5.3).
// Make one with CreateDataReader.
//
// The read and take operations come in two forms: Read and Take (and their instance and
// condition variants) return new slices; ReadInto and TakeInto fill the caller's, so
// that a loop taking samples of a type of fixed size allocates nothing. Values returned
// by a read share their slices and strings with the reader's cache: do not modify them.
// Values returned by a take are the caller's.
type DataReader[T any] struct {
	entity
	sub   *Subscriber
	topic *Topic
	codec *cdr.Codec[T]
	keyed bool
	match matcher

	cache atomic.Pointer[rhc.Cache[T]]
	er    engineReader // set by enableSelf, before enabled
	// retrier is er for the cache's OnSpaceAvailable hook, which may run before
	// enableSelf sets er (on the engine's goroutine).
	retrier atomic.Pointer[engineReader]

	// dmu guards the delivery scratch state.
	dmu       sync.Mutex
	scratch   rhc.Change[T]
	dec       cdr.Decoder
	lifespans map[wire.GUID]time.Duration
	// recycled holds values given back with ReturnLoan; deliver decodes into them so
	// that their slices are reused.
	recycled []T
	// loaned counts the values takes returned and ReturnLoan did not get back yet:
	// ReturnLoan refuses more values than that (values from a read, say).
	loaned atomic.Int64
	// rejectedSN is the highest sequence number rejected of each writer, so that a
	// sample refused again when it is resent counts once in SAMPLE_REJECTED.
	rejectedSN map[wire.GUID]wire.SequenceNumber

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

// CreateDataReader creates a reader of T on topic in sub (create_datareader). A nil q
// means the subscriber's default reader QoS; use sub.CopyFromTopicQos to start from the
// topic's. The topic's type must be a TopicType[T]. The reader is enabled when the
// subscriber is and its ENTITY_FACTORY QoS autoenables.
func CreateDataReader[T any](sub *Subscriber, topic *Topic, q *qos.DataReaderQos, l listener.DataReaderListener, mask listener.StatusMask) (*DataReader[T], error) {
	if sub == nil || topic == nil {
		return nil, errorf(ErrBadParameter, "nil subscriber or topic")
	}
	if err := sub.alive(); err != nil {
		return nil, err
	}
	if err := topic.alive(); err != nil {
		return nil, err
	}
	p := sub.p
	if topic.p != p {
		return nil, errorf(ErrBadParameter, "the topic belongs to another participant")
	}
	tt, ok := topic.ts.(*TopicType[T])
	if !ok {
		var zero T
		return nil, errorf(ErrBadParameter, "topic %q has type %s, not %T", topic.name, topic.ts.TypeName(), zero)
	}
	rq := sub.DefaultDataReaderQos()
	if q != nil {
		rq = q.Clone()
	}
	if err := rq.Validate(); err != nil {
		return nil, qosErr(err)
	}
	r := &DataReader[T]{sub: sub, topic: topic, codec: tt.codec, keyed: tt.codec.Keyed(), lifespans: map[wire.GUID]time.Duration{}}
	r.match = matcher{e: &r.entity, hooks: r}
	p.opMu.Lock()
	defer p.opMu.Unlock()
	if err := sub.alive(); err != nil {
		return nil, err
	}
	err := p.create(r, &sub.entity, func() {
		r.init(p, &sub.entity, kindReader, r, listenerOf(l), mask)
		ecm.CreateComponent(p.m, r.ent, rq)
		ecm.CreateComponent(p.m, r.ent, nameComp{Topic: topic.name, Type: tt.name})
		ecm.CreateComponent(p.m, r.ent, topicRefComp{topic.ent})
		ecm.CreateComponent(p.m, r.ent, matchesComp{})
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// TopicDescription returns the reader's topic (get_topicdescription).
func (r *DataReader[T]) TopicDescription() TopicDescription { return r.topic }

// Topic returns the reader's topic.
func (r *DataReader[T]) Topic() *Topic { return r.topic }

// Subscriber returns the reader's subscriber.
func (r *DataReader[T]) Subscriber() *Subscriber { return r.sub }

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
	cfg.OnDataAvailable = r.onData
	cfg.OnSpaceAvailable = r.onSpace
	cache, err := rhc.New[T](cfg)
	if err != nil {
		code := ErrBadParameter
		if errors.Is(err, rhc.ErrInconsistentPolicy) {
			code = ErrInconsistentPolicy
		}
		return wrapErr(code, err, "")
	}
	r.cache.Store(cache)
	er, err := p.eng.NewReader(endpointConfig{
		Topic:     r.topic.name,
		Type:      r.topic.TypeName(),
		Keyed:     r.keyed,
		Requested: eq,
		Listener:  &r.match,
	}, r.deliver)
	if err != nil {
		return wrapErr(ErrError, err, "creating the RTPS reader")
	}
	r.er = er
	r.retrier.Store(&er)
	p.mu.Lock()
	ecm.SetComponentData(p.m, r.ent, handleComp{listener.HandleFromGUID(guidBytes(er.GUID()))})
	p.mu.Unlock()
	return nil
}

func (r *DataReader[T]) reannounce() error {
	r.p.mu.Lock()
	eq, _ := r.endpointQosLocked()
	r.p.mu.Unlock()
	if err := r.er.UpdateQos(eq); err != nil {
		return wrapErr(ErrError, err, "announcing the reader")
	}
	return nil
}

func (r *DataReader[T]) teardown() {
	r.cmu.Lock()
	for _, c := range r.conds {
		c.deleted.Store(true)
	}
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

// matched records the lifespan of a matched writer and its liveliness.
func (r *DataReader[T]) matched(remote *discovery.EndpointData) {
	if !remote.IsWriter() {
		return
	}
	ls := remote.Offered.Writer.Lifespan.Duration
	if ls == qos.Infinite || ls < 0 {
		ls = 0
	}
	r.dmu.Lock()
	r.lifespans[remote.GUID] = ls
	r.dmu.Unlock()
	h := listener.HandleFromGUID(guidBytes(remote.GUID))
	r.event(listener.LivelinessChanged, func(s *statusBlock) {
		s.liveliness.Transition(h, listener.WriterUnknown, listener.WriterAlive)
	})
}

// unmatched forgets a writer: its instances lose it.
func (r *DataReader[T]) unmatched(remote wire.GUID) {
	r.dmu.Lock()
	_, ok := r.lifespans[remote]
	delete(r.lifespans, remote)
	delete(r.rejectedSN, remote)
	r.dmu.Unlock()
	if !ok {
		return
	}
	if c := r.cache.Load(); c != nil {
		c.WriterLost(rhc.GUID(guidBytes(remote)), r.p.now())
	}
	h := listener.HandleFromGUID(guidBytes(remote))
	r.event(listener.LivelinessChanged, func(s *statusBlock) {
		s.liveliness.Transition(h, listener.WriterAlive, listener.WriterUnknown)
	})
}

// Qos returns the reader's QoS (get_qos).
func (r *DataReader[T]) Qos() qos.DataReaderQos { return getQos[qos.DataReaderQos](&r.entity) }

// SetQos changes the reader's QoS (set_qos); once enabled, only the changeable policies
// may change, and the change is announced. The cache keeps the policies it was enabled
// with.
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
func (r *DataReader[T]) Listener() listener.DataReaderListener {
	l, _ := r.listener().(listener.DataReaderListener)
	return l
}

// SetListener sets the reader's listener and the statuses it handles (set_listener).
func (r *DataReader[T]) SetListener(l listener.DataReaderListener, mask listener.StatusMask) error {
	return r.setListener(listenerOf(l), mask)
}

// deliver is the engine's delivery callback: it decodes a change into the cache. It
// runs on the engine's receive goroutine and does not block. It refuses (false) a
// change the cache rejects for its resource limits: a reliable reader leaves it
// unacknowledged and asks for it again when onSpace says there is room. Changes that
// cannot be decoded are accepted and counted lost.
func (r *DataReader[T]) deliver(s *rtps.Sample) bool {
	cache := r.cache.Load()
	if cache == nil || r.deleted.Load() {
		return true
	}
	r.dmu.Lock()
	ch := &r.scratch
	var zero T
	ch.Value = zero
	ch.Writer = rhc.GUID(guidBytes(s.Writer))
	ch.SourceTimestamp = time.Time{}
	if ts := s.SourceTimestamp; ts != wire.TimeZero && ts != wire.TimeInvalid && ts != wire.TimeInfinite {
		ch.SourceTimestamp = ts.Time()
	}
	ch.Lifespan = r.lifespans[s.Writer]
	haveKey := false
	switch s.Kind {
	case rtps.Alive:
		ch.Kind = rhc.Write
		if n := len(r.recycled); n > 0 {
			ch.Value, r.recycled[n-1] = r.recycled[n-1], zero
			r.recycled = r.recycled[:n-1]
		}
		if err := r.codec.Unmarshal(s.Payload, &ch.Value); err != nil {
			ch.Value = zero
			r.dmu.Unlock()
			r.lost()
			return true
		}
		haveKey = true
	default:
		switch s.Kind {
		case rtps.NotAliveDisposed:
			ch.Kind = rhc.Dispose
		case rtps.NotAliveUnregistered:
			ch.Kind = rhc.Unregister
		default:
			ch.Kind = rhc.DisposeUnregister
		}
		if len(s.Payload) > 0 {
			if s.KeyOnly {
				if r.dec.Reset(s.Payload) == nil {
					r.codec.DecodeKey(&r.dec, &ch.Value)
					haveKey = r.dec.Err() == nil
				}
			} else {
				haveKey = r.codec.Unmarshal(s.Payload, &ch.Value) == nil
			}
		} else if s.HasKeyHash && r.codec.KeyHashIsKey() {
			// No payload (Fast DDS's form, and ours for short keys): the hash is the key.
			haveKey = r.codec.DecodeKeyHash(cdr.KeyHash(s.KeyHash), &ch.Value) == nil
		}
	}
	switch {
	case !r.keyed:
		ch.KeyHash = rhc.KeyHash{}
	case s.HasKeyHash:
		ch.KeyHash = rhc.KeyHash(s.KeyHash)
	case haveKey:
		ch.KeyHash = rhc.KeyHash(r.codec.KeyHash(&ch.Value))
	default:
		ch.Value = zero
		r.dmu.Unlock()
		r.lost()
		return true
	}
	out := cache.Insert(ch, r.p.now())
	kh := ch.KeyHash
	// Values the cache does not keep, which nobody else references, are decoded into
	// again: the one it refused, and an unread one KEEP_LAST replaced.
	if ch.HasReplaced {
		r.recycle(ch.Replaced)
		ch.Replaced, ch.HasReplaced = zero, false
	}
	if ch.Kind == rhc.Write && out != rhc.Accepted {
		r.recycle(ch.Value)
	}
	ch.Value = zero
	counted := out.Rejected() && r.firstRejection(s)
	r.dmu.Unlock()
	if out.Rejected() {
		if !counted {
			return false // counted when it was first rejected
		}
		h := listener.HandleFromKeyHash(kh)
		r.status.mu.Lock()
		r.status.rejected.Reject(listener.SampleRejectedStatusKind(out.Reason()), h)
		r.status.setChanged(listener.SampleRejected)
		r.status.mu.Unlock()
		r.raised(listener.SampleRejected)
		return false
	}
	return true
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

// lost counts a change that could not be decoded as a lost sample.
func (r *DataReader[T]) lost() {
	r.status.mu.Lock()
	r.status.sampleLost.Increment(HandleNil)
	r.status.setChanged(listener.SampleLost)
	r.status.mu.Unlock()
	r.raised(listener.SampleLost)
}

// onData is the cache's DATA_AVAILABLE hook.
func (r *DataReader[T]) onData() {
	sub := r.sub
	r.status.changes.Or(uint32(listener.DataAvailable))
	sub.status.changes.Or(uint32(listener.DataOnReaders))
	r.notifyConditions()
	r.cond.Notify()
	sub.cond.Notify()
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
		c.Notify()
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
		return 0, errorf(ErrBadParameter, "no room for samples")
	}
	cache := r.cache.Load()
	now := r.p.now()
	r.rmu.Lock()
	if cap(r.rinfos) < n {
		r.rinfos = make([]rhc.SampleInfo, n)
	}
	ri := r.rinfos[:n]
	if sel == nil {
		r.sel = rhc.Selector[T]{
			SampleStates:   rhc.SampleState(st.Sample),
			ViewStates:     rhc.ViewState(st.View),
			InstanceStates: rhc.InstanceState(st.Instance),
		}
		sel = &r.sel
	}
	var c int
	var err error
	switch op {
	case opRead:
		c = cache.Read(dst[:n], ri, sel, now)
	case opTake:
		c = cache.Take(dst[:n], ri, sel, now)
	case opReadInstance, opTakeInstance:
		rh := cache.Lookup(rhc.KeyHash(keyHashOf(h)))
		switch {
		case h.IsNil() || rh == rhc.HandleNil:
			err = errorf(ErrBadParameter, "no instance %v", h)
		case op == opReadInstance:
			c, err = cache.ReadInstance(dst[:n], ri, rh, sel, now)
		default:
			c, err = cache.TakeInstance(dst[:n], ri, rh, sel, now)
		}
	case opReadNext, opTakeNext:
		rh := rhc.HandleNil
		switch {
		case h.IsNil():
		case h == r.lastNext.h:
			rh = r.lastNext.rh
		default:
			if rh = cache.Lookup(rhc.KeyHash(keyHashOf(h))); rh == rhc.HandleNil {
				err = errorf(ErrBadParameter, "no instance %v", h)
			}
		}
		if err != nil {
			break
		}
		if op == opReadNext {
			c = cache.ReadNextInstance(dst[:n], ri, rh, sel, now)
		} else {
			c = cache.TakeNextInstance(dst[:n], ri, rh, sel, now)
		}
		if c > 0 {
			r.lastNext.h, r.lastNext.rh = listener.HandleFromKeyHash(ri[0].KeyHash), ri[0].InstanceHandle
		}
	}
	for i := range c {
		infos[i].from(&ri[i])
	}
	if op == opTake || op == opTakeInstance || op == opTakeNext {
		r.loaned.Add(int64(c))
	}
	r.sel.Filter = nil
	r.rmu.Unlock()
	r.accessed()
	if err != nil {
		if errors.Is(err, rhc.ErrBadHandle) {
			err = wrapErr(ErrBadParameter, err, "")
		}
		return 0, err
	}
	if c == 0 {
		return 0, ErrNoData
	}
	return c, nil
}

// accessed resets DATA_AVAILABLE and the subscriber's DATA_ON_READERS after a read or
// take, and wakes the read conditions, whose trigger may have changed.
func (r *DataReader[T]) accessed() {
	r.status.clearChanged(listener.DataAvailable)
	r.sub.status.clearChanged(listener.DataOnReaders)
	r.notifyConditions()
}

// collect runs op into new slices of up to max samples (all when max <= 0).
func (r *DataReader[T]) collect(op accessOp, max int, st States, sel *rhc.Selector[T], h InstanceHandle) ([]T, []SampleInfo, error) {
	if err := r.check(); err != nil {
		return nil, nil, err
	}
	s := r.cache.Load().Stats()
	n := s.Samples + s.InvalidSamples
	if max > 0 && max < n {
		n = max
	}
	if n == 0 {
		r.accessed()
		return nil, nil, ErrNoData
	}
	dst := make([]T, n)
	infos := make([]SampleInfo, n)
	c, err := r.access(op, dst, infos, st, sel, h)
	if err != nil {
		return nil, nil, err
	}
	return dst[:c], infos[:c], nil
}

// Read returns up to max samples (all when max <= 0) in the states st, leaving them in
// the cache marked READ (read). ErrNoData reports that there was none.
func (r *DataReader[T]) Read(max int, st States) ([]T, []SampleInfo, error) {
	return r.collect(opRead, max, st, nil, HandleNil)
}

// Take is Read that removes the samples from the cache (take).
func (r *DataReader[T]) Take(max int, st States) ([]T, []SampleInfo, error) {
	return r.collect(opTake, max, st, nil, HandleNil)
}

// ReadInto reads into data and infos up to the length of the shorter and returns the
// number of samples; it allocates nothing.
func (r *DataReader[T]) ReadInto(data []T, infos []SampleInfo, st States) (int, error) {
	return r.access(opRead, data, infos, st, nil, HandleNil)
}

// TakeInto is ReadInto that removes the samples from the cache; it allocates nothing.
func (r *DataReader[T]) TakeInto(data []T, infos []SampleInfo, st States) (int, error) {
	return r.access(opTake, data, infos, st, nil, HandleNil)
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

// maxRecycled bounds the values a reader keeps for reuse.
const maxRecycled = 64

// recycle keeps as many of vs as there is room for, for deliver to decode into; the
// caller holds dmu.
func (r *DataReader[T]) recycle(vs ...T) {
	room := max(maxRecycled-len(r.recycled), 0)
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
	r.recycle(data...)
	r.dmu.Unlock()
	clear(data)
	return nil
}

// ReadInstance is Read restricted to the instance h (read_instance); ErrBadParameter
// reports an instance the reader does not have.
func (r *DataReader[T]) ReadInstance(h InstanceHandle, max int, st States) ([]T, []SampleInfo, error) {
	return r.collect(opReadInstance, max, st, nil, h)
}

// TakeInstance is Take restricted to the instance h (take_instance).
func (r *DataReader[T]) TakeInstance(h InstanceHandle, max int, st States) ([]T, []SampleInfo, error) {
	return r.collect(opTakeInstance, max, st, nil, h)
}

// ReadNextInstance is Read restricted to the next instance after prev that has samples
// in the states st (read_next_instance); HandleNil starts with the first instance.
func (r *DataReader[T]) ReadNextInstance(prev InstanceHandle, max int, st States) ([]T, []SampleInfo, error) {
	return r.collect(opReadNext, max, st, nil, prev)
}

// TakeNextInstance is Take restricted to the next instance after prev
// (take_next_instance).
func (r *DataReader[T]) TakeNextInstance(prev InstanceHandle, max int, st States) ([]T, []SampleInfo, error) {
	return r.collect(opTakeNext, max, st, nil, prev)
}

// ReadNextSample reads the next sample not read before into *v and *info
// (read_next_sample).
func (r *DataReader[T]) ReadNextSample(v *T, info *SampleInfo) error {
	if v == nil || info == nil {
		return errorf(ErrBadParameter, "nil sample or info")
	}
	_, err := r.access(opRead, unsafe.Slice(v, 1), unsafe.Slice(info, 1), NotReadStates, nil, HandleNil)
	return err
}

// TakeNextSample takes the next sample not read before into *v and *info
// (take_next_sample).
func (r *DataReader[T]) TakeNextSample(v *T, info *SampleInfo) error {
	if v == nil || info == nil {
		return errorf(ErrBadParameter, "nil sample or info")
	}
	_, err := r.access(opTake, unsafe.Slice(v, 1), unsafe.Slice(info, 1), NotReadStates, nil, HandleNil)
	return err
}

// conditionSelector checks that c is one of r's conditions and returns its selector.
func (r *DataReader[T]) conditionSelector(c *ReadCondition[T]) (*rhc.Selector[T], error) {
	if c == nil || c.r != r || c.deleted.Load() {
		return nil, errorf(ErrPreconditionNotMet, "the condition is not the reader's")
	}
	return &c.sel, nil
}

// ReadWithCondition is Read with the states and filter of c, a ReadCondition or
// QueryCondition of the reader (read_w_condition).
func (r *DataReader[T]) ReadWithCondition(c *ReadCondition[T], max int) ([]T, []SampleInfo, error) {
	sel, err := r.conditionSelector(c)
	if err != nil {
		return nil, nil, err
	}
	return r.collect(opRead, max, States{}, sel, HandleNil)
}

// TakeWithCondition is Take with the states and filter of c (take_w_condition).
func (r *DataReader[T]) TakeWithCondition(c *ReadCondition[T], max int) ([]T, []SampleInfo, error) {
	sel, err := r.conditionSelector(c)
	if err != nil {
		return nil, nil, err
	}
	return r.collect(opTake, max, States{}, sel, HandleNil)
}

// TakeWithConditionInto is TakeInto with the states and filter of c.
func (r *DataReader[T]) TakeWithConditionInto(c *ReadCondition[T], data []T, infos []SampleInfo) (int, error) {
	sel, err := r.conditionSelector(c)
	if err != nil {
		return 0, err
	}
	return r.access(opTake, data, infos, States{}, sel, HandleNil)
}

// hasSamples reports whether the cache holds samples in the states st.
func (r *DataReader[T]) hasSamples(st States) bool {
	c := r.cache.Load()
	if c == nil {
		return false
	}
	return c.Matches(&rhc.Selector[T]{
		SampleStates:   rhc.SampleState(st.Sample),
		ViewStates:     rhc.ViewState(st.View),
		InstanceStates: rhc.InstanceState(st.Instance),
	})
}

// LookupInstance returns the handle of the instance of *v's key, or HandleNil when the
// reader does not have it (lookup_instance).
func (r *DataReader[T]) LookupInstance(v *T) InstanceHandle {
	if r.check() != nil || v == nil {
		return HandleNil
	}
	var kh cdr.KeyHash
	if r.keyed {
		kh = r.codec.KeyHash(v)
	}
	if r.cache.Load().Lookup(rhc.KeyHash(kh)) == rhc.HandleNil {
		return HandleNil
	}
	return listener.HandleFromKeyHash(kh)
}

// GetKeyValue sets the key fields of *dst to those of instance h (get_key_value). It
// needs a sample of the instance, valid or carrying the key, in the cache; the samples'
// states do not change.
func (r *DataReader[T]) GetKeyValue(dst *T, h InstanceHandle) error {
	if err := r.check(); err != nil {
		return err
	}
	if dst == nil {
		return errorf(ErrBadParameter, "nil destination")
	}
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
		return errorf(ErrBadParameter, "no key of instance %v", h)
	}
	return decodeKey(r.codec, key, dst)
}

// SubscriptionMatchedStatus returns and resets the SUBSCRIPTION_MATCHED status.
func (r *DataReader[T]) SubscriptionMatchedStatus() (listener.SubscriptionMatchedStatus, error) {
	if err := r.alive(); err != nil {
		return listener.SubscriptionMatchedStatus{}, err
	}
	return r.status.takeSubscriptionMatched(), nil
}

// RequestedIncompatibleQosStatus returns and resets the REQUESTED_INCOMPATIBLE_QOS
// status.
func (r *DataReader[T]) RequestedIncompatibleQosStatus() (listener.RequestedIncompatibleQosStatus, error) {
	if err := r.alive(); err != nil {
		return listener.RequestedIncompatibleQosStatus{}, err
	}
	return r.status.takeRequestedIncompatibleQos(), nil
}

// SampleLostStatus returns and resets the SAMPLE_LOST status: changes that could not be
// decoded.
func (r *DataReader[T]) SampleLostStatus() (listener.SampleLostStatus, error) {
	if err := r.alive(); err != nil {
		return listener.SampleLostStatus{}, err
	}
	return r.status.takeSampleLost(), nil
}

// SampleRejectedStatus returns and resets the SAMPLE_REJECTED status.
func (r *DataReader[T]) SampleRejectedStatus() (listener.SampleRejectedStatus, error) {
	if err := r.alive(); err != nil {
		return listener.SampleRejectedStatus{}, err
	}
	return r.status.takeSampleRejected(), nil
}

// LivelinessChangedStatus returns and resets the LIVELINESS_CHANGED status: a matched
// writer counts as alive until it is unmatched.
func (r *DataReader[T]) LivelinessChangedStatus() (listener.LivelinessChangedStatus, error) {
	if err := r.alive(); err != nil {
		return listener.LivelinessChangedStatus{}, err
	}
	return r.status.takeLivelinessChanged(), nil
}

// RequestedDeadlineMissedStatus returns and resets the REQUESTED_DEADLINE_MISSED
// status. Deadlines are not monitored yet: it stays zero.
func (r *DataReader[T]) RequestedDeadlineMissedStatus() (listener.RequestedDeadlineMissedStatus, error) {
	if err := r.alive(); err != nil {
		return listener.RequestedDeadlineMissedStatus{}, err
	}
	return r.status.takeRequestedDeadlineMissed(), nil
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
	for _, c := range r.conds {
		c.deleted.Store(true)
	}
	r.conds = nil
	r.cmu.Unlock()
	return nil
}
