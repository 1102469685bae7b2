package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"slices"
	"strings"
	"time"

	"golang.org/x/net/ipv4"

	"github.com/ddsgo/ddsgo/dds"
)

// pairReport is what why says of one writer and one reader of a topic.
type pairReport struct {
	Topic      string   `json:"topic"`
	Writer     string   `json:"writer"` // the writer's participant
	Reader     string   `json:"reader"` // the reader's participant
	WriterGUID string   `json:"writer_guid"`
	ReaderGUID string   `json:"reader_guid"`
	Match      bool     `json:"match"`
	Why        []string `json:"why,omitempty"`
}

// desc names the pair: its topic and the participants of its writer and reader.
func (pr *pairReport) desc() string {
	return fmt.Sprintf("%q: writer of %q -> reader of %q", pr.Topic, pr.Writer, pr.Reader)
}

// verdict is "match", or "NO MATCH: " and why not.
func (pr *pairReport) verdict() string {
	if pr.Match {
		return "match"
	}
	return "NO MATCH: " + strings.Join(pr.Why, "; ")
}

// loneReport is a writer without a reader or a reader without a writer.
type loneReport struct {
	Topic       string `json:"topic"`
	Endpoint    string `json:"endpoint"` // "writer" or "reader"
	Participant string `json:"participant"`
}

// whyTopics pairs the writers and readers of v of every topic (of topic only, unless
// empty) and says why each pair matches or not, and which endpoints have no
// counterpart.
func whyTopics(v domainView, topic string) ([]pairReport, []loneReport) {
	names, tags := v.names, v.tags
	drop := func(e dds.EndpointBuiltinTopicData) bool { return topic != "" && e.TopicName != topic }
	pubs, subs := slices.DeleteFunc(slices.Clone(v.pubs), drop), slices.DeleteFunc(slices.Clone(v.subs), drop)
	byTopic := func(a, b dds.EndpointBuiltinTopicData) int { return strings.Compare(a.TopicName, b.TopicName) }
	slices.SortStableFunc(pubs, byTopic)
	slices.SortStableFunc(subs, byTopic)
	pairs, lone := []pairReport{}, []loneReport{} // [] rather than null in JSON
	for _, w := range pubs {
		n := 0
		for _, r := range subs {
			if r.TopicName != w.TopicName {
				continue
			}
			n++
			pr := pairReport{
				Topic: w.TopicName, Writer: orDash(names[w.ParticipantKey]), Reader: orDash(names[r.ParticipantKey]),
				WriterGUID: hex.EncodeToString(w.Key[:]), ReaderGUID: hex.EncodeToString(r.Key[:]),
			}
			if why := whyNot(w, r); why != "" {
				pr.Why = strings.Split(why, "; ")
			}
			if tw, tr := tags[w.ParticipantKey], tags[r.ParticipantKey]; tw != tr {
				pr.Why = append(pr.Why, fmt.Sprintf("domain tags differ (%q vs %q)", tw, tr))
			}
			pr.Match = len(pr.Why) == 0
			pairs = append(pairs, pr)
		}
		if n == 0 {
			lone = append(lone, loneReport{w.TopicName, "writer", orDash(names[w.ParticipantKey])})
		}
	}
	for _, r := range subs {
		if !slices.ContainsFunc(pubs, func(w dds.EndpointBuiltinTopicData) bool { return w.TopicName == r.TopicName }) {
			lone = append(lone, loneReport{r.TopicName, "reader", orDash(names[r.ParticipantKey])})
		}
	}
	return pairs, lone
}

// similarTopics returns the discovered topic names that differ from topic only in case
// or in ROS 2's rt/ prefix: the usual reasons why a name matches nothing.
func similarTopics(p *dds.DomainParticipant, topic string) []string {
	pubs, _ := p.DiscoveredPublications()
	subs, _ := p.DiscoveredSubscriptions()
	bare := func(s string) string { return strings.ToLower(strings.TrimPrefix(s, "rt/")) }
	var out []string
	for _, e := range append(pubs, subs...) {
		if e.TopicName != topic && bare(e.TopicName) == bare(topic) && !slices.Contains(out, e.TopicName) {
			out = append(out, e.TopicName)
		}
	}
	return out
}

func setupWhy(fs *flag.FlagSet, o *options) func(context.Context) error {
	wait := fs.Duration("wait", 2*time.Second, "how long to listen before answering")
	return func(ctx context.Context) error {
		if fs.NArg() > 1 {
			return fmt.Errorf("%w: why [TOPIC]", errUsage)
		}
		topic := ""
		if fs.NArg() == 1 {
			topic = ddsTopic(fs.Arg(0))
		}
		return onNode(o, "ddsping why", func(ctx context.Context, n *node) error {
			rows, err := listen(ctx, n.p, *wait)
			if err != nil {
				return err
			}
			if len(rows) == 0 {
				return nothingSeen(o, *wait)
			}
			v, err := discover(n.p, rows)
			if err != nil {
				return err
			}
			pairs, lone := whyTopics(v, topic)
			return printWhy(o, n.p, topic, pairs, lone)
		})(ctx)
	}
}

// printWhy prints the pairs and the lone endpoints; it fails (exit 1) when topic was
// named and nothing of it matches.
func printWhy(o *options, p *dds.DomainParticipant, topic string, pairs []pairReport, lone []loneReport) error {
	similar := []string{}
	if topic != "" && len(pairs) == 0 && len(lone) == 0 {
		similar = similarTopics(p, topic)
	}
	if o.json {
		if err := json.NewEncoder(o.out).Encode(map[string]any{"pairs": pairs, "alone": lone, "similar": similar}); err != nil {
			return err
		}
	} else {
		for _, pr := range pairs {
			fmt.Fprintf(o.out, "%s: %s\n", pr.desc(), pr.verdict())
		}
		for _, l := range lone {
			other := "reader"
			if l.Endpoint == "reader" {
				other = "writer"
			}
			fmt.Fprintf(o.out, "%q: %s of %q has no %s on the domain\n", l.Topic, l.Endpoint, l.Participant, other)
		}
		if topic != "" && len(pairs) == 0 && len(lone) == 0 {
			fmt.Fprintf(o.out, "%q: no writer or reader on the domain", topic)
			if len(similar) > 0 {
				fmt.Fprintf(o.out, "; did you mean %s? (ROS 2 topics are rt/NAME; names are case-sensitive)", strings.Join(similar, ", "))
			}
			fmt.Fprintln(o.out)
		}
	}
	matched := slices.ContainsFunc(pairs, func(pr pairReport) bool { return pr.Match })
	if topic != "" && !matched {
		return fmt.Errorf("%w: nothing matches on %q", errFailed, topic)
	}
	return nil
}

// nothingSeen says what to check when no participant answered: the interfaces and
// whether multicast works on each (a datagram sent to a group on it comes back), the
// unicast peers, the domain's ports.
func nothingSeen(o *options, waited time.Duration) error {
	checks := networkChecks(o)
	if o.json {
		if err := json.NewEncoder(o.out).Encode(map[string]any{"participants": 0, "checks": checks}); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(o.out, "no participant on domain %d answered within %v; what to check:\n", o.domain, waited)
		for _, c := range checks {
			fmt.Fprintf(o.out, "  %s\n", c)
		}
	}
	return fmt.Errorf("%w: no participant on domain %d", errFailed, o.domain)
}

// networkChecks lists what nothingSeen reports.
func networkChecks(o *options) []string {
	var out []string
	ifs, err := net.Interfaces()
	if err != nil {
		return []string{"interfaces: " + err.Error()}
	}
	for _, ifc := range ifs {
		if len(o.interfaces) > 0 && !slices.Contains(o.interfaces, ifc.Name) {
			continue
		}
		out = append(out, "interface "+ifc.Name+": "+interfaceCheck(ifc))
	}
	if len(o.peers) == 0 {
		out = append(out, "unicast peers: none; where multicast does not reach, list the peers' hosts with -peer HOST (and on them)")
	} else {
		out = append(out, "unicast peers: "+strings.Join(o.peers, ", "))
	}
	spdp := 7400 + 250*o.domain
	out = append(out,
		fmt.Sprintf("domain %d: discovery multicast 239.255.0.1:%d; each participant of a host takes a pair of unicast ports, discovery %d and data %d, then %d and %d, ...: a firewall must let them through",
			o.domain, spdp, spdp+10, spdp+11, spdp+12, spdp+13),
		"ddsgo sends multicast with TTL 1: peers on other subnets need -peer",
		"the peers must use the same domain id (ROS 2: ROS_DOMAIN_ID) and domain tag")
	return out
}

// interfaceCheck describes an interface and, when it is up and multicast-capable,
// whether a multicast datagram sent on it comes back.
func interfaceCheck(ifc net.Interface) string {
	var addrs []string
	if as, err := ifc.Addrs(); err == nil {
		for _, a := range as {
			addrs = append(addrs, a.String())
		}
	}
	desc := strings.Join(addrs, " ")
	switch {
	case ifc.Flags&net.FlagUp == 0:
		return desc + " down"
	case ifc.Flags&net.FlagMulticast == 0:
		return desc + " up, no multicast (ip link set " + ifc.Name + " multicast on)"
	}
	if err := multicastLoop(ifc); err != nil {
		return desc + " up, multicast FAILS: " + err.Error()
	}
	return desc + " up, multicast works (a datagram to 239.255.0.1 came back)"
}

// multicastLoop sends a datagram to a group on ifc and waits for it to come back.
func multicastLoop(ifc net.Interface) error {
	c, err := net.ListenPacket("udp4", "0.0.0.0:0")
	if err != nil {
		return err
	}
	defer func() { _ = c.Close() }()
	pc := ipv4.NewPacketConn(c)
	group := &net.UDPAddr{IP: net.IPv4(239, 255, 0, 1)}
	if err := pc.JoinGroup(&ifc, group); err != nil {
		return fmt.Errorf("join: %w", err)
	}
	if err := pc.SetMulticastInterface(&ifc); err != nil {
		return fmt.Errorf("set interface: %w", err)
	}
	_ = pc.SetMulticastLoopback(true)
	_ = pc.SetMulticastTTL(1)
	group.Port = c.LocalAddr().(*net.UDPAddr).Port
	probe := []byte(fmt.Sprintf("ddsping why probe %d", time.Now().UnixNano()))
	if _, err := pc.WriteTo(probe, nil, group); err != nil {
		return fmt.Errorf("send: %w (no route to 224.0.0.0/4 on it?)", err)
	}
	buf := make([]byte, 128)
	deadline := time.Now().Add(300 * time.Millisecond)
	for {
		_ = c.SetReadDeadline(deadline)
		n, _, err := c.ReadFrom(buf)
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return errors.New("nothing came back within 300 ms")
		}
		if err != nil {
			return err
		}
		if string(buf[:n]) == string(probe) {
			return nil
		}
	}
}
