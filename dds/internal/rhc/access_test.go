package rhc

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func values(vs []val) []int {
	out := make([]int, len(vs))
	for i, v := range vs {
		out[i] = v.V
	}
	return out
}

// TestRanks builds an instance with three generations and checks sample_rank,
// generation_rank and absolute_generation_rank (DDS 1.4 §2.2.2.5.5) for the whole
// history and for subsets.
func TestRanks(t *testing.T) {
	build := func(t *testing.T) *Cache[val] {
		c := newCache(t, Config{KeepAll: true})
		c.Insert(write(1, w1, 1, 1), at(1))        // gen 0
		c.Insert(write(1, w1, 2, 2), at(2))        // gen 0
		c.Insert(ctl(Dispose, 1, w1, 3), at(3))    // (unread samples: no invalid)
		c.Insert(write(1, w1, 3, 4), at(4))        // gen 1 (disposed 1)
		c.Insert(ctl(Unregister, 1, w1, 5), at(5)) // no writers
		c.Insert(write(1, w2, 4, 6), at(6))        // gen 2 (no writers 1)
		c.Insert(write(2, w2, 100, 7), at(7))      // another instance
		require.Equal(t, Stats{Instances: 2, Samples: 5}, c.Stats())
		return c
	}
	type ranks struct{ V, S, G, A, DGC, NWGC int32 }
	get := func(vals []val, infos []SampleInfo) []ranks {
		var out []ranks
		for i, in := range infos {
			out = append(out, ranks{
				int32(vals[i].V), in.SampleRank, in.GenerationRank, in.AbsoluteGenerationRank,
				in.DisposedGenerationCount, in.NoWritersGenerationCount,
			})
		}
		return out
	}
	tests := []struct {
		name string
		sel  *Selector[val]
		want []ranks
	}{
		{"all", nil, []ranks{
			{1, 3, 2, 2, 0, 0},
			{2, 2, 2, 2, 0, 0},
			{3, 1, 1, 1, 1, 0},
			{4, 0, 0, 0, 1, 1},
			{100, 0, 0, 0, 0, 0},
		}},
		{"oldest generations only", &Selector[val]{Filter: func(v *val) bool { return v.V <= 3 }}, []ranks{
			{1, 2, 1, 2, 0, 0}, {2, 1, 1, 2, 0, 0}, {3, 0, 0, 1, 1, 0},
		}},
		{"first generation only", &Selector[val]{Filter: func(v *val) bool { return v.V <= 2 }}, []ranks{
			{1, 1, 0, 2, 0, 0}, {2, 0, 0, 2, 0, 0},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := build(t)
			vals, infos := readAll(c, false, tt.sel, at(10))
			require.Equal(t, tt.want, get(vals, infos))
		})
	}
	t.Run("max samples cuts the collection", func(t *testing.T) {
		c := build(t)
		dst, infos := make([]val, 2), make([]SampleInfo, 2)
		require.Equal(t, 2, c.Read(dst, infos, nil, at(10)))
		require.Equal(t, []ranks{{1, 1, 0, 2, 0, 0}, {2, 0, 0, 2, 0, 0}}, get(dst, infos))
	})
}

// TestSelectors checks the sample, view and instance state masks and the filter.
func TestSelectors(t *testing.T) {
	// Instances: 1 alive not-new with one read and one unread sample; 2 alive new;
	// 3 disposed new; 4 no writers new.
	build := func(t *testing.T) *Cache[val] {
		c := newCache(t, Config{KeepAll: true})
		c.Insert(write(1, w1, 10, 1), at(1))
		readAll(c, false, nil, at(2))
		c.Insert(write(1, w1, 11, 3), at(3))
		c.Insert(write(2, w1, 20, 4), at(4))
		c.Insert(write(3, w1, 30, 5), at(5))
		c.Insert(ctl(Dispose, 3, w1, 6), at(6))
		c.Insert(write(4, w2, 40, 7), at(7))
		c.Insert(ctl(Unregister, 4, w2, 8), at(8))
		return c
	}
	tests := []struct {
		name string
		sel  Selector[val]
		want []int
	}{
		{"zero selects all", Selector[val]{}, []int{10, 11, 20, 30, 40}},
		{"any masks", Selector[val]{SampleStates: AnySampleState, ViewStates: AnyViewState, InstanceStates: AnyInstanceState}, []int{10, 11, 20, 30, 40}},
		{"read", Selector[val]{SampleStates: ReadSampleState}, []int{10}},
		{"not read", Selector[val]{SampleStates: NotReadSampleState}, []int{11, 20, 30, 40}},
		{"new", Selector[val]{ViewStates: NewViewState}, []int{20, 30, 40}},
		{"not new", Selector[val]{ViewStates: NotNewViewState}, []int{10, 11}},
		{"alive", Selector[val]{InstanceStates: AliveInstanceState}, []int{10, 11, 20}},
		{"disposed", Selector[val]{InstanceStates: NotAliveDisposedInstanceState}, []int{30}},
		{"no writers", Selector[val]{InstanceStates: NotAliveNoWritersInstanceState}, []int{40}},
		{"not alive", Selector[val]{InstanceStates: NotAliveInstanceState}, []int{30, 40}},
		{"not read and alive and not new", Selector[val]{SampleStates: NotReadSampleState, ViewStates: NotNewViewState, InstanceStates: AliveInstanceState}, []int{11}},
		{"filter", Selector[val]{Filter: func(v *val) bool { return v.V%20 == 0 }}, []int{20, 40}},
		{"filter and mask", Selector[val]{InstanceStates: NotAliveInstanceState, Filter: func(v *val) bool { return v.V%20 == 0 }}, []int{40}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := build(t)
			require.Equal(t, len(tt.want) > 0, c.Matches(&tt.sel))
			vals, _ := readAll(c, false, &tt.sel, at(10))
			require.Equal(t, tt.want, values(vals))
			// Read marked them: the same selector with NOT_READ finds none of them.
			notRead := tt.sel
			notRead.SampleStates = NotReadSampleState
			vals, _ = readAll(c, false, &notRead, at(11))
			for _, v := range vals {
				require.NotContains(t, tt.want, v.V)
			}

			c = build(t)
			vals, _ = readAll(c, true, &tt.sel, at(10))
			require.Equal(t, tt.want, values(vals))
			vals, _ = readAll(c, false, &tt.sel, at(11))
			require.Empty(t, vals, "taken")
			checkCounts(t, c)
		})
	}
}

// TestFilterOnInvalidSample checks that a query filter sees the key value of an invalid
// sample.
func TestFilterOnInvalidSample(t *testing.T) {
	c := newCache(t, Config{})
	c.Insert(ctl(Dispose, 1, w1, 1), at(1))
	c.Insert(ctl(Dispose, 2, w1, 1), at(1))
	sel := &Selector[val]{Filter: func(v *val) bool { return v.K == 2 }}
	vals, infos := readAll(c, true, sel, at(2))
	require.Equal(t, []val{{K: 2}}, vals)
	require.False(t, infos[0].ValidData)
	// Instance 2 stays: disposed, but its writer is still registered.
	require.Equal(t, Stats{Instances: 2, InvalidSamples: 1}, c.Stats())
}

// TestInstanceAccess checks ReadInstance, TakeInstance and the next-instance iteration.
func TestInstanceAccess(t *testing.T) {
	c := newCache(t, Config{Depth: 2})
	for k := byte(1); k <= 4; k++ {
		c.Insert(write(k, w1, int(k)*10, int(k)), at(int(k)))
		c.Insert(write(k, w1, int(k)*10+1, int(k)), at(int(k)))
	}
	h := make([]InstanceHandle, 5)
	for k := byte(1); k <= 4; k++ {
		h[k] = c.Lookup(kh(k))
		got, ok := c.InstanceKey(h[k])
		require.True(t, ok)
		require.Equal(t, kh(k), got)
	}
	require.Equal(t, HandleNil, c.Lookup(kh(9)))
	require.Less(t, h[1], h[2], "handles follow creation order")
	require.Less(t, h[2], h[3])
	require.Less(t, h[3], h[4])

	dst, infos := make([]val, 8), make([]SampleInfo, 8)
	n, err := c.ReadInstance(dst, infos, h[2], nil, at(10))
	require.NoError(t, err)
	require.Equal(t, []int{20, 21}, values(dst[:n]))
	require.Equal(t, h[2], infos[0].InstanceHandle)

	_, err = c.ReadInstance(dst, infos, h[4]+1, nil, at(10))
	require.ErrorIs(t, err, ErrBadHandle)
	_, err = c.TakeInstance(dst, infos, HandleNil, nil, at(10))
	require.ErrorIs(t, err, ErrBadHandle)

	// Walk all instances, one at a time.
	var walked []int
	for prev := HandleNil; ; {
		n := c.ReadNextInstance(dst, infos, prev, nil, at(11))
		if n == 0 {
			break
		}
		require.Greater(t, infos[0].InstanceHandle, prev)
		for i := range n {
			require.Equal(t, infos[0].InstanceHandle, infos[i].InstanceHandle, "one instance per call")
		}
		walked = append(walked, values(dst[:n])...)
		prev = infos[0].InstanceHandle
	}
	require.Equal(t, []int{10, 11, 20, 21, 30, 31, 40, 41}, walked)

	// Next instance skips instances without selected samples.
	notRead := &Selector[val]{SampleStates: NotReadSampleState}
	c.Insert(write(3, w1, 32, 20), at(20))
	n = c.ReadNextInstance(dst, infos, HandleNil, notRead, at(21))
	require.Equal(t, []int{32}, values(dst[:n]))
	require.Equal(t, h[3], infos[0].InstanceHandle)

	// Next instance from a purged handle continues after it.
	c.Insert(ctl(Unregister, 2, w1, 30), at(30))
	n, err = c.TakeInstance(dst, infos, h[2], nil, at(31))
	require.NoError(t, err)
	require.Equal(t, 3, n, "two samples and the invalid one of the unregistration")
	require.False(t, infos[2].ValidData)
	require.Equal(t, HandleNil, c.Lookup(kh(2)), "purged")
	n = c.TakeNextInstance(dst, infos, h[2], nil, at(32))
	require.Equal(t, []int{31, 32}, values(dst[:n]))
	require.Equal(t, h[3], infos[0].InstanceHandle)
	n = c.TakeNextInstance(dst, infos, h[3], nil, at(32))
	require.Equal(t, []int{40, 41}, values(dst[:n]))
	require.Zero(t, c.TakeNextInstance(dst, infos, h[4], nil, at(32)))

	// Zero-length destinations return nothing and change nothing.
	require.Zero(t, c.Read(nil, nil, nil, at(33)))
	require.Zero(t, c.ReadNextInstance(dst[:0], infos, HandleNil, nil, at(33)))
	checkCounts(t, c)
}

// TestKeepLast checks that KEEP_LAST keeps the newest depth samples per instance.
func TestKeepLast(t *testing.T) {
	for _, depth := range []int{0, 1, 3} {
		c := newCache(t, Config{Depth: depth})
		for v := range 10 {
			require.Equal(t, Accepted, c.Insert(write(1, w1, v, v), at(v)))
			require.Equal(t, Accepted, c.Insert(write(2, w1, 100+v, v), at(v)))
		}
		keep := max(depth, 1)
		s, _ := peek(c, 1)
		want := make([]int, 0, keep)
		for v := 10 - keep; v < 10; v++ {
			want = append(want, v)
		}
		require.Equal(t, want, s.Values, "depth %d", depth)
		require.Equal(t, Stats{Instances: 2, Samples: 2 * keep}, c.Stats())
		c.mu.Lock()
		require.LessOrEqual(t, len(c.byKey[kh(1)].samples.buf), keep, "ring capped at depth")
		c.mu.Unlock()
	}
}

// TestKeepLastReadStateOfReplaced checks that a replaced read sample leaves no trace.
func TestKeepLastReadStateOfReplaced(t *testing.T) {
	c := newCache(t, Config{Depth: 1})
	c.Insert(write(1, w1, 1, 1), at(1))
	readAll(c, false, nil, at(2))
	c.Insert(write(1, w1, 2, 3), at(3))
	_, infos := readAll(c, false, &Selector[val]{SampleStates: NotReadSampleState}, at(4))
	require.Len(t, infos, 1)
	require.Equal(t, NotNewViewState, infos[0].ViewState)
}

func TestNow(t *testing.T) {
	// Missing source timestamps are replaced by the reception time.
	c := newCache(t, Config{})
	ch := write(1, w1, 1, 0)
	ch.SourceTimestamp = time.Time{}
	c.Insert(ch, at(5))
	_, infos := readAll(c, false, nil, at(6))
	require.Equal(t, at(5), infos[0].SourceTimestamp)
}
