package dds

import (
	"cmp"
	"context"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/ddsgo/ddsgo/internal/durable"
	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/qos"
)

// persistenceEnv is the environment variable that gives the directory of the
// participants' PERSISTENT store when PersistenceDir does not.
const persistenceEnv = "DDSGO_PERSISTENCE_DIR"

// storeLockWait is how long opening the store waits for another process to release it.
const storeLockWait = 2 * time.Second

// PersistenceDir makes the participant keep the data of its PERSISTENT writers in an
// on-disk store in directory dir (created if needed; one process at a time may use it).
// By default the directory is the value of the environment variable
// DDSGO_PERSISTENCE_DIR; with neither, PERSISTENT writers keep their data in memory as
// TRANSIENT writers do. See docs/qos.md, "Durability".
func PersistenceDir(dir string) Option {
	return onlyFor("PersistenceDir", isParticipant, func(s *settings) { s.persistDir = dir })
}

// durabilityService is a participant's durability service: it keeps the TRANSIENT and
// PERSISTENT writers deleted by the application (their RTPS writer, same GUID and
// history, still announced and serving late joiners) until their data may be cleaned
// up, and it holds the PERSISTENT store.
type durabilityService struct {
	p   *DomainParticipant
	dir string

	mu       sync.Mutex
	store    *durable.Store
	open     map[string]bool                // identities of the PERSISTENT writers open
	retained map[*durableWriter]func() bool // the deleted writers kept, with their cleanup timer's stop
	closed   bool
}

func newDurabilityService(p *DomainParticipant, dir string) *durabilityService {
	if dir == "" {
		dir = os.Getenv(persistenceEnv)
	}
	return &durabilityService{p: p, dir: dir, open: map[string]bool{}, retained: map[*durableWriter]func() bool{}}
}

// durableWriter is the durability service's side of one TRANSIENT or PERSISTENT writer:
// what its history holds (to know when its data may be cleaned up) and, for a
// PERSISTENT writer with a store, the stored history. Every change of the writer goes
// through write, under mu, so that the store sees the changes in SN order.
type durableWriter struct {
	svc     *durabilityService
	id      string // topic and type names
	cleanup time.Duration

	mu    sync.Mutex
	ew    engineWriter
	hist  *durable.History
	topic *durable.Topic // PERSISTENT with a store; nil otherwise
	// persistent: a PERSISTENT writer with a store, open in svc.open under id.
	persistent bool
	drop       []wire.SequenceNumber
	// markers are the ends of the coherent sets the writer wrote (coherent.go), kept
	// while a change of their set is: they are not samples, so they are kept beside the
	// history, not in it (they would take an instance and a sample of its limits).
	markers []setEnd
}

// setEnd is the end marker (sn) of a writer's coherent set that began at start.
type setEnd struct{ start, sn wire.SequenceNumber }

// durableID is the identity of a PERSISTENT writer in the store: its topic and type
// names. A restarted application's writer of the same topic and type continues the
// stored history and its sequence numbers.
func durableID(topic, typeName string) string { return topic + "\x00" + typeName }

// openWriter prepares the durability of a writer of topic and type with QoS q before
// its RTPS writer is created: nil for a VOLATILE or TRANSIENT_LOCAL writer. For a
// PERSISTENT writer with a store, cfg gets the stored history to restart with.
func (s *durabilityService) openWriter(topic, typeName string, q *qos.DataWriterQos, cfg *endpointConfig) (*durableWriter, error) {
	if q.Durability.Kind < qos.Transient {
		return nil, nil
	}
	hc := serviceHistory(&q.DurabilityService)
	d := &durableWriter{svc: s, id: durableID(topic, typeName), cleanup: q.DurabilityService.ServiceCleanupDelay, hist: durable.NewHistory(hc)}
	if q.Durability.Kind < qos.Persistent || s.dir == "" {
		return d, nil
	}
	s.mu.Lock()
	if s.open[d.id] {
		s.mu.Unlock()
		return nil, errorf(ErrPreconditionNotMet, "writer of %s: another PERSISTENT writer of this topic and type is open", topic)
	}
	s.open[d.id], d.persistent = true, true
	// A deleted writer of this identity still kept: the new one continues its
	// stored history, so it takes over, once the old one is withdrawn (else a late
	// joiner would get the samples twice).
	var old []*durableWriter
	for r := range s.retained {
		if r.id == d.id && r.topic != nil {
			if stop := s.retained[r]; stop != nil {
				stop()
			}
			delete(s.retained, r)
			old = append(old, r)
		}
	}
	s.mu.Unlock()
	for _, r := range old {
		r.release(false)
	}
	if err := s.restore(d, hc, cfg); err != nil {
		d.abort()
		return nil, wrapErr(ErrError, err, "writer of "+topic)
	}
	return d, nil
}

// restore opens the store if needed and loads the stored history of d into cfg.
func (s *durabilityService) restore(d *durableWriter, hc rtps.HistoryConfig, cfg *endpointConfig) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errorf(ErrAlreadyDeleted, "the participant is closed")
	}
	if s.store == nil {
		st, err := durable.Open(s.dir, storeLockWait)
		if err != nil {
			return err
		}
		s.store = st
	}
	t, changes, last, err := s.store.Topic(d.id, hc)
	if err != nil {
		return err
	}
	d.topic, d.hist = t, t.History()
	cfg.Restore, cfg.RestoreLastSN = changes, last
	return nil
}

// write hands c to the RTPS writer and, for a PERSISTENT writer with a store, stores it
// before returning. A change the RTPS writer took but the store could not keep is
// reported as an error (it was sent, it is not durable).
func (d *durableWriter) write(ctx context.Context, c rtps.Change) (wire.SequenceNumber, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	var stored []byte
	if d.topic != nil && len(c.Payload) > 0 {
		stored = append([]byte(nil), c.Payload...) // the history owns c.Payload once written
	}
	sn, err := d.ew.Write(ctx, c)
	if err != nil {
		return sn, err
	}
	c.SN, c.Payload = sn, stored
	if d.topic == nil {
		d.drop = d.hist.Add(sn, c.KeyHash, c.Kind, d.drop[:0])
		return sn, nil
	}
	if err := d.topic.Append(&c); err != nil {
		return sn, wrapErr(ErrError, err, "storing a PERSISTENT change")
	}
	return sn, nil
}

// writeMarker hands the RTPS writer the end marker c of the coherent set that began at
// start, and keeps it beside the history while the history keeps a change of the set.
// The store does not keep it: restored changes are not tagged with their sets.
func (d *durableWriter) writeMarker(ctx context.Context, c rtps.Change, start wire.SequenceNumber) (wire.SequenceNumber, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	sn, err := d.ew.Write(ctx, c)
	if err != nil {
		return sn, err
	}
	d.markers = slices.DeleteFunc(d.markers, func(m setEnd) bool { return !d.keepsSetLocked(m) })
	d.markers = append(d.markers, setEnd{start: start, sn: sn})
	return sn, nil
}

// keepsSetLocked reports whether the history still holds a change of the set m ends.
func (d *durableWriter) keepsSetLocked(m setEnd) bool {
	for sn := m.start; sn < m.sn; sn++ {
		if d.hist.Has(sn) {
			return true
		}
	}
	return false
}

// keeps reports whether the retained RTPS writer keeps the change sn: a change of the
// history, or the end of a set of which the history holds a change. d.mu is held (the
// RTPS writer calls it from Retain, which retain calls under it).
func (d *durableWriter) keeps(sn wire.SequenceNumber) bool {
	if d.hist.Has(sn) {
		return true
	}
	i, ok := slices.BinarySearchFunc(d.markers, sn, func(m setEnd, sn wire.SequenceNumber) int { return cmp.Compare(m.sn, sn) })
	return ok && d.keepsSetLocked(d.markers[i])
}

// retain keeps the RTPS writer of a deleted writer (its instances unregistered) while
// its data may serve late joiners: until every instance it holds is disposed, then
// for service_cleanup_delay. A writer whose data may go at once is closed now.
func (d *durableWriter) retain() {
	s := d.svc
	d.mu.Lock()
	if lw, ok := d.ew.(interface{ Writer() *rtps.Writer }); ok {
		lw.Writer().Retain(d.keeps) // what DURABILITY_SERVICE keeps, no more
	}
	allDisposed := d.hist.AllDisposed()
	d.mu.Unlock()
	s.mu.Lock()
	if d.persistent {
		delete(s.open, d.id)
	}
	if s.closed || (allDisposed && d.cleanup <= 0) {
		s.mu.Unlock()
		d.release(allDisposed)
		return
	}
	var stop func() bool
	if allDisposed && d.cleanup < qos.Infinite {
		stop = s.p.clk.AfterFunc(d.cleanup, func() { s.expire(d) })
	}
	s.retained[d] = stop
	s.mu.Unlock()
}

// expire drops the data of the retained writer d, its cleanup delay over.
func (s *durabilityService) expire(d *durableWriter) {
	s.mu.Lock()
	_, ok := s.retained[d]
	delete(s.retained, d)
	s.mu.Unlock()
	if ok {
		d.release(true)
	}
}

// release closes the RTPS writer of d and, when its data is cleaned up (clear), removes
// it from the store.
func (d *durableWriter) release(clear bool) {
	_ = d.ew.Close()
	if clear && d.topic != nil {
		d.mu.Lock()
		_ = d.topic.Clear()
		d.mu.Unlock()
	}
}

// close stops the cleanup timers and closes the store; the engine closes the RTPS
// writers kept.
func (s *durabilityService) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	for d, stop := range s.retained {
		if stop != nil {
			stop()
		}
		delete(s.retained, d)
	}
	if s.store != nil {
		_ = s.store.Close()
		s.store = nil
	}
}

// abort undoes openWriter when the RTPS writer could not be created.
func (d *durableWriter) abort() {
	if d == nil || !d.persistent {
		return
	}
	d.svc.mu.Lock()
	delete(d.svc.open, d.id)
	d.svc.mu.Unlock()
}

// serviceHistory is the history DURABILITY_SERVICE ds gives the durability service.
func serviceHistory(ds *qos.DurabilityService) rtps.HistoryConfig {
	return rtps.HistoryConfig{
		KeepAll: ds.HistoryKind == qos.KeepAll, Depth: int(ds.HistoryDepth),
		MaxSamples: int(ds.MaxSamples), MaxInstances: int(ds.MaxInstances),
		MaxSamplesPerInstance: int(ds.MaxSamplesPerInstance),
	}
}
