package rtps

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/wire"
)

// TestUnresponsiveReader: a reliable reader that never answers while it
// throttles the writer (here its window of 2 changes) holds the history for
// UnresponsiveTimeout of HEARTBEATs, then is no longer waited for; when it
// speaks again it is waited for again, from what it acknowledges.
func TestUnresponsiveReader(t *testing.T) {
	now := time.Unix(100, 0)
	w := NewWriter(WriterConfig{
		GUID: localWriterID, Reliable: true, History: HistoryConfig{KeepAll: true},
		HeartbeatPeriod: 100 * time.Millisecond, UnresponsiveTimeout: time.Second,
		MaxUnackedChanges: 2,
	}, &recorder{})
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	for i := range 4 {
		_, err := w.Write(Change{Payload: payload(uint64(i), 0)}, now)
		require.NoError(t, err)
	}
	// Silent for less than the timeout: still waited for.
	for range 10 {
		now = now.Add(100 * time.Millisecond)
		w.Tick(now)
	}
	require.False(t, w.AckedByAll(4))
	require.Equal(t, 4, w.HistoryLen())
	// An ACKNACK makes it start over; then silent past the timeout.
	a := wire.AckNack{ReaderID: remoteReader.Entity, WriterID: localWriterID.Entity, Count: 1, ReaderSNState: wire.SequenceNumberSet{Base: 2}}
	require.True(t, w.HandleAckNack(remotePrefix, &a, now))
	for range 12 {
		now = now.Add(100 * time.Millisecond)
		w.Tick(now)
	}
	require.True(t, w.AckedByAll(4))
	require.Zero(t, w.HistoryLen())
	require.Equal(t, uint64(1), w.Stats().Unresponsive)
	_, err := w.Write(Change{Payload: payload(4, 0)}, now)
	require.NoError(t, err)
	require.True(t, w.AckedByAll(5), "an unresponsive reader is not waited for")
	// It speaks again, acknowledging only the first change: it is waited
	// for again, from there.
	a.Count, a.ReaderSNState.Base = 2, 2
	require.True(t, w.HandleAckNack(remotePrefix, &a, now))
	require.False(t, w.AckedByAll(5))
	require.Zero(t, w.HistoryLen(), "what was dropped stays dropped: it gets GAPs")
	a.Count, a.ReaderSNState.Base = 3, 6
	w.HandleAckNack(remotePrefix, &a, now)
	require.True(t, w.AckedByAll(5))
}

// TestSilentReaderWithoutThrottling: a writer with room never gives up on a
// silent reader (a partition, a paused process): it loses nothing.
func TestSilentReaderWithoutThrottling(t *testing.T) {
	now := time.Unix(100, 0)
	w := NewWriter(WriterConfig{
		GUID: localWriterID, Reliable: true, History: HistoryConfig{KeepAll: true},
		HeartbeatPeriod: 100 * time.Millisecond, UnresponsiveTimeout: time.Second,
	}, &recorder{})
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	for i := range 4 {
		_, err := w.Write(Change{Payload: payload(uint64(i), 0)}, now)
		require.NoError(t, err)
	}
	for range 100 { // 10 s of silence
		now = now.Add(100 * time.Millisecond)
		w.Tick(now)
	}
	require.False(t, w.AckedByAll(4))
	require.Equal(t, 4, w.HistoryLen())
	require.Zero(t, w.Stats().Unresponsive)
}
