package dds

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWriteTakeAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful with the race detector")
	}
	p := testParticipant(t, nil, nil)
	w, r := endpoints[point](t, p, "points", nil, reliableReader())
	data := make([]point, 8)
	infos := make([]SampleInfo, 8)
	v := point{ID: 1}
	for range 100 {
		v.X++
		require.NoError(t, w.Write(&v))
		_, err := r.TakeInto(data, infos, States{})
		require.NoError(t, err)
	}
	allocs := testing.AllocsPerRun(1000, func() {
		v.X++
		if err := w.Write(&v); err != nil {
			t.Fatal(err)
		}
		if n, err := r.TakeInto(data, infos, States{}); err != nil || n != 1 {
			t.Fatal(n, err)
		}
	})
	require.Zero(t, allocs, "write, loopback delivery and take")

	// A KEEP_LAST 1 reader drops the older samples: write alone.
	w2, _ := endpoints[point](t, p, "keep_last", nil, nil)
	require.NoError(t, w2.Write(&v))
	allocs = testing.AllocsPerRun(1000, func() {
		v.X++
		if err := w2.Write(&v); err != nil {
			t.Fatal(err)
		}
	})
	require.Zero(t, allocs, "write and loopback delivery")
}
