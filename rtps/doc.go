// Package rtps is what a user configures of ddsgo's RTPS 2.5 protocol engine: which
// network interfaces it uses, whether it discovers peers by multicast or through a list
// of unicast peers, its ports and socket buffers, its GUID prefix, leases, message and
// sample size limits and its logger. The engine itself (wire codec, discovery, reliable
// and best-effort endpoints, fragmentation, transports) is internal to the module.
//
// A Config is handed to a participant with dds.WithRTPS:
//
//	p, err := dds.NewParticipant(0, dds.WithRTPS(rtps.Config{
//		Peers:            []string{"192.0.2.7"},
//		DisableMulticast: true,
//	}))
//
// # Networks without multicast
//
// With DisableMulticast and Peers, SPDP announcements go to each peer's discovery
// ports of participant indices 0..MaxPeerIndex, as Cyclone DDS and Fast DDS do with
// their peer lists. Both sides must list each other, or one side must have multicast.
package rtps
