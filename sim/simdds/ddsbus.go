package simdds

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/ros/builtin_interfaces"
	"github.com/ddsgo/ddsgo/ros/geometry_msgs"
	"github.com/ddsgo/ddsgo/ros/rosgraph_msgs"
	"github.com/ddsgo/ddsgo/ros/std_msgs"
	"github.com/ddsgo/ddsgo/ros/tf2_msgs"
	"github.com/ddsgo/ddsgo/sim"
	"github.com/ddsgo/ddsgo/waitset"
)

// Bus is a Bus over DDS with ROS 2's conventions, so that systems such as
// TriggeredPublisher talk to ROS 2 nodes and any other DDS application: the topic
// "/a/b" is the DDS topic "rt/a/b" (ROS 2's naming), and a message type is a Go topic
// type registered with AddBusType, named as ROS 2 names it ("std_msgs/msg/Bool") or by
// its DDS type name ("std_msgs::msg::dds_::Bool_"); messages arrive named the ROS 2 way.
// A Gazebo message type is the ROS 2 type ros_gz_bridge bridges it to ("gz.msgs.Boolean"
// is std_msgs/msg/Bool; the table is gzAliases, docs/sim.md; AddAlias adds others), with
// the Gazebo type's field names where the two differ (gz.msgs.Clock's "sim" is Clock's
// "clock", gz.msgs.Time's "nsec" is "nanosec"); its messages arrive under the Gazebo name
// they were asked for. A Gazebo field without a ROS 2 counterpart (the header of
// gz.msgs.Boolean, the name of gz.msgs.Pose) is refused, as any field the type lacks.
// Writers and readers are RELIABLE, KEEP_LAST 10 (ROS 2's default profile), made on
// first use of a topic.
//
// A Msg is converted to and from the Go type field by field: "child_frame_id" is the
// field ChildFrameID, numbers are checked against the field's range, a field the type
// does not have is an error, and a missing one is zero.
//
// Services registered with AddBusService are called as a ROS 2 client calls them
// (dds.Requester with dds.ROSNames), by TriggeredPublisher's <service> outputs.
type Bus struct {
	p *dds.DomainParticipant

	mu       sync.Mutex
	types    map[string]*busType   // by ROS 2 and DDS type name
	aliases  map[string]alias      // by other name: gzAliases, AddAlias
	services map[[2]string]*busSrv // by the ROS 2 names of the request and reply types
	pubs     map[[2]string]busPub  // by topic and ROS 2 type name
	callers  map[[2]string]busCall // by service and ROS 2 request type name
	subs     map[*busSub]struct{}  // live subscriptions
	closed   bool
}

// busType is what the bus does with a registered Go type T.
type busType struct {
	name   string       // ROS 2's form
	goType reflect.Type // T
	// newPub creates a writer of T on the DDS topic.
	newPub func(p *dds.DomainParticipant, topic string) (busPub, error)
	// newSub creates a reader of T on the DDS topic and delivers its samples to fn.
	newSub func(p *dds.DomainParticipant, topic string, fn func(sim.Msg)) (*busSub, error)
	// canonical converts m to T and back: every field present, each of its Go kind. Its
	// error is a badMsg.
	canonical func(m sim.Msg) (sim.Msg, error)
}

type busPub struct {
	write       func(sim.Msg) error
	matched     func() (int32, error)           // the readers the writer matches
	waitMatched func(ctx context.Context) error // waits until the writer matches a reader
	acked       func(ctx context.Context) error // waits for the readers' acknowledgments
	close       func() error
}

type busSub struct {
	cancel context.CancelFunc
	close  func() error
}

type busSrv struct {
	newCall func(p *dds.DomainParticipant, service string) (busCall, error)
}

type busCall struct {
	call  func(ctx context.Context, req sim.Msg) (sim.Msg, error)
	close func() error
}

// busQos is ROS 2's default QoS profile.
var busQos = []dds.Option{dds.Reliable(), dds.KeepLast(10)}

// NewBus returns a bus on p with no types registered. Close it before p.
func NewBus(p *dds.DomainParticipant) *Bus {
	aliases := make(map[string]alias, len(gzAliases))
	for name, a := range gzAliases {
		a.inv = a.fields.inverse()
		aliases[name] = a
	}
	return &Bus{
		p: p, types: map[string]*busType{}, aliases: aliases, services: map[[2]string]*busSrv{},
		pubs: map[[2]string]busPub{}, callers: map[[2]string]busCall{}, subs: map[*busSub]struct{}{},
	}
}

// typeNames returns the DDS type name of T (its DDSTypeName method) and ROS 2's form of
// it: pkg::msg::dds_::Name_ is pkg/msg/Name (other names stay as they are).
func typeNames[T any]() (ddsName, rosName string, err error) {
	var v T
	n, ok := any(&v).(interface{ DDSTypeName() string })
	if !ok {
		return "", "", fmt.Errorf("sim: bus type %T has no DDSTypeName method: %w", v, dds.ErrBadParameter)
	}
	ddsName = n.DDSTypeName()
	parts := strings.Split(ddsName, "::")
	if len(parts) == 4 && parts[2] == "dds_" && strings.HasSuffix(parts[3], "_") {
		return ddsName, parts[0] + "/" + parts[1] + "/" + strings.TrimSuffix(parts[3], "_"), nil
	}
	return ddsName, ddsName, nil
}

// AddBusType registers the Go topic type T with b, under its ROS 2 and DDS type names.
func AddBusType[T any](b *Bus) error {
	ddsName, rosName, err := typeNames[T]()
	if err != nil {
		return err
	}
	t := &busType{name: rosName, goType: reflect.TypeFor[T]()}
	t.newPub = func(p *dds.DomainParticipant, topic string) (busPub, error) {
		pt, err := newPubTopic[T](p, topic, busQos...)
		if err != nil {
			return busPub{}, err
		}
		matched := func() (int32, error) {
			s, err := pt.w.PublicationMatchedStatus()
			return s.CurrentCount, err
		}
		waitMatched := func(ctx context.Context) error { return waitMatch(ctx, pt.w.StatusCondition(), matched) }
		return busPub{close: pt.Close, matched: matched, waitMatched: waitMatched, acked: pt.w.WaitForAcknowledgments, write: func(m sim.Msg) error {
			var v T
			if err := fromMsg(reflect.ValueOf(&v).Elem(), m, ""); err != nil {
				return fmt.Errorf("sim: %s: %w", rosName, badMsg{err})
			}
			return pt.w.Write(context.Background(), &v) // KEEP_LAST never blocks
		}}, nil
	}
	t.newSub = func(p *dds.DomainParticipant, topic string, fn func(sim.Msg)) (*busSub, error) {
		st, err := newSubTopic[T](p, topic, busQos...)
		if err != nil {
			return nil, err
		}
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			for v, info := range st.r.Samples(ctx) {
				if info.ValidData && ctx.Err() == nil {
					fn(toMsg(reflect.ValueOf(&v).Elem()).(sim.Msg))
				}
			}
		}()
		return &busSub{cancel: cancel, close: st.Close}, nil
	}
	t.canonical = func(m sim.Msg) (sim.Msg, error) {
		var v T
		if err := fromMsg(reflect.ValueOf(&v).Elem(), m, ""); err != nil {
			return nil, badMsg{err}
		}
		return toMsg(reflect.ValueOf(&v).Elem()).(sim.Msg), nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.types[ddsName], b.types[rosName] = t, t
	return nil
}

// AddBusService registers the request and reply types of a service with b (and each
// as a message type), so that it can be called with them.
func AddBusService[Req, Rep any](b *Bus) error {
	if err := errors.Join(AddBusType[Req](b), AddBusType[Rep](b)); err != nil {
		return err
	}
	_, req, _ := typeNames[Req]()
	_, rep, _ := typeNames[Rep]()
	s := &busSrv{newCall: func(p *dds.DomainParticipant, service string) (busCall, error) {
		q, err := dds.NewRequester[Req, Rep](p, service, dds.ROSNames())
		if err != nil {
			return busCall{}, err
		}
		return busCall{close: q.Close, call: func(ctx context.Context, m sim.Msg) (sim.Msg, error) {
			var r Req
			if err := fromMsg(reflect.ValueOf(&r).Elem(), m, ""); err != nil {
				return nil, fmt.Errorf("sim: %s: %w", req, badMsg{err})
			}
			if err := q.WaitForService(ctx); err != nil {
				return nil, fmt.Errorf("sim: no server of %s: %w", service, err)
			}
			rep, err := q.Call(ctx, &r)
			if err != nil {
				return nil, err
			}
			return toMsg(reflect.ValueOf(&rep).Elem()).(sim.Msg), nil
		}}, nil
	}}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.services[[2]string{req, rep}] = s
	return nil
}

// busTopic is the DDS topic of a bus topic, with ROS 2's naming.
func busTopic(topic string) string { return "rt/" + strings.TrimPrefix(topic, "/") }

// Publish writes m, converted to its Go type, on topic.
func (b *Bus) Publish(topic string, m sim.Message) error {
	pub, v, err := b.advertise(topic, m.Type)
	if err != nil {
		return err
	}
	data, err := v.toBus(m.Data)
	if err != nil {
		return err
	}
	return pub.write(data)
}

// Advertise makes the writer of typ on topic if it does not exist yet, as Publish
// would. It is sim.TypedBus's.
func (b *Bus) Advertise(topic, typ string) error {
	_, _, err := b.advertise(topic, typ)
	return err
}

// advertise returns the writer of typ on topic, made on first use: TriggeredPublisher
// makes its writers when it is configured, so that readers match them before the first
// output, as Gazebo advertises its publishers.
func (b *Bus) advertise(topic, typ string) (busPub, busView, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return busPub{}, busView{}, dds.ErrAlreadyDeleted
	}
	v, err := b.lookup(typ)
	if err != nil {
		return busPub{}, busView{}, err
	}
	key := [2]string{topic, v.busType.name} // one writer for every name of the type
	pub, ok := b.pubs[key]
	if !ok {
		if pub, err = v.newPub(b.p, busTopic(topic)); err != nil {
			return busPub{}, busView{}, err
		}
		b.pubs[key] = pub
	}
	return pub, v, nil
}

// Subscribe calls fn for every message of type typ on topic until cancel is called, on
// a goroutine of the subscription, one message at a time. The messages are named typ
// if it is an alias (a Gazebo name), else the ROS 2 way.
func (b *Bus) Subscribe(topic, typ string, fn func(sim.Message)) (func(), error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, dds.ErrAlreadyDeleted
	}
	v, err := b.lookup(typ)
	if err != nil {
		return nil, err
	}
	s, err := v.newSub(b.p, busTopic(topic), func(m sim.Msg) { fn(sim.Message{Type: v.name, Data: v.fromBus(m)}) })
	if err != nil {
		return nil, err
	}
	b.subs[s] = struct{}{}
	return func() {
		b.mu.Lock()
		_, live := b.subs[s]
		delete(b.subs, s)
		b.mu.Unlock()
		if live {
			s.cancel()
			_ = s.close()
		}
	}, nil
}

// Check returns the name messages of typ arrive with (ROS 2's form, or typ if it is an
// alias) and m in its canonical form: every field of the type, a missing one zero, under
// typ's field names. It is sim.TypedBus's.
func (b *Bus) Check(typ string, m sim.Msg) (string, sim.Msg, error) {
	b.mu.Lock()
	v, err := b.lookup(typ)
	b.mu.Unlock()
	if err != nil {
		return "", nil, err
	}
	if m, err = v.toBus(m); err != nil {
		return "", nil, err
	}
	c, err := v.canonical(m)
	if err != nil {
		return "", nil, fmt.Errorf("sim: %s: %w", v.label, err)
	}
	return v.name, v.fromBus(c), nil
}

// Call calls service with req, a message of a request type registered with
// AddBusService, as a ROS 2 client does, and returns the reply, of type repType. It
// waits for a server of the service within ctx.
func (b *Bus) Call(ctx context.Context, service string, req sim.Message, repType string) (sim.Message, error) {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return sim.Message{}, dds.ErrAlreadyDeleted
	}
	rq, errq := b.lookup(req.Type)
	rp, errp := b.lookup(repType)
	if err := errors.Join(errq, errp); err != nil {
		b.mu.Unlock()
		return sim.Message{}, err
	}
	key := [2]string{service, rq.busType.name}
	c, ok := b.callers[key]
	if !ok {
		s, known := b.services[[2]string{rq.busType.name, rp.busType.name}]
		if !known {
			b.mu.Unlock()
			return sim.Message{}, fmt.Errorf("sim: bus: no service types %s, %s (AddBusService): %w", rq.label, rp.label, dds.ErrBadParameter)
		}
		var err error
		if c, err = s.newCall(b.p, service); err != nil {
			b.mu.Unlock()
			return sim.Message{}, err
		}
		b.callers[key] = c
	}
	b.mu.Unlock()
	data, err := rq.toBus(req.Data)
	if err != nil {
		return sim.Message{}, err
	}
	rep, err := c.call(ctx, data)
	if err != nil {
		return sim.Message{Type: rp.name}, err
	}
	return sim.Message{Type: rp.name, Data: rp.fromBus(rep)}, nil
}

// WaitMatched creates the writer of typ on topic, if the bus has none yet, and waits
// until it matches at least one reader or ctx ends: a message published before a reader
// matched is not kept for it (VOLATILE).
func (b *Bus) WaitMatched(ctx context.Context, topic, typ string) error {
	pub, _, err := b.advertise(topic, typ)
	if err != nil {
		return err
	}
	err = pub.waitMatched(ctx)
	if err != nil && ctx.Err() != nil {
		return fmt.Errorf("sim: no reader of %s on %s: %w", typ, topic, ctx.Err())
	}
	return err
}

// waitMatch waits on the writer's StatusCondition, watching PUBLICATION_MATCHED, until
// matched (which reads the status, clearing its change) counts a reader.
func waitMatch(ctx context.Context, c *dds.StatusCondition, matched func() (int32, error)) error {
	if err := c.SetEnabledStatuses(listener.StatusMask(listener.PublicationMatched)); err != nil {
		return err
	}
	ws := waitset.New()
	if err := ws.AttachCondition(c); err != nil {
		return err
	}
	defer func() { _ = ws.DetachCondition(c) }()
	for {
		if n, err := matched(); err != nil || n > 0 {
			return err
		}
		if _, err := ws.Wait(ctx); err != nil {
			return err
		}
	}
}

// WaitForAcknowledgments waits until every reader that matches the writer of typ on
// topic has acknowledged what the bus published there, or ctx ends: a program that
// publishes and exits calls it before Close, or its last messages may go with the
// writer. A topic the bus has not published on is an error (ErrPreconditionNotMet).
func (b *Bus) WaitForAcknowledgments(ctx context.Context, topic, typ string) error {
	b.mu.Lock()
	v, err := b.lookup(typ)
	var pub busPub
	ok := false
	if err == nil {
		pub, ok = b.pubs[[2]string{topic, v.busType.name}]
	}
	closed := b.closed
	b.mu.Unlock()
	if closed {
		return dds.ErrAlreadyDeleted
	}
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("sim: bus: nothing published on %s as %s: %w", topic, typ, dds.ErrPreconditionNotMet)
	}
	return pub.acked(ctx)
}

// AddROSTypes registers with b the ROS 2 message types of ros/ that worlds and their
// plugins use: std_msgs' Bool, Empty, Int32, Float64, String and Header, geometry_msgs'
// Twist, Pose, PoseStamped, Point, Vector3, Quaternion, Accel, Transform and
// TransformStamped, builtin_interfaces' Time and Duration, rosgraph_msgs' Clock and
// tf2_msgs' TFMessage.
func AddROSTypes(b *Bus) error {
	return errors.Join(
		AddBusType[std_msgs.Bool](b), AddBusType[std_msgs.Empty](b),
		AddBusType[std_msgs.Int32](b), AddBusType[std_msgs.Float64](b),
		AddBusType[std_msgs.String](b), AddBusType[std_msgs.Header](b),
		AddBusType[geometry_msgs.Twist](b), AddBusType[geometry_msgs.Pose](b),
		AddBusType[geometry_msgs.PoseStamped](b), AddBusType[geometry_msgs.Point](b),
		AddBusType[geometry_msgs.Vector3](b), AddBusType[geometry_msgs.Quaternion](b),
		AddBusType[geometry_msgs.Accel](b), AddBusType[geometry_msgs.Transform](b),
		AddBusType[geometry_msgs.TransformStamped](b), AddBusType[builtin_interfaces.Time](b),
		AddBusType[builtin_interfaces.Duration](b), AddBusType[rosgraph_msgs.Clock](b),
		AddBusType[tf2_msgs.TFMessage](b),
	)
}

// Close deletes the bus's writers, readers and requesters; their topics go with them.
// It is idempotent.
func (b *Bus) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil
	}
	b.closed = true
	var errs []error
	for s := range b.subs {
		s.cancel()
		errs = append(errs, s.close())
	}
	for _, p := range b.pubs {
		errs = append(errs, p.close())
	}
	for _, c := range b.callers {
		errs = append(errs, c.close())
	}
	return errors.Join(errs...)
}
