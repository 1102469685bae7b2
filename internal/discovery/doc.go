// Package discovery holds the data of the RTPS Simple Discovery Protocols
// (OMG DDSI-RTPS 2.5 §8.5, §9.6.2): what a participant announces about
// itself in SPDP and about its writers and readers in SEDP, their encoding as
// ParameterLists (the QoS policies by the qos package's policy table), and
// the matching of writers with readers; and
// [Participant], the running participant that announces, discovers and
// matches over an rtps.Engine.
//
// # Participants
//
// [ParticipantData] is SPDPdiscoveredParticipantData: GUID prefix, protocol
// version, vendor, domain id and tag, locators, lease duration, the set of
// built-in endpoints, user data, entity name, properties and the
// vendor-specific parameters kept raw. [ProcessProperties] gives the
// __ProcessName, __Pid and __Hostname properties Cyclone DDS announces.
//
// # Endpoints
//
// [EndpointData] is DiscoveredWriterData or DiscoveredReaderData: endpoint
// and participant GUIDs, topic and type names, the QoS as values of the qos
// package (a writer's qos.Offered, a reader's qos.Requested), optional locators (the participant's default locators apply
// when there are none: [EndpointData.Locators]), TYPE_INFORMATION raw, a
// writer's maximum serialized size, a reader's content filter. Whether it is
// a writer or a reader, and whether its topic is keyed, follows from the
// entity kind of its GUID. [TopicData] is DiscoveredTopicData, decoded when a
// peer sends it.
//
// Which policies are sent and how each is encoded is declared once, in the
// qos package's policy table (internal/qoswire reaches it); this
// package only frames them as parameters. A policy absent from the wire has
// the DDS default for the kind of endpoint (qos.DefaultOffered,
// qos.DefaultRequested): a remote writer that says nothing is RELIABLE, a
// reader BEST_EFFORT. A policy of the other kind (TIME_BASED_FILTER from a
// writer) is skipped. On the wire reliability is 1 (best effort) or 2
// (reliable), Cyclone DDS sends KEEP_ALL with depth -1 (kept as is), and
// DURATION_INFINITE is qos.Infinite.
//
// # Encoding and decoding
//
// Append writes a complete serialized payload: the PL_CDR_LE encapsulation
// header, the ParameterList and its sentinel, always little-endian because
// Fast DDS reads enum kinds from their first octet. The Parse functions and
// the [Decoder] methods read PL_CDR_LE and PL_CDR_BE. Like the peers they
// skip unknown parameters and let a repeated one override the earlier, but
// reject the whole list for an unknown must-understand parameter, a malformed
// value, an enum out of range or a negative duration. Vendor-specific
// parameters are kept raw with the vendor that sent them; a [Decoder] is told
// the vendor of the message, or takes it from PID_VENDORID.
//
// A participant or endpoint that goes away is announced by a DATA whose
// inline STATUS_INFO says disposed or unregistered: Cyclone DDS sends the
// serialized key with the K flag, Fast DDS only an inline KEY_HASH.
// [Decoder.Disposal] reads both forms; [Disposal.AppendInlineQoS] and
// [Disposal.AppendKey] write both at once.
//
// # Matching
//
// [Match] decides whether a writer and a reader communicate: topic name,
// type name, keyed kind, the requested/offered QoS (qos.Compatible) and
// partitions (qos.PartitionsMatch). Types are compared by name only: when
// both sides send TYPE_INFORMATION, Cyclone DDS compares type hashes
// instead, and type assignability is not decided here yet.
//
// # Logging
//
// At slog.LevelDebug a [Participant] logs every discovery and matching
// decision: participants discovered (vendor, locators, lease) and lost
// (reason "lease" or "dispose"), endpoints discovered, matched and
// unmatched, and for a writer and a reader of one topic that do not match
// the reason: type names, keyed kinds, partitions, or each incompatible
// policy as a group with its offered and requested values (qos.Explain).
// Nothing is logged at Info.
//
// # Limits
//
// A hostile or broken peer must not make a participant hold unbounded
// memory. [Limits] bounds locators, strings, properties, partitions and
// opaque values per entity while decoding, and gives the caller the bounds
// on remote participants and endpoints; anything beyond them is an error
// wrapping [ErrLimit], for the caller to count and drop.
//
// # Participant
//
// [NewParticipant] opens the sockets (an rtps.Engine) and runs the
// discovery protocols:
//
//   - SPDP: the participant announces itself at once and 4 more times 100 ms
//     apart (like Fast DDS), then every Config.AnnouncePeriod, to the SPDP
//     multicast group, the static peers and the participants it knows; a
//     newly discovered participant gets a directed announcement first.
//     Every datagram from a participant renews its lease; when the lease
//     expires, or the participant disposes itself, it is removed and its
//     endpoints are unmatched.
//   - SEDP: reliable, transient-local, keyed built-in writers and readers
//     (0x3c2/0x3c7 publications, 0x4c2/0x4c7 subscriptions), matched with
//     those the remote BUILTIN_ENDPOINT_SET announces. Matching them sends a
//     HEARTBEAT from our writers and a pre-emptive ACKNACK from our readers,
//     so that neither side waits for a periodic HEARTBEAT (the 1 s stall
//     between Cyclone DDS and Fast DDS). Local endpoints are announced with
//     their EndpointData keyed by GUID and withdrawn by a dispose and
//     unregister with inline KEY_HASH and STATUS_INFO.
//   - The participant message protocol (WLP, 0x200c2/0x200c7): an
//     AUTOMATIC liveliness message every third of the lease.
//
// Every endpoint discovered, remote or local (a participant matches its own
// writers and readers), is matched with the local ones by [Match]; the rtps
// endpoints get the remote locators (or the participant's defaults), and
// the [MatchListener] of the local endpoint is told in the same step,
// under the participant's lock (other listeners run on a serial dispatcher
// goroutine, never under a lock). [Limits] bound remote participants and
// endpoints; what is refused is counted in [Stats].
//
// Lock order: Participant.mu, then an endpoint's lock, then the engine's
// registry and timer locks. Deliver callbacks of the built-in readers hold
// their reader's lock, so they only decode and post the rest to the event
// loop.
package discovery
