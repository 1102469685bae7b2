package dispatch

import (
	"sync"
	"sync/atomic"

	"github.com/ddsgo/ddsgo/internal/goid"
)

// Slot is the dispatch state of one target. Set Handle before the first Post; the zero
// value is otherwise ready. A Slot must not be copied after first use.
type Slot struct {
	// Handle receives the kinds posted since the previous call, on the dispatcher's
	// goroutine.
	Handle func(kinds uint32)

	pending atomic.Uint32
	queued  atomic.Bool
}

// item is a queued slot, or a barrier whose channel is closed when it is reached.
type item struct {
	slot    *Slot
	barrier chan struct{}
}

// Dispatcher runs slot handlers one at a time on its own goroutine.
type Dispatcher struct {
	mu     sync.Mutex
	queue  []item
	spare  []item
	closed bool

	wake chan struct{}
	stop chan struct{}
	done chan struct{}

	inHandler atomic.Bool
	// gid is the id of the dispatcher's goroutine, so that Close knows whether a
	// handler calls it.
	gid atomic.Uint64
	// runMu is held by whoever runs handlers: the goroutine, or a caller of Help,
	// whose goroutine id is helper while it does.
	runMu  sync.Mutex
	helper atomic.Uint64
	// queued is len(queue), for Help to look without the lock.
	queued atomic.Int32
	// receiving counts the callers between Receiving and the end of Help.
	receiving atomic.Int32
}

// New starts a Dispatcher.
func New() *Dispatcher {
	d := &Dispatcher{
		wake: make(chan struct{}, 1),
		stop: make(chan struct{}),
		done: make(chan struct{}),
	}
	go d.run()
	return d
}

// Post adds kinds to s and queues s unless it is queued already. It never blocks on a
// handler and allocates nothing in steady state. After Close it does nothing.
func (d *Dispatcher) Post(s *Slot, kinds uint32) {
	if kinds == 0 {
		return
	}
	s.pending.Or(kinds)
	if !s.queued.CompareAndSwap(false, true) {
		return
	}
	d.enqueue(item{slot: s})
}

// enqueue queues it for the dispatcher goroutine and wakes it; it reports
// false, queueing nothing, once the dispatcher is closed.
func (d *Dispatcher) enqueue(it item) bool {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return false
	}
	d.queue = append(d.queue, it)
	d.queued.Store(int32(len(d.queue)))
	d.mu.Unlock()
	if d.receiving.Load() == 0 { // else Help runs it, or signals
		d.signal()
	}
	return true
}

func (d *Dispatcher) signal() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// Sync waits until every slot posted before the call has been handled, or the dispatcher
// is closed. Tests use it to observe listener calls deterministically. It must not be
// called from a handler.
func (d *Dispatcher) Sync() {
	ch := make(chan struct{})
	if !d.enqueue(item{barrier: ch}) {
		return
	}
	select {
	case <-ch:
	case <-d.done:
	}
}

// Help runs the queued handlers on the calling goroutine, whose id (goid.Get) is gid,
// unless handlers are running already: a goroutine that made the work (a receive
// goroutine that delivered a sample) does it without waking the dispatcher's. The
// handlers still run one at a time, in order, and Close still waits for them. It does
// nothing when nothing is queued, and allocates nothing.
func (d *Dispatcher) Help(gid uint64) {
	if d.queued.Load() != 0 {
		if d.runMu.TryLock() {
			d.helper.Store(gid)
			d.drain()
			d.helper.Store(0)
			d.runMu.Unlock()
		} else {
			d.signal() // the goroutine may have looked before our posts
		}
	}
	// A Post that saw this Receiving did not signal: if it came after the drain,
	// the goroutine runs it.
	if d.receiving.Add(-1) == 0 && d.queued.Load() != 0 {
		d.signal()
	}
}

// Receiving tells the dispatcher that the caller will call Help: until then, Post does
// not wake the dispatcher's goroutine, whose work the caller will do.
func (d *Dispatcher) Receiving() { d.receiving.Add(1) }

// InHandler reports whether a handler is running.
func (d *Dispatcher) InHandler() bool { return d.inHandler.Load() }

// Close stops the dispatcher and waits for its goroutine to end, and so for the
// handler running, if any. Called from a handler, it returns at once instead, and the
// goroutine ends after that handler. Closing twice does nothing.
func (d *Dispatcher) Close() {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return
	}
	d.closed = true
	d.mu.Unlock()
	close(d.stop)
	// Called from a handler (the goroutine's, or a helper's), it must not wait for
	// itself; the goroutine, which may be waiting for the helper, ends after it.
	if id := goid.Get(); id != d.gid.Load() && id != d.helper.Load() {
		<-d.done
		d.waitHelper()
	}
}

// waitHelper returns when no helper runs a handler any more.
func (d *Dispatcher) waitHelper() {
	d.runMu.Lock()
	defer d.runMu.Unlock()
}

func (d *Dispatcher) run() {
	d.gid.Store(goid.Get())
	defer close(d.done)
	for {
		select {
		case <-d.stop:
			return
		case <-d.wake:
		}
		d.runMu.Lock()
		stopped := d.drain()
		d.runMu.Unlock()
		if stopped {
			return
		}
	}
}

// drain runs the queued handlers until the queue is empty, or reports that the
// dispatcher was closed. The caller holds runMu.
func (d *Dispatcher) drain() (stopped bool) {
	for {
		d.mu.Lock()
		batch := d.queue
		d.queue = d.spare[:0]
		d.queued.Store(0)
		d.mu.Unlock()
		if len(batch) == 0 {
			d.spare = batch
			return false
		}
		for i := range batch {
			select {
			case <-d.stop:
				return true
			default:
			}
			it := batch[i]
			batch[i] = item{}
			if it.barrier != nil {
				close(it.barrier)
				continue
			}
			it.slot.queued.Store(false)
			if k := it.slot.pending.Swap(0); k != 0 && it.slot.Handle != nil {
				d.inHandler.Store(true)
				it.slot.Handle(k)
				d.inHandler.Store(false)
			}
		}
		d.spare = batch[:0]
	}
}
