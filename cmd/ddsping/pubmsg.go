package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/sim"
)

// pubMsg is `pub TOPIC VALUE`: count messages of typ (a ROS 2 type name; empty: the type
// of the topic's readers or writers on the domain) with the value text (the text format
// of call and of the plugin configurations) on topic, every period, once a reader
// matched.
type pubMsg struct {
	topic, typ, text string
	count            int
	period, wait     time.Duration
}

// topicType waits until an endpoint of the DDS topic is discovered and returns its type
// name (the bus takes DDS type names as well as ROS 2's).
func topicType(ctx context.Context, p *dds.DomainParticipant, topic string) (string, error) {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		subs, err := p.DiscoveredSubscriptions()
		if err != nil {
			return "", err
		}
		pubs, err := p.DiscoveredPublications()
		if err != nil {
			return "", err
		}
		for _, e := range append(subs, pubs...) {
			if e.TopicName == topic {
				return e.TypeName, nil
			}
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("%w: nobody on %q to take its type from: give -type", errFailed, topic)
		case <-tick.C:
		}
	}
}

// pubMessages runs `pub TOPIC VALUE` with the flags of pub.
func pubMessages(ctx context.Context, fs *flag.FlagSet, o *options, typ string, count int, rate float64, wait time.Duration) error {
	if fs.NArg() != 2 || count < 1 || rate < 0 {
		return fmt.Errorf("%w: pub [-type T] [-count N] [-rate HZ] TOPIC VALUE, as in: pub /chatter 'data: \"hi\"'", errUsage)
	}
	m := &pubMsg{topic: fs.Arg(0), text: fs.Arg(1), typ: typ, count: count, wait: wait}
	if rate > 0 {
		m.period = time.Duration(float64(time.Second) / rate)
	}
	return onNode(o, "ddsping pub", func(ctx context.Context, n *node) error { return m.run(ctx, o, n) })(ctx)
}

// run publishes the messages on n.
func (m *pubMsg) run(ctx context.Context, o *options, n *node) error {
	data, err := sim.ParseMsg(m.text)
	if err != nil {
		return fmt.Errorf("%w: value: %w", errUsage, err)
	}
	wctx, cancel := context.WithTimeout(ctx, m.wait)
	defer cancel()
	if m.typ == "" {
		if m.typ, err = topicType(wctx, n.p, ddsTopic(m.topic)); err != nil {
			return err
		}
	}
	bus := sim.NewDDSBus(n.p)
	defer func() { _ = bus.Close() }()
	if err := sim.AddROSTypes(bus); err != nil {
		return err
	}
	if err := bus.WaitMatched(wctx, m.topic, m.typ); err != nil {
		if errors.Is(err, dds.ErrBadParameter) {
			return fmt.Errorf("%w: %w; pub TOPIC VALUE writes ROS 2 topics of the message types ddsping has "+
				"(std_msgs, geometry_msgs, builtin_interfaces, rosgraph_msgs, tf2_msgs)", errUsage, err)
		}
		return fmt.Errorf("%w: no reader of %s matched within %v", errFailed, m.topic, m.wait)
	}
	for i := range m.count {
		if i > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(m.period):
			}
		}
		if err := bus.Publish(m.topic, sim.Message{Type: m.typ, Data: data}); err != nil {
			if errors.Is(err, dds.ErrBadParameter) {
				return fmt.Errorf("%w: %w", errUsage, err)
			}
			return err
		}
	}
	// The writer is RELIABLE: give the readers time to acknowledge before it goes.
	time.Sleep(100 * time.Millisecond)
	if o.json {
		return json.NewEncoder(o.out).Encode(map[string]any{"topic": m.topic, "type": m.typ, "published": m.count})
	}
	fmt.Fprintf(o.out, "pub: %d %s on %s\n", m.count, m.typ, m.topic)
	return nil
}
