package netem

import (
	"encoding/binary"
	"errors"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// chanPort is an in-memory Port: Write appends to out, Read takes from in.
type chanPort struct {
	in     chan []byte
	mu     sync.Mutex
	out    [][]byte
	times  []time.Time
	closed chan struct{}
}

func newChanPort() *chanPort {
	return &chanPort{in: make(chan []byte, 1<<16), closed: make(chan struct{})}
}

func (p *chanPort) Read(b []byte) (int, error) {
	select {
	case f := <-p.in:
		return copy(b, f), nil
	case <-p.closed:
		return 0, errors.New("closed")
	}
}

func (p *chanPort) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.out = append(p.out, append([]byte(nil), b...))
	p.times = append(p.times, time.Now())
	return len(b), nil
}

func (p *chanPort) received() [][]byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([][]byte(nil), p.out...)
}

func frame(i uint32) []byte { return binary.BigEndian.AppendUint32(make([]byte, 0, 64), i) }

// relay sends n numbered frames from a to b through a link with cfg and
// returns what b received and the link's statistics of that direction.
func relay(t *testing.T, cfg Config, n int) ([][]byte, Stats) {
	t.Helper()
	a, b := newChanPort(), newChanPort()
	l := Start(a, b, cfg)
	for i := range n {
		a.in <- frame(uint32(i))
	}
	require.Eventually(t, func() bool {
		ab, _ := l.Stats()
		return ab.Frames == uint64(n) && ab.Sent+ab.Overflow == ab.Frames-ab.Dropped+ab.Duplicated
	}, 10*time.Second, time.Millisecond)
	close(a.closed)
	close(b.closed)
	l.Wait()
	ab, _ := l.Stats()
	return b.received(), ab
}

func TestRates(t *testing.T) {
	const n = 20000
	cfg := Config{Loss: 0.10, Reorder: 0.05, Duplicate: 0.01, Delay: 100 * time.Microsecond, Seed: 7, QueueLimit: n}
	got, st := relay(t, cfg, n)
	require.Zero(t, st.Overflow)
	require.Equal(t, uint64(n), st.Frames)
	// Within 4 standard deviations of the binomial counts.
	within := func(name string, count uint64, p float64, of int) {
		t.Helper()
		mean, sd := p*float64(of), math.Sqrt(p*(1-p)*float64(of))
		require.InDelta(t, mean, float64(count), 4*sd, "%s: %d of %d", name, count, of)
	}
	within("loss", st.Dropped, 0.10, n)
	within("duplication", st.Duplicated, 0.01, n-int(st.Dropped))
	within("reorder", st.Reordered, 0.05, n-int(st.Dropped))
	require.Len(t, got, int(st.Sent))

	// Every frame that was not dropped arrives, the duplicated ones twice.
	seen := map[uint32]int{}
	for _, f := range got {
		seen[binary.BigEndian.Uint32(f)]++
	}
	var once, twice int
	for _, c := range seen {
		switch c {
		case 1:
			once++
		case 2:
			twice++
		default:
			t.Fatalf("a frame arrived %d times", c)
		}
	}
	require.Equal(t, n-int(st.Dropped), once+twice)
	require.Equal(t, int(st.Duplicated), twice)
}

// Frames sent early overtake the delayed ones; the others keep their order.
func TestReorder(t *testing.T) {
	const n = 2000
	cfg := Config{Reorder: 0.2, Delay: 5 * time.Millisecond, Seed: 1, QueueLimit: n}
	a, b := newChanPort(), newChanPort()
	l := Start(a, b, cfg)
	for i := range n {
		a.in <- frame(uint32(i))
		if i%100 == 99 {
			time.Sleep(time.Millisecond)
		}
	}
	require.Eventually(t, func() bool { return len(b.received()) == n }, 10*time.Second, time.Millisecond)
	close(a.closed)
	close(b.closed)
	l.Wait()
	ab, _ := l.Stats()
	inversions, last := 0, -1
	for _, f := range b.received() {
		v := int(binary.BigEndian.Uint32(f))
		if v < last {
			inversions++
		}
		last = max(last, v)
	}
	require.NotZero(t, inversions, "no frame was overtaken")
	require.InDelta(t, 0.2*n, float64(ab.Reordered), 4*math.Sqrt(0.2*0.8*n))
}

func TestDelay(t *testing.T) {
	const delay = 20 * time.Millisecond
	a, b := newChanPort(), newChanPort()
	l := Start(a, b, Config{Delay: delay})
	start := time.Now()
	a.in <- frame(1)
	require.Eventually(t, func() bool { return len(b.received()) == 1 }, 5*time.Second, time.Millisecond)
	require.GreaterOrEqual(t, b.times[0].Sub(start), delay)
	close(a.closed)
	close(b.closed)
	l.Wait()
}

// The same seed gives the same fates; the two directions differ.
func TestSeed(t *testing.T) {
	cfg := Config{Loss: 0.1, Reorder: 0.05, Duplicate: 0.01, Seed: 42}
	fates := func(seed uint64) []fate {
		im := newImpairer(cfg, seed)
		out := make([]fate, 1000)
		for i := range out {
			out[i] = im.next()
		}
		return out
	}
	require.Equal(t, fates(42), fates(42))
	require.NotEqual(t, fates(42), fates(43))
}

func TestExempt(t *testing.T) {
	cfg := Config{Loss: 1, Exempt: func(f []byte) bool { return f[3]%2 == 0 }}
	got, st := relay(t, cfg, 100)
	require.Len(t, got, 50)
	require.Equal(t, uint64(50), st.Exempt)
	require.Equal(t, uint64(50), st.Dropped)
}

func TestIsARP(t *testing.T) {
	f := make([]byte, 42)
	binary.BigEndian.PutUint16(f[12:], 0x0806)
	require.True(t, IsARP(f))
	binary.BigEndian.PutUint16(f[12:], 0x0800)
	require.False(t, IsARP(f))
	require.False(t, IsARP(f[:10]))
}
