package transport

import (
	"runtime"
	"sync/atomic"
	"time"

	"github.com/ddsgo/ddsgo/internal/wire"
)

// DefaultPollWindow is the longest an adaptive busy poll waits for a reply
// (Poll). Replies that take longer are waited for in the netpoller.
const DefaultPollWindow = 100 * time.Microsecond

// Poll is the adaptive busy poll of a participant's user-traffic sockets
// (SocketOptions.Poll): a read that finds its socket empty keeps reading it,
// yielding the processor between tries, while a reply is likely to come
// soon, so that a request/reply exchange skips the netpoller's wake-up
// (3-14 µs per datagram on a VM; docs/benchmarks.md). Like KVM's halt
// polling, it polls only where polling has paid lately, which costs no CPU
// in the patterns where it would not:
//
//   - The participant is in a conversation: it sent user data (a DATA or
//     DATA_FRAG of a user writer) within the window. A subscriber that only
//     receives, and so a stream at any rate, never polls.
//   - The socket's user data has lately come back within the window: each
//     socket keeps a poll length that the last user-data datagram sets, to
//     the window when it came that soon after the socket went empty and to
//     zero when it did not. A 1 kHz request/reply, whose requests come 1 ms
//     apart, stops polling after its first gap; datagrams without user
//     data (acknowledgements, heartbeats) found by a poll halve it.
//
// What remains is an exchange between two participants faster than one
// datagram per window each way (10 kHz for DefaultPollWindow), a
// request/reply at full rate above all: there each side keeps a processor
// busy, for round trips about half as long (docs/benchmarks.md).
//
// The zero Poll never polls. Its methods may be called concurrently.
type Poll struct {
	window   int64        // nanoseconds; zero: none
	lastSend atomic.Int64 // monoNow of the last user-data datagram sent
}

// NewPoll returns the adaptive poll with the given window (at most that
// long after the socket goes empty); zero or negative: none, nil.
func NewPoll(window time.Duration) *Poll {
	if window <= 0 {
		return nil
	}
	return &Poll{window: int64(window)}
}

// Sent notes a datagram sent: one with user data starts a conversation.
func (p *Poll) Sent(b []byte) {
	if p != nil && hasUserData(b) {
		p.lastSend.Store(monoNow())
	}
}

// engaged reports whether a socket that went empty at now may poll.
func (p *Poll) engaged(now int64) bool {
	return p != nil && p.window > 0 && now-p.lastSend.Load() <= p.window
}

// pollState is one socket's part of a busy poll: the poll length the
// socket's recent traffic earned, and the read under way.
type pollState struct {
	fixed   int64 // SocketOptions.BusyPoll, ns: poll this long after every datagram
	auto    *Poll
	length  int64 // the adaptive poll's current length, ns
	emptyAt int64 // monoNow when the read under way found the socket empty; 0: it did not
	until   int64 // the end of the read's poll; 0: none
	parked  bool  // the read under way gave up polling and waited in the netpoller
	procs1  bool  // GOMAXPROCS was 1 when the poll started
}

// empty starts or continues a read that found the socket empty at now and
// reports whether it should try again (poll) rather than wait.
func (s *pollState) empty(now int64) bool {
	if s.emptyAt == 0 {
		s.emptyAt = now
		switch {
		case s.fixed > 0:
			s.until = now + s.fixed
		case s.length > 0 && s.auto.engaged(now):
			s.until = now + s.length
		}
		if s.until != 0 {
			s.procs1 = runtime.GOMAXPROCS(0) == 1 // takes the scheduler's lock: only for a poll
		}
	}
	if now < s.until {
		return true
	}
	s.parked = true
	return false
}

// yieldP reports whether a poll under way at now should yield its Go processor
// between tries: always with GOMAXPROCS 1, where nothing else would run; otherwise
// only after it has held the processor for DefaultPollWindow. Yielding it at every
// try with GOMAXPROCS 2 made the poll bounce between processors, keeping the
// process's other thread awake too, and the round trip went from 36 to 75 µs p50
// (16 B, ddsping against ddsping, two vCPUs) where keeping the processor made it 17.
func (s *pollState) yieldP(now int64) bool {
	return s.procs1 || now-s.emptyAt > int64(DefaultPollWindow)
}

// got ends a read with its datagram b and reports whether a poll found it;
// now reads the clock (monoNow), only when the read had found the socket empty.
func (s *pollState) got(b []byte, now func() int64) (polled bool) {
	if s.emptyAt == 0 {
		return false // the socket had more: no poll, nothing learned
	}
	polled = s.until != 0 && !s.parked
	if s.auto != nil {
		switch {
		case hasUserData(b):
			if now()-s.emptyAt <= s.auto.window {
				s.length = s.auto.window
			} else {
				s.length = 0
			}
		case polled:
			s.length /= 2
		}
	}
	s.reset()
	return polled
}

// off reports that the socket never polls (SocketOptions.BusyPoll negative): a
// read that finds it empty need not read the clock.
func (s *pollState) off() bool { return s.fixed == 0 && s.auto == nil }

// reset ends a read without a datagram (an error).
func (s *pollState) reset() { s.emptyAt, s.until, s.parked = 0, 0, false }

// userWriterKind masks the kind of an entity id: zero in these bits is a
// user-defined entity, neither built-in nor vendor-specific.
const userWriterKind = wire.EntityKindBuiltinFlag | wire.EntityKindVendorFlag

// hasUserData reports whether the RTPS message b holds a DATA or DATA_FRAG
// submessage of a user-defined writer. It looks only at submessage headers
// and writer ids, so a malformed message is at worst misjudged.
func hasUserData(b []byte) bool {
	const (
		header     = 20 // RTPS message header
		writerKind = 15 // from a DATA(_FRAG)'s start: header 4, flags 2, to inline QoS 2, reader 4, writer key 3
	)
	for i := header; i+4 <= len(b); {
		k, le := wire.SubmessageKind(b[i]), b[i+1]&wire.FlagEndianness != 0
		n := int(b[i+2])<<8 | int(b[i+3])
		if le {
			n = int(b[i+3])<<8 | int(b[i+2])
		}
		if (k == wire.KindData || k == wire.KindDataFrag) && i+writerKind < len(b) && b[i+writerKind]&userWriterKind == 0 {
			return true
		}
		if n == 0 {
			return false // the last submessage
		}
		i += 4 + n
	}
	return false
}

// monoEpoch anchors monoNow.
var monoEpoch = time.Now()

// monoNow returns a monotonic clock in nanoseconds, never zero.
func monoNow() int64 { return int64(time.Since(monoEpoch)) + 1 }
