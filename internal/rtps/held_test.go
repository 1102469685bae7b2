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
