package rhc

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// With OrderedAccess a take returns the samples in the order they were stored, across
// instances, each instance's ranks as without; by default instance by instance.
func TestOrderedAccess(t *testing.T) {
	for _, ordered := range []bool{false, true} {
		c := newCache(t, Config{KeepAll: true, OrderedAccess: ordered})
		for i, k := range []byte{2, 1, 2, 3, 1} {
			c.Insert(write(k, w1, i, i), at(i))
		}
		dst := make([]val, 8)
		infos := make([]SampleInfo, 8)
		n := c.Take(dst, infos, nil, at(10))
		require.Equal(t, 5, n)
		var got []int
		ranks := map[byte][]int32{}
		for i := range n {
			got = append(got, dst[i].V)
			ranks[dst[i].K] = append(ranks[dst[i].K], infos[i].SampleRank)
		}
		if ordered {
			require.Equal(t, []int{0, 1, 2, 3, 4}, got)
		} else {
			require.Equal(t, []int{0, 2, 1, 4, 3}, got) // instances in handle order: 2, 1, 3
		}
		require.Equal(t, map[byte][]int32{1: {1, 0}, 2: {1, 0}, 3: {0}}, ranks)
	}
}
