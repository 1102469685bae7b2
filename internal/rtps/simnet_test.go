package rtps

import (
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/internal/wire"
)

// simNet is an in-memory network for protocol tests: every datagram is
// parsed with wire.Reader and routed to the endpoints of the destination
// node, like a participant's receiver would, after a random delay and with
// seeded loss and duplication. Time only moves when the test calls step.
type simNet struct {
	t        testing.TB
	rng      *rand.Rand
	now      time.Time
	loss     float64
	dup      float64
	maxDelay time.Duration
	nodes    map[wire.Locator]*simNode
	queue    []simPacket
	seq      int
	sent     int
	dropped  int
}

type simPacket struct {
	due  time.Time
	seq  int
	to   *simNode
	data []byte
}

// simNode is one participant: a locator and local endpoints.
type simNode struct {
	net     *simNet
	prefix  wire.GuidPrefix
	loc     wire.Locator
	writers map[wire.EntityID]*Writer
	readers map[wire.EntityID]*Reader
	// matches maps a writer GUID to the local readers matched with it.
	matches map[wire.GUID][]*Reader
}

func newSimNet(t testing.TB, seed uint64) *simNet {
	return &simNet{
		t:     t,
		rng:   rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		now:   time.Unix(1_700_000_000, 0),
		nodes: make(map[wire.Locator]*simNode),
	}
}

func (n *simNet) node(id byte) *simNode {
	var p wire.GuidPrefix
	p[0], p[1], p[11] = 0x01, 0xdd, id
	loc := wire.Locator{Kind: wire.LocatorKindUDPv4, Port: 7411 + uint32(id)}
	loc.Address[12], loc.Address[15] = 127, id
	nd := &simNode{
		net: n, prefix: p, loc: loc,
		writers: make(map[wire.EntityID]*Writer),
		readers: make(map[wire.EntityID]*Reader),
		matches: make(map[wire.GUID][]*Reader),
	}
	n.nodes[loc] = nd
	return nd
}

// Send implements Sender for the node.
func (nd *simNode) Send(msg []byte, to []wire.Locator) {
	n := nd.net
	for _, l := range to {
		dst := n.nodes[l]
		if dst == nil {
			continue
		}
		n.sent++
		if n.loss > 0 && n.rng.Float64() < n.loss {
			n.dropped++
			continue
		}
		copies := 1
		if n.dup > 0 && n.rng.Float64() < n.dup {
			copies = 2
		}
		for range copies {
			var d time.Duration
			if n.maxDelay > 0 {
				d = time.Duration(n.rng.Int64N(int64(n.maxDelay) + 1))
			}
			n.seq++
			n.queue = append(n.queue, simPacket{due: n.now.Add(d), seq: n.seq, to: dst, data: slices.Clone(msg)})
		}
	}
}

func (nd *simNode) writer(entity uint32, cfg WriterConfig) *Writer {
	cfg.GUID = wire.GUID{Prefix: nd.prefix, Entity: wire.EntityIDFromUint32(entity)}
	w := NewWriter(cfg, nd)
	nd.writers[cfg.GUID.Entity] = w
	return w
}

func (nd *simNode) reader(entity uint32, cfg ReaderConfig, deliver DeliverFunc) *Reader {
	cfg.GUID = wire.GUID{Prefix: nd.prefix, Entity: wire.EntityIDFromUint32(entity)}
	r := NewReader(cfg, deliver, nd)
	nd.readers[cfg.GUID.Entity] = r
	return r
}

// match matches w (on its node) with r (on rn) both ways.
func (n *simNet) match(w *Writer, wn *simNode, r *Reader, rn *simNode) {
	rn.matches[w.GUID()] = append(rn.matches[w.GUID()], r)
	w.AddReader(ReaderProxyInfo{GUID: r.GUID(), Reliable: r.cfg.Reliable, Unicast: []wire.Locator{rn.loc}}, n.now)
	r.AddWriter(WriterProxyInfo{GUID: w.GUID(), Reliable: w.cfg.Reliable, Unicast: []wire.Locator{wn.loc}}, n.now)
}

// targets returns the local readers a reader-bound submessage goes to.
func (nd *simNode) targets(src wire.GuidPrefix, writer, reader wire.EntityID) []*Reader {
	rs := nd.matches[wire.GUID{Prefix: src, Entity: writer}]
	if reader == wire.EntityIDUnknown {
		return rs
	}
	for _, r := range rs {
		if r.GUID().Entity == reader {
			return []*Reader{r}
		}
	}
	return nil
}

// receive parses and routes one datagram, the way Engine.receive does.
func (nd *simNode) receive(data []byte, now time.Time) {
	var rx receiver
	if rx.rd.Reset(data) != nil {
		return
	}
	st := rxState{src: rx.rd.Header.Prefix, vendor: rx.rd.Header.Vendor, forMe: true, ts: wire.TimeInvalid}
	for rx.rd.Next() {
		if err := nd.submessage(&rx, &st, now); err != nil {
			nd.net.t.Fatalf("simnet: bad submessage %v: %v", rx.rd.Kind(), err)
		}
	}
	if rx.rd.Err() != nil {
		nd.net.t.Fatalf("simnet: bad message: %v", rx.rd.Err())
	}
}

// submessage handles the current submessage of rx.
func (nd *simNode) submessage(rx *receiver, st *rxState, now time.Time) error {
	switch kind := rx.rd.Kind(); kind {
	case wire.KindInfoDst, wire.KindInfoSrc, wire.KindInfoTS:
		return rx.info(kind, st, nd.prefix)
	case wire.KindAckNack, wire.KindNackFrag:
		id, err := rx.decodeToWriter(kind)
		if w := nd.writers[id]; err == nil && st.forMe && w != nil {
			rx.deliverToWriter(w, kind, st, now)
		}
		return err
	case wire.KindData, wire.KindDataFrag, wire.KindHeartbeat, wire.KindHeartbeatFrag, wire.KindGap:
		writer, reader, err := rx.decodeToReader(kind)
		if err == nil && st.forMe {
			for _, r := range nd.targets(st.src, writer, reader) {
				rx.deliver(r, kind, st, now)
			}
		}
		return err
	default: // unknown and vendor submessages are skipped
		return nil
	}
}

// info applies the current INFO_DST, INFO_SRC or INFO_TS submessage of rx
// to st, as Engine.receive does; self is the GUID prefix of the receiving
// participant. The simulated network and the golden replay use it.
func (rx *receiver) info(kind wire.SubmessageKind, st *rxState, self wire.GuidPrefix) error {
	switch kind {
	case wire.KindInfoDst:
		if err := rx.rd.InfoDst(&rx.dst); err != nil {
			return err
		}
		st.forMe = addressedTo(&rx.dst, self)
	case wire.KindInfoSrc:
		if err := rx.rd.InfoSrc(&rx.src); err != nil {
			return err
		}
		st.src, st.vendor = rx.src.GuidPrefix, rx.src.Vendor
		st.forMe, st.ts = true, wire.TimeInvalid
	case wire.KindInfoTS:
		if err := rx.rd.InfoTS(&rx.its); err != nil {
			return err
		}
		st.ts = infoTime(&rx.its)
	default:
	}
	return nil
}

// step advances time by d, delivers the datagrams due (in random order)
// and ticks the endpoints whose deadline has come.
func (n *simNet) step(d time.Duration) {
	n.now = n.now.Add(d)
	for {
		var due []simPacket
		rest := n.queue[:0]
		for _, p := range n.queue {
			if !p.due.After(n.now) {
				due = append(due, p)
			} else {
				rest = append(rest, p)
			}
		}
		n.queue = rest
		if len(due) == 0 {
			break
		}
		n.rng.Shuffle(len(due), func(i, j int) { due[i], due[j] = due[j], due[i] })
		for _, p := range due {
			p.to.receive(p.data, n.now)
		}
	}
	for _, nd := range n.sortedNodes() {
		for _, w := range nd.sortedWriters() {
			if dl := w.Deadline(); !dl.IsZero() && !dl.After(n.now) {
				w.Tick(n.now)
			}
		}
		for _, r := range nd.sortedReaders() {
			if dl := r.Deadline(); !dl.IsZero() && !dl.After(n.now) {
				r.Tick(n.now)
			}
		}
	}
}

// run steps until cond holds or limit of simulated time passes.
func (n *simNet) run(d, limit time.Duration, cond func() bool) bool {
	end := n.now.Add(limit)
	for !cond() {
		if n.now.After(end) {
			return false
		}
		n.step(d)
	}
	return true
}

func (n *simNet) sortedNodes() []*simNode {
	ns := make([]*simNode, 0, len(n.nodes))
	for _, nd := range n.nodes {
		ns = append(ns, nd)
	}
	slices.SortFunc(ns, func(a, b *simNode) int { return int(a.prefix[11]) - int(b.prefix[11]) })
	return ns
}

func (nd *simNode) sortedWriters() []*Writer { return byEntityID(nd.writers) }

func (nd *simNode) sortedReaders() []*Reader { return byEntityID(nd.readers) }

// byEntityID returns the endpoints of m in the order of their entity ids,
// so that a run does not depend on map order.
func byEntityID[E interface{ GUID() wire.GUID }](m map[wire.EntityID]E) []E {
	es := make([]E, 0, len(m))
	for _, e := range m {
		es = append(es, e)
	}
	slices.SortFunc(es, func(a, b E) int { return int(a.GUID().Entity.Uint32()) - int(b.GUID().Entity.Uint32()) })
	return es
}

// payload returns a CDR_LE payload holding seq (and pad octets of filler).
func payload(seq uint64, pad int) []byte {
	b := make([]byte, 12+pad)
	b[1] = 0x01 // CDR_LE
	binary.LittleEndian.PutUint64(b[4:], seq)
	for i := range pad {
		b[12+i] = byte(seq) + byte(i)
	}
	return b
}

func payloadSeq(b []byte) uint64 { return binary.LittleEndian.Uint64(b[4:]) }

// collector records delivered samples.
type collector struct {
	samples []Sample
	seqs    []uint64
}

func (c *collector) deliver(s *Sample) bool {
	cp := *s
	cp.Payload = slices.Clone(s.Payload)
	c.samples = append(c.samples, cp)
	if s.Kind == Alive && len(s.Payload) >= 12 {
		c.seqs = append(c.seqs, payloadSeq(s.Payload))
	}
	return true
}
