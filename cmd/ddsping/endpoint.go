package main

import (
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/qos"
)

// endpointRow is what list and watch say of a discovered writer or reader: its topic,
// type and the policies that matter to matching or delivery. A duration left out is
// infinite.
type endpointRow struct {
	Kind            string   `json:"kind"` // "writer" or "reader"
	GUID            string   `json:"guid"`
	Topic           string   `json:"topic"`
	Type            string   `json:"type"`
	Keyed           bool     `json:"keyed"`
	Participant     string   `json:"participant"`
	ParticipantGUID string   `json:"participant_guid"`
	Reliability     string   `json:"reliability"`
	Durability      string   `json:"durability"`
	Partitions      []string `json:"partitions,omitempty"`
	History         string   `json:"history"`
	Depth           int32    `json:"depth,omitempty"` // KEEP_LAST
	Deadline        string   `json:"deadline,omitempty"`
	Liveliness      string   `json:"liveliness"`
	LivelinessLease string   `json:"liveliness_lease,omitempty"`
	Ownership       string   `json:"ownership"`
	Strength        *int32   `json:"strength,omitempty"` // an EXCLUSIVE writer's
	Lifespan        string   `json:"lifespan,omitempty"` // a writer's
	Representation  []string `json:"data_representation,omitempty"`
}

// newEndpointRow describes e, a writer's if writer; names labels the participants.
func newEndpointRow(names map[dds.InstanceHandle]string, e dds.EndpointBuiltinTopicData, writer bool) endpointRow {
	r := e.Requested.Reader
	rel, dur, hist, dl, live, own, rep := r.Reliability, r.Durability, r.History, r.Deadline, r.Liveliness, r.Ownership, r.DataRepresentation
	row := endpointRow{
		Kind: "reader", GUID: hex.EncodeToString(e.Key[:]), Topic: e.TopicName, Type: e.TypeName, Keyed: e.Keyed,
		Participant: orDash(names[e.ParticipantKey]), ParticipantGUID: hex.EncodeToString(e.ParticipantKey[:12]),
		Partitions: e.Requested.Subscriber.Partition.Name,
	}
	if writer {
		w := e.Offered.Writer
		rel, dur, hist, dl, live, own, rep = w.Reliability, w.Durability, w.History, w.Deadline, w.Liveliness, w.Ownership, w.DataRepresentation
		row.Kind, row.Partitions = "writer", e.Offered.Publisher.Partition.Name
		if own.Kind == qos.Exclusive {
			row.Strength = &w.OwnershipStrength.Value
		}
		row.Lifespan = finite(w.Lifespan.Duration)
	}
	row.Reliability, row.Durability, row.History = rel.Kind.String(), dur.Kind.String(), hist.Kind.String()
	if hist.Kind == qos.KeepLast {
		row.Depth = hist.Depth
	}
	row.Deadline = finite(dl.Period)
	row.Liveliness, row.LivelinessLease = live.Kind.String(), finite(live.LeaseDuration)
	row.Ownership = own.Kind.String()
	for _, v := range rep.Value {
		row.Representation = append(row.Representation, v.String())
	}
	return row
}

// finite returns d as text, "" when it is infinite.
func finite(d time.Duration) string {
	if d == qos.Infinite {
		return ""
	}
	return d.String()
}

// line describes the endpoint in one line, leaving out the policies at their defaults.
func (r *endpointRow) line() string {
	key := "keyed"
	if !r.Keyed {
		key = "no key"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "topic %q type %q (%s) %s %s", r.Topic, r.Type, key, r.Reliability, r.Durability)
	if len(r.Partitions) > 0 {
		fmt.Fprintf(&b, " partitions %q", r.Partitions)
	}
	b.WriteString(" " + r.History)
	if r.Depth > 0 {
		fmt.Fprint(&b, " ", r.Depth)
	}
	if r.Deadline != "" {
		b.WriteString(" deadline " + r.Deadline)
	}
	if r.Liveliness != qos.Automatic.String() || r.LivelinessLease != "" {
		b.WriteString(" liveliness " + r.Liveliness)
		if r.LivelinessLease != "" {
			b.WriteString(" " + r.LivelinessLease)
		}
	}
	if r.Ownership == qos.Exclusive.String() {
		b.WriteString(" " + r.Ownership)
	}
	if r.Strength != nil {
		fmt.Fprintf(&b, " strength %d", *r.Strength)
	}
	if r.Lifespan != "" {
		b.WriteString(" lifespan " + r.Lifespan)
	}
	if len(r.Representation) > 0 {
		b.WriteString(" " + strings.Join(r.Representation, "/"))
	}
	fmt.Fprintf(&b, ", participant %q", r.Participant)
	return b.String()
}
