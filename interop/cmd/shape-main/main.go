// Command shape-main is the shape_main program of the OMG DDS-RTPS interoperability
// suite (github.com/omg-dds/dds-rtps) built on ddsgo: it publishes or subscribes
// ShapeType samples with the suite's command-line options and prints the lines the
// suite's interoperability_report.py waits for ("Create topic:", "Create writer for
// topic", "on_publication_matched()", samples as "Square     BLUE       010 020 [30]",
// "on_requested_incompatible_qos()", ...). docs/shapes.md says how to run the suite
// with it and which of its cases pass.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"syscall"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/ddsgo/ddsgo/rtps"
)

// ShapeType is the suite's type (srcC/shape.idl there): appendable, keyed by color.
type ShapeType struct {
	Color                 string  `dds:"key,bound=128,name=color"`
	X                     int32   `dds:"name=x"`
	Y                     int32   `dds:"name=y"`
	Shapesize             int32   `dds:"name=shapesize"`
	AdditionalPayloadSize []uint8 `dds:"name=additional_payload_size"`
}

// DDSTypeName returns the suite's type name.
func (ShapeType) DDSTypeName() string { return "ShapeType" }

// DDSExtensibility returns the extensibility of ShapeType: appendable.
func (ShapeType) DDSExtensibility() dds.Extensibility { return dds.Appendable }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout)
	stop()
	os.Exit(code)
}

// app is one run: its output and entities.
type app struct {
	o   options
	mu  sync.Mutex // one line at a time: listeners print from other goroutines
	out io.Writer
	// colors are the colors of the instances the subscriber has seen samples of
	colors map[instanceKey]string
}

func (a *app) printf(format string, args ...any) {
	a.mu.Lock()
	defer a.mu.Unlock()
	fmt.Fprintf(a.out, format, args...)
}

func (a *app) debugf(format string, args ...any) {
	if a.o.debug {
		a.printf(format+"\n", args...)
	}
}

func run(ctx context.Context, argv []string, out io.Writer) int {
	o, code, ok := parse(argv, out)
	if !ok {
		return code
	}
	a := &app{o: o, out: out, colors: map[instanceKey]string{}}
	var opts []dds.Option
	if o.announce > 0 || o.fragSize > 0 {
		opts = append(opts, dds.WithRTPS(rtps.Config{AnnouncePeriod: o.announce, FragmentSize: o.fragSize}))
	}
	opts = append(opts, dds.WithListener(a.participantListener(), listener.StatusMask(
		listener.InconsistentTopic|listener.OfferedIncompatibleQos|listener.PublicationMatched|
			listener.OfferedDeadlineMissed|listener.LivelinessLost|listener.RequestedIncompatibleQos|
			listener.SubscriptionMatched|listener.RequestedDeadlineMissed|listener.LivelinessChanged)))
	p, err := dds.NewParticipant(o.domain, opts...)
	if err != nil {
		a.printf("failed to create participant: %v\n", err)
		return exitInit
	}
	defer func() { _ = p.Close() }()
	tq := qos.DefaultTopicQos()
	tq.History = history(o.historyDepth)
	tq.ResourceLimits.MaxSamples = maxSamples
	topics := make([]*dds.Topic[ShapeType], o.topics)
	for i := range topics {
		name := o.topic
		if i > 0 {
			name += strconv.Itoa(i)
		}
		a.printf("Create topic: %s\n", name)
		if topics[i], err = dds.NewTopic[ShapeType](p, name, dds.WithQos(tq)); err != nil {
			a.printf("failed to create topic <%s>: %v\n", name, err)
			return exitInit
		}
	}
	if o.publish {
		return a.publish(ctx, p, topics)
	}
	return a.subscribe(ctx, p, topics)
}

// maxSamples is the topic's RESOURCE_LIMITS max_samples, as the suite's programs set it.
const maxSamples = 500

// history is the HISTORY of -k: -1 the default KEEP_LAST 1, 0 KEEP_ALL, else KEEP_LAST k.
func history(depth int) qos.History {
	switch {
	case depth < 0:
		return qos.History{Kind: qos.KeepLast, Depth: 1}
	case depth == 0:
		return qos.History{Kind: qos.KeepAll, Depth: 1}
	}
	return qos.History{Kind: qos.KeepLast, Depth: int32(depth)}
}

// common sets the policies the writers and readers of the suite share.
func (o *options) common(rel *qos.Reliability, dur *qos.Durability, dr *qos.DataRepresentation, own *qos.Ownership, dl *qos.Deadline, hist *qos.History) {
	rel.Kind = qos.BestEffort
	if o.reliable {
		rel.Kind = qos.Reliable
	}
	dur.Kind = o.durability
	dr.Value = []qos.DataRepresentationID{qos.XCDR1}
	if o.xcdr2 {
		dr.Value = []qos.DataRepresentationID{qos.XCDR2}
	}
	own.Kind = qos.Shared
	if o.strength >= 0 {
		own.Kind = qos.Exclusive
	}
	dl.Period = qos.Infinite
	if o.deadline > 0 {
		dl.Period = o.deadline
	}
	*hist = history(o.historyDepth)
}

func (o *options) presentation() qos.Presentation {
	return qos.Presentation{AccessScope: o.accessScope, CoherentAccess: o.coherent, OrderedAccess: o.ordered}
}

// participantListener prints the statuses as the suite's programs do.
func (a *app) participantListener() dds.ParticipantListener {
	return dds.ParticipantListener{
		PublisherListener: dds.PublisherListener{
			OnPublicationMatched: func(w dds.AnyDataWriter, s listener.PublicationMatchedStatus) {
				a.status("on_publication_matched", w.TopicDescription(), ": matched readers %d (change = %d)", s.CurrentCount, s.CurrentCountChange)
			},
			OnOfferedDeadlineMissed: func(w dds.AnyDataWriter, s listener.OfferedDeadlineMissedStatus) {
				a.status("on_offered_deadline_missed", w.TopicDescription(), ": (total = %d, change = %d)", s.TotalCount, s.TotalCountChange)
			},
			OnOfferedIncompatibleQos: func(w dds.AnyDataWriter, s listener.OfferedIncompatibleQosStatus) {
				a.status("on_offered_incompatible_qos", w.TopicDescription(), ": %d (%s)", s.LastPolicyID, policyName(s.LastPolicyID))
			},
			OnLivelinessLost: func(w dds.AnyDataWriter, s listener.LivelinessLostStatus) {
				a.status("on_liveliness_lost", w.TopicDescription(), ": (total = %d, change = %d)", s.TotalCount, s.TotalCountChange)
			},
		},
		SubscriberListener: dds.SubscriberListener{
			OnSubscriptionMatched: func(r dds.AnyDataReader, s listener.SubscriptionMatchedStatus) {
				a.status("on_subscription_matched", r.TopicDescription(), ": matched writers %d (change = %d)", s.CurrentCount, s.CurrentCountChange)
			},
			OnRequestedDeadlineMissed: func(r dds.AnyDataReader, s listener.RequestedDeadlineMissedStatus) {
				a.status("on_requested_deadline_missed", r.TopicDescription(), ": (total = %d, change = %d)", s.TotalCount, s.TotalCountChange)
			},
			OnRequestedIncompatibleQos: func(r dds.AnyDataReader, s listener.RequestedIncompatibleQosStatus) {
				a.status("on_requested_incompatible_qos", r.TopicDescription(), ": %d (%s)", s.LastPolicyID, policyName(s.LastPolicyID))
			},
			OnLivelinessChanged: func(r dds.AnyDataReader, s listener.LivelinessChangedStatus) {
				a.status("on_liveliness_changed", r.TopicDescription(), ": (alive = %d, not_alive = %d)", s.AliveCount, s.NotAliveCount)
			},
		},
		OnInconsistentTopic: func(t dds.TopicDescription, _ listener.InconsistentTopicStatus) {
			a.status("on_inconsistent_topic", t, "")
		},
	}
}

// status prints a status line: "callback() topic: 'T'  type: 'Y' " and what follows.
func (a *app) status(callback string, t dds.TopicDescription, format string, args ...any) {
	line := fmt.Sprintf("%s() topic: '%s'  type: '%s'", callback, t.Name(), t.TypeName())
	if format != "" {
		line += " " + fmt.Sprintf(format, args...)
	}
	a.printf("%s\n", line)
}

// policyName is the spec's *_QOS_POLICY_NAME of id in upper case, as the suite's
// programs print it.
func policyName(id qos.PolicyID) string {
	b := []byte(id.String())
	out := make([]byte, 0, len(b)+4)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' && i > 0 && b[i-1] >= 'a' && b[i-1] <= 'z' {
			out = append(out, '_')
		}
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		out = append(out, c)
	}
	return string(out)
}

// isStop reports whether err is the end of the run rather than a failure.
func isStop(ctx context.Context, err error) bool {
	return ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, ctx.Err()))
}
