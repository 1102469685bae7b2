package simdds

import (
	"context"
	"errors"
	"sync"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/sim"
)

// defaultServicePrefix is the node under which Gazebo's bridge serves
// simulation_interfaces (gazebosim/ros_gz: ros_gz_sim gzserver).
const defaultServicePrefix = "/gzserver"

// Services serves the services of ROS 2 simulation_interfaces (2.1.0) of a Runner's
// world (sim.Services) over DDS, with ROS 2 naming and types, under the names Gazebo's
// bridge uses: PREFIX/get_simulator_features, get_simulation_state,
// set_simulation_state, step_simulation, reset_simulation, get_entities,
// get_entities_states, get_entity_state, set_entity_state, get_entity_info,
// set_entity_info, get_entity_bounds, delete_entity, spawn_entity, spawn_entities,
// get_named_poses, get_named_pose_bounds, get_spawnables, get_available_worlds,
// get_current_world, load_world and unload_world, and the action PREFIX/simulate_steps
// (ROS 2's action protocol: send_goal, get_result and cancel_goal services, feedback
// after each step, goal statuses). What each does is sim.Services'.
type Services struct {
	p      *dds.DomainParticipant
	s      *sim.Services
	prefix string
	reps   []interface{ Close() error }
	action *stepsAction

	closeOnce sync.Once
	closeErr  error
}

// NewServices serves the simulation_interfaces services of r's world in p, each
// under prefix ("" means "/gzserver", Gazebo's node) followed by its name.
// resourcePath is sim.NewServices'.
func NewServices(p *dds.DomainParticipant, r *sim.Runner, prefix string, resourcePath ...string) (*Services, error) {
	if p == nil || r == nil {
		return nil, errors.New("simdds: nil participant or runner")
	}
	h, err := sim.NewServices(r, resourcePath...)
	if err != nil {
		return nil, err
	}
	if prefix == "" {
		prefix = defaultServicePrefix
	}
	s := &Services{p: p, s: h, prefix: prefix}
	for _, add := range []func() error{
		func() error { return serve(s, "get_simulator_features", h.GetSimulatorFeatures) },
		func() error { return serve(s, "get_simulation_state", h.GetSimulationState) },
		func() error { return serve(s, "set_simulation_state", h.SetSimulationState) },
		func() error { return serve(s, "step_simulation", h.StepSimulation) },
		func() error { return serve(s, "reset_simulation", h.ResetSimulation) },
		func() error { return serve(s, "get_entities", h.GetEntities) },
		func() error { return serve(s, "get_entities_states", h.GetEntitiesStates) },
		func() error { return serve(s, "get_entity_state", h.GetEntityState) },
		func() error { return serve(s, "set_entity_state", h.SetEntityState) },
		func() error { return serve(s, "get_entity_info", h.GetEntityInfo) },
		func() error { return serve(s, "set_entity_info", h.SetEntityInfo) },
		func() error { return serve(s, "get_entity_bounds", h.GetEntityBounds) },
		func() error { return serve(s, "delete_entity", h.DeleteEntity) },
		func() error { return serve(s, "spawn_entity", h.SpawnEntity) },
		func() error { return serve(s, "spawn_entities", h.SpawnEntities) },
		func() error { return serve(s, "get_current_world", h.GetCurrentWorld) },
		func() error { return serve(s, "load_world", h.LoadWorld) },
		func() error { return serve(s, "get_named_poses", h.GetNamedPoses) },
		func() error { return serve(s, "get_named_pose_bounds", h.GetNamedPoseBounds) },
		func() error { return serve(s, "get_spawnables", h.GetSpawnables) },
		func() error { return serve(s, "get_available_worlds", h.GetAvailableWorlds) },
		func() error { return serve(s, "unload_world", h.UnloadWorld) },
		func() (err error) {
			if s.action, err = newStepsAction(s, prefix+"/simulate_steps"); err != nil {
				return err
			}
			return s.action.serve("simulate_steps")
		},
	} {
		if err := add(); err != nil {
			_ = s.Close()
			return nil, err
		}
	}
	return s, nil
}

// serve adds a replier of the service PREFIX/name whose replies are h's.
func serve[Req, Rep any](s *Services, name string, h func(context.Context, *Req) Rep) error {
	rp, err := dds.NewReplier(s.p, s.prefix+"/"+name, func(ctx context.Context, q *Req) (Rep, error) {
		return h(ctx, q), nil
	}, dds.ROSNames())
	if err != nil {
		return err
	}
	s.reps = append(s.reps, rp)
	return nil
}

// Close stops serving and deletes the repliers. It waits for the handlers running.
func (s *Services) Close() error {
	s.closeOnce.Do(func() {
		errs := make([]error, 0, len(s.reps)+1)
		for _, rp := range s.reps {
			errs = append(errs, rp.Close())
		}
		if s.action != nil { // after its repliers: no goal comes any more
			errs = append(errs, s.action.close())
		}
		s.closeErr = errors.Join(errs...)
	})
	return s.closeErr
}
