package dds

import (
	"log/slog"
	"time"

	"github.com/ddsgo/ddsgo/rtps/transport"
)

// Config configures the RTPS participant behind a DomainParticipant: network,
// discovery and limits. The zero Config is ready to use; each field documents the
// default its zero value selects. A Config is read once, when the participant is
// enabled, and not changed after that.
type Config struct {
	// Interfaces are the network interfaces to use, by name ("eth0") or address. Empty
	// means every usable interface.
	Interfaces []string
	// Peers are static unicast peers, "host" or "host:port", for networks without
	// multicast. Empty means multicast discovery only.
	Peers []string
	// DisableMulticast opens no multicast socket: discovery relies on Peers. False
	// means multicast discovery (239.255.0.1).
	DisableMulticast bool
	// IndexMode and ParticipantIndex choose the participant index that picks the
	// unicast ports. The zero IndexMode picks the first free index.
	IndexMode        transport.IndexMode
	ParticipantIndex int
	// Net opens the sockets. Nil means real UDP sockets; tests pass an in-memory
	// network.
	Net transport.Net
	// Logger receives the participant's log records. Nil discards them.
	Logger *slog.Logger
	// Name is the participant's ENTITY_NAME in discovery. Empty means none.
	Name string
	// LeaseDuration is the participant lease announced in SPDP. Zero means the engine's
	// default (10 s, like Cyclone DDS).
	LeaseDuration time.Duration
	// AnnouncePeriod is the period of SPDP announcements. Zero means the engine's
	// default, a fraction of the lease.
	AnnouncePeriod time.Duration
	// MaxMessageSize bounds the datagrams sent. Zero means 14720 bytes (Cyclone DDS's).
	MaxMessageSize int
	// FragmentSize is the DATA_FRAG fragment size. Zero means 1344 bytes.
	FragmentSize int
	// MaxSampleSize bounds the size of a received (reassembled) sample. Zero means the
	// engine's default.
	MaxSampleSize int
	// WriterLinger bounds how long deleting a reliable writer waits for its matched
	// readers to acknowledge what it wrote (its last samples and the unregistrations
	// of its instances), so that they are not lost with it. Zero means 1 s (Cyclone
	// DDS's WriterLingerDuration); negative means no wait.
	WriterLinger time.Duration
	// Now returns the current time, for timestamps and the reader caches. Nil means
	// time.Now.
	Now func() time.Time
}

// Option is an optional argument of CreateParticipant.
type Option func(*options)

type options struct {
	cfg    Config
	engine engineFactory
}

// WithConfig makes CreateParticipant use cfg.
func WithConfig(cfg Config) Option {
	return func(o *options) { o.cfg = cfg }
}

// withEngine makes CreateParticipant use another engine (tests).
func withEngine(f engineFactory) Option {
	return func(o *options) { o.engine = f }
}
