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
	// service returns the service of topic name when it is a request or reply topic,
	// rq/NAMERequest or rr/NAMEReply (prefix and suffix).
	service := func(name, prefix, suffix string) *rosService {
		if !strings.HasPrefix(name, prefix) || !strings.HasSuffix(name, suffix) {
			return nil
		}
		name = "/" + strings.TrimSuffix(strings.TrimPrefix(name, prefix), suffix)
		s := services[name]
		if s == nil {
			s = &rosService{name: name}
			services[name] = s
		}
		return s
	}
	for _, w := range pubs {
		who := orDash(names[w.ParticipantKey])
		if strings.HasPrefix(w.TopicName, "rt/") {
			topic(w).writers++
		} else if s := service(w.TopicName, "rr/", "Reply"); s != nil {
			s.servers = appendOnce(s.servers, who)
		} else if s := service(w.TopicName, "rq/", "Request"); s != nil {
			s.client = appendOnce(s.client, who)
		}
	}
	for _, r := range subs {
		if strings.HasPrefix(r.TopicName, "rt/") {
			topic(r).readers++
		} else if s := service(r.TopicName, "rq/", "Request"); s != nil {
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
