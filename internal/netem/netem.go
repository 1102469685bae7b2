package netem

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

// Config is what a Link does to the frames it relays. The zero value relays
// every frame at once, unimpaired.
type Config struct {
	Loss      float64       // probability that a frame is dropped, 0..1
	Reorder   float64       // probability that a frame skips the delay, 0..1
	Duplicate float64       // probability that a frame is sent twice, 0..1
	Delay     time.Duration // how long the other frames wait
	// Seed seeds the random decisions; the two directions use Seed and
	// Seed+1.
	Seed uint64
	// QueueLimit bounds the frames waiting in one direction; 0 means 1000.
	QueueLimit int
	// Exempt, if not nil, selects frames that cross unimpaired and at once.
	Exempt func(frame []byte) bool
}

// Port is one end of a Link: a device that reads and writes whole frames
// (a TAP file, or a test double).
type Port interface {
	Read(b []byte) (int, error)
	Write(b []byte) (int, error)
}

// Stats counts what one direction of a Link did.
type Stats struct {
	Frames     uint64 // frames read
	Exempt     uint64 // frames passed unimpaired (Config.Exempt)
	Dropped    uint64 // frames dropped (Loss)
	Duplicated uint64 // frames sent twice (Duplicate)
	Reordered  uint64 // frames sent without delay (Reorder)
	Overflow   uint64 // frames dropped because QueueLimit frames were waiting
	Sent       uint64 // frames written, duplicates included
	WriteErrs  uint64 // writes that failed
}

// fate is what happens to one frame.
type fate struct {
	drop   bool
	copies int  // 1 or 2
	early  bool // skips the delay
}

// impairer draws the fate of each frame from a seeded generator.
type impairer struct {
	cfg Config
	rng *rand.Rand
}

func newImpairer(cfg Config, seed uint64) *impairer {
	return &impairer{cfg: cfg, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// next returns the fate of the next frame. It draws the same three numbers
// for every frame, so that the sequence of fates depends on the seed only.
func (im *impairer) next() fate {
	l, d, r := im.rng.Float64(), im.rng.Float64(), im.rng.Float64()
	if l < im.cfg.Loss {
		return fate{drop: true}
	}
	f := fate{copies: 1, early: r < im.cfg.Reorder}
	if d < im.cfg.Duplicate {
		f.copies = 2
	}
	return f
}

// counters are the live Stats of one direction.
type counters struct {
	frames, exempt, dropped, duplicated, reordered, overflow, sent, writeErrs atomic.Uint64
}

func (c *counters) snapshot() Stats {
	return Stats{
		Frames: c.frames.Load(), Exempt: c.exempt.Load(), Dropped: c.dropped.Load(),
		Duplicated: c.duplicated.Load(), Reordered: c.reordered.Load(), Overflow: c.overflow.Load(),
		Sent: c.sent.Load(), WriteErrs: c.writeErrs.Load(),
	}
}

// pending is a frame waiting for its time.
type pending struct {
	due   time.Time
	frame []byte
}

// direction relays from one port to another.
type direction struct {
	cfg   Config
	im    *impairer
	from  Port
	to    Port
	wmu   sync.Mutex // serializes the writes of both goroutines to to
	queue chan pending
	c     counters
	done  chan struct{}
}

// Link relays frames between two ports in both directions. Each direction
// has a reading goroutine and a goroutine that sends the delayed frames.
type Link struct {
	ab, ba *direction
	wg     sync.WaitGroup
}

// MaxFrame is the largest frame a Link relays (a TAP MTU of 65535 plus the
// Ethernet header).
const MaxFrame = 65535 + 14

// Start relays frames between a and b until Close, or until reading one of
// the ports fails (closing a port ends its direction).
func Start(a, b Port, cfg Config) *Link {
	if cfg.QueueLimit <= 0 {
		cfg.QueueLimit = 1000
	}
	l := &Link{}
	l.ab = newDirection(cfg, cfg.Seed, a, b)
	l.ba = newDirection(cfg, cfg.Seed+1, b, a)
	for _, d := range []*direction{l.ab, l.ba} {
		l.wg.Add(2)
		go func() { defer l.wg.Done(); d.read() }()
		go func() { defer l.wg.Done(); d.send() }()
	}
	return l
}

func newDirection(cfg Config, seed uint64, from, to Port) *direction {
	return &direction{
		cfg: cfg, im: newImpairer(cfg, seed), from: from, to: to,
		queue: make(chan pending, cfg.QueueLimit), done: make(chan struct{}),
	}
}

// Stats returns the counters of the directions a to b and b to a.
func (l *Link) Stats() (ab, ba Stats) { return l.ab.c.snapshot(), l.ba.c.snapshot() }

// Wait waits until both directions have stopped: the caller closes the
// ports (reads then fail) and calls Wait.
func (l *Link) Wait() { l.wg.Wait() }

// read reads frames and decides their fate until the port fails.
func (d *direction) read() {
	defer close(d.done)
	buf := make([]byte, MaxFrame)
	for {
		n, err := d.from.Read(buf)
		if err != nil {
			return
		}
		d.c.frames.Add(1)
		frame := buf[:n]
		if d.cfg.Exempt != nil && d.cfg.Exempt(frame) {
			d.c.exempt.Add(1)
			d.write(frame)
			continue
		}
		d.handle(frame)
	}
}

// handle applies the impairments to one frame.
func (d *direction) handle(frame []byte) {
	f := d.im.next()
	if f.drop {
		d.c.dropped.Add(1)
		return
	}
	if f.copies > 1 {
		d.c.duplicated.Add(1)
	}
	if f.early || d.cfg.Delay <= 0 {
		if f.early {
			d.c.reordered.Add(1)
		}
		for range f.copies {
			d.write(frame)
		}
		return
	}
	due := time.Now().Add(d.cfg.Delay)
	for range f.copies {
		select {
		case d.queue <- pending{due: due, frame: append([]byte(nil), frame...)}:
		default:
			d.c.overflow.Add(1)
		}
	}
}

// send writes the delayed frames when they are due, in order (one delay
// for all, so they come out in the order they went in).
func (d *direction) send() {
	for {
		select {
		case p := <-d.queue:
			if w := time.Until(p.due); w > 0 {
				time.Sleep(w)
			}
			d.write(p.frame)
		case <-d.done:
			return
		}
	}
}

func (d *direction) write(frame []byte) {
	d.wmu.Lock()
	_, err := d.to.Write(frame)
	d.wmu.Unlock()
	if err != nil {
		d.c.writeErrs.Add(1)
		return
	}
	d.c.sent.Add(1)
}

// IsARP reports whether an Ethernet frame carries ARP (EtherType 0x0806):
// an Exempt function for TAP links, so that address resolution does not add
// its own stalls to what a test measures.
func IsARP(frame []byte) bool {
	return len(frame) >= 14 && frame[12] == 0x08 && frame[13] == 0x06
}
