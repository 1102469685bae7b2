// Package simdds is the DDS face of a simulated world (package sim): what the world
// publishes, what another process follows it by, and the services it answers, all with
// ROS 2's conventions so that ROS 2 nodes and any DDS application see a simulator.
//
//   - ClockPublisher, TfPublisher and StatePublisher are systems that publish the
//     simulation time on /clock, the poses of models and links on /tf, and the world's
//     state streams (its serialized ECM, the changes of every step, one instance per
//     entity).
//   - Replica follows those state streams in an ECM of its own, in another process.
//   - Services serves sim.Services, the ROS 2 simulation_interfaces services and the
//     SimulateSteps action, under the names Gazebo's bridge uses.
//   - Bus is a sim.TypedBus over DDS for a TriggeredPublisher and its service calls:
//     topics "/a/b" are DDS topics "rt/a/b", message types are Go topic types
//     registered with AddBusType and AddBusService (AddROSTypes registers the common
//     ones).
//
// docs/sim.md lists the topics, their types and QoS.
package simdds
