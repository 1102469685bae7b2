// Package netem impairs a network link in user space, as Linux's netem
// queueing discipline does: seeded random loss, reordering, duplication and
// a fixed delay, applied to every frame that crosses the link in either
// direction.
//
// # Why not netem
//
// The machines that run the interop tests (Firecracker VMs without kernel
// modules) have no sch_netem, so `tc qdisc add ... netem` fails. They do
// have TUN/TAP. A Link joins two TAP interfaces, one in each of two network
// namespaces, and relays the Ethernet frames between them: to the kernels
// on both sides it is a cable, like a veth pair, and the relay in between
// decides each frame's fate. Being seeded, a run's impairments can be
// replayed (up to the timing of the peers).
//
// # Model
//
// Per direction and per frame, in this order (netem's own order):
//
//   - with probability Loss the frame is dropped;
//   - with probability Duplicate it is sent twice;
//   - with probability Reorder it is sent at once, overtaking the frames
//     waiting out their Delay (netem's "reorder"); otherwise it waits Delay.
//
// Frames that Exempt selects (ARP by default for TAP links) cross unimpaired
// and at once. At most QueueLimit frames wait in each direction; beyond that
// they are dropped and counted (netem's limit, 1000 by default).
//
// # Namespaces
//
// OpenTAP (Linux) creates a TAP interface inside the network namespace of
// another process, from an OS thread that enters that namespace and is
// never used again; it refuses the caller's own namespace, so that a test
// can never add an interface where it runs. Configuring the interface
// (address, up, routes) is up to a process inside that namespace.
package netem
