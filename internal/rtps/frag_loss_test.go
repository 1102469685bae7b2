package rtps

import (
	"testing"
	"time"

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
	run := net.inOrder(w, wn, rn, ReaderConfig{Reliable: true}, total, 2*time.Minute,
		func(seq uint64) Change { return Change{Payload: payload(seq, 4096)} })
	rs := run.r.Stats()
	t.Logf("sent %d datagrams, lost %d; writer %+v; reader %+v", net.sent, net.dropped, w.Stats(), rs)
	run.require(t)
	// With 8 reassemblies and fragment repairs not suppressed: 36 511 fragments dropped
	// for want of room and 55 011 datagrams.
	require.Less(t, rs.ReassemblyDropped, uint64(4*total), "fragments dropped for want of reassembly room")
	require.Less(t, net.sent, 16*total, "datagrams sent")
}
