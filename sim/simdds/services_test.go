package simdds

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/ros/action_msgs"
	si "github.com/ddsgo/ddsgo/ros/simulation_interfaces"
	"github.com/ddsgo/ddsgo/ros/unique_identifier_msgs"
	"github.com/ddsgo/ddsgo/sim"
)

const servicesWorld = `<sdf version="1.9"><world name="w">
  <model name="box1"><pose>1 0 0 0 0 0</pose><link name="body"/></model>
  <model name="box2"><pose>2 0 0 0 0 0</pose><static>true</static></model>
  <model name="robot"><pose>0 3 0 0 0 0</pose><link name="base"><pose>0 0 1 0 0 0</pose></link></model>
  <frame name="dock"><pose>4 5 0 0 0 0</pose></frame>
  <frame name="gate"/>
</world></sdf>`

// svcFixture is a running world served over one participant and a client participant
// that calls it the way a ROS 2 node does (rq/gzserver/NAMERequest, ROS 2 type names).
type svcFixture struct {
	t      *testing.T
	r      *sim.Runner
	s      *Services
	prefix string
	client *dds.DomainParticipant
	mu     sync.Mutex
	reqs   map[string]any
}

func newSvcFixture(t *testing.T, prefix string) *svcFixture {
	t.Helper()
	r, err := sim.NewRunner(ecm.New(), sim.Config{Paused: true, PausedPeriod: time.Millisecond})
	require.NoError(t, err)
	_, err = sim.LoadWorld(r, strings.NewReader(servicesWorld), sim.LoadOptions{})
	require.NoError(t, err)
	return serveRunner(t, r, prefix)
}

// serveRunner serves the services of r and runs it until the test ends.
func serveRunner(t *testing.T, r *sim.Runner, prefix string, resourcePath ...string) *svcFixture {
	t.Helper()
	world, client := loopbackParticipant(t, 64), loopbackParticipant(t, 64)
	s, err := NewServices(world, r, prefix, resourcePath...)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx, 0) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil { // nil: quit
			require.ErrorIs(t, err, context.Canceled)
		}
		require.NoError(t, s.Close())
		require.NoError(t, s.Close(), "Close is idempotent")
	})
	if prefix == "" {
		prefix = "/gzserver"
	}
	return &svcFixture{t: t, r: r, s: s, prefix: prefix, client: client, reqs: map[string]any{}}
}

// call calls the service PREFIX/name with req from the client participant.
func call[Req, Rep any](f *svcFixture, name string, req Req) Rep {
	f.t.Helper()
	f.mu.Lock()
	q, ok := f.reqs[name].(*dds.Requester[Req, Rep])
	if !ok {
		var err error
		q, err = dds.NewRequester[Req, Rep](f.client, f.prefix+"/"+name, dds.ROSNames())
		require.NoError(f.t, err)
		f.reqs[name] = q
		f.t.Cleanup(func() { require.NoError(f.t, q.Close()) })
	}
	f.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(f.t, q.WaitForService(ctx))
	rep, err := q.Call(ctx, &req)
	require.NoError(f.t, err)
	return rep
}

func requireResult(t *testing.T, want uint8, got si.Result, why ...string) {
	t.Helper()
	require.Equal(t, want, got.Result, "result %d: %s %v", got.Result, got.ErrorMessage, why)
	if want != si.Result_RESULT_OK {
		require.NotEmpty(t, got.ErrorMessage, "a failure says why")
	}
}

// The services answer under another prefix (rq/sim/world/get_simulation_stateRequest).
func TestServicesPrefix(t *testing.T) {
	f := newSvcFixture(t, "/sim/world")
	require.Equal(t, si.SimulationState_STATE_STOPPED, simState(f))
}

func simState(f *svcFixture) uint8 {
	f.t.Helper()
	rep := call[si.GetSimulationStateRequest, si.GetSimulationStateResponse](f, "get_simulation_state", si.GetSimulationStateRequest{})
	requireResult(f.t, si.Result_RESULT_OK, rep.Result)
	return rep.State.State
}

func TestServicesSimulateSteps(t *testing.T) {
	f := newSvcFixture(t, "")
	const action = "simulate_steps/_action/"
	send := func(id byte, steps uint64) si.SimulateStepsSendGoalResponse {
		return call[si.SimulateStepsSendGoalRequest, si.SimulateStepsSendGoalResponse](f, action+"send_goal",
			si.SimulateStepsSendGoalRequest{GoalID: goalID(id), Goal: si.SimulateStepsGoal{Steps: steps}})
	}
	result := func(id byte) si.SimulateStepsGetResultResponse {
		return call[si.SimulateStepsGetResultRequest, si.SimulateStepsGetResultResponse](f, action+"get_result",
			si.SimulateStepsGetResultRequest{GoalID: goalID(id)})
	}
	cancelGoal := func(id byte) action_msgs.CancelGoalResponse {
		return call[action_msgs.CancelGoalRequest, action_msgs.CancelGoalResponse](f, action+"cancel_goal",
			action_msgs.CancelGoalRequest{GoalInfo: action_msgs.GoalInfo{GoalID: goalID(id)}})
	}
	// Both ways: feedback is volatile.
	fb, ctx := matchedReader[si.SimulateStepsFeedbackMessage](t, f.client, "rt/gzserver/"+action+"feedback",
		f.s.action.fbW, dds.Reliable(), dds.KeepAll())

	require.True(t, send(1, 5).Accepted)
	rep := result(1)
	require.Equal(t, action_msgs.GoalStatus_STATUS_SUCCEEDED, rep.Status)
	requireResult(t, si.Result_RESULT_OK, rep.Result.Result)
	require.Equal(t, uint64(5), f.r.Info().Iterations)
	for msg := range fb.Samples(ctx) {
		require.Equal(t, goalID(1), msg.GoalID)
		require.Equal(t, uint64(5), msg.Feedback.CompletedSteps+msg.Feedback.RemainingSteps)
		if msg.Feedback.RemainingSteps == 0 {
			break
		}
	}
	require.NoError(t, ctx.Err(), "feedback up to the last step")

	require.False(t, send(1, 5).Accepted, "a goal id is used once")
	require.True(t, send(2, 0).Accepted)
	rep = result(2)
	require.Equal(t, action_msgs.GoalStatus_STATUS_ABORTED, rep.Status)
	requireResult(t, si.Result_RESULT_OPERATION_FAILED, rep.Result.Result)
	require.True(t, send(3, 1<<64-1).Accepted)
	requireResult(t, si.Result_RESULT_OPERATION_FAILED, result(3).Result.Result, "a negative count")
	require.Equal(t, uint64(5), f.r.Info().Iterations, "aborted goals take no step")
	rep = result(99)
	require.Equal(t, action_msgs.GoalStatus_STATUS_UNKNOWN, rep.Status)
	requireResult(t, si.Result_RESULT_NOT_FOUND, rep.Result.Result)

	require.Equal(t, action_msgs.CancelGoalResponse_ERROR_UNKNOWN_GOAL_ID, cancelGoal(99).ReturnCode)
	require.Equal(t, action_msgs.CancelGoalResponse_ERROR_GOAL_TERMINATED, cancelGoal(1).ReturnCode)
	require.True(t, send(4, 1<<40).Accepted, "steps for hours")
	c := cancelGoal(4)
	require.Equal(t, action_msgs.CancelGoalResponse_ERROR_NONE, c.ReturnCode)
	require.Len(t, c.GoalsCanceling, 1)
	rep = result(4)
	require.Equal(t, action_msgs.GoalStatus_STATUS_CANCELED, rep.Status)
	requireResult(t, si.Result_RESULT_OPERATION_FAILED, rep.Result.Result)
	require.Equal(t, si.SimulationState_STATE_PAUSED, simState(f), "canceled: paused again")

	stT, err := dds.NewTopic[action_msgs.GoalStatusArray](f.client, "rt/gzserver/"+action+"status")
	require.NoError(t, err)
	st, err := dds.NewReader(stT, dds.Reliable(), dds.TransientLocal(), dds.KeepLast(1))
	require.NoError(t, err)
	for msg := range st.Samples(ctx) {
		require.Len(t, msg.StatusList, 4, "the statuses of the accepted goals, late joiners too")
		want := []int8{action_msgs.GoalStatus_STATUS_SUCCEEDED, action_msgs.GoalStatus_STATUS_ABORTED, action_msgs.GoalStatus_STATUS_ABORTED, action_msgs.GoalStatus_STATUS_CANCELED}
		for i, s := range msg.StatusList {
			require.Equal(t, want[i], s.Status)
		}
		break
	}
	require.NoError(t, ctx.Err())

	requireResult(t, si.Result_RESULT_OK, call[si.SetSimulationStateRequest, si.SetSimulationStateResponse](f, "set_simulation_state",
		si.SetSimulationStateRequest{State: si.SimulationState{State: si.SimulationState_STATE_PLAYING}}).Result)
	require.True(t, send(5, 3).Accepted)
	rep = result(5)
	require.Equal(t, action_msgs.GoalStatus_STATUS_ABORTED, rep.Status)
	requireResult(t, si.Result_RESULT_OPERATION_FAILED, rep.Result.Result, "not paused")
}

func goalID(b byte) unique_identifier_msgs.UUID {
	return unique_identifier_msgs.UUID{UUID: [16]uint8{15: b}}
}

// Every service answers over DDS under its ROS 2 name, with its ROS 2 types: what
// each answers is sim's to test.
func TestServicesServed(t *testing.T) {
	f := newSvcFixture(t, "")
	rep := call[si.GetEntitiesRequest, si.GetEntitiesResponse](f, "get_entities", si.GetEntitiesRequest{})
	requireResult(t, si.Result_RESULT_OK, rep.Result)
	require.Equal(t, []string{"box1", "box2", "robot"}, rep.Entities)
	features := call[si.GetSimulatorFeaturesRequest, si.GetSimulatorFeaturesResponse](f, "get_simulator_features", si.GetSimulatorFeaturesRequest{})
	require.Contains(t, features.Features.Features, uint16(si.SimulatorFeatures_STEP_SIMULATION_ACTION))
	results := []si.Result{
		call[si.SetSimulationStateRequest, si.SetSimulationStateResponse](f, "set_simulation_state", si.SetSimulationStateRequest{}).Result,
		call[si.StepSimulationRequest, si.StepSimulationResponse](f, "step_simulation", si.StepSimulationRequest{Steps: 1}).Result,
		call[si.ResetSimulationRequest, si.ResetSimulationResponse](f, "reset_simulation", si.ResetSimulationRequest{}).Result,
		call[si.GetEntitiesStatesRequest, si.GetEntitiesStatesResponse](f, "get_entities_states", si.GetEntitiesStatesRequest{}).Result,
		call[si.GetEntityStateRequest, si.GetEntityStateResponse](f, "get_entity_state", si.GetEntityStateRequest{Entity: "box1"}).Result,
		call[si.SetEntityStateRequest, si.SetEntityStateResponse](f, "set_entity_state", si.SetEntityStateRequest{Entity: "nobody"}).Result,
		call[si.GetEntityInfoRequest, si.GetEntityInfoResponse](f, "get_entity_info", si.GetEntityInfoRequest{Entity: "box1"}).Result,
		call[si.SetEntityInfoRequest, si.SetEntityInfoResponse](f, "set_entity_info", si.SetEntityInfoRequest{Entity: "nobody"}).Result,
		call[si.GetEntityBoundsRequest, si.GetEntityBoundsResponse](f, "get_entity_bounds", si.GetEntityBoundsRequest{Entity: "box1"}).Result,
		call[si.DeleteEntityRequest, si.DeleteEntityResponse](f, "delete_entity", si.DeleteEntityRequest{Entity: "nobody"}).Result,
		call[si.SpawnEntityRequest, si.SpawnEntityResponse](f, "spawn_entity", si.SpawnEntityRequest{}).Result,
		call[si.SpawnEntitiesRequest, si.SpawnEntitiesResponse](f, "spawn_entities", si.SpawnEntitiesRequest{}).Result,
		call[si.GetCurrentWorldRequest, si.GetCurrentWorldResponse](f, "get_current_world", si.GetCurrentWorldRequest{}).Result,
		call[si.LoadWorldRequest, si.LoadWorldResponse](f, "load_world", si.LoadWorldRequest{}).Result,
		call[si.GetNamedPosesRequest, si.GetNamedPosesResponse](f, "get_named_poses", si.GetNamedPosesRequest{}).Result,
		call[si.GetNamedPoseBoundsRequest, si.GetNamedPoseBoundsResponse](f, "get_named_pose_bounds", si.GetNamedPoseBoundsRequest{Name: "dock"}).Result,
		call[si.GetSpawnablesRequest, si.GetSpawnablesResponse](f, "get_spawnables", si.GetSpawnablesRequest{}).Result,
		call[si.GetAvailableWorldsRequest, si.GetAvailableWorldsResponse](f, "get_available_worlds", si.GetAvailableWorldsRequest{}).Result,
		call[si.UnloadWorldRequest, si.UnloadWorldResponse](f, "unload_world", si.UnloadWorldRequest{}).Result,
	}
	for i, res := range results {
		require.True(t, res.Result == si.Result_RESULT_OK || res.ErrorMessage != "", "service %d answered: %+v", i, res)
	}
	require.Equal(t, si.SimulationState_STATE_NO_WORLD, simState(f), "unload_world unloaded the world")
}
