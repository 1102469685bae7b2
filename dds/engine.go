package dds

import (
	"context"
	"time"

	"github.com/ddsgo/ddsgo/internal/discovery"
	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/qos"
)

// engine is what the package needs of a running RTPS participant: the facade of package
// internal/discovery (discovery.Participant) behind an interface, so that tests run against
// an in-memory fake.
type engine interface {
	GUIDPrefix() wire.GuidPrefix
	NewWriter(cfg endpointConfig) (engineWriter, error)
	// NewReader creates a reader that passes the samples of matched writers to deliver,
	// on the engine's receive goroutine; deliver returns false to refuse a sample (the
	// cache has no room), which a reliable reader asks for again after Retry.
	NewReader(cfg endpointConfig, deliver rtps.DeliverFunc) (engineReader, error)
	// Participants returns the discovered (remote, alive) participants.
	Participants() []discovery.ParticipantData
	// Endpoints returns the remote endpoints discovered, matched or not.
	Endpoints() []discovery.EndpointData
	// OnParticipant registers the function called when a remote participant is
	// discovered or announces changed data (alive) or is lost, on the engine's
	// dispatcher goroutine.
	OnParticipant(fn func(p discovery.ParticipantData, alive bool))
	// OnEndpoint registers the function called when an endpoint of a remote participant
	// is first discovered, on the engine's dispatcher goroutine.
	OnEndpoint(fn func(d discovery.EndpointData))
	// AssertLiveliness sends a MANUAL_LIVELINESS_UPDATE participant message.
	AssertLiveliness()
	// SetUserData announces the participant's new USER_DATA.
	SetUserData(ud []byte) error
	// OnLiveliness registers the function called for each participant message of a
	// remote participant (manual: a MANUAL_LIVELINESS_UPDATE); it must not block.
	OnLiveliness(fn func(prefix wire.GuidPrefix, manual bool))
	// LastHeard returns when the remote participant prefix last sent anything (zero
	// when it is not known).
	LastHeard(prefix wire.GuidPrefix) time.Time
	Close() error
}

// endpointConfig is what a local endpoint is created with.
type endpointConfig = discovery.EndpointConfig

// engineWriter is discovery.LocalWriter.
type engineWriter interface {
	GUID() wire.GUID
	// Write stores the change in the history (which owns c.Payload from then on) and
	// sends it; it blocks up to max_blocking_time, or until ctx is done, when a
	// KEEP_ALL history is full.
	Write(ctx context.Context, c rtps.Change) (wire.SequenceNumber, error)
	WaitForAcknowledgments(ctx context.Context) error
	// AssertLiveliness sends the matched readers a HEARTBEAT with the Liveliness flag.
	AssertLiveliness()
	UpdateQos(q qos.Offered) error
	Close() error
}

// engineReader is discovery.LocalReader.
type engineReader interface {
	GUID() wire.GUID
	// Retry makes the reader ask again for the samples deliver refused. It does not
	// block and may be called from any goroutine, deliver included.
	Retry()
	// WaitForHistoricalData waits until the reader has the historical data of the
	// writers it matched, or done is closed (false).
	WaitForHistoricalData(done <-chan struct{}) bool
	UpdateQos(q qos.Requested) error
	Close() error
}

// engineFactory starts the engine of a participant.
type engineFactory func(domain int, s *settings, q qos.DomainParticipantQos) (engine, error)
