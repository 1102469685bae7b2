package transport

import (
	"net/netip"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCompact: a datagram that fits a small buffer moves to one, with its source
// and socket kind, and its 64 KiB packet goes back to the pool; a larger one, or
// one already small, stays where it is. Nothing leaks, and compacting a packet of
// the pool in steady state allocates nothing.
func TestCompact(t *testing.T) {
	out := packetsOut.Load()
	src := netip.MustParseAddrPort("127.0.0.1:7400")
	p := GetPacket()
	p.Data = append(p.Data, "RTPS small datagram"...)
	p.Src, p.Kind = src, SocketMetaMulticast
	q := p.Compact()
	require.NotSame(t, p, q)
	require.Len(t, q.Buffer(), SmallBufferSize)
	require.Equal(t, "RTPS small datagram", string(q.Data))
	require.Equal(t, src, q.Src)
	require.Equal(t, SocketMetaMulticast, q.Kind)
	require.Same(t, q, q.Compact(), "already small")
	q.Release()

	big := GetPacket()
	big.Data = big.Buffer()[:SmallBufferSize+1]
	require.Same(t, big, big.Compact(), "larger than a small buffer")
	big.Release()
	require.Len(t, GetPacketFor(SmallBufferSize).Buffer(), SmallBufferSize)
	require.Len(t, GetPacketFor(SmallBufferSize+1).Buffer(), BufferSize)
	packetsOut.Add(-2) // the two just above, never released

	allocs := testing.AllocsPerRun(100, func() {
		p := GetPacket()
		p.Data = append(p.Data, 1, 2, 3)
		p.Compact().Release()
	})
	if !raceEnabled { // sync.Pool drops items at random under the race detector
		require.Zero(t, allocs)
	}
	require.Equal(t, out, packetsOut.Load())
}
