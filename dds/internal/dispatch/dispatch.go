package dispatch

import (
	"bytes"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
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
	d.mu.Unlock()
	d.signal()
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
	if goid() != d.gid.Load() {
		<-d.done
	}
}

// goid returns the id of the calling goroutine, from the first line of its stack
// ("goroutine 42 [running]:"). It costs a stack trace: only Close calls it.
func goid() uint64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b = bytes.TrimPrefix(b, []byte("goroutine "))
	if i := bytes.IndexByte(b, ' '); i >= 0 {
		b = b[:i]
	}
	id, _ := strconv.ParseUint(string(b), 10, 64)
	return id
}

func (d *Dispatcher) run() {
	d.gid.Store(goid())
	defer close(d.done)
	for {
		select {
		case <-d.stop:
			return
		case <-d.wake:
		}
		for {
			d.mu.Lock()
			batch := d.queue
			d.queue = d.spare[:0]
			d.mu.Unlock()
			if len(batch) == 0 {
				d.spare = batch
				break
			}
			for i := range batch {
				select {
				case <-d.stop:
					return
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
}
