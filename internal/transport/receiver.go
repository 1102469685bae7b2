package transport

import (
	"errors"
	"log/slog"
	"net"
	"net/netip"
	"sync/atomic"
	"time"

	"github.com/ddsgo/ddsgo/internal/goid"
)

// Stats counts the traffic of a socket or of a [Transport]. The fields are
// atomic: read them at any time, or take a [Stats.Snapshot].
type Stats struct {
	DatagramsIn  atomic.Uint64 // datagrams read from the socket
	BytesIn      atomic.Uint64 // their bytes
	DatagramsOut atomic.Uint64 // datagrams sent
	BytesOut     atomic.Uint64 // their bytes
	Drops        atomic.Uint64 // datagrams read but dropped: the receive queue was full
	ReadErrors   atomic.Uint64 // failed reads other than the close of the socket
	WriteErrors  atomic.Uint64 // failed sends
	BusyPolled   atomic.Uint64 // datagrams a busy poll found (SocketOptions.BusyPoll)
}

// StatsSnapshot is a copy of a [Stats] at one instant.
type StatsSnapshot struct {
	DatagramsIn, BytesIn, DatagramsOut, BytesOut uint64
	Drops, ReadErrors, WriteErrors               uint64
	BusyPolled                                   uint64
}

// Snapshot returns the current values of s.
func (s *Stats) Snapshot() StatsSnapshot {
	return StatsSnapshot{
		DatagramsIn: s.DatagramsIn.Load(), BytesIn: s.BytesIn.Load(),
		DatagramsOut: s.DatagramsOut.Load(), BytesOut: s.BytesOut.Load(),
		Drops: s.Drops.Load(), ReadErrors: s.ReadErrors.Load(), WriteErrors: s.WriteErrors.Load(),
		BusyPolled: s.BusyPolled.Load(),
	}
}

// Add returns the sum of a and b, field by field.
func (a StatsSnapshot) Add(b StatsSnapshot) StatsSnapshot {
	return StatsSnapshot{
		DatagramsIn: a.DatagramsIn + b.DatagramsIn, BytesIn: a.BytesIn + b.BytesIn,
		DatagramsOut: a.DatagramsOut + b.DatagramsOut, BytesOut: a.BytesOut + b.BytesOut,
		Drops: a.Drops + b.Drops, ReadErrors: a.ReadErrors + b.ReadErrors, WriteErrors: a.WriteErrors + b.WriteErrors,
		BusyPolled: a.BusyPolled + b.BusyPolled,
	}
}

// DeliverFunc takes a received packet. It runs on the socket's receive
// goroutine, which reads nothing more until it returns: it either takes
// ownership of p (and later calls p.Release) and returns true, or returns
// false without touching p, and the receiver drops p and counts it in
// Stats.Drops. It may wait for its consumer (Queue.PushWait), which leaves
// what arrives meanwhile in the socket's kernel buffer.
type DeliverFunc func(p *Packet) bool

// Queue is a bounded queue of packets between receive goroutines and a
// consumer (the RTPS engine's event loop). Push never blocks: when the queue
// is full it refuses the packet, so a [Receiver] drops and counts it.
// PushWait waits for room a while first.
type Queue struct {
	ch chan *Packet
}

// NewQueue returns a Queue holding up to n packets (at least 1). Each
// queued packet pins its buffer (BufferSize, or SmallBufferSize once compacted),
// so n bounds that memory.
func NewQueue(n int) *Queue { return &Queue{ch: make(chan *Packet, max(n, 1))} }

// Push queues p and reports whether there was room. It is a [DeliverFunc].
func (q *Queue) Push(p *Packet) bool {
	select {
	case q.ch <- p:
		return true
	default:
		return false
	}
}

// PushWait queues p, waiting up to d for room while the queue is full, or
// until stop is closed; it reports whether p was queued. While it waits the
// receive goroutine reads nothing, so a burst that outruns the consumer
// waits in the socket's kernel buffer (SO_RCVBUF) rather than being read
// and dropped: Cyclone DDS, which handles discovery on its receive threads,
// applies the same back-pressure. The timer is made only when the queue is
// full.
func (q *Queue) PushWait(p *Packet, d time.Duration, stop <-chan struct{}) bool {
	select {
	case q.ch <- p:
		return true
	default:
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case q.ch <- p:
		return true
	case <-t.C:
	case <-stop:
	}
	return false
}

// C returns the channel to receive queued packets from; the receiver of a
// packet owns it and must Release it.
func (q *Queue) C() <-chan *Packet { return q.ch }

// Len returns the number of queued packets.
func (q *Queue) Len() int { return len(q.ch) }

// Drain releases every queued packet.
func (q *Queue) Drain() {
	for {
		select {
		case p := <-q.ch:
			p.Release()
		default:
			return
		}
	}
}

// ReceiverConfig configures a [Receiver].
type ReceiverConfig struct {
	// Kind is stored in every packet read.
	Kind SocketKind
	// Deliver takes the packets read. Required.
	Deliver DeliverFunc
	// Batch is the number of datagrams read per system call. 0 or 1: one
	// ReadFrom per datagram, which allocates nothing. More: ReadBatch
	// (recvmmsg on Linux), fewer system calls under load, but x/net
	// allocates each datagram's source address.
	Batch int
	// Stats receives the counts; nil: the Receiver's own.
	Stats *Stats
	// Logger receives read errors at debug level; nil: discard.
	Logger *slog.Logger
	// Helper, if not nil, may do on the receive goroutine the work that the
	// deliveries made, rather than wake another goroutine for it.
	Helper Helper
}

// Helper runs on a receive goroutine, around the delivery of the datagrams of
// each read: Receiving before, Help after, with gid the goroutine's id
// (goid.Get) and no lock held. While Help runs the socket is not read.
type Helper interface {
	Receiving()
	Help(gid uint64)
}

// Receiver runs the one receive goroutine of a socket: it reads datagrams
// into pooled packets and delivers them, dropping and counting those that
// Deliver refuses. Close stops it.
type Receiver struct {
	conn  PacketConn
	cfg   ReceiverConfig
	stats *Stats
	done  chan struct{}
	gid   atomic.Uint64 // the receive goroutine's id
}

// polledReader is a PacketConn that reports the datagrams its busy poll found
// (udpConn).
type polledReader interface {
	readPolled(b []byte) (int, netip.AddrPort, bool, error)
}

// maxReadBackoff bounds the pause after repeated read errors.
const maxReadBackoff = 100 * time.Millisecond

// StartReceiver starts the receive goroutine of c.
func StartReceiver(c PacketConn, cfg ReceiverConfig) *Receiver {
	r := &Receiver{conn: c, cfg: cfg, stats: cfg.Stats, done: make(chan struct{})}
	if r.stats == nil {
		r.stats = new(Stats)
	}
	r.cfg.Logger = OrDiscard(r.cfg.Logger)
	go r.run()
	return r
}

// Stats returns the receiver's counters.
func (r *Receiver) Stats() *Stats { return r.stats }

// Done is closed when the receive goroutine has exited.
func (r *Receiver) Done() <-chan struct{} { return r.done }

// Close closes the socket and waits for the receive goroutine to exit, unless it is
// called from that goroutine (by the Helper), which then exits after it.
func (r *Receiver) Close() error {
	err := r.conn.Close()
	if r.cfg.Helper == nil || goid.Get() != r.gid.Load() {
		<-r.done
	}
	if errors.Is(err, net.ErrClosed) {
		err = nil
	}
	return err
}

func (r *Receiver) run() {
	defer close(r.done)
	var gid uint64
	h := r.cfg.Helper
	if h != nil {
		gid = goid.Get()
		r.gid.Store(gid)
	}
	n := max(r.cfg.Batch, 1)
	pkts := make([]*Packet, n)
	ms := make([]Message, n)
	defer func() {
		for _, p := range pkts {
			if p != nil {
				p.Release()
			}
		}
	}()
	pr, _ := r.conn.(polledReader)
	var backoff time.Duration
	for {
		for i := range pkts {
			if pkts[i] == nil {
				pkts[i] = GetPacket()
				ms[i].Buf = pkts[i].buf[:]
			}
		}
		var got int
		var err error
		if n == 1 {
			var polled bool
			if pr != nil {
				ms[0].N, ms[0].Addr, polled, err = pr.readPolled(ms[0].Buf)
			} else {
				ms[0].N, ms[0].Addr, err = r.conn.ReadFrom(ms[0].Buf)
			}
			if err == nil {
				got = 1
			}
			if polled {
				r.stats.BusyPolled.Add(1)
			}
		} else {
			got, err = ReadBatch(r.conn, ms)
		}
		if got > 0 && h != nil {
			h.Receiving()
		}
		for i := range got {
			p := pkts[i]
			pkts[i] = nil
			p.Data, p.Src, p.Kind = p.buf[:ms[i].N], ms[i].Addr, r.cfg.Kind
			r.stats.DatagramsIn.Add(1)
			r.stats.BytesIn.Add(uint64(ms[i].N))
			if !r.cfg.Deliver(p) {
				r.stats.Drops.Add(1)
				p.Release()
			}
		}
		if got > 0 && h != nil {
			h.Help(gid)
		}
		if err == nil {
			backoff = 0
			continue
		}
		if errors.Is(err, net.ErrClosed) {
			return
		}
		r.stats.ReadErrors.Add(1)
		r.cfg.Logger.Debug("transport: read", "kind", r.cfg.Kind, "err", err)
		// A persistent error must not spin: pause, doubling up to a bound.
		backoff = min(max(2*backoff, time.Millisecond), maxReadBackoff)
		time.Sleep(backoff)
	}
}
