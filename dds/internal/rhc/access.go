package rhc

import (
	"sort"
	"time"
)

// Read and take (DDS 1.4 §2.2.2.5.3). Each copies at most min(len(dst), len(infos))
// samples into the caller's slices and returns how many; zero means NO_DATA. Samples
// come instance by instance in handle order, and within an instance in the order of the
// instance's history (arrival order; with BySourceTimestamp that is also source
// timestamp order), the invalid sample, if any, last. Values are shallow copies: after
// Read the cache still holds the value, so memory it references must not be changed.
//
// Read marks the returned samples READ; Take removes them. Both make the view state of
// every instance they return samples of NOT_NEW. An instance left without samples and
// without writers is purged by Take. Expired samples (lifespan) are dropped first, and
// autopurges due at now run.

// Read copies samples of every instance that sel selects.
func (c *Cache[T]) Read(dst []T, infos []SampleInfo, sel *Selector[T], now time.Time) int {
	return c.accessAll(dst, infos, sel, false, now)
}

// Take is Read that removes the returned samples.
func (c *Cache[T]) Take(dst []T, infos []SampleInfo, sel *Selector[T], now time.Time) int {
	return c.accessAll(dst, infos, sel, true, now)
}

// ReadInstance is Read restricted to the instance with handle h; it returns ErrBadHandle
// when there is no such instance.
func (c *Cache[T]) ReadInstance(dst []T, infos []SampleInfo, h InstanceHandle, sel *Selector[T], now time.Time) (int, error) {
	return c.accessOne(dst, infos, h, sel, false, now)
}

// TakeInstance is Take restricted to the instance with handle h; it returns ErrBadHandle
// when there is no such instance.
func (c *Cache[T]) TakeInstance(dst []T, infos []SampleInfo, h InstanceHandle, sel *Selector[T], now time.Time) (int, error) {
	return c.accessOne(dst, infos, h, sel, true, now)
}

// ReadNextInstance is Read restricted to one instance: the one with the smallest handle
// greater than prev that has samples sel selects. HandleNil starts from the first
// instance; prev need not name an existing instance.
func (c *Cache[T]) ReadNextInstance(dst []T, infos []SampleInfo, prev InstanceHandle, sel *Selector[T], now time.Time) int {
	return c.accessNext(dst, infos, prev, sel, false, now)
}

// TakeNextInstance is ReadNextInstance that removes the returned samples.
func (c *Cache[T]) TakeNextInstance(dst []T, infos []SampleInfo, prev InstanceHandle, sel *Selector[T], now time.Time) int {
	return c.accessNext(dst, infos, prev, sel, true, now)
}

// Matches reports whether some sample is selected by sel (the trigger value of a read
// or query condition). It ignores lifespan expiry and changes nothing.
func (c *Cache[T]) Matches(sel *Selector[T]) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	found := false
	c.eachSelected(sel, func(uint64) bool {
		found = true
		return false
	})
	return found
}

func (c *Cache[T]) accessAll(dst []T, infos []SampleInfo, sel *Selector[T], take bool, now time.Time) int {
	limit := min(len(dst), len(infos))
	c.mu.Lock()
	c.runPurges(now)
	n := 0
	c.ordering, c.arrived = c.cfg.OrderedAccess, c.arrived[:0]
	for i := 0; i < len(c.order) && n < limit; {
		k, removed := c.access(c.order[i], dst[n:limit], infos[n:limit], sel, take, now)
		n += k
		if !removed {
			i++
		}
	}
	if c.ordering && n > 1 {
		sort.Stable(byArrival[T]{dst[:n], infos[:n], c.arrived[:n]})
	}
	c.ordering = false
	c.unlockNotify(false)
	return n
}

// noteArrival records the arrival of a sample the access in progress returns, when it
// orders them (OrderedAccess).
func (c *Cache[T]) noteArrival(a uint64) {
	if c.ordering {
		c.arrived = append(c.arrived, a)
	}
}

// byArrival sorts a collection by arrival (ordered access); each instance's samples
// are already in that order, so their ranks stay true.
type byArrival[T any] struct {
	v       []T
	infos   []SampleInfo
	arrived []uint64
}

func (b byArrival[T]) Len() int           { return len(b.v) }
func (b byArrival[T]) Less(i, j int) bool { return b.arrived[i] < b.arrived[j] }
func (b byArrival[T]) Swap(i, j int) {
	b.v[i], b.v[j] = b.v[j], b.v[i]
	b.infos[i], b.infos[j] = b.infos[j], b.infos[i]
	b.arrived[i], b.arrived[j] = b.arrived[j], b.arrived[i]
}

func (c *Cache[T]) accessOne(dst []T, infos []SampleInfo, h InstanceHandle, sel *Selector[T], take bool, now time.Time) (int, error) {
	limit := min(len(dst), len(infos))
	c.mu.Lock()
	c.runPurges(now)
	i, ok := c.find(h)
	if !ok {
		c.unlockNotify(false)
		return 0, ErrBadHandle
	}
	n, _ := c.access(c.order[i], dst[:limit], infos[:limit], sel, take, now)
	c.unlockNotify(false)
	return n, nil
}

func (c *Cache[T]) accessNext(dst []T, infos []SampleInfo, prev InstanceHandle, sel *Selector[T], take bool, now time.Time) int {
	limit := min(len(dst), len(infos))
	c.mu.Lock()
	c.runPurges(now)
	n := 0
	i, found := c.find(prev)
	if found {
		i++
	}
	for limit > 0 && i < len(c.order) {
		k, removed := c.access(c.order[i], dst[:limit], infos[:limit], sel, take, now)
		if k > 0 {
			n = k
			break
		}
		if !removed {
			i++
		}
	}
	c.unlockNotify(false)
	return n
}

func (in *instance[T]) viewState() ViewState {
	if in.isNew {
		return NewViewState
	}
	return NotNewViewState
}

func sampleState(read bool) SampleState {
	if read {
		return ReadSampleState
	}
	return NotReadSampleState
}

// access reads or takes the samples of one instance that sel selects, at most len(dst)
// (== len(infos)). It returns how many, and whether the instance was removed.
func (c *Cache[T]) access(in *instance[T], dst []T, infos []SampleInfo, sel *Selector[T], take bool, now time.Time) (int, bool) {
	if c.lifespan && c.dropExpired(in, now) > 0 && in.handle == HandleNil {
		return 0, true
	}
	if len(dst) == 0 || !sel.matchInstance(in.viewState(), in.state) {
		return 0, false
	}
	base := SampleInfo{
		ViewState:      in.viewState(),
		InstanceState:  in.state,
		InstanceHandle: in.handle,
		KeyHash:        in.key,
	}
	n := 0
	skipped := false // a sample not selected lies before the last one selected
	for i := 0; i < in.samples.len() && n < len(dst); i++ {
		s := in.samples.at(i)
		if !sel.matchSample(s.read, &s.value, &s.judged) {
			skipped = true
			continue
		}
		dst[n] = s.value
		info := &infos[n]
		*info = base
		info.SampleState = sampleState(s.read)
		info.ValidData = true
		info.SourceTimestamp = s.source
		info.PublicationHandle = s.writer
		info.SN, info.Related, info.Size = s.sn, s.rel, s.size
		c.noteArrival(s.arrival)
		info.DisposedGenerationCount = int32(s.gen.disposed)
		info.NoWritersGenerationCount = int32(s.gen.noWriters)
		if take {
			s.gone = true
		} else {
			s.read = true
		}
		n++
	}
	fromRing := n
	invTaken := false
	if in.hasInv && n < len(dst) && sel.matchSample(in.inv.read, &in.inv.value, &in.inv.judged) {
		dst[n] = in.inv.value
		info := &infos[n]
		*info = base
		info.SampleState = sampleState(in.inv.read)
		info.SourceTimestamp = in.inv.source
		info.PublicationHandle = in.inv.writer
		c.noteArrival(in.inv.arrival)
		info.DisposedGenerationCount = int32(in.gen.disposed)
		info.NoWritersGenerationCount = int32(in.gen.noWriters)
		if take {
			invTaken = true
		} else {
			in.inv.read = true
		}
		n++
	}
	if n == 0 {
		return 0, false
	}
	setRanks(infos[:n], in.gen.sum())
	in.isNew = false
	if take {
		return n, c.dropTaken(in, skipped, fromRing, invTaken)
	}
	return n, false
}

// setRanks sets the ranks of the samples of one instance in a collection, abs being
// the instance's generations so far. DDS 1.4 §2.2.2.5.5: they count against the most
// recent sample of the instance in the collection (generation_rank) and received so
// far (absolute_generation_rank).
func setRanks(infos []SampleInfo, abs int64) {
	n := len(infos)
	last := generationOf(&infos[n-1])
	for j := range infos {
		g := generationOf(&infos[j])
		infos[j].SampleRank = int32(n - 1 - j)
		infos[j].GenerationRank = int32(last - g)
		infos[j].AbsoluteGenerationRank = int32(abs - g)
	}
}

// dropTaken removes from in what a take marked gone: fromRing samples of its ring, the
// oldest in a row unless skipped, and its invalid sample if invTaken. It reports whether
// the instance was removed with them.
func (c *Cache[T]) dropTaken(in *instance[T], skipped bool, fromRing int, invTaken bool) bool {
	if skipped {
		c.nSamples -= in.samples.filter(func(s *sample[T]) bool { return !s.gone })
	} else {
		// The oldest samples, taken in a row: no walk over those left (a
		// reader far behind, taking in batches, walked its whole backlog).
		in.samples.dropFront(fromRing)
		c.nSamples -= fromRing
	}
	if invTaken {
		c.clearInvalid(in)
	}
	c.freed = true
	if in.empty() && len(in.writers) == 0 {
		c.removeInstance(in)
		return true
	}
	return false
}

func generationOf(info *SampleInfo) int64 {
	return int64(info.DisposedGenerationCount) + int64(info.NoWritersGenerationCount)
}
