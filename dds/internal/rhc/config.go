package rhc

import (
	"errors"
	"sync/atomic"
	"time"

	"github.com/ddsgo/ddsgo/internal/errs"
)

// ErrBadHandle reports an instance handle that names no instance of the cache. A bad
// Config is the module's errs.ErrBadParameter or errs.ErrInconsistentPolicy.
var ErrBadHandle = errors.New("rhc: unknown instance handle")

// Config is the part of a DataReader's QoS that the cache implements, plus its hooks.
// The zero Config is the DDS default reader: KEEP_LAST 1, no resource limits,
// BY_RECEPTION_TIMESTAMP, no time-based filter, no autopurge.
type Config struct {
	// KeepAll selects HISTORY KEEP_ALL; false is KEEP_LAST.
	KeepAll bool
	// Depth is the KEEP_LAST depth per instance; zero means 1. Ignored for KEEP_ALL.
	Depth int
	// MaxSamples, MaxInstances and MaxSamplesPerInstance are RESOURCE_LIMITS; zero or
	// negative (LENGTH_UNLIMITED) means unlimited. Only valid samples count against
	// them: the invalid samples that report state changes are at most one per instance.
	MaxSamples            int
	MaxInstances          int
	MaxSamplesPerInstance int
	// BySourceTimestamp selects DESTINATION_ORDER BY_SOURCE_TIMESTAMP: a change older
	// than the latest accepted one of its instance is dropped. With equal timestamps
	// from different writers, the writer with the smaller GUID wins (as in Cyclone DDS,
	// so that readers of both converge on the same value).
	BySourceTimestamp bool
	// ExclusiveOwnership selects OWNERSHIP EXCLUSIVE (DDS 1.4 §2.2.3.9): each instance
	// has at most one owner, the writer of its latest accepted write or dispose. A write
	// or dispose of another writer is dropped (DroppedNotOwner) unless its
	// Change.Strength is greater than the owner's, or equal with a smaller GUID (the tie
	// rule of Cyclone DDS); then that writer becomes the owner. Ownership is released when
	// the owner unregisters or is lost (WriterLost), and by ReleaseOwnership; the next
	// write or dispose of any writer then takes it.
	ExclusiveOwnership bool
	// MinimumSeparation is TIME_BASED_FILTER: a sample that arrives (reception time)
	// less than this after the previous accepted sample of an alive instance is dropped.
	// Zero means no filter. A sample that makes an instance alive again always passes.
	MinimumSeparation time.Duration
	// AutopurgeNoWriterSamplesDelay and AutopurgeDisposedSamplesDelay are
	// READER_DATA_LIFECYCLE: how long after an instance became NOT_ALIVE_NO_WRITERS or
	// NOT_ALIVE_DISPOSED its samples are purged (and the instance with them when it has
	// no writers). Zero means never (the default, INFINITE); durations of 100 years or
	// more also mean never. To purge right away use a tiny delay like time.Nanosecond.
	AutopurgeNoWriterSamplesDelay time.Duration
	AutopurgeDisposedSamplesDelay time.Duration
	// OrderedAccess is PRESENTATION ordered_access with TOPIC or GROUP scope: Read and
	// Take return the samples they select in the order the cache stored them, across
	// instances (by default instance by instance). Which samples a bounded Read or Take
	// returns is still chosen instance by instance.
	OrderedAccess bool
	// Arrivals, when not nil, numbers the samples the cache stores in place of the
	// cache's own count: a counter shared by the caches of a subscriber orders their
	// samples among them (GROUP ordered access, Cache.Arrivals).
	Arrivals *atomic.Uint64
	// OnDataAvailable, when not nil, is called after a change made data or a state
	// change available to read (DATA_AVAILABLE), outside the cache's lock, on the
	// goroutine that called Insert or WriterLost.
	OnDataAvailable func()
	// OnSpaceAvailable, when not nil, is called once after a rejection when take, a
	// purge or an expiry has freed samples or instances, outside the cache's lock, on
	// the goroutine that freed them: a reliable reader retries rejected samples then.
	OnSpaceAvailable func()
}

// neverDelay is the delay from which autopurge never happens.
const neverDelay = 100 * 365 * 24 * time.Hour

func (c *Config) validate() error {
	switch {
	case c.Depth < 0:
		return errs.New(errs.ErrBadParameter, "reader cache: history depth %d", c.Depth)
	case c.MinimumSeparation < 0:
		return errs.New(errs.ErrBadParameter, "reader cache: minimum separation %v", c.MinimumSeparation)
	case c.AutopurgeNoWriterSamplesDelay < 0:
		return errs.New(errs.ErrBadParameter, "reader cache: autopurge no-writer delay %v", c.AutopurgeNoWriterSamplesDelay)
	case c.AutopurgeDisposedSamplesDelay < 0:
		return errs.New(errs.ErrBadParameter, "reader cache: autopurge disposed delay %v", c.AutopurgeDisposedSamplesDelay)
	case !c.KeepAll && c.MaxSamplesPerInstance > 0 && max(c.Depth, 1) > c.MaxSamplesPerInstance:
		return errs.New(errs.ErrInconsistentPolicy, "reader cache: history depth %d exceeds max_samples_per_instance %d",
			max(c.Depth, 1), c.MaxSamplesPerInstance)
	case c.MaxSamples > 0 && c.MaxSamplesPerInstance > 0 && c.MaxSamples < c.MaxSamplesPerInstance:
		return errs.New(errs.ErrInconsistentPolicy, "reader cache: max_samples %d below max_samples_per_instance %d",
			c.MaxSamples, c.MaxSamplesPerInstance)
	}
	return nil
}

// purgeDelay turns an autopurge delay into the internal form: 0 for never.
func purgeDelay(d time.Duration) time.Duration {
	if d >= neverDelay {
		return 0
	}
	return d
}
