package dds

import (
	"fmt"
	"time"

	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/internal/transport"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/ddsgo/ddsgo/rtps"
)

// Option is an optional argument of the functions that create entities: NewParticipant,
// NewPublisher, NewSubscriber, NewTopic, NewWriter, NewReader, NewRequester and
// NewReplier. An option that does not
// apply to the entity being created (Partition for a writer, say) makes the creation fail
// with an error matching ErrBadParameter that names the option.
//
// QoS options given to NewTopic are the defaults of the topic's writers and readers:
// NewWriter and NewReader apply them before their own options.
type Option func(*settings)

// settings collects what the options of one creation say. The QoS pointers are those of
// the entity being created; the others are nil.
type settings struct {
	what string // the entity being created, for errors

	participant *qos.DomainParticipantQos
	publisher   *qos.PublisherQos
	subscriber  *qos.SubscriberQos
	topic       *qos.TopicQos
	writer      *qos.DataWriterQos
	reader      *qos.DataReaderQos

	listener Listener
	mask     listener.StatusMask

	// Participant only.
	rtps   rtps.Config
	net    transport.Net
	clock  clock
	engine engineFactory
	// wire: no same-process delivery (withWire).
	wire bool
	// persistDir is PersistenceDir's directory (durability.go).
	persistDir string
	// helper runs the listeners on the receive goroutines (ListenersOnReceive): the
	// participant's dispatcher.
	helper    transport.Helper
	onReceive bool

	// Topic only: the type name, the dynamic type (WithType), and the options the
	// topic's endpoints inherit.
	typeName string
	dyn      *DynamicType
	inherit  []Option

	// Writer and reader only: an explicit publisher or subscriber.
	pub *Publisher
	sub *Subscriber

	// Requester and replier only: ROS 2's service topic names.
	ros bool

	err error
}

// apply runs opts on s and returns the first error an option reported.
func (s *settings) apply(opts []Option) error {
	for _, o := range opts {
		if o != nil {
			o(s)
		}
	}
	return s.err
}

// fail records that option name does not apply to the entity being created.
func (s *settings) fail(name string) {
	if s.err == nil {
		s.err = errorf(ErrBadParameter, "option %s does not apply to a %s", name, s.what)
	}
}

// onlyFor returns option name, which applies to the entities for which applies holds:
// it runs set on their settings and fails on the others'.
func onlyFor(name string, applies func(*settings) bool, set func(*settings)) Option {
	return func(s *settings) {
		if !applies(s) {
			s.fail(name)
			return
		}
		set(s)
	}
}

// The kinds of entity an option may apply to.
func isParticipant(s *settings) bool { return s.participant != nil }
func isTopic(s *settings) bool       { return s.topic != nil }
func isWriter(s *settings) bool      { return s.writer != nil }
func isReader(s *settings) bool      { return s.reader != nil }

// WithQos sets the whole QoS of the entity being created: a qos.DataWriterQos for
// NewWriter, a qos.DataReaderQos for NewReader, and so on. Options after it change it
// further. A QoS of another entity kind is ErrBadParameter.
//
// A whole writer or reader QoS replaces everything before it, the QoS the topic was made
// with included, as create_datawriter and create_datareader with an explicit QoS do (the
// topic's QoS applies only to DATAWRITER_QOS_USE_TOPIC_QOS, or after
// copy_from_topic_qos). To keep the topic's policies, start from them:
// WithQos(q.FromTopic(topic.Qos())); or use the QoS options (Reliable, KeepLast, ...),
// which change the topic's policies rather than replace them.
func WithQos[Q qos.DomainParticipantQos | qos.PublisherQos | qos.SubscriberQos | qos.TopicQos | qos.DataWriterQos | qos.DataReaderQos](q Q) Option {
	return func(s *settings) {
		ok := false
		switch v := any(q).(type) {
		case qos.DomainParticipantQos:
			ok = set(s.participant, v.Clone())
		case qos.PublisherQos:
			ok = set(s.publisher, v.Clone())
		case qos.SubscriberQos:
			ok = set(s.subscriber, v.Clone())
		case qos.TopicQos:
			if ok = set(s.topic, v.Clone()); ok {
				// The endpoints of the topic start from its QoS
				// (copy_from_topic_qos).
				tq := v.Clone()
				s.inherit = append(s.inherit, func(s *settings) {
					if s.writer != nil {
						*s.writer = s.writer.FromTopic(tq)
					}
					if s.reader != nil {
						*s.reader = s.reader.FromTopic(tq)
					}
				})
			}
		case qos.DataWriterQos:
			ok = set(s.writer, v.Clone())
		case qos.DataReaderQos:
			ok = set(s.reader, v.Clone())
		}
		if !ok {
			s.fail(fmt.Sprintf("WithQos(%T)", q))
		}
	}
}

// set stores v in *dst when dst is not nil.
func set[Q any](dst *Q, v Q) bool {
	if dst == nil {
		return false
	}
	*dst = v
	return true
}

// WithListener sets the listener of the entity being created and the statuses it
// handles: a ReaderListener[T] for NewReader, a WriterListener[T] for NewWriter, a
// TopicListener[T], SubscriberListener, PublisherListener or ParticipantListener for the
// others. For each status, the listener of the lowest entity that handles it is called.
//
// A listener handles the statuses it has a function for: without a mask, all of them
// (as Fast DDS's default mask, all, gives); with a mask, those of them in the mask, so
// that a function the mask leaves out is not called (a mask selects among a listener's
// functions, as among a Fast DDS or Cyclone DDS listener's operations), and a status in
// the mask whose function is nil goes on to the listener of the containing entity, as if
// the bit were not set. listener.MaskNone mutes the listener. More than one mask is
// ErrBadParameter.
func WithListener(l Listener, mask ...listener.StatusMask) Option {
	m, err := effectiveMask(l, mask)
	return func(s *settings) {
		if err != nil {
			if s.err == nil {
				s.err = err
			}
			return
		}
		s.listener, s.mask = l, m
	}
}

// WithRTPS configures the RTPS engine of the participant being created: network
// interfaces, multicast, unicast peers, ports, limits, logger (package rtps documents
// each setting).
func WithRTPS(cfg rtps.Config) Option {
	return onlyFor("WithRTPS", isParticipant, func(s *settings) { s.rtps = cfg })
}

// ListenersOnReceive makes the participant call its entities' listeners on the goroutine
// that received the data, as Cyclone DDS calls them on its receive thread, whenever no
// listener is running already; otherwise, and for statuses that no user datagram
// changes (deadlines, liveliness lapses, discovery's matches), on the dispatcher
// goroutine. Listeners still run one
// at a time, in order, with no lock held. A sample then reaches an OnDataAvailable
// listener, and its answer is sent, without a hand-off between goroutines, which on a
// machine with idle processors costs more than the rest of a round trip
// (docs/benchmarks.md). The price, as with Cyclone DDS: the socket is not read while a
// listener runs, acknowledgments included, so a listener must not block — a write that
// waits for room in a KEEP_ALL history, WaitForAcknowledgments or a blocking read in
// it waits until its timeout.
func ListenersOnReceive() Option {
	return onlyFor("ListenersOnReceive", isParticipant, func(s *settings) { s.onReceive = true })
}

// withNet makes the participant open its sockets on n (tests: memnet).
func withNet(n transport.Net) Option {
	return func(s *settings) { s.net = n }
}

// withWire makes the participant's endpoints talk to those of the process by the
// wire, as to remote ones, instead of handing them samples directly (tests).
func withWire() Option {
	return func(s *settings) { s.wire = true }
}

// withClock makes the participant keep time with c (tests: a virtual clock).
func withClock(c clock) Option {
	return func(s *settings) { s.clock = c }
}

// withEngine makes the participant use another engine (tests).
func withEngine(f engineFactory) Option {
	return func(s *settings) { s.engine = f }
}

// TypeName sets the name a topic's type is announced with, as in "interop::Sample". By
// default it is what T's DDSTypeName method returns, or else "pkg::Type" from T's Go
// package and type names.
func TypeName(name string) Option {
	return onlyFor("TypeName", isTopic, func(s *settings) { s.typeName = name })
}

// WithPublisher makes NewWriter create the writer in pub instead of the participant's
// default publisher.
func WithPublisher(pub *Publisher) Option {
	return onlyFor("WithPublisher", isWriter, func(s *settings) { s.pub = pub })
}

// WithSubscriber makes NewReader create the reader in sub instead of the participant's
// default subscriber.
func WithSubscriber(sub *Subscriber) Option {
	return onlyFor("WithSubscriber", isReader, func(s *settings) { s.sub = sub })
}

// endpointPolicies points at the policies a topic, a writer and a reader share, in the
// QoS of the entity being created; a policy the entity does not have is nil.
type endpointPolicies struct {
	reliability *qos.Reliability
	history     *qos.History
	durability  *qos.Durability
	deadline    *qos.Deadline
	lifespan    *qos.Lifespan
	ownership   *qos.Ownership
	liveliness  *qos.Liveliness
}

// endpointOption returns an option that edits the shared endpoint policies of a topic,
// writer or reader with fn; fn reports false when its policy is missing (nil). On a
// topic, the option is also kept for the topic's endpoints.
func endpointOption(name string, fn func(p endpointPolicies) bool) Option {
	var o Option
	o = func(s *settings) {
		var ps []endpointPolicies
		if t := s.topic; t != nil {
			ps = append(ps, endpointPolicies{&t.Reliability, &t.History, &t.Durability, &t.Deadline, &t.Lifespan, &t.Ownership, &t.Liveliness})
			s.inherit = append(s.inherit, o)
		}
		if w := s.writer; w != nil {
			ps = append(ps, endpointPolicies{&w.Reliability, &w.History, &w.Durability, &w.Deadline, &w.Lifespan, &w.Ownership, &w.Liveliness})
		}
		if r := s.reader; r != nil {
			ps = append(ps, endpointPolicies{&r.Reliability, &r.History, &r.Durability, &r.Deadline, nil, &r.Ownership, &r.Liveliness})
		}
		applied := false
		for _, p := range ps {
			applied = fn(p) || applied
		}
		if !applied && s.topic == nil {
			s.fail(name)
		}
	}
	return o
}

// Reliable makes the topic, writer or reader RELIABLE: lost samples are repaired.
func Reliable() Option {
	return endpointOption("Reliable", func(p endpointPolicies) bool {
		p.reliability.Kind = qos.Reliable
		return true
	})
}

// BestEffort makes the topic, writer or reader BEST_EFFORT: lost samples stay lost.
func BestEffort() Option {
	return endpointOption("BestEffort", func(p endpointPolicies) bool {
		p.reliability.Kind = qos.BestEffort
		return true
	})
}

// KeepLast keeps the last depth samples of each instance (HISTORY KEEP_LAST).
func KeepLast(depth int) Option {
	return endpointOption("KeepLast", func(p endpointPolicies) bool {
		*p.history = qos.History{Kind: qos.KeepLast, Depth: int32(depth)}
		return true
	})
}

// KeepAll keeps every sample until it is taken or acknowledged, within the resource
// limits (HISTORY KEEP_ALL).
func KeepAll() Option {
	return endpointOption("KeepAll", func(p endpointPolicies) bool {
		*p.history = qos.History{Kind: qos.KeepAll, Depth: 1}
		return true
	})
}

// TransientLocal makes a writer keep its history for readers that join later, and a
// reader ask for it (DURABILITY TRANSIENT_LOCAL).
func TransientLocal() Option {
	return endpointOption("TransientLocal", func(p endpointPolicies) bool {
		p.durability.Kind = qos.TransientLocal
		return true
	})
}

// Deadline sets the DEADLINE period: the longest time between two samples of an
// instance.
func Deadline(period time.Duration) Option {
	return endpointOption("Deadline", func(p endpointPolicies) bool {
		p.deadline.Period = period
		return true
	})
}

// Liveliness sets the LIVELINESS kind and lease_duration of the topic, writer or reader:
// how a writer shows that it is alive, and within what time (see
// DataWriter.AssertLiveliness and the LIVELINESS_LOST and LIVELINESS_CHANGED statuses).
func Liveliness(kind qos.LivelinessKind, lease time.Duration) Option {
	return endpointOption("Liveliness", func(p endpointPolicies) bool {
		*p.liveliness = qos.Liveliness{Kind: kind, LeaseDuration: lease}
		return true
	})
}

// Lifespan sets how long a written sample stays valid (LIFESPAN); it applies to topics
// and writers.
func Lifespan(d time.Duration) Option {
	return endpointOption("Lifespan", func(p endpointPolicies) bool {
		if p.lifespan == nil {
			return false
		}
		p.lifespan.Duration = d
		return true
	})
}

// ExclusiveOwnership makes the topic, writer or reader's OWNERSHIP EXCLUSIVE: a reader
// then takes each instance's samples from one writer only, the one with the greatest
// OWNERSHIP_STRENGTH (set it in a writer's qos.DataWriterQos with WithQos), until that
// writer unregisters the instance, goes away or misses the reader's DEADLINE.
func ExclusiveOwnership() Option {
	return endpointOption("ExclusiveOwnership", func(p endpointPolicies) bool {
		p.ownership.Kind = qos.Exclusive
		return true
	})
}

// Partition puts a publisher or subscriber in the named partitions (PARTITION); a name
// may be a pattern ("sensors/*").
func Partition(names ...string) Option {
	return func(s *settings) {
		switch {
		case s.publisher != nil:
			s.publisher.Partition.Name = append([]string(nil), names...)
		case s.subscriber != nil:
			s.subscriber.Partition.Name = append([]string(nil), names...)
		default:
			s.fail("Partition")
		}
	}
}

// endpointSettings applies the options of a writer or reader of t being created: once
// to find its group (WithPublisher, WithSubscriber; group returns it, the default one
// without them, with its default QoS), then, from that default QoS, the options t was
// created with and opts. bind points the settings at the QoS. It returns the settings,
// the validated QoS and the listener, checked to be an L.
func endpointSettings[Q qosValue[Q], L Listener, T any](t *Topic[T], what string, bind func(*settings, *Q),
	group func(*settings) (*entity, Q, error), opts []Option,
) (settings, Q, Listener, error) {
	var q Q
	if t == nil {
		return settings{}, q, nil, errorf(ErrBadParameter, "nil topic")
	}
	if err := t.alive(); err != nil {
		return settings{}, q, nil, err
	}
	if t.codec == nil && what != "reader" {
		return settings{}, q, nil, errorf(ErrBadParameter, "the built-in topic %s is written by discovery only", t.name)
	}
	s := settings{what: what}
	bind(&s, &q)
	if err := s.apply(opts); err != nil { // first pass: find the group
		return s, q, nil, err
	}
	g, q, err := group(&s)
	if err != nil {
		return s, q, nil, err
	}
	if g.p != t.p {
		return s, q, nil, errorf(ErrBadParameter, "topic %s and the %s's group belong to different participants", t.name, what)
	}
	s = settings{what: what}
	bind(&s, &q)
	_ = s.apply(t.inherit)
	if err := s.apply(opts); err != nil {
		return s, q, nil, err
	}
	if err := q.Validate(); err != nil {
		return s, q, nil, qosErr(err)
	}
	l, err := listenerFor[L](s.listener, what)
	return s, q, l, err
}

// createEndpoint adds the writer or reader o of topic t to the participant's entities
// under its group g, with QoS q, and enables it when g autoenables.
func createEndpoint[Q any, T any](t *Topic[T], o entityObject, g *entity, kind entityKind, l Listener, mask listener.StatusMask, q Q) error {
	p := t.p
	p.opMu.Lock()
	defer p.opMu.Unlock()
	if err := g.alive(); err != nil {
		return err
	}
	e := o.core()
	return p.create(o, g, func() {
		e.init(p, g, kind, o, l, mask)
		ecm.CreateComponent(p.m, e.ent, q)
		ecm.CreateComponent(p.m, e.ent, nameComp{Topic: t.name, Type: t.typeName})
		ecm.CreateComponent(p.m, e.ent, topicRefComp{t.ent})
		ecm.CreateComponent(p.m, e.ent, matchesComp{})
	})
}

// userData sets the USER_DATA of a writer or reader (the value of rmw_cyclonedds's
// client and service ids).
func userData(v []byte) Option {
	return func(s *settings) {
		if s.writer != nil {
			s.writer.UserData.Value = v
		}
		if s.reader != nil {
			s.reader.UserData.Value = v
		}
	}
}
