package rtps

import (
	"time"

	"github.com/ddsgo/ddsgo/internal/transport"
	"github.com/ddsgo/ddsgo/internal/wire"
)

// Sender sends complete RTPS messages. The endpoints call it with their
// lock held: Send must not call back into the endpoint, and it must not
// retain msg (nor to) after it returns.
type Sender interface {
	Send(msg []byte, to []wire.Locator)
}

// BatchSender is a Sender that also sends several messages to the same
// destinations at once (sendmmsg), as an endpoint does with the datagrams
// of a burst of changes (see msgBuilder.startBatch). scratch has room for
// len(msgs) messages and is the caller's, so that sending allocates
// nothing. Like Send, SendBatch retains nothing after it returns.
type BatchSender interface {
	Sender
	SendBatch(msgs [][]byte, to []wire.Locator, scratch []transport.Message)
}

// maxBatch is the number of datagrams an endpoint builds before it sends
// them together to a BatchSender.
const maxBatch = 8

// Defaults shared by writers and readers.
const (
	// DefaultMaxMessageSize is the largest datagram an endpoint builds,
	// Cyclone DDS's default.
	DefaultMaxMessageSize = 14720
	// DefaultFragmentSize is the DATA_FRAG fragment size, Cyclone DDS's
	// default.
	DefaultFragmentSize = 1344
	// DefaultHeartbeatPeriod is the period of a writer's HEARTBEATs while
	// a reliable reader has not acknowledged everything (Cyclone DDS: 100ms).
	DefaultHeartbeatPeriod = 100 * time.Millisecond
	// DefaultNackInterval is the least time between two ACKNACKs of a
	// reader to one writer that ask for something: the writer's
	// DefaultNackSuppression, within which it would not resend anyway.
	DefaultNackInterval = 5 * time.Millisecond
	// DefaultUnresponsiveTimeout is WriterConfig.UnresponsiveTimeout's
	// default, Cyclone DDS's (its writer considers readers that have not
	// acknowledged within 1 s of throttling non-responsive).
	DefaultUnresponsiveTimeout = time.Second
	// DefaultMaxSampleSize bounds the size of a sample a reader reassembles
	// from DATA_FRAGs: 16 MiB of data plus room for the encapsulation and
	// key.
	DefaultMaxSampleSize = 16<<20 + 64<<10
)

// infoTSLen is the size of an INFO_TS submessage with a timestamp.
const infoTSLen = 12

// msgBuilder fills datagrams with submessages for one destination and sends
// each one when it is full or when the caller flushes. Every datagram
// starts with the header and, for a directed message, INFO_DST; INFO_TS is
// added before timestamped submessages when the time changes.
type msgBuilder struct {
	hdr    wire.Header
	max    int
	out    Sender
	buf    []byte
	to     []wire.Locator
	dst    wire.GuidPrefix
	hasDst bool
	ts     wire.Time
	hasTS  bool
	base   int // length of the header part (header and INFO_DST)
	sent   int // datagrams sent, for statistics

	// In a message started with startBatch, and with a BatchSender,
	// complete datagrams wait in batch until the message is flushed or
	// maxBatch of them are ready; spare holds the buffers of a batch sent,
	// for the next datagrams. Other messages go one datagram at a time, so
	// that the receiver works on the first datagram of a fragmented sample
	// while the next ones are sent (a batch of one sample's fragments
	// lengthens its round trip by 10-25 us at 64 KiB; batches of several
	// changes raise throughput).
	multi   bool
	bs      BatchSender
	batch   [][]byte
	spare   [][]byte
	scratch []transport.Message
}

func (m *msgBuilder) init(hdr wire.Header, maxSize int, out Sender) {
	m.hdr, m.max, m.out = hdr, maxSize, out
	m.buf = make([]byte, 0, maxSize+256)
	m.bs, _ = out.(BatchSender)
}

// start begins a message for to, directed to the participant dst when
// hasDst is set. Any message in progress is flushed first.
func (m *msgBuilder) start(to []wire.Locator, dst wire.GuidPrefix, hasDst bool) {
	m.flush()
	m.to, m.dst, m.hasDst = to, dst, hasDst
	m.multi = false
	m.begin()
}

// startBatch is start for a message of several changes (a burst, repairs,
// a history), whose datagrams are sent in batches.
func (m *msgBuilder) startBatch(to []wire.Locator, dst wire.GuidPrefix, hasDst bool) {
	m.start(to, dst, hasDst)
	m.multi = m.bs != nil
}

// begin writes the header part of a new datagram.
func (m *msgBuilder) begin() {
	m.buf = m.hdr.Append(m.buf[:0])
	if m.hasDst {
		x := wire.InfoDst{GuidPrefix: m.dst}
		m.buf = x.Append(m.buf)
	}
	m.base = len(m.buf)
	m.hasTS = false
}

// reserve makes room for n more octets, sending the current datagram first
// when n would not fit. A submessage larger than a datagram goes alone.
func (m *msgBuilder) reserve(n int) {
	if len(m.buf) > m.base && len(m.buf)+n > m.max {
		m.send()
		m.begin()
	}
}

// timestamp reserves room for n octets of timestamped submessages and
// writes INFO_TS when the current datagram has another time (or none).
func (m *msgBuilder) timestamp(t wire.Time, n int) {
	if m.hasTS && m.ts == t && len(m.buf)+n <= m.max {
		return
	}
	m.reserve(n + infoTSLen)
	x := wire.InfoTS{Timestamp: t}
	m.buf = x.Append(m.buf)
	m.ts, m.hasTS = t, true
}

// room returns how many octets still fit in the current datagram.
func (m *msgBuilder) room() int { return m.max - len(m.buf) }

// send sends the current datagram if it holds any submessage, or adds it
// to the batch.
func (m *msgBuilder) send() {
	if len(m.buf) > m.base && len(m.to) > 0 {
		m.sent++
		if !m.multi {
			m.out.Send(m.buf, m.to)
		} else {
			m.batch = append(m.batch, m.buf)
			m.buf = nil
			if n := len(m.spare); n > 0 {
				m.buf, m.spare[n-1] = m.spare[n-1], nil
				m.spare = m.spare[:n-1]
			} else {
				m.buf = make([]byte, 0, m.max+256)
			}
			if len(m.batch) == maxBatch {
				m.sendBatch()
			}
		}
	}
	m.buf = m.buf[:0]
	m.base = 0
}

// sendBatch sends the datagrams of the batch: one alone like Send, more at
// once.
func (m *msgBuilder) sendBatch() {
	switch len(m.batch) {
	case 0:
		return
	case 1:
		m.bs.Send(m.batch[0], m.to)
	default:
		if len(m.scratch) < len(m.batch) {
			m.scratch = make([]transport.Message, maxBatch)
		}
		m.bs.SendBatch(m.batch, m.to, m.scratch)
	}
	for i, b := range m.batch {
		m.spare = append(m.spare, b[:0])
		m.batch[i] = nil
	}
	m.batch = m.batch[:0]
}

// flush sends the message in progress and ends it.
func (m *msgBuilder) flush() {
	if m.base > 0 {
		m.send()
	}
	if m.multi {
		m.sendBatch()
	}
	m.to = nil
}

// appendLocators adds the locators of ls that dst does not hold yet.
func appendLocators(dst, ls []wire.Locator) []wire.Locator {
outer:
	for _, l := range ls {
		for _, d := range dst {
			if d == l {
				continue outer
			}
		}
		dst = append(dst, l)
	}
	return dst
}

// destination returns where to send to an endpoint: its unicast locators,
// or its multicast ones when it announced no unicast locator.
func destination(unicast, multicast []wire.Locator) []wire.Locator {
	if len(unicast) > 0 {
		return appendLocators(nil, unicast)
	}
	return appendLocators(nil, multicast)
}

// reportEarlier calls schedule, if not nil, with a deadline t earlier than *reported,
// the last one it was called with, and keeps t in *reported. A zero t is no deadline.
func reportEarlier(schedule func(time.Time), reported *time.Time, t time.Time) {
	if schedule == nil || t.IsZero() {
		return
	}
	if reported.IsZero() || t.Before(*reported) {
		*reported = t
		schedule(t)
	}
}

// deadlineMin returns the earlier of two deadlines, zero meaning none.
func deadlineMin(a, b time.Time) time.Time {
	switch {
	case a.IsZero():
		return b
	case b.IsZero():
		return a
	case b.Before(a):
		return b
	}
	return a
}
