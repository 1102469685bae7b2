package durable

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/wire"
)

func kh(i byte) wire.KeyHash { return wire.KeyHash{i} }

// TestHistoryBounds: KEEP_LAST drops the oldest change of the instance beyond the
// depth; max_samples the oldest of all; max_instances the instance whose latest change
// is the oldest; KEEP_ALL's max_samples_per_instance the oldest of the instance.
func TestHistoryBounds(t *testing.T) {
	h := NewHistory(rtps.HistoryConfig{Depth: 2})
	var d []wire.SequenceNumber
	for sn := range wire.SequenceNumber(3) {
		d = h.Add(sn+1, kh(1), rtps.Alive, d)
	}
	require.Equal(t, []wire.SequenceNumber{1}, d)
	require.Equal(t, 2, h.Len())

	h = NewHistory(rtps.HistoryConfig{KeepAll: true, MaxSamples: 3})
	d = nil
	for sn := range wire.SequenceNumber(5) {
		d = h.Add(sn+1, kh(byte(sn%2)), rtps.Alive, d)
	}
	require.Equal(t, []wire.SequenceNumber{1, 2}, d)
	require.Equal(t, 3, h.Len())

	h = NewHistory(rtps.HistoryConfig{Depth: 5, MaxInstances: 2})
	d = h.Add(1, kh(1), rtps.Alive, nil)
	d = h.Add(2, kh(2), rtps.Alive, d)
	d = h.Add(3, kh(1), rtps.Alive, d)
	d = h.Add(4, kh(3), rtps.Alive, d) // instance 2's latest (2) is the oldest
	require.Equal(t, []wire.SequenceNumber{2}, d)
	require.Equal(t, 2, h.Instances())

	h = NewHistory(rtps.HistoryConfig{KeepAll: true, MaxSamplesPerInstance: 2})
	d = nil
	for sn := range wire.SequenceNumber(4) {
		d = h.Add(sn+1, kh(7), rtps.Alive, d)
	}
	require.Equal(t, []wire.SequenceNumber{1, 2}, d)
}

// TestHistoryAllDisposed: the history is all disposed when every instance's last
// change disposes it.
func TestHistoryAllDisposed(t *testing.T) {
	h := NewHistory(rtps.HistoryConfig{Depth: 1})
	require.True(t, h.AllDisposed())
	h.Add(1, kh(1), rtps.Alive, nil)
	h.Add(2, kh(2), rtps.Alive, nil)
	require.False(t, h.AllDisposed())
	h.Add(3, kh(1), rtps.NotAliveDisposed, nil)
	require.False(t, h.AllDisposed())
	h.Add(4, kh(2), rtps.NotAliveUnregistered, nil)
	require.False(t, h.AllDisposed(), "unregistered is not disposed")
	h.Add(5, kh(2), rtps.NotAliveDisposedUnregistered, nil)
	require.True(t, h.AllDisposed())
	require.Equal(t, []wire.SequenceNumber{3}, h.DropInstance(kh(1), nil))
}

// TestStoreReopen: what Append stored is there after reopening, with every field, the
// bound applied, and the last SN kept; Clear empties the history but keeps the last SN.
func TestStoreReopen(t *testing.T) {
	dir := t.TempDir()
	cfg := rtps.HistoryConfig{Depth: 2}
	s, err := Open(dir, time.Second)
	require.NoError(t, err)
	tp, changes, last, err := s.Topic("t\x00T", cfg)
	require.NoError(t, err)
	require.Empty(t, changes)
	require.Zero(t, last)
	want := []rtps.Change{}
	for i := range 5 {
		c := rtps.Change{
			SN: wire.SequenceNumber(i + 1), Kind: rtps.Alive, KeyHash: kh(byte(i % 2)),
			Timestamp: wire.Time{Seconds: int32(100 + i), Fraction: 7},
			Related:   wire.SampleIdentity{WriterGUID: wire.GUID{Prefix: wire.GuidPrefix{1, 2}, Entity: wire.EntityID{Key: [3]byte{3}, Kind: 4}}, SN: 9},
			Payload:   []byte{0, 1, 0, 0, byte(i)},
		}
		require.NoError(t, tp.Append(&c))
		want = append(want, c)
	}
	d := rtps.Change{SN: 6, Kind: rtps.NotAliveDisposed, KeyHash: kh(0)}
	require.NoError(t, tp.Append(&d))
	require.NoError(t, s.Close())

	s, err = Open(dir, time.Second)
	require.NoError(t, err)
	defer func() { require.NoError(t, s.Close()) }()
	tp, changes, last, err = s.Topic("t\x00T", cfg)
	require.NoError(t, err)
	require.Equal(t, wire.SequenceNumber(6), last)
	// Instance 0 keeps 5 and the dispose 6, instance 1 keeps 2 and 4.
	require.Equal(t, []rtps.Change{want[1], want[3], want[4], d}, changes)

	_, other, lastOther, err := s.Topic("u\x00T", cfg)
	require.NoError(t, err)
	require.Empty(t, other)
	require.Zero(t, lastOther)

	// A smaller bound trims what is loaded.
	_, changes, _, err = s.Topic("t\x00T", rtps.HistoryConfig{Depth: 1})
	require.NoError(t, err)
	require.Equal(t, []rtps.Change{want[3], d}, changes)

	require.NoError(t, tp.Clear())
	_, changes, last, err = s.Topic("t\x00T", cfg)
	require.NoError(t, err)
	require.Empty(t, changes)
	require.Equal(t, wire.SequenceNumber(6), last)
}

// TestStoreLocked: a second opener of the directory waits for the lock and fails.
func TestStoreLocked(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, time.Second)
	require.NoError(t, err)
	defer func() { require.NoError(t, s.Close()) }()
	_, err = Open(dir, 50*time.Millisecond)
	require.Error(t, err)
}

// TestStoreCorrupt: a record that does not decode fails the load with ErrCorrupt
// instead of a panic or a huge allocation.
func TestStoreCorrupt(t *testing.T) {
	for name, rec := range map[string][]byte{
		"short":      {0, 1, 2},
		"bad length": append(make([]byte, recordHeader-4), 0xff, 0xff, 0xff, 0xff),
		"bad kind":   append([]byte{9}, make([]byte, recordHeader-1)...),
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			db, err := bolt.Open(filepath.Join(dir, FileName), 0o600, nil)
			require.NoError(t, err)
			require.NoError(t, db.Update(func(tx *bolt.Tx) error {
				b, err := tx.CreateBucket([]byte("t"))
				if err != nil {
					return err
				}
				cb, err := b.CreateBucket(keyChanges)
				if err != nil {
					return err
				}
				return cb.Put(snKey(1), rec)
			}))
			require.NoError(t, db.Close())
			s, err := Open(dir, time.Second)
			require.NoError(t, err)
			defer func() { require.NoError(t, s.Close()) }()
			_, _, _, err = s.Topic("t", rtps.HistoryConfig{})
			require.ErrorIs(t, err, ErrCorrupt)
		})
	}
}

// TestOpenNotADirectory: a path that cannot be a directory fails.
func TestOpenNotADirectory(t *testing.T) {
	f := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(f, nil, 0o600))
	_, err := Open(f, time.Second)
	require.Error(t, err)
}
