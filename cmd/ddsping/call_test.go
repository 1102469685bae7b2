package main

import (
	"context"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/internal/netns"
	"github.com/ddsgo/ddsgo/internal/xtypes"
	"github.com/ddsgo/ddsgo/ros/builtin_interfaces"
	"github.com/ddsgo/ddsgo/ros/rosgraph_msgs"
	si "github.com/ddsgo/ddsgo/ros/simulation_interfaces"
	"github.com/ddsgo/ddsgo/ros/std_msgs"
	"github.com/ddsgo/ddsgo/sim"
	"github.com/ddsgo/ddsgo/sim/simdds"
)

// call calls the simulation_interfaces services of a running world, as ddsim serves
// them, with requests in the text format; bad service types and requests are usage
// errors; a service nobody serves is a failure after -timeout.
func TestCall(t *testing.T) {
	netns.Require(t)
	p, err := dds.NewParticipant(47)
	require.NoError(t, err)
	defer func() { require.NoError(t, p.Close()) }()
	r, err := sim.NewRunner(ecm.New(), sim.Config{Paused: true, PausedPeriod: time.Millisecond})
	require.NoError(t, err)
	_, err = sim.LoadWorld(r, strings.NewReader(`<sdf version="1.9"><world name="w">
	  <model name="robot"><pose>1 2 3 0 0 0</pose></model><model name="box"/></world></sdf>`), sim.LoadOptions{})
	require.NoError(t, err)
	s, err := simdds.NewServices(p, r, "")
	require.NoError(t, err)
	defer func() { require.NoError(t, s.Close()) }()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx, 0) }()
	defer func() { cancel(); require.ErrorIs(t, <-done, context.Canceled) }()

	code, stdout, stderr := runCmd(t, context.Background(), "call", "-domain", "47", "-json", "/gzserver/get_entities", `filters: {filter: "rob.*"}`)
	require.Equal(t, exitOK, code, stderr)
	var out struct {
		Type  string
		Reply struct {
			Result   struct{ Result enumValue }
			Entities []string
		}
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &out), stdout)
	require.Equal(t, "simulation_interfaces/srv/GetEntities", out.Type)
	require.Equal(t, []string{"robot"}, out.Reply.Entities)
	require.Equal(t, enumValue{"RESULT_OK", 1}, out.Reply.Result.Result)
	// One naming scheme: the .msg names (error_message, not ErrorMessage nor
	// error_message_), in the .srv's order, result codes by name with their number.
	require.Contains(t, stdout, `"reply":{"result":{"result":{"name":"RESULT_OK","value":1},"error_message":""},"entities":["robot"]}`)

	code, stdout, stderr = runCmd(t, context.Background(), "call", "-domain", "47", "-json", "/gzserver/get_simulation_state")
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, stdout, `"state":{"state":{"name":"STATE_STOPPED","value":0}}`)
	// The request takes the constants' names echo prints, as well as their numbers.
	code, stdout, stderr = runCmd(t, context.Background(), "call", "-domain", "47", "-json",
		"/gzserver/set_simulation_state", `state: {state: STATE_PAUSED}`)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, stdout, `"result":{"result":{"name":"RESULT_OK","value":1}`)
	code, stdout, stderr = runCmd(t, context.Background(), "call", "-domain", "47", "-json", "/gzserver/get_simulation_state")
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, stdout, `"state":{"state":{"name":"STATE_PAUSED","value":2}}`)

	code, stdout, stderr = runCmd(t, context.Background(), "call", "-domain", "47", "/gzserver/get_entity_state", `entity: "robot"`)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, stdout, "call: /gzserver/get_entity_state (simulation_interfaces/srv/GetEntityState) answered in")
	require.Contains(t, stdout, `"z": 3`)

	for _, bad := range []struct {
		args []string
		why  string
	}{
		{nil, "call SERVICE [REQUEST]"},
		{[]string{"/gzserver/no_such_thing"}, "unknown service type simulation_interfaces/srv/NoSuchThing"},
		{[]string{"/gzserver/get_entities", "filters: {"}, "request: sim: message text"},
		{[]string{"/gzserver/get_entities", "nonsense: 1"}, "nonsense: no such field"},
	} {
		code, _, stderr = runCmd(t, context.Background(), append([]string{"call", "-domain", "47", "-timeout", "2s"}, bad.args...)...)
		require.Equal(t, exitUsage, code, "%v: %s", bad.args, stderr)
		require.Contains(t, stderr, bad.why)
	}
	// list shows the ROS 2 view of the domain: the services with their types and server.
	code, stdout, stderr = runCmd(t, context.Background(), "list", "-domain", "47", "-wait", "500ms")
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, stdout, "ROS 2 services (")
	require.Regexp(t, `\n  /gzserver/get_entities  simulation_interfaces/srv/GetEntities  served by "?\S+`, stdout)
	require.Contains(t, stdout, "/gzserver/simulate_steps/_action/send_goal  simulation_interfaces/action/SimulateSteps_SendGoal")

	code, stdout, stderr = runCmd(t, context.Background(), "list", "-domain", "47", "-wait", "500ms", "-json")
	require.Equal(t, exitOK, code, stderr)
	var listed struct {
		ROS struct {
			Services []rosService
		}
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &listed), stdout)
	require.Contains(t, listed.ROS.Services, rosService{
		Name: "/gzserver/get_entities", Type: "simulation_interfaces/srv/GetEntities",
		Servers: listed.ROS.Services[0].Servers,
	})

	code, _, stderr = runCmd(t, context.Background(), "call", "-domain", "47", "-timeout", "300ms", "/elsewhere/get_entities")
	require.Equal(t, exitFailed, code, stderr)
	require.Contains(t, stderr, "no answer from /elsewhere/get_entities within 300ms")
}

// mystery is a type ddsping does not know.
type mystery struct{ X int32 }

func (mystery) DDSTypeName() string { return "acme::Mystery" }

// publishFor writes next(i) on topic name of a participant of domain 48 every 10 ms
// until the test ends.
func publishFor[T any](t *testing.T, name string, next func(i int) T, opts ...dds.Option) {
	t.Helper()
	publishOn(t, 48, name, next, opts...)
}

// publishOn writes next(i) on topic name of a participant of domain every 10 ms until
// the test ends.
func publishOn[T any](t *testing.T, domain int, name string, next func(i int) T, opts ...dds.Option) {
	t.Helper()
	p, err := dds.NewParticipant(domain)
	require.NoError(t, err)
	topic, err := dds.NewTopic[T](p, name)
	require.NoError(t, err)
	w, err := dds.NewWriter(topic, opts...)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for i := 0; ctx.Err() == nil; i++ {
			v := next(i)
			_ = w.Write(ctx, &v)
			select {
			case <-ctx.Done():
			case <-tick.C:
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		require.NoError(t, p.Close())
	})
}

// echo prints a ROS 2 topic's samples as JSON with the type its writer announces; hz
// reports its rate, bw its bandwidth; a type ddsping has no Go type for prints in hex
// when its writer announced no TypeObjects (dynamic_test.go has the rest).
func TestEchoAndHz(t *testing.T) {
	netns.Require(t)
	publishFor(t, "rt/clock", func(i int) rosgraph_msgs.Clock {
		return rosgraph_msgs.Clock{Clock: builtin_interfaces.Time{Sec: 7, Nanosec: uint32(i)}}
	})
	code, stdout, stderr := runCmd(t, context.Background(), "echo", "-domain", "48", "-count", "3", "/clock")
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	require.Len(t, lines, 3, stdout)
	for _, l := range lines {
		var c rosgraph_msgs.Clock
		require.NoError(t, json.Unmarshal([]byte(l), &c), l)
		require.Equal(t, int32(7), c.Clock.Sec)
	}

	code, stdout, stderr = runCmd(t, context.Background(), "hz", "-domain", "48", "-duration", "1500ms", "-json", "/clock")
	require.Equal(t, 0, code, stderr)
	var r rate
	last := strings.Split(strings.TrimSpace(stdout), "\n")
	require.NoError(t, json.Unmarshal([]byte(last[len(last)-1]), &r), stdout)
	require.Equal(t, "rt/clock", r.Topic)
	require.Equal(t, "rosgraph_msgs::msg::dds_::Clock_", r.Type)
	require.InDelta(t, 100, r.Rate, 60, "written every 10 ms: %+v", r) // a loose bound: a loaded machine
	require.GreaterOrEqual(t, r.Samples, 2)

	// bw: a Clock is 12 octets serialized (4 of encapsulation, sec and nanosec).
	code, stdout, stderr = runCmd(t, context.Background(), "bw", "-domain", "48", "-duration", "1500ms", "-json", "/clock")
	require.Equal(t, 0, code, stderr)
	last = strings.Split(strings.TrimSpace(stdout), "\n")
	require.NoError(t, json.Unmarshal([]byte(last[len(last)-1]), &r), stdout)
	require.Equal(t, 12.0, r.MeanSize, stdout)
	require.Equal(t, 12, r.MinSize)
	require.InDelta(t, 1200, r.Bandwidth, 720, "12 octets every 10 ms: %+v", r)
	code, stdout, _ = runCmd(t, context.Background(), "bw", "-domain", "48", "-duration", "1200ms", "/clock")
	require.Equal(t, 0, code)
	require.Contains(t, stdout, "rt/clock: ")
	require.Contains(t, stdout, "mean 12 B, min 12 B, max 12 B")

	// A topic written once, before echo started, shows: the reader is TRANSIENT_LOCAL like
	// its writer.
	publishFor(t, "rt/once", func(int) std_msgs.String { return std_msgs.String{Data: "kept"} },
		dds.Reliable(), dds.TransientLocal(), dds.KeepLast(1))
	code, stdout, stderr = runCmd(t, context.Background(), "echo", "-domain", "48", "-count", "1", "/once")
	require.Equal(t, 0, code, stderr)
	require.JSONEq(t, `{"data":"kept"}`, strings.TrimSpace(stdout))

	// A type ddsping does not know, announced without TypeObjects: in hex.
	publishFor(t, "mystery", func(int) mystery { return mystery{} })
	code, stdout, stderr = runCmd(t, context.Background(), "echo", "-domain", "48", "-count", "1", "mystery")
	require.Equal(t, 0, code, stderr)
	require.JSONEq(t, `{"hex":"0001000000000000"}`, strings.TrimSpace(stdout))

	code, _, stderr = runCmd(t, context.Background(), "echo", "-domain", "48", "-wait", "300ms", "/nobody")
	require.Equal(t, exitFailed, code)
	require.Contains(t, stderr, `no writer of "rt/nobody"`)
}

// pub TOPIC VALUE publishes a message written in the text format, typed by -type or by
// the topic's reader, once a reader matched; a bad value or type is a usage error.
func TestPubMessage(t *testing.T) {
	netns.Require(t)
	p, err := dds.NewParticipant(48)
	require.NoError(t, err)
	defer func() { require.NoError(t, p.Close()) }()
	topic, err := dds.NewTopic[std_msgs.String](p, "rt/chatter")
	require.NoError(t, err)
	r, err := dds.NewReader(topic, dds.Reliable(), dds.KeepLast(10))
	require.NoError(t, err)

	code, stdout, stderr := runCmd(t, context.Background(), "pub", "-domain", "48", "-count", "3", "-rate", "100", "-json", "/chatter", `data: "hi"`)
	require.Equal(t, 0, code, stderr)
	require.JSONEq(t, `{"topic": "/chatter", "type": "std_msgs::msg::dds_::String_", "published": 3}`, stdout)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	got := 0
	for v, info := range r.Samples(ctx) {
		require.True(t, info.ValidData)
		require.Equal(t, "hi", v.Data)
		if got++; got == 3 {
			break
		}
	}
	require.Equal(t, 3, got)

	code, _, stderr = runCmd(t, context.Background(), "pub", "-domain", "48", "-type", "std_msgs/msg/String", "/chatter", `nosuchfield: 1`)
	require.Equal(t, exitUsage, code, stderr)
	code, _, stderr = runCmd(t, context.Background(), "pub", "-domain", "48", "-type", "std_msgs/msg/Nope", "/chatter", `data: "x"`)
	require.Equal(t, exitUsage, code, stderr)
	require.Contains(t, stderr, "Nope")
	require.Contains(t, stderr, "message types ddsping has")
	code, _, _ = runCmd(t, context.Background(), "pub", "-domain", "48", "/chatter")
	require.Equal(t, exitUsage, code)
}

// echo prints a message with one naming scheme: a ROS 2 type's members by their .msg
// names (frame_id, not FrameID nor frame_id_) in declaration order, and a member its
// message defines constants for by name with its number.
func TestEchoNames(t *testing.T) {
	netns.Require(t)
	publishFor(t, "rt/header", func(int) std_msgs.Header {
		return std_msgs.Header{Stamp: builtin_interfaces.Time{Sec: 1, Nanosec: 2}, FrameID: "map"}
	})
	code, stdout, stderr := runCmd(t, context.Background(), "echo", "-domain", "48", "-count", "1", "/header")
	require.Equal(t, exitOK, code, stderr)
	require.Equal(t, `{"stamp":{"sec":1,"nanosec":2},"frame_id":"map"}`, strings.TrimSpace(stdout))

	publishFor(t, "rt/sim_state", func(int) si.SimulationState { return si.SimulationState{State: si.SimulationState_STATE_PLAYING} })
	code, stdout, stderr = runCmd(t, context.Background(), "echo", "-domain", "48", "-count", "1", "/sim_state")
	require.Equal(t, exitOK, code, stderr)
	require.Equal(t, `{"state":{"name":"STATE_PLAYING","value":1}}`, strings.TrimSpace(stdout))
}

// plainPos is a plain Go type: no IDL names, so its members show by their Go names.
type plainPos struct {
	X, Y   float64
	Mode   gadgetMode
	Bytes  []byte
	hidden int
	Skip   int `dds:"-"`
}

// msgJSON, ddsping's JSON scheme: Go names where no IDL name is given, IDL enums by
// name with the number, bytes as numbers, NaN as a string, ROS 2 names without their _.
func TestMsgJSON(t *testing.T) {
	b, err := marshalMsg(msgJSON(reflect.ValueOf(&plainPos{X: math.NaN(), Y: 2, Mode: 1, Bytes: []byte{1, 2}, hidden: 3})))
	require.NoError(t, err)
	require.Equal(t, `{"X":"NaN","Y":2,"Mode":{"name":"BUSY","value":1},"Bytes":[1,2]}`, string(b))
	b, err = marshalMsg(msgJSON(reflect.ValueOf(gadget{ID: 7, Mode: 5})))
	require.NoError(t, err)
	require.Equal(t, `{"id":7,"label":"","pos":{"x":0,"y":0},"mode":{"name":"","value":5},"tags":[],"trail":[{"x":0,"y":0},{"x":0,"y":0}]}`, string(b))
	b, err = marshalMsg(msgJSON(reflect.ValueOf(si.Bounds{Type: si.Bounds_TYPE_BOX})))
	require.NoError(t, err)
	require.Equal(t, `{"type":{"name":"TYPE_BOX","value":1},"points":[]}`, string(b))
	b, err = marshalMsg(dynamicJSON("pkg::msg::dds_::T_", xtypes.Struct{{Name: "frame_id_", Value: []any{xtypes.Struct{{Name: "x_", Value: 1}}}}}))
	require.NoError(t, err)
	require.Equal(t, `{"frame_id":[{"x":1}]}`, string(b))
}
