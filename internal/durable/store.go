package durable

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/wire"
)

// FileName is the name of the store's file in its directory.
const FileName = "ddsgo-durable.db"

// Limits of what a store accepts, so that a damaged or hostile file cannot make a
// process allocate without bound.
const (
	maxRecord = 1 << 26 // one change: 64 MiB
)

// ErrCorrupt reports a record of the store that does not decode.
var ErrCorrupt = errors.New("durable: corrupt record")

// Store is the on-disk store of the PERSISTENT writers of a process: one bbolt file in a
// directory, which one process at a time may open.
type Store struct {
	db *bolt.DB
}

// Open opens (creating it if needed) the store in directory dir. It fails when another
// process holds it open for longer than lockWait.
func Open(dir string, lockWait time.Duration) (*Store, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("durable: %w", err)
	}
	db, err := bolt.Open(filepath.Join(dir, FileName), 0o600, &bolt.Options{Timeout: lockWait})
	if err != nil {
		return nil, fmt.Errorf("durable: opening the store in %s: %w", dir, err)
	}
	return &Store{db: db}, nil
}

// Close closes the store.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("durable: %w", err)
	}
	return nil
}

// Topic is the stored history of one writer identity.
type Topic struct {
	s    *Store
	name []byte
	hist *History
	drop []wire.SequenceNumber
}

var (
	keyLastSN  = []byte("last_sn")
	keyChanges = []byte("changes")
)

// Topic opens the history stored under id (a writer's identity: its topic and type
// names), bounded by cfg, and returns the changes it holds, ascending, and the last
// sequence number written under id (0 for a new one). The changes are loaded into
// cfg's bound: a store written with larger bounds is trimmed on the next Append.
func (s *Store) Topic(id string, cfg rtps.HistoryConfig) (*Topic, []rtps.Change, wire.SequenceNumber, error) {
	t := &Topic{s: s, name: []byte(id), hist: NewHistory(cfg)}
	var changes []rtps.Change
	var last wire.SequenceNumber
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(t.name)
		if b == nil {
			return nil
		}
		if v := b.Get(keyLastSN); len(v) == 8 {
			last = wire.SequenceNumber(binary.BigEndian.Uint64(v))
		}
		cb := b.Bucket(keyChanges)
		if cb == nil {
			return nil
		}
		return cb.ForEach(func(k, v []byte) error {
			c, err := decode(k, v)
			if err != nil {
				return err
			}
			changes = append(changes, c)
			return nil
		})
	})
	if err != nil {
		return nil, nil, 0, fmt.Errorf("durable: loading %q: %w", id, err)
	}
	var dropped []wire.SequenceNumber
	for _, c := range changes {
		dropped = t.hist.Add(c.SN, c.KeyHash, c.Kind, dropped)
		last = max(last, c.SN)
	}
	if len(dropped) > 0 {
		t.drop = dropped // removed from the file with the next Append
		changes = keep(changes, dropped)
	}
	return t, changes, last, nil
}

// keep returns changes without those whose SN is in dropped.
func keep(changes []rtps.Change, dropped []wire.SequenceNumber) []rtps.Change {
	gone := make(map[wire.SequenceNumber]bool, len(dropped))
	for _, sn := range dropped {
		gone[sn] = true
	}
	out := changes[:0]
	for _, c := range changes {
		if !gone[c.SN] {
			out = append(out, c)
		}
	}
	return out
}

// Append stores c (its SN set, above every SN stored) and removes what the history
// bound drops, in one transaction that is on disk when Append returns.
func (t *Topic) Append(c *rtps.Change) error {
	t.drop = t.hist.Add(c.SN, c.KeyHash, c.Kind, t.drop)
	err := t.s.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(t.name)
		if err != nil {
			return err
		}
		cb, err := b.CreateBucketIfNotExists(keyChanges)
		if err != nil {
			return err
		}
		for _, sn := range t.drop {
			if err := cb.Delete(snKey(sn)); err != nil {
				return err
			}
		}
		if err := cb.Put(snKey(c.SN), encode(c)); err != nil {
			return err
		}
		return b.Put(keyLastSN, snKey(c.SN))
	})
	if err != nil {
		return fmt.Errorf("durable: storing change %d of %q: %w", c.SN, t.name, err)
	}
	t.drop = t.drop[:0]
	return nil
}

// Clear removes the changes stored under the topic's id, keeping its last sequence
// number (a writer of that identity continues after it).
func (t *Topic) Clear() error {
	err := t.s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(t.name)
		if b == nil || b.Bucket(keyChanges) == nil {
			return nil
		}
		return b.DeleteBucket(keyChanges)
	})
	if err != nil {
		return fmt.Errorf("durable: clearing %q: %w", t.name, err)
	}
	t.hist = NewHistory(t.hist.cfg)
	t.drop = t.drop[:0]
	return nil
}

// History returns the model of the stored history.
func (t *Topic) History() *History { return t.hist }

func snKey(sn wire.SequenceNumber) []byte {
	return binary.BigEndian.AppendUint64(nil, uint64(sn))
}

// The record of a change: kind (1), key hash (16), timestamp seconds and fraction
// (4 + 4), related sample identity (GUID 16, SN 8), payload length (4), payload.
const recordHeader = 1 + 16 + 8 + 16 + 8 + 4

func encode(c *rtps.Change) []byte {
	b := make([]byte, 0, recordHeader+len(c.Payload))
	b = append(b, byte(c.Kind))
	b = append(b, c.KeyHash[:]...)
	b = binary.BigEndian.AppendUint32(b, uint32(c.Timestamp.Seconds))
	b = binary.BigEndian.AppendUint32(b, c.Timestamp.Fraction)
	b = append(b, c.Related.WriterGUID.Prefix[:]...)
	b = append(b, c.Related.WriterGUID.Entity.Key[:]...)
	b = append(b, c.Related.WriterGUID.Entity.Kind)
	b = binary.BigEndian.AppendUint64(b, uint64(c.Related.SN))
	b = binary.BigEndian.AppendUint32(b, uint32(len(c.Payload)))
	return append(b, c.Payload...)
}

// decode decodes the record v stored under key k. The payload is a copy (bbolt's
// memory is valid only in its transaction).
func decode(k, v []byte) (rtps.Change, error) {
	var c rtps.Change
	if len(k) != 8 || len(v) < recordHeader || len(v) > maxRecord {
		return c, ErrCorrupt
	}
	c.SN = wire.SequenceNumber(binary.BigEndian.Uint64(k))
	c.Kind = rtps.ChangeKind(v[0])
	if c.SN <= 0 || c.Kind > rtps.NotAliveDisposedUnregistered {
		return c, ErrCorrupt
	}
	copy(c.KeyHash[:], v[1:17])
	c.Timestamp.Seconds = int32(binary.BigEndian.Uint32(v[17:]))
	c.Timestamp.Fraction = binary.BigEndian.Uint32(v[21:])
	g := &c.Related.WriterGUID
	copy(g.Prefix[:], v[25:37])
	copy(g.Entity.Key[:], v[37:40])
	g.Entity.Kind = v[40]
	c.Related.SN = wire.SequenceNumber(binary.BigEndian.Uint64(v[41:]))
	n := binary.BigEndian.Uint32(v[49:])
	if int(n) != len(v)-recordHeader {
		return c, ErrCorrupt
	}
	if n > 0 {
		c.Payload = append([]byte(nil), v[recordHeader:]...)
	}
	return c, nil
}
