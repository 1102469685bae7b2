package discovery

// What discovery tells of remote writers: their announcements, before their samples
// (WriterAnnounced), and their liveliness (the participant message protocol).

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/transport/memnet"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/qos"
)

// writerInfoRecorder is a WriterInfoListener that records the strengths writers announced,
// and what the reader knew of its writer's strength at each sample.
type writerInfoRecorder struct {
	*events
	mu       sync.Mutex
	strength map[wire.GUID]int32
	atSample []int32
	calls    int
}

func newWriterInfoRecorder() *writerInfoRecorder {
	return &writerInfoRecorder{events: newEvents(), strength: map[wire.GUID]int32{}}
}

func (a *writerInfoRecorder) WriterAnnounced(_ wire.GUID, w *EndpointData) {
	a.mu.Lock()
	a.strength[w.GUID] = w.Offered.Writer.OwnershipStrength.Value
	a.calls++
	a.mu.Unlock()
}

func (a *writerInfoRecorder) deliver(s *rtps.Sample) bool {
	a.mu.Lock()
	st, ok := a.strength[s.Writer]
	if !ok {
		st = -1 // unknown
	}
	a.atSample = append(a.atSample, st)
	a.mu.Unlock()
	return true
}

func (a *writerInfoRecorder) known(w wire.GUID) (int32, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	s, ok := a.strength[w]
	return s, ok
}

// A reader's WriterInfoListener learns what a writer announced before the writer's
// first sample reaches the reader, for a remote writer and a local one, and again when
// the writer re-announces; for a local writer, before UpdateQos returns.
func TestWriterAnnounced(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := memNet(t, memnet.Config{Seed: 3})
		a, _ := memParticipant(t, n, "a", "10.0.0.1", nil)
		b, _ := memParticipant(t, n, "b", "10.0.0.2", nil)
		waitFor(t, 2*time.Second, func() bool { return len(a.Participants()) == 1 && len(b.Participants()) == 1 })

		rl := newWriterInfoRecorder()
		_, err := b.NewReader(EndpointConfig{Topic: "t", Type: "T", Requested: reliableReader(), Listener: rl}, rl.deliver)
		require.NoError(t, err)
		q := reliableWriter()
		q.Writer.OwnershipStrength.Value = 7
		remote, err := a.NewWriter(EndpointConfig{Topic: "t", Type: "T", Offered: q})
		require.NoError(t, err)
		q.Writer.OwnershipStrength.Value = 3
		local, err := b.NewWriter(EndpointConfig{Topic: "t", Type: "T", Offered: q})
		require.NoError(t, err)
		waitFor(t, 2*time.Second, func() bool { return rl.count() == 2 })
		for _, w := range []*LocalWriter{remote, local} {
			_, err := w.Write(context.Background(), rtps.Change{Payload: testPayload(1)})
			require.NoError(t, err)
			require.NoError(t, w.WaitForAcknowledgments(t.Context()))
		}
		rl.mu.Lock()
		require.Equal(t, []int32{7, 3}, rl.atSample, "the strength is known at the first sample")
		rl.mu.Unlock()

		q.Writer.OwnershipStrength.Value = 4
		require.NoError(t, local.UpdateQos(q))
		s, _ := rl.known(local.GUID())
		require.Equal(t, int32(4), s, "a local writer's change is known when UpdateQos returns")
		q.Writer.OwnershipStrength.Value = 9
		require.NoError(t, remote.UpdateQos(q))
		waitFor(t, 2*time.Second, func() bool { s, _ := rl.known(remote.GUID()); return s == 9 })
	})
}

// livelinessLog records what OnLiveliness and a reader's OnLiveliness hear.
type livelinessLog struct {
	mu                sync.Mutex
	automatic, manual int
	heartbeats        []wire.GUID
}

func (l *livelinessLog) participant(_ wire.GuidPrefix, manual bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if manual {
		l.manual++
	} else {
		l.automatic++
	}
}

func (l *livelinessLog) heartbeat(g wire.GUID) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.heartbeats = append(l.heartbeats, g)
}

func (l *livelinessLog) counts() (automatic, manual, heartbeats int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.automatic, l.manual, len(l.heartbeats)
}

// The writer liveliness protocol between two participants: the AUTOMATIC participant
// message every third of the shortest automatic lease, a MANUAL one on
// AssertLiveliness, and a writer's HEARTBEAT with the Liveliness flag reaching the
// reader's OnLiveliness.
func TestWriterLivelinessProtocol(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := memNet(t, memnet.Config{Seed: 7})
		a, _ := memParticipant(t, n, "a", "10.0.0.1", nil)
		b, _ := memParticipant(t, n, "b", "10.0.0.2", nil)
		var log livelinessLog
		b.OnLiveliness(log.participant)
		waitFor(t, 2*time.Second, func() bool { return len(a.Participants()) == 1 && len(b.Participants()) == 1 })
		require.True(t, b.LastHeard(wire.GuidPrefix{9}).IsZero(), "an unknown participant")

		off := reliableWriter()
		off.Writer.Liveliness = qos.Liveliness{Kind: qos.Automatic, LeaseDuration: 300 * time.Millisecond}
		wev := newEvents()
		_, err := a.NewWriter(EndpointConfig{Topic: "auto", Type: "T", Offered: off, Listener: wev})
		require.NoError(t, err)
		time.Sleep(100 * time.Millisecond)
		before, _, _ := log.counts()
		time.Sleep(time.Second)
		after, manual, _ := log.counts()
		require.GreaterOrEqual(t, after-before, 9, "an AUTOMATIC message every 100 ms")
		require.LessOrEqual(t, after-before, 11)
		require.Zero(t, manual)

		asserted := time.Now()
		a.AssertLiveliness()
		waitFor(t, time.Second, func() bool { _, m, _ := log.counts(); return m == 1 })
		require.False(t, b.LastHeard(a.GUIDPrefix()).Before(asserted), "a heard from in the datagram of its message")

		off.Writer.Liveliness = qos.Liveliness{Kind: qos.ManualByTopic, LeaseDuration: time.Second}
		w, err := a.NewWriter(EndpointConfig{Topic: "mbt", Type: "T", Offered: off, Listener: wev})
		require.NoError(t, err)
		req := reliableReader()
		req.Reader.Liveliness = off.Writer.Liveliness
		rev := newEvents()
		r, err := b.NewReader(EndpointConfig{Topic: "mbt", Type: "T", Requested: req, Listener: rev, OnLiveliness: log.heartbeat},
			func(*rtps.Sample) bool { return true })
		require.NoError(t, err)
		// Both sides of the match: the writer sends its liveliness HEARTBEAT to the
		// readers it has matched, and the reader takes it from the writers it has.
		waitFor(t, 2*time.Second, func() bool { return rev.count() == 1 && wev.has(r.GUID()) })
		w.AssertLiveliness()
		waitFor(t, time.Second, func() bool { _, _, h := log.counts(); return h == 1 })
		require.Equal(t, []wire.GUID{w.GUID()}, log.heartbeats)
	})
}

// Participant messages as the peers write them: Cyclone DDS CDR_LE with a one-octet
// sequence, Fast DDS PL_CDR_LE-tagged with an empty one, or only the key hash; our own
// and those about another participant than their writer's are ignored.
func TestParticipantMessageForms(t *testing.T) {
	remote := wire.GuidPrefix{0x01, 0x0f, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	self := wire.GuidPrefix{0x01, 0xdd, 9}
	payload := func(encap byte, prefix wire.GuidPrefix, kind byte, tail ...byte) []byte {
		b := append([]byte{0, encap, 0, 0}, prefix[:]...)
		return append(append(b, 0, 0, 0, kind), tail...)
	}
	var kh wire.KeyHash
	copy(kh[:], remote[:])
	kh[15] = 2
	for _, tc := range []struct {
		name   string
		s      rtps.Sample
		heard  bool
		manual bool
	}{
		{"cyclone automatic", rtps.Sample{Payload: payload(1, remote, 1, 1, 0, 0, 0, 0, 0, 0, 0)}, true, false},
		{"fast dds manual", rtps.Sample{Payload: payload(3, remote, 2, 0, 0, 0, 0, 0, 0, 0, 0)}, true, true},
		{"key hash only", rtps.Sample{HasKeyHash: true, KeyHash: kh}, true, true},
		{"our own", rtps.Sample{Payload: payload(1, self, 1)}, false, false},
		{"another participant's", rtps.Sample{Payload: payload(1, wire.GuidPrefix{7}, 1)}, false, false},
		{"disposed", rtps.Sample{Kind: rtps.NotAliveDisposed, Payload: payload(1, remote, 1)}, false, false},
		{"too short", rtps.Sample{Payload: []byte{0, 1, 0, 0, 1}}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.s
			s.Writer = wire.GUID{Prefix: remote, Entity: wire.EntityIDParticipantMessageWriter}
			prefix, manual, ok := parseParticipantMessage(&s, self)
			require.Equal(t, tc.heard, ok)
			if ok {
				require.Equal(t, remote, prefix)
			}
			require.Equal(t, tc.manual, manual)
		})
	}
}
