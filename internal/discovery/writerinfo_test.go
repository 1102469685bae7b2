package discovery

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
