package rhc

import (
	"sync"
	"testing"

	"github.com/ddsgo/ddsgo/internal/errs"
	"github.com/stretchr/testify/require"
)

// TestQueryRunsOutsideTheLock: a query's filter may call the cache (it would deadlock
// under the cache's lock), runs once per sample, and selects only what it judged.
func TestQueryRunsOutsideTheLock(t *testing.T) {
	c := newCache(t, Config{KeepAll: true})
	for i := range 6 {
		require.Equal(t, Accepted, c.Insert(write(byte(i%2), w1, i, i), at(i)))
	}
	calls := 0
	q := NewQuery(func(v *val) bool {
		calls++
		_ = c.Stats() // takes the cache's lock
		return v.V%3 == 0
	})
	sel := &Selector[val]{Query: q}
	require.False(t, c.Matches(sel), "nothing judged yet")
	require.NoError(t, c.Evaluate(q))
	require.Equal(t, 6, calls)
	require.True(t, c.Matches(sel))
	require.Equal(t, []int{0, 3}, selected(c, false, sel))

	// A new sample waits for the next evaluation; the old ones are not judged again.
	require.Equal(t, Accepted, c.Insert(write(0, w1, 6, 6), at(6)))
	require.Equal(t, []int{0, 3}, selected(c, false, sel))
	require.NoError(t, c.Evaluate(q))
	require.Equal(t, 7, calls)
	require.Equal(t, []int{0, 6, 3}, selected(c, true, sel), "instance 0 first")
	require.Equal(t, []int{2, 4, 1, 5}, selected(c, false, nil))
	checkCounts(t, c)
}

// TestQueryInvalidSamples: an instance state change is judged on its key value.
func TestQueryInvalidSamples(t *testing.T) {
	c := newCache(t, Config{Depth: 1})
	require.Equal(t, Accepted, c.Insert(write(1, w1, 10, 0), at(0)))
	selected(c, true, nil)
	require.Equal(t, Accepted, c.Insert(ctl(Dispose, 1, w1, 1), at(1)))
	q := NewQuery(func(v *val) bool { return v.K == 1 && v.V == 0 })
	require.NoError(t, c.Evaluate(q))
	_, infos := readAll(c, true, &Selector[val]{Query: q}, at(2))
	require.Len(t, infos, 1)
	require.False(t, infos[0].ValidData)
}

// TestQueryBits: a cache serves MaxQueries queries at once; forgetting one frees its
// bit and its verdicts, so the next query starts afresh.
func TestQueryBits(t *testing.T) {
	c := newCache(t, Config{KeepAll: true})
	require.Equal(t, Accepted, c.Insert(write(0, w1, 1, 0), at(0)))
	qs := make([]*Query[val], MaxQueries)
	for i := range qs {
		qs[i] = NewQuery(func(*val) bool { return true })
		require.NoError(t, c.Evaluate(qs[i]))
	}
	extra := NewQuery(func(*val) bool { return false })
	require.ErrorIs(t, c.Evaluate(extra), errs.ErrOutOfResources)
	c.Forget(qs[5])
	c.Forget(qs[5]) // twice is harmless
	require.NoError(t, c.Evaluate(extra))
	require.False(t, c.Matches(&Selector[val]{Query: extra}), "the old verdict is gone")
	require.True(t, c.Matches(&Selector[val]{Query: qs[6]}))
}

// TestQueryConcurrent evaluates while samples come and go (run with -race).
func TestQueryConcurrent(t *testing.T) {
	c := newCache(t, Config{Depth: 3})
	q := NewQuery(func(v *val) bool { return v.V%2 == 0 })
	sel := &Selector[val]{Query: q}
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := range 2000 {
			c.Insert(write(byte(i%5), w1, i, i), at(i))
		}
	})
	for range 2 {
		wg.Go(func() {
			dst, infos := make([]val, 8), make([]SampleInfo, 8)
			for range 500 {
				require.NoError(t, c.Evaluate(q))
				n := c.Take(dst, infos, sel, at(0))
				for _, v := range dst[:n] {
					require.Zero(t, v.V%2)
				}
			}
		})
	}
	wg.Wait()
	checkCounts(t, c)
}

// selected reads or takes what sel selects and returns the values.
func selected(c *Cache[val], take bool, sel *Selector[val]) []int {
	vs, _ := readAll(c, take, sel, at(0))
	return values(vs)
}
