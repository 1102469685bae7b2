package sim

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/ros/geometry_msgs"
	si "github.com/ddsgo/ddsgo/ros/simulation_interfaces"
	"github.com/ddsgo/ddsgo/ros/std_msgs"
)

const servicesWorld = `<sdf version="1.9"><world name="w">
  <model name="box1"><pose>1 0 0 0 0 0</pose><link name="body"/></model>
  <model name="box2"><pose>2 0 0 0 0 0</pose><static>true</static></model>
  <model name="robot"><pose>0 3 0 0 0 0</pose><link name="base"><pose>0 0 1 0 0 0</pose></link></model>
  <frame name="dock"><pose>4 5 0 0 0 0</pose></frame>
  <frame name="gate"/>
</world></sdf>`

// svcFixture is a running world and its services, called as the DDS face calls them.
type svcFixture struct {
	t *testing.T
	r *Runner
	s *Services
}

func newSvcFixture(t *testing.T, resourcePath ...string) *svcFixture {
	t.Helper()
	r, err := NewRunner(ecm.New(), Config{Paused: true, PausedPeriod: time.Millisecond})
	require.NoError(t, err)
	_, err = LoadWorld(r, strings.NewReader(servicesWorld), LoadOptions{})
	require.NoError(t, err)
	m := r.Manager()
	robot, _ := topNamed(m, "robot")
	ecm.CreateComponent(m, robot, CategoryRobot)
	ecm.CreateComponent(m, robot, Tags{"mobile", "red"})
	box1, _ := topNamed(m, "box1")
	ecm.CreateComponent(m, box1, Tags{"red"})
	ecm.CreateComponent(m, box1, Bounds{Type: si.Bounds_TYPE_BOX, Points: []Vector3{{-0.5, -0.5, -0.5}, {0.5, 0.5, 0.5}}})
	ecm.EachRO2(m, func(e ecm.Entity, n Name, _ Frame) bool {
		if n == "dock" {
			defer ecm.CreateComponent(m, e, Tags{"spawn"})
		}
		return true
	})
	return serveRunner(t, r, resourcePath...)
}

// serveRunner makes the services of r and runs it until the test ends.
func serveRunner(t *testing.T, r *Runner, resourcePath ...string) *svcFixture {
	t.Helper()
	s, err := NewServices(r, resourcePath...)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx, 0) }()
	// Clients come once the world runs: its first step has taken the initial state.
	require.NoError(t, r.waitUntil(ctx, func() bool { return r.steps >= 1 }))
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil { // nil: quit
			require.ErrorIs(t, err, context.Canceled)
		}
	})
	return &svcFixture{t: t, r: r, s: s}
}

// handlers are the services' methods by service name.
func (f *svcFixture) handlers() map[string]any {
	s := f.s
	return map[string]any{
		"get_simulator_features": s.GetSimulatorFeatures, "get_simulation_state": s.GetSimulationState,
		"set_simulation_state": s.SetSimulationState, "step_simulation": s.StepSimulation,
		"reset_simulation": s.ResetSimulation, "get_entities": s.GetEntities,
		"get_entities_states": s.GetEntitiesStates, "get_entity_state": s.GetEntityState,
		"set_entity_state": s.SetEntityState, "get_entity_info": s.GetEntityInfo,
		"set_entity_info": s.SetEntityInfo, "get_entity_bounds": s.GetEntityBounds,
		"delete_entity": s.DeleteEntity, "spawn_entity": s.SpawnEntity, "spawn_entities": s.SpawnEntities,
		"get_current_world": s.GetCurrentWorld, "load_world": s.LoadWorld, "get_named_poses": s.GetNamedPoses,
		"get_named_pose_bounds": s.GetNamedPoseBounds, "get_spawnables": s.GetSpawnables,
		"get_available_worlds": s.GetAvailableWorlds, "unload_world": s.UnloadWorld,
	}
}

// call calls the service name with req.
func call[Req, Rep any](f *svcFixture, name string, req Req) Rep {
	f.t.Helper()
	h, ok := f.handlers()[name].(func(context.Context, *Req) Rep)
	require.True(f.t, ok, "service %s of these types", name)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return h(ctx, &req)
}

func requireResult(t *testing.T, want uint8, got si.Result, why ...string) {
	t.Helper()
	require.Equal(t, want, got.Result, "result %d: %s %v", got.Result, got.ErrorMessage, why)
	if want != si.Result_RESULT_OK {
		require.NotEmpty(t, got.ErrorMessage, "a failure says why")
	}
}

// snapshot serializes the Manager between steps, to check that bad input changes
// nothing.
func (f *svcFixture) snapshot() []byte {
	var b []byte
	f.r.do(func(m *ecm.Manager) {
		var err error
		b, err = m.State(nil, nil)
		require.NoError(f.t, err)
	})
	return b
}

func names(f *svcFixture, filters si.EntityFilters) []string {
	f.t.Helper()
	rep := call[si.GetEntitiesRequest, si.GetEntitiesResponse](f, "get_entities", si.GetEntitiesRequest{Filters: filters})
	requireResult(f.t, si.Result_RESULT_OK, rep.Result)
	return rep.Entities
}

func TestServicesFeatures(t *testing.T) {
	f := newSvcFixture(t)
	rep := call[si.GetSimulatorFeaturesRequest, si.GetSimulatorFeaturesResponse](f, "get_simulator_features", si.GetSimulatorFeaturesRequest{})
	require.Contains(t, rep.Features.Features, uint16(si.SimulatorFeatures_ENTITY_STATE_GETTING))
	require.Contains(t, rep.Features.Features, uint16(si.SimulatorFeatures_STEP_SIMULATION_MULTIPLE))
	require.Contains(t, rep.Features.Features, uint16(si.SimulatorFeatures_STEP_SIMULATION_ACTION))
	for _, absent := range []uint8{
		si.SimulatorFeatures_POSE_BOUNDS, si.SimulatorFeatures_WORLD_TAGS,
	} {
		require.NotContains(t, rep.Features.Features, uint16(absent), "not implemented, not listed")
	}
	require.Contains(t, rep.Features.Features, uint16(si.SimulatorFeatures_SPAWNABLES))
	require.Contains(t, rep.Features.Features, uint16(si.SimulatorFeatures_SIMULATION_RESET_TIME))
	require.Contains(t, rep.Features.Features, uint16(si.SimulatorFeatures_SIMULATION_RESET_STATE))
	require.Contains(t, rep.Features.Features, uint16(si.SimulatorFeatures_AVAILABLE_WORLDS))
	require.Equal(t, []string{"sdf"}, rep.Features.SpawnFormats)
}

func TestServicesEntities(t *testing.T) {
	f := newSvcFixture(t)
	require.Equal(t, []string{"box1", "box2", "robot"}, names(f, si.EntityFilters{}), "top-level models only")
	require.Equal(t, []string{"box1", "box2"}, names(f, si.EntityFilters{Filter: "box[0-9]"}))
	require.Empty(t, names(f, si.EntityFilters{Filter: "box"}), "the whole name must match")
	require.Equal(t, []string{"robot"}, names(f, si.EntityFilters{Categories: []si.EntityCategory{{Category: si.EntityCategory_CATEGORY_ROBOT}}}))
	require.Equal(t, []string{"box1", "robot"}, names(f, si.EntityFilters{Tags: si.TagsFilter{Tags: []string{"red"}}}))
	require.Equal(t, []string{"robot"}, names(f, si.EntityFilters{Tags: si.TagsFilter{Tags: []string{"red", "mobile"}, FilterMode: si.TagsFilter_FILTER_MODE_ALL}}))
	require.Equal(t, []string{"box1"}, names(f, si.EntityFilters{Bounds: si.Bounds{
		Type: si.Bounds_TYPE_BOX, Points: []geometry_msgs.Vector3{{X: 0.2, Y: -1, Z: -1}, {X: 0.6, Y: 1, Z: 1}},
	}}))

	before := f.snapshot()
	for _, bad := range []struct {
		filters si.EntityFilters
		code    uint8
	}{
		{si.EntityFilters{Filter: "box("}, si.Result_RESULT_OPERATION_FAILED},
		{si.EntityFilters{Tags: si.TagsFilter{Tags: []string{"x"}, FilterMode: 7}}, si.Result_RESULT_OPERATION_FAILED},
		{si.EntityFilters{Categories: []si.EntityCategory{{Category: 3}}}, si.Result_RESULT_OPERATION_FAILED},
		{si.EntityFilters{Bounds: si.Bounds{Type: 9}}, si.Result_RESULT_FEATURE_UNSUPPORTED},
	} {
		rep := call[si.GetEntitiesRequest, si.GetEntitiesResponse](f, "get_entities", si.GetEntitiesRequest{Filters: bad.filters})
		requireResult(t, bad.code, rep.Result)
		require.Empty(t, rep.Entities)
		reps := call[si.GetEntitiesStatesRequest, si.GetEntitiesStatesResponse](f, "get_entities_states", si.GetEntitiesStatesRequest{Filters: bad.filters})
		requireResult(t, bad.code, reps.Result)
	}
	require.Equal(t, before, f.snapshot())

	states := call[si.GetEntitiesStatesRequest, si.GetEntitiesStatesResponse](f, "get_entities_states", si.GetEntitiesStatesRequest{
		Filters: si.EntityFilters{Filter: "robot|box2"},
	})
	requireResult(t, si.Result_RESULT_OK, states.Result)
	require.Equal(t, []string{"box2", "robot"}, states.Entities)
	require.Len(t, states.States, 2)
	require.Equal(t, geometry_msgs.Point{X: 2}, states.States[0].Pose.Position)
	require.Equal(t, geometry_msgs.Point{Y: 3}, states.States[1].Pose.Position)
	require.Equal(t, "world", states.States[1].Header.FrameID)
}

func TestServicesEntityState(t *testing.T) {
	f := newSvcFixture(t)
	get := func(name string) si.GetEntityStateResponse {
		return call[si.GetEntityStateRequest, si.GetEntityStateResponse](f, "get_entity_state", si.GetEntityStateRequest{Entity: name})
	}
	set := func(q si.SetEntityStateRequest) si.Result {
		return call[si.SetEntityStateRequest, si.SetEntityStateResponse](f, "set_entity_state", q).Result
	}
	rep := get("box1")
	requireResult(t, si.Result_RESULT_OK, rep.Result)
	require.Equal(t, geometry_msgs.Point{X: 1}, rep.State.Pose.Position)
	require.Equal(t, geometry_msgs.Quaternion{W: 1}, rep.State.Pose.Orientation)
	requireResult(t, si.Result_RESULT_NOT_FOUND, get("nothing").Result)
	requireResult(t, si.Result_RESULT_NOT_FOUND, get("body").Result, "links are not entities of the services")

	half := math.Sqrt(0.5)
	target := geometry_msgs.Pose{Position: geometry_msgs.Point{X: 5, Y: 6, Z: 7}, Orientation: geometry_msgs.Quaternion{Z: half, W: half}}
	before := f.snapshot()
	for _, bad := range []struct {
		q    si.SetEntityStateRequest
		code uint8
	}{
		{si.SetEntityStateRequest{Entity: "nothing", SetPose: true, State: si.EntityState{Pose: target}}, si.Result_RESULT_NOT_FOUND},
		{si.SetEntityStateRequest{Entity: "box1", SetPose: true, State: si.EntityState{Pose: geometry_msgs.Pose{Position: geometry_msgs.Point{X: math.NaN()}, Orientation: geometry_msgs.Quaternion{W: 1}}}}, si.SetEntityStateResponse_INVALID_POSE},
		{si.SetEntityStateRequest{Entity: "box1", SetPose: true, State: si.EntityState{Pose: geometry_msgs.Pose{}}}, si.SetEntityStateResponse_INVALID_POSE},
		{si.SetEntityStateRequest{Entity: "box1", SetPose: true, State: si.EntityState{Pose: target, Header: headerFrame("mars")}}, si.Result_RESULT_NOT_FOUND},
		{si.SetEntityStateRequest{Entity: "box2", SetTwist: true, State: si.EntityState{Twist: geometry_msgs.Twist{Linear: geometry_msgs.Vector3{X: 1}}}}, si.Result_RESULT_OPERATION_FAILED},
		{si.SetEntityStateRequest{Entity: "box1", SetPose: true, SetAcceleration: true, State: si.EntityState{Pose: target, Acceleration: geometry_msgs.Accel{Angular: geometry_msgs.Vector3{Z: 1}}}}, si.Result_RESULT_FEATURE_UNSUPPORTED},
	} {
		requireResult(t, bad.code, set(bad.q))
	}
	require.Equal(t, before, f.snapshot(), "bad input changes nothing")

	requireResult(t, si.Result_RESULT_OK, set(si.SetEntityStateRequest{Entity: "box1", SetPose: true, SetTwist: true, State: si.EntityState{Pose: target}}))
	rep = get("box1")
	requireResult(t, si.Result_RESULT_OK, rep.Result)
	require.InDeltaSlice(t, []float64{5, 6, 7, 0, 0, half, half}, poseSlice(rep.State.Pose), 1e-12)
	// Relative to another entity's frame: robot is at (0, 3, 0).
	rel := si.EntityState{Header: headerFrame("robot"), Pose: geometry_msgs.Pose{Position: geometry_msgs.Point{X: 1}, Orientation: geometry_msgs.Quaternion{W: 1}}}
	requireResult(t, si.Result_RESULT_OK, set(si.SetEntityStateRequest{Entity: "box2", SetPose: true, State: rel}))
	require.InDeltaSlice(t, []float64{1, 3, 0, 0, 0, 0, 1}, poseSlice(get("box2").State.Pose), 1e-12)
}

func headerFrame(f string) std_msgs.Header { return std_msgs.Header{FrameID: f} }

func poseSlice(p geometry_msgs.Pose) []float64 {
	return []float64{p.Position.X, p.Position.Y, p.Position.Z, p.Orientation.X, p.Orientation.Y, p.Orientation.Z, p.Orientation.W}
}

func TestServicesEntityInfoBoundsDelete(t *testing.T) {
	f := newSvcFixture(t)
	info := func(name string) si.GetEntityInfoResponse {
		return call[si.GetEntityInfoRequest, si.GetEntityInfoResponse](f, "get_entity_info", si.GetEntityInfoRequest{Entity: name})
	}
	rep := info("robot")
	requireResult(t, si.Result_RESULT_OK, rep.Result)
	require.Equal(t, si.EntityInfo{Category: si.EntityCategory{Category: si.EntityCategory_CATEGORY_ROBOT}, Tags: []string{"mobile", "red"}}, rep.Info)
	requireResult(t, si.Result_RESULT_NOT_FOUND, info("nothing").Result)

	setInfo := func(name string, i si.EntityInfo) si.Result {
		return call[si.SetEntityInfoRequest, si.SetEntityInfoResponse](f, "set_entity_info", si.SetEntityInfoRequest{Entity: name, Info: i}).Result
	}
	want := si.EntityInfo{Category: si.EntityCategory{Category: si.EntityCategory_CATEGORY_HUMAN}, Description: "a person", Tags: []string{"walking"}}
	before := f.snapshot()
	requireResult(t, si.Result_RESULT_NOT_FOUND, setInfo("nothing", want))
	requireResult(t, si.Result_RESULT_OPERATION_FAILED, setInfo("box2", si.EntityInfo{Category: si.EntityCategory{Category: 3}}))
	require.Equal(t, before, f.snapshot(), "bad input changes nothing")
	requireResult(t, si.Result_RESULT_OK, setInfo("box2", want))
	require.Equal(t, want, info("box2").Info)

	bounds := call[si.GetEntityBoundsRequest, si.GetEntityBoundsResponse](f, "get_entity_bounds", si.GetEntityBoundsRequest{Entity: "box1"})
	requireResult(t, si.Result_RESULT_OK, bounds.Result)
	require.Equal(t, si.Bounds{Type: si.Bounds_TYPE_BOX, Points: []geometry_msgs.Vector3{{X: -0.5, Y: -0.5, Z: -0.5}, {X: 0.5, Y: 0.5, Z: 0.5}}}, bounds.Bounds)
	bounds = call[si.GetEntityBoundsRequest, si.GetEntityBoundsResponse](f, "get_entity_bounds", si.GetEntityBoundsRequest{Entity: "robot"})
	requireResult(t, si.Result_RESULT_OK, bounds.Result)
	require.Equal(t, si.Bounds_TYPE_EMPTY, bounds.Bounds.Type)
	requireResult(t, si.Result_RESULT_NOT_FOUND, call[si.GetEntityBoundsRequest, si.GetEntityBoundsResponse](f, "get_entity_bounds", si.GetEntityBoundsRequest{Entity: "x"}).Result)

	del := func(name string) si.Result {
		return call[si.DeleteEntityRequest, si.DeleteEntityResponse](f, "delete_entity", si.DeleteEntityRequest{Entity: name}).Result
	}
	before = f.snapshot()
	requireResult(t, si.Result_RESULT_NOT_FOUND, del("nothing"))
	requireResult(t, si.Result_RESULT_NOT_FOUND, del("body"))
	require.Equal(t, before, f.snapshot(), "bad input changes nothing")
	requireResult(t, si.Result_RESULT_OK, del("box1"))
	require.Equal(t, []string{"box2", "robot"}, names(f, si.EntityFilters{}))
	f.r.do(func(m *ecm.Manager) {
		var links []Name
		ecm.EachRO2(m, func(_ ecm.Entity, n Name, _ Link) bool { links = append(links, n); return true })
		require.Equal(t, []Name{"base"}, links, "the model's link went with it")
	})
	requireResult(t, si.Result_RESULT_NOT_FOUND, del("box1"), "deleted already")
}

func simState(f *svcFixture) uint8 {
	f.t.Helper()
	rep := call[si.GetSimulationStateRequest, si.GetSimulationStateResponse](f, "get_simulation_state", si.GetSimulationStateRequest{})
	requireResult(f.t, si.Result_RESULT_OK, rep.Result)
	return rep.State.State
}

// Every transition of SimulationState.msg among STOPPED, PAUSED and PLAYING, the
// same-state calls, and the states that cannot be set.
func TestServicesSimulationState(t *testing.T) {
	f := newSvcFixture(t)
	set := func(state uint8) si.Result {
		return call[si.SetSimulationStateRequest, si.SetSimulationStateResponse](f, "set_simulation_state",
			si.SetSimulationStateRequest{State: si.SimulationState{State: state}}).Result
	}
	const (
		stopped = si.SimulationState_STATE_STOPPED
		paused  = si.SimulationState_STATE_PAUSED
		playing = si.SimulationState_STATE_PLAYING
	)
	require.Equal(t, stopped, simState(f), "loaded, paused, not stepped: stopped as Gazebo tells it")
	for _, bad := range []struct{ state, code uint8 }{
		{si.SimulationState_STATE_NO_WORLD, si.SetSimulationStateResponse_INCORRECT_TRANSITION},
		{si.SimulationState_STATE_LOADING_WORLD, si.SetSimulationStateResponse_INCORRECT_TRANSITION},
		{77, si.SetSimulationStateResponse_INCORRECT_TRANSITION},
		{stopped, si.SetSimulationStateResponse_ALREADY_IN_TARGET_STATE},
	} {
		requireResult(t, bad.code, set(bad.state))
		require.Equal(t, stopped, simState(f))
	}
	steps := []struct{ to, code uint8 }{
		{paused, si.Result_RESULT_OK}, // stopped -> paused: starts paused
		{paused, si.SetSimulationStateResponse_ALREADY_IN_TARGET_STATE},
		{stopped, si.Result_RESULT_OK}, // paused -> stopped
		{playing, si.Result_RESULT_OK}, // stopped -> playing
		{playing, si.SetSimulationStateResponse_ALREADY_IN_TARGET_STATE},
		{paused, si.Result_RESULT_OK},  // playing -> paused
		{playing, si.Result_RESULT_OK}, // paused -> playing
		{stopped, si.Result_RESULT_OK}, // playing -> stopped
	}
	for _, st := range steps {
		requireResult(t, st.code, set(st.to), "to "+itoa(int(st.to)))
		require.Equal(t, st.to, simState(f))
		if st.to == playing {
			require.NoError(t, f.r.waitUntil(context.Background(), func() bool { return f.r.last.Iterations > 2 }))
		}
	}
	info := f.r.Info()
	require.True(t, info.Paused)
	require.Zero(t, info.Iterations, "stopping resets")
}

// QUITTING ends the runner's Run, for good: the state stays QUITTING.
func TestServicesQuit(t *testing.T) {
	f := newSvcFixture(t)
	set := func(state uint8) si.Result {
		return call[si.SetSimulationStateRequest, si.SetSimulationStateResponse](f, "set_simulation_state",
			si.SetSimulationStateRequest{State: si.SimulationState{State: state}}).Result
	}
	requireResult(t, si.Result_RESULT_OK, set(si.SimulationState_STATE_PLAYING))
	requireResult(t, si.Result_RESULT_OK, set(si.SimulationState_STATE_QUITTING))
	require.Equal(t, si.SimulationState_STATE_QUITTING, simState(f))
	require.Eventually(t, func() bool { return !f.r.busy.Load() }, 5*time.Second, time.Millisecond, "Run returned")
	requireResult(t, si.SetSimulationStateResponse_INCORRECT_TRANSITION, set(si.SimulationState_STATE_PLAYING))
	requireResult(t, si.SetSimulationStateResponse_ALREADY_IN_TARGET_STATE, set(si.SimulationState_STATE_QUITTING))
}

func TestServicesStepAndReset(t *testing.T) {
	f := newSvcFixture(t)
	step := func(n uint64) si.Result {
		return call[si.StepSimulationRequest, si.StepSimulationResponse](f, "step_simulation", si.StepSimulationRequest{Steps: n}).Result
	}
	reset := func(scope uint8) si.Result {
		return call[si.ResetSimulationRequest, si.ResetSimulationResponse](f, "reset_simulation", si.ResetSimulationRequest{Scope: scope}).Result
	}
	requireResult(t, si.Result_RESULT_OK, step(1))
	require.Equal(t, uint64(1), f.r.Info().Iterations, "the reply comes after the step")
	requireResult(t, si.Result_RESULT_OK, step(25))
	require.Equal(t, uint64(26), f.r.Info().Iterations)
	require.Equal(t, si.SimulationState_STATE_PAUSED, simState(f))
	requireResult(t, si.Result_RESULT_OPERATION_FAILED, step(0))
	requireResult(t, si.Result_RESULT_OPERATION_FAILED, step(1<<64-5), "a negative count")
	require.Equal(t, uint64(26), f.r.Info().Iterations, "bad input takes no step")

	requireResult(t, si.Result_RESULT_OK, call[si.SetEntityStateRequest, si.SetEntityStateResponse](f, "set_entity_state", si.SetEntityStateRequest{
		Entity: "box1", SetPose: true, State: si.EntityState{Pose: geometry_msgs.Pose{Orientation: geometry_msgs.Quaternion{W: 1}}},
	}).Result)
	for _, scope := range []uint8{8, 9, 128} {
		requireResult(t, si.Result_RESULT_FEATURE_UNSUPPORTED, reset(scope), "scope "+itoa(int(scope)))
	}
	require.Equal(t, uint64(26), f.r.Info().Iterations, "an unsupported scope resets nothing")
	pose := func(name string) geometry_msgs.Point {
		rep := call[si.GetEntityStateRequest, si.GetEntityStateResponse](f, "get_entity_state", si.GetEntityStateRequest{Entity: name})
		requireResult(t, si.Result_RESULT_OK, rep.Result, name)
		return rep.State.Pose.Position
	}
	spawned := call[si.SpawnEntityRequest, si.SpawnEntityResponse](f, "spawn_entity", si.SpawnEntityRequest{
		Name: "extra", EntityResource: si.Resource{ResourceString: `<model name="x"><link name="l"/></model>`},
		InitialPose: geometry_msgs.PoseStamped{Pose: geometry_msgs.Pose{Position: geometry_msgs.Point{Y: 9}, Orientation: geometry_msgs.Quaternion{W: 1}}},
	})
	requireResult(t, si.Result_RESULT_OK, spawned.Result)
	requireResult(t, si.Result_RESULT_OK, step(2))

	// STATE: the poses of the start again; time and spawned entities stay.
	requireResult(t, si.Result_RESULT_OK, reset(si.ResetSimulationRequest_SCOPE_STATE))
	require.Equal(t, geometry_msgs.Point{X: 1}, pose("box1"))
	require.Equal(t, geometry_msgs.Point{Y: 9}, pose("extra"))
	require.Equal(t, uint64(28), f.r.Info().Iterations)
	// TIME: time and iterations at the start; the entities as they are.
	requireResult(t, si.Result_RESULT_OK, call[si.SetEntityStateRequest, si.SetEntityStateResponse](f, "set_entity_state", si.SetEntityStateRequest{
		Entity: "box1", SetPose: true, State: si.EntityState{Pose: geometry_msgs.Pose{Position: geometry_msgs.Point{Z: 3}, Orientation: geometry_msgs.Quaternion{W: 1}}},
	}).Result)
	requireResult(t, si.Result_RESULT_OK, reset(si.ResetSimulationRequest_SCOPE_TIME))
	require.Zero(t, f.r.Info().Iterations)
	require.Zero(t, f.r.Info().SimTime)
	require.Equal(t, geometry_msgs.Point{Z: 3}, pose("box1"))
	require.Equal(t, si.SimulationState_STATE_STOPPED, simState(f), "paused at the start of time")
	requireResult(t, si.Result_RESULT_OK, step(4))
	require.Equal(t, uint64(4), f.r.Info().Iterations, "steps count again from the start")
	// STATE|SPAWNED: spawned entities gone, the others at their start poses, time goes on.
	requireResult(t, si.Result_RESULT_OK, reset(si.ResetSimulationRequest_SCOPE_STATE|si.ResetSimulationRequest_SCOPE_SPAWNED))
	require.Equal(t, []string{"box1", "box2", "robot"}, names(f, si.EntityFilters{}))
	require.Equal(t, geometry_msgs.Point{X: 1}, pose("box1"))
	require.Equal(t, uint64(4), f.r.Info().Iterations)
	for _, scope := range []uint8{si.ResetSimulationRequest_SCOPE_DEFAULT, si.ResetSimulationRequest_SCOPE_ALL, 7} {
		requireResult(t, si.Result_RESULT_OK, step(3))
		requireResult(t, si.Result_RESULT_OK, reset(scope))
		info := f.r.Info()
		require.Zero(t, info.Iterations)
		require.Zero(t, info.SimTime)
		require.Equal(t, si.SimulationState_STATE_STOPPED, simState(f), "paused and reset is stopped")
		rep := call[si.GetEntityStateRequest, si.GetEntityStateResponse](f, "get_entity_state", si.GetEntityStateRequest{Entity: "box1"})
		require.Equal(t, geometry_msgs.Point{X: 1}, rep.State.Pose.Position, "the pose is the initial one again")
	}

	requireResult(t, si.Result_RESULT_OK, call[si.SetSimulationStateRequest, si.SetSimulationStateResponse](f, "set_simulation_state",
		si.SetSimulationStateRequest{State: si.SimulationState{State: si.SimulationState_STATE_PLAYING}}).Result)
	requireResult(t, si.Result_RESULT_OPERATION_FAILED, step(1), "not paused")
}

const crate = `<sdf version="1.9"><model name="crate"><pose>9 9 9 0 0 0</pose>
  <link name="lid"><pose>0 0 1 0 0 0</pose></link></model></sdf>`

func TestServicesSpawn(t *testing.T) {
	f := newSvcFixture(t)
	spawn := func(q si.SpawnEntityRequest) si.SpawnEntityResponse {
		return call[si.SpawnEntityRequest, si.SpawnEntityResponse](f, "spawn_entity", q)
	}
	at := func(x float64) geometry_msgs.PoseStamped {
		return geometry_msgs.PoseStamped{Pose: geometry_msgs.Pose{Position: geometry_msgs.Point{X: x}, Orientation: geometry_msgs.Quaternion{W: 1}}}
	}
	sdf := func(s string) si.Resource { return si.Resource{ResourceString: s} }
	before := f.snapshot()
	for _, bad := range []struct {
		q    si.SpawnEntityRequest
		code uint8
	}{
		{si.SpawnEntityRequest{Name: "a", InitialPose: at(0)}, si.SpawnEntityResponse_NO_RESOURCE},
		{si.SpawnEntityRequest{Name: "a", EntityResource: si.Resource{URI: "model://crate"}, InitialPose: at(0)}, si.SpawnEntityResponse_RESOURCE_PARSE_ERROR},
		{si.SpawnEntityRequest{Name: "a", EntityResource: si.Resource{URI: "https://example.com/crate.sdf"}, InitialPose: at(0)}, si.SpawnEntityResponse_UNSUPPORTED_FORMAT},
		{si.SpawnEntityRequest{Name: "a", EntityResource: sdf("<sdf><model name='x'>"), InitialPose: at(0)}, si.SpawnEntityResponse_RESOURCE_PARSE_ERROR},
		{si.SpawnEntityRequest{Name: "a", EntityResource: sdf("not xml at all"), InitialPose: at(0)}, si.SpawnEntityResponse_RESOURCE_PARSE_ERROR},
		{si.SpawnEntityRequest{Name: "a", EntityResource: sdf("<sdf><model name='x'><link name='l'><pose>1 2</pose></link></model></sdf>"), InitialPose: at(0)}, si.SpawnEntityResponse_RESOURCE_PARSE_ERROR},
		{si.SpawnEntityRequest{Name: "a", EntityResource: sdf("<robot name='r'/>"), InitialPose: at(0)}, si.SpawnEntityResponse_UNSUPPORTED_FORMAT},
		{si.SpawnEntityRequest{Name: "a", EntityResource: sdf("<model name='p'><plugin name='x'/></model>"), InitialPose: at(0)}, si.Result_RESULT_FEATURE_UNSUPPORTED},
		{si.SpawnEntityRequest{Name: "box1", EntityResource: sdf(crate), InitialPose: at(0)}, si.SpawnEntityResponse_NAME_NOT_UNIQUE},
		{si.SpawnEntityRequest{Name: "a::b", EntityResource: sdf(crate), InitialPose: at(0)}, si.SpawnEntityResponse_NAME_INVALID},
		{si.SpawnEntityRequest{EntityResource: sdf("<model><link name='l'/></model>"), InitialPose: at(0)}, si.SpawnEntityResponse_NAME_INVALID},
		{si.SpawnEntityRequest{Name: "a", EntityNamespace: "bad ns", EntityResource: sdf(crate), InitialPose: at(0)}, si.SpawnEntityResponse_NAMESPACE_INVALID},
		{si.SpawnEntityRequest{Name: "a", EntityResource: sdf(crate), InitialPose: geometry_msgs.PoseStamped{}}, si.SpawnEntityResponse_INVALID_POSE},
		{si.SpawnEntityRequest{Name: "a", EntityResource: sdf(crate), InitialPose: geometry_msgs.PoseStamped{Header: headerFrame("mars"), Pose: at(0).Pose}}, si.SpawnEntityResponse_INVALID_POSE},
	} {
		rep := spawn(bad.q)
		requireResult(t, bad.code, rep.Result, bad.q.EntityResource.ResourceString)
		require.Empty(t, rep.EntityName)
	}
	require.Equal(t, before, f.snapshot(), "bad input changes nothing")

	rep := spawn(si.SpawnEntityRequest{EntityResource: sdf(crate), EntityNamespace: "/warehouse", InitialPose: at(4)})
	requireResult(t, si.Result_RESULT_OK, rep.Result)
	require.Equal(t, "crate", rep.EntityName, "the model's own name")
	rep = spawn(si.SpawnEntityRequest{Name: "crate", AllowRenaming: true, EntityResource: sdf(crate), InitialPose: geometry_msgs.PoseStamped{Header: headerFrame("robot"), Pose: at(1).Pose}})
	requireResult(t, si.Result_RESULT_OK, rep.Result)
	require.Equal(t, "crate_1", rep.EntityName, "renamed")
	require.Equal(t, []string{"box1", "box2", "robot", "crate", "crate_1"}, names(f, si.EntityFilters{}), "in entity order")
	st := call[si.GetEntityStateRequest, si.GetEntityStateResponse](f, "get_entity_state", si.GetEntityStateRequest{Entity: "crate_1"})
	require.Equal(t, geometry_msgs.Point{X: 1, Y: 3}, st.State.Pose.Position, "the initial pose, relative to robot")

	many := call[si.SpawnEntitiesRequest, si.SpawnEntitiesResponse](f, "spawn_entities", si.SpawnEntitiesRequest{SpawnRequests: []si.SpawnEntity{
		{Name: "c1", EntityResource: sdf(crate), InitialPose: at(1)},
		{Name: "box2", EntityResource: sdf(crate), InitialPose: at(2)},
		{Name: "c3", EntityResource: sdf(crate), InitialPose: at(3)},
	}})
	requireResult(t, si.SpawnEntitiesResponse_ENTITIES_SPAWN_FAILED, many.Result)
	require.Len(t, many.Results, 3)
	requireResult(t, si.Result_RESULT_OK, many.Results[0].Result)
	requireResult(t, si.SpawnResult_NAME_NOT_UNIQUE, many.Results[1].Result)
	requireResult(t, si.Result_RESULT_OK, many.Results[2].Result)
	require.Equal(t, "c3", many.Results[2].EntityName)
	many = call[si.SpawnEntitiesRequest, si.SpawnEntitiesResponse](f, "spawn_entities", si.SpawnEntitiesRequest{SpawnRequests: []si.SpawnEntity{
		{Name: "c4", EntityResource: sdf(crate), InitialPose: at(4)},
	}})
	requireResult(t, si.Result_RESULT_OK, many.Result)
	require.Equal(t, []string{"box1", "box2", "robot", "crate", "crate_1", "c1", "c3", "c4"}, names(f, si.EntityFilters{}))

	// SCOPE_SPAWNED de-spawns them and nothing else; a whole reset removes what was
	// spawned after the first step.
	reset := func(scope uint8) si.Result {
		return call[si.ResetSimulationRequest, si.ResetSimulationResponse](f, "reset_simulation", si.ResetSimulationRequest{Scope: scope}).Result
	}
	requireResult(t, si.Result_RESULT_OK, call[si.StepSimulationRequest, si.StepSimulationResponse](f, "step_simulation", si.StepSimulationRequest{Steps: 2}).Result)
	requireResult(t, si.Result_RESULT_OK, reset(si.ResetSimulationRequest_SCOPE_SPAWNED))
	require.Equal(t, []string{"box1", "box2", "robot"}, names(f, si.EntityFilters{}))
	require.Equal(t, uint64(2), f.r.Info().Iterations, "time goes on")
	requireResult(t, si.Result_RESULT_OK, spawn(si.SpawnEntityRequest{Name: "c5", EntityResource: sdf(crate), InitialPose: at(5)}).Result)
	requireResult(t, si.Result_RESULT_OK, reset(si.ResetSimulationRequest_SCOPE_ALL))
	require.Equal(t, []string{"box1", "box2", "robot"}, names(f, si.EntityFilters{}))
	requireResult(t, si.Result_RESULT_OK, reset(si.ResetSimulationRequest_SCOPE_SPAWNED), "nothing to de-spawn")
	require.Equal(t, []string{"box1", "box2", "robot"}, names(f, si.EntityFilters{}))
}

// Without a world: NO_WORLD, which cannot be left by SetSimulationState.
func TestServicesNoWorld(t *testing.T) {
	r, err := NewRunner(ecm.New(), Config{Paused: true, PausedPeriod: time.Millisecond})
	require.NoError(t, err)
	f := serveRunner(t, r)
	require.Equal(t, si.SimulationState_STATE_NO_WORLD, simState(f))
	for _, to := range []uint8{si.SimulationState_STATE_PLAYING, si.SimulationState_STATE_PAUSED, si.SimulationState_STATE_STOPPED} {
		requireResult(t, si.SetSimulationStateResponse_INCORRECT_TRANSITION, call[si.SetSimulationStateRequest, si.SetSimulationStateResponse](f, "set_simulation_state",
			si.SetSimulationStateRequest{State: si.SimulationState{State: to}}).Result)
	}
	require.True(t, f.r.Paused(), "nothing changed")
	rep := call[si.GetCurrentWorldRequest, si.GetCurrentWorldResponse](f, "get_current_world", si.GetCurrentWorldRequest{})
	requireResult(t, si.GetCurrentWorldResponse_NO_WORLD_LOADED, rep.Result)
}

func TestServicesCurrentWorld(t *testing.T) {
	f := newSvcFixture(t)
	rep := call[si.GetCurrentWorldRequest, si.GetCurrentWorldResponse](f, "get_current_world", si.GetCurrentWorldRequest{})
	requireResult(t, si.Result_RESULT_OK, rep.Result)
	require.Equal(t, "w", rep.World.Name)
}

// The SimulateSteps action, as an rclcpp action client uses it: send_goal, feedback
// after the steps, get_result, cancel_goal and the status topic.
// SimulateSteps takes its steps with feedback after each, refuses what the action
// aborts, and pauses when its context ends.
func TestServicesSimulateSteps(t *testing.T) {
	f := newSvcFixture(t)
	ctx := context.Background()
	var fb []uint64
	done, res, err := f.s.SimulateSteps(ctx, 5, func(n uint64) { fb = append(fb, n) })
	require.NoError(t, err)
	requireResult(t, si.Result_RESULT_OK, res)
	require.Equal(t, uint64(5), done)
	require.Equal(t, uint64(5), f.r.Info().Iterations)
	require.NotEmpty(t, fb)
	require.True(t, slices.IsSorted(fb), "feedback in order: %v", fb)
	require.Equal(t, uint64(5), fb[len(fb)-1], "feedback up to the last step")

	for _, bad := range []uint64{0, 1<<64 - 1} {
		done, res, err = f.s.SimulateSteps(ctx, bad, nil)
		require.NoError(t, err)
		require.Zero(t, done)
		requireResult(t, si.Result_RESULT_OPERATION_FAILED, res, strconv.FormatUint(bad, 10))
	}
	require.Equal(t, uint64(5), f.r.Info().Iterations, "refused counts take no step")

	cctx, cancel := context.WithCancel(ctx)
	_, res, err = f.s.SimulateSteps(cctx, 1<<40, func(n uint64) {
		if n >= 2 {
			cancel()
		}
	})
	require.ErrorIs(t, err, context.Canceled)
	requireResult(t, si.Result_RESULT_OPERATION_FAILED, res)
	require.Equal(t, si.SimulationState_STATE_PAUSED, simState(f), "canceled: paused again")

	requireResult(t, si.Result_RESULT_OK, call[si.SetSimulationStateRequest, si.SetSimulationStateResponse](f, "set_simulation_state",
		si.SetSimulationStateRequest{State: si.SimulationState{State: si.SimulationState_STATE_PLAYING}}).Result)
	_, res, err = f.s.SimulateSteps(ctx, 3, nil)
	require.NoError(t, err)
	requireResult(t, si.Result_RESULT_OPERATION_FAILED, res, "not paused")
}

func TestServicesLoadUnloadWorld(t *testing.T) {
	f := newSvcFixture(t)
	load := func(res si.Resource, strict bool) si.LoadWorldResponse {
		return call[si.LoadWorldRequest, si.LoadWorldResponse](f, "load_world", si.LoadWorldRequest{WorldResource: res, FailOnUnsupportedElement: strict})
	}
	unload := func() si.Result {
		return call[si.UnloadWorldRequest, si.UnloadWorldResponse](f, "unload_world", si.UnloadWorldRequest{}).Result
	}
	current := func() si.GetCurrentWorldResponse {
		return call[si.GetCurrentWorldRequest, si.GetCurrentWorldResponse](f, "get_current_world", si.GetCurrentWorldRequest{})
	}
	sdf := func(s string) si.Resource { return si.Resource{ResourceString: s} }
	const w2 = `<sdf version="1.9"><world name="w2"><physics type="ode"/><model name="m1"><link name="l"/></model></world></sdf>`

	requireResult(t, si.Result_RESULT_OK, call[si.StepSimulationRequest, si.StepSimulationResponse](f, "step_simulation", si.StepSimulationRequest{Steps: 2}).Result)
	before := f.snapshot()
	for _, bad := range []struct {
		res    si.Resource
		strict bool
		code   uint8
	}{
		{si.Resource{}, false, si.LoadWorldResponse_NO_RESOURCE},
		{si.Resource{URI: "file:///worlds/w2.sdf"}, false, si.LoadWorldResponse_RESOURCE_PARSE_ERROR},
		{si.Resource{URI: "https://example.com/w2.sdf"}, false, si.LoadWorldResponse_UNSUPPORTED_FORMAT},
		{sdf("<robot name='r'/>"), false, si.LoadWorldResponse_UNSUPPORTED_FORMAT},
		{sdf("<sdf><world name='x'>"), false, si.LoadWorldResponse_RESOURCE_PARSE_ERROR},
		{sdf("<sdf><world><model name='m'/></world></sdf>"), false, si.LoadWorldResponse_RESOURCE_PARSE_ERROR},
		{sdf(w2), true, si.LoadWorldResponse_UNSUPPORTED_ELEMENTS},
	} {
		rep := load(bad.res, bad.strict)
		requireResult(t, bad.code, rep.Result, bad.res.ResourceString)
	}
	require.Equal(t, before, f.snapshot(), "bad input changes nothing")
	require.Equal(t, uint64(2), f.r.Info().Iterations)
	require.Equal(t, "w", current().World.Name)

	rep := load(sdf(w2), false)
	requireResult(t, si.Result_RESULT_OK, rep.Result)
	require.Equal(t, "w2", rep.World.Name)
	require.Equal(t, []string{"m1"}, names(f, si.EntityFilters{}))
	require.Equal(t, si.SimulationState_STATE_STOPPED, simState(f), "a loaded world is stopped")
	require.Equal(t, sdf(w2), current().World.WorldResource)
	requireResult(t, si.Result_RESULT_OK, call[si.StepSimulationRequest, si.StepSimulationResponse](f, "step_simulation", si.StepSimulationRequest{Steps: 3}).Result)
	requireResult(t, si.Result_RESULT_OK, call[si.ResetSimulationRequest, si.ResetSimulationResponse](f, "reset_simulation", si.ResetSimulationRequest{}).Result)
	require.Equal(t, []string{"m1"}, names(f, si.EntityFilters{}), "the loaded world is the one a reset returns to")

	requireResult(t, si.Result_RESULT_OK, unload())
	require.Equal(t, si.SimulationState_STATE_NO_WORLD, simState(f))
	require.Empty(t, names(f, si.EntityFilters{}))
	requireResult(t, si.UnloadWorldResponse_NO_WORLD_LOADED, unload())
	requireResult(t, si.GetCurrentWorldResponse_NO_WORLD_LOADED, current().Result)
	requireResult(t, si.Result_RESULT_OK, call[si.ResetSimulationRequest, si.ResetSimulationResponse](f, "reset_simulation", si.ResetSimulationRequest{}).Result)
	require.Equal(t, si.SimulationState_STATE_NO_WORLD, simState(f), "a reset brings no world back")

	requireResult(t, si.Result_RESULT_OK, load(sdf(servicesWorld), true).Result)
	require.Equal(t, []string{"box1", "box2", "robot"}, names(f, si.EntityFilters{}))
	require.Equal(t, "w", current().World.Name)
}

// The frames of the world are its named poses.
func TestServicesNamedPoses(t *testing.T) {
	f := newSvcFixture(t)
	get := func(tags si.TagsFilter) si.GetNamedPosesResponse {
		return call[si.GetNamedPosesRequest, si.GetNamedPosesResponse](f, "get_named_poses", si.GetNamedPosesRequest{Tags: tags})
	}
	rep := get(si.TagsFilter{})
	requireResult(t, si.Result_RESULT_OK, rep.Result)
	require.Equal(t, []si.NamedPose{
		{Name: "dock", Tags: []string{"spawn"}, Pose: geometry_msgs.Pose{Position: geometry_msgs.Point{X: 4, Y: 5}, Orientation: geometry_msgs.Quaternion{W: 1}}},
		{Name: "gate", Pose: geometry_msgs.Pose{Orientation: geometry_msgs.Quaternion{W: 1}}},
	}, rep.Poses)
	rep = get(si.TagsFilter{Tags: []string{"spawn", "x"}})
	requireResult(t, si.Result_RESULT_OK, rep.Result)
	require.Len(t, rep.Poses, 1)
	require.Equal(t, "dock", rep.Poses[0].Name)
	rep = get(si.TagsFilter{Tags: []string{"spawn", "x"}, FilterMode: si.TagsFilter_FILTER_MODE_ALL})
	requireResult(t, si.Result_RESULT_OK, rep.Result)
	require.Empty(t, rep.Poses)
	requireResult(t, si.Result_RESULT_OPERATION_FAILED, get(si.TagsFilter{FilterMode: 2}).Result)
}

// resourceDir makes a resource directory as Gazebo's are laid out: a model directory
// with model.sdf and model.config, a model file, a world file and a file of neither.
func resourceDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name, content string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	write("crate/model.sdf", `<sdf version="1.9"><model name="crate"><link name="body"/></model></sdf>`)
	write("crate/model.config", `<model><name>crate</name><description> A wooden crate. </description></model>`)
	write("barrel.sdf", `<model name="barrel"><link name="l"/></model>`)
	write("yard.sdf", `<sdf version="1.9"><world name="yard"><model name="post"><link name="l"/></model></world></sdf>`)
	write("notes.sdf", `not sdf`)
	return dir
}

// Models and worlds by uri: GetSpawnables and GetAvailableWorlds list the resource
// path, SpawnEntity and LoadWorld read what they list.
func TestServicesResources(t *testing.T) {
	dir := resourceDir(t)
	f := newSvcFixture(t, dir)
	fileURI := func(name string) string { return "file://" + filepath.ToSlash(filepath.Join(dir, name)) }

	sp := call[si.GetSpawnablesRequest, si.GetSpawnablesResponse](f, "get_spawnables", si.GetSpawnablesRequest{Sources: []string{filepath.Join(dir, "missing")}})
	requireResult(t, si.Result_RESULT_OK, sp.Result)
	require.Contains(t, sp.Result.ErrorMessage, "missing", "an unreadable source is named, not fatal")
	require.Equal(t, []si.Spawnable{
		{EntityResource: si.Resource{URI: fileURI("barrel.sdf")}},
		{EntityResource: si.Resource{URI: "model://crate"}, Description: "A wooden crate."},
	}, sp.Spawnables)

	at := geometry_msgs.PoseStamped{Pose: geometry_msgs.Pose{Position: geometry_msgs.Point{Y: 7}, Orientation: geometry_msgs.Quaternion{W: 1}}}
	for name, uri := range map[string]string{"c1": "model://crate", "b1": fileURI("barrel.sdf"), "b2": "barrel.sdf"} {
		rep := call[si.SpawnEntityRequest, si.SpawnEntityResponse](f, "spawn_entity", si.SpawnEntityRequest{Name: name, EntityResource: si.Resource{URI: uri}, InitialPose: at})
		requireResult(t, si.Result_RESULT_OK, rep.Result, uri)
	}
	require.Equal(t, []string{"b1", "b2", "box1", "box2", "c1", "robot"}, sortedNames(f))
	rep := call[si.SpawnEntityRequest, si.SpawnEntityResponse](f, "spawn_entity", si.SpawnEntityRequest{Name: "y", EntityResource: si.Resource{URI: fileURI("yard.sdf")}, InitialPose: at})
	requireResult(t, si.SpawnEntityResponse_RESOURCE_PARSE_ERROR, rep.Result, "a world is no model")

	worlds := func(q si.GetAvailableWorldsRequest) si.GetAvailableWorldsResponse {
		return call[si.GetAvailableWorldsRequest, si.GetAvailableWorldsResponse](f, "get_available_worlds", q)
	}
	wr := worlds(si.GetAvailableWorldsRequest{})
	requireResult(t, si.Result_RESULT_OK, wr.Result)
	require.Equal(t, []si.WorldResource{{Name: "yard", WorldResource: si.Resource{URI: fileURI("yard.sdf")}}}, wr.Worlds)
	requireResult(t, si.Result_RESULT_OPERATION_FAILED, worlds(si.GetAvailableWorldsRequest{AdditionalSources: []string{"/nonexistent"}}).Result)
	wr = worlds(si.GetAvailableWorldsRequest{AdditionalSources: []string{"/nonexistent"}, ContinueOnError: true})
	requireResult(t, si.Result_RESULT_OK, wr.Result)
	require.Len(t, wr.Worlds, 1)
	requireResult(t, si.Result_RESULT_FEATURE_UNSUPPORTED, worlds(si.GetAvailableWorldsRequest{Filter: si.TagsFilter{Tags: []string{"indoor"}}}).Result)

	load := call[si.LoadWorldRequest, si.LoadWorldResponse](f, "load_world", si.LoadWorldRequest{WorldResource: si.Resource{URI: fileURI("yard.sdf")}})
	requireResult(t, si.Result_RESULT_OK, load.Result)
	require.Equal(t, si.WorldResource{Name: "yard", WorldResource: si.Resource{URI: fileURI("yard.sdf")}}, load.World)
	require.Equal(t, []string{"post"}, sortedNames(f))
	require.NoError(t, os.RemoveAll(dir))
	requireResult(t, si.GetAvailableWorldsResponse_DEFAULT_SOURCES_FAILED, worlds(si.GetAvailableWorldsRequest{}).Result)
}

func sortedNames(f *svcFixture) []string {
	n := names(f, si.EntityFilters{})
	slices.Sort(n)
	return n
}

// An SDF frame is a point: GetNamedPoseBounds knows the named poses and has no bounds.
func TestServicesNamedPoseBounds(t *testing.T) {
	f := newSvcFixture(t)
	get := func(name string) si.GetNamedPoseBoundsResponse {
		return call[si.GetNamedPoseBoundsRequest, si.GetNamedPoseBoundsResponse](f, "get_named_pose_bounds", si.GetNamedPoseBoundsRequest{Name: name})
	}
	requireResult(t, si.Result_RESULT_NOT_FOUND, get("nowhere").Result)
	requireResult(t, si.Result_RESULT_FEATURE_UNSUPPORTED, get("dock").Result)
}
