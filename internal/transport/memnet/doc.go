// Package memnet is an in-memory IPv4 network for deterministic tests of
// the RTPS engine: hosts with addresses, unicast and multicast sockets that
// implement transport.Net, and seeded impairments.
//
// # Topology
//
// A [Network] is one segment. [Network.AddHost] adds a host with an "eth0"
// interface holding its address and a loopback interface "lo" with
// 127.0.0.1. Unicast goes to the socket bound to the destination port of
// the host owning the address (127.0.0.0/8: the sending host). Multicast
// goes to every socket that joined the group with ListenMulticastUDP, on
// every host; sockets of the sender's own host get it only when the sender
// set MulticastLoopback, as with real sockets. Ports are exclusive unless
// every socket on them set ReuseAddr; multicast sockets share their port
// always. Sending to a port nobody listens on is not an error (UDP).
//
// # Impairments
//
// [Impairments] apply to every delivery (each receiver of a multicast
// datagram draws its own fate): Loss, Duplicate and Reorder probabilities,
// a fixed Delay plus uniform Jitter, and a ReorderDelay that lets later
// datagrams overtake a reordered one. All draws come from one PCG source
// seeded by [Config].Seed, in the order datagrams are sent, so the same
// seed and the same sends give the same fates, which [Network.Stats]
// counts. Each socket has a bounded receive queue ([Config].QueueLen); a
// delivery to a full queue is dropped and counted. [Host.SetDown] cuts a
// host off, like a crash that leaves its sockets open.
//
// # testing/synctest
//
// Delayed deliveries are kept in a heap ordered by due time and sequence,
// and made by one time.AfterFunc timer, so delays run on the fake clock of
// a synctest bubble and same-instant deliveries keep their send order.
// Readers block on channels only, which synctest treats as durably
// blocking. Create the Network, its hosts and sockets inside the bubble,
// and close the sockets (and the Network) before it ends:
//
//	synctest.Test(t, func(t *testing.T) {
//		n, _ := memnet.New(memnet.Config{Seed: 1, Impairments: memnet.Impairments{Loss: 0.2}})
//		defer n.Close()
//		h, _ := n.AddHost("a", netip.MustParseAddr("192.0.2.1"))
//		tr, _ := transport.Open(transport.Config{Net: h, Deliver: q.Push})
//		defer tr.Close()
//		...
//	})
package memnet
