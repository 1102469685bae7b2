package dds

import (
	"cmp"
	"crypto/md5"
	"encoding/binary"
	"slices"
	"sync"

	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/wire"
)

// Group coherent sets (RTPS 2.5 §8.7.6): a coherent set that several writers of one
// publisher wrote reaches a coherent subscriber whole, across its readers.
//
// Writer side (coherent.go): the writers of a grouped publisher number every change
// with one group sequence number (PID_GROUP_SEQ_NUM, from a counter of the participant,
// so that the numbers of its publishers never collide); the changes of a coherent set
// also carry the set's group number (PID_GROUP_COHERENT_SET, a group sequence number
// taken at BeginCoherentChanges, below those of the set's changes), and the end marker of
// each writer's part carries PID_WRITER_GROUP_INFO, the digest of the writers that wrote
// in the set.
//
// Subscriber side (here): each reader still gathers its writer's part of a set
// (coherent.go); an ended part goes to the subscriber's groupSets, which holds it until
// the set is complete and then inserts all its parts in group sequence order, with the
// reads of all their readers held off; while an access (BeginAccess/EndAccess) is open,
// that waits for EndAccess, so an access sees all of a set or none of it. A set is
// complete when the writers whose part ended, with some of the writers of that
// participant whose topics the subscriber does not read, are the set's writerSet (its
// digest). Sets of one remote participant are inserted in the order of their numbers. A
// set is dropped whole, its changes counted in SAMPLE_LOST, when a part is broken
// (coherent.go), when a writer may have lost a change of it (a loss reported before a
// change numbered after the set's begin, that writer's part of the set not ended; the
// first change a reader gets of a writer counts as such a loss) or when the writer of a
// part still open is no longer matched.

// groupDigest is the GroupDigest_t of a set of writers: the first four octets of the MD5
// of their entity ids in increasing order, four octets each as on the wire. It sorts ids.
func groupDigest(ids []wire.EntityID) uint32 {
	slices.SortFunc(ids, func(a, b wire.EntityID) int { return cmp.Compare(a.Uint32(), b.Uint32()) })
	b := make([]byte, 0, 4*len(ids))
	for _, id := range ids {
		b = binary.BigEndian.AppendUint32(b, id.Uint32())
	}
	sum := md5.Sum(b)
	return binary.BigEndian.Uint32(sum[:4])
}

// knownWriters are the remote writers discovery announced, with their topics, by
// participant. Its lock is taken last.
type knownWriters struct {
	mu sync.Mutex
	m  map[wire.GuidPrefix]map[wire.GUID]string
}

func (k *knownWriters) add(w wire.GUID, topic string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.m == nil {
		k.m = map[wire.GuidPrefix]map[wire.GUID]string{}
	}
	ws := k.m[w.Prefix]
	if ws == nil {
		ws = map[wire.GUID]string{}
		k.m[w.Prefix] = ws
	}
	ws[w] = topic
}

// others appends to dst the writers of participant p whose topic is not in topics.
func (k *knownWriters) others(p wire.GuidPrefix, topics map[string]int, dst []wire.GUID) []wire.GUID {
	k.mu.Lock()
	defer k.mu.Unlock()
	for w, t := range k.m[p] {
		if topics[t] == 0 {
			dst = append(dst, w)
		}
	}
	return dst
}

// maxUnread bounds the writers a subscriber does not read whose combinations it tries
// to explain a set's writerSet with (2^maxUnread digests).
const maxUnread = 10

// maxGroupSets bounds the sets held of one remote participant: beyond, the oldest is
// dropped (a set that cannot complete must not hold the later ones back for ever).
const maxGroupSets = 256

// groupSets holds back a coherent subscriber's group coherent sets.
type groupSets struct {
	known   *knownWriters // the participant's
	mu      sync.Mutex
	topics  map[string]int // the topics of the subscriber's coherent readers, counted
	sources map[wire.GuidPrefix]*groupSource
	access  int      // open accesses (BeginAccess)
	queued  []func() // insertions waiting for the end of the access
}

// groupSource is what a subscriber holds of one remote participant's groups.
type groupSource struct {
	prefix wire.GuidPrefix
	sets   []*groupSet // by number
	done   wire.SequenceNumber
}

// groupSet is a group coherent set held back.
type groupSet struct {
	id        wire.SequenceNumber
	parts     map[wire.GUID]*groupPart
	writerSet uint32
	hasSet    bool
	end       wire.SequenceNumber // the lowest group number of an end marker (0: none yet)
	broken    bool
	after     []heldSample // changes outside sets that followed a part, in order
}

// groupPart is a writer's ended part of a set.
type groupPart struct {
	cr      *coherentReader
	samples []rtps.Sample
	n       int // changes, whether held or not (broken)
}

// heldSample is a change held back behind a set.
type heldSample struct {
	cr *coherentReader
	s  rtps.Sample
}

func newGroupSets(known *knownWriters) *groupSets {
	return &groupSets{known: known, sources: map[wire.GuidPrefix]*groupSource{}, topics: map[string]int{}}
}

// reads counts a reader of topic made (delta 1) or deleted (-1) in the subscriber.
func (g *groupSets) reads(topic string, delta int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.topics[topic] += delta
	if g.topics[topic] <= 0 {
		delete(g.topics, topic)
	}
}

func (g *groupSets) source(p wire.GuidPrefix) *groupSource {
	src := g.sources[p]
	if src == nil {
		src = &groupSource{prefix: p}
		g.sources[p] = src
	}
	return src
}

// breakSet drops the set group of w's participant: a part of it is lost.
func (g *groupSets) breakSet(w wire.GUID, group wire.SequenceNumber) {
	g.mu.Lock()
	defer g.mu.Unlock()
	src := g.source(w.Prefix)
	if set := src.find(group, true); set != nil {
		set.broken = true
	}
	g.flush(src)
}

// lostBefore takes in a loss of changes of w: every set held whose number is below
// limit and where w has no ended part may have lost them.
func (g *groupSets) lostBefore(w wire.GUID, limit wire.SequenceNumber) {
	g.mu.Lock()
	defer g.mu.Unlock()
	src := g.source(w.Prefix)
	for _, set := range src.sets {
		if set.id < limit && set.parts[w] == nil {
			set.broken = true
		}
	}
	g.flush(src)
}

// find returns the set numbered id held, created when add and not already gone.
func (src *groupSource) find(id wire.SequenceNumber, add bool) *groupSet {
	i, ok := slices.BinarySearchFunc(src.sets, id, func(s *groupSet, id wire.SequenceNumber) int { return cmp.Compare(s.id, id) })
	if ok {
		return src.sets[i]
	}
	if !add || id <= src.done {
		return nil
	}
	set := &groupSet{id: id, parts: map[wire.GUID]*groupPart{}}
	src.sets = slices.Insert(src.sets, i, set)
	if len(src.sets) > maxGroupSets {
		src.sets[0].broken = true
	}
	return set
}

// partEnded takes in the ended part of writer w of the group set its changes carry;
// end is the change that ended it (its end marker, or a later change).
func (g *groupSets) partEnded(cr *coherentReader, w wire.GUID, cs *coherentSet, broken bool, end *rtps.Sample) {
	g.mu.Lock()
	defer g.mu.Unlock()
	src := g.source(w.Prefix)
	set := src.find(cs.group, true)
	if set == nil { // the set is gone: inserted without this part, or dropped
		cr.lost(uint64(len(cs.samples)))
		return
	}
	part := &groupPart{cr: cr, n: len(cs.samples)}
	if broken {
		set.broken = true
	} else {
		part.samples = cs.samples
	}
	set.parts[w] = part
	if gi := end.Group; end.Coherent == wire.SequenceNumberUnknown && gi.Coherent == cs.group && gi.HasWriterSet {
		set.writerSet, set.hasSet = gi.WriterSet, true
		if set.end == 0 || (gi.SN != 0 && gi.SN < set.end) {
			set.end = gi.SN
		}
	}
	g.flush(src)
}

// after holds back s, a change of a writer outside sets, behind the last set held with
// a part of that writer, and reports whether it did (false: deliver it now).
func (g *groupSets) after(cr *coherentReader, s *rtps.Sample) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	src := g.sources[s.Writer.Prefix]
	if src == nil {
		return false
	}
	for i := len(src.sets) - 1; i >= 0; i-- {
		if set := src.sets[i]; set.parts[s.Writer] != nil {
			h := heldSample{cr: cr, s: *s}
			h.s.Payload = slices.Clone(s.Payload)
			set.after = append(set.after, h)
			return true
		}
	}
	return false
}

// complete reports whether nothing more of the set can come to the subscriber: the
// writers whose part ended, with some of the writers of that participant whose topics
// the subscriber does not read (their parts never come), are the set's writerSet.
// Writers of its topics not matched (yet) are not among those: their parts may come.
func (g *groupSets) complete(p wire.GuidPrefix, set *groupSet) bool {
	if !set.hasSet {
		return false
	}
	ids := make([]wire.EntityID, 0, len(set.parts))
	for w := range set.parts {
		ids = append(ids, w.Entity)
	}
	if groupDigest(slices.Clone(ids)) == set.writerSet {
		return true
	}
	var unread []wire.GUID
	for _, w := range g.known.others(p, g.topics, nil) {
		if set.parts[w] == nil {
			unread = append(unread, w)
		}
	}
	if len(unread) > maxUnread {
		return false // held until dropped (maxGroupSets)
	}
	for mask := 1; mask < 1<<len(unread); mask++ {
		with := slices.Clone(ids)
		for i, w := range unread {
			if mask&(1<<i) != 0 {
				with = append(with, w.Entity)
			}
		}
		if groupDigest(with) == set.writerSet {
			return true
		}
	}
	return false
}

// flush inserts or drops the sets of src that are ready, in order.
func (g *groupSets) flush(src *groupSource) {
	for len(src.sets) > 0 {
		set := src.sets[0]
		if !set.broken && !g.complete(src.prefix, set) {
			return
		}
		src.sets = src.sets[1:]
		src.done = set.id
		if set.broken {
			g.drop(set)
		} else {
			g.insert(set)
		}
	}
}

// drop counts a broken set's changes lost; the changes that followed it still come.
func (g *groupSets) drop(set *groupSet) {
	for _, part := range set.parts {
		part.cr.lost(uint64(part.n))
	}
	g.run(func() { deliverHeld(set.after) })
}

// insert puts a complete set into its readers' caches in group sequence order (the
// order its publisher wrote it, across readers), with the reads of all those readers
// held off meanwhile, so that each reader shows its part at once. Only insertions lock
// several readers, all under g.mu: they cannot deadlock one another.
func (g *groupSets) insert(set *groupSet) {
	g.run(func() {
		var held []heldSample
		var readers []*coherentReader
		for _, part := range set.parts {
			for i := range part.samples {
				held = append(held, heldSample{cr: part.cr, s: part.samples[i]})
			}
			if !slices.Contains(readers, part.cr) {
				readers = append(readers, part.cr)
			}
		}
		slices.SortStableFunc(held, func(a, b heldSample) int { return cmp.Compare(a.s.Group.SN, b.s.Group.SN) })
		commitAll(readers, func() {
			deliverHeld(held) // a change a cache refuses is counted rejected there
		})
		deliverHeld(set.after)
	})
}

// commitAll runs f with the reads of all readers held off.
func commitAll(readers []*coherentReader, f func()) {
	if len(readers) == 0 {
		f()
		return
	}
	readers[0].commit(func() { commitAll(readers[1:], f) })
}

func deliverHeld(hs []heldSample) {
	for i := range hs {
		hs[i].cr.deliver(&hs[i].s)
	}
}

// run runs an insertion now, or at the end of the access open.
func (g *groupSets) run(f func()) {
	if g.access > 0 {
		g.queued = append(g.queued, f)
		return
	}
	f()
}

// begin and end open and close an access: the sets complete meanwhile are inserted at
// its end.
func (g *groupSets) begin() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.access++
}

func (g *groupSets) end() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.access == 0 {
		return
	}
	g.access--
	if g.access > 0 {
		return
	}
	q := g.queued
	g.queued = nil
	for _, f := range q {
		f()
	}
}
