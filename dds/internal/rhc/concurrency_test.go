package rhc

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestSteadyStateAllocatesNothing asserts that inserting into existing instances and
// reading or taking into caller slices allocate nothing.
func TestSteadyStateAllocatesNothing(t *testing.T) {
	for _, cfg := range []Config{
		{Depth: 4},
		{KeepAll: true, MaxSamples: 1000},
		{KeepAll: true, BySourceTimestamp: true, MinimumSeparation: time.Nanosecond},
	} {
		c := newCache(t, cfg)
		dst, infos := make([]val, 16), make([]SampleInfo, 16)
		ch := write(0, w1, 0, 0)
		ch.Lifespan = time.Hour
		sel := &Selector[val]{SampleStates: NotReadSampleState, Filter: func(v *val) bool { return v.V >= 0 }}
		ms := 0
		round := func() {
			for k := range byte(4) {
				ms++
				ch.KeyHash, ch.Value, ch.SourceTimestamp = kh(k), val{k, ms}, at(ms)
				if c.Insert(ch, at(ms)) != Accepted {
					panic("not accepted")
				}
			}
			c.Read(dst, infos, sel, at(ms))
			c.ReadNextInstance(dst, infos, HandleNil, nil, at(ms))
			if n, err := c.TakeInstance(dst, infos, infos[0].InstanceHandle, nil, at(ms)); n == 0 || err != nil {
				panic("take instance")
			}
			c.TakeNextInstance(dst, infos, HandleNil, sel, at(ms))
			if c.Take(dst, infos, nil, at(ms)) == 0 {
				panic("take")
			}
		}
		for range 10 {
			round() // create instances, grow rings
		}
		require.Zero(t, testing.AllocsPerRun(1000, round), "%+v", cfg)
		require.Equal(t, Stats{Instances: 4}, c.Stats())
	}
}

// TestHooks checks when OnDataAvailable is called, and that hooks may call the cache.
func TestHooks(t *testing.T) {
	var c *Cache[val]
	calls := 0
	c = newCache(t, Config{KeepAll: true, MaxInstances: 2, BySourceTimestamp: true, OnDataAvailable: func() {
		calls++
		c.Stats() // not under the lock
	}})
	steps := []struct {
		ch   *Change[val]
		want bool
	}{
		{write(1, w1, 1, 10), true},
		{write(1, w1, 2, 5), false},                // out of order
		{write(2, w1, 3, 10), true},                // new instance
		{write(3, w1, 4, 10), false},               // rejected
		{ctl(Unregister, 3, w1, 11), false},        // unknown instance
		{ctl(Unregister, 1, w2, 11), false},        // unknown writer
		{ctl(Dispose, 1, w1, 12), true},            // state change
		{ctl(Dispose, 1, w1, 13), false},           // no change
		{ctl(Unregister, 2, w1, 14), true},         // no writers
		{ctl(DisposeUnregister, 1, w1, 15), false}, // already disposed, disposed stays
	}
	for i, s := range steps {
		before := calls
		c.Insert(s.ch, at(20+i))
		require.Equal(t, s.want, calls > before, "step %d", i)
	}
	c.Insert(write(1, w2, 5, 30), at(30))
	before := calls
	c.WriterLost(w2, at(31))
	require.Equal(t, before+1, calls)
	c.WriterLost(w2, at(32))
	require.Equal(t, before+1, calls)
}

// TestConcurrentInsertTake runs a protocol goroutine against several readers; under
// -race it checks the locking, and it checks that every sample is taken exactly once.
func TestConcurrentInsertTake(t *testing.T) {
	const (
		samples = 5000
		keys    = 7
		readers = 3
	)
	wake := make(chan struct{}, 1)
	c := newCache(t, Config{KeepAll: true, MaxSamples: 64, OnDataAvailable: func() {
		select {
		case wake <- struct{}{}:
		default:
		}
	}})
	space := make(chan struct{}, 1)
	c.cfg.OnSpaceAvailable = func() {
		select {
		case space <- struct{}{}:
		default:
		}
	}
	var taken atomic.Int64
	seen := make([]atomic.Int32, samples)
	done := make(chan struct{})
	var wg sync.WaitGroup
	for r := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dst, infos := make([]val, 5), make([]SampleInfo, 5)
			peekDst, peekInfos := make([]val, 5), make([]SampleInfo, 5)
			prev := HandleNil
			for {
				var n int
				if r == 0 {
					n = c.TakeNextInstance(dst, infos, prev, nil, time.Now())
					if n > 0 {
						prev = infos[0].InstanceHandle
					} else {
						prev = HandleNil
					}
				} else {
					n = c.Take(dst, infos, &Selector[val]{InstanceStates: AnyInstanceState}, time.Now())
					c.Read(peekDst, peekInfos, nil, time.Now())
				}
				for i := range n {
					if infos[i].ValidData {
						seen[dst[i].V].Add(1)
						taken.Add(1)
					}
				}
				if n == 0 {
					select {
					case <-wake:
					case <-done:
						return
					case <-time.After(time.Millisecond):
					}
				}
			}
		}()
	}
	for i := range samples {
		k := byte(i % keys)
		for c.Insert(write(k, w1, i, i), time.Now()).Rejected() {
			select {
			case <-space:
			case <-time.After(time.Millisecond):
			}
		}
		if i%100 == 99 {
			c.Insert(ctl(DisposeUnregister, k, w1, i), time.Now())
		}
		if i%250 == 0 {
			c.WriterLost(w1, time.Now())
		}
	}
	require.Eventually(t, func() bool { return taken.Load() == samples }, 10*time.Second, time.Millisecond)
	close(done)
	wg.Wait()
	for i := range seen {
		require.Equal(t, int32(1), seen[i].Load(), "sample %d", i)
	}
	checkCounts(t, c)
}

func BenchmarkInsertTake(b *testing.B) {
	c := newCache(b, Config{Depth: 16})
	dst, infos := make([]val, 16), make([]SampleInfo, 16)
	ch := write(0, w1, 0, 0)
	now := at(0)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		ch.KeyHash[15] = byte(i & 15)
		c.Insert(ch, now)
		if i&15 == 15 {
			c.Take(dst, infos, nil, now)
		}
	}
}

func BenchmarkReadManyInstances(b *testing.B) {
	c := newCache(b, Config{Depth: 1})
	for k := range 1000 {
		ch := write(0, w1, k, 0)
		ch.KeyHash = KeyHash{byte(k >> 8), byte(k)}
		c.Insert(ch, at(0))
	}
	dst, infos := make([]val, 1000), make([]SampleInfo, 1000)
	b.ReportAllocs()
	for b.Loop() {
		c.Read(dst, infos, nil, at(0))
	}
}

// BenchmarkTakeBacklog takes 64 samples at a time from one KEEP_ALL instance 10 000
// samples deep, writing 64 more each time: a reader behind a fast writer. A take of the
// oldest samples drops them from the front of the instance's ring; before, it walked and
// moved the whole backlog (10 000 samples per take of 64).
func BenchmarkTakeBacklog(b *testing.B) {
	c := newCache(b, Config{KeepAll: true})
	for i := range 10_000 {
		c.Insert(write(0, w1, i, 0), at(0))
	}
	dst, infos := make([]val, 64), make([]SampleInfo, 64)
	ch := write(0, w1, 0, 0)
	b.ReportAllocs()
	for b.Loop() {
		for range 64 {
			c.Insert(ch, at(0))
		}
		if c.Take(dst, infos, nil, at(0)) != 64 {
			b.Fatal("short take")
		}
	}
}

// TestTakeKeepsOrderAroundReadSamples: a take that selects only the unread samples, some
// of which lie after read ones, removes exactly those, in order, and leaves the read ones
// (the path that cannot drop from the front).
func TestTakeKeepsOrderAroundReadSamples(t *testing.T) {
	c := newCache(t, Config{KeepAll: true})
	for i := range 6 {
		c.Insert(write(0, w1, i, 0), at(0))
	}
	dst, infos := make([]val, 2), make([]SampleInfo, 2)
	require.Equal(t, 2, c.Read(dst, infos, nil, at(0))) // 0 and 1 read
	for i := 6; i < 8; i++ {
		c.Insert(write(0, w1, i, 0), at(0))
	}
	dst, infos = make([]val, 3), make([]SampleInfo, 3)
	sel := &Selector[val]{SampleStates: NotReadSampleState}
	require.Equal(t, 3, c.Take(dst, infos, sel, at(0)))
	require.Equal(t, []int{2, 3, 4}, []int{dst[0].V, dst[1].V, dst[2].V})
	s, ok := peek(c, 0)
	require.True(t, ok)
	require.Equal(t, []int{0, 1, 5, 6, 7}, s.Values)
	require.Equal(t, []bool{true, true, false, false, false}, s.Read)
	dst = make([]val, 10)
	infos = make([]SampleInfo, 10)
	require.Equal(t, 5, c.Take(dst, infos, nil, at(0))) // all, from the front
	require.Equal(t, []int{0, 1, 5, 6, 7}, []int{dst[0].V, dst[1].V, dst[2].V, dst[3].V, dst[4].V})
	checkCounts(t, c)
}
