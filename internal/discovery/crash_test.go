package discovery

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/transport/memnet"
	"github.com/ddsgo/ddsgo/internal/wire"
)

// A writer whose host dies in the middle of a fragment train leaves a reassembly in
// progress at the reader; when the writer's participant lease expires, the reader
// forgets the writer and holds no memory for it any more.
func TestWriterCrashMidFragmentTrain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := memNet(t, memnet.Config{Seed: 11})
		a, _ := memParticipant(t, n, "a", "10.0.0.1", nil)
		b, hb := memParticipant(t, n, "b", "10.0.0.2", func(c *Config) {
			c.LeaseDuration = 2 * time.Second
			c.FragmentSize = 1024
		})
		r, err := a.NewReader(EndpointConfig{Topic: "t", Type: "T", Requested: reliableReader()},
			func(*rtps.Sample) bool { return true })
		require.NoError(t, err)
		w, err := b.NewWriter(EndpointConfig{Topic: "t", Type: "T", Offered: reliableWriter()})
		require.NoError(t, err)
		waitFor(t, 2*time.Second, func() bool {
			return r.Reader().MatchedWriters() == 1 && w.Writer().MatchedReaders() == 1
		})

		// Half the fragments get through, then the writer's host is gone.
		require.NoError(t, n.SetImpairments(memnet.Impairments{Loss: 0.5}))
		big := make([]byte, 64<<10)
		big[1] = 0x01 // CDR_LE
		_, err = w.Write(context.Background(), rtps.Change{Payload: big})
		require.NoError(t, err)
		synctest.Wait()
		hb.SetDown(true)
		require.NoError(t, n.SetImpairments(memnet.Impairments{}))
		require.Positive(t, r.Reader().MemoryInUse(), "a reassembly is in progress")

		waitFor(t, 3*time.Second, func() bool { return r.Reader().MatchedWriters() == 0 })
		require.Zero(t, r.Reader().MemoryInUse())
		require.Equal(t, uint64(1), a.Stats().LeaseExpired)
		hb.SetDown(false)
	})
}

// A participant that crashes and restarts (a new GUID prefix) is matched again at once,
// while its old incarnation stays matched until its lease expires, and not after.
func TestParticipantRestart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := memNet(t, memnet.Config{Seed: 12})
		a, _ := memParticipant(t, n, "a", "10.0.0.1", nil)
		lease := func(c *Config) { c.LeaseDuration = 3 * time.Second }
		old, hOld := memParticipant(t, n, "b", "10.0.0.2", lease)
		wev := newEvents()
		w, err := a.NewWriter(EndpointConfig{Topic: "t", Type: "T", Offered: reliableWriter(), Listener: wev})
		require.NoError(t, err)
		var before sink
		oldReader, err := old.NewReader(EndpointConfig{Topic: "t", Type: "T", Requested: reliableReader()}, before.deliver)
		require.NoError(t, err)
		waitFor(t, 2*time.Second, func() bool { return wev.count() == 1 })
		_, err = w.Write(context.Background(), rtps.Change{Payload: testPayload(1)})
		require.NoError(t, err)
		waitFor(t, time.Second, func() bool { return len(before.got()) == 1 })

		crash := time.Now()
		hOld.SetDown(true)
		time.Sleep(500 * time.Millisecond)
		restarted, _ := memParticipant(t, n, "b2", "10.0.0.3", lease)
		require.NotEqual(t, old.GUIDPrefix(), restarted.GUIDPrefix())
		var after sink
		newReader, err := restarted.NewReader(EndpointConfig{Topic: "t", Type: "T", Requested: reliableReader()}, after.deliver)
		require.NoError(t, err)
		start := time.Now()
		waitFor(t, time.Second, func() bool { return wev.has(newReader.GUID()) })
		require.Less(t, time.Since(start), 100*time.Millisecond, "matched on its first announcement")
		require.True(t, wev.has(oldReader.GUID()), "the old incarnation's lease still runs")

		_, err = w.Write(context.Background(), rtps.Change{Payload: testPayload(2)})
		require.NoError(t, err)
		waitFor(t, time.Second, func() bool { return len(after.got()) == 1 })
		require.Equal(t, []uint64{2}, after.got())

		waitFor(t, 4*time.Second, func() bool { return !wev.has(oldReader.GUID()) })
		gone := time.Since(crash)
		// The lease runs from the last message heard, at most one announce period (a
		// third of the lease) before the crash.
		require.GreaterOrEqual(t, gone, 2*time.Second, "not before the lease expired")
		require.Less(t, gone, 3*time.Second+500*time.Millisecond)
		require.True(t, wev.has(newReader.GUID()))
		require.Equal(t, []wire.GuidPrefix{restarted.GUIDPrefix()}, prefixes(a.Participants()))
		hOld.SetDown(false)
	})
}

func prefixes(ps []ParticipantData) []wire.GuidPrefix {
	out := make([]wire.GuidPrefix, len(ps))
	for i := range ps {
		out[i] = ps[i].GUIDPrefix
	}
	return out
}
