package rhc

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/errs"
)

func withLifespan(ch *Change[val], d time.Duration) *Change[val] {
	ch.Lifespan = d
	return ch
}

// TestLifespan checks that samples expire at source timestamp + lifespan.
func TestLifespan(t *testing.T) {
	c := newCache(t, Config{KeepAll: true})
	ms := time.Millisecond
	require.Equal(t, Accepted, c.Insert(withLifespan(write(1, w1, 1, 0), 100*ms), at(10)))
	require.Equal(t, Accepted, c.Insert(withLifespan(write(1, w2, 2, 0), 200*ms), at(10)))
	require.Equal(t, Accepted, c.Insert(write(1, w1, 3, 0), at(10)), "no lifespan")
	require.Equal(t, DroppedExpired, c.Insert(withLifespan(write(1, w1, 4, 0), 5*ms), at(10)))
	require.Equal(t, Accepted, c.Insert(withLifespan(write(1, w1, 5, 0), 1<<63-1), at(10)), "infinite")

	vals, _ := readAll(c, false, nil, at(100))
	require.Equal(t, []int{1, 2, 3, 5}, values(vals), "expiry at exactly +lifespan still valid")
	vals, _ = readAll(c, false, nil, at(150))
	require.Equal(t, []int{2, 3, 5}, values(vals))
	vals, _ = readAll(c, true, nil, at(250))
	require.Equal(t, []int{3, 5}, values(vals))
	checkCounts(t, c)

	// An instance left empty and without writers by expiry is purged.
	c.Insert(withLifespan(write(2, w1, 6, 300), 10*ms), at(300))
	c.Insert(ctl(Unregister, 2, w1, 301), at(301))
	require.NotEqual(t, HandleNil, c.Lookup(kh(2)))
	require.Empty(t, func() []val { v, _ := readAll(c, false, nil, at(400)); return v }())
	require.Equal(t, HandleNil, c.Lookup(kh(2)))
	checkCounts(t, c)
}

// TestLifespanFreesSpace checks that expired samples make room for a new one instead of
// a rejection.
func TestLifespanFreesSpace(t *testing.T) {
	spaceCalls := 0
	c := newCache(t, Config{KeepAll: true, MaxSamples: 2, OnSpaceAvailable: func() { spaceCalls++ }})
	c.Insert(withLifespan(write(1, w1, 1, 0), 10*time.Millisecond), at(0))
	c.Insert(write(2, w1, 2, 0), at(0))
	require.Equal(t, RejectedBySamplesLimit, c.Insert(write(3, w1, 3, 5), at(5)))
	require.Equal(t, Accepted, c.Insert(write(3, w1, 3, 20), at(20)))
	require.LessOrEqual(t, spaceCalls, 1, "a hint: at most once per rejection")
	vals, _ := readAll(c, false, nil, at(21))
	require.Equal(t, []int{2, 3}, values(vals))
	checkCounts(t, c)
}

// TestAutopurge checks READER_DATA_LIFECYCLE.
func TestAutopurge(t *testing.T) {
	ms := time.Millisecond
	t.Run("no writers", func(t *testing.T) {
		c := newCache(t, Config{AutopurgeNoWriterSamplesDelay: 100 * ms})
		c.Insert(write(1, w1, 1, 0), at(0))
		require.True(t, c.Tick(at(0)).IsZero())
		c.Insert(ctl(Unregister, 1, w1, 10), at(10))
		require.Equal(t, at(110), c.Tick(at(50)))
		require.Equal(t, Stats{Instances: 1, Samples: 1}, c.Stats())
		require.True(t, c.Tick(at(110)).IsZero())
		require.Equal(t, Stats{}, c.Stats())
	})
	t.Run("no writers, reborn before the deadline", func(t *testing.T) {
		c := newCache(t, Config{Depth: 2, AutopurgeNoWriterSamplesDelay: 100 * ms})
		c.Insert(write(1, w1, 1, 0), at(0))
		c.Insert(ctl(Unregister, 1, w1, 10), at(10))
		c.Insert(write(1, w1, 2, 20), at(20))
		require.True(t, c.Tick(at(200)).IsZero())
		require.Equal(t, Stats{Instances: 1, Samples: 2}, c.Stats())
	})
	t.Run("disposed with a writer keeps the instance", func(t *testing.T) {
		c := newCache(t, Config{AutopurgeDisposedSamplesDelay: 100 * ms, AutopurgeNoWriterSamplesDelay: 50 * ms})
		c.Insert(write(1, w1, 1, 0), at(0))
		c.Insert(ctl(Dispose, 1, w1, 10), at(10))
		c.Insert(write(2, w1, 1, 20), at(20))
		c.Insert(ctl(Unregister, 2, w1, 30), at(30))
		require.Equal(t, at(80), c.Tick(at(30)), "the earliest deadline")
		require.Equal(t, at(110), c.Tick(at(80)))
		require.Equal(t, HandleNil, c.Lookup(kh(2)))
		require.True(t, c.Tick(at(110)).IsZero())
		s, ok := peek(c, 1)
		require.True(t, ok)
		require.Equal(t, snapshot{State: disposed, View: isNew, Writers: 1}, s)
		c.Insert(ctl(Unregister, 1, w1, 120), at(120))
		require.Equal(t, Stats{}, c.Stats())
	})
	t.Run("disposed again moves the deadline", func(t *testing.T) {
		c := newCache(t, Config{AutopurgeDisposedSamplesDelay: 100 * ms})
		c.Insert(ctl(DisposeUnregister, 1, w1, 0), at(0))
		c.Insert(write(1, w1, 1, 50), at(50))
		c.Insert(ctl(DisposeUnregister, 1, w1, 60), at(60))
		require.Equal(t, at(160), c.Tick(at(100)))
		require.Equal(t, Stats{Instances: 1, Samples: 1}, c.Stats())
		// Due purges also run on access.
		vals, _ := readAll(c, false, nil, at(160))
		require.Empty(t, vals)
		require.Equal(t, Stats{}, c.Stats())
	})
	t.Run("infinite", func(t *testing.T) {
		c := newCache(t, Config{AutopurgeNoWriterSamplesDelay: 1<<63 - 1, AutopurgeDisposedSamplesDelay: 0})
		c.Insert(ctl(Dispose, 1, w1, 0), at(0))
		c.Insert(write(2, w1, 1, 0), at(0))
		c.Insert(ctl(Unregister, 2, w1, 0), at(0))
		require.True(t, c.Tick(at(0)).IsZero())
		require.Equal(t, Stats{Instances: 2, Samples: 1, InvalidSamples: 1}, c.Stats())
	})
	t.Run("many instances purge in deadline order", func(t *testing.T) {
		c := newCache(t, Config{AutopurgeNoWriterSamplesDelay: 100 * ms, AutopurgeDisposedSamplesDelay: 30 * ms})
		for k := range byte(40) {
			c.Insert(write(k, w1, int(k), int(k)), at(int(k)))
		}
		for k := range byte(40) {
			kind := Unregister
			if k%3 == 0 {
				kind = DisposeUnregister
			}
			c.Insert(ctl(kind, k, w1, 100+int(k)), at(100+int(k)))
		}
		checkCounts(t, c)
		for now := 139; now < 300; now++ { // the last unregistration was at 139
			next := c.Tick(at(now))
			checkCounts(t, c)
			for k := range byte(40) {
				delay := 100
				if k%3 == 0 {
					delay = 30
				}
				_, ok := peek(c, k)
				require.Equal(t, now < 100+int(k)+delay, ok, "instance %d at %d", k, now)
			}
			if !next.IsZero() {
				require.True(t, next.After(at(now)))
			}
		}
	})
}

// TestTimeBasedFilter checks TIME_BASED_FILTER minimum_separation per instance.
func TestTimeBasedFilter(t *testing.T) {
	c := newCache(t, Config{KeepAll: true, MinimumSeparation: 50 * time.Millisecond})
	steps := []struct {
		ch   *Change[val]
		now  int
		want Outcome
	}{
		{write(1, w1, 1, 0), 0, Accepted},
		{write(2, w1, 2, 0), 10, Accepted},
		{write(1, w1, 3, 0), 49, DroppedByTimeFilter},
		{write(1, w2, 4, 0), 50, Accepted},
		{write(1, w1, 5, 0), 60, DroppedByTimeFilter},
		{ctl(Dispose, 1, w1, 0), 61, Accepted},
		{write(1, w1, 6, 0), 62, Accepted}, // rebirth always passes
		{write(1, w1, 7, 0), 70, DroppedByTimeFilter},
	}
	for i, s := range steps {
		require.Equal(t, s.want, c.Insert(s.ch, at(s.now)), "step %d", i)
	}
	vals, _ := readAll(c, false, nil, at(100))
	require.Equal(t, []int{1, 4, 6, 2}, values(vals))
	s, _ := peek(c, 1)
	require.Equal(t, 2, s.Writers, "a filtered sample still registers its writer")
}

// TestBySourceTimestamp checks DESTINATION_ORDER BY_SOURCE_TIMESTAMP.
func TestBySourceTimestamp(t *testing.T) {
	lo, hi := GUID{1}, GUID{9}
	steps := []struct {
		ch   *Change[val]
		want Outcome
	}{
		{write(1, hi, 1, 10), Accepted},
		{write(1, hi, 2, 5), DroppedOutOfOrder},
		{write(1, hi, 3, 10), Accepted},          // same writer, same time
		{write(1, lo, 4, 10), Accepted},          // smaller GUID wins a tie
		{write(1, hi, 5, 10), DroppedOutOfOrder}, // larger GUID loses it
		{write(1, hi, 6, 11), Accepted},
		{ctl(Dispose, 1, lo, 8), DroppedOutOfOrder},
		{ctl(Dispose, 1, lo, 12), Accepted},
		{write(1, lo, 7, 11), DroppedOutOfOrder}, // does not revive the instance
		{ctl(Unregister, 1, hi, 1), Accepted},    // unregistrations are never out of order
		{write(2, hi, 8, 1), Accepted},           // other instances have their own order
	}
	c := newCache(t, Config{KeepAll: true, BySourceTimestamp: true})
	for i, s := range steps {
		require.Equal(t, s.want, c.Insert(s.ch, at(100+i)), "step %d", i)
	}
	s, _ := peek(c, 1)
	require.Equal(t, snapshot{State: disposed, View: isNew, Values: []int{1, 3, 4, 6}, Read: make([]bool, 4), Writers: 1}, s)

	// By reception timestamp the same changes are all kept.
	c = newCache(t, Config{KeepAll: true})
	for i, s := range steps[:6] {
		require.Equal(t, Accepted, c.Insert(s.ch, at(100+i)))
	}
}

// TestLifespanFarTimestamps checks expiry with source timestamps outside the range of
// Unix nanoseconds, as a broken peer could send.
func TestLifespanFarTimestamps(t *testing.T) {
	c := newCache(t, Config{KeepAll: true})
	far := write(1, w1, 1, 0)
	far.SourceTimestamp = time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)
	far.Lifespan = time.Second
	require.Equal(t, Accepted, c.Insert(far, at(0)))
	old := write(1, w1, 2, 0)
	old.SourceTimestamp = time.Date(1000, 1, 1, 0, 0, 0, 0, time.UTC)
	old.Lifespan = time.Second
	require.Equal(t, DroppedExpired, c.Insert(old, at(0)))
	vals, _ := readAll(c, false, nil, at(1000))
	require.Equal(t, []int{1}, values(vals))
}

// TestReadsNeedTime: reads need the time only for lifespans and autopurges.
func TestReadsNeedTime(t *testing.T) {
	c := newCache(t, Config{Depth: 1})
	require.Equal(t, Accepted, c.Insert(write(1, w1, 1, 0), at(0)))
	require.False(t, c.ReadsNeedTime())
	ch := write(1, w1, 2, 1)
	ch.Lifespan = time.Second
	require.Equal(t, Accepted, c.Insert(ch, at(1)))
	require.True(t, c.ReadsNeedTime())
	require.True(t, newCache(t, Config{AutopurgeDisposedSamplesDelay: time.Second}).ReadsNeedTime())
}

// TestSetLifecycle: TIME_BASED_FILTER and READER_DATA_LIFECYCLE change on a cache in
// use. The filter holds from the next sample; the autopurge delays apply to the
// NOT_ALIVE instances too, counted from when each became NOT_ALIVE (under an infinite
// delay or not), and an infinite delay cancels a waiting purge.
func TestSetLifecycle(t *testing.T) {
	ms := time.Millisecond
	c := newCache(t, Config{KeepAll: true})
	require.Equal(t, Accepted, c.Insert(write(1, w1, 1, 0), at(0)))
	require.Equal(t, Accepted, c.Insert(write(1, w1, 2, 0), at(1)))
	require.NoError(t, c.SetLifecycle(50*ms, 0, 0, at(2)))
	require.Equal(t, DroppedByTimeFilter, c.Insert(write(1, w1, 3, 0), at(20)))
	require.Equal(t, Accepted, c.Insert(write(1, w1, 4, 0), at(60)))
	require.NoError(t, c.SetLifecycle(0, 0, 0, at(61)))
	require.Equal(t, Accepted, c.Insert(write(1, w1, 5, 0), at(62)), "the filter is off again")

	// Instance 1 unregistered at 100 under an infinite delay, 2 disposed at 100 under 1 s.
	c = newCache(t, Config{AutopurgeDisposedSamplesDelay: time.Second})
	c.Insert(write(1, w1, 1, 0), at(0))
	c.Insert(write(2, w1, 1, 0), at(0))
	c.Insert(ctl(Unregister, 1, w1, 100), at(100))
	c.Insert(ctl(Dispose, 2, w1, 100), at(100))
	require.Equal(t, at(1100), c.Tick(at(100)))
	require.NoError(t, c.SetLifecycle(0, 300*ms, 200*ms, at(200)))
	require.Equal(t, at(300), c.Tick(at(200)), "2: disposed at 100, purged 200 ms after")
	require.Equal(t, at(400), c.Tick(at(300)), "1: without writers since 100, 300 ms after")
	_, ok := peek(c, 2)
	require.True(t, ok, "a disposed instance with a writer stays, empty")
	require.True(t, c.Tick(at(400)).IsZero())
	require.Equal(t, HandleNil, c.Lookup(kh(1)), "purged with no writer")

	// An instance that has waited longer than its new delay goes at the change.
	c.Insert(write(3, w1, 1, 0), at(600))
	c.Insert(ctl(Unregister, 3, w1, 600), at(600))
	require.NoError(t, c.SetLifecycle(0, 0, 0, at(650)))
	require.True(t, c.Tick(at(5000)).IsZero(), "infinite again: no purge waits")
	require.NotEqual(t, HandleNil, c.Lookup(kh(3)))
	require.NoError(t, c.SetLifecycle(0, 100*ms, 0, at(5000)))
	require.Equal(t, HandleNil, c.Lookup(kh(3)))

	require.ErrorIs(t, c.SetLifecycle(-ms, 0, 0, at(0)), errs.ErrBadParameter)
}
