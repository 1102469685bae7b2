package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/internal/netns"
	"github.com/ddsgo/ddsgo/sim"
	"github.com/ddsgo/ddsgo/sim/ecm"
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
	s, err := sim.NewServices(p, r, "")
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
			Result   struct{ Result float64 }
			Entities []string
		}
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &out), stdout)
	require.Equal(t, "simulation_interfaces/srv/GetEntities", out.Type)
	require.Equal(t, []string{"robot"}, out.Reply.Entities)
	require.Equal(t, float64(1), out.Reply.Result.Result, "RESULT_OK")

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
