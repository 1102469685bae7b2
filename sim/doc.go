// Package sim is the simulation layer: a systems runner over an ecm.Manager in the
// manner of Gazebo Sim, entity queries with the filters of ROS simulation_interfaces,
// world files in a subset of SDF, and the TriggeredPublisher system.
//
// # Systems and phases
//
// A System is any value; the optional interfaces it implements say what it does:
// Configurer (read its configuration once, when added), Resetter, PreUpdater,
// Updater and PostUpdater. A Runner calls, in every step:
//
//  1. PreUpdate of every PreUpdater, then
//  2. Update of every Updater, both on the runner's goroutine with the *ecm.Manager,
//     ordered by priority (smaller first; equal priorities in the order the systems
//     were added), then
//  3. PostUpdate of every PostUpdater with an ecm.Reader, a read-only view: a
//     PostUpdater cannot change the Manager at compile time. The PostUpdate calls run
//     in parallel, one goroutine each, and the step ends when all have returned.
//
// Then the runner ends the step of the Manager (ecm's EndStep: entities are no longer
// new, removal requests are processed, removed components forgotten, change states
// cleared). A system's priority is the integer in the <gz:system_priority> element
// of its configuration, else its Priority method (Prioritizer), else 0; the
// constants PhysicsPriority etc. are Gazebo's. The gz: prefix is required, as in
// Gazebo: a <system_priority> (or one with another prefix) is a *LineError, not
// silently ignored. Systems added during a step take part from the next one.
//
// # Time
//
// UpdateInfo follows Gazebo. SimTime is the time reached at the end of the step, so
// the first unpaused step has SimTime == Dt == StepSize and Iterations == 1. A paused
// step still calls every phase, with Dt == 0 and SimTime and Iterations unchanged.
// RealTime is the wall time spent unpaused since the start, at the start of the step.
//
// Run steps until its context ends or it took N unpaused steps (paused steps do not
// count). With a RealTimeFactor f > 0, each unpaused step is given StepSize/f of wall
// time, sleeping what is left after the systems ran; when the systems are slower the
// schedule restarts from the current time rather than catching up. 0 runs as fast as
// possible. While paused, Run takes a step every Config.PausedPeriod, or at once when
// a control arrives. SetPaused, Step (n unpaused steps, then paused again, as
// Gazebo's multi-step; only while paused), Reset and SetRealTimeFactor may be called
// from any goroutine and apply from the next step. RunOnce takes one step without
// sleeping. Wall time comes from a Clock, which tests replace.
//
// # Reset
//
// Before its first step a Runner serializes the whole Manager (ecm's State); after a
// Reset the next step is a reset step, as in Gazebo: every entity is removed and the
// initial state applied (SetState), SimTime returns to Config.InitialSimTime with a
// negative Dt (the jump back), Iterations and RealTime to 0; then, in the order they
// were added, systems that implement Resetter are reset, and the others are made
// anew by their Factory and configured again (Gazebo reloads such plugins; here they
// keep their place in the order) or, without a Factory, kept as they are. The reset
// step runs no update phase. Component types without a codec are not part of the
// state and do not survive a reset.
//
// # Entity queries
//
// GetEntities, or CompileFilter and Filter.AppendEntities, select the named entities
// (those with a Name component) that pass a simulation_interfaces EntityFilters (the
// request's own type, from ros/simulation_interfaces), as its GetEntities service: the
// name is matched as a whole against a POSIX extended regular expression, categories
// match any, tags match any or all, bounds must overlap (a sphere, an axis-aligned box
// or a convex hull, tested exactly by GJK distance), and all filters must pass. Results
// come in ascending entity order; a malformed filter is an error wrapping
// dds.ErrBadParameter and an unknown bounds type one wrapping dds.ErrUnsupported (the
// services answer them with simulation_interfaces result codes), never a panic.
// The standard components are Name, Pose, Category, Tags and Bounds, with
// World, Model, Link and Static from world files (RegisterComponents).
//
// # World files
//
// LoadWorld builds a world from an SDF subset (world, model, link, frame, pose,
// static, nested models, plugin) and adds the systems of its <plugin> elements, made
// by a Registry of factories and configured with their <plugin> element kept as an
// Element tree. Malformed files give *LineError values with the line number.
//
// # Services
//
// Services are ROS 2 simulation_interfaces for a Runner's world as Go methods, one per
// service, each taking the service's request and giving its reply: the simulation state
// (STOPPED is paused at iteration 0, as Gazebo tells it), stepping, whole resets and
// de-spawning, entity queries with EntityFilters, entity state (poses), info and bounds,
// deletion, and spawning SDF models from a resource string or a uri, named poses (the
// world's <frame> elements), loading (an SDF string) and unloading worlds, the current
// world, and SimulateSteps (the work of the action of that name). GetSimulatorFeatures
// lists exactly these. The methods change the Manager only between steps, and every
// reply carries a result code set on purpose.
//
// # TriggeredPublisher
//
// TriggeredPublisher is Gazebo's system of that name over a Bus (MemBus in process,
// simdds.Bus over DDS with ROS 2's names and types): when a message on its input topic
// matches its criteria it publishes its output messages and calls its services, at
// once or after a delay in simulation time. Messages are Msg trees written in a subset
// of the protobuf text format; a TypedBus such as simdds.Bus converts them to and from
// the Go topic types registered with it.
//
// # The world's DDS face
//
// This package imports no DDS: package simdds publishes the world (/clock, /tf, its
// state streams), mirrors it in another process (Replica), serves the Services over
// DDS and carries a TriggeredPublisher's messages (simdds.Bus).
package sim
