package rtps

import (
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/stretchr/testify/require"
)

// TestFragmentedKeepAllOnEthernetUnderLoss: 1000 samples of 4 KiB, each four
// DATA_FRAGs in datagrams of an Ethernet MTU, 10 % loss: all arrive, in
// order, without a storm of repairs, and the reader seldom drops fragments
// for lack of reassembly room.
func TestFragmentedKeepAllOnEthernetUnderLoss(t *testing.T) {
	const total = 1000
	net := newSimNet(t, 1)
	net.loss, net.dup, net.maxDelay = 0.1, 0.01, 3*time.Millisecond
	wn, rn := net.node(1), net.node(2)
	w := wn.writer(testWriterID, WriterConfig{
		Reliable: true, History: HistoryConfig{KeepAll: true, MaxSamples: 5000}, MaxMessageSize: 1472,
	})
	var next uint64
	bad := 0
	r := rn.reader(testReaderID, ReaderConfig{Reliable: true}, func(s *Sample) bool {
		if payloadSeq(s.Payload) != next {
			bad++
		}
		next++
		return true
	})
	net.match(w, wn, r, rn)
	written := uint64(0)
	ok := net.run(time.Millisecond, 2*time.Minute, func() bool {
		for range 64 {
			if written == total || w.Full(wire.KeyHash{}) {
				break
			}
			if _, err := w.Write(Change{Payload: payload(written, 4096)}, net.now); err != nil {
				t.Fatal(err)
			}
			written++
		}
		return next == total && w.AckedByAll(total)
	})
	rs := r.Stats()
	t.Logf("sent %d datagrams, lost %d; writer %+v; reader %+v", net.sent, net.dropped, w.Stats(), rs)
	require.True(t, ok, "delivered %d of %d (written %d)", next, total, written)
	require.Zero(t, bad, "out of order")
	// With 8 reassemblies and fragment repairs not suppressed: 36 511 fragments dropped
	// for want of room and 55 011 datagrams.
	require.Less(t, rs.ReassemblyDropped, uint64(4*total), "fragments dropped for want of reassembly room")
	require.Less(t, net.sent, 16*total, "datagrams sent")
}
