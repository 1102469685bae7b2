package rhc

import (
	"bytes"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// generation is the pair of generation counts of an instance.
type generation struct {
	disposed  uint32
	noWriters uint32
}

func (g generation) sum() int64 { return int64(g.disposed) + int64(g.noWriters) }

// sample is one stored valid sample.
type sample[T any] struct {
	value  T
	source time.Time
	writer GUID
	expiry int64      // Unix nanoseconds after which the sample has expired; 0: never
	gen    generation // of the instance when the sample was received
	sn     int64
	rel    Identity
	size   int32
	// arrival is the cache's count of stored samples when this one was stored.
	arrival uint64
	read    bool
	gone    bool // scratch: taken by the access in progress
	judged  verdicts
}

// invalidSample reports the latest state change of an instance that no unread valid
// sample reports. Its generation counts are the instance's: only a valid sample changes
// them, and a valid sample removes the invalid one.
type invalidSample[T any] struct {
	value   T
	source  time.Time
	writer  GUID
	arrival uint64
	read    bool
	judged  verdicts
}

type instance[T any] struct {
	handle  InstanceHandle // HandleNil once removed from the cache
	key     KeyHash
	state   InstanceState
	isNew   bool
	hasInv  bool
	gen     generation
	writers []GUID // registered live writers
	samples ring[sample[T]]
	inv     invalidSample[T]
	// lastSource and lastWriter are of the latest accepted write or dispose
	// (BySourceTimestamp); lastAccepted is the reception time of the latest accepted
	// sample (MinimumSeparation).
	lastSource   time.Time
	lastWriter   GUID
	lastAccepted time.Time
	// owner is the writer that owns the instance while owned (EXCLUSIVE ownership),
	// of strength strength: the writer of the latest accepted write or dispose.
	owner    GUID
	strength int32
	owned    bool
	// purgeAt is the autopurge deadline while heapIdx >= 0; notAliveAt is when the
	// instance last became NOT_ALIVE (the start of its autopurge delay).
	purgeAt    time.Time
	notAliveAt time.Time
	heapIdx    int
}

func (in *instance[T]) empty() bool { return in.samples.len() == 0 && !in.hasInv }

func (in *instance[T]) register(w GUID) {
	if !slices.Contains(in.writers, w) {
		in.writers = append(in.writers, w)
	}
}

// unregister removes w and reports whether it was registered.
func (in *instance[T]) unregister(w GUID) bool {
	i := slices.Index(in.writers, w)
	if i < 0 {
		return false
	}
	in.writers = slices.Delete(in.writers, i, i+1)
	if in.owner == w {
		in.owned = false
	}
	return true
}

// mayChange reports whether writer w of strength s may write or dispose the instance
// under EXCLUSIVE ownership: it owns it, nobody does, or it is stronger than the owner.
// Of equal strengths the smaller GUID wins, as in Cyclone DDS, so that readers of both
// elect the same owner.
func (in *instance[T]) mayChange(w GUID, s int32) bool {
	switch {
	case !in.owned || in.owner == w:
		return true
	case s != in.strength:
		return s > in.strength
	}
	return bytes.Compare(w[:], in.owner[:]) < 0
}

// own makes writer w of strength s the owner.
func (in *instance[T]) own(w GUID, s int32) { in.owner, in.strength, in.owned = w, s, true }

// needsInvalid reports whether a state change must be reported with an invalid sample:
// no unread valid sample carries it (Cyclone DDS does the same).
func (in *instance[T]) needsInvalid() bool {
	n := in.samples.len()
	return n == 0 || in.samples.at(n-1).read
}

// accepts reports whether a change with source timestamp src from writer w may follow
// the latest accepted change (BY_SOURCE_TIMESTAMP).
func (in *instance[T]) accepts(src time.Time, w GUID) bool {
	switch src.Compare(in.lastSource) {
	case 1:
		return true
	case -1:
		return false
	}
	return w == in.lastWriter || bytes.Compare(w[:], in.lastWriter[:]) < 0
}

// Cache is the history cache of one DataReader: its instances and their samples, with
// the sample, view and instance states of DDS 1.4 §2.2.2.5. It is safe for concurrent
// use: the protocol inserts from its goroutine while the application reads and takes
// from others.
type Cache[T any] struct {
	mu  sync.Mutex
	cfg Config

	depth          int // KEEP_LAST depth, 0 for KEEP_ALL
	maxSamples     int // 0: unlimited
	maxInstances   int
	maxPerInstance int
	purgeNoWriters time.Duration // 0: never
	purgeDisposed  time.Duration

	byKey      map[KeyHash]*instance[T]
	order      []*instance[T] // by ascending handle
	lastHandle InstanceHandle
	nSamples   int
	nInvalid   int
	arrivals   uint64 // samples and invalid samples stored so far
	// ordering says the access in progress records the arrival of each sample it
	// returns in arrived (OrderedAccess).
	ordering bool
	arrived  []uint64
	lifespan bool // some sample was stored with an expiry
	// timed is set once reads need the time: when autopurges are configured or a sample
	// with an expiry was stored (see ReadsNeedTime).
	timed atomic.Bool
	purge []*instance[T] // min-heap on purgeAt

	rejected  SampleRejectedStatus
	lost      SampleLostStatus
	wantSpace bool // a change was rejected and OnSpaceAvailable has not been called since
	freed     bool // the operation in progress freed samples or instances

	queries uint64 // a bit per registered Query
	lastID  uint64 // the identity given to the latest stored sample
}

// New returns an empty cache for cfg, or an error wrapping errs.ErrBadParameter or
// errs.ErrInconsistentPolicy.
func New[T any](cfg Config) (*Cache[T], error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	c := &Cache[T]{
		cfg:            cfg,
		maxSamples:     max(cfg.MaxSamples, 0),
		maxInstances:   max(cfg.MaxInstances, 0),
		maxPerInstance: max(cfg.MaxSamplesPerInstance, 0),
		purgeNoWriters: purgeDelay(cfg.AutopurgeNoWriterSamplesDelay),
		purgeDisposed:  purgeDelay(cfg.AutopurgeDisposedSamplesDelay),
		byKey:          make(map[KeyHash]*instance[T]),
	}
	c.timed.Store(c.purgeNoWriters != 0 || c.purgeDisposed != 0)
	if !cfg.KeepAll {
		c.depth = max(cfg.Depth, 1)
	}
	return c, nil
}

// Insert applies a change received at time now and says what it did. It calls
// Config.OnDataAvailable (after releasing the lock) when the change made something
// available to read. The cache copies ch.Value; ch is not retained.
func (c *Cache[T]) Insert(ch *Change[T], now time.Time) Outcome {
	c.mu.Lock()
	c.runPurges(now)
	if ch != nil {
		var zero T
		ch.Replaced, ch.HasReplaced = zero, false
	}
	o, nda := c.insert(ch, now)
	c.unlockNotify(nda)
	return o
}

// WriterLost unregisters writer w from every instance, as when its liveliness is lost or
// it is no longer matched: instances left without writers become NOT_ALIVE_NO_WRITERS.
// The writer is registered again by its next write.
func (c *Cache[T]) WriterLost(w GUID, now time.Time) {
	c.mu.Lock()
	c.runPurges(now)
	nda := false
	for i := len(c.order) - 1; i >= 0; i-- {
		if _, d := c.unregister(c.order[i], w, now, nil, now); d {
			nda = true
		}
	}
	c.unlockNotify(nda)
}

// ReleaseOwnership ends the ownership of the instance with key hash k, as when its owner
// misses the reader's DEADLINE: the next write or dispose of any writer takes it.
func (c *Cache[T]) ReleaseOwnership(k KeyHash) {
	c.mu.Lock()
	if in := c.byKey[k]; in != nil {
		in.owned = false
	}
	c.mu.Unlock()
}

// SetStrength records that writer w's OWNERSHIP_STRENGTH is now s in the instances it
// owns; its later changes carry the new strength themselves.
func (c *Cache[T]) SetStrength(w GUID, s int32) {
	c.mu.Lock()
	for _, in := range c.order {
		if in.owned && in.owner == w {
			in.strength = s
		}
	}
	c.mu.Unlock()
}

// ReadsNeedTime reports whether the read and take operations use their now argument:
// only to drop expired samples and run autopurges. When it is false, the caller may pass
// the zero time and spare reading the clock; a sample with an expiry stored meanwhile is
// then judged at the next operation, as if the read had come just before it.
func (c *Cache[T]) ReadsNeedTime() bool { return c.timed.Load() }

// Tick runs the autopurges that are due at now and returns the next autopurge deadline,
// or the zero time when none is pending. (Expired samples need no tick: they are dropped
// when read, or when their space is needed.)
func (c *Cache[T]) Tick(now time.Time) time.Time {
	c.mu.Lock()
	c.runPurges(now)
	var next time.Time
	if len(c.purge) > 0 {
		next = c.purge[0].purgeAt
	}
	c.unlockNotify(false)
	return next
}

// unlockNotify releases the lock, then calls the hooks the operation earned.
func (c *Cache[T]) unlockNotify(dataAvailable bool) {
	space := c.wantSpace && c.freed
	if space {
		c.wantSpace = false
	}
	c.freed = false
	c.mu.Unlock()
	if dataAvailable && c.cfg.OnDataAvailable != nil {
		c.cfg.OnDataAvailable()
	}
	if space && c.cfg.OnSpaceAvailable != nil {
		c.cfg.OnSpaceAvailable()
	}
}

func (c *Cache[T]) insert(ch *Change[T], now time.Time) (Outcome, bool) {
	if ch == nil {
		return Ignored, false
	}
	src := ch.SourceTimestamp
	if src.IsZero() {
		src = now
	}
	var o, o2 Outcome
	var nda, nda2 bool
	switch ch.Kind {
	case Write:
		o, nda = c.write(ch, src, now)
		if o.Rejected() && c.lifespan && c.dropAllExpired(now) {
			o, nda = c.write(ch, src, now)
		}
	case Dispose, DisposeUnregister:
		o, nda = c.dispose(ch, src, now)
		if ch.Kind == DisposeUnregister && !o.Rejected() {
			o2, nda2 = c.unregister(c.byKey[ch.KeyHash], ch.Writer, src, &ch.Value, now)
			if o2 == Accepted {
				o = Accepted
			}
			nda = nda || nda2
		}
	case Unregister:
		o, nda = c.unregister(c.byKey[ch.KeyHash], ch.Writer, src, &ch.Value, now)
	default:
		return Ignored, false
	}
	if o.Rejected() {
		c.reject(o, ch.KeyHash)
	}
	return o, nda
}

func (c *Cache[T]) reject(o Outcome, key KeyHash) {
	c.rejected.TotalCount = addSat(c.rejected.TotalCount, 1)
	c.rejected.TotalCountChange = addSat(c.rejected.TotalCountChange, 1)
	c.rejected.LastReason = o.Reason()
	c.rejected.LastInstanceHandle = HandleNil
	if in := c.byKey[key]; in != nil {
		c.rejected.LastInstanceHandle = in.handle
	}
	c.wantSpace = true
	c.freed = false
}

// write stores a sample. Everything that can refuse it is checked before anything
// changes, so that a refused sample leaves no trace but the writer's registration with
// an alive instance.
func (c *Cache[T]) write(ch *Change[T], src, now time.Time) (Outcome, bool) {
	in := c.byKey[ch.KeyHash]
	alive := in != nil && in.state == AliveInstanceState
	o, expiry := c.admit(in, alive, ch, src, now)
	if o != Accepted {
		if alive {
			in.register(ch.Writer)
		}
		return o, false
	}
	if in == nil {
		in = c.newInstance(ch.KeyHash, AliveInstanceState)
	} else if !alive {
		c.rebirth(in)
	}
	// Store it (inline: this is the hot path of every received sample). KEEP_LAST
	// makes a full instance give up its oldest sample, handed back in ch.Replaced
	// unless it was read.
	in.register(ch.Writer)
	if c.depth > 0 && in.samples.len() >= c.depth {
		if old := in.samples.at(0); !old.read {
			ch.Replaced, ch.HasReplaced = old.value, true
		}
		in.samples.popFront()
		c.nSamples--
	}
	if in.hasInv {
		c.clearInvalid(in)
	}
	*in.samples.push() = sample[T]{
		arrival: c.nextArrival(),
		value:   ch.Value,
		source:  src,
		writer:  ch.Writer,
		expiry:  expiry,
		gen:     in.gen,
		sn:      ch.SN,
		rel:     ch.Related,
		size:    ch.Size,
		judged:  c.newVerdicts(),
	}
	c.nSamples++
	if expiry != 0 {
		c.lifespan = true
		c.timed.Store(true)
	}
	in.lastSource, in.lastWriter, in.lastAccepted = src, ch.Writer, now
	in.own(ch.Writer, ch.Strength)
	return Accepted, true
}

// admit returns whether the sample of ch with source time src may go into the instance
// in (nil: a new one; ALIVE when alive), Accepted, or why not: LIFESPAN already over,
// DESTINATION_ORDER by source timestamp, TIME_BASED_FILTER or the resource limits. It
// also returns when the sample expires, in Unix nanoseconds (0: never).
func (c *Cache[T]) admit(in *instance[T], alive bool, ch *Change[T], src, now time.Time) (Outcome, int64) {
	var expiry int64
	if ch.Lifespan > 0 && ch.Lifespan < neverDelay {
		exp := src.Add(ch.Lifespan)
		if exp.Before(now) {
			return DroppedExpired, 0
		}
		expiry = max(unixNano(exp), 1)
	}
	if in == nil {
		return c.admitNew(), expiry
	}
	if o := c.admitChange(in, ch, src); o != Accepted {
		return o, expiry
	}
	switch {
	case alive && c.cfg.MinimumSeparation > 0 && now.Sub(in.lastAccepted) < c.cfg.MinimumSeparation:
		return DroppedByTimeFilter, expiry
	case c.depth > 0 && in.samples.len() >= c.depth:
		// KEEP_LAST replaces the oldest sample: no limit is reached.
	case c.maxSamples > 0 && c.nSamples >= c.maxSamples:
		return RejectedBySamplesLimit, expiry
	case c.maxPerInstance > 0 && in.samples.len() >= c.maxPerInstance:
		return RejectedBySamplesPerInstanceLimit, expiry
	}
	return Accepted, expiry
}

// admitChange returns whether a write or dispose ch with source time src may change the
// instance in, Accepted, or why not: EXCLUSIVE ownership or DESTINATION_ORDER by source
// timestamp.
func (c *Cache[T]) admitChange(in *instance[T], ch *Change[T], src time.Time) Outcome {
	switch {
	case c.cfg.ExclusiveOwnership && !in.mayChange(ch.Writer, ch.Strength):
		return DroppedNotOwner
	case c.cfg.BySourceTimestamp && !in.accepts(src, ch.Writer):
		return DroppedOutOfOrder
	}
	return Accepted
}

// admitNew returns whether a sample of a new instance may be stored, Accepted, or
// the resource limit that refuses it.
func (c *Cache[T]) admitNew() Outcome {
	switch {
	case c.maxInstances > 0 && len(c.order) >= c.maxInstances:
		return RejectedByInstancesLimit
	case c.maxSamples > 0 && c.nSamples >= c.maxSamples:
		return RejectedBySamplesLimit
	}
	return Accepted
}

// rebirth makes a NOT_ALIVE instance ALIVE again with a new generation and view state
// NEW: the count of the state it leaves goes up.
func (c *Cache[T]) rebirth(in *instance[T]) {
	switch in.state {
	case NotAliveDisposedInstanceState:
		in.gen.disposed++
	case NotAliveNoWritersInstanceState:
		in.gen.noWriters++
	default: // already alive
	}
	in.state = AliveInstanceState
	in.isNew = true
	c.unqueuePurge(in)
}

// dispose applies a dispose. The disposing writer is registered, as a write would
// register it. A dispose of an unknown instance creates it, NOT_ALIVE_DISPOSED, so that
// the application learns of it.
func (c *Cache[T]) dispose(ch *Change[T], src, now time.Time) (Outcome, bool) {
	in := c.byKey[ch.KeyHash]
	if in == nil {
		if c.maxInstances > 0 && len(c.order) >= c.maxInstances {
			return RejectedByInstancesLimit, false
		}
		in = c.newInstance(ch.KeyHash, NotAliveDisposedInstanceState)
	} else {
		if o := c.admitChange(in, ch, src); o != Accepted {
			if in.state == AliveInstanceState {
				in.register(ch.Writer)
			}
			return o, false
		}
		if in.state == NotAliveDisposedInstanceState {
			in.register(ch.Writer)
			in.lastSource, in.lastWriter = src, ch.Writer
			in.own(ch.Writer, ch.Strength)
			return Ignored, false
		}
		in.state = NotAliveDisposedInstanceState
	}
	in.register(ch.Writer)
	in.lastSource, in.lastWriter = src, ch.Writer
	in.own(ch.Writer, ch.Strength)
	c.queuePurge(in, now)
	if in.needsInvalid() {
		c.setInvalid(in, ch.Writer, src, &ch.Value)
	}
	return Accepted, true
}

// unregister removes writer w from instance in (nil: unknown instance). value is the
// key value for the invalid sample, nil for none.
func (c *Cache[T]) unregister(in *instance[T], w GUID, src time.Time, value *T, now time.Time) (Outcome, bool) {
	if in == nil || !in.unregister(w) {
		return Ignored, false
	}
	if len(in.writers) > 0 {
		return Accepted, false
	}
	if in.state == AliveInstanceState {
		in.state = NotAliveNoWritersInstanceState
		c.queuePurge(in, now)
		if in.needsInvalid() {
			c.setInvalid(in, w, src, value)
		}
		return Accepted, true
	}
	// Disposed, and now without writers: nothing more to report.
	if in.empty() {
		c.removeInstance(in)
	}
	return Accepted, false
}

func (c *Cache[T]) newInstance(key KeyHash, state InstanceState) *instance[T] {
	c.lastHandle++
	in := &instance[T]{
		handle:  c.lastHandle,
		key:     key,
		state:   state,
		isNew:   true,
		heapIdx: -1,
	}
	in.samples.limit = c.depth
	c.byKey[key] = in
	c.order = append(c.order, in) // handles only grow: order stays sorted
	return in
}

// removeInstance forgets an instance with all it holds.
func (c *Cache[T]) removeInstance(in *instance[T]) {
	c.unqueuePurge(in)
	if i, ok := c.find(in.handle); ok {
		c.order = slices.Delete(c.order, i, i+1)
	}
	delete(c.byKey, in.key)
	c.nSamples -= in.samples.len()
	in.samples.clear()
	if in.hasInv {
		c.clearInvalid(in)
	}
	in.handle = HandleNil
	c.freed = true
}

// find returns the index in c.order of the instance with handle h, or where it would be.
func (c *Cache[T]) find(h InstanceHandle) (int, bool) {
	return slices.BinarySearchFunc(c.order, h, func(in *instance[T], h InstanceHandle) int {
		switch {
		case in.handle < h:
			return -1
		case in.handle > h:
			return 1
		}
		return 0
	})
}

func (c *Cache[T]) setInvalid(in *instance[T], w GUID, src time.Time, value *T) {
	if !in.hasInv {
		in.hasInv = true
		c.nInvalid++
	}
	in.inv = invalidSample[T]{source: src, writer: w, arrival: c.nextArrival(), judged: c.newVerdicts()}
	if value != nil {
		in.inv.value = *value
	}
}

func (c *Cache[T]) clearInvalid(in *instance[T]) {
	in.hasInv = false
	in.inv = invalidSample[T]{}
	c.nInvalid--
}

// dropExpired removes the expired samples of in, and in itself when that leaves it
// empty and without writers. It returns how many samples it removed.
func (c *Cache[T]) dropExpired(in *instance[T], now time.Time) int {
	t := unixNano(now)
	n := in.samples.filter(func(s *sample[T]) bool { return s.expiry == 0 || s.expiry >= t })
	if n > 0 {
		c.nSamples -= n
		c.freed = true
		if in.empty() && len(in.writers) == 0 {
			c.removeInstance(in)
		}
	}
	return n
}

// unixNano is t.UnixNano saturated to the int64 range, for timestamps from peers.
func unixNano(t time.Time) int64 {
	return int64(t.Sub(time.Unix(0, 0)))
}

// dropAllExpired drops the expired samples of every instance and reports whether there
// were any.
func (c *Cache[T]) dropAllExpired(now time.Time) bool {
	dropped := false
	for i := len(c.order) - 1; i >= 0; i-- {
		if c.dropExpired(c.order[i], now) > 0 {
			dropped = true
		}
	}
	return dropped
}

// Lookup returns the handle of the instance with key hash k, or HandleNil.
func (c *Cache[T]) Lookup(k KeyHash) InstanceHandle {
	c.mu.Lock()
	defer c.mu.Unlock()
	if in := c.byKey[k]; in != nil {
		return in.handle
	}
	return HandleNil
}

// InstanceKey returns the key hash of the instance with handle h.
func (c *Cache[T]) InstanceKey(h InstanceHandle) (KeyHash, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if i, ok := c.find(h); ok {
		return c.order[i].key, true
	}
	return KeyHash{}, false
}

// Stats returns the current numbers of instances and samples.
func (c *Cache[T]) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return Stats{Instances: len(c.order), Samples: c.nSamples, InvalidSamples: c.nInvalid}
}

// nextArrival numbers a sample stored now.
func (c *Cache[T]) nextArrival() uint64 {
	if c.cfg.Arrivals != nil {
		return c.cfg.Arrivals.Add(1)
	}
	c.arrivals++
	return c.arrivals
}

// Arrivals appends to dst the arrival numbers (Config.Arrivals) of the samples sel
// selects, in no particular order.
func (c *Cache[T]) Arrivals(sel *Selector[T], dst []uint64) []uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.eachSelected(sel, func(arrival uint64) bool {
		dst = append(dst, arrival)
		return true
	})
	return dst
}

// eachSelected calls fn with the arrival number of each sample sel selects (the
// invalid sample of an instance included) until fn returns false. The caller holds
// c.mu.
func (c *Cache[T]) eachSelected(sel *Selector[T], fn func(arrival uint64) bool) {
	for _, in := range c.order {
		if !sel.matchInstance(in.viewState(), in.state) {
			continue
		}
		for i := range in.samples.len() {
			s := in.samples.at(i)
			if sel.matchSample(s.read, &s.value, &s.judged) && !fn(s.arrival) {
				return
			}
		}
		if in.hasInv && sel.matchSample(in.inv.read, &in.inv.value, &in.inv.judged) && !fn(in.inv.arrival) {
			return
		}
	}
}

// AddSamplesLost adds n samples that the protocol knows will never arrive (a GAP, or
// data a best-effort reader skipped) to SampleLostStatus.
func (c *Cache[T]) AddSamplesLost(n int) {
	if n <= 0 {
		return
	}
	c.mu.Lock()
	c.lost.TotalCount = addSat(c.lost.TotalCount, n)
	c.lost.TotalCountChange = addSat(c.lost.TotalCountChange, n)
	c.mu.Unlock()
}

// SampleLostStatus returns SAMPLE_LOST_STATUS; reset clears TotalCountChange, as reading
// the status through the DCPS API does.
func (c *Cache[T]) SampleLostStatus(reset bool) SampleLostStatus {
	return readStatus(&c.mu, &c.lost, &c.lost.TotalCountChange, reset)
}

// SampleRejectedStatus returns SAMPLE_REJECTED_STATUS; reset clears TotalCountChange.
func (c *Cache[T]) SampleRejectedStatus(reset bool) SampleRejectedStatus {
	return readStatus(&c.mu, &c.rejected, &c.rejected.TotalCountChange, reset)
}

// readStatus returns *s, read under mu; reset clears *change, the status's
// TotalCountChange, as reading a status through the DCPS API does.
func readStatus[S any](mu *sync.Mutex, s *S, change *int32, reset bool) S {
	mu.Lock()
	defer mu.Unlock()
	v := *s
	if reset {
		*change = 0
	}
	return v
}
