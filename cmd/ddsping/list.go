package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/qos"
)

// vendors names the RTPS vendor ids (OMG's registry, RTPS 2.5 §8.3.3.1 and
// https://www.dds-foundation.org/dds-rtps-vendor-and-product-ids/).
var vendors = map[[2]byte]string{
	{0x01, 0x01}: "RTI Connext DDS",
	{0x01, 0x02}: "OpenSplice",
	{0x01, 0x03}: "OpenDDS",
	{0x01, 0x06}: "CoreDX",
	{0x01, 0x0a}: "RTI Connext Micro",
	{0x01, 0x0f}: "Fast DDS",
	{0x01, 0x10}: "Cyclone DDS",
	{0x01, 0x11}: "GurumDDS",
	{0x01, 0x12}: "RustDDS",
	{0x01, 0x14}: "Dust DDS",
	{0x01, 0xdd}: "ddsgo",
}

// partRow is what list shows of a discovered participant.
type partRow struct {
	Handle  string `json:"guid"`
	Name    string `json:"name,omitempty"`
	Vendor  string `json:"vendor"`
	Host    string `json:"host,omitempty"`
	PID     string `json:"pid,omitempty"`
	Process string `json:"process,omitempty"`
	Domain  string `json:"domain,omitempty"`
	Lease   string `json:"lease"`
	// RTPS is the protocol version it speaks ("2.3"), Tag its domain tag.
	RTPS string `json:"rtps"`
	Tag  string `json:"domain_tag,omitempty"`
	// Locators are where it receives: user data unicast and multicast, discovery
	// unicast and multicast.
	Locators locators `json:"locators"`
	handle   dds.InstanceHandle
}

// locators are a participant's announced addresses.
type locators struct {
	Unicast       []string `json:"unicast"`
	Multicast     []string `json:"multicast,omitempty"`
	MetaUnicast   []string `json:"metatraffic_unicast"`
	MetaMulticast []string `json:"metatraffic_multicast,omitempty"`
}

func addrs(a []netip.AddrPort) []string {
	out := make([]string, len(a))
	for i, x := range a {
		out[i] = x.String()
	}
	return out
}

// String lists the locators in one line.
func (l locators) String() string {
	part := func(name string, a []string) string {
		if len(a) == 0 {
			return ""
		}
		return " " + name + " " + strings.Join(a, ",")
	}
	return strings.TrimSpace(part("data", l.Unicast) + part("data-mc", l.Multicast) +
		part("discovery", l.MetaUnicast) + part("discovery-mc", l.MetaMulticast))
}

// label names the participant for humans: its entity name, else process and pid, else
// vendor and GUID prefix.
func (r partRow) label() string {
	switch {
	case r.Name != "":
		return r.Name
	case r.Process != "":
		return r.Process + " pid " + r.PID
	default:
		return r.Vendor + " " + r.Handle
	}
}

// describe formats the row without its name.
func (r partRow) describe() string {
	var b strings.Builder
	b.WriteString(r.Vendor)
	if r.Host != "" || r.PID != "" || r.Process != "" {
		fmt.Fprintf(&b, ", %s pid %s (%s)", orDash(r.Host), orDash(r.PID), orDash(r.Process))
	}
	fmt.Fprintf(&b, ", RTPS %s, lease %s, guid %s", r.RTPS, r.Lease, r.Handle)
	if r.Tag != "" {
		fmt.Fprintf(&b, ", domain tag %q", r.Tag)
	}
	return b.String()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// participantRow describes the participant h that p discovered.
func participantRow(p *dds.DomainParticipant, h dds.InstanceHandle) (partRow, error) {
	d, err := p.DiscoveredParticipantData(h)
	if err != nil {
		return partRow{}, err
	}
	pd := &d
	v := pd.VendorID
	vendor, ok := vendors[v]
	if !ok {
		vendor = "vendor " + hex.EncodeToString(v[:])
	}
	row := partRow{
		Handle: hex.EncodeToString(h[:12]),
		Name:   pd.Name,
		Vendor: vendor,
		Lease:  pd.LeaseDuration.String(),
		RTPS:   fmt.Sprintf("%d.%d", pd.ProtocolVersion[0], pd.ProtocolVersion[1]),
		Tag:    pd.DomainTag,
		Locators: locators{
			Unicast: addrs(pd.UnicastLocators), Multicast: addrs(pd.MulticastLocators),
			MetaUnicast: addrs(pd.MetatrafficUnicastLocators), MetaMulticast: addrs(pd.MetatrafficMulticastLocators),
		},
		handle: h,
	}
	row.Host = pd.Properties["__Hostname"]
	row.PID = pd.Properties["__Pid"]
	row.Process = pd.Properties["__ProcessName"]
	if pd.DomainID >= 0 {
		row.Domain = fmt.Sprint(pd.DomainID)
	}
	return row, nil
}

// listen waits for wait (or ctx's end), then returns the participants p discovered.
func listen(ctx context.Context, p *dds.DomainParticipant, wait time.Duration) ([]partRow, error) {
	select {
	case <-ctx.Done():
	case <-time.After(wait):
	}
	return participants(p)
}

// domainView is what p discovered of the domain's endpoints, with the labels and
// domain tags of their participants.
type domainView struct {
	pubs, subs  []dds.EndpointBuiltinTopicData
	names, tags map[dds.InstanceHandle]string
}

// discover returns the endpoints p discovered; rows are its participants.
func discover(p *dds.DomainParticipant, rows []partRow) (domainView, error) {
	v := domainView{names: map[dds.InstanceHandle]string{}, tags: map[dds.InstanceHandle]string{}}
	var err error
	if v.pubs, err = p.DiscoveredPublications(); err != nil {
		return v, err
	}
	if v.subs, err = p.DiscoveredSubscriptions(); err != nil {
		return v, err
	}
	for _, r := range rows {
		v.names[r.handle], v.tags[r.handle] = r.label(), r.Tag
	}
	return v, nil
}

// participants returns the rows of the participants p discovered, sorted by name.
func participants(p *dds.DomainParticipant) ([]partRow, error) {
	hs, err := p.DiscoveredParticipants()
	if err != nil {
		return nil, err
	}
	rows := make([]partRow, 0, len(hs))
	for _, h := range hs {
		r, err := participantRow(p, h)
		if err != nil {
			continue // gone meanwhile
		}
		rows = append(rows, r)
	}
	slices.SortFunc(rows, func(a, b partRow) int {
		return strings.Compare(a.Name+a.Handle, b.Name+b.Handle)
	})
	return rows, nil
}

// endpointLine describes a discovered writer or reader in one line.
func endpointLine(names map[dds.InstanceHandle]string, e dds.EndpointBuiltinTopicData, writer bool) string {
	rel, dur, partitions := e.Requested.Reader.Reliability.Kind, e.Requested.Reader.Durability.Kind, e.Requested.Subscriber.Partition.Name
	if writer {
		rel, dur, partitions = e.Offered.Writer.Reliability.Kind, e.Offered.Writer.Durability.Kind, e.Offered.Publisher.Partition.Name
	}
	key := "keyed"
	if !e.Keyed {
		key = "no key"
	}
	part := ""
	if len(partitions) > 0 {
		part = fmt.Sprintf(" partitions %q", partitions)
	}
	return fmt.Sprintf("topic %q type %q (%s) %v %v%s%s, participant %q",
		e.TopicName, e.TypeName, key, rel, dur, part, qosSummary(e, writer), orDash(names[e.ParticipantKey]))
}

// qosSummary lists the policies of an endpoint that are not their defaults and matter
// to matching or delivery: history, deadline, liveliness, ownership, lifespan, data
// representation.
func qosSummary(e dds.EndpointBuiltinTopicData, writer bool) string {
	r := e.Requested.Reader
	hist, dl, live, own, rep := r.History, r.Deadline, r.Liveliness, r.Ownership, r.DataRepresentation
	var more []string
	if writer {
		w := e.Offered.Writer
		hist, dl, live, own, rep = w.History, w.Deadline, w.Liveliness, w.Ownership, w.DataRepresentation
		if w.Ownership.Kind == qos.Exclusive {
			more = append(more, fmt.Sprintf("strength %d", w.OwnershipStrength.Value))
		}
		if w.Lifespan.Duration != qos.Infinite {
			more = append(more, "lifespan "+w.Lifespan.Duration.String())
		}
	}
	out := " " + hist.Kind.String()
	if hist.Kind == qos.KeepLast {
		out += fmt.Sprint(" ", hist.Depth)
	}
	if dl.Period != qos.Infinite {
		out += " deadline " + dl.Period.String()
	}
	if live.Kind != qos.Automatic || live.LeaseDuration != qos.Infinite {
		out += " liveliness " + live.Kind.String()
		if live.LeaseDuration != qos.Infinite {
			out += " " + live.LeaseDuration.String()
		}
	}
	if own.Kind == qos.Exclusive {
		out += " " + own.Kind.String()
	}
	for _, m := range more {
		out += " " + m
	}
	if len(rep.Value) > 0 {
		reps := make([]string, len(rep.Value))
		for i, v := range rep.Value {
			reps[i] = v.String()
		}
		out += " " + strings.Join(reps, "/")
	}
	return out
}

// whyNot explains why writer w and reader r do not communicate, or returns "" when they
// match: topic, type name, key, partitions and the request-offered policies, as DDS
// matches them.
func whyNot(w, r dds.EndpointBuiltinTopicData) string {
	var why []string
	if w.TypeName != r.TypeName {
		why = append(why, fmt.Sprintf("type names differ (%q vs %q)", w.TypeName, r.TypeName))
	}
	if w.Keyed != r.Keyed {
		why = append(why, "one side has a key, the other not")
	}
	if bad := qos.Explain(w.Offered, r.Requested); len(bad) > 0 {
		reasons := make([]string, len(bad))
		for i, b := range bad {
			reasons[i] = b.String()
		}
		why = append(why, "incompatible QoS: "+strings.Join(reasons, "; "))
	}
	wp, rp := w.Offered.Publisher.Partition.Name, r.Requested.Subscriber.Partition.Name
	if !qos.PartitionsMatch(wp, rp) {
		why = append(why, fmt.Sprintf("partitions do not match (%q vs %q)", wp, rp))
	}
	return strings.Join(why, "; ")
}

// printEndpoints lists the discovered writers and readers and, for every topic with both,
// which pairs match and why the others do not.
func printEndpoints(o *options, p *dds.DomainParticipant, rows []partRow) error {
	v, err := discover(p, rows)
	if err != nil {
		return err
	}
	pubs, subs, names := v.pubs, v.subs, v.names
	byTopic := func(a, b dds.EndpointBuiltinTopicData) int { return strings.Compare(a.TopicName, b.TopicName) }
	slices.SortFunc(pubs, byTopic)
	slices.SortFunc(subs, byTopic)
	fmt.Fprintf(o.out, "writers (%d):\n", len(pubs))
	for _, w := range pubs {
		fmt.Fprintf(o.out, "  %s\n", endpointLine(names, w, true))
	}
	fmt.Fprintf(o.out, "readers (%d):\n", len(subs))
	for _, r := range subs {
		fmt.Fprintf(o.out, "  %s\n", endpointLine(names, r, false))
	}
	fmt.Fprintln(o.out, "matching:")
	pairs := 0
	for _, w := range pubs {
		for _, r := range subs {
			if w.TopicName != r.TopicName {
				continue
			}
			pairs++
			from, to := orDash(names[w.ParticipantKey]), orDash(names[r.ParticipantKey])
			if why := whyNot(w, r); why != "" {
				fmt.Fprintf(o.out, "  %q: writer of %q -> reader of %q: NO MATCH: %s\n", w.TopicName, from, to, why)
			} else {
				fmt.Fprintf(o.out, "  %q: writer of %q -> reader of %q: match\n", w.TopicName, from, to)
			}
		}
	}
	if pairs == 0 {
		fmt.Fprintln(o.out, "  no topic has both a writer and a reader")
	}
	printROS(o.out, pubs, subs, names)
	return nil
}

func setupList(fs *flag.FlagSet, o *options) func(context.Context) error {
	wait := fs.Duration("wait", 2*time.Second, "how long to listen for participants")
	return onNode(o, "ddsping list", func(ctx context.Context, n *node) error {
		gr, err := graphReader(n.p)
		if err != nil {
			return err
		}
		rows, err := listen(ctx, n.p, *wait)
		if err != nil {
			return err
		}
		gs := graphs(gr)
		if o.json {
			st := n.p.Statistics()
			ros, err := rosJSON(n.p, rows)
			if err != nil {
				return err
			}
			ents := map[string][]dcpsEntity{}
			for h, g := range gs {
				ents[hex.EncodeToString(h[:12])] = g.Entities
			}
			return json.NewEncoder(o.out).Encode(map[string]any{"domain": o.domain, "participants": rows, "entities": ents, "ros": ros, "stats": statsJSON(&st)})
		}
		fmt.Fprintf(o.out, "domain %d: %d participants (listened %v)\n", o.domain, len(rows), *wait)
		for _, r := range rows {
			fmt.Fprintf(o.out, "  %q %s\n    locators: %s\n", r.Name, r.describe(), r.Locators)
			if g, ok := gs[r.handle]; ok {
				printGraph(o.out, g)
			}
		}
		if err := printEndpoints(o, n.p, rows); err != nil {
			return err
		}
		printStats(o, n.p)
		return nil
	})
}

func setupWatch(fs *flag.FlagSet, o *options) func(context.Context) error {
	dur := fs.Duration("duration", 0, "stop after this long (0: until interrupted)")
	return onNode(o, "ddsping watch", func(ctx context.Context, n *node) error {
		ctx, cancel := durationUntil(ctx, *dur)
		defer cancel()
		start := time.Now()
		if !o.json {
			fmt.Fprintf(o.out, "watching domain %d: participants, writers, readers and their matching\n", o.domain)
		}
		known := map[string]partRow{}
		eps := endpointWatch{lines: map[string]string{}, pairs: map[string]string{}}
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		var last dds.Statistics
		for tick := 0; ; tick++ {
			if tick%10 == 0 { // every second, when they changed
				watchStats(o, n.p, time.Since(start), &last)
			}
			rows, err := participants(n.p)
			if err != nil {
				return err
			}
			seen := map[string]bool{}
			for _, r := range rows {
				seen[r.Handle] = true
				if _, ok := known[r.Handle]; !ok {
					known[r.Handle] = r
					watchEvent(o, time.Since(start), "new", r)
				}
			}
			for h, r := range known {
				if !seen[h] {
					delete(known, h)
					watchEvent(o, time.Since(start), "gone", r)
				}
			}
			if err := eps.update(o, n.p, rows, time.Since(start)); err != nil {
				return err
			}
			select {
			case <-ctx.Done():
				return nil
			case <-t.C:
			}
		}
	})
}

func watchEvent(o *options, el time.Duration, what string, r partRow) {
	if o.json {
		_ = json.NewEncoder(o.out).Encode(map[string]any{"t": el.Seconds(), "event": what, "participant": r})
		return
	}
	fmt.Fprintf(o.out, "%8.3f  participant %-4s %q %s\n", el.Seconds(), what, r.Name, r.describe())
}

// endpointWatch is what watch knows of the endpoints and of their pairs.
type endpointWatch struct {
	lines map[string]string // endpoint key -> its line
	pairs map[string]string // topic/writer/reader -> verdict
}

// update reports the endpoints and pairs that came, went or changed since the last call.
func (w *endpointWatch) update(o *options, p *dds.DomainParticipant, rows []partRow, el time.Duration) error {
	v, err := discover(p, rows)
	if err != nil {
		return err
	}
	pubs, subs, names := v.pubs, v.subs, v.names
	now := map[string]string{}
	for i, e := range append(pubs, subs...) {
		kind := "writer"
		if i >= len(pubs) {
			kind = "reader"
		}
		now[kind+" "+hex.EncodeToString(e.Key[:])] = kind + " " + endpointLine(names, e, kind == "writer")
	}
	diffEvents(o, el, w.lines, now, "endpoint")
	pairs, _, err := whyTopics(p, rows, "")
	if err != nil {
		return err
	}
	nowPairs := map[string]string{}
	for _, pr := range pairs {
		verdict := "match"
		if !pr.Match {
			verdict = "NO MATCH: " + strings.Join(pr.Why, "; ")
		}
		nowPairs[fmt.Sprintf("%q: writer of %q -> reader of %q", pr.Topic, pr.Writer, pr.Reader)] = verdict
	}
	diffEvents(o, el, w.pairs, nowPairs, "pair")
	return nil
}

// diffEvents reports the entries of now that are new or changed against old, and those
// of old that are gone, then makes old now.
func diffEvents(o *options, el time.Duration, old, now map[string]string, what string) {
	report := func(event, key, line string) {
		if o.json {
			_ = json.NewEncoder(o.out).Encode(map[string]any{"t": el.Seconds(), "event": event, what: line})
			return
		}
		fmt.Fprintf(o.out, "%8.3f  %s %-4s %s\n", el.Seconds(), what, event, line)
	}
	keys := make([]string, 0, len(now))
	for k := range now {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		line := now[k]
		if what == "pair" {
			line = k + ": " + now[k]
		}
		if prev, ok := old[k]; !ok {
			report("new", k, line)
		} else if prev != now[k] {
			report("now", k, line)
		}
	}
	for k, prev := range old {
		if _, ok := now[k]; !ok {
			line := prev
			if what == "pair" {
				line = k
			}
			report("gone", k, line)
		}
	}
	clear(old)
	maps.Copy(old, now)
}
