package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ddsgo/ddsgo/dds"
)

// rosType returns ROS 2's name of a DDS type name: pkg::msg::dds_::Name_ is pkg/msg/Name
// (and the srv forms the same way); other names stay as they are.
func rosType(t string) string {
	p := strings.Split(t, "::")
	if len(p) == 4 && p[2] == "dds_" && strings.HasSuffix(p[3], "_") {
		return p[0] + "/" + p[1] + "/" + strings.TrimSuffix(p[3], "_")
	}
	return t
}

// rosTopic is a ROS 2 topic seen on the domain: its writers and readers.
type rosTopic struct {
	name, typ        string
	writers, readers int
}

// rosService is a ROS 2 service seen on the domain: who serves it (a reader of its
// requests and a writer of its replies in one participant) and who calls it.
type rosService struct {
	name, typ       string
	servers, client []string
}

// rosView sorts the discovered endpoints with ROS 2's names into topics (rt/NAME) and
// services (rq/NAMERequest, rr/NAMEReply).
func rosView(pubs, subs []dds.EndpointBuiltinTopicData, names map[dds.InstanceHandle]string) ([]rosTopic, []rosService) {
	topics := map[string]*rosTopic{}
	services := map[string]*rosService{}
	topic := func(e dds.EndpointBuiltinTopicData) *rosTopic {
		name := "/" + strings.TrimPrefix(e.TopicName, "rt/")
		t := topics[name]
		if t == nil {
			t = &rosTopic{name: name, typ: rosType(e.TypeName)}
			topics[name] = t
		}
		return t
	}
	service := func(name string) *rosService {
		s := services[name]
		if s == nil {
			s = &rosService{name: name}
			services[name] = s
		}
		return s
	}
	for _, w := range pubs {
		switch {
		case strings.HasPrefix(w.TopicName, "rt/"):
			topic(w).writers++
		case strings.HasPrefix(w.TopicName, "rr/") && strings.HasSuffix(w.TopicName, "Reply"):
			s := service("/" + strings.TrimSuffix(strings.TrimPrefix(w.TopicName, "rr/"), "Reply"))
			s.servers = appendOnce(s.servers, orDash(names[w.ParticipantKey]))
		case strings.HasPrefix(w.TopicName, "rq/") && strings.HasSuffix(w.TopicName, "Request"):
			s := service("/" + strings.TrimSuffix(strings.TrimPrefix(w.TopicName, "rq/"), "Request"))
			s.client = appendOnce(s.client, orDash(names[w.ParticipantKey]))
		}
	}
	for _, r := range subs {
		switch {
		case strings.HasPrefix(r.TopicName, "rt/"):
			topic(r).readers++
		case strings.HasPrefix(r.TopicName, "rq/") && strings.HasSuffix(r.TopicName, "Request"):
			s := service("/" + strings.TrimSuffix(strings.TrimPrefix(r.TopicName, "rq/"), "Request"))
			s.typ = strings.TrimSuffix(rosType(r.TypeName), "_Request")
		}
	}
	return sortedValues(topics), sortedValues(services)
}

func appendOnce(l []string, s string) []string {
	if slices.Contains(l, s) {
		return l
	}
	return append(l, s)
}

// sortedValues returns the values of m in the order of their keys.
func sortedValues[V any](m map[string]*V) []V {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	vs := make([]V, 0, len(keys))
	for _, k := range keys {
		vs = append(vs, *m[k])
	}
	return vs
}

// printROS prints the ROS 2 topics and services of the domain, when there are any.
func printROS(w io.Writer, pubs, subs []dds.EndpointBuiltinTopicData, names map[dds.InstanceHandle]string) {
	topics, services := rosView(pubs, subs, names)
	if len(topics) > 0 {
		fmt.Fprintf(w, "ROS 2 topics (%d):\n", len(topics))
		for _, t := range topics {
			fmt.Fprintf(w, "  %s  %s  %d writers, %d readers\n", t.name, t.typ, t.writers, t.readers)
		}
	}
	if len(services) > 0 {
		fmt.Fprintf(w, "ROS 2 services (%d):\n", len(services))
		for _, s := range services {
			fmt.Fprintf(w, "  %s  %s  served by %s", s.name, orDash(s.typ), orDash(strings.Join(s.servers, ", ")))
			if len(s.client) > 0 {
				fmt.Fprintf(w, "; clients %s", strings.Join(s.client, ", "))
			}
			fmt.Fprintln(w)
		}
	}
}
