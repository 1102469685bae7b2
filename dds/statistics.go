package dds

import "github.com/ddsgo/ddsgo/internal/discovery"

// Statistics is a snapshot of a participant's counters: the traffic it received and
// sent, the size of its tables of remote participants and endpoints, and what it
// dropped, by reason. Input that is malformed, unknown, replayed or beyond a limit is
// counted here and dropped, never more. The counters only grow over the life of the
// participant; the table sizes are those of the moment.
//
// The tables are bounded (docs/architecture.md, "Hostile input"): at most
// rtps.Config.MaxParticipants remote participants (default 1024), of which at most 256
// unconfirmed (announced but not yet heard from in the discovery exchange), at most
// rtps.Config.MaxEndpoints remote endpoints (default 16384), 4096 per participant.
type Statistics struct {
	// Received counts the datagrams the participant read from its sockets; Sent those
	// it sent.
	Received, Sent uint64
	// Participants is the number of remote participants known now, Unconfirmed how
	// many of them have only announced themselves, Endpoints the number of their
	// writers and readers known now.
	Participants, Unconfirmed, Endpoints int
	// BusyPolled counts the datagrams a busy poll found (rtps.Config.BusyPoll): each
	// one a wake-up saved.
	BusyPolled uint64

	// QueueFull counts the datagrams dropped because the receive queue stayed full: the
	// participant received more than it could handle. Discovery traffic waits in the
	// socket for up to a second first (what arrives meanwhile stays in the kernel's
	// buffer, whose overflows the kernel counts, not this).
	QueueFull uint64
	// NotRTPS counts the datagrams that are not RTPS messages.
	NotRTPS uint64
	// Malformed counts the datagrams with an invalid header or submessage (the rest of
	// the datagram is dropped).
	Malformed uint64
	// UnknownWriter counts the submessages of writers that no local reader is matched
	// with; UnknownReader the ACKNACKs and NACK_FRAGs for no local writer.
	UnknownWriter, UnknownReader uint64
	// BadDiscovery counts the discovery data (SPDP, SEDP) that failed to decode, was
	// beyond a limit, or came from a participant about another one.
	BadDiscovery uint64
	// ParticipantsEvicted counts the unconfirmed participants removed to make room
	// for a new one; ParticipantsRefused the new participants refused because the
	// table was full of confirmed ones.
	ParticipantsEvicted, ParticipantsRefused uint64
	// EndpointsRefused counts the remote endpoints refused for a limit.
	EndpointsRefused uint64
	// Duplicates counts the changes received again (a replayed sequence number).
	Duplicates uint64
	// OutOfWindow counts the changes too far ahead of those expected, or beyond the
	// memory for out-of-order changes.
	OutOfWindow uint64
	// Oversize counts the fragmented samples larger than rtps.Config.MaxSampleSize.
	Oversize uint64
	// BadFragments counts the fragments inconsistent with their sample, or for which
	// there was no reassembly room.
	BadFragments uint64
}

// Statistics returns a snapshot of the participant's counters. It is cheap enough to
// call every second.
func (p *DomainParticipant) Statistics() Statistics {
	e, ok := p.eng.(interface{ Stats() discovery.Stats })
	if !ok {
		return Statistics{}
	}
	return statisticsOf(e.Stats())
}

// statisticsOf maps discovery's counters to the public ones.
func statisticsOf(s discovery.Stats) Statistics {
	t, e, r := s.Engine.Transport, s.Engine, s.Readers
	return Statistics{
		Received: t.DatagramsIn, Sent: t.DatagramsOut, BusyPolled: t.BusyPolled,
		Participants: s.Participants, Unconfirmed: s.Unconfirmed, Endpoints: s.Endpoints,
		QueueFull: t.Drops + e.LocalDrops, NotRTPS: e.NotRTPS, Malformed: e.Malformed,
		UnknownWriter: e.UnknownWriter, UnknownReader: e.UnknownReader,
		BadDiscovery:        s.SPDPInvalid + s.SEDPInvalid + s.ForeignEndpoints,
		ParticipantsEvicted: s.ParticipantsEvicted, ParticipantsRefused: s.ParticipantsLimited,
		EndpointsRefused: s.EndpointsLimited,
		Duplicates:       r.Duplicates + r.Old, OutOfWindow: r.OutOfWindow + r.BufferFull,
		Oversize: r.Oversize, BadFragments: r.BadFragments + r.ReassemblyDropped,
	}
}
