package rtps

import (
	"fmt"
	"log/slog"
	"time"
)

// Config configures the RTPS participant behind a DDS DomainParticipant: network,
// discovery, ports and limits. The zero Config is ready to use; each field documents the
// default its zero value selects. A Config is read once, when the participant starts,
// and not changed after that.
type Config struct {
	// Interfaces are the network interfaces to use, by name ("eth0") or address. Empty
	// means every interface that is up, multicast-capable and not loopback (loopback
	// only when there is nothing else).
	Interfaces []string
	// Peers are static unicast peers, "host" or "host:port", for networks without
	// multicast. A peer without a port is reached on the ports of participant indices
	// 0..9. Empty means multicast discovery only.
	Peers []string
	// DisableMulticast opens no multicast socket: discovery relies on Peers. False
	// means multicast discovery on 239.255.0.1 (RTPS 2.5 §9.6.1.4.1).
	DisableMulticast bool
	// Index chooses how the participant index, and with it the unicast ports, is
	// picked. The zero value is IndexAuto.
	Index IndexMode
	// ParticipantIndex is the index IndexFixed uses.
	ParticipantIndex int
	// Ports is the port mapping of RTPS 2.5 §9.6.1.1. A zero field selects the spec's
	// value for it (PB 7400, DG 250, PG 2, d0 0, d1 10, d2 1, d3 11).
	Ports Ports
	// ReadBuffer and WriteBuffer are the sockets' kernel buffer sizes in bytes. Zero
	// means the transport's defaults (large enough for bursts of 64 KiB samples).
	ReadBuffer, WriteBuffer int
	// BusyPoll chooses how each user-traffic socket's receive goroutine waits for its
	// next datagram. Reading the socket (polling, the processor yielded between tries)
	// for a while before it sleeps in Go's netpoller lets a reply arriving meanwhile be
	// read without a wake-up: a request/reply round trip takes about half as long
	// (docs/benchmarks.md), for a processor kept busy while it polls.
	//
	// Zero, the default, polls adaptively: only while the participant is in a
	// request/reply conversation (it sent user data lately) whose replies have come
	// within 100 µs, for at most that long; a stream, a slow exchange and an idle
	// participant never poll. Positive: poll this long after every datagram. Negative:
	// never poll. DomainParticipant.Statistics counts the datagrams a poll found. Linux
	// only; elsewhere it is ignored.
	BusyPoll time.Duration
	// GUIDPrefix is the participant's GUID prefix (RTPS 2.5 §9.3.1.5). The zero value
	// means a fresh one made of the vendor id, host, process and a random part.
	GUIDPrefix [12]byte
	// Name is the participant's ENTITY_NAME in discovery. Empty means none.
	Name string
	// LeaseDuration is the participant lease announced in SPDP: peers drop the
	// participant when they hear nothing from it for that long. Zero means 10 s
	// (Cyclone DDS's default).
	LeaseDuration time.Duration
	// AnnouncePeriod is the period of SPDP announcements. Zero means LeaseDuration/3.
	AnnouncePeriod time.Duration
	// MaxMessageSize bounds the datagrams sent. Zero means 14720 bytes (Cyclone DDS's),
	// or less when an interface in use has a smaller MTU (1472 on Ethernet): datagrams
	// then never need IP fragmentation, which a lossy link punishes (docs/interop.md).
	MaxMessageSize int
	// FragmentSize is the DATA_FRAG fragment size. Zero means 1344 bytes.
	FragmentSize int
	// MaxSampleSize bounds the size of a received (reassembled) sample; larger ones
	// are dropped and counted. Zero means 16 MiB + 64 KiB.
	MaxSampleSize int
	// MaxParticipants bounds the remote participants the participant keeps track
	// of. When the table is full, the oldest participant that has only announced
	// itself (no discovery exchange yet) makes room for a new one, so that forged
	// announcements never lock a real peer out; a new participant is refused only
	// when all are confirmed. Zero means 1024; negative means no limit.
	MaxParticipants int
	// MaxEndpoints bounds the writers and readers of all remote participants that
	// the participant keeps track of (each remote participant may have at most
	// 4096); more are refused and counted. Zero means 16384; negative means no
	// limit.
	MaxEndpoints int
	// WriterLinger bounds how long closing a reliable writer waits for its matched
	// readers to acknowledge what it wrote (its last samples and the unregistrations
	// of its instances), so that they are not lost with it. Zero means 1 s (Cyclone
	// DDS's WriterLingerDuration); negative means no wait.
	WriterLinger time.Duration
	// Logger receives the participant's log records: discovery and matching decisions
	// at Debug, dropped input and failures at Warn. Nil discards them.
	Logger *slog.Logger
}

// IndexMode selects how a participant picks its participant index, which fixes its
// unicast ports (RTPS 2.5 §9.6.1.1).
type IndexMode uint8

// Participant index modes.
const (
	// IndexAuto tries participant indices 0, 1, 2, ... and takes the first whose
	// metatraffic and user unicast ports are both free, as Fast DDS does (and Cyclone
	// DDS with ParticipantIndex "auto"). Peers that list this host without a port
	// find it. The default.
	IndexAuto IndexMode = iota
	// IndexFixed uses Config.ParticipantIndex and fails if its ports are taken.
	IndexFixed
	// IndexNone binds ephemeral unicast ports (Cyclone DDS's default): no limit on
	// participants per host, but static peers without a port cannot find this one.
	IndexNone
)

// String returns the mode's name.
func (m IndexMode) String() string {
	switch m {
	case IndexAuto:
		return "auto"
	case IndexFixed:
		return "fixed"
	case IndexNone:
		return "none"
	}
	return fmt.Sprintf("IndexMode(%d)", uint8(m))
}

// Ports is the port mapping of RTPS 2.5 §9.6.1.1: the port base PB, the domain and
// participant gains DG and PG, and the offsets of the metatraffic multicast (D0),
// metatraffic unicast (D1), user multicast (D2) and user unicast (D3) ports.
type Ports struct {
	PB, DG, PG     int
	D0, D1, D2, D3 int
}
