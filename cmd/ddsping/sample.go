package main

import (
	"context"
	"time"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/ddsgo/ddsgo/rtps"
)

// sample is the type of every ddsping topic: a key that tells the pingers (and
// publishers) apart, a sequence number, the sender's timestamp and a payload.
type sample struct {
	// ID identifies the pinger or publisher.
	ID uint32 `dds:"key"`
	// Seq counts the samples of one ID from 1.
	Seq uint64
	// Stamp is the sender's monotonic clock in nanoseconds, echoed back by pong.
	Stamp int64
	// Payload fills the sample to the requested size.
	Payload []byte
}

// typeName is the IDL type name of sample.
const typeName = "ddsping::Sample"

// overhead is the serialized size of a sample without its payload bytes: the
// encapsulation header, ID, padding, Seq, Stamp and the sequence length.
const overhead = 4 + 4 + 4 + 8 + 8 + 4

// The topics. Pong serves reliable and best-effort pingers at once, on separate
// topics, so that it needs no flag. Names use only letters, digits and '_' (Cyclone DDS
// refuses '.').
const (
	topicPing   = "ddsping_ping"
	topicPong   = "ddsping_pong"
	topicPingBE = "ddsping_ping_be"
	topicPongBE = "ddsping_pong_be"
	topicData   = "ddsping_data"
)

// pingTopics returns the ping and pong topic names for the reliability chosen.
func pingTopics(reliable bool) (ping, pong string) {
	if reliable {
		return topicPing, topicPong
	}
	return topicPingBE, topicPongBE
}

// pingDepth is the KEEP_LAST depth of best-effort ping and pong writers and readers;
// one outstanding ping needs 1, a paced pinger a few.
const pingDepth = 16

// endpointQos returns the writer and reader QoS of the ping/pong topics. Reliable ones
// keep everything (KEEP_ALL): a KEEP_LAST history drops samples a slow side has not
// taken or acknowledged yet, which a paced ping on a loaded machine reaches, and a
// reliable ping must lose nothing. Best-effort ones keep the last depth.
func endpointQos(reliable bool, depth int32) (qos.DataWriterQos, qos.DataReaderQos) {
	wq, rq := qos.DefaultDataWriterQos(), qos.DefaultDataReaderQos()
	kind := qos.BestEffort
	wq.History = qos.History{Kind: qos.KeepLast, Depth: depth}
	if reliable {
		kind = qos.Reliable
		wq.History = qos.History{Kind: qos.KeepAll, Depth: 1}
	}
	wq.Reliability.Kind, rq.Reliability.Kind = kind, kind
	rq.History = wq.History
	wq.Durability.Kind, rq.Durability.Kind = qos.Volatile, qos.Volatile
	return wq, rq
}

// node is one participant of ddsping with a publisher, a subscriber and the sample
// type registered.
type node struct {
	p   *dds.DomainParticipant
	pub *dds.Publisher
	sub *dds.Subscriber
	// cfgName is the participant's ENTITY_NAME.
	cfgName string
}

// onNode returns the run function of a command that works on one participant: it
// creates the participant named name with the network settings of o, calls run with it
// and closes it when run returns.
func onNode(o *options, name string, run func(ctx context.Context, n *node) error) func(context.Context) error {
	return func(ctx context.Context) error {
		n, err := newNode(o, name)
		if err != nil {
			return err
		}
		defer n.close()
		return run(ctx, n)
	}
}

// newNode creates a participant named name with the network settings of o.
func newNode(o *options, name string) (*node, error) { return newNodeWith(o, name, nil) }

// newNodeWith creates a participant named name with the network settings of o that
// announces userData (USER_DATA), and the participant options extra.
func newNodeWith(o *options, name string, userData []byte, extra ...dds.Option) (*node, error) {
	cfg := rtps.Config{
		Interfaces:       o.interfaces,
		Peers:            o.peers,
		DisableMulticast: o.noMulticast,
		BusyPoll:         o.busyPoll,
		Name:             name,
		Logger:           o.logger,
	}
	pq := qos.DefaultDomainParticipantQos()
	pq.UserData.Value = userData
	p, err := dds.NewParticipant(o.domain, append([]dds.Option{dds.WithRTPS(cfg), dds.WithQos(pq)}, extra...)...)
	if err != nil {
		return nil, err
	}
	n := &node{p: p, cfgName: name}
	if n.pub, err = p.NewPublisher(); err == nil {
		n.sub, err = p.NewSubscriber()
	}
	if err != nil {
		n.close()
		return nil, err
	}
	return n, nil
}

// topic returns the node's topic name, creating it the first time.
func (n *node) topic(name string) (*dds.Topic[sample], error) {
	if t, ok := n.p.LookupTopicDescription(name).(*dds.Topic[sample]); ok {
		return t, nil
	}
	return dds.NewTopic[sample](n.p, name, dds.TypeName(typeName))
}

// writer creates a writer on topic name.
func (n *node) writer(name string, q qos.DataWriterQos) (*dds.DataWriter[sample], error) {
	t, err := n.topic(name)
	if err != nil {
		return nil, err
	}
	return dds.NewWriter(t, dds.WithPublisher(n.pub), dds.WithQos(q))
}

// reader creates a reader on topic name.
func (n *node) reader(name string, q qos.DataReaderQos) (*dds.DataReader[sample], error) {
	t, err := n.topic(name)
	if err != nil {
		return nil, err
	}
	return dds.NewReader(t, dds.WithSubscriber(n.sub), dds.WithQos(q))
}

// name returns the participant's name.
func (n *node) name() string { return n.cfgName }

// close deletes the participant and everything in it.
func (n *node) close() {
	_ = n.p.Close()
}

// clock is the monotonic clock of the samples' Stamp.
var clockStart = time.Now()

// now returns the current time on the samples' clock.
func now() int64 { return int64(time.Since(clockStart)) }
