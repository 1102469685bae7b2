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
// DataReader.writerLiveliness). A lease is renewed:
//
//   - AUTOMATIC: by every participant message of the writer's participant (RTPS 2.5
//     §8.4.13: the participant sends one every third of its shortest automatic lease),
//     by the writer's data and by its HEARTBEATs with the Liveliness flag. A local
//     AUTOMATIC writer is alive as long as its participant: it has no lease, and
//     neither has a reader's view of an AUTOMATIC writer of its own participant.
//   - MANUAL_BY_PARTICIPANT: by a write or AssertLiveliness of any of the participant's
//     MANUAL_BY_PARTICIPANT writers and by DomainParticipant.AssertLiveliness, which
//     send a MANUAL_LIVELINESS_UPDATE participant message; a reader renews the writers
//     of a participant on such a message, and each writer on its own data and
//     HEARTBEATs with the Liveliness flag (as Cyclone DDS does).
//   - MANUAL_BY_TOPIC: by a write or AssertLiveliness of that writer, which sends a
//     HEARTBEAT with the Liveliness flag.
//
// An infinite lease_duration is never watched.

// lease is the liveliness of one writer as one entity sees it.
type lease struct {
	kind   qos.LivelinessKind
	dur    time.Duration
	writer wire.GUID
	// shared, when not nil, is the last MANUAL_BY_PARTICIPANT assertion of the
	// participant itself (livelinessMonitor.manual): for its own manual-by-participant
	// writers and the readers' views of them.
	shared *atomic.Int64
	last   atomic.Int64 // unix nanoseconds of the last assertion
	alive  atomic.Bool  // written under the monitor's lock
	// change is told of each transition, under the monitor's lock: it must not call
	// back into the monitor.
	change func(alive bool)
}

// expiry returns when l lapses without a further assertion.
func (l *lease) expiry() int64 {
	last := l.last.Load()
	if l.shared != nil {
		last = max(last, l.shared.Load())
	}
	return last + int64(l.dur)
}

// livelinessMonitor holds the leases of a participant's entities.
type livelinessMonitor struct {
	clk clock
	// send writes a MANUAL_LIVELINESS_UPDATE participant message.
	send func()
	// manual is the unix nanoseconds of the participant's last MANUAL_BY_PARTICIPANT
	// assertion; down counts the leases sharing it that are not alive.
	manual atomic.Int64
	down   atomic.Int32

	mu     sync.Mutex
	leases map[*lease]struct{}
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

func newLivelinessMonitor(clk clock, send func()) *livelinessMonitor {
	return &livelinessMonitor{clk: clk, send: send, leases: map[*lease]struct{}{}, manualWriters: map[*lease]struct{}{}}
}

// watch returns a lease of writer, alive, with kind and dur, or nil when there is
// nothing to watch (an infinite lease). own says the lease is a local writer's own;
// self that the writer belongs to the participant.
func (m *livelinessMonitor) watch(writer wire.GUID, lv qos.Liveliness, own, self bool, change func(bool)) *lease {
	if lv.LeaseDuration <= 0 || lv.LeaseDuration >= qos.Infinite || (self && lv.Kind == qos.Automatic) {
		return nil
	}
	l := &lease{kind: lv.Kind, dur: lv.LeaseDuration, writer: writer, change: change}
	if self && lv.Kind == qos.ManualByParticipant {
		l.shared = &m.manual
	}
	l.last.Store(m.clk.Now().UnixNano())
	l.alive.Store(true)
	m.mu.Lock()
	defer m.mu.Unlock()
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
	delete(m.leases, l)
	delete(m.manualWriters, l)
	m.setGapLocked()
	alive := l.alive.Load()
	if !alive && l.shared != nil {
		m.down.Add(-1)
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

// reviveLocked makes l alive again (when it is watched and not alive).
func (m *livelinessMonitor) reviveLocked(l *lease) {
	if _, ok := m.leases[l]; !ok || l.alive.Load() {
		return
	}
	l.alive.Store(true)
	if l.shared != nil {
		m.down.Add(-1)
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
	m.manual.Store(now.UnixNano())
	if m.pending.Load() && m.down.Load() == 0 {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.down.Load() > 0 {
		for l := range m.leases {
			if l.shared != nil {
				m.reviveLocked(l)
			}
		}
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
	for l := range m.leases {
		if l.writer.Prefix != prefix || l.shared != nil {
			continue
		}
		if l.kind == qos.Automatic || (manual && l.kind == qos.ManualByParticipant) {
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
		exp := l.expiry()
		if exp <= now.UnixNano() {
			l.alive.Store(false)
			if l.shared != nil {
				m.down.Add(1)
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
