package rhc

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// val is the sample type of the tests: K mirrors the key, V is the payload.
type val struct {
	K byte
	V int
}

var (
	w1 = GUID{1}
	w2 = GUID{2}
	t0 = time.Unix(1_700_000_000, 0)
)

func kh(b byte) KeyHash { return KeyHash{15: b} }

func at(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

func write(k byte, w GUID, v int, ms int) *Change[val] {
	return &Change[val]{Kind: Write, KeyHash: kh(k), Writer: w, SourceTimestamp: at(ms), Value: val{k, v}}
}

func ctl(kind ChangeKind, k byte, w GUID, ms int) *Change[val] {
	return &Change[val]{Kind: kind, KeyHash: kh(k), Writer: w, SourceTimestamp: at(ms), Value: val{K: k}}
}

func newCache(t testing.TB, cfg Config) *Cache[val] {
	t.Helper()
	c, err := New[val](cfg)
	require.NoError(t, err)
	return c
}

// snapshot is what a test can see of one instance without changing it.
type snapshot struct {
	State   InstanceState
	View    ViewState
	Gen     [2]uint32 // disposed, no writers
	Values  []int     // valid samples, oldest first
	Read    []bool
	Invalid bool
	Writers int
}

func peek(c *Cache[val], k byte) (snapshot, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	in := c.byKey[kh(k)]
	if in == nil {
		return snapshot{}, false
	}
	s := snapshot{
		State:   in.state,
		View:    in.viewState(),
		Gen:     [2]uint32{in.gen.disposed, in.gen.noWriters},
		Invalid: in.hasInv,
		Writers: len(in.writers),
	}
	for i := range in.samples.len() {
		s.Values = append(s.Values, in.samples.at(i).value.V)
		s.Read = append(s.Read, in.samples.at(i).read)
	}
	return s, true
}

// checkCounts verifies the cache's counters against its instances.
func checkCounts(t testing.TB, c *Cache[val]) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	ns, ni := 0, 0
	for i, in := range c.order {
		require.Same(t, in, c.byKey[in.key])
		if i > 0 {
			require.Less(t, c.order[i-1].handle, in.handle)
		}
		ns += in.samples.len()
		if in.hasInv {
			ni++
		}
		if in.state == AliveInstanceState {
			require.NotEmpty(t, in.writers, "alive instance without writers")
		}
		require.False(t, in.empty() && len(in.writers) == 0, "empty instance without writers kept")
		if in.heapIdx >= 0 {
			require.Same(t, in, c.purge[in.heapIdx])
		}
	}
	require.Len(t, c.byKey, len(c.order))
	require.Equal(t, ns, c.nSamples)
	require.Equal(t, ni, c.nInvalid)
}

// readAll reads (or takes) everything with sel and returns values and infos.
func readAll(c *Cache[val], take bool, sel *Selector[val], now time.Time) ([]val, []SampleInfo) {
	dst := make([]val, 64)
	infos := make([]SampleInfo, 64)
	var n int
	if take {
		n = c.Take(dst, infos, sel, now)
	} else {
		n = c.Read(dst, infos, sel, now)
	}
	return dst[:n], infos[:n]
}
