package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/ddsgo/ddsgo/sim"
	"github.com/ddsgo/ddsgo/sim/simdds"
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

// topicEndpoint waits until an endpoint of the DDS topic is discovered and returns what
// it announced, a reader's when there is one (reader).
func topicEndpoint(ctx context.Context, p *dds.DomainParticipant, topic string) (e dds.EndpointBuiltinTopicData, reader bool, err error) {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		subs, err := p.DiscoveredSubscriptions()
		if err != nil {
			return e, false, err
		}
		pubs, err := p.DiscoveredPublications()
		if err != nil {
			return e, false, err
		}
		for i, e := range append(subs, pubs...) {
			if e.TopicName == topic {
				return e, i < len(subs), nil
			}
		}
		select {
		case <-ctx.Done():
			return e, false, fmt.Errorf("%w: nobody on %q to take its type from: give -type", errFailed, topic)
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
	var ep dds.EndpointBuiltinTopicData
	var reader bool
	typed := m.typ != ""
	if !typed {
		if ep, reader, err = topicEndpoint(wctx, n.p, ddsTopic(m.topic)); err != nil {
			return err
		}
		m.typ = ep.TypeName
		if !strings.HasPrefix(m.topic, "/") {
			// A DDS name, as echo takes it: the ROS 2 bus would write rt/NAME.
			return m.runDynamic(ctx, wctx, o, n, ep, reader, data)
		}
	}
	bus := simdds.NewBus(n.p)
	defer func() { _ = bus.Close() }()
	if err := simdds.AddROSTypes(bus); err != nil {
		return err
	}
	if err := bus.WaitMatched(wctx, m.topic, m.typ); err != nil {
		if errors.Is(err, dds.ErrBadParameter) && !typed {
			// Not a type ddsping has: the one the endpoint announced.
			return m.runDynamic(ctx, wctx, o, n, ep, reader, data)
		}
		if errors.Is(err, dds.ErrBadParameter) {
			return fmt.Errorf("%w: %w; -type takes the message types ddsping has "+
				"(std_msgs, geometry_msgs, builtin_interfaces, rosgraph_msgs, tf2_msgs)", errUsage, err)
		}
		return fmt.Errorf("%w: no reader of %s matched within %v", errFailed, m.topic, m.wait)
	}
	err = m.repeat(ctx, func() error {
		err := bus.Publish(m.topic, sim.Message{Type: m.typ, Data: data})
		if errors.Is(err, dds.ErrBadParameter) {
			return fmt.Errorf("%w: %w", errUsage, err)
		}
		return err
	})
	if err != nil {
		return err
	}
	// The writer is RELIABLE: let the readers acknowledge before it goes.
	awaitAcks(ctx, func(ctx context.Context) error { return bus.WaitForAcknowledgments(ctx, m.topic, m.typ) })
	return m.report(o)
}

// repeat calls publish -count times, -rate apart.
func (m *pubMsg) repeat(ctx context.Context, publish func() error) error {
	for i := range m.count {
		if i > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(m.period):
			}
		}
		if err := publish(); err != nil {
			return err
		}
	}
	return nil
}

// report prints what run published.
func (m *pubMsg) report(o *options) error {
	if o.json {
		return json.NewEncoder(o.out).Encode(map[string]any{"topic": m.topic, "type": m.typ, "published": m.count})
	}
	fmt.Fprintf(o.out, "pub: %d %s on %s\n", m.count, m.typ, m.topic)
	return nil
}

// runDynamic publishes data on a topic of a type ddsping has no Go type for, with the
// type ep (a reader of the topic, or else a writer) announced (XTypes TypeObjects, asked
// for with TypeLookup), and a writer whose QoS meets ep's: what the peers' tools can
// write without the type compiled in.
func (m *pubMsg) runDynamic(ctx, wctx context.Context, o *options, n *node, ep dds.EndpointBuiltinTopicData, reader bool, data sim.Msg) error {
	typ, err := n.p.LookupType(wctx, ep)
	switch {
	case errors.Is(err, dds.ErrUnsupported):
		return fmt.Errorf("%w: %s on %s: %w; ddsping cannot write a type it does not have unless an endpoint announces it (XTypes; "+
			"a ddsgo endpoint announces its Go type only when every member has an IDL name, a dds:\"name=...\" tag as ddsgen writes)",
			errFailed, ep.TypeName, ep.TopicName, err)
	case err != nil:
		return fmt.Errorf("%w: the type of %s: %w", errFailed, ep.TopicName, err)
	}
	s, err := typ.Sample(plainMsg(data))
	if err != nil {
		return fmt.Errorf("%w: value: %w", errUsage, err)
	}
	t, err := dds.NewTopic[dds.DynamicSample](n.p, ep.TopicName, dds.WithType(typ))
	if err != nil {
		return err
	}
	w, err := dds.NewWriter(t, writerFor(ep, reader)...)
	if err != nil {
		return err
	}
	if err := waitPublicationMatched(wctx, w); err != nil {
		return fmt.Errorf("%w: no reader of %s matched within %v", errFailed, m.topic, m.wait)
	}
	if err := m.repeat(ctx, func() error { return w.Write(ctx, &s) }); err != nil {
		return err
	}
	awaitAcks(ctx, w.WaitForAcknowledgments)
	return m.report(o)
}

// awaitAcks gives the readers up to 2 s to acknowledge what pub wrote before its writer
// goes. Best effort: a reader that never acknowledges costs the 2 s and nothing else.
func awaitAcks(ctx context.Context, wait func(context.Context) error) {
	actx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	_ = wait(actx)
}

// waitPublicationMatched waits until w matched a reader.
func waitPublicationMatched(ctx context.Context, w *dds.DataWriter[dds.DynamicSample]) error {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		if st, err := w.PublicationMatchedStatus(); err != nil || st.CurrentCount > 0 {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// writerFor returns the options of a writer that matches ep: a reader's requested
// reliability, durability, deadline, liveliness, ownership, partitions and a data
// representation it accepts, or a writer's offered ones. It keeps all it writes, which
// is a few messages.
func writerFor(ep dds.EndpointBuiltinTopicData, reader bool) []dds.Option {
	wq := qos.DefaultDataWriterQos()
	r, w := ep.Requested.Reader, ep.Offered.Writer
	parts, reps := ep.Requested.Subscriber.Partition.Name, r.DataRepresentation.Value
	wq.Reliability.Kind, wq.Durability, wq.Deadline, wq.Liveliness, wq.Ownership =
		r.Reliability.Kind, r.Durability, r.Deadline, r.Liveliness, r.Ownership
	if !reader {
		parts, reps = ep.Offered.Publisher.Partition.Name, w.DataRepresentation.Value
		wq.Reliability.Kind, wq.Durability, wq.Deadline, wq.Liveliness, wq.Ownership =
			w.Reliability.Kind, w.Durability, w.Deadline, w.Liveliness, w.Ownership
	}
	wq.History = qos.History{Kind: qos.KeepAll}
	if len(reps) > 0 {
		wq.DataRepresentation.Value = reps[:1]
	}
	opts := []dds.Option{dds.WithQos(wq)}
	if len(parts) > 0 {
		opts = append(opts, dds.Partition(parts...))
	}
	return opts
}

// plainMsg turns the messages ParseMsg makes (sim.Msg, nested) into the maps a dynamic
// type takes.
func plainMsg(v any) any {
	switch x := v.(type) {
	case sim.Msg:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = plainMsg(e)
		}
		return m
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plainMsg(e)
		}
		return out
	}
	return v
}
