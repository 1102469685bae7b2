package dds

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/qos"
)

// LIVELINESS (DDS 1.4 §2.2.3.11), watched by one livelinessMonitor per participant on
// the participant's clock, with one timer armed at the earliest expiry. A lease is the
// liveliness of one writer seen by one entity: a local writer's own (its expiry raises
// LIVELINESS_LOST) or a matched writer's seen by a reader (LIVELINESS_CHANGED, see
// DataReader.writerLiveliness). As Cyclone DDS 0.10.2 does, a lease is renewed:
//
//   - AUTOMATIC: by any traffic of the writer's participant (the engine's LastHeard,
//     looked at when the lease would lapse), by its participant messages of either
//     kind (RTPS 2.5 §8.4.13: a participant sends one every third of its shortest
//     automatic lease), by the writer's data and by its HEARTBEATs with the Liveliness
//     flag. A local AUTOMATIC writer is alive as long as its participant: it has no
//     lease, nor has a reader's view of an AUTOMATIC writer of its own participant.
//   - MANUAL_BY_PARTICIPANT: by what asserts any of the participant's writers: a write
//     or AssertLiveliness of one of its MANUAL_BY_PARTICIPANT writers and
//     DomainParticipant.AssertLiveliness, which send a MANUAL_LIVELINESS_UPDATE
//     participant message. A reader renews the writers of a remote participant
//     together (a leaseGroup) on such a message, on data of any of the participant's
//     writers, and on a HEARTBEAT with the Liveliness flag of one of them.
//   - MANUAL_BY_TOPIC: by a write or AssertLiveliness of that writer, which sends a
//     HEARTBEAT with the Liveliness flag.
//
// An infinite lease_duration is never watched.

// lease is the liveliness of one writer as one entity sees it.
type lease struct {
	kind   qos.LivelinessKind
	dur    time.Duration
	writer wire.GUID
	// group, for MANUAL_BY_PARTICIPANT, is the writer's participant's: its assertions
	// renew the lease too.
	group *leaseGroup
	last  atomic.Int64 // unix nanoseconds of the writer's own last assertion
	alive atomic.Bool  // written under the monitor's lock
	// change is told of each transition, under the monitor's lock: it must not call
	// back into the monitor.
	change func(alive bool)
}

// leaseGroup is what asserts all the MANUAL_BY_PARTICIPANT writers of one participant
// at once.
type leaseGroup struct {
	last atomic.Int64 // unix nanoseconds of the participant's last assertion
	down atomic.Int32 // its leases that are not alive
	refs int          // under the monitor's lock: its matched writers and leases
}

// expiry returns when l lapses without a further assertion.
func (l *lease) expiry() int64 {
	last := l.last.Load()
	if l.group != nil {
		last = max(last, l.group.last.Load())
	}
	return last + int64(l.dur)
}

// livelinessMonitor holds the leases of a participant's entities.
type livelinessMonitor struct {
	clk clock
	// send writes a MANUAL_LIVELINESS_UPDATE participant message; heard returns when
	// a remote participant was last heard from (zero: unknown).
	send  func()
	heard func(wire.GuidPrefix) time.Time
	// self is the participant's own group: its writers and its readers' views of them.
	self leaseGroup

	mu     sync.Mutex
	leases map[*lease]struct{}
	groups map[wire.GuidPrefix]*leaseGroup // of remote participants
	// The MANUAL_LIVELINESS_UPDATE messages: at most one per gap (a quarter of the
	// shortest lease of the participant's manual-by-participant writers), the
	// assertions in between sent together at sentAt + gap.
	manualWriters map[*lease]struct{}
	gap           time.Duration // 0: no such writer, nothing to send
	sentAt        time.Time
	pending       atomic.Bool // a message is due at sentAt + gap; set under mu
	at            time.Time   // when the armed timer fires
	stop          func() bool // stops it; nil when none is armed
	closed        bool
}

func newLivelinessMonitor(clk clock, send func(), heard func(wire.GuidPrefix) time.Time) *livelinessMonitor {
	return &livelinessMonitor{
		clk: clk, send: send, heard: heard,
		leases: map[*lease]struct{}{}, groups: map[wire.GuidPrefix]*leaseGroup{}, manualWriters: map[*lease]struct{}{},
	}
}

// join returns the group of the remote participant prefix, for a writer of it that a
// reader matched; leave when it is unmatched.
func (m *livelinessMonitor) join(prefix wire.GuidPrefix) *leaseGroup {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.joinLocked(prefix)
}

func (m *livelinessMonitor) joinLocked(prefix wire.GuidPrefix) *leaseGroup {
	g := m.groups[prefix]
	if g == nil {
		g = &leaseGroup{}
		m.groups[prefix] = g
	}
	g.refs++
	return g
}

// leave drops a reference to the group of prefix taken with join.
func (m *livelinessMonitor) leave(prefix wire.GuidPrefix) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.leaveLocked(prefix)
}

func (m *livelinessMonitor) leaveLocked(prefix wire.GuidPrefix) {
	if g := m.groups[prefix]; g != nil {
		if g.refs--; g.refs <= 0 {
			delete(m.groups, prefix)
		}
	}
}

// watch returns a lease of writer, alive, with kind and dur, or nil when there is
// nothing to watch (an infinite lease). own says the lease is a local writer's own;
// self that the writer belongs to the participant.
func (m *livelinessMonitor) watch(writer wire.GUID, lv qos.Liveliness, own, self bool, change func(bool)) *lease {
	if lv.LeaseDuration <= 0 || lv.LeaseDuration >= qos.Infinite || (self && lv.Kind == qos.Automatic) {
		return nil
	}
	l := &lease{kind: lv.Kind, dur: lv.LeaseDuration, writer: writer, change: change}
	l.last.Store(m.clk.Now().UnixNano())
	l.alive.Store(true)
	m.mu.Lock()
	defer m.mu.Unlock()
	if lv.Kind == qos.ManualByParticipant {
		l.group = &m.self
		if !self {
			l.group = m.joinLocked(writer.Prefix)
		}
	}
	if m.closed {
		return l
	}
	m.leases[l] = struct{}{}
	if own && lv.Kind == qos.ManualByParticipant {
		m.manualWriters[l] = struct{}{}
		m.setGapLocked()
	}
	m.armLocked(time.Unix(0, l.expiry()))
	return l
}

// forget stops watching l and reports whether it was alive.
func (m *livelinessMonitor) forget(l *lease) bool {
	if l == nil {
		return true
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.leases[l]; !ok {
		return true
	}
	delete(m.leases, l)
	delete(m.manualWriters, l)
	m.setGapLocked()
	alive := l.alive.Load()
	if !alive && l.group != nil {
		l.group.down.Add(-1)
	}
	if l.group != nil && l.group != &m.self {
		m.leaveLocked(l.writer.Prefix)
	}
	l.alive.Store(true) // no transition after this
	return alive
}

// renew asserts the writer of l now. It allocates nothing: the data path calls it.
func (m *livelinessMonitor) renew(l *lease, now time.Time) {
	if l == nil {
		return
	}
	l.last.Store(now.UnixNano())
	if !l.alive.Load() {
		m.mu.Lock()
		m.reviveLocked(l)
		m.mu.Unlock()
	}
}

// writerAsserted renews every lease of the local writer g now: its own and its
// participant's readers' views of it, which need not hear its HEARTBEAT (not a path
// taken per sample).
func (m *livelinessMonitor) writerAsserted(g wire.GUID, now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for l := range m.leases {
		if l.writer == g {
			l.last.Store(now.UnixNano())
			m.reviveLocked(l)
		}
	}
}

// groupAsserted renews the MANUAL_BY_PARTICIPANT writers of group g now (data of one
// of its participant's writers); it allocates nothing while they are all alive.
func (m *livelinessMonitor) groupAsserted(g *leaseGroup, now time.Time) {
	if g == nil {
		return
	}
	g.last.Store(now.UnixNano())
	if g.down.Load() > 0 {
		m.mu.Lock()
		m.reviveGroupLocked(g)
		m.mu.Unlock()
	}
}

// reviveGroupLocked makes the leases of g alive again.
func (m *livelinessMonitor) reviveGroupLocked(g *leaseGroup) {
	for l := range m.leases {
		if l.group == g {
			m.reviveLocked(l)
		}
	}
}

// reviveLocked makes l alive again (when it is watched and not alive).
func (m *livelinessMonitor) reviveLocked(l *lease) {
	if _, ok := m.leases[l]; !ok || l.alive.Load() {
		return
	}
	l.alive.Store(true)
	if l.group != nil {
		l.group.down.Add(-1)
	}
	l.change(true)
	m.armLocked(time.Unix(0, l.expiry()))
}

// assertManual is a MANUAL_BY_PARTICIPANT assertion by the participant (one of its
// writers of that kind, or the participant itself): it renews those writers and sends
// a MANUAL_LIVELINESS_UPDATE, or has one sent when the gap since the last is over. It
// takes no lock while a message is pending and every lease alive: a writer that
// writes often costs one lock per gap.
func (m *livelinessMonitor) assertManual() {
	now := m.clk.Now()
	m.self.last.Store(now.UnixNano())
	if m.pending.Load() && m.self.down.Load() == 0 {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.self.down.Load() > 0 {
		m.reviveGroupLocked(&m.self)
	}
	if m.gap == 0 || m.closed || m.pending.Load() {
		return
	}
	if now.Sub(m.sentAt) >= m.gap {
		m.sentAt = now
		m.send()
		return
	}
	m.pending.Store(true)
	m.armLocked(m.sentAt.Add(m.gap))
}

// setGapLocked sets the least time between two MANUAL_LIVELINESS_UPDATE messages: a
// quarter of the shortest lease of the participant's MANUAL_BY_PARTICIPANT writers; 0
// when it has none (nothing to send).
func (m *livelinessMonitor) setGapLocked() {
	var d time.Duration
	for l := range m.manualWriters {
		if d == 0 || l.dur < d {
			d = l.dur
		}
	}
	m.gap = d / 4
}

// remoteAsserted renews, on a participant message of the participant prefix, its
// AUTOMATIC writers and, for a MANUAL_LIVELINESS_UPDATE, its MANUAL_BY_PARTICIPANT
// writers.
func (m *livelinessMonitor) remoteAsserted(prefix wire.GuidPrefix, manual bool) {
	now := m.clk.Now().UnixNano()
	m.mu.Lock()
	defer m.mu.Unlock()
	if g := m.groups[prefix]; g != nil && manual {
		g.last.Store(now)
		m.reviveGroupLocked(g)
	}
	for l := range m.leases {
		if l.writer.Prefix == prefix && l.kind == qos.Automatic {
			l.last.Store(now)
			m.reviveLocked(l)
		}
	}
}

// armLocked arms the timer for at unless it fires before.
func (m *livelinessMonitor) armLocked(at time.Time) {
	if m.closed || (m.stop != nil && !m.at.After(at)) {
		return
	}
	if m.stop != nil {
		m.stop()
	}
	m.at, m.stop = at, m.clk.AfterFunc(at.Sub(m.clk.Now()), m.fire)
}

// fire lets the leases due lapse, sends a MANUAL_LIVELINESS_UPDATE due, and arms the
// timer for what comes next.
func (m *livelinessMonitor) fire() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return
	}
	m.stop = nil
	now := m.clk.Now()
	var next int64
	for l := range m.leases {
		if !l.alive.Load() {
			continue
		}
		exp := m.expiryLocked(l, now)
		if exp <= now.UnixNano() {
			l.alive.Store(false)
			if l.group != nil {
				l.group.down.Add(1)
			}
			l.change(false)
			continue
		}
		if next == 0 || exp < next {
			next = exp
		}
	}
	if m.pending.Load() {
		if due := m.sentAt.Add(m.gap); !due.After(now) {
			m.sentAt = now
			m.pending.Store(false)
			m.send()
		} else if next == 0 || due.UnixNano() < next {
			next = due.UnixNano()
		}
	}
	if next != 0 {
		m.armLocked(time.Unix(0, next))
	}
}

// expiryLocked is l's expiry; for a remote AUTOMATIC writer whose lease would lapse,
// the traffic heard from its participant since renews it.
func (m *livelinessMonitor) expiryLocked(l *lease, now time.Time) int64 {
	exp := l.expiry()
	if exp > now.UnixNano() || l.kind != qos.Automatic || m.heard == nil {
		return exp
	}
	if t := m.heard(l.writer.Prefix); !t.IsZero() && t.UnixNano() > l.last.Load() {
		l.last.Store(t.UnixNano())
		exp = l.expiry()
	}
	return exp
}

// close stops the monitor.
func (m *livelinessMonitor) close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	if m.stop != nil {
		m.stop()
		m.stop = nil
	}
}
