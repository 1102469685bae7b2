package rtps

import (
	"errors"
	"time"

	"github.com/ddsgo/ddsgo/internal/wire"
)

// ChangeKind is the kind of a cache change (RTPS 2.5 §8.2.7 ChangeKind_t).
type ChangeKind uint8

// Change kinds. The not-alive kinds carry the serialized key (or nothing) as
// payload and are sent with inline PID_STATUS_INFO and PID_KEY_HASH.
const (
	Alive ChangeKind = iota
	NotAliveDisposed
	NotAliveUnregistered
	NotAliveDisposedUnregistered
)

// String returns the specification name of k.
func (k ChangeKind) String() string {
	switch k {
	case Alive:
		return "ALIVE"
	case NotAliveDisposed:
		return "NOT_ALIVE_DISPOSED"
	case NotAliveUnregistered:
		return "NOT_ALIVE_UNREGISTERED"
	case NotAliveDisposedUnregistered:
		return "NOT_ALIVE_DISPOSED_UNREGISTERED"
	default:
		return "ChangeKind(?)"
	}
}

// statusInfo returns the PID_STATUS_INFO flags of k.
func (k ChangeKind) statusInfo() wire.StatusInfo {
	switch k {
	case NotAliveDisposed:
		return wire.StatusInfoDisposed
	case NotAliveUnregistered:
		return wire.StatusInfoUnregistered
	case NotAliveDisposedUnregistered:
		return wire.StatusInfoDisposed | wire.StatusInfoUnregistered
	default:
		return 0
	}
}

// kindFromStatusInfo maps PID_STATUS_INFO flags to a ChangeKind.
func kindFromStatusInfo(s wire.StatusInfo) ChangeKind {
	switch s & (wire.StatusInfoDisposed | wire.StatusInfoUnregistered) {
	case wire.StatusInfoDisposed:
		return NotAliveDisposed
	case wire.StatusInfoUnregistered:
		return NotAliveUnregistered
	case wire.StatusInfoDisposed | wire.StatusInfoUnregistered:
		return NotAliveDisposedUnregistered
	default:
		return Alive
	}
}

// Change is one cache change of a writer: a sample, a dispose or an
// unregister.
type Change struct {
	// SN is assigned by Writer.Write.
	SN   wire.SequenceNumber
	Kind ChangeKind
	// KeyHash identifies the instance; zero when the topic is unkeyed.
	KeyHash wire.KeyHash
	// Timestamp is the source timestamp, sent in INFO_TS.
	Timestamp wire.Time
	// Related, when its writer GUID is not zero, is the identity of the sample this one
	// answers (a reply's request), sent in the inline QoS as PID_RELATED_SAMPLE_IDENTITY
	// and as Fast DDS's 0x800f, which Fast DDS before 2.10 reads alone.
	Related wire.SampleIdentity
	// Coherent, when not 0, is sent as PID_COHERENT_SET (RTPS 2.5 §8.7.5): the sequence
	// number of the first change of the coherent set the change belongs to
	// (CoherentFirst: this change's own), or wire.SequenceNumberUnknown on the change
	// without payload that ends a set.
	Coherent wire.SequenceNumber
	// Group is what the change carries for its writer's group, when the writer's
	// publisher orders or groups its writers' changes (zero: nothing).
	Group GroupInfo
	// Payload is the serialized payload (encapsulation header and data)
	// or, for the not-alive kinds, the serialized key or nothing. Once
	// written the history owns it until it hands it to
	// WriterConfig.Release.
	Payload []byte
}

// GroupInfo is the inline QoS of a change of a writer whose group (its publisher)
// numbers its writers' changes in one order and makes coherent sets of several writers
// (RTPS 2.5 §8.7.6, group coherent sets): PID_GROUP_SEQ_NUM, PID_GROUP_COHERENT_SET and
// PID_WRITER_GROUP_INFO.
type GroupInfo struct {
	// SN is the change's group sequence number (0: none).
	SN wire.SequenceNumber
	// Coherent is the group coherent set the change belongs to (0: none).
	Coherent wire.SequenceNumber
	// WriterSet, when HasWriterSet, is the digest of the writers of the group coherent
	// set, on the change that ends a writer's part of it.
	WriterSet    uint32
	HasWriterSet bool
}

// CoherentFirst as Change.Coherent makes Writer.Write tag the change with its own
// sequence number: the first change of a coherent set.
const CoherentFirst wire.SequenceNumber = -1

// Errors of the writer history.
var (
	// ErrHistoryFull is returned by Writer.Write when a KEEP_ALL history
	// (or a resource limit) has no room left because readers have not
	// acknowledged enough changes. Wait on Writer.AckWait and retry until
	// max_blocking_time expires.
	ErrHistoryFull = errors.New("rtps: writer history full")
	// ErrOutOfResources is returned by Writer.Write when the instance limit
	// (max_instances) is reached and no instance can be reclaimed.
	ErrOutOfResources = errors.New("rtps: writer history out of resources (max_instances)")
)

// HistoryConfig sets the HISTORY and RESOURCE_LIMITS of a writer history.
// The zero value is KEEP_LAST 1 without limits.
type HistoryConfig struct {
	// KeepAll selects KEEP_ALL; otherwise KEEP_LAST with Depth.
	KeepAll bool
	// Depth is the KEEP_LAST depth per instance; 0 means 1.
	Depth int
	// MaxSamples, MaxInstances and MaxSamplesPerInstance are the resource
	// limits; 0 or a negative value means unlimited.
	MaxSamples            int
	MaxInstances          int
	MaxSamplesPerInstance int
	// Lifespan is the writer's LIFESPAN: an alive change expires at its
	// Timestamp plus Lifespan, and Expire drops it. Disposes and
	// unregisters never expire (Cyclone DDS keeps them too: readers need
	// them to clean up). 0 or negative: changes never expire.
	Lifespan time.Duration
}

// histEntry is one slot of the history; removed slots are skipped and
// compacted away.
type histEntry struct {
	c       Change
	in      *instance // the record of c's instance, while not removed
	exp     int64     // expiry in Unix nanoseconds; 0: never
	removed bool
}

// instance tracks the changes of one key in the history: a FIFO of their
// sequence numbers in a ring.
type instance struct {
	ring []wire.SequenceNumber
	head int
	n    int
}

func (in *instance) push(sn wire.SequenceNumber) {
	if in.n == len(in.ring) {
		nr := make([]wire.SequenceNumber, max(4, 2*len(in.ring)))
		for i := range in.n {
			nr[i] = in.ring[(in.head+i)%len(in.ring)]
		}
		in.ring, in.head = nr, 0
	}
	in.ring[(in.head+in.n)%len(in.ring)] = sn
	in.n++
}

func (in *instance) oldest() wire.SequenceNumber { return in.ring[in.head] }

func (in *instance) pop() {
	in.head = (in.head + 1) % len(in.ring)
	in.n--
}

// drop removes sn from the FIFO wherever it is (an expired change need not
// be the oldest of its instance).
func (in *instance) drop(sn wire.SequenceNumber) {
	if in.n > 0 && in.oldest() == sn {
		in.pop()
		return
	}
	for i := 1; i < in.n; i++ {
		if in.ring[(in.head+i)%len(in.ring)] != sn {
			continue
		}
		for j := i; j < in.n-1; j++ {
			in.ring[(in.head+j)%len(in.ring)] = in.ring[(in.head+j+1)%len(in.ring)]
		}
		in.n--
		return
	}
}

// WriterHistory is the history cache of a writer (RTPS 2.5 §8.2.9): the
// changes it still holds, in SN order, with KEEP_LAST / KEEP_ALL rules
// applied per instance. Changes whose sequence number is at or below the
// reclaim mark (acknowledged by every reliable reader) may be dropped to
// make room. It is not safe for concurrent use; the Writer guards it.
type WriterHistory struct {
	cfg     HistoryConfig
	entries []histEntry // sorted by SN, entries[head:] in use
	head    int
	live    int
	// instances holds the record of every instance with changes held, and
	// of some without (empty: their count), which stay so that an instance
	// written again after all its changes were dropped (a volatile writer's
	// acknowledged changes) does not leave and enter the map at each write;
	// Add sweeps them out when they are many.
	instances map[wire.KeyHash]*instance
	// last is the record of lastKey, the instance looked up last (nil: none):
	// a writer of one instance, or of bursts of one, skips the map's hashing.
	last    *instance
	lastKey wire.KeyHash
	empty   int
	free    []*instance // recycled instance records
	reclaim wire.SequenceNumber
	release func([]byte)
	// nextExp is the earliest expiry of the changes held (Unix
	// nanoseconds; 0: none), or earlier; lastExp is the latest expiry added
	// and inOrder says the expiries grow with the SNs, so that Expire stops
	// at the first change not expired.
	nextExp, lastExp int64
	inOrder          bool
}

// NewWriterHistory returns an empty history. release, if not nil, is called
// with the payload of every change the history drops, so that the caller
// can recycle the buffer.
func NewWriterHistory(cfg HistoryConfig, release func([]byte)) *WriterHistory {
	if cfg.Depth <= 0 {
		cfg.Depth = 1
	}
	return &WriterHistory{cfg: cfg, instances: make(map[wire.KeyHash]*instance), release: release, inOrder: true}
}

// Len returns the number of changes held.
func (h *WriterHistory) Len() int { return h.live }

// MinSN returns the lowest sequence number held, or 0 when empty.
func (h *WriterHistory) MinSN() wire.SequenceNumber {
	for i := h.head; i < len(h.entries); i++ {
		if !h.entries[i].removed {
			return h.entries[i].c.SN
		}
	}
	return 0
}

// Get returns the change with sequence number sn, if still held. The
// returned pointer is valid until the history is next modified.
func (h *WriterHistory) Get(sn wire.SequenceNumber) (*Change, bool) {
	i := h.find(sn)
	if i < 0 {
		return nil, false
	}
	return &h.entries[i].c, true
}

func (h *WriterHistory) find(sn wire.SequenceNumber) int {
	i := h.search(sn)
	if i == len(h.entries) || h.entries[i].c.SN != sn || h.entries[i].removed {
		return -1
	}
	return i
}

// search returns the index of the first entry in use with an SN >= sn.
func (h *WriterHistory) search(sn wire.SequenceNumber) int {
	lo, hi := h.head, len(h.entries)
	if lo == hi {
		return lo
	}
	// The SNs held are consecutive but where a compaction took out removed
	// entries: try the slot sn has then, before a binary search whose probes
	// each miss the cache in a long history (remove and Get at the head and
	// tail of a throughput run).
	switch d := sn - h.entries[lo].c.SN; {
	case d <= 0:
		return lo
	case d < wire.SequenceNumber(hi-lo):
		if i := lo + int(d); h.entries[i].c.SN == sn {
			return i
		}
	}
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if h.entries[m].c.SN < sn {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// limit returns l, or a huge value when l means unlimited.
func limit(l int) int {
	if l <= 0 {
		return int(^uint(0) >> 1)
	}
	return l
}

// Full reports whether a write of an existing or new instance with key k
// would fail with ErrHistoryFull now.
func (h *WriterHistory) Full(k wire.KeyHash) bool {
	return h.admit(k, false) != nil
}

// admit checks (and, with apply, makes) room for one more change of key k.
func (h *WriterHistory) admit(k wire.KeyHash, apply bool) error {
	return h.admitIn(h.lookup(k), apply)
}

// admitIn is admit for the instance record in (nil: none).
func (h *WriterHistory) admitIn(in *instance, apply bool) error {
	// Per instance: KEEP_LAST replaces, KEEP_ALL needs a reclaimable one.
	perInst := limit(h.cfg.MaxSamplesPerInstance)
	if !h.cfg.KeepAll {
		perInst = min(perInst, h.cfg.Depth)
	}
	if in != nil && in.n >= perInst {
		old := in.oldest()
		if h.cfg.KeepAll && old > h.reclaim {
			return ErrHistoryFull
		}
		if apply {
			h.remove(old)
		}
		return nil
	}
	if (in == nil || in.n == 0) && len(h.instances)-h.empty >= limit(h.cfg.MaxInstances) {
		if !h.reclaimInstance(apply) {
			return ErrOutOfResources
		}
	}
	if h.live >= limit(h.cfg.MaxSamples) {
		old := h.MinSN()
		if old > h.reclaim {
			return ErrHistoryFull
		}
		if apply {
			h.remove(old)
		}
	}
	return nil
}

// reclaimInstance finds the least recently written instance all of whose
// changes are reclaimable and, with apply, drops it with its changes.
func (h *WriterHistory) reclaimInstance(apply bool) bool {
	var (
		victim    *instance
		victimKey wire.KeyHash
		victimSN  wire.SequenceNumber
	)
	for k, in := range h.instances {
		if in.n == 0 {
			continue // no instance held: dropping it makes no room
		}
		last := in.ring[(in.head+in.n-1)%len(in.ring)]
		if last > h.reclaim || (victim != nil && last >= victimSN) {
			continue
		}
		victim, victimKey, victimSN = in, k, last
	}
	if victim == nil {
		return false
	}
	if apply {
		for victim.n > 0 {
			h.remove(victim.oldest())
		}
		h.forget(victimKey, victim)
	}
	return true
}

// maxEmpty is how many empty instance records the history keeps at least
// before Add sweeps them out (when they are also half of the records).
const maxEmpty = 64

// emptied notes that the record in, in the map, has no change left.
func (h *WriterHistory) emptied(in *instance) {
	if in.n == 0 {
		h.empty++
	}
}

// lookup returns the record of instance k, nil when the map has none.
func (h *WriterHistory) lookup(k wire.KeyHash) *instance {
	if h.last != nil && h.lastKey == k {
		return h.last
	}
	in := h.instances[k]
	if in != nil {
		h.last, h.lastKey = in, k
	}
	return in
}

// forget removes the empty record in of key k from the map, for reuse.
func (h *WriterHistory) forget(k wire.KeyHash, in *instance) {
	if h.last == in {
		h.last = nil
	}
	delete(h.instances, k)
	h.empty--
	in.head = 0
	h.free = append(h.free, in)
}

// sweep forgets the empty instance records.
func (h *WriterHistory) sweep() {
	for k, in := range h.instances {
		if in.n == 0 {
			h.forget(k, in)
		}
	}
}

// Add stores c (whose SN must be above every SN held), dropping what
// KEEP_LAST replaces or what is reclaimable when a limit is reached.
func (h *WriterHistory) Add(c Change) error {
	if h.empty > maxEmpty && 2*h.empty > len(h.instances) {
		h.sweep()
	}
	in := h.lookup(c.KeyHash)
	if err := h.admitIn(in, true); err != nil {
		return err
	}
	switch {
	case in != nil && in.n == 0:
		h.empty--
	case in == nil:
		if n := len(h.free); n > 0 {
			in = h.free[n-1]
			h.free = h.free[:n-1]
		} else {
			in = &instance{}
		}
		h.instances[c.KeyHash] = in
		h.last, h.lastKey = in, c.KeyHash
	}
	in.push(c.SN)
	if h.head > 0 && len(h.entries) == cap(h.entries) {
		h.compact()
	}
	exp := h.expiry(&c)
	h.entries = append(h.entries, histEntry{c: c, in: in, exp: exp})
	h.live++
	h.noteExpiry(exp)
	return nil
}

// expiry returns when c expires (Unix nanoseconds), 0 for never: alive
// changes with a valid timestamp of a history with a lifespan.
func (h *WriterHistory) expiry(c *Change) int64 {
	if h.cfg.Lifespan <= 0 || c.Kind != Alive {
		return 0
	}
	switch c.Timestamp {
	case wire.TimeZero, wire.TimeInvalid, wire.TimeInfinite:
		return 0
	}
	ts := c.Timestamp.Time().UnixNano()
	exp := ts + int64(h.cfg.Lifespan)
	if exp < ts { // overflow: never
		return 0
	}
	return max(exp, 1)
}

// noteExpiry records the expiry of a change added.
func (h *WriterHistory) noteExpiry(exp int64) {
	if exp == 0 {
		return
	}
	if h.nextExp == 0 || exp < h.nextExp {
		h.nextExp = exp
	}
	if exp < h.lastExp {
		h.inOrder = false
	}
	h.lastExp = exp
}

// NextExpiry returns when the next change held expires (or earlier); zero
// when none will.
func (h *WriterHistory) NextExpiry() time.Time {
	if h.nextExp == 0 {
		return time.Time{}
	}
	return time.Unix(0, h.nextExp)
}

// Expire drops the changes whose lifespan has passed at now and reports
// how many it dropped. It is cheap when nothing is due.
func (h *WriterHistory) Expire(now time.Time) int {
	t := now.UnixNano()
	if h.nextExp == 0 || t < h.nextExp {
		return 0
	}
	dropped := 0
	next := int64(0)
	for i := h.head; i < len(h.entries); i++ {
		e := &h.entries[i]
		if e.removed || e.exp == 0 {
			continue
		}
		if e.exp > t {
			if next == 0 || e.exp < next {
				next = e.exp
			}
			if h.inOrder {
				break
			}
			continue
		}
		sn := e.c.SN
		h.dropChange(e.c.KeyHash, sn)
		dropped++
		i = h.search(sn) - 1 // remove may have compacted the entries
	}
	h.nextExp = next
	if h.live == 0 {
		h.inOrder, h.lastExp = true, 0
	}
	return dropped
}

// dropChange removes the change sn of instance k, and the instance when it
// has no change left.
func (h *WriterHistory) dropChange(k wire.KeyHash, sn wire.SequenceNumber) {
	in := h.lookup(k)
	if in != nil && in.n > 0 {
		in.drop(sn)
		h.emptied(in)
	}
	h.remove(sn)
}

// compact moves the entries in use to the start of the slice.
func (h *WriterHistory) compact() {
	n := 0
	for i := h.head; i < len(h.entries); i++ {
		if !h.entries[i].removed {
			h.entries[n] = h.entries[i]
			n++
		}
	}
	clear(h.entries[n:])
	h.entries = h.entries[:n]
	h.head = 0
}

// remove drops the change with sequence number sn. The caller keeps the
// instance FIFO consistent: sn is always the oldest of its instance.
func (h *WriterHistory) remove(sn wire.SequenceNumber) {
	i := h.find(sn)
	if i < 0 {
		return
	}
	e := &h.entries[i]
	if in := e.in; in.n > 0 && in.oldest() == sn {
		in.pop()
		h.emptied(in)
	}
	e.in, e.exp = nil, 0
	if h.release != nil && e.c.Payload != nil {
		h.release(e.c.Payload)
	}
	e.c.Payload = nil
	e.removed = true
	h.live--
	for h.head < len(h.entries) && h.entries[h.head].removed {
		h.head++
	}
	if h.head == len(h.entries) {
		h.entries = h.entries[:0]
		h.head = 0
	} else if h.head > 64 && h.head > len(h.entries)/2 {
		h.compact()
	}
	// Many holes in the middle (KEEP_LAST of busy instances): compact
	// when at most a quarter of the slots is live.
	if n := len(h.entries) - h.head; n > 256 && h.live < n/4 {
		h.compact()
	}
}

// SetReclaim sets the reclaim mark: the changes up to sn are acknowledged
// by every reliable reader and may be dropped to make room. With drop
// (a volatile writer: nobody will ever ask for them again) they are
// dropped at once.
func (h *WriterHistory) SetReclaim(sn wire.SequenceNumber, drop bool) {
	if sn > h.reclaim {
		h.reclaim = sn
	}
	if !drop {
		return
	}
	for h.live > 0 && h.entries[h.head].c.SN <= h.reclaim {
		h.remove(h.entries[h.head].c.SN)
	}
}

// All calls yield for every change held with an SN in [from, to], in
// order, until yield returns false.
func (h *WriterHistory) All(from, to wire.SequenceNumber, yield func(*Change) bool) {
	for i := h.search(from); i < len(h.entries) && h.entries[i].c.SN <= to; i++ {
		if h.entries[i].removed {
			continue
		}
		if !yield(&h.entries[i].c) {
			return
		}
	}
}
