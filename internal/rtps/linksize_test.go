package rtps

import (
	"testing"

	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/stretchr/testify/require"
)

func TestLinkMessageSize(t *testing.T) {
	for _, c := range []struct {
		maxDatagram, frag int
		wantMsg, wantFrag int
	}{
		{0, 0, DefaultMaxMessageSize, DefaultFragmentSize},          // MTU unknown
		{65536 - 28, 0, DefaultMaxMessageSize, DefaultFragmentSize}, // loopback
		{1500 - 28, 0, 1472, DefaultFragmentSize},                   // Ethernet: one fragment fits
		{1500 - 28, 4000, 1472, 1344},                               // a fragment size too big shrinks
		{1280 - 28, 0, 1252, 1124},                                  // an IPv6-sized link
		{100, 0, minMessageSize, minMessageSize - fragOverhead},     // absurd MTUs have a floor
	} {
		msg, frag := linkMessageSize(c.maxDatagram, c.frag)
		require.Equal(t, c.wantMsg, msg, "%+v", c)
		require.Equal(t, c.wantFrag, frag, "%+v", c)
		require.LessOrEqual(t, frag+fragOverhead, msg)
	}
}

func TestFragKey(t *testing.T) {
	seen := map[wire.SequenceNumber]bool{}
	slots := map[uint64]bool{}
	for sn := wire.SequenceNumber(1000); sn < 1064; sn++ {
		for f := wire.FragmentNumber(1); f <= 4; f++ {
			k, ok := fragKey(sn, f)
			require.True(t, ok)
			require.False(t, seen[k], "keys are unique")
			seen[k] = true
			slots[uint64(k)%rexmitSlots] = true
		}
	}
	require.Len(t, slots, 256, "64 samples of 4 fragments fill the table without collision")
	_, ok := fragKey(1, 1<<20)
	require.False(t, ok)
	_, ok = fragKey(1<<35, 1)
	require.False(t, ok)
}
