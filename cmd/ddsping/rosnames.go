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
	Name    string `json:"name"`
	Type    string `json:"type"`
	Writers int    `json:"writers"`
	Readers int    `json:"readers"`
}

// rosService is a ROS 2 service seen on the domain: who serves it (a writer of its
// replies) and who calls it (a writer of its requests), by participant.
type rosService struct {
	Name    string   `json:"name"`
	Type    string   `json:"type"`
	Servers []string `json:"servers"`
	Clients []string `json:"clients"`
}

// rosJSON is the ROS 2 view of what p discovered, for list -json.
func rosJSON(p *dds.DomainParticipant, rows []partRow) (map[string]any, error) {
	pubs, err := p.DiscoveredPublications()
	if err != nil {
		return nil, err
	}
	subs, err := p.DiscoveredSubscriptions()
	if err != nil {
		return nil, err
	}
	names := map[dds.InstanceHandle]string{}
	for _, r := range rows {
		names[r.handle] = r.label()
	}
	topics, services := rosView(pubs, subs, names)
	return map[string]any{"topics": topics, "services": services}, nil
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
			t = &rosTopic{Name: name, Type: rosType(e.TypeName)}
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
			s = &rosService{Name: name}
			services[name] = s
		}
		return s
	}
	for _, w := range pubs {
		who := orDash(names[w.ParticipantKey])
		if strings.HasPrefix(w.TopicName, "rt/") {
			topic(w).Writers++
		} else if s := service(w.TopicName, "rr/", "Reply"); s != nil {
			s.Servers = appendOnce(s.Servers, who)
		} else if s := service(w.TopicName, "rq/", "Request"); s != nil {
			s.Clients = appendOnce(s.Clients, who)
		}
	}
	for _, r := range subs {
		if strings.HasPrefix(r.TopicName, "rt/") {
			topic(r).Readers++
		} else if s := service(r.TopicName, "rq/", "Request"); s != nil {
			s.Type = strings.TrimSuffix(rosType(r.TypeName), "_Request")
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
			fmt.Fprintf(w, "  %s  %s  %d writers, %d readers\n", t.Name, t.Type, t.Writers, t.Readers)
		}
	}
	if len(services) > 0 {
		fmt.Fprintf(w, "ROS 2 services (%d):\n", len(services))
		for _, s := range services {
			fmt.Fprintf(w, "  %s  %s  served by %s", s.Name, orDash(s.Type), orDash(strings.Join(s.Servers, ", ")))
			if len(s.Clients) > 0 {
				fmt.Fprintf(w, "; clients %s", strings.Join(s.Clients, ", "))
			}
			fmt.Fprintln(w)
		}
	}
}
