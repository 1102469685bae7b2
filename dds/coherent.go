package dds

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/qos"
)

// Coherent sets (PRESENTATION coherent_access, DDS 1.4 §2.2.2.4.1.10, RTPS 2.5 §8.7.5).
//
// Writer side: between BeginCoherentChanges and the matching EndCoherentChanges, every
// change a writer of a coherent publisher sends carries PID_COHERENT_SET with the
// sequence number of that writer's first change of the set; EndCoherentChanges ends the
// set of every writer that wrote in it with a DATA without payload whose
// PID_COHERENT_SET is SEQUENCENUMBER_UNKNOWN. The set of each writer is its own on the
// wire, whatever the access scope (Cyclone DDS 0.10.2 sends no group information).
//
// Reader side: a reader of a coherent subscriber holds back the changes of a writer's
// open set and inserts them all at once, under the read lock, when the set ends (its end
// marker, or a change of another set or of none); a set with a change known lost (a gap
// of a best-effort writer, a GAP of a reliable one, a set whose first change never came)
// is dropped whole, its changes counted in SAMPLE_LOST.

// coherentPub is a publisher's coherent-set state.
type coherentPub struct {
	mu    sync.Mutex
	depth int // nesting of BeginCoherentChanges
	// group is the open set's group coherent set number: a group sequence number
	// taken at its begin, below those of all its changes.
	group wire.SequenceNumber
}

// coherentWriter is a writer's part of its publisher's open set: the sequence number
// of its first change in the set, rtps.CoherentFirst while it has written none, 0
// outside a set. An atomic, so that a write outside sets only loads it.
type coherentWriter struct {
	start atomic.Int64
	// group is the group coherent set the writer's changes belong to (0: none).
	group atomic.Int64
	// grouped: the publisher numbers its writers' changes in one order (set at enable).
	grouped bool
}

// grouped reports whether a publisher's writers number their changes in one order and
// tag their coherent sets as sets of the group (RTPS 2.5 §8.7.6): with coherent access,
// whatever the scope (a subscriber may then show a set of several writers at once), and
// with GROUP ordered access.
func grouped(p qos.Presentation) bool {
	return p.CoherentAccess || (p.OrderedAccess && p.AccessScope == qos.GroupScope)
}

// coherentEnder is a writer that can end its part of a coherent set.
type coherentEnder interface {
	beginCoherent(group wire.SequenceNumber)
	// inSet reports whether the writer wrote in the open set, and its entity id.
	inSet() (wire.EntityID, bool)
	endCoherent(writerSet uint32) error
}

// BeginCoherentChanges starts a coherent set (begin_coherent_changes): the changes the
// publisher's writers make until the matching EndCoherentChanges reach the readers of a
// coherent subscriber as one set, whole or not at all. Calls nest; the set ends with the
// last EndCoherentChanges. With coherent_access off in the publisher's PRESENTATION, the
// changes are sent as usual.
func (pub *Publisher) BeginCoherentChanges() error {
	if err := pub.check(); err != nil {
		return err
	}
	pub.coh.mu.Lock()
	defer pub.coh.mu.Unlock()
	pub.coh.depth++
	if pub.coh.depth == 1 && pub.coherentAccess() {
		pub.coh.group = wire.SequenceNumber(pub.p.groupSN.Add(1))
		for _, w := range pub.coherentWriters() {
			w.beginCoherent(pub.coh.group)
		}
	}
	return nil
}

// EndCoherentChanges ends the coherent set BeginCoherentChanges started
// (end_coherent_changes); ErrPreconditionNotMet without one.
func (pub *Publisher) EndCoherentChanges() error {
	if err := pub.check(); err != nil {
		return err
	}
	pub.coh.mu.Lock()
	defer pub.coh.mu.Unlock()
	if pub.coh.depth == 0 {
		return errorf(ErrPreconditionNotMet, "EndCoherentChanges without BeginCoherentChanges")
	}
	pub.coh.depth--
	if pub.coh.depth > 0 {
		return nil
	}
	ws := pub.coherentWriters()
	var ids []wire.EntityID
	for _, w := range ws {
		if id, ok := w.inSet(); ok {
			ids = append(ids, id)
		}
	}
	set := groupDigest(ids)
	var first error
	for _, w := range ws {
		if err := w.endCoherent(set); err != nil && first == nil {
			first = err
		}
	}
	pub.coh.group = 0
	return first
}

// coherentAccess reports the publisher's PRESENTATION coherent_access.
func (pub *Publisher) coherentAccess() bool {
	pub.p.mu.Lock()
	defer pub.p.mu.Unlock()
	pq, _ := ecm.ComponentData[qos.PublisherQos](pub.p.m, pub.ent)
	return pq.Presentation.CoherentAccess
}

// coherentWriters returns the publisher's enabled writers.
func (pub *Publisher) coherentWriters() []coherentEnder {
	pub.p.mu.Lock()
	children := pub.p.childrenLocked(&pub.entity)
	pub.p.mu.Unlock()
	var ws []coherentEnder
	for _, c := range children {
		if w, ok := c.(coherentEnder); ok && c.core().enabled.Load() && !c.core().deleted.Load() {
			ws = append(ws, w)
		}
	}
	return ws
}

// joinOpenSet puts a writer enabled while its publisher's set is open into it.
func (w *DataWriter[T]) joinOpenSet() {
	pub := w.pub
	pub.coh.mu.Lock()
	defer pub.coh.mu.Unlock()
	if pub.coh.depth > 0 && pub.coherentAccess() {
		w.beginCoherent(pub.coh.group)
	}
}

func (w *DataWriter[T]) beginCoherent(group wire.SequenceNumber) {
	if w.coh.grouped {
		w.coh.group.Store(int64(group))
	}
	w.coh.start.Store(int64(rtps.CoherentFirst))
}

func (w *DataWriter[T]) inSet() (wire.EntityID, bool) {
	return w.ew.GUID().Entity, w.coh.start.Load() > 0
}

// groupTag returns the group part of the writer's next change's tags.
func (w *DataWriter[T]) groupTag() rtps.GroupInfo {
	return rtps.GroupInfo{Coherent: wire.SequenceNumber(w.coh.group.Load())}
}

// numberInGroup gives c its group sequence number, when the writer's publisher numbers
// its writers' changes.
func (w *DataWriter[T]) numberInGroup(c *rtps.Change) {
	if w.coh.grouped {
		c.Group.SN = wire.SequenceNumber(w.p.groupSN.Add(1))
	}
}

// coherentTag returns the PID_COHERENT_SET value of the writer's next change (0: none).
func (w *DataWriter[T]) coherentTag() wire.SequenceNumber {
	return wire.SequenceNumber(w.coh.start.Load())
}

// coherentWritten records sn as the first change of the open set when tag says it was.
func (w *DataWriter[T]) coherentWritten(tag, sn wire.SequenceNumber) {
	if tag == rtps.CoherentFirst {
		w.coh.start.CompareAndSwap(int64(rtps.CoherentFirst), int64(sn))
	}
}

// endCoherent ends the writer's part of the set: a change without payload tagged
// SEQUENCENUMBER_UNKNOWN, when the writer wrote in the set; a grouped writer's also
// carries the group set and writerSet, the digest of the group's writers that wrote in
// it.
func (w *DataWriter[T]) endCoherent(writerSet uint32) error {
	start := w.coh.start.Swap(0)
	group := w.coh.group.Swap(0)
	if start <= 0 {
		return nil // nothing written in the set
	}
	c := rtps.Change{Kind: rtps.Alive, Timestamp: wire.TimeFromTime(w.p.now()), Coherent: wire.SequenceNumberUnknown}
	if group != 0 {
		c.Group = rtps.GroupInfo{Coherent: wire.SequenceNumber(group), WriterSet: writerSet, HasWriterSet: true}
	}
	w.numberInGroup(&c)
	if w.keyed {
		c.KeyHash = coherentMarkerKey
	}
	var err error
	if w.durable != nil {
		// The durability service keeps the marker with the set, for late joiners.
		_, err = w.durable.writeMarker(context.Background(), c, wire.SequenceNumber(start))
	} else {
		_, err = w.ew.Write(context.Background(), c)
	}
	if err != nil {
		return wrapErr(ErrError, err, "ending the coherent set of "+w.topic.name)
	}
	return nil
}

// coherentMarkerKey is the history key of the end-of-set changes of a keyed writer, so
// that under KEEP_LAST they replace one another and no sample.
var coherentMarkerKey = wire.KeyHash{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}

// maxCoherentHeld bounds what a reader holds back of one writer's open set: a larger
// set is dropped (counted lost).
const (
	maxCoherentSamples = 1 << 16
	maxCoherentBytes   = 64 << 20
)

// coherentSet is a writer's open set at a reader.
type coherentSet struct {
	start   wire.SequenceNumber
	group   wire.SequenceNumber // its group coherent set (0: none)
	broken  bool
	bytes   int
	samples []rtps.Sample // payloads owned
}

// coherentReader holds back the open sets of a reader's writers.
type coherentReader struct {
	mu      sync.Mutex
	sets    map[wire.GUID]*coherentSet
	deliver func(*rtps.Sample) bool
	lost    func(uint64)
	// commit runs f with the reader's reads held off, so that a set appears at once.
	commit func(f func())
	// group holds the sets of several writers back across the subscriber's readers.
	group *groupSets
	heard map[wire.GUID]bool // the grouped writers it got a change of
}

// deliverFunc returns the engine delivery callback of the reader: r.deliver, wrapped
// to hold back coherent sets when the subscriber's PRESENTATION asks for coherent access.
func (r *DataReader[T]) deliverFunc(eq qos.Requested) rtps.DeliverFunc {
	if !eq.Subscriber.Presentation.CoherentAccess {
		return r.deliver
	}
	cr := &coherentReader{
		sets:    map[wire.GUID]*coherentSet{},
		heard:   map[wire.GUID]bool{},
		deliver: r.deliver,
		lost:    r.lost,
		commit: func(f func()) {
			r.commitMu.Lock()
			defer r.commitMu.Unlock()
			r.rmu.Lock()
			defer r.rmu.Unlock()
			f()
		},
		group: r.sub.groupSets(),
	}
	r.coh = cr
	cr.group.reads(r.topic.name, 1)
	return cr.receive
}

// gone takes the deleted reader of topic out of the subscriber's group sets.
func (cr *coherentReader) gone(topic string) {
	if cr != nil {
		cr.group.reads(topic, -1)
	}
}

// forget drops the open set of the writer w, no longer matched: it can never end.
func (cr *coherentReader) forget(w wire.GUID) {
	if cr == nil {
		return
	}
	cr.mu.Lock()
	defer cr.mu.Unlock()
	delete(cr.heard, w)
	if set := cr.sets[w]; set != nil {
		delete(cr.sets, w)
		cr.dropHeld(set)
		if set.group != 0 {
			cr.group.breakSet(w, set.group)
		}
	}
}

// receive is the delivery callback of a coherent reader.
func (cr *coherentReader) receive(s *rtps.Sample) bool {
	cr.mu.Lock()
	defer cr.mu.Unlock()
	cr.seen(s)
	set := cr.sets[s.Writer]
	end := s.Coherent == 0 || s.Coherent == wire.SequenceNumberUnknown || (set != nil && s.Coherent != set.start)
	if set != nil && end {
		// A loss just before a change that ends the set may have taken the set's tail.
		cr.close(s.Writer, set, s.Lost > 0, s)
		set = nil
	}
	if s.Coherent == 0 && !s.LostOnly && cr.group.after(cr, s) {
		return true // behind a set of its writer still held
	}
	if s.Coherent <= 0 {
		return cr.deliver(s) // outside any set, or an end marker (LostOnly)
	}
	if set == nil {
		// A set whose first change did not come (lost, or sent before the reader
		// matched) is not whole.
		set = &coherentSet{start: s.Coherent, group: s.Group.Coherent, broken: s.SN != s.Coherent}
		cr.sets[s.Writer] = set
	}
	if s.Lost > 0 {
		set.broken = true
	}
	if s.LostOnly { // a change of the set that the writer filtered out
		if set.broken {
			cr.dropHeld(set)
			cr.lost(s.Lost)
		}
		return true
	}
	if !set.broken && (len(set.samples) >= maxCoherentSamples || set.bytes+len(s.Payload) > maxCoherentBytes) {
		set.broken = true
	}
	if set.broken {
		cr.dropHeld(set)
		cr.lost(s.Lost + 1)
		return true
	}
	h := *s
	h.Payload = slices.Clone(s.Payload)
	set.bytes += len(h.Payload)
	set.samples = append(set.samples, h)
	return true
}

// seen tells the subscriber's group sets of a loss reported with s, a change of a
// grouped writer. The first change the reader gets of a writer counts as one: what the
// writer wrote before it (before the match) never comes.
func (cr *coherentReader) seen(s *rtps.Sample) {
	if s.Group.SN == 0 {
		return
	}
	if !cr.heard[s.Writer] {
		cr.heard[s.Writer] = true
	} else if s.Lost == 0 {
		return
	}
	// Changes lost just before the first change of a set are not of that set, nor of
	// later ones.
	limit := s.Group.SN
	if s.Coherent > 0 && s.SN == s.Coherent && s.Group.Coherent != 0 {
		limit = s.Group.Coherent
	}
	cr.group.lostBefore(s.Writer, limit)
}

// close ends a writer's set: its changes are delivered together unless it is broken, or
// handed to the subscriber's group sets when the set is a part of a group set.
func (cr *coherentReader) close(w wire.GUID, set *coherentSet, broken bool, end *rtps.Sample) {
	delete(cr.sets, w)
	if set.group != 0 {
		cr.group.partEnded(cr, w, set, broken || set.broken, end)
		set.samples = nil
		return
	}
	if broken || set.broken {
		cr.dropHeld(set)
		return
	}
	cr.commit(func() {
		for i := range set.samples {
			cr.deliver(&set.samples[i]) // a change the cache refuses is counted rejected there
		}
	})
	set.samples = nil
}

// dropHeld drops the changes held of a broken set, counting them lost.
func (cr *coherentReader) dropHeld(set *coherentSet) {
	if n := len(set.samples); n > 0 {
		cr.lost(uint64(n))
	}
	set.samples, set.bytes = nil, 0
}

// orderedAccess reports whether a reader's cache returns samples in arrival order
// across instances: PRESENTATION ordered_access with TOPIC or GROUP scope (with
// INSTANCE scope each instance's samples are in order already).
func orderedAccess(p qos.Presentation) bool {
	return p.OrderedAccess && p.AccessScope >= qos.TopicScope
}

// groupOrdered reports PRESENTATION ordered_access with GROUP scope: one order across
// the readers of a subscriber.
func groupOrdered(p qos.Presentation) bool {
	return p.OrderedAccess && p.AccessScope == qos.GroupScope
}
