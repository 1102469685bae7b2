package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/ddsgo/ddsgo/waitset"
)

// What ddsping needs to speak to Cyclone DDS's ddsperf (src/tools/ddsperf/ddsperf.c and
// ddsperf_types.idl of cyclonedds 0.10.x), in its default mode (topic type KS):
//
//   - Topics DDSPerfRPingKS, DDSPerfRPongKS and DDSPerfRDataKS of type KeyedSeq when
//     reliable, DDSPerfU... when best effort (ddsperf -u). All endpoints are in the default
//     partition except those of the pong topic.
//   - Ping and pong writers and readers keep the last sample (KEEP_LAST 1); data writers and
//     readers keep all (KEEP_ALL, max_samples 10000). Everything is volatile.
//   - A ddsperf participant announces USER_DATA "DDSPerf:R:PID:HOST" (R is 1 when it has a
//     data reader). ddsperf answers pings only for the participants that announce it, and
//     a ddsperf pinger waits for a pong from each of them before it sends the next ping.
//   - Each participant reads pongs in the partition named after its own participant GUID
//     (16 bytes as four groups of 8 hex digits joined by "_"), and a ddsperf answering
//     pings creates one pong writer per pinging participant, in that participant's
//     partition: a pinger sees only the answers to its own pings.
//   - A pong is the ping sample itself, written with the ping's source timestamp; the
//     pinger computes the round trip from that timestamp. The least significant bit of the
//     timestamp says "ping" (1) or "data" (0): a data sample with the bit set asks the
//     subscriber for a pong too, so a publisher must clear it.
//   - ddsperf reports half the round trip as its latency: (now - timestamp) / 2.
//   - ddsperf's "size N" is the serialized KeyedSeq without the encapsulation header:
//     seq, keyval and the sequence length (12 bytes) plus N-12 bytes of baggage.

// keyedSeq is ddsperf's KeyedSeq (ddsperf_types.idl), @final:
//
//	struct KeyedSeq { unsigned long seq; @key unsigned long keyval; sequence<octet> baggage; };
type keyedSeq struct {
	Seq     uint32
	KeyVal  uint32 `dds:"key"`
	Baggage []byte
}

// DDSTypeName is the IDL name ddsperf registers: KeyedSeq, in no module.
func (keyedSeq) DDSTypeName() string { return "KeyedSeq" }

// perfOverhead is the part of ddsperf's size that is not baggage: seq, keyval and the
// sequence length.
const perfOverhead = 12

// perfBaggage returns the baggage length of a ddsperf sample of size bytes (ddsperf's
// size: overhead included).
func perfBaggage(size int) int { return max(size-perfOverhead, 0) }

// perfMagic starts the USER_DATA of a ddsperf participant.
const perfMagic = "DDSPerf:"

// perfUserData returns the USER_DATA of a ddsperf participant without a data reader.
func perfUserData() []byte {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "?"
	}
	return fmt.Appendf(nil, "%s0:%d:%s", perfMagic, os.Getpid(), host)
}

// perfTopics returns ddsperf's topic names for the reliability chosen.
func perfTopics(reliable bool) (ping, pong, data string) {
	r := "U"
	if reliable {
		r = "R"
	}
	return "DDSPerf" + r + "PingKS", "DDSPerf" + r + "PongKS", "DDSPerf" + r + "DataKS"
}

// perfPingQos returns the QoS of ddsperf's ping and pong writers and readers: KEEP_LAST 1,
// volatile, reliable (blocking up to 10 s) or best effort.
func perfPingQos(reliable bool) (qos.DataWriterQos, qos.DataReaderQos) {
	wq, rq := qos.DefaultDataWriterQos(), qos.DefaultDataReaderQos()
	kind := qos.BestEffort
	if reliable {
		kind = qos.Reliable
	}
	wq.Reliability = qos.Reliability{Kind: kind, MaxBlockingTime: 10 * time.Second}
	rq.Reliability = wq.Reliability
	wq.History = qos.History{Kind: qos.KeepLast, Depth: 1}
	rq.History = wq.History
	wq.Durability.Kind, rq.Durability.Kind = qos.Volatile, qos.Volatile
	return wq, rq
}

// perfPartition returns the partition in which the participant with handle h reads its
// pongs: its GUID as ddsperf prints it.
func perfPartition(h dds.InstanceHandle) string {
	g := h
	g[12], g[13], g[14], g[15] = 0, 0, 1, 0xc1 // the participant's entity id
	return fmt.Sprintf("%x_%x_%x_%x", g[0:4], g[4:8], g[8:12], g[12:16])
}

// perfStamp is the source timestamp of a ping whose Stamp (on the clock of now) is s,
// with the ping bit set; stampOf inverts it.
func perfStamp(s int64) time.Time { return time.Unix(0, (wallStart+s)|1) }

// stampOf returns the sample clock's time of source timestamp t.
func stampOf(t time.Time) int64 { return t.UnixNano() - wallStart }

// dataStamp returns the source timestamp of a data sample written now: the ping bit clear.
func dataStamp() time.Time { return time.Unix(0, time.Now().UnixNano()&^1) }

// wallStart is clockStart in Unix nanoseconds.
var wallStart = clockStart.UnixNano()

// perfTopic returns the node's ddsperf topic name, creating it the first time.
func perfTopic(n *node, name string) (*dds.Topic[keyedSeq], error) {
	if t, ok := n.p.LookupTopicDescription(name).(*dds.Topic[keyedSeq]); ok {
		return t, nil
	}
	return dds.NewTopic[keyedSeq](n.p, name)
}

// perfWriter creates a ddsperf writer on topic name in pub (the node's publisher when nil).
func perfWriter(n *node, pub *dds.Publisher, name string, q qos.DataWriterQos) (*dds.DataWriter[keyedSeq], error) {
	return perfEndpoint(n, name, dds.NewWriter[keyedSeq], dds.WithPublisher(cmp.Or(pub, n.pub)), dds.WithQos(q))
}

// perfReader creates a ddsperf reader on topic name in sub (the node's subscriber when nil).
func perfReader(n *node, sub *dds.Subscriber, name string, q qos.DataReaderQos) (*dds.DataReader[keyedSeq], error) {
	return perfEndpoint(n, name, dds.NewReader[keyedSeq], dds.WithSubscriber(cmp.Or(sub, n.sub)), dds.WithQos(q))
}

// perfEndpoint creates a writer or reader with create and opts on the ddsperf topic name.
func perfEndpoint[E any](n *node, name string, create func(*dds.Topic[keyedSeq], ...dds.Option) (E, error), opts ...dds.Option) (E, error) {
	t, err := perfTopic(n, name)
	if err != nil {
		var none E
		return none, err
	}
	return create(t, opts...)
}

// perfPonger answers ddsperf's pingers, reliable and best-effort, as ddsperf does: one
// pong writer per pinging participant, in that participant's partition, writing the
// ping back with its source timestamp and the ping bit set. Its participant must
// announce perfUserData, or a ddsperf pinger does not wait for its answers. It also
// has the ping writer and the pong reader every ddsperf participant has, idle, so that
// ddsperf finds all the endpoints it expects of a peer.
type perfPonger struct {
	n      *node
	sides  []*perfPongSide
	pongs  *perfPongWriters
	echoed atomic.Uint64
}

// perfPongSide serves one reliability.
type perfPongSide struct {
	reliable   bool
	ping, pong string
	r          *dds.DataReader[keyedSeq]
	rc         *dds.ReadCondition[keyedSeq]
	data       []keyedSeq
	infos      []dds.SampleInfo
}

// newPerfPonger creates the endpoints of a ddsperf pong in n. With idle, also the ping
// writer and pong reader a pong does not use (a pinger has its own, perfLink).
func newPerfPonger(n *node, idle bool) (*perfPonger, error) {
	p := &perfPonger{n: n, pongs: newPerfPongWriters(n)}
	for _, reliable := range []bool{true, false} {
		s := &perfPongSide{
			reliable: reliable,
			data:     make([]keyedSeq, takeBatch), infos: make([]dds.SampleInfo, takeBatch),
		}
		s.ping, s.pong, _ = perfTopics(reliable)
		_, rq := perfPingQos(reliable)
		rq.History.Depth = pingDepth // as perfLink: pings of a paced pinger arrive together
		var err error
		if s.r, err = perfReader(n, nil, s.ping, rq); err != nil {
			return nil, err
		}
		if s.rc, err = s.r.CreateReadCondition(dds.States{}); err != nil {
			return nil, err
		}
		if err := s.r.StatusCondition().SetEnabledStatuses(listener.StatusMask(listener.SubscriptionMatched)); err != nil {
			return nil, err
		}
		p.sides = append(p.sides, s)
	}
	if idle {
		return p, p.idleEndpoints()
	}
	return p, nil
}

// idleEndpoints creates the ping writers and pong readers (reliable and best-effort)
// every ddsperf participant has and a pong does not use.
func (p *perfPonger) idleEndpoints() error {
	own, err := p.n.p.NewSubscriber(dds.Partition(perfPartition(p.n.p.InstanceHandle())))
	if err != nil {
		return err
	}
	for _, s := range p.sides {
		wq, rq := perfPingQos(s.reliable)
		if _, err := perfWriter(p.n, nil, s.ping, wq); err != nil {
			return err
		}
		if _, err := perfReader(p.n, own, s.pong, rq); err != nil {
			return err
		}
	}
	return nil
}

// conditions returns what the pong's wait-set waits on: pings, and new ping writers.
func (p *perfPonger) conditions() []waitset.Condition {
	var out []waitset.Condition
	for _, s := range p.sides {
		out = append(out, s.rc, s.r.StatusCondition())
	}
	return out
}

// triggered reports whether one of p's conditions is among conds.
func (p *perfPonger) triggered(conds []waitset.Condition) bool {
	for _, s := range p.sides {
		if slices.Contains(conds, waitset.Condition(s.rc)) || slices.Contains(conds, waitset.Condition(s.r.StatusCondition())) {
			return true
		}
	}
	return false
}

// serve creates the pong writers of new pingers and answers the pings there are.
func (p *perfPonger) serve(ctx context.Context) error {
	for _, s := range p.sides {
		if err := p.matchPingers(s); err != nil {
			return err
		}
		if err := drain(ctx, s.r, s.data, s.infos, func(data []keyedSeq, infos []dds.SampleInfo) error {
			return p.answer(ctx, s, data, infos)
		}); err != nil {
			return err
		}
	}
	return nil
}

// listen answers pings from the readers' listeners until ctx ends, passing errors to
// fail; the conditions are not used.
func (p *perfPonger) listen(ctx context.Context, fail func(error)) error {
	var mu sync.Mutex // the listeners' calls and ours below share the pong writers
	for _, s := range p.sides {
		l := dds.ReaderListener[keyedSeq]{
			OnDataAvailable: func(*dds.DataReader[keyedSeq]) {
				mu.Lock()
				defer mu.Unlock()
				if err := p.matchPingers(s); err != nil {
					fail(err)
					return
				}
				fail(drain(ctx, s.r, s.data, s.infos, func(data []keyedSeq, infos []dds.SampleInfo) error {
					return p.answer(ctx, s, data, infos)
				}))
			},
			OnSubscriptionMatched: func(*dds.DataReader[keyedSeq], listener.SubscriptionMatchedStatus) {
				mu.Lock()
				defer mu.Unlock()
				fail(p.matchPingers(s))
			},
		}
		if err := s.r.SetListener(l, listener.StatusMask(listener.DataAvailable|listener.SubscriptionMatched)); err != nil {
			return err
		}
	}
	// Pingers matched before the listeners were set.
	mu.Lock()
	defer mu.Unlock()
	for _, s := range p.sides {
		if err := p.matchPingers(s); err != nil {
			return err
		}
	}
	return nil
}

// matchPingers creates a pong writer for each ping writer matched, ahead of its first
// ping: a pong written before the pinger's reader matched would be lost.
func (p *perfPonger) matchPingers(s *perfPongSide) error {
	return p.pongs.follow(s.r, s.reliable)
}

// answer writes each ping back to its pinger.
func (p *perfPonger) answer(ctx context.Context, s *perfPongSide, data []keyedSeq, infos []dds.SampleInfo) error {
	for i := range data {
		if !infos[i].ValidData || p.pongs.own(infos[i].PublicationHandle) {
			continue
		}
		w, err := p.pongs.get(s.reliable, infos[i].PublicationHandle)
		if err != nil {
			return err
		}
		ts := time.Unix(0, infos[i].SourceTimestamp.UnixNano()|1)
		if err := w.Write(ctx, &data[i], dds.Timestamp(ts)); err != nil && ctx.Err() == nil && !errors.Is(err, dds.ErrTimeout) {
			return fmt.Errorf("pong: %w", err)
		}
		p.echoed.Add(1)
	}
	return nil
}

// perfPongWriters are the pong writers of a participant that answers ddsperf's pings
// (pong, ping) or its data samples with the ping bit (sub): one per pinging participant
// and reliability, in that participant's partition, each in a publisher of its own
// partition.
type perfPongWriters struct {
	n    *node
	pubs map[string]*dds.Publisher
	ws   map[pongKey]*dds.DataWriter[keyedSeq]
}

// pongKey identifies a pong writer: its reliability and partition.
type pongKey struct {
	reliable bool
	part     string
}

func newPerfPongWriters(n *node) *perfPongWriters {
	return &perfPongWriters{n: n, pubs: map[string]*dds.Publisher{}, ws: map[pongKey]*dds.DataWriter[keyedSeq]{}}
}

// get returns the pong writer for the pinger whose writer is pub, creating it the first
// time.
func (p *perfPongWriters) get(reliable bool, pub dds.InstanceHandle) (*dds.DataWriter[keyedSeq], error) {
	k := pongKey{reliable, perfPartition(pub)}
	if w, ok := p.ws[k]; ok {
		return w, nil
	}
	pb, ok := p.pubs[k.part]
	if !ok {
		var err error
		if pb, err = p.n.p.NewPublisher(dds.Partition(k.part)); err != nil {
			return nil, err
		}
		p.pubs[k.part] = pb
	}
	wq, _ := perfPingQos(reliable)
	wq.History.Depth = pingDepth // as perfLink: pongs of a paced pinger leave together
	_, pong, _ := perfTopics(reliable)
	w, err := perfWriter(p.n, pb, pong, wq)
	if err != nil {
		return nil, err
	}
	p.ws[k] = w
	return w, nil
}

// own reports whether the writer h is of this participant: ddsperf ignores its own
// pings (IGNORELOCAL participant), or a ddsping ping would time its own answers.
func (p *perfPongWriters) own(h dds.InstanceHandle) bool {
	self := p.n.p.InstanceHandle()
	return [12]byte(h[:12]) == [12]byte(self[:12])
}

// follow keeps a pong writer for each writer r matched, when r's status condition (its
// SUBSCRIPTION_MATCHED enabled) says the matches changed: it creates those of new
// writers, ahead of their first ping, and deletes those of writers gone.
func (p *perfPongWriters) follow(r *dds.DataReader[keyedSeq], reliable bool) error {
	if !r.StatusCondition().TriggerValue() {
		return nil
	}
	if _, err := r.SubscriptionMatchedStatus(); err != nil { // resets the trigger
		return err
	}
	hs, err := r.MatchedPublications()
	if err != nil {
		return err
	}
	live := map[string]bool{}
	for _, h := range hs {
		if p.own(h) {
			continue
		}
		live[perfPartition(h)] = true
		if _, err := p.get(reliable, h); err != nil {
			return err
		}
	}
	return p.dropGone(reliable, live)
}

// dropGone deletes the pong writers of the reliability whose pinger is no longer
// matched (not in live), and their publishers once no writer uses them.
func (p *perfPongWriters) dropGone(reliable bool, live map[string]bool) error {
	for k, w := range p.ws {
		if k.reliable != reliable || live[k.part] {
			continue
		}
		delete(p.ws, k)
		if err := w.Close(); err != nil {
			return err
		}
		if _, ok := p.ws[pongKey{!reliable, k.part}]; ok {
			continue
		}
		pub := p.pubs[k.part]
		delete(p.pubs, k.part)
		if err := pub.Close(); err != nil {
			return err
		}
	}
	return nil
}
