package rtps

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/wire"
)

func newHostileReader(t testing.TB, reliable bool, deliver DeliverFunc) *Reader {
	r := NewReader(ReaderConfig{
		GUID:               localReaderID,
		Reliable:           reliable,
		MaxSampleSize:      1 << 20,
		MaxReassemblyBytes: 2 << 20,
		MaxReassemblies:    4,
		Window:             64,
		MaxBufferedBytes:   1 << 20,
	}, deliver, &discard{})
	r.AddWriter(WriterProxyInfo{GUID: remoteWriter, Reliable: true, Unicast: []wire.Locator{testLoc}}, time.Unix(0, 0))
	return r
}

// frag builds a DATA_FRAG of count fragments of size fs from start.
func frag(sn wire.SequenceNumber, sampleSize uint32, start, count, fs int, fill byte) wire.DataFrag {
	n := count * fs
	if end := int(sampleSize) - (start-1)*fs; end < n {
		n = max(end, 0)
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = fill
	}
	return wire.DataFrag{
		WriterID:              remoteWriter.Entity,
		WriterSN:              sn,
		FragmentStartingNum:   wire.FragmentNumber(start),
		FragmentsInSubmessage: uint16(count),
		FragmentSize:          uint16(fs),
		SampleSize:            sampleSize,
		Fragments:             b,
	}
}

func TestReassemblyHostileSender(t *testing.T) {
	delivered := 0
	r := newHostileReader(t, true, func(*Sample) bool { delivered++; return true })
	now := time.Unix(0, 0)
	stats := func() ReaderStats { return r.Stats() }

	// A sample size claim beyond MaxSampleSize is dropped without allocating.
	d := frag(1, 1<<31, 1, 1, 1000, 0)
	r.HandleDataFrag(remotePrefix, &d, wire.TimeInvalid, now)
	require.Equal(t, uint64(1), stats().Oversize)
	require.Zero(t, r.MemoryInUse())

	// Many large claims: the reassembly memory stays within its budget.
	for sn := wire.SequenceNumber(1); sn <= 40; sn++ {
		d := frag(sn, 1<<20, 1, 1, 1000, 1)
		r.HandleDataFrag(remotePrefix, &d, wire.TimeInvalid, now)
		require.LessOrEqual(t, r.MemoryInUse(), 2<<20)
	}
	require.NotZero(t, stats().ReassemblyDropped)

	// A fragment size different from the reassembly's is refused.
	d = frag(1, 1<<20, 2, 1, 500, 2)
	r.HandleDataFrag(remotePrefix, &d, wire.TimeInvalid, now)
	require.Equal(t, uint64(1), stats().BadFragments)

	// Overlapping fragments are taken once; fragments past the sample are
	// refused by the wire decoder already, and ignored here.
	r2 := newHostileReader(t, true, nil)
	var got []byte
	r2.deliver = func(s *Sample) bool { got = append([]byte(nil), s.Payload...); return true }
	d = frag(1, 2500, 1, 2, 1000, 'a')
	r2.HandleDataFrag(remotePrefix, &d, wire.TimeInvalid, now)
	d = frag(1, 2500, 2, 1, 1000, 'b') // overlap: ignored
	r2.HandleDataFrag(remotePrefix, &d, wire.TimeInvalid, now)
	d = frag(1, 2500, 3, 4, 1000, 'c') // claims 4 fragments, only one exists
	d.Fragments = d.Fragments[:500]
	r2.HandleDataFrag(remotePrefix, &d, wire.TimeInvalid, now)
	require.Len(t, got, 2500)
	require.Equal(t, byte('a'), got[1999])
	require.Equal(t, byte('c'), got[2000])
	require.Zero(t, r2.MemoryInUse())

	// The reassemblies of a sample skipped by a GAP are freed.
	r3 := newHostileReader(t, true, nil)
	d = frag(2, 4000, 1, 1, 1000, 0)
	r3.HandleDataFrag(remotePrefix, &d, wire.TimeInvalid, now)
	require.Equal(t, 4000, r3.MemoryInUse())
	g := wire.Gap{WriterID: remoteWriter.Entity, GapStart: 1, GapList: wire.SequenceNumberSet{Base: 3}}
	r3.HandleGap(remotePrefix, &g, now)
	require.Zero(t, r3.MemoryInUse())

	// Best effort: a newer sample completing drops older partial ones.
	r4 := newHostileReader(t, false, nil)
	d = frag(1, 4000, 1, 1, 1000, 0)
	r4.HandleDataFrag(remotePrefix, &d, wire.TimeInvalid, now)
	d = frag(2, 1000, 1, 1, 1000, 0)
	r4.HandleDataFrag(remotePrefix, &d, wire.TimeInvalid, now)
	require.Zero(t, r4.MemoryInUse())
	require.Equal(t, uint64(1), r4.Stats().Delivered)
}

// TestReassemblyEvictsHighest: a reliable reader short of room gives up the
// reassembly of the highest sequence number for a lower one.
func TestReassemblyEvictsHighest(t *testing.T) {
	r := newHostileReader(t, true, nil)
	now := time.Unix(0, 0)
	for _, sn := range []wire.SequenceNumber{5, 6} {
		d := frag(sn, 1<<20, 1, 1, 1000, 0)
		r.HandleDataFrag(remotePrefix, &d, wire.TimeInvalid, now)
	}
	d := frag(3, 1<<20, 1, 1, 1000, 0)
	r.HandleDataFrag(remotePrefix, &d, wire.TimeInvalid, now)
	p := r.writers[remoteWriter]
	require.NotNil(t, p.findFrag(3))
	require.NotNil(t, p.findFrag(5))
	require.Nil(t, p.findFrag(6))
	require.Equal(t, uint64(1), r.Stats().ReassemblyEvicted)
}

// FuzzReader feeds a reliable and a best-effort reader random submessages
// from one writer: no panic, memory within the configured bounds.
func FuzzReader(f *testing.F) {
	f.Add([]byte{0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{1, 5, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 3, 0, 200, 0, 0, 0, 8, 0, 0, 1, 2, 3})
	f.Add([]byte{2, 1, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 1, 3, 1, 0, 0, 0, 0, 0, 0, 0, 4})
	f.Fuzz(func(t *testing.T, in []byte) {
		readers := []*Reader{newHostileReader(t, true, nil), newHostileReader(t, false, nil)}
		for _, r := range readers {
			r.deliver = func(s *Sample) bool { return len(s.Payload)%3 != 0 } // refuse some too
		}
		now := time.Unix(0, 0)
		u32 := func(b []byte, i int) uint32 {
			if i+4 > len(b) {
				return 0
			}
			return binary.BigEndian.Uint32(b[i:])
		}
		for len(in) >= 2 {
			op, b := in[0]%6, in[1:]
			n := min(len(b), 24)
			in = b[n:]
			sn := wire.SequenceNumber(u32(b, 0)%200) + 1
			now = now.Add(time.Millisecond)
			for _, r := range readers {
				switch op {
				case 0:
					d := wire.Data{WriterID: remoteWriter.Entity, WriterSN: sn, DataFlag: u32(b, 4)&1 == 0, SerializedPayload: b[:n]}
					r.HandleData(remotePrefix, &d, wire.TimeInvalid, now)
				case 1:
					fs := int(u32(b, 4)%2000) + 1
					size := u32(b, 8) % (3 << 20)
					start := int(u32(b, 12)%3000) + 1
					count := int(u32(b, 16)%12) + 1
					if size == 0 || uint64(start-1+count-1)*uint64(fs) >= uint64(size) {
						continue // the wire decoder rejects these
					}
					d := frag(sn, size, start, count, fs, b[0])
					r.HandleDataFrag(remotePrefix, &d, wire.TimeInvalid, now)
				case 2:
					h := wire.Heartbeat{WriterID: remoteWriter.Entity, FirstSN: sn, LastSN: sn + wire.SequenceNumber(u32(b, 4)%400), Count: wire.Count(u32(b, 8)), Final: u32(b, 12)&1 == 1}
					r.HandleHeartbeat(remotePrefix, &h, now)
				case 3:
					g := wire.Gap{WriterID: remoteWriter.Entity, GapStart: sn, GapList: wire.SequenceNumberSet{Base: sn + wire.SequenceNumber(u32(b, 4)%300)}}
					for i := range min(n/4, 8) {
						g.GapList.Add(g.GapList.Base + wire.SequenceNumber(u32(b, 4*i)%256))
					}
					r.HandleGap(remotePrefix, &g, now)
				case 4:
					h := wire.HeartbeatFrag{WriterID: remoteWriter.Entity, WriterSN: sn, LastFragmentNum: wire.FragmentNumber(u32(b, 4)%5000 + 1), Count: wire.Count(u32(b, 8))}
					r.HandleHeartbeatFrag(remotePrefix, &h, now)
				case 5:
					r.Tick(now)
				}
				require.LessOrEqual(t, r.MemoryInUse(), 2<<20+1<<20)
			}
		}
	})
}
