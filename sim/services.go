package sim

import (
	"context"
	"errors"
	"math"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/ros/builtin_interfaces"
	"github.com/ddsgo/ddsgo/ros/geometry_msgs"
	si "github.com/ddsgo/ddsgo/ros/simulation_interfaces"
	"github.com/ddsgo/ddsgo/ros/std_msgs"
)

// stepWait bounds how long a service waits for the runner to take a step that applies
// its request (a reset, a removal).
const stepWait = 5 * time.Second

// Services are the services of ROS 2 simulation_interfaces (2.1.0) for the world of a
// Runner, as Go methods, one per service, each taking the service's request and giving
// its reply: GetSimulatorFeatures, GetSimulationState, SetSimulationState,
// StepSimulation, ResetSimulation, GetEntities, GetEntitiesStates, GetEntityState,
// SetEntityState, GetEntityInfo, SetEntityInfo, GetEntityBounds, DeleteEntity,
// SpawnEntity, SpawnEntities, GetNamedPoses (the <frame> elements of the world),
// GetNamedPoseBounds, GetSpawnables, GetAvailableWorlds (the resource path:
// NewServices), GetCurrentWorld, LoadWorld and UnloadWorld, and SimulateSteps, the
// work of the SimulateSteps action. simdds.NewServices serves them over DDS as
// Gazebo's bridge does. Features that are not supported are not listed by
// GetSimulatorFeatures; every reply carries a result code set on purpose.
//
// The entities of the services are the models whose parent is the world (or that
// have no parent), named by their Name, as in Gazebo; without a World entity the
// state is NO_WORLD. Requests are applied between steps (the methods never touch
// the Manager while a step runs); a reset, a stop and a removal take effect in the
// runner's next step, which the reply waits for. Poses are in the world frame;
// velocities and accelerations are not simulated, so they read as zero and setting
// a non-zero one is FEATURE_UNSUPPORTED.
//
// Bad input changes nothing and gets the code of its .srv, or else
// RESULT_OPERATION_FAILED with a message (a malformed filter or category);
// RESULT_FEATURE_UNSUPPORTED means an option this simulator does not have. The
// methods are safe for concurrent use.
type Services struct {
	r *Runner

	mu       sync.Mutex // serializes the simulation state changes
	leftStop bool       // paused out of STATE_STOPPED, still at iteration 0

	spawned   []spawnedEntity  // used between steps only (in Runner.do)
	current   si.WorldResource // the world LoadWorld loaded; guarded by mu
	resources []string         // the resource path after $GZ_SIM_RESOURCE_PATH
}

// NewServices returns the simulation_interfaces services of r's world.
// resourcePath are the directories in which uri resources are looked up (model://NAME as
// NAME/model.sdf or NAME.sdf, and relative paths) and which GetSpawnables and
// GetAvailableWorlds list, after those of $GZ_SIM_RESOURCE_PATH, as in Gazebo.
func NewServices(r *Runner, resourcePath ...string) (*Services, error) {
	if r == nil {
		return nil, errors.New("sim: nil runner")
	}
	return &Services{r: r, resources: slices.Clone(resourcePath)}, nil
}

// spawnedEntity is an entity spawned by the services, for ResetSimulation's
// SCOPE_SPAWNED; resets says how many resets the runner had taken then (a reset
// forgets it: entities are made anew).
type spawnedEntity struct {
	e      ecm.Entity
	name   string // checked too: a removed entity's id may be reused
	resets uint64
}

// WorldFrame is the name of the world's frame: the frame of the poses of the
// entities whose parent is the world, in the services and in /tf.
const WorldFrame = "world"

// rosTime converts a simulation time (from the start) to builtin_interfaces/Time.
func rosTime(d time.Duration) builtin_interfaces.Time {
	return builtin_interfaces.Time{Sec: int32(d / time.Second), Nanosec: uint32(d % time.Second)}
}

// features are what the services support, truthfully: spawning and loading take SDF
// only; named poses have no bounds, worlds no tags.
var features = []uint8{
	si.SimulatorFeatures_SPAWNING,
	si.SimulatorFeatures_DELETING,
	si.SimulatorFeatures_NAMED_POSES,
	si.SimulatorFeatures_ENTITY_TAGS,
	si.SimulatorFeatures_ENTITY_BOUNDS,
	si.SimulatorFeatures_ENTITY_BOUNDS_BOX,
	si.SimulatorFeatures_ENTITY_BOUNDS_CONVEX,
	si.SimulatorFeatures_ENTITY_CATEGORIES,
	si.SimulatorFeatures_SPAWNING_RESOURCE_STRING,
	si.SimulatorFeatures_SPAWNABLES,
	si.SimulatorFeatures_ENTITY_STATE_GETTING,
	si.SimulatorFeatures_ENTITY_STATE_SETTING,
	si.SimulatorFeatures_ENTITY_INFO_GETTING,
	si.SimulatorFeatures_ENTITY_INFO_SETTING,
	si.SimulatorFeatures_SIMULATION_RESET,
	si.SimulatorFeatures_SIMULATION_RESET_TIME,
	si.SimulatorFeatures_SIMULATION_RESET_STATE,
	si.SimulatorFeatures_SIMULATION_RESET_SPAWNED,
	si.SimulatorFeatures_SIMULATION_STATE_GETTING,
	si.SimulatorFeatures_SIMULATION_STATE_SETTING,
	si.SimulatorFeatures_SIMULATION_STATE_PAUSE,
	si.SimulatorFeatures_STEP_SIMULATION_SINGLE,
	si.SimulatorFeatures_STEP_SIMULATION_MULTIPLE,
	si.SimulatorFeatures_STEP_SIMULATION_ACTION,
	si.SimulatorFeatures_SPAWNING_ENTITIES,
	si.SimulatorFeatures_WORLD_LOADING,
	si.SimulatorFeatures_WORLD_RESOURCE_STRING,
	si.SimulatorFeatures_WORLD_UNLOADING,
	si.SimulatorFeatures_WORLD_INFO_GETTING,
	si.SimulatorFeatures_AVAILABLE_WORLDS,
}

// GetSimulatorFeatures answers get_simulator_features: what the services support.
func (s *Services) GetSimulatorFeatures(context.Context, *si.GetSimulatorFeaturesRequest) si.GetSimulatorFeaturesResponse {
	fs := make([]uint16, len(features))
	for i, f := range features {
		fs[i] = uint16(f)
	}
	return si.GetSimulatorFeaturesResponse{Features: si.SimulatorFeatures{
		Features:     fs,
		SpawnFormats: []string{"sdf"},
		CustomInfo: "ddsgo sim: SDF models and worlds in resource_string or by uri (file://, model://, " +
			"paths in the resource path, " + resourcePathEnv + "; no plugins); poses only " +
			"(velocities are not simulated)",
	}}
}

// resultOK and failed make Results.
func resultOK() si.Result { return si.Result{Result: si.Result_RESULT_OK} }

func failed(code uint8, msg string) si.Result { return si.Result{Result: code, ErrorMessage: msg} }

// onEntity runs fn in the runner on the entity of the services named name and returns
// OK, or not found when there is no such entity.
func (s *Services) onEntity(name string, fn func(m *ecm.Manager, e ecm.Entity)) si.Result {
	var res si.Result
	s.r.do(func(m *ecm.Manager) {
		e, ok := topNamed(m, name)
		if !ok {
			res = notFound(name)
			return
		}
		fn(m, e)
		res = resultOK()
	})
	return res
}

// simState returns the state of the simulation, as Gazebo's bridge tells it: paused at
// iteration 0 (loaded or reset, not stepped) is STOPPED; without a World entity it is
// NO_WORLD. Called with s.mu held.
func (s *Services) simState() uint8 {
	var world bool
	s.r.do(func(m *ecm.Manager) { world = worldOf(m) != ecm.Null })
	switch {
	case s.r.isQuitting():
		return si.SimulationState_STATE_QUITTING
	case !world:
		return si.SimulationState_STATE_NO_WORLD
	case !s.r.Paused():
		return si.SimulationState_STATE_PLAYING
	case s.r.Info().Iterations == 0 && !s.leftStop:
		return si.SimulationState_STATE_STOPPED
	}
	return si.SimulationState_STATE_PAUSED
}

// GetSimulationState answers get_simulation_state.
func (s *Services) GetSimulationState(context.Context, *si.GetSimulationStateRequest) si.GetSimulationStateResponse {
	s.mu.Lock()
	defer s.mu.Unlock()
	return si.GetSimulationStateResponse{State: si.SimulationState{State: s.simState()}, Result: resultOK()}
}

// SetSimulationState answers set_simulation_state: it moves the simulation to the
// requested state, as the transitions of SimulationState.msg allow.
func (s *Services) SetSimulationState(ctx context.Context, q *si.SetSimulationStateRequest) si.SetSimulationStateResponse {
	s.mu.Lock()
	defer s.mu.Unlock()
	return si.SetSimulationStateResponse{Result: s.transition(ctx, s.simState(), q.State.State)}
}

// transition changes the simulation state from cur to target (SimulationState.msg):
// STOPPED, PAUSED and PLAYING reach each other; QUITTING ends the runner's Run (ddsim
// then exits), for good; NO_WORLD and LOADING_WORLD are entered by UnloadWorld and
// LoadWorld, not set.
func (s *Services) transition(ctx context.Context, cur, target uint8) si.Result {
	switch target {
	case si.SimulationState_STATE_STOPPED, si.SimulationState_STATE_PAUSED, si.SimulationState_STATE_PLAYING:
	case si.SimulationState_STATE_QUITTING:
		if cur == target {
			return failed(si.SetSimulationStateResponse_ALREADY_IN_TARGET_STATE, "already quitting")
		}
		s.r.quit() // the runner ends; the reply still goes out (the replier outlives it)
		return resultOK()
	case si.SimulationState_STATE_NO_WORLD, si.SimulationState_STATE_LOADING_WORLD:
		return failed(si.SetSimulationStateResponse_INCORRECT_TRANSITION,
			"NO_WORLD and LOADING_WORLD are entered by UnloadWorld and LoadWorld")
	default:
		return failed(si.SetSimulationStateResponse_INCORRECT_TRANSITION, "unknown state "+itoa(int(target)))
	}
	switch cur {
	case target:
		return failed(si.SetSimulationStateResponse_ALREADY_IN_TARGET_STATE, "already in state "+itoa(int(target)))
	case si.SimulationState_STATE_QUITTING:
		return failed(si.SetSimulationStateResponse_INCORRECT_TRANSITION, "the simulation is quitting")
	case si.SimulationState_STATE_NO_WORLD:
		return failed(si.SetSimulationStateResponse_INCORRECT_TRANSITION, "no world is loaded")
	}
	switch target {
	case si.SimulationState_STATE_PLAYING:
		s.r.SetPaused(false)
	case si.SimulationState_STATE_PAUSED:
		s.r.SetPaused(true)
		s.leftStop = cur == si.SimulationState_STATE_STOPPED
	default: // STOPPED: pause and reset everything
		s.r.SetPaused(true)
		if err := s.reset(ctx); err != nil {
			return failed(si.SetSimulationStateResponse_STATE_TRANSITION_ERROR, "stopping: "+err.Error())
		}
	}
	return resultOK()
}

// reset asks the runner for a reset step and waits until it was taken. Called with
// s.mu held.
func (s *Services) reset(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, stepWait)
	defer cancel()
	gen := s.r.requestReset()
	if err := s.r.waitUntil(ctx, func() bool { return s.r.resetsDone >= gen }); err != nil {
		return errors.New("the runner took no reset step: " + err.Error())
	}
	s.leftStop = false
	return nil
}

// maxSteps bounds a StepSimulation: more is a negative count sent as unsigned.
const maxSteps = math.MaxInt64

// StepSimulation answers step_simulation: it takes the requested steps of a paused
// simulation and replies when they are taken.
func (s *Services) StepSimulation(ctx context.Context, q *si.StepSimulationRequest) si.StepSimulationResponse {
	switch {
	case q.Steps == 0:
		return si.StepSimulationResponse{Result: failed(si.Result_RESULT_OPERATION_FAILED, "steps must be at least 1")}
	case q.Steps > maxSteps:
		return si.StepSimulationResponse{Result: failed(si.Result_RESULT_OPERATION_FAILED, "steps is negative as a signed number")}
	}
	s.mu.Lock()
	if !s.r.Step(q.Steps) {
		s.mu.Unlock()
		return si.StepSimulationResponse{Result: failed(si.Result_RESULT_OPERATION_FAILED, "the simulation is not paused")}
	}
	s.mu.Unlock()
	// The service returns once the steps are taken, however long that is.
	if err := s.r.waitUntil(ctx, func() bool { return !s.r.stepping }); err != nil {
		return si.StepSimulationResponse{Result: failed(si.Result_RESULT_OPERATION_FAILED, "stepping: "+err.Error())}
	}
	return si.StepSimulationResponse{Result: resultOK()}
}

// SimulateSteps does the work of the SimulateSteps action: it takes steps unpaused
// steps of a paused simulation and calls feedback (if not nil) with the number of steps
// completed after each, on the calling goroutine; it returns when the steps are taken,
// with RESULT_OK, or when they cannot be: zero steps, more than the largest int64, a
// simulation that is not paused, stepping interrupted (a pause or a reset from
// elsewhere), each a RESULT_OPERATION_FAILED that says why. When ctx ends first the
// simulation pauses (the remaining steps are dropped) and SimulateSteps returns the
// steps completed and ctx's error.
func (s *Services) SimulateSteps(ctx context.Context, steps uint64, feedback func(completed uint64)) (uint64, si.Result, error) {
	switch {
	case steps == 0:
		return 0, failed(si.Result_RESULT_OPERATION_FAILED, "steps must be at least 1"), nil
	case steps > maxSteps:
		return 0, failed(si.Result_RESULT_OPERATION_FAILED, "steps is negative as a signed number"), nil
	}
	r := s.r
	s.mu.Lock()
	start := r.Info().Iterations
	ok := r.Step(steps)
	s.mu.Unlock()
	if !ok {
		return 0, failed(si.Result_RESULT_OPERATION_FAILED, "the simulation is not paused"), nil
	}
	var done uint64
	for done < steps {
		var stepping bool
		err := r.waitUntil(ctx, func() bool {
			n := min(r.last.Iterations-start, steps)
			stepping = r.stepping
			return n != done || !stepping
		})
		if err != nil {
			r.SetPaused(true)
			return done, failed(si.Result_RESULT_OPERATION_FAILED, "interrupted after "+itoa(int(done))+" of "+itoa(int(steps))+" steps"), err
		}
		r.mu.Lock()
		done = min(r.last.Iterations-start, steps)
		r.mu.Unlock()
		if feedback != nil {
			feedback(done)
		}
		if !stepping && done < steps {
			return done, failed(si.Result_RESULT_OPERATION_FAILED, "stepping was interrupted after "+itoa(int(done))+" steps"), nil
		}
	}
	return done, resultOK(), nil
}

// ResetSimulation answers reset_simulation: it resets time, state or the spawned
// entities, as the request's scope says, in the runner's next step.
func (s *Services) ResetSimulation(ctx context.Context, q *si.ResetSimulationRequest) si.ResetSimulationResponse {
	const (
		timeScope    = si.ResetSimulationRequest_SCOPE_TIME
		stateScope   = si.ResetSimulationRequest_SCOPE_STATE
		spawnedScope = si.ResetSimulationRequest_SCOPE_SPAWNED
		all          = timeScope | stateScope | spawnedScope
	)
	scope := q.Scope
	switch {
	case scope == si.ResetSimulationRequest_SCOPE_DEFAULT || scope == si.ResetSimulationRequest_SCOPE_ALL || scope == all:
		s.mu.Lock()
		defer s.mu.Unlock()
		if err := s.reset(ctx); err != nil {
			return si.ResetSimulationResponse{Result: failed(si.Result_RESULT_OPERATION_FAILED, err.Error())}
		}
		return si.ResetSimulationResponse{Result: resultOK()}
	case scope&^all != 0:
		return si.ResetSimulationResponse{Result: failed(si.Result_RESULT_FEATURE_UNSUPPORTED,
			"unknown scope bits "+itoa(int(scope&^all))+": the scopes are TIME 1, STATE 2, SPAWNED 4, ALL 255")}
	}
	if scope&spawnedScope != 0 {
		s.despawn(ctx)
	}
	if scope&stateScope != 0 {
		if err := s.resetState(); err != nil {
			return si.ResetSimulationResponse{Result: failed(si.Result_RESULT_OPERATION_FAILED, err.Error())}
		}
	}
	if scope&timeScope != 0 {
		s.mu.Lock()
		s.r.rewindTime()
		s.leftStop = false
		s.mu.Unlock()
	}
	return si.ResetSimulationResponse{Result: resultOK()}
}

// resetState (SCOPE_STATE) puts the entities that were there at the start back in the
// poses they had then; entities spawned since keep theirs, and time goes on.
func (s *Services) resetState() error {
	var err error
	s.r.do(func(m *ecm.Manager) {
		initial, ok, ierr := s.r.initialState()
		if !ok || ierr != nil { // no step yet: the state is the initial one
			err = ierr
			return
		}
		start := ecm.New()
		RegisterComponents(start)
		if err = start.SetState(initial); err != nil {
			return
		}
		pose := ecm.ID[Pose](m)
		ecm.EachRO2(start, func(e ecm.Entity, n Name, p Pose) bool {
			if now, ok := ecm.ComponentData[Name](m, e); ok && now == n && ecm.Has[Pose](m, e) {
				ecm.SetComponentData(m, e, p)
				m.SetChanged(e, pose, ecm.OneTimeChange)
			}
			return true
		})
	})
	return err
}

// despawn removes the entities the services spawned since the last reset and waits
// for the step that removes them (at most stepWait: the removal is certain).
func (s *Services) despawn(ctx context.Context) {
	var after uint64
	s.r.do(func(m *ecm.Manager) {
		s.r.mu.Lock()
		resets := s.r.resetsDone
		after = s.r.steps + 1
		s.r.mu.Unlock()
		for _, sp := range s.spawned {
			if n, _ := ecm.ComponentData[Name](m, sp.e); sp.resets == resets && string(n) == sp.name && isTopModel(m, sp.e) {
				m.RequestRemoveEntity(sp.e, true)
			}
		}
		s.spawned = s.spawned[:0]
	})
	s.waitStep(ctx, after)
}

// waitStep waits until the runner took step n, at most stepWait.
func (s *Services) waitStep(ctx context.Context, n uint64) {
	ctx, cancel := context.WithTimeout(ctx, stepWait)
	defer cancel()
	_ = s.r.waitUntil(ctx, func() bool { return s.r.steps >= n })
}

// worldOf returns the world entity of m, or ecm.Null.
func worldOf(m *ecm.Manager) ecm.Entity {
	w, _, _ := ecm.FirstRO[World](m)
	return w
}

// GetCurrentWorld gives the world's name, and its resource if LoadWorld loaded it.
func (s *Services) GetCurrentWorld(context.Context, *si.GetCurrentWorldRequest) (rep si.GetCurrentWorldResponse) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.r.do(func(m *ecm.Manager) {
		w := worldOf(m)
		if w == ecm.Null {
			rep.Result = failed(si.GetCurrentWorldResponse_NO_WORLD_LOADED, "no world is loaded")
			return
		}
		name, _ := ecm.ComponentData[Name](m, w)
		rep.World.Name = string(name)
		if s.current.Name == rep.World.Name {
			rep.World = s.current
		}
		rep.Result = resultOK()
	})
	return rep
}

// GetNamedPoses gives the frames of the world (SDF <frame>) that pass the tags
// filter, with their world poses.
func (s *Services) GetNamedPoses(_ context.Context, q *si.GetNamedPosesRequest) (rep si.GetNamedPosesResponse) {
	if q.Tags.FilterMode > si.TagsFilter_FILTER_MODE_ALL {
		rep.Result = failed(si.Result_RESULT_OPERATION_FAILED, "unknown tags filter mode "+itoa(int(q.Tags.FilterMode)))
		return rep
	}
	f := q.Tags
	s.r.do(func(m *ecm.Manager) {
		ecm.EachRO2(m, func(e ecm.Entity, n Name, _ Frame) bool {
			tags, _ := ecm.ComponentData[Tags](m, e)
			if len(f.Tags) > 0 && !tagsMatch(f, tags) {
				return true
			}
			desc, _ := ecm.ComponentData[Description](m, e)
			st := entityState(m, e, builtin_interfaces.Time{})
			rep.Poses = append(rep.Poses, si.NamedPose{
				Name: string(n), Description: string(desc), Tags: slices.Clone([]string(tags)), Pose: st.Pose,
			})
			return true
		})
	})
	rep.Result = resultOK()
	return rep
}

// isTopModel reports whether e is an entity of the services: a model whose parent is
// the world or nothing, not being removed.
func isTopModel(m *ecm.Manager, e ecm.Entity) bool {
	return ecm.Has[Model](m, e) && isTop(m, e)
}

// isTop reports whether the model e is an entity of the services.
func isTop(m *ecm.Manager, e ecm.Entity) bool {
	if m.IsMarkedForRemoval(e) {
		return false
	}
	p := m.ParentEntity(e)
	return p == ecm.Null || ecm.Has[World](m, p)
}

// topNamed returns the entity of the services named name.
func topNamed(m *ecm.Manager, name string) (ecm.Entity, bool) {
	found := ecm.Null
	ecm.EachRO1(m, func(e ecm.Entity, n Name) bool {
		if string(n) == name && isTopModel(m, e) {
			found = e
			return false
		}
		return true
	})
	return found, found != ecm.Null
}

func notFound(name string) si.Result {
	return failed(si.Result_RESULT_NOT_FOUND, "no entity named "+strconv.Quote(name))
}

// filterEntities returns the entities of the services that pass f, with their names.
func filterEntities(m *ecm.Manager, f si.EntityFilters) ([]ecm.Entity, []string, si.Result) {
	c, err := CompileFilter(f)
	if err != nil {
		var fe *filterError
		errors.As(err, &fe)
		if fe.unsupported {
			return nil, nil, failed(si.Result_RESULT_FEATURE_UNSUPPORTED, fe.msg)
		}
		// GetEntities(States) define no code for bad input.
		return nil, nil, failed(si.Result_RESULT_OPERATION_FAILED, "invalid filter: "+fe.msg)
	}
	// In ascending order of entity, only the matches collected: with 10,000 entities,
	// collecting them all first cost more than filtering.
	var es []ecm.Entity
	var names []string
	ecm.EachRO2(m, func(e ecm.Entity, _ Model, n Name) bool {
		if isTop(m, e) && c.match(m, e, n) {
			es, names = append(es, e), append(names, string(n))
		}
		return true
	})
	return es, names, resultOK()
}

// GetEntities answers get_entities: the names of the entities that pass the filters.
func (s *Services) GetEntities(_ context.Context, q *si.GetEntitiesRequest) (rep si.GetEntitiesResponse) {
	s.r.do(func(m *ecm.Manager) {
		_, rep.Entities, rep.Result = filterEntities(m, q.Filters)
	})
	return rep
}

// GetEntitiesStates answers get_entities_states: the entities that pass the filters
// and their states.
func (s *Services) GetEntitiesStates(_ context.Context, q *si.GetEntitiesStatesRequest) (rep si.GetEntitiesStatesResponse) {
	s.r.do(func(m *ecm.Manager) {
		var es []ecm.Entity
		es, rep.Entities, rep.Result = filterEntities(m, q.Filters)
		stamp := rosTime(s.r.Info().SimTime)
		for _, e := range es {
			rep.States = append(rep.States, entityState(m, e, stamp))
		}
	})
	return rep
}

// entityState returns the state of e: its world pose, zero velocities.
func entityState(m *ecm.Manager, e ecm.Entity, stamp builtin_interfaces.Time) si.EntityState {
	p, _ := WorldPose(m, e)
	q := p.Orientation.normalized()
	return si.EntityState{
		Header: std_msgs.Header{Stamp: stamp, FrameID: WorldFrame},
		Pose: geometry_msgs.Pose{
			Position:    geometry_msgs.Point{X: p.Position.X, Y: p.Position.Y, Z: p.Position.Z},
			Orientation: geometry_msgs.Quaternion{X: q.X, Y: q.Y, Z: q.Z, W: q.W},
		},
	}
}

// GetEntityState answers get_entity_state: an entity's pose in the world frame
// (velocities and accelerations read as zero: they are not simulated).
func (s *Services) GetEntityState(_ context.Context, q *si.GetEntityStateRequest) (rep si.GetEntityStateResponse) {
	rep.Result = s.onEntity(q.Entity, func(m *ecm.Manager, e ecm.Entity) {
		rep.State = entityState(m, e, rosTime(s.r.Info().SimTime))
	})
	return rep
}

// SetEntityState answers set_entity_state: it sets the pose of a non-static entity,
// in the world frame or a named one.
func (s *Services) SetEntityState(_ context.Context, q *si.SetEntityStateRequest) (rep si.SetEntityStateResponse) {
	var pose Pose
	if q.SetPose {
		var res si.Result
		if pose, res = poseFrom(q.State.Pose, si.SetEntityStateResponse_INVALID_POSE); res.Result != si.Result_RESULT_OK {
			return si.SetEntityStateResponse{Result: res}
		}
	}
	moving := (q.SetTwist && q.State.Twist != geometry_msgs.Twist{}) ||
		(q.SetAcceleration && q.State.Acceleration != geometry_msgs.Accel{})
	s.r.do(func(m *ecm.Manager) {
		e, ok := topNamed(m, q.Entity)
		switch {
		case !ok:
			rep.Result = notFound(q.Entity)
		case q.SetPose && !knownFrame(m, q.State.Header.FrameID):
			rep.Result = failed(si.Result_RESULT_NOT_FOUND, "unknown frame "+strconv.Quote(q.State.Header.FrameID))
		case moving && isStatic(m, e):
			rep.Result = failed(si.Result_RESULT_OPERATION_FAILED, "a static entity cannot move")
		case moving:
			rep.Result = failed(si.Result_RESULT_FEATURE_UNSUPPORTED, "velocities and accelerations are not simulated")
		default:
			if q.SetPose {
				setWorldPose(m, e, framePose(m, q.State.Header.FrameID).compose(pose))
			}
			rep.Result = resultOK()
		}
	})
	return rep
}

func isStatic(m *ecm.Manager, e ecm.Entity) bool {
	st, _ := ecm.ComponentData[Static](m, e)
	return bool(st)
}

// poseFrom checks and converts a pose: finite numbers, a quaternion that is not zero
// (normalized); invalid gives code.
func poseFrom(p geometry_msgs.Pose, code uint8) (Pose, si.Result) {
	v := []float64{p.Position.X, p.Position.Y, p.Position.Z, p.Orientation.X, p.Orientation.Y, p.Orientation.Z, p.Orientation.W}
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return Pose{}, failed(code, "pose has a NaN or infinite number")
		}
	}
	q := Quaternion{p.Orientation.X, p.Orientation.Y, p.Orientation.Z, p.Orientation.W}
	if n := math.Sqrt(q.X*q.X + q.Y*q.Y + q.Z*q.Z + q.W*q.W); n < 1e-9 || math.IsInf(n, 0) {
		return Pose{}, failed(code, "orientation is not a rotation quaternion")
	}
	return Pose{Position: Vector3{p.Position.X, p.Position.Y, p.Position.Z}, Orientation: q.normalized()}, resultOK()
}

// knownFrame reports whether a header's frame is the world ("" or "world") or an
// entity of the services.
func knownFrame(m *ecm.Manager, frame string) bool {
	if frame == "" || frame == WorldFrame {
		return true
	}
	_, ok := topNamed(m, frame)
	return ok
}

// framePose returns the world pose of a known frame.
func framePose(m *ecm.Manager, frame string) Pose {
	if e, ok := topNamed(m, frame); ok && frame != "" && frame != WorldFrame {
		p, _ := WorldPose(m, e)
		return p
	}
	return Pose{Orientation: identityQuaternion}
}

// setWorldPose sets the Pose of e so that its world pose is w.
func setWorldPose(m *ecm.Manager, e ecm.Entity, w Pose) {
	parent, _ := WorldPose(m, m.ParentEntity(e))
	local := parent.inverse().compose(w)
	if !ecm.SetComponentData(m, e, local) {
		ecm.CreateComponent(m, e, local)
	}
}

// inverse returns the pose q such that p.Compose(q) is the identity.
func (p Pose) inverse() Pose {
	q := p.Orientation.normalized()
	c := Quaternion{-q.X, -q.Y, -q.Z, q.W}
	return Pose{Position: c.rotate(p.Position).scale(-1), Orientation: c}
}

// GetEntityInfo answers get_entity_info: an entity's category, description and tags.
func (s *Services) GetEntityInfo(_ context.Context, q *si.GetEntityInfoRequest) (rep si.GetEntityInfoResponse) {
	rep.Result = s.onEntity(q.Entity, func(m *ecm.Manager, e ecm.Entity) {
		cat, _ := ecm.ComponentData[Category](m, e)
		tags, _ := ecm.ComponentData[Tags](m, e)
		desc, _ := ecm.ComponentData[Description](m, e)
		rep.Info = si.EntityInfo{
			Category:    si.EntityCategory{Category: uint8(cat)},
			Description: string(desc),
			Tags:        slices.Clone([]string(tags)),
		}
	})
	return rep
}

// SetEntityInfo answers set_entity_info: it sets an entity's category, description
// and tags.
func (s *Services) SetEntityInfo(_ context.Context, q *si.SetEntityInfoRequest) (rep si.SetEntityInfoResponse) {
	cat := Category(q.Info.Category.Category)
	switch cat {
	case CategoryObject, CategoryRobot, CategoryHuman, CategoryDynamicObject, CategoryStaticObject:
	default:
		return si.SetEntityInfoResponse{Result: failed(si.Result_RESULT_OPERATION_FAILED, "unknown category "+itoa(int(cat)))}
	}
	rep.Result = s.onEntity(q.Entity, func(m *ecm.Manager, e ecm.Entity) {
		set(m, e, cat)
		set(m, e, Tags(slices.Clone(q.Info.Tags)))
		set(m, e, Description(q.Info.Description))
	})
	return rep
}

// set sets or creates the component of e.
func set[T any](m *ecm.Manager, e ecm.Entity, v T) {
	if !ecm.SetComponentData(m, e, v) {
		ecm.CreateComponent(m, e, v)
	}
}

// GetEntityBounds returns the Bounds of the entity, as they are in its frame; an
// entity without Bounds is unbounded (TYPE_EMPTY).
func (s *Services) GetEntityBounds(_ context.Context, q *si.GetEntityBoundsRequest) (rep si.GetEntityBoundsResponse) {
	rep.Result = s.onEntity(q.Entity, func(m *ecm.Manager, e ecm.Entity) {
		b, _ := ecm.ComponentData[Bounds](m, e)
		rep.Bounds.Type = b.Type
		for _, p := range b.Points {
			rep.Bounds.Points = append(rep.Bounds.Points, geometry_msgs.Vector3{X: p.X, Y: p.Y, Z: p.Z})
		}
	})
	return rep
}

// DeleteEntity removes the entity and its descendants: they are gone for the services
// at once and from the Manager after the runner's next step, which the reply waits
// for (at most stepWait; the removal is certain either way).
func (s *Services) DeleteEntity(ctx context.Context, q *si.DeleteEntityRequest) si.DeleteEntityResponse {
	var found bool
	var after uint64
	s.r.do(func(m *ecm.Manager) {
		var e ecm.Entity
		if e, found = topNamed(m, q.Entity); found {
			m.RequestRemoveEntity(e, true)
			s.r.mu.Lock()
			after = s.r.steps + 1
			s.r.mu.Unlock()
		}
	})
	if !found {
		return si.DeleteEntityResponse{Result: notFound(q.Entity)}
	}
	s.waitStep(ctx, after)
	return si.DeleteEntityResponse{Result: resultOK()}
}
