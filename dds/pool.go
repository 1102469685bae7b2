package dds

import "sync"

// Bounds of a writer's buffer pool.
const (
	poolBuffers   = 64      // buffers kept at least
	poolBytes     = 1 << 20 // more are kept while their capacities add up to this
	poolMaxBuffer = 1 << 20 // larger buffers are left to the garbage collector
	poolNewBuffer = 256     // capacity of a new buffer
)

// bufPool recycles the payload buffers of a writer: the writer takes one to serialize a
// sample and the engine gives it back when its history drops the change.
type bufPool struct {
	mu    sync.Mutex
	free  [][]byte
	bytes int // the capacities of free, added up
}

func (p *bufPool) get() []byte {
	p.mu.Lock()
	if n := len(p.free); n > 0 {
		b := p.free[n-1]
		p.free[n-1] = nil
		p.free = p.free[:n-1]
		p.bytes -= cap(b)
		p.mu.Unlock()
		return b
	}
	p.mu.Unlock()
	return make([]byte, 0, poolNewBuffer)
}

func (p *bufPool) put(b []byte) {
	if cap(b) == 0 || cap(b) > poolMaxBuffer {
		return
	}
	p.mu.Lock()
	// An acknowledgment frees as many changes as the flow-control window held at
	// once (hundreds of small ones): keeping only poolBuffers of them made the
	// writes after it allocate and grow new buffers.
	if len(p.free) < poolBuffers || p.bytes+cap(b) <= poolBytes {
		p.free = append(p.free, b[:0])
		p.bytes += cap(b)
	}
	p.mu.Unlock()
}
