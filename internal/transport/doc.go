// Package transport moves RTPS datagrams over UDPv4: the well-known port
// mapping, participant index allocation, interface selection, multicast
// group membership, static unicast peers, and the receive goroutines that
// hand datagrams in pooled buffers to the RTPS engine.
//
// # Ports
//
// RTPS 2.5 §9.6.1.1 derives every port from the domain id d and the
// participant index i: PB 7400, DG 250, PG 2, d0 0, d1 10, d2 1, d3 11.
//
//	SPDP multicast       PB + DG·d + d0         7400 in domain 0
//	user multicast       PB + DG·d + d2         7401
//	metatraffic unicast  PB + DG·d + d1 + PG·i  7410, 7412, ...
//	user unicast         PB + DG·d + d3 + PG·i  7411, 7413, ...
//
// Ports must fit in 16 bits, so domain ids run from 0 to 232
// ([DefaultMaxDomainID]) and the largest participant index shrinks as the
// domain id grows ([PortMapping.MaxParticipantIndex]). The multicast group
// is 239.255.0.1 ([DefaultMulticastGroup]).
//
// # Participant index
//
// [Config].IndexMode chooses how the unicast ports are picked. [IndexAuto]
// (the default, like Fast DDS) binds the ports of index 0, 1, 2, ... until
// both are free, up to MaxParticipantIndex; [IndexFixed] takes one index;
// [IndexNone] (Cyclone DDS's default) binds ephemeral ports. Unicast ports
// are bound without SO_REUSEADDR, so a taken port is detected.
//
// # Interfaces and multicast
//
// [SelectInterfaces] picks interfaces by name or address; with none named
// it takes every interface that is up, multicast-capable, not loopback and
// has an IPv4 address, and loopback only when nothing else exists (the case
// inside the private network namespace the tests run in). The SPDP and user
// multicast sockets bind the group's port on the unspecified address with
// SO_REUSEADDR and SO_REUSEPORT, so every participant of a host shares the
// discovery port (a unicast datagram sent to that port reaches one of them),
// and join the group on each selected interface with golang.org/x/net/ipv4
// (never net.ListenMulticastUDP, which turns multicast loopback off).
// Multicast loopback is on, so participants of one host meet; a participant
// also receives its own announcements and must ignore its own GUID prefix.
// A datagram sent to a group leaves once per selected interface.
//
// Datagrams are sent from the metatraffic unicast socket (replies go to
// announced locators, not to source ports, as both Cyclone DDS and Fast DDS
// do).
//
// # Static peers
//
// For networks without multicast, [Config].Peers lists "host:port" or
// "host". A host without a port expands to the metatraffic unicast ports of
// participant indices 0..PeerProbe-1 (10 by default), as the peer lists of
// Cyclone DDS and Fast DDS do; a peer using [IndexNone] cannot be found that
// way. [Transport.SPDPDestinations] returns the group and the expanded
// peers: the SPDP announcer sends to each of them.
//
// # Receive path
//
// Each socket has one receive goroutine ([Receiver]). It reads each
// datagram into a pooled [Packet] (a 64 KiB buffer) and calls
// [Config].Deliver on that goroutine. Deliver must not block: it either
// takes ownership of the packet and returns true — the packet must then be
// released exactly once with [Packet.Release] when nothing refers to its
// Data any more — or returns false, and the receiver drops the packet and
// counts it in [Stats].Drops. [Queue.Push] is such a function: a bounded
// queue whose channel ([Queue.C]) the engine's event loop selects on. The
// single-read path allocates nothing per datagram; [Config].ReadBatch > 1
// uses recvmmsg on Linux, at the cost of x/net allocating each source
// address. [Transport.WriteBatch] uses sendmmsg without allocating.
//
// # Networks
//
// Sockets are opened through the [Net] interface. [UDPNet] is the operating
// system's; package memnet provides an in-memory, multicast-capable network
// with seeded loss, delay, duplication and reordering that runs under
// testing/synctest; [NewPionNet] adapts pion/transport vnet, which has no
// multicast, for unicast impairment tests (use DisableMulticast and Peers).
//
// # Platforms
//
// Port sharing uses SO_REUSEADDR and SO_REUSEPORT on Linux and the BSDs;
// Windows is not supported yet for sharing. Only IPv4 is supported.
package transport
