package rtps

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/wire"
)

// TestHeldBytesAcrossWriters: many matched writers (forged ones, say) each
// start reassemblies and send changes out of order; what the reader holds
// over all of them stays within MaxHeldBytes, not the per-writer bounds
// times the writers, and a writer that goes frees what it held.
func TestHeldBytesAcrossWriters(t *testing.T) {
	const held = 4 << 20
	r := NewReader(ReaderConfig{
		GUID: localReaderID, Reliable: true, MaxSampleSize: 1 << 20, MaxReassemblyBytes: 2 << 20,
		MaxReassemblies: 4, Window: 64, MaxBufferedBytes: 1 << 20, MaxHeldBytes: held,
	}, nil, &discard{})
	now := time.Unix(0, 0)
	var writers []wire.GUID
	for i := range 50 {
		g := remoteWriter
		g.Entity.Key[0] = byte(i + 1)
		writers = append(writers, g)
		r.AddWriter(WriterProxyInfo{GUID: g, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
		for sn := wire.SequenceNumber(2); sn <= 4; sn++ {
			d := frag(sn, 1<<20, 1, 1, 1000, 1)
			d.WriterID = g.Entity
			r.HandleDataFrag(remotePrefix, &d, wire.TimeInvalid, now)
			x := wire.Data{DataFlag: true, WriterID: g.Entity, WriterSN: sn + 10, SerializedPayload: make([]byte, 64<<10)}
			r.HandleData(remotePrefix, &x, wire.TimeInvalid, now)
			require.LessOrEqual(t, r.MemoryInUse(), held)
		}
	}
	st := r.Stats()
	require.Positive(t, st.ReassemblyEvicted)
	require.Positive(t, st.BufferFull)
	require.Equal(t, r.accounted(), r.heldBytes)
	// Changes out of order, then the ones before them: delivered, and
	// their windows keep idle buffers, within the bound too.
	for _, g := range writers {
		for _, sn := range []wire.SequenceNumber{3, 2, 1} {
			x := wire.Data{DataFlag: true, WriterID: g.Entity, WriterSN: sn, SerializedPayload: make([]byte, 4<<10)}
			r.HandleData(remotePrefix, &x, wire.TimeInvalid, now)
			require.LessOrEqual(t, r.heldBytes, held)
			require.Equal(t, r.accounted(), r.heldBytes)
		}
	}
	for _, g := range writers {
		r.RemoveWriter(g)
	}
	require.Zero(t, r.MemoryInUse())
	require.Zero(t, r.heldBytes)
}

// accounted is what heldBytes should be, summed over the writers.
func (r *Reader) accounted() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, p := range r.list {
		n += p.bufBytes + p.fragBytes + r.windowBytes(p)
	}
	return n
}

// TestWindowGrows: a writer that sends thousands of changes past a lost one (Fast
// DDS sends its whole history at once) has them all kept, in a window that grows
// from minWindow by doubling as far as they reach, and delivered in order once the
// lost one comes; changes past Window are dropped, and a window that MaxHeldBytes
// has no room for does not grow.
func TestWindowGrows(t *testing.T) {
	var got []wire.SequenceNumber
	r := NewReader(ReaderConfig{GUID: localReaderID, Reliable: true}, func(s *Sample) bool {
		got = append(got, s.SN)
		return true
	}, &discard{})
	now := time.Unix(0, 0)
	r.AddWriter(WriterProxyInfo{GUID: remoteWriter, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	p := r.writers[remoteWriter]
	data := func(sn wire.SequenceNumber) {
		x := wire.Data{DataFlag: true, WriterID: remoteWriter.Entity, WriterSN: sn, SerializedPayload: make([]byte, 32)}
		r.HandleData(remotePrefix, &x, wire.TimeInvalid, now)
	}
	const burst = 3000
	for sn := wire.SequenceNumber(2); sn <= burst; sn++ {
		data(sn)
		want := minWindow
		for want < int(sn) {
			want *= 2
		}
		require.Len(t, p.slots, want, "the window after SN %d", sn)
		require.Equal(t, r.accounted(), r.heldBytes)
	}
	require.Zero(t, r.Stats().OutOfWindow)
	require.Zero(t, r.Stats().BufferFull)
	data(1)
	require.Len(t, got, burst)
	for i, sn := range got {
		require.Equal(t, wire.SequenceNumber(i+1), sn)
	}
	require.Equal(t, r.accounted(), r.heldBytes)
	// Past the largest window, dropped.
	data(burst + 2 + DefaultWindow)
	require.Equal(t, uint64(1), r.Stats().OutOfWindow)

	// No room under MaxHeldBytes for a larger window: the change is dropped, the
	// window stays as it was.
	small := NewReader(ReaderConfig{GUID: localReaderID, Reliable: true, MaxHeldBytes: 100 * windowCost}, nil, &discard{})
	small.AddWriter(WriterProxyInfo{GUID: remoteWriter, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	for sn := wire.SequenceNumber(2); sn <= 200; sn++ {
		x := wire.Data{DataFlag: true, WriterID: remoteWriter.Entity, WriterSN: sn, SerializedPayload: make([]byte, 8)}
		small.HandleData(remotePrefix, &x, wire.TimeInvalid, now)
		require.LessOrEqual(t, small.heldBytes, 100*windowCost)
	}
	require.Len(t, small.writers[remoteWriter].slots, minWindow)
	require.Positive(t, small.Stats().BufferFull)
	require.Equal(t, small.accounted(), small.heldBytes)
}

// TestReaskOnItsOwn: a reader whose ACKNACK asked for changes that do not come asks
// again on its own, ReaskDelay later, then after twice as long each time up to
// maxReaskDelay, without waiting for the writer's next HEARTBEAT (Fast DDS's default
// period is 3 s), but no more than maxReasks times while the writer says nothing;
// progress brings the wait back to ReaskDelay, and once nothing known is missing it
// asks no more.
func TestReaskOnItsOwn(t *testing.T) {
	var rec recorder
	r := NewReader(ReaderConfig{GUID: localReaderID, Reliable: true}, nil, &rec)
	now := time.Unix(1_700_000_000, 0)
	r.AddWriter(WriterProxyInfo{GUID: remoteWriter, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	acks := func() (bases []wire.SequenceNumber) {
		for _, a := range rec.ackNacks(t) {
			bases = append(bases, a.ReaderSNState.Base)
		}
		return bases
	}
	acks()
	hb := wire.Heartbeat{WriterID: remoteWriter.Entity, FirstSN: 1, LastSN: 3, Count: 1}
	r.HandleHeartbeat(remotePrefix, &hb, now)
	require.Len(t, acks(), 1)
	wait := DefaultReaskDelay
	for i := range 8 {
		next := r.Deadline()
		require.Equal(t, now.Add(wait), next, "the next ask on its own")
		now = next
		r.Tick(now)
		require.Equal(t, []wire.SequenceNumber{1}, acks())
		wait = min(2*wait, maxReaskDelay)
		if i%maxReasks == maxReasks-1 {
			// The writer has said nothing since: the reader waits for it.
			require.True(t, r.Deadline().IsZero(), "ask %d", i)
			hb.Count++
			r.HandleHeartbeat(remotePrefix, &hb, now) // answered NackInterval after the last ask
			now = r.Deadline()
			r.Tick(now)
			require.Len(t, acks(), 1)
		}
	}
	require.Equal(t, maxReaskDelay, wait)
	// Change 1 comes: the wait starts again from ReaskDelay.
	d := wire.Data{WriterID: remoteWriter.Entity, WriterSN: 1, DataFlag: true, SerializedPayload: payload(1, 0)}
	r.HandleData(remotePrefix, &d, wire.TimeInvalid, now)
	now = r.Deadline()
	r.Tick(now)
	require.Equal(t, []wire.SequenceNumber{2}, acks())
	require.Equal(t, now.Add(DefaultReaskDelay), r.Deadline())
	// The rest comes: nothing more to ask.
	for sn := wire.SequenceNumber(2); sn <= 3; sn++ {
		d := wire.Data{WriterID: remoteWriter.Entity, WriterSN: sn, DataFlag: true, SerializedPayload: payload(uint64(sn), 0)}
		r.HandleData(remotePrefix, &d, wire.TimeInvalid, now)
	}
	require.True(t, r.Deadline().IsZero())
	r.Tick(now.Add(time.Hour))
	require.Empty(t, acks())
}
