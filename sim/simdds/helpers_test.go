package simdds

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/sim"
)

// fakeClock is a sim.Clock whose timers fire at once, moving the time forward to their
// deadline, so that runners in tests never sleep.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Unix(1000, 0)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) NewTimer(d time.Duration) (<-chan time.Time, func() bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	ch := make(chan time.Time, 1)
	ch <- c.now
	return ch, func() bool { return false }
}

// newRunner returns a runner of an empty Manager on a fake clock.
func newRunner(t *testing.T, cfg sim.Config) *sim.Runner {
	t.Helper()
	if cfg.Clock == nil {
		cfg.Clock = newFakeClock()
	}
	r, err := sim.NewRunner(ecm.New(), cfg)
	require.NoError(t, err)
	return r
}

// configure returns a TriggeredPublisher on bus configured by the plugin element xml.
func configure(t *testing.T, bus sim.Bus, xml string) (*sim.TriggeredPublisher, error) {
	t.Helper()
	el, err := sim.ParseElement(strings.NewReader(xml))
	require.NoError(t, err)
	tp := sim.NewTriggeredPublisher(bus)
	return tp, tp.Configure(ecm.Null, el, nil)
}
