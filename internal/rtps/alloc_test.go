package rtps

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/wire"
)

// discard is a Sender that drops every message.
type discard struct{ n int }

func (d *discard) Send([]byte, []wire.Locator) { d.n++ }

// bufPool is a trivial free list standing in for the caller's payload pool.
type bufPool struct{ free [][]byte }

func (p *bufPool) get(n int) []byte {
	if k := len(p.free); k > 0 {
		b := p.free[k-1]
		p.free = p.free[:k-1]
		return b[:n]
	}
	return make([]byte, n)
}

func (p *bufPool) put(b []byte) { p.free = append(p.free, b) }

// newBenchWriter returns a reliable KEEP_LAST 1 writer matched with one
// reliable reader, recycling payloads through pool.
func newBenchWriter(out Sender, pool *bufPool) *Writer {
	w := NewWriter(WriterConfig{GUID: localWriterID, Reliable: true, History: HistoryConfig{Depth: 1}, Release: pool.put}, out)
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Unicast: []wire.Locator{testLoc}}, time.Unix(1_700_000_000, 0))
	return w
}

func TestWriterWriteAllocs(t *testing.T) {
	var pool bufPool
	out := &discard{}
	w := newBenchWriter(out, &pool)
	now := time.Unix(1_700_000_000, 0)
	for range 100 { // warm up buffers
		_, err := w.Write(Change{Payload: pool.get(64)}, now)
		require.NoError(t, err)
	}
	allocs := testing.AllocsPerRun(1000, func() {
		now = now.Add(time.Microsecond)
		if _, err := w.Write(Change{Payload: pool.get(64), Timestamp: wire.TimeFromTime(now)}, now); err != nil {
			t.Fatal(err)
		}
	})
	require.Zero(t, allocs)

	// KEEP_ALL with acknowledgments freeing the history.
	w = NewWriter(WriterConfig{GUID: localWriterID, Reliable: true, Keyed: true, InlineKeyHash: true, History: HistoryConfig{KeepAll: true}, Release: pool.put}, out)
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	requireAckedWritesAllocNothing(t, w, func() Change { return Change{KeyHash: wire.KeyHash{1}, Payload: pool.get(64)} }, &now, 0)
}

// requireAckedWritesAllocNothing writes the changes next returns on w, its reader
// acknowledging every 16th, time advancing by tick each write, and requires that this
// allocates nothing once warm.
func requireAckedWritesAllocNothing(t *testing.T, w *Writer, next func() Change, now *time.Time, tick time.Duration) {
	t.Helper()
	a := wire.AckNack{ReaderID: remoteReader.Entity, WriterID: localWriterID.Entity}
	step := func() {
		*now = now.Add(tick)
		sn, err := w.Write(next(), *now)
		if err != nil {
			t.Fatal(err)
		}
		if sn%16 == 0 {
			a.Count++
			a.ReaderSNState = wire.SequenceNumberSet{Base: sn + 1}
			w.HandleAckNack(remotePrefix, &a, *now)
		}
	}
	for range 1000 {
		step()
	}
	require.Zero(t, testing.AllocsPerRun(1000, step))
}

func TestReaderHandleDataAllocs(t *testing.T) {
	n := 0
	r := NewReader(ReaderConfig{GUID: localReaderID, Reliable: true}, func(*Sample) bool { n++; return true }, &discard{})
	now := time.Unix(1_700_000_000, 0)
	r.AddWriter(WriterProxyInfo{GUID: remoteWriter, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	// Inline QoS with a key hash, as Fast DDS sends.
	pw := wire.NewParamWriter(nil, false)
	pw.PutKeyHash(wire.KeyHash{7})
	q, err := pw.Finish()
	require.NoError(t, err)
	d := wire.Data{WriterID: remoteWriter.Entity, DataFlag: true, InlineQoS: q, SerializedPayload: payload(1, 52)}
	sn := wire.SequenceNumber(0)
	allocs := testing.AllocsPerRun(1000, func() {
		sn++
		d.WriterSN = sn
		r.HandleData(remotePrefix, &d, wire.TimeZero, now)
	})
	require.Zero(t, allocs)
	require.Equal(t, int(sn), n)
}

func BenchmarkWriterWrite(b *testing.B) {
	var pool bufPool
	w := newBenchWriter(&discard{}, &pool)
	now := time.Unix(1_700_000_000, 0)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := w.Write(Change{Payload: pool.get(64)}, now); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReaderHandleData(b *testing.B) {
	r := NewReader(ReaderConfig{GUID: localReaderID, Reliable: true}, func(*Sample) bool { return true }, &discard{})
	now := time.Unix(1_700_000_000, 0)
	r.AddWriter(WriterProxyInfo{GUID: remoteWriter, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	d := wire.Data{WriterID: remoteWriter.Entity, DataFlag: true, SerializedPayload: payload(1, 52)}
	b.ReportAllocs()
	for b.Loop() {
		d.WriterSN++
		r.HandleData(remotePrefix, &d, wire.TimeZero, now)
	}
}

// TestReaderFragmentAllocs: reassembly buffers are pooled, so fragmented
// samples allocate nothing in steady state, in order or not.
func TestReaderFragmentAllocs(t *testing.T) {
	for _, tc := range []struct {
		name     string
		size     int
		swapped  bool // each odd SN completes before the even one before it
		maxBytes int
	}{
		{name: "in order", size: 4000},
		{name: "large", size: 20000},
		{name: "out of order", size: 20000, swapped: true},
		{name: "tight limit", size: 5000, swapped: true, maxBytes: 10000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := 0
			r := NewReader(ReaderConfig{GUID: localReaderID, Reliable: true, MaxReassemblyBytes: tc.maxBytes},
				func(s *Sample) bool {
					if payloadSeq(s.Payload) != uint64(s.SN) {
						t.Fatalf("sample %d carries %d", s.SN, payloadSeq(s.Payload))
					}
					n++
					return true
				}, &discard{})
			now := time.Unix(1_700_000_000, 0)
			r.AddWriter(WriterProxyInfo{GUID: remoteWriter, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
			const fs = 1024
			p := payload(0, tc.size-12)
			d := wire.DataFrag{WriterID: remoteWriter.Entity, FragmentsInSubmessage: 4, FragmentSize: fs, SampleSize: uint32(len(p))}
			frags := func(sn wire.SequenceNumber) {
				binary.LittleEndian.PutUint64(p[4:], uint64(sn))
				d.WriterSN = sn
				for off := 0; off < len(p); off += 4 * fs {
					d.FragmentStartingNum = wire.FragmentNumber(off/fs + 1)
					end := min(off+4*fs, len(p))
					d.FragmentsInSubmessage = uint16((end - off + fs - 1) / fs)
					d.Fragments = p[off:end]
					r.HandleDataFrag(remotePrefix, &d, wire.TimeZero, now)
				}
			}
			sn := wire.SequenceNumber(1)
			step := func() {
				if tc.swapped {
					frags(sn + 1)
					frags(sn)
					sn += 2
					return
				}
				frags(sn)
				sn++
			}
			// Warm up past the window: its slots keep the buffers of up to
			// 8 KiB they held (see maxSlotRetain).
			for range 600 {
				step()
			}
			require.Zero(t, testing.AllocsPerRun(200, step))
			require.Equal(t, int(sn-1), n)
			require.Zero(t, r.MemoryInUse())
		})
	}
}
