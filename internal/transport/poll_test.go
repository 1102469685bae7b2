package transport

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/wire"
)

var (
	userWriter    = wire.EntityID{Key: [3]byte{0, 0, 1}, Kind: wire.EntityKindWriterWithKey}
	userReader    = wire.EntityID{Key: [3]byte{0, 0, 2}, Kind: 0x07}
	vendorWriter  = wire.EntityID{Key: [3]byte{0, 0, 3}, Kind: wire.EntityKindVendorFlag | wire.EntityKindWriterNoKey}
	messageHeader = wire.Header{Version: wire.ProtocolVersion25, Vendor: wire.VendorDDSGo}
)

// message returns an RTPS message of the given submessages.
func message(subs ...interface{ Append([]byte) []byte }) []byte {
	b := messageHeader.Append(nil)
	for _, s := range subs {
		b = s.Append(b)
	}
	return b
}

func dataOf(w wire.EntityID, be bool) *wire.Data {
	return &wire.Data{
		BigEndian: be, DataFlag: true, ReaderID: userReader, WriterID: w, WriterSN: wire.SequenceNumber(1),
		SerializedPayload: []byte{0, 1, 0, 0, 1, 2, 3, 4},
	}
}

// hasUserData finds a user writer's DATA or DATA_FRAG among a message's
// submessages, in either byte order, and nothing else: built-in and
// vendor-specific writers, other submessages and malformed messages are not
// user data.
func TestHasUserData(t *testing.T) {
	frag := &wire.DataFrag{
		ReaderID: userReader, WriterID: userWriter, WriterSN: 1, FragmentStartingNum: 1,
		FragmentsInSubmessage: 1, FragmentSize: 4, SampleSize: 8, Fragments: []byte{0, 1, 0, 0},
	}
	hb := &wire.Heartbeat{ReaderID: userReader, WriterID: userWriter, FirstSN: 1, LastSN: 1, Count: 1}
	ts := &wire.InfoTS{Timestamp: wire.Time{Seconds: 1}}
	user := message(dataOf(userWriter, false))
	cases := []struct {
		name string
		msg  []byte
		want bool
	}{
		{"user DATA, little-endian", user, true},
		{"user DATA, big-endian", message(dataOf(userWriter, true)), true},
		{"user DATA_FRAG", message(frag), true},
		{"INFO_TS, then user DATA", message(ts, dataOf(userWriter, false)), true},
		{"built-in DATA, then user DATA", message(dataOf(wire.EntityIDSPDPWriter, false), dataOf(userWriter, true)), true},
		{"user DATA, then HEARTBEAT", message(dataOf(userWriter, false), hb), true},
		{"built-in DATA", message(dataOf(wire.EntityIDSPDPWriter, false)), false},
		{"vendor-specific writer's DATA", message(dataOf(vendorWriter, false)), false},
		{"HEARTBEAT", message(hb), false},
		{"INFO_TS, HEARTBEAT", message(ts, hb), false},
		{"header only", message(), false},
		{"empty", nil, false},
		{"DATA cut before its writer's kind", user[:20+15], false},
		{"garbage length", append(messageHeader.Append(nil), 0x09, 0x01, 0xff, 0xff, 1, 2, 3), false},
	}
	for _, c := range cases {
		require.Equal(t, c.want, hasUserData(c.msg), c.name)
	}
	require.Zero(t, testing.AllocsPerRun(100, func() { hasUserData(user) }))
}

// fakeClock is a clock for pollState.got.
type fakeClock int64

func (c *fakeClock) now() int64 { return int64(*c) }

// The adaptive poll polls only in a conversation (user data sent within the
// window) on a socket whose user data lately came within the window of its
// going empty; it stops after a gap longer than the window and halves on
// datagrams without user data that a poll found.
func TestPollAdapts(t *testing.T) {
	const w = int64(200 * time.Microsecond)
	p := NewPoll(time.Duration(w))
	user := message(dataOf(userWriter, false))
	ack := message(&wire.Heartbeat{ReaderID: userReader, WriterID: userWriter, FirstSN: 1, LastSN: 1, Count: 1})
	s := pollState{auto: p}
	var clock fakeClock
	at := func(d int64) int64 { clock = fakeClock(d); return d }

	// A fresh socket has earned no poll: it waits, and user data that comes
	// within the window earns one.
	p.lastSend.Store(at(1000))
	require.False(t, s.empty(at(1000)))
	require.False(t, s.got(user, clock.now), "found in the netpoller")
	at(1000 + w/2)
	require.Equal(t, w, s.length)

	// In a conversation the next read polls, and finds the reply.
	p.lastSend.Store(at(2 * w))
	require.True(t, s.empty(at(2*w+1)))
	require.True(t, s.empty(at(2*w+10)))
	require.True(t, s.got(user, clock.now))
	require.Equal(t, w, s.length)

	// Out of it (nothing sent within the window) it does not.
	require.False(t, s.empty(at(4*w)))
	require.False(t, s.got(user, clock.now))

	// A poll that runs out waits; a reply that comes after the window ends
	// the polling.
	p.lastSend.Store(at(10 * w))
	require.True(t, s.empty(at(10*w)))
	require.False(t, s.empty(at(11*w)))
	require.False(t, s.empty(at(11*w+1)), "still parked")
	at(20 * w)
	require.False(t, s.got(user, clock.now))
	require.Zero(t, s.length)
	p.lastSend.Store(at(30 * w))
	require.False(t, s.empty(at(30*w)))
	at(30*w + 5)
	require.False(t, s.got(user, clock.now), "found in the netpoller")
	require.Equal(t, w, s.length, "a prompt reply earns the poll again")

	// Datagrams without user data that polls find halve the poll.
	p.lastSend.Store(at(40 * w))
	require.True(t, s.empty(at(40*w+10)))
	require.True(t, s.got(ack, clock.now))
	require.Equal(t, w/2, s.length)
	require.True(t, s.empty(at(40*w+20)))
	require.True(t, s.got(ack, clock.now))
	require.Equal(t, w/4, s.length)
	// ... and found in the netpoller, they change nothing.
	require.False(t, s.empty(at(50*w)))
	require.False(t, s.got(ack, clock.now))
	require.Equal(t, w/4, s.length)

	// A datagram read while more were queued learns nothing.
	require.False(t, s.got(user, func() int64 { panic("no clock reading for a read that did not wait") }))

	// Sent notes user data only.
	p.lastSend.Store(0)
	p.Sent(ack)
	require.Zero(t, p.lastSend.Load())
	p.Sent(user)
	require.NotZero(t, p.lastSend.Load())
}

// BusyPoll's fixed poll polls after every datagram whatever the traffic; no
// Poll (negative BusyPoll) never polls.
func TestPollFixedAndNone(t *testing.T) {
	require.Nil(t, NewPoll(0))
	require.Nil(t, NewPoll(-1))
	var none *Poll
	none.Sent(message(dataOf(userWriter, false))) // no-op on nil
	s := pollState{}
	require.True(t, s.off(), "no poll of either kind: a read need not read the clock")
	require.False(t, (&pollState{fixed: 1}).off())
	require.False(t, (&pollState{auto: NewPoll(DefaultPollWindow)}).off())
	require.False(t, s.empty(5))
	require.False(t, s.got(nil, monoNow))

	f := pollState{fixed: 100}
	require.True(t, f.empty(5))
	require.True(t, f.empty(104))
	require.True(t, f.got(nil, monoNow))
	require.True(t, f.empty(1000))
	require.False(t, f.empty(1100))
	require.False(t, f.got(nil, monoNow), "found in the netpoller after the poll ran out")
}

// A poll yields its Go processor at every try with GOMAXPROCS 1, and with more
// only after holding it for DefaultPollWindow.
func TestPollYieldsP(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	w := int64(DefaultPollWindow)
	s := pollState{fixed: 10 * w}
	require.True(t, s.empty(1))
	require.False(t, s.yieldP(2))
	require.False(t, s.yieldP(w))
	require.True(t, s.yieldP(w+2))
	s.reset()

	runtime.GOMAXPROCS(1)
	require.True(t, s.empty(1))
	require.True(t, s.yieldP(2))
}
