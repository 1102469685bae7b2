package rhc

import "time"

// Autopurge (READER_DATA_LIFECYCLE): an instance that becomes NOT_ALIVE gets a deadline,
// kept in a min-heap of instances (at most one entry per instance, since an instance is
// in one state at a time). When the deadline passes its samples are purged, and the
// instance with them when it has no writers.

// queuePurge sets the autopurge deadline of in for its (NOT_ALIVE) state.
func (c *Cache[T]) queuePurge(in *instance[T], now time.Time) {
	in.notAliveAt = now
	d := c.purgeNoWriters
	if in.state == NotAliveDisposedInstanceState {
		d = c.purgeDisposed
	}
	if d == 0 {
		c.unqueuePurge(in)
		return
	}
	in.purgeAt = now.Add(d)
	if in.heapIdx < 0 {
		in.heapIdx = len(c.purge)
		c.purge = append(c.purge, in)
		c.heapUp(in.heapIdx)
		return
	}
	c.heapFix(in.heapIdx)
}

// unqueuePurge cancels the autopurge of in, if any.
func (c *Cache[T]) unqueuePurge(in *instance[T]) {
	i := in.heapIdx
	if i < 0 {
		return
	}
	last := len(c.purge) - 1
	c.heapSwap(i, last)
	c.purge[last] = nil
	c.purge = c.purge[:last]
	in.heapIdx = -1
	if i < last {
		c.heapFix(i)
	}
}

// runPurges purges the instances whose deadline is not after now.
func (c *Cache[T]) runPurges(now time.Time) {
	for len(c.purge) > 0 && !c.purge[0].purgeAt.After(now) {
		in := c.purge[0]
		c.unqueuePurge(in)
		c.nSamples -= in.samples.len()
		in.samples.clear()
		if in.hasInv {
			c.clearInvalid(in)
		}
		c.freed = true
		if len(in.writers) == 0 {
			c.removeInstance(in)
		}
	}
}

func (c *Cache[T]) heapLess(i, j int) bool { return c.purge[i].purgeAt.Before(c.purge[j].purgeAt) }

func (c *Cache[T]) heapSwap(i, j int) {
	c.purge[i], c.purge[j] = c.purge[j], c.purge[i]
	c.purge[i].heapIdx = i
	c.purge[j].heapIdx = j
}

func (c *Cache[T]) heapFix(i int) {
	if !c.heapDown(i) {
		c.heapUp(i)
	}
}

func (c *Cache[T]) heapUp(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !c.heapLess(i, p) {
			return
		}
		c.heapSwap(i, p)
		i = p
	}
}

// heapDown moves element i down and reports whether it moved.
func (c *Cache[T]) heapDown(i int) bool {
	start := i
	n := len(c.purge)
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && c.heapLess(r, l) {
			m = r
		}
		if !c.heapLess(m, i) {
			break
		}
		c.heapSwap(i, m)
		i = m
	}
	return i > start
}

// SetLifecycle applies a change of the policies of the cache that may change on an
// enabled reader (DDS 1.4 §2.2.3): TIME_BASED_FILTER's minimumSeparation, which holds
// from the next sample, and READER_DATA_LIFECYCLE's autopurge delays (Config), which
// apply to the NOT_ALIVE instances too, counted from when each became NOT_ALIVE (so one
// that has waited longer than its new delay goes at the next access). A negative
// duration is errs.ErrBadParameter.
func (c *Cache[T]) SetLifecycle(minSep, noWriters, disposed time.Duration, now time.Time) error {
	n := Config{MinimumSeparation: minSep, AutopurgeNoWriterSamplesDelay: noWriters, AutopurgeDisposedSamplesDelay: disposed}
	if err := n.validate(); err != nil {
		return err
	}
	c.mu.Lock()
	c.cfg.MinimumSeparation = minSep
	c.cfg.AutopurgeNoWriterSamplesDelay, c.cfg.AutopurgeDisposedSamplesDelay = noWriters, disposed
	nw, d := purgeDelay(noWriters), purgeDelay(disposed)
	if nw == c.purgeNoWriters && d == c.purgeDisposed {
		c.mu.Unlock()
		return nil
	}
	c.purgeNoWriters, c.purgeDisposed = nw, d
	for _, in := range c.order {
		if in.state != AliveInstanceState {
			c.queuePurge(in, in.notAliveAt)
		}
	}
	if nw != 0 || d != 0 {
		c.timed.Store(true)
	}
	c.runPurges(now)
	c.unlockNotify(false)
	return nil
}
