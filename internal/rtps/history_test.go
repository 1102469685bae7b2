package rtps

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/wire"
)

func heldSNs(h *WriterHistory) []wire.SequenceNumber {
	var sns []wire.SequenceNumber
	h.All(1, 1<<40, func(c *Change) bool {
		sns = append(sns, c.SN)
		return true
	})
	return sns
}

func TestHistoryKeepLast(t *testing.T) {
	var released int
	h := NewWriterHistory(HistoryConfig{Depth: 2}, func([]byte) { released++ })
	for sn := wire.SequenceNumber(1); sn <= 9; sn++ {
		require.NoError(t, h.Add(Change{SN: sn, KeyHash: wire.KeyHash{byte(sn % 3)}, Payload: []byte{1}}))
	}
	require.Equal(t, []wire.SequenceNumber{4, 5, 6, 7, 8, 9}, heldSNs(h))
	require.Equal(t, 3, released)
	require.Equal(t, wire.SequenceNumber(4), h.MinSN())
	_, ok := h.Get(3)
	require.False(t, ok)
	c, ok := h.Get(7)
	require.True(t, ok)
	require.Equal(t, wire.KeyHash{1}, c.KeyHash)
}

func TestHistoryKeepAllLimits(t *testing.T) {
	h := NewWriterHistory(HistoryConfig{KeepAll: true, MaxSamples: 4, MaxInstances: 2, MaxSamplesPerInstance: 3}, nil)
	a, b, c := wire.KeyHash{1}, wire.KeyHash{2}, wire.KeyHash{3}
	require.NoError(t, h.Add(Change{SN: 1, KeyHash: a}))
	require.NoError(t, h.Add(Change{SN: 2, KeyHash: a}))
	require.NoError(t, h.Add(Change{SN: 3, KeyHash: a}))
	require.ErrorIs(t, h.Add(Change{SN: 4, KeyHash: a}), ErrHistoryFull, "max samples per instance")
	require.NoError(t, h.Add(Change{SN: 4, KeyHash: b}))
	require.True(t, h.Full(b), "max samples")
	require.ErrorIs(t, h.Add(Change{SN: 5, KeyHash: c}), ErrOutOfResources, "max instances")
	// Acknowledged changes of a transient-local history are kept but
	// reclaimable.
	h.SetReclaim(3, false)
	require.Equal(t, 4, h.Len())
	require.NoError(t, h.Add(Change{SN: 5, KeyHash: a}))
	require.Equal(t, []wire.SequenceNumber{2, 3, 4, 5}, heldSNs(h))
	// An instance is reclaimable as a whole only once all its changes are;
	// the least recently written goes first.
	require.ErrorIs(t, h.Add(Change{SN: 6, KeyHash: c}), ErrOutOfResources)
	h.SetReclaim(5, false)
	require.NoError(t, h.Add(Change{SN: 6, KeyHash: c}))
	require.Equal(t, []wire.SequenceNumber{2, 3, 5, 6}, heldSNs(h))
	// Volatile: acknowledged changes go at once.
	h.SetReclaim(6, true)
	require.Zero(t, h.Len())
	require.Zero(t, h.MinSN())
}

func TestHistoryCompaction(t *testing.T) {
	// KEEP_LAST 1 with one long-lived instance and a busy one leaves a hole
	// at the front; the slice must not grow without bound.
	h := NewWriterHistory(HistoryConfig{Depth: 1}, nil)
	require.NoError(t, h.Add(Change{SN: 1, KeyHash: wire.KeyHash{1}}))
	for sn := wire.SequenceNumber(2); sn < 100_000; sn++ {
		require.NoError(t, h.Add(Change{SN: sn, KeyHash: wire.KeyHash{2}}))
	}
	require.Equal(t, 2, h.Len())
	require.Less(t, cap(h.entries), 1024)
	require.Equal(t, []wire.SequenceNumber{1, 99_999}, heldSNs(h))
}

// An instance whose changes were all dropped keeps its record in the map (a volatile
// writer's instance written again does not leave and enter it at every write), but
// the record counts for no instance in max_instances, and when such records are many
// they go: writing ever new keys does not grow the map.
func TestHistoryEmptyInstances(t *testing.T) {
	h := NewWriterHistory(HistoryConfig{MaxInstances: 2}, nil)
	a, b, c := wire.KeyHash{1}, wire.KeyHash{2}, wire.KeyHash{3}
	require.NoError(t, h.Add(Change{SN: 1, KeyHash: a}))
	require.NoError(t, h.Add(Change{SN: 2, KeyHash: b}))
	require.ErrorIs(t, h.Add(Change{SN: 3, KeyHash: c}), ErrOutOfResources)
	h.SetReclaim(2, true) // acknowledged by all: a and b have no change left
	require.Zero(t, h.Len())
	require.Len(t, h.instances, 2, "the empty records stay")
	require.NoError(t, h.Add(Change{SN: 3, KeyHash: c}))
	require.NoError(t, h.Add(Change{SN: 4, KeyHash: a}))
	require.ErrorIs(t, h.Add(Change{SN: 5, KeyHash: b}), ErrOutOfResources, "c and a hold changes")
	h.SetReclaim(3, false) // c reclaimable: it makes room for b
	require.NoError(t, h.Add(Change{SN: 5, KeyHash: b}))
	require.Equal(t, []wire.SequenceNumber{4, 5}, heldSNs(h))

	h = NewWriterHistory(HistoryConfig{}, nil)
	for sn := wire.SequenceNumber(1); sn <= 10_000; sn++ {
		var k wire.KeyHash
		k[0], k[1] = byte(sn), byte(sn>>8)
		require.NoError(t, h.Add(Change{SN: sn, KeyHash: k}))
		h.SetReclaim(sn, true)
	}
	require.LessOrEqual(t, len(h.instances), 2*maxEmpty+2)
	empty := 0
	for _, in := range h.instances {
		if in.n == 0 {
			empty++
		}
	}
	require.Equal(t, empty, h.empty)
}
