package main

import (
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"strings"

	"github.com/ddsgo/ddsgo/dds"
)

// The introspection topic of ddsgo participants (dds/introspect.go, on with
// DDSGO_INTROSPECTION=1): the graph of a participant's entities. These types mirror its
// IDL, ddsgo::dcps::ParticipantGraph.
type (
	dcpsGraph struct {
		Participant [16]byte `dds:"key"`
		Name        string
		Entities    []dcpsEntity
	}
	dcpsEntity struct {
		Handle, Parent [16]byte
		Kind           string
		Enabled        bool
		Topic, Type    string
		Qos            string
		Statuses       []dcpsStatus
	}
	dcpsStatus struct {
		Kind           string
		Total, Current int32
	}
)

func (dcpsGraph) DDSTypeName() string { return "ddsgo::dcps::ParticipantGraph" }

const graphTopic = "ddsgo/introspection"

// graphReader reads the graphs of the domain's ddsgo participants that publish theirs;
// created before listening, it has them all when the listening ends.
func graphReader(p *dds.DomainParticipant) (*dds.DataReader[dcpsGraph], error) {
	t, err := dds.NewTopic[dcpsGraph](p, graphTopic)
	if err != nil {
		return nil, err
	}
	return dds.NewReader(t, dds.Reliable(), dds.TransientLocal())
}

// graphs returns the latest graph of each participant, by participant handle.
func graphs(r *dds.DataReader[dcpsGraph]) map[dds.InstanceHandle]dcpsGraph {
	out := map[dds.InstanceHandle]dcpsGraph{}
	data, infos, err := r.Read(context.Background(), dds.NoWait(), dds.MaxSamples(1024))
	if err != nil {
		return out
	}
	for i, g := range data {
		if infos[i].ValidData && infos[i].InstanceState == dds.AliveInstanceState {
			out[g.Participant] = g
		}
	}
	return out
}

// printGraph prints a participant's entities as a tree under its row.
func printGraph(w io.Writer, g dcpsGraph) {
	children := map[[16]byte][]dcpsEntity{}
	for _, e := range g.Entities {
		children[e.Parent] = append(children[e.Parent], e)
	}
	var walk func(parent [16]byte, depth int)
	walk = func(parent [16]byte, depth int) {
		for _, e := range children[parent] {
			fmt.Fprintf(w, "%s%s\n", strings.Repeat("  ", depth), entityLine(e))
			walk(e.Handle, depth+1)
		}
	}
	fmt.Fprintln(w, "    entities (introspection):")
	walk([16]byte{}, 3)
}

// entityLine describes an entity of a graph in one line.
func entityLine(e dcpsEntity) string {
	var b strings.Builder
	b.WriteString(e.Kind)
	if e.Topic != "" {
		fmt.Fprintf(&b, " %q type %q", e.Topic, e.Type)
	}
	if e.Qos != "" {
		b.WriteString(" " + e.Qos)
	}
	if !e.Enabled {
		b.WriteString(" (not enabled)")
	}
	for _, s := range e.Statuses {
		switch {
		case strings.HasSuffix(s.Kind, "_matched"), s.Kind == "liveliness_changed":
			fmt.Fprintf(&b, ", %s %d/%d", s.Kind, s.Current, s.Total)
		case s.Total > 0:
			fmt.Fprintf(&b, ", %s %d", s.Kind, s.Total)
		}
	}
	fmt.Fprintf(&b, " [%s]", hex.EncodeToString(e.Handle[12:]))
	return b.String()
}
