package discovery

import (
	"context"
	"log/slog"

	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/qos"
)

// Every discovery and matching decision is logged at slog.LevelDebug, so that
// "why do these two not talk" has an answer in the log: participants
// discovered and lost (with why), endpoints discovered, local and remote
// endpoints matched and unmatched, and for a writer and a reader of the same
// topic that do not match, the precise reason (type name, keyed kind, each
// incompatible policy with the offered and requested values, partitions).
// Pairs of different topics are not candidates and are not logged. Nothing
// is logged at Info.

func (p *Participant) debug() bool { return p.log.Enabled(context.Background(), slog.LevelDebug) }

// logParticipant logs a participant discovered.
func (p *Participant) logParticipant(pd *ParticipantData) {
	if !p.debug() {
		return
	}
	p.log.Debug("discovery: participant discovered", "participant", pd.GUIDPrefix, "vendor", pd.VendorID,
		"name", pd.EntityName, "lease", pd.LeaseDuration,
		"metatraffic_unicast", pd.MetatrafficUnicastLocators, "metatraffic_multicast", pd.MetatrafficMulticastLocators,
		"default_unicast", pd.DefaultUnicastLocators, "default_multicast", pd.DefaultMulticastLocators)
}

// logParticipantLost logs a participant removed, reason being "lease" or
// "dispose".
func (p *Participant) logParticipantLost(pd *ParticipantData, reason string) {
	p.log.Debug("discovery: participant lost", "participant", pd.GUIDPrefix, "vendor", pd.VendorID, "reason", reason)
}

// logEndpoint logs a remote endpoint discovered (or its data changed).
func (p *Participant) logEndpoint(ed *EndpointData, isNew bool) {
	if !p.debug() {
		return
	}
	msg := "discovery: endpoint discovered"
	if !isNew {
		msg = "discovery: endpoint updated"
	}
	p.log.Debug(msg, "endpoint", ed.GUID, "kind", endpointKind(ed), "topic", ed.TopicName, "type", ed.TypeName,
		"keyed", ed.Keyed())
}

func endpointKind(ed *EndpointData) string {
	if ed.IsWriter() {
		return "writer"
	}
	return "reader"
}

// logDecision logs the outcome of evaluating local endpoint l against
// endpoint re: matched, unmatched (was matched) or, for endpoints of the same
// topic, why not.
func (p *Participant) logDecision(l, re *EndpointData, res MatchResult, was bool) {
	if !p.debug() {
		return
	}
	w, r := l, re
	if !l.IsWriter() {
		w, r = re, l
	}
	switch {
	case res.Matched() && !was:
		p.log.Debug("discovery: matched", "local", l.GUID, "remote", re.GUID, "topic", l.TopicName)
	case res.Matched():
	case res.Reason == MismatchRole || res.Reason == MismatchTopic:
	default:
		msg := "discovery: not matched"
		if was {
			msg = "discovery: unmatched"
		}
		p.log.Debug(msg, append([]any{"local", l.GUID, "remote", re.GUID, "topic", l.TopicName},
			mismatchAttrs(w, r, res)...)...)
	}
}

// mismatchAttrs gives the reason writer w and reader r do not match, with the
// values at fault.
func mismatchAttrs(w, r *EndpointData, res MatchResult) []any {
	attrs := []any{"reason", res.Reason.String()}
	switch res.Reason {
	case MismatchType:
		attrs = append(attrs, "writer_type", w.TypeName, "reader_type", r.TypeName)
	case MismatchKeyed:
		attrs = append(attrs, "writer_keyed", w.Keyed(), "reader_keyed", r.Keyed())
	case MismatchPartition:
		attrs = append(attrs, "writer_partitions", w.Offered.Publisher.Partition.Name,
			"reader_partitions", r.Requested.Subscriber.Partition.Name)
	default:
	}
	for _, in := range qos.Explain(w.Offered, r.Requested) {
		attrs = append(attrs, slog.Group(in.Policy.String(), "offered", in.Offered, "requested", in.Requested))
	}
	return attrs
}

// logGone logs local endpoint l unmatched from g because g went away.
func (p *Participant) logGone(l *EndpointData, g wire.GUID) {
	p.log.Debug("discovery: unmatched", "local", l.GUID, "remote", g, "topic", l.TopicName, "reason", "endpoint gone")
}
