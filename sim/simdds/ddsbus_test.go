package simdds

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/ros/geometry_msgs"
	"github.com/ddsgo/ddsgo/sim"
)

// The message types of the tests of TriggeredPublisher on DDS: ROS 2 types, as rosidl
// would generate them, standing in for the gz.msgs types of Gazebo's tests.
type (
	boolMsg    struct{ Data bool }
	int32Msg   struct{ Data int32 }
	float32Msg struct{ Data float32 }
	emptyMsg   struct{ StructureNeedsAtLeastOneMember uint8 }
	int32sMsg  struct{ Data []int32 }
	vector2Msg struct{ X, Y float64 }
	keyValue   struct {
		Key   string
		Value []string
	}
	labelsMsg   struct{ Data []keyValue }
	echoRequest struct{ Data string }
	echoReply   struct{ Data string }
)

func (boolMsg) DDSTypeName() string     { return "std_msgs::msg::dds_::Bool_" }
func (int32Msg) DDSTypeName() string    { return "std_msgs::msg::dds_::Int32_" }
func (float32Msg) DDSTypeName() string  { return "std_msgs::msg::dds_::Float32_" }
func (emptyMsg) DDSTypeName() string    { return "std_msgs::msg::dds_::Empty_" }
func (int32sMsg) DDSTypeName() string   { return "test_msgs::msg::dds_::Int32s_" }
func (vector2Msg) DDSTypeName() string  { return "test_msgs::msg::dds_::Vector2_" }
func (labelsMsg) DDSTypeName() string   { return "test_msgs::msg::dds_::Labels_" }
func (echoRequest) DDSTypeName() string { return "test_msgs::srv::dds_::Echo_Request_" }
func (echoReply) DDSTypeName() string   { return "test_msgs::srv::dds_::Echo_Response_" }

// tpNet is a world participant with a Bus that knows the test types, and a node
// participant that plays the ROS 2 nodes around it.
type tpNet struct {
	t     *testing.T
	world *dds.DomainParticipant
	node  *dds.DomainParticipant
	bus   *Bus
}

func newTPNet(t *testing.T, domain int) *tpNet {
	t.Helper()
	n := &tpNet{t: t, world: loopbackParticipant(t, domain), node: loopbackParticipant(t, domain)}
	n.bus = NewBus(n.world)
	t.Cleanup(func() {
		require.NoError(t, n.bus.Close())
		require.NoError(t, n.bus.Close(), "Close is idempotent")
	})
	require.NoError(t, AddBusType[boolMsg](n.bus))
	require.NoError(t, AddBusType[int32Msg](n.bus))
	require.NoError(t, AddBusType[float32Msg](n.bus))
	require.NoError(t, AddBusType[emptyMsg](n.bus))
	require.NoError(t, AddBusType[int32sMsg](n.bus))
	require.NoError(t, AddBusType[vector2Msg](n.bus))
	require.NoError(t, AddBusType[labelsMsg](n.bus))
	require.NoError(t, AddBusType[geometry_msgs.Pose](n.bus))
	require.NoError(t, AddBusService[echoRequest, echoReply](n.bus))
	require.NoError(t, AddBusService[boolMsg, echoReply](n.bus))
	return n
}

// plugin configures a TriggeredPublisher on the bus from the inside of a <plugin>.
func (n *tpNet) plugin(inner string) *sim.TriggeredPublisher {
	n.t.Helper()
	tp, err := configure(n.t, n.bus, "<plugin>"+inner+"</plugin>")
	require.NoError(n.t, err)
	n.t.Cleanup(tp.Close)
	return tp
}

// input is a writer of T on the ROS 2 topic name, matched with the readers of the
// plugins that subscribe to it (1 unless said).
func input[T any](n *tpNet, name string, readers ...int32) *dds.DataWriter[T] {
	n.t.Helper()
	topic, err := dds.NewTopic[T](n.node, busTopic(name))
	require.NoError(n.t, err)
	w, err := dds.NewWriter(topic, dds.Reliable(), dds.KeepAll())
	require.NoError(n.t, err)
	waitFor(n.t, func() bool {
		s, err := w.PublicationMatchedStatus()
		require.NoError(n.t, err)
		return s.CurrentCount >= max(1, slices.Max(append(readers, 1)))
	}, func() string { return fmt.Sprintf("input %s not matched", name) })
	return w
}

// output is a reader of T on the ROS 2 topic name, matched both ways with the plugin's
// writer of type typ.
func output[T any](n *tpNet, name, typ string) *dds.DataReader[T] {
	n.t.Helper()
	topic, err := dds.NewTopic[T](n.node, busTopic(name))
	require.NoError(n.t, err)
	r, err := dds.NewReader(topic, dds.Reliable(), dds.KeepAll())
	require.NoError(n.t, err)
	pub, _, err := n.bus.advertise(name, typ)
	require.NoError(n.t, err)
	waitFor(n.t, func() bool {
		s, err := r.SubscriptionMatchedStatus()
		require.NoError(n.t, err)
		w, err := pub.matched()
		require.NoError(n.t, err)
		return s.CurrentCount > 0 && w > 0
	}, func() string { return fmt.Sprintf("output %s not matched", name) })
	return r
}

// waitFor waits up to 10 s for cond, failing with msg(), which says where things
// stand when it fails.
func waitFor(t *testing.T, cond func() bool, msg func() string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			require.Fail(t, msg())
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func write[T any](t *testing.T, w *dds.DataWriter[T], vs ...T) {
	t.Helper()
	for i := range vs {
		require.NoError(t, w.Write(context.Background(), &vs[i]))
	}
}

// received waits until r has received want samples, then a little longer to see that
// no more come, and returns them.
func received[T any](t *testing.T, r *dds.DataReader[T], want int) []T {
	t.Helper()
	var got []T
	take := func() {
		data, _, err := r.Take(context.Background(), dds.NoWait())
		if err == nil {
			got = append(got, data...)
		}
	}
	waitFor(t, func() bool { take(); return len(got) >= want }, func() string { return fmt.Sprintf("%d of %d outputs", len(got), want) })
	time.Sleep(50 * time.Millisecond)
	take()
	require.Len(t, got, want, "no more outputs than matches")
	return got
}

// Gazebo's InputMessagesTriggerOutputs and MultipleOutputsForOneInput: every input
// message, matched or not, publishes every output, with its payload.
func TestDDSTriggeredPublisherOutputs(t *testing.T) {
	n := newTPNet(t, 66)
	tp := n.plugin(`<input type="std_msgs/msg/Empty" topic="/in_2"/>
	  <output type="std_msgs/msg/Bool" topic="/out_2_0">data: true</output>
	  <output type="std_msgs::msg::dds_::Bool_" topic="/out_2_1">data: false</output>`)
	out0 := output[boolMsg](n, "/out_2_0", "std_msgs/msg/Bool")
	out1 := output[boolMsg](n, "/out_2_1", "std_msgs/msg/Bool")
	in := input[emptyMsg](n, "/in_2")
	write(t, in, make([]emptyMsg, 10)...)
	require.Equal(t, make([]boolMsg, 10), received(t, out1, 10))
	got := received(t, out0, 10)
	for _, m := range got {
		require.True(t, m.Data)
	}
	ok, failed := tp.Published()
	require.Equal(t, uint64(20), ok)
	require.Zero(t, failed)
}

// Gazebo's ExactMatchBooleanInputs, MatchersWithLogicTypeAttribute and
// MultipleMatchersAreAnded: full matchers, positive and negative, all of them must
// match.
func TestDDSTriggeredPublisherFullMatch(t *testing.T) {
	n := newTPNet(t, 67)
	n.plugin(`<input type="std_msgs/msg/Bool" topic="/in_3"><match>data: true</match></input>
	  <output type="std_msgs/msg/Empty" topic="/out_3"/>`)
	n.plugin(`<input type="std_msgs/msg/Int32" topic="/in_4"><match logic_type="negative">data: 0</match></input>
	  <output type="std_msgs/msg/Empty" topic="/out_4_0"/>`)
	n.plugin(`<input type="std_msgs/msg/Int32" topic="/in_4"><match logic_type="positive">data: 0</match></input>
	  <output type="std_msgs/msg/Empty" topic="/out_4_1"/>`)
	n.plugin(`<input type="std_msgs/msg/Int32" topic="/in_5">
	    <match logic_type="negative">data: -1</match><match logic_type="negative">data: -2</match>
	    <match logic_type="negative">data: -3</match><match logic_type="negative">data: -4</match>
	    <match logic_type="negative">data: -5</match></input>
	  <output type="std_msgs/msg/Empty" topic="/out_5"/>`)
	out3 := output[emptyMsg](n, "/out_3", "std_msgs/msg/Empty")
	out40 := output[emptyMsg](n, "/out_4_0", "std_msgs/msg/Empty")
	out41 := output[emptyMsg](n, "/out_4_1", "std_msgs/msg/Empty")
	out5 := output[emptyMsg](n, "/out_5", "std_msgs/msg/Empty")

	in3 := input[boolMsg](n, "/in_3")
	for i := range 10 {
		write(t, in3, boolMsg{Data: i%2 == 0})
	}
	in4 := input[int32Msg](n, "/in_4", 2)
	for i := range int32(10) {
		write(t, in4, int32Msg{Data: i})
	}
	in5 := input[int32Msg](n, "/in_5")
	for i := int32(-5); i < 5; i++ {
		write(t, in5, int32Msg{Data: i})
	}
	received(t, out3, 5)
	received(t, out40, 9)
	received(t, out41, 1)
	received(t, out5, 5)
}

// Gazebo's FieldMatchers, FieldMatchersWithRepeated,
// FieldMatchersWithRepeatedFullMatch-like and the tolerance tests: field matchers on
// nested fields, set containment in repeated fields, an exact repeated field, numbers
// within tol, and no subfields of repeated fields.
func TestDDSTriggeredPublisherFieldMatch(t *testing.T) {
	n := newTPNet(t, 68)
	n.plugin(`<input type="test_msgs/msg/Vector2" topic="/in_6"><match field="x">1.0</match><match field="y">2.0</match></input>
	  <output type="std_msgs/msg/Empty" topic="/out_6_0"/>`)
	n.plugin(`<input type="test_msgs/msg/Vector2" topic="/in_6"><match field="x">1.0</match><match logic_type="negative" field="y">2.0</match></input>
	  <output type="std_msgs/msg/Empty" topic="/out_6_1"/>`)
	n.plugin(`<input type="test_msgs/msg/Labels" topic="/in_7"><match field="data">{key: "frame_id" value: "frame0"}</match></input>
	  <output type="std_msgs/msg/Empty" topic="/out_7"/>`)
	n.plugin(`<input type="test_msgs/msg/Int32s" topic="/in_9"><match>data: 0, data: 1</match></input>
	  <output type="std_msgs/msg/Empty" topic="/out_9"/>`)
	n.plugin(`<input type="std_msgs/msg/Float32" topic="/in_10"><match tol="0.15">data: 0.5</match></input>
	  <output type="std_msgs/msg/Empty" topic="/out_10"/>`)
	n.plugin(`<input type="geometry_msgs/msg/Pose" topic="/in_11"><match field="position.z" tol="0.15">0.5</match></input>
	  <output type="std_msgs/msg/Empty" topic="/out_11"/>`)
	n.plugin(`<input type="test_msgs/msg/Labels" topic="/in_12"><match field="data.value">"value1"</match></input>
	  <output type="std_msgs/msg/Empty" topic="/out_12"/>`)
	outs := map[string]*dds.DataReader[emptyMsg]{}
	for _, o := range []string{"/out_6_0", "/out_6_1", "/out_7", "/out_9", "/out_10", "/out_11", "/out_12"} {
		outs[o] = output[emptyMsg](n, o, "std_msgs/msg/Empty")
	}

	in6 := input[vector2Msg](n, "/in_6", 2)
	for i := range 10 {
		write(t, in6, vector2Msg{X: 1, Y: float64(i + 2)}) // y == 2 once
	}
	in7 := input[labelsMsg](n, "/in_7")
	for i := range 10 {
		write(t, in7, labelsMsg{Data: []keyValue{
			{Key: "other", Value: []string{"x"}},
			{Key: "frame_id", Value: []string{fmt.Sprintf("frame%d", i)}},
		}})
	}
	in9 := input[int32sMsg](n, "/in_9")
	for i := range 10 {
		var v int32sMsg
		for j := range int32(i + 1) {
			v.Data = append(v.Data, j) // {0}, {0, 1}, {0, 1, 2}...
		}
		write(t, in9, v)
	}
	in10 := input[float32Msg](n, "/in_10")
	in11 := input[geometry_msgs.Pose](n, "/in_11")
	for i := range 10 {
		write(t, in10, float32Msg{Data: float32(i) / 10})
		write(t, in11, geometry_msgs.Pose{Position: geometry_msgs.Point{Z: float64(i) / 10}})
	}
	in12 := input[labelsMsg](n, "/in_12")
	for range 10 {
		write(t, in12, labelsMsg{Data: []keyValue{{Key: "key1", Value: []string{"value1"}}}})
	}
	received(t, outs["/out_6_0"], 1)
	received(t, outs["/out_6_1"], 9)
	received(t, outs["/out_7"], 1)
	received(t, outs["/out_9"], 1)
	received(t, outs["/out_10"], 3) // 0.4, 0.5, 0.6
	received(t, outs["/out_11"], 3)
	received(t, outs["/out_12"], 0) // a subfield of a repeated field matches nothing
}

// echoServer serves NAME until the test ends and counts the requests whose data is
// want.
func echoServer[Req any](t *testing.T, p *dds.DomainParticipant, name string, ok func(*Req) bool) *atomic.Int64 {
	t.Helper()
	var n atomic.Int64
	rp, err := dds.NewReplier[Req, echoReply](p, name, func(_ context.Context, req *Req) (echoReply, error) {
		if ok(req) {
			n.Add(1)
		}
		return echoReply{Data: "done"}, nil
	}, dds.ROSNames())
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, rp.Close()) })
	return &n
}

// Gazebo's InputMessagesTriggerServices, MultipleServiceForOneInput, InvalidServiceName
// and the service type tests: each match calls every service with reqMsg; a service
// nobody serves, or served with other types, is a failed call after its timeout; types
// the bus does not know are a configuration error.
func TestDDSTriggeredPublisherServices(t *testing.T) {
	n := newTPNet(t, 69)
	test := echoServer(t, n.node, "/srv-test", func(r *echoRequest) bool { return r.Data == "test" })
	b0 := echoServer(t, n.node, "/srv-test-0", func(r *boolMsg) bool { return r.Data })
	b1 := echoServer(t, n.node, "/srv-test-1", func(r *boolMsg) bool { return r.Data })
	other := echoServer(t, n.node, "/srv-diff-type", func(*echoRequest) bool { return true })

	one := n.plugin(`<input type="std_msgs/msg/Empty" topic="/in_14"/>
	  <service name="/srv-test" reqType="test_msgs/srv/Echo_Request" repType="test_msgs/srv/Echo_Response" timeout="2000" reqMsg="data: 'test'"/>`)
	two := n.plugin(`<input type="std_msgs/msg/Empty" topic="/in_15"/>
	  <service name="/srv-test-0" reqType="std_msgs/msg/Bool" repType="test_msgs/srv/Echo_Response" timeout="2000" reqMsg="data: true"/>
	  <service name="/srv-test-1" reqType="std_msgs/msg/Bool" repType="test_msgs/srv/Echo_Response" timeout="2000" reqMsg="data: true"/>`)
	none := n.plugin(`<input type="std_msgs/msg/Empty" topic="/in_17"/>
	  <service name="/srv-dummy-test" reqType="test_msgs/srv/Echo_Request" repType="test_msgs/srv/Echo_Response" timeout="100" reqMsg="data: 'test'"/>`)
	diff := n.plugin(`<input type="std_msgs/msg/Empty" topic="/in_18"/>
	  <service name="/srv-diff-type" reqType="std_msgs/msg/Bool" repType="test_msgs/srv/Echo_Response" timeout="100" reqMsg="data: true"/>`)

	write(t, input[emptyMsg](n, "/in_14"), make([]emptyMsg, 10)...)
	write(t, input[emptyMsg](n, "/in_15"), make([]emptyMsg, 10)...)
	write(t, input[emptyMsg](n, "/in_17"), make([]emptyMsg, 3)...)
	write(t, input[emptyMsg](n, "/in_18"), make([]emptyMsg, 3)...)
	waitFor(t, func() bool { return test.Load() == 10 && b0.Load() == 10 && b1.Load() == 10 }, func() string { return fmt.Sprintf("calls: %d %d %d", test.Load(), b0.Load(), b1.Load()) })
	for _, c := range []struct {
		tp         *sim.TriggeredPublisher
		ok, failed uint64
	}{{one, 10, 0}, {two, 20, 0}, {none, 0, 3}, {diff, 0, 3}} {
		waitFor(t, func() bool { ok, failed := c.tp.Published(); return ok == c.ok && failed == c.failed }, func() string {
			ok, failed := c.tp.Published()
			return fmt.Sprintf("published %d, failed %d", ok, failed)
		})
	}
	require.Zero(t, other.Load(), "a server of other types is never called")

	for _, bad := range []struct{ xml, msg string }{
		{`<service name="/s" reqType="gz.msgs.InvalidReqType" repType="test_msgs/srv/Echo_Response" timeout="100" reqMsg="data: 'test'"/>`, "not registered"},
		{`<service name="/s" reqType="test_msgs/srv/Echo_Request" repType="gz.msgs.InvalidRepType" timeout="100" reqMsg="data: 'test'"/>`, "bad repType"},
		{`<service name="/s" reqType="test_msgs/srv/Echo_Request" repType="test_msgs/srv/Echo_Response" timeout="soon"/>`, "timeout"},
		{`<service name="/s" reqType="test_msgs/srv/Echo_Request" repType="test_msgs/srv/Echo_Response" timeout="100" reqMsg="nothing: 1"/>`, "no such field"},
		{`<service reqType="test_msgs/srv/Echo_Request" repType="test_msgs/srv/Echo_Response" timeout="100"/>`, "needs name"},
	} {
		_, err := configure(t, n.bus, `<plugin><input type="std_msgs/msg/Empty" topic="/in_16"/>`+bad.xml+`</plugin>`)
		require.ErrorContains(t, err, bad.msg)
	}
}

// Types and payloads are checked when the plugin is configured: unknown types, fields
// a type does not have, values out of a field's range.
func TestDDSTriggeredPublisherConfigErrors(t *testing.T) {
	n := newTPNet(t, 70)
	for _, bad := range []struct{ xml, msg string }{
		{`<input type="gz.msgs.NonExtentType" topic="/i"/><output type="std_msgs/msg/Empty" topic="/o"/>`, "input type"},
		{`<input type="std_msgs/msg/Empty" topic="/i"/><output type="std_msgs/msg/Nope" topic="/o"/>`, "not registered"},
		{`<input type="std_msgs/msg/Empty" topic="/i"/><output type="std_msgs/msg/Bool" topic="/o">datum: true</output>`, "std_msgs/msg/Bool: datum: no such field"},
		{`<input type="std_msgs/msg/Empty" topic="/i"/><output type="std_msgs/msg/Int32" topic="/o">data: 3e10</output>`, "out of the range of int32"},
		{`<input type="std_msgs/msg/Empty" topic="/i"/><output type="std_msgs/msg/Int32" topic="/o">data: 1.5</output>`, "out of the range"},
		{`<input type="std_msgs/msg/Empty" topic="/i"/><output type="std_msgs/msg/Bool" topic="/o">data: 1</output>`, "is not a value of bool"},
		{`<input type="std_msgs/msg/Int32" topic="/i"><match>value: 1</match></input><output type="std_msgs/msg/Empty" topic="/o"/>`, "bad <match>"},
	} {
		_, err := configure(t, n.bus, "<plugin>"+bad.xml+"</plugin>")
		require.ErrorContains(t, err, bad.msg, bad.xml)
	}
	require.ErrorIs(t, AddBusType[struct{ A int }](n.bus), dds.ErrBadParameter, "a bus type names itself")
	require.ErrorContains(t, n.bus.Publish("/o", sim.Message{Type: "nope"}), "not registered")
}

// The conversions keep every value of a message with nested, repeated and optional
// fields, and ROS 2's field names.
func TestMsgConversion(t *testing.T) {
	type inner struct{ ChildFrameID string }
	type outer struct {
		Header   inner
		Values   []float32
		Fixed    [3]uint8
		Optional *int16
		Items    []inner
	}
	o16 := int16(-7)
	v := outer{Header: inner{"base"}, Values: []float32{0.5, 2}, Fixed: [3]uint8{1, 2, 3}, Optional: &o16, Items: []inner{{"a"}, {"b"}}}
	m := toMsg(refValue(&v)).(sim.Msg)
	require.Equal(t, sim.Msg{
		"header": sim.Msg{"child_frame_id": "base"}, "values": []any{0.5, 2.0}, "fixed": []any{1.0, 2.0, 3.0},
		"optional": -7.0, "items": []any{sim.Msg{"child_frame_id": "a"}, sim.Msg{"child_frame_id": "b"}},
	}, m)
	var back outer
	require.NoError(t, fromMsg(refValue(&back), m, ""))
	require.Equal(t, v, back)
	require.NoError(t, fromMsg(refValue(&back), sim.Msg{"values": 4.0, "header": sim.Msg{"ChildFrameID": nil}}, ""))
	require.Equal(t, []float32{4}, back.Values, "a single value where a list is expected is a list of one")
	require.Empty(t, back.Header.ChildFrameID, "a nil value is zero")
	err := fromMsg(refValue(&back), sim.Msg{"fixed": []any{1.0, 2.0, 3.0, 4.0}}, "")
	require.ErrorContains(t, err, "4 values for an array of 3")
	err = fromMsg(refValue(&back), sim.Msg{"items": []any{sim.Msg{"child_frame_id": 1.0}}}, "")
	require.ErrorContains(t, err, "items[0].child_frame_id")
	for in, want := range map[string]string{"ChildFrameID": "child_frame_id", "X": "x", "SpawnRequests": "spawn_requests", "HTTPServer": "http_server", "Nanosec": "nanosec"} {
		require.Equal(t, want, snakeCase(in))
		require.Equal(t, strings.ReplaceAll(want, "_", ""), fieldKey(in))
	}
}

func refValue[T any](p *T) reflect.Value { return reflect.ValueOf(p).Elem() }

// The whole path: a TriggeredPublisher loaded from a world file, on DDS, its output
// delayed in simulation time.
func TestDDSTriggeredPublisherDelay(t *testing.T) {
	n := newTPNet(t, 71)
	r, err := sim.NewRunner(ecm.New(), sim.Config{Clock: newFakeClock()})
	require.NoError(t, err)
	reg := sim.Registry{}
	sim.RegisterTriggeredPublisher(reg, n.bus)
	_, err = sim.LoadWorld(r, strings.NewReader(`<sdf version="1.9"><world name="w">
	  <plugin name="gz::sim::systems::TriggeredPublisher" filename="gz-sim-triggered-publisher-system">
	    <input type="std_msgs/msg/Bool" topic="/start"><match>data: true</match></input>
	    <output type="geometry_msgs/msg/Pose" topic="/goal">position: {x: 2.5}</output>
	    <delay_ms>20</delay_ms>
	  </plugin></world></sdf>`), sim.LoadOptions{Registry: reg})
	require.NoError(t, err)
	_, err = r.RunOnce() // adds the system
	require.NoError(t, err)
	out := output[geometry_msgs.Pose](n, "/goal", "geometry_msgs/msg/Pose")
	write(t, input[boolMsg](n, "/start"), boolMsg{Data: true})
	// The match is pending from when the input arrives, which the test cannot see: the
	// output comes no sooner than 20 steps (of 1 ms) after the input was written.
	var got []geometry_msgs.Pose
	steps := 0
	waitFor(t, func() bool {
		_, err := r.RunOnce()
		require.NoError(t, err)
		steps++
		data, _, err := out.Take(context.Background(), dds.NoWait())
		got = append(got, data...)
		return err == nil && len(got) > 0
	}, func() string { return fmt.Sprintf("no output after %d steps", steps) })
	require.GreaterOrEqual(t, steps, 20, "delayed by 20 ms of simulation time")
	require.Len(t, got, 1)
	require.Equal(t, 2.5, got[0].Position.X)
}

// A program that publishes and exits waits for its readers' acknowledgments: when
// WaitForAcknowledgments returns, the reader holds every message.
func TestDDSBusWaitForAcknowledgments(t *testing.T) {
	n := newTPNet(t, 73)
	ctx := context.Background()
	err := n.bus.WaitForAcknowledgments(ctx, "/acked", "std_msgs/msg/Bool")
	require.ErrorIs(t, err, dds.ErrPreconditionNotMet, "nothing published there yet")
	require.ErrorIs(t, n.bus.WaitForAcknowledgments(ctx, "/acked", "no/msg/Such"), dds.ErrBadParameter)

	out := output[boolMsg](n, "/acked", "std_msgs/msg/Bool")
	for range 5 {
		require.NoError(t, n.bus.Publish("/acked", sim.Message{Type: "std_msgs/msg/Bool", Data: sim.Msg{"data": true}}))
	}
	actx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	require.NoError(t, n.bus.WaitForAcknowledgments(actx, "/acked", "std_msgs::msg::dds_::Bool_"))
	data, _, err := out.Take(ctx, dds.NoWait())
	require.NoError(t, err)
	require.Len(t, data, 5, "acknowledged, so already in the reader")

	require.NoError(t, n.bus.Close())
	require.ErrorIs(t, n.bus.WaitForAcknowledgments(ctx, "/acked", "std_msgs/msg/Bool"), dds.ErrAlreadyDeleted)
}
