package dds

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"slices"
	"time"

	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/qos"
)

// The introspection topic. With DDSGO_INTROSPECTION=1 in its environment (as Fast DDS's
// FASTDDS_STATISTICS turns on its statistics topics), every participant publishes the
// graph of its entities on it: participant, publishers, subscribers, topics, writers and
// readers, with their topics, types, main QoS and live statuses. One instance per
// participant, keyed by its handle; RELIABLE, TRANSIENT_LOCAL, KEEP_LAST 1, written when
// the graph changes (checked every second); a participant that leaves takes its
// instance with it. `ddsping ls` shows it. IDL:
//
//	module ddsgo { module dcps {
//	  struct Status { string kind; long total; long current; };
//	  struct Entity { octet handle[16]; octet parent[16]; string kind; boolean enabled;
//	    string topic; string type; string qos; sequence<Status> statuses; };
//	  struct ParticipantGraph { @key octet participant[16]; string name;
//	    sequence<Entity> entities; };
//	}; };
const (
	introspectionEnv    = "DDSGO_INTROSPECTION"
	introspectionTopic  = "ddsgo/introspection"
	introspectionPeriod = time.Second
)

// graphStatus is a status of an entity: its total count and, for the matched and
// liveliness statuses, its current count.
type graphStatus struct {
	Kind           string
	Total, Current int32
}

// graphEntity is an entity of a participant's graph.
type graphEntity struct {
	Handle, Parent InstanceHandle
	Kind           string
	Enabled        bool
	Topic, Type    string
	Qos            string
	Statuses       []graphStatus
}

// participantGraph is a sample of the introspection topic.
type participantGraph struct {
	Participant InstanceHandle `dds:"key"`
	Name        string
	Entities    []graphEntity
}

func (participantGraph) DDSTypeName() string { return "ddsgo::dcps::ParticipantGraph" }

var kindNames = map[entityKind]string{
	kindParticipant: "participant", kindPublisher: "publisher", kindSubscriber: "subscriber",
	kindTopic: "topic", kindWriter: "writer", kindReader: "reader",
}

// introspecting reports whether the environment turns the introspection topic on.
func introspecting() bool {
	v := os.Getenv(introspectionEnv)
	return v != "" && v != "0" && v != "false"
}

// introspect publishes the participant's graph until stop is closed or the participant
// is deleted. It runs on its own goroutine, started when the participant is enabled.
func (p *DomainParticipant) introspect(stop <-chan struct{}) {
	t, err := NewTopic[participantGraph](p, introspectionTopic)
	if err != nil {
		return
	}
	w, err := NewWriter(t, Reliable(), TransientLocal(), KeepLast(1))
	if err != nil {
		return
	}
	skip := []ecm.Entity{t.ent, w.ent}
	tick := time.NewTicker(introspectionPeriod)
	defer tick.Stop()
	var last participantGraph
	for {
		if g := p.graph(skip); !reflect.DeepEqual(g, last) {
			if err := w.Write(context.Background(), &g); err != nil {
				return
			}
			last = g
		}
		select {
		case <-stop:
			return
		case <-tick.C:
		}
	}
}

// graph returns the participant's entities but those of skip, in a stable order.
func (p *DomainParticipant) graph(skip []ecm.Entity) participantGraph {
	var g participantGraph
	var blocks []*statusBlock
	p.mu.Lock()
	h, _ := ecm.ComponentData[handleComp](p.m, p.ent)
	g.Participant, g.Name = h.Handle, p.opts.rtps.Name
	ecm.EachRO2(p.m, func(e ecm.Entity, k kindComp, hc handleComp) bool {
		name, ok := kindNames[k.Kind]
		if !ok || slices.Contains(skip, e) {
			return true
		}
		ge := graphEntity{Handle: hc.Handle, Kind: name}
		if par := p.m.ParentEntity(e); par != ecm.Null {
			ph, _ := ecm.ComponentData[handleComp](p.m, par)
			ge.Parent = ph.Handle
		}
		if en, ok := ecm.ComponentData[enabledComp](p.m, e); ok {
			ge.Enabled = en.Enabled.Load()
		}
		p.describe(e, k.Kind, &ge)
		sc, _ := ecm.ComponentData[statusComp](p.m, e)
		g.Entities = append(g.Entities, ge)
		blocks = append(blocks, sc.s)
		return true
	})
	p.mu.Unlock()
	for i, s := range blocks { // outside p.mu: the status locks are taken without it
		if s != nil {
			g.Entities[i].Statuses = s.peek(g.Entities[i].Kind)
		}
	}
	slices.SortFunc(g.Entities, func(a, b graphEntity) int { return slices.Compare(a.Handle[:], b.Handle[:]) })
	return g
}

// describe fills in the topic, type and QoS of entity e; the caller holds p.mu.
func (p *DomainParticipant) describe(e ecm.Entity, kind entityKind, ge *graphEntity) {
	topic := e
	if ref, ok := ecm.ComponentData[topicRefComp](p.m, e); ok {
		topic = ref.Topic
	}
	if n, ok := ecm.ComponentData[nameComp](p.m, topic); ok {
		ge.Topic, ge.Type = n.Topic, n.Type
	}
	switch kind {
	case kindWriter:
		q, _ := ecm.ComponentData[qos.DataWriterQos](p.m, e)
		ge.Qos = qosLine(q.Reliability, q.Durability, q.History)
	case kindReader:
		q, _ := ecm.ComponentData[qos.DataReaderQos](p.m, e)
		ge.Qos = qosLine(q.Reliability, q.Durability, q.History)
	default:
	}
}

// qosLine summarizes an endpoint's QoS in one line.
func qosLine(r qos.Reliability, d qos.Durability, h qos.History) string {
	if h.Kind == qos.KeepLast {
		return fmt.Sprintf("%v %v %v %d", r.Kind, d.Kind, h.Kind, h.Depth)
	}
	return fmt.Sprintf("%v %v %v", r.Kind, d.Kind, h.Kind)
}

// peek returns the statuses of an entity of kind without taking them.
func (s *statusBlock) peek(kind string) []graphStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch kind {
	case "writer":
		m := s.matched.Peek()
		return []graphStatus{
			{"publication_matched", m.TotalCount, m.CurrentCount},
			{"offered_incompatible_qos", s.incompatible.Total(), 0},
			{"offered_deadline_missed", s.deadline.Total(), 0},
			{"liveliness_lost", s.livelinessL.Total(), 0},
		}
	case "reader":
		m, l := s.matched.Peek(), s.liveliness.Peek()
		return []graphStatus{
			{"subscription_matched", m.TotalCount, m.CurrentCount},
			{"requested_incompatible_qos", s.incompatible.Total(), 0},
			{"requested_deadline_missed", s.deadline.Total(), 0},
			{"liveliness_changed", l.AliveCount + l.NotAliveCount, l.AliveCount},
			{"sample_lost", s.sampleLost.Total(), 0},
			{"sample_rejected", s.rejected.Total(), 0},
		}
	case "topic":
		return []graphStatus{{"inconsistent_topic", s.inconsistent.Total(), 0}}
	}
	return nil
}
