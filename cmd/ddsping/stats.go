package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/ddsgo/ddsgo/dds"
)

// drop is one reason of dds.Statistics with its count.
type drop struct {
	name string
	n    uint64
}

// drops returns the drop counters of s by reason, in a fixed order.
func drops(s *dds.Statistics) []drop {
	return []drop{
		{"queue-full", s.QueueFull},
		{"not-rtps", s.NotRTPS},
		{"malformed", s.Malformed},
		{"unknown-writer", s.UnknownWriter},
		{"unknown-reader", s.UnknownReader},
		{"bad-discovery", s.BadDiscovery},
		{"participants-evicted", s.ParticipantsEvicted},
		{"participants-refused", s.ParticipantsRefused},
		{"endpoints-refused", s.EndpointsRefused},
		{"duplicates", s.Duplicates},
		{"out-of-window", s.OutOfWindow},
		{"oversize", s.Oversize},
		{"bad-fragments", s.BadFragments},
	}
}

// statsLine says in one line what the participant received and holds, and what it
// dropped by reason (only the reasons with drops).
func statsLine(s *dds.Statistics) string {
	var b strings.Builder
	fmt.Fprintf(&b, "received %d, sent %d datagrams", s.Received, s.Sent)
	if s.BusyPolled > 0 {
		fmt.Fprintf(&b, " (%d received by busy polls)", s.BusyPolled)
	}
	fmt.Fprintf(&b, "; %d remote participants (%d unconfirmed), %d endpoints; dropped:",
		s.Participants, s.Unconfirmed, s.Endpoints)
	none := true
	for _, d := range drops(s) {
		if d.n > 0 {
			fmt.Fprintf(&b, " %s %d", d.name, d.n)
			none = false
		}
	}
	if none {
		b.WriteString(" nothing")
	}
	return b.String()
}

// statsJSON is s as a JSON object: the counters by their names in statsLine.
func statsJSON(s *dds.Statistics) map[string]any {
	m := map[string]any{
		"received": s.Received, "sent": s.Sent, "busy_polled": s.BusyPolled,
		"participants": s.Participants, "unconfirmed": s.Unconfirmed, "endpoints": s.Endpoints,
	}
	for _, d := range drops(s) {
		m[strings.ReplaceAll(d.name, "-", "_")] = d.n // JSON keys as the others are
	}
	return m
}

// printStats prints the statistics of ddsping's own participant (list).
func printStats(o *options, p *dds.DomainParticipant) {
	s := p.Statistics()
	fmt.Fprintf(o.out, "this participant: %s\n", statsLine(&s))
}

// watchStats prints the statistics of ddsping's own participant when a drop counter or
// a table size changed since last, and keeps them in last (watch).
func watchStats(o *options, p *dds.DomainParticipant, el time.Duration, last *dds.Statistics) {
	s := p.Statistics()
	changed := s.Participants != last.Participants || s.Unconfirmed != last.Unconfirmed || s.Endpoints != last.Endpoints
	for i, d := range drops(&s) {
		changed = changed || d.n != drops(last)[i].n
	}
	*last = s
	if !changed {
		return
	}
	if o.json {
		_ = json.NewEncoder(o.out).Encode(map[string]any{"t": el.Seconds(), "event": "stats", "stats": statsJSON(&s)})
		return
	}
	fmt.Fprintf(o.out, "%8.3f  stats: %s\n", el.Seconds(), statsLine(&s))
}
