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
	writers, readers := endpointRows(v)
	fmt.Fprintf(o.out, "writers (%d):\n", len(writers))
	for _, w := range writers {
		fmt.Fprintf(o.out, "  %s\n", w.line())
	}
	fmt.Fprintf(o.out, "readers (%d):\n", len(readers))
	for _, r := range readers {
		fmt.Fprintf(o.out, "  %s\n", r.line())
	}
	pairs, _ := whyTopics(v, "")
	fmt.Fprintln(o.out, "matching:")
	for _, pr := range pairs {
		fmt.Fprintf(o.out, "  %s: %s\n", pr.desc(), pr.verdict())
	}
	if len(pairs) == 0 {
		fmt.Fprintln(o.out, "  no topic has both a writer and a reader")
	}
	printROS(o.out, v.pubs, v.subs, v.names)
	return nil
}

// endpointRows describes the writers and readers of v, each sorted by topic.
func endpointRows(v domainView) (writers, readers []endpointRow) {
	writers, readers = []endpointRow{}, []endpointRow{} // [] rather than null in JSON
	byTopic := func(a, b dds.EndpointBuiltinTopicData) int { return strings.Compare(a.TopicName, b.TopicName) }
	slices.SortStableFunc(v.pubs, byTopic)
	slices.SortStableFunc(v.subs, byTopic)
	for _, e := range v.pubs {
		writers = append(writers, newEndpointRow(v.names, e, true))
	}
	for _, e := range v.subs {
		readers = append(readers, newEndpointRow(v.names, e, false))
	}
	return writers, readers
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
			v, err := discover(n.p, rows)
			if err != nil {
				return err
			}
			writers, readers := endpointRows(v)
			pairs, _ := whyTopics(v, "")
			return json.NewEncoder(o.out).Encode(map[string]any{
				"domain": o.domain, "participants": rows, "writers": writers, "readers": readers, "pairs": pairs,
				"entities": ents, "ros": ros, "stats": statsJSON(&st),
			})
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
		eps := endpointWatch{endpoints: map[string]watched{}, pairs: map[string]watched{}}
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
	endpoints map[string]watched // endpoint GUID -> what watch printed
	pairs     map[string]watched // writer and reader GUIDs -> what watch printed
}

// watched is an endpoint or a pair as watch prints it: line when it comes or changes,
// gone when it goes, obj for --json.
type watched struct {
	line, gone string
	obj        any
}

// update reports the endpoints and pairs that came, went or changed since the last call.
func (w *endpointWatch) update(o *options, p *dds.DomainParticipant, rows []partRow, el time.Duration) error {
	v, err := discover(p, rows)
	if err != nil {
		return err
	}
	now := map[string]watched{}
	writers, readers := endpointRows(v)
	for _, row := range append(writers, readers...) {
		line := row.Kind + " " + row.line()
		now[row.GUID] = watched{line: line, gone: line, obj: row}
	}
	diffEvents(o, el, w.endpoints, now, "endpoint")
	pairs, _ := whyTopics(v, "")
	now = map[string]watched{}
	for _, pr := range pairs {
		now[pr.WriterGUID+pr.ReaderGUID] = watched{line: pr.desc() + ": " + pr.verdict(), gone: pr.desc(), obj: pr}
	}
	diffEvents(o, el, w.pairs, now, "pair")
	return nil
}

// diffEvents reports the entries of now that are new or changed against old, and those
// of old that are gone, then makes old now.
func diffEvents(o *options, el time.Duration, old, now map[string]watched, what string) {
	report := func(event, line string, obj any) {
		if o.json {
			_ = json.NewEncoder(o.out).Encode(map[string]any{"t": el.Seconds(), "event": event, what: obj})
			return
		}
		fmt.Fprintf(o.out, "%8.3f  %s %-4s %s\n", el.Seconds(), what, event, line)
	}
	byLine := func(m map[string]watched) []string {
		keys := slices.Collect(maps.Keys(m))
		slices.SortFunc(keys, func(a, b string) int { return strings.Compare(m[a].line, m[b].line) })
		return keys
	}
	for _, k := range byLine(now) {
		if prev, ok := old[k]; !ok {
			report("new", now[k].line, now[k].obj)
		} else if prev.line != now[k].line {
			report("now", now[k].line, now[k].obj)
		}
	}
	for _, k := range byLine(old) {
		if _, ok := now[k]; !ok {
			report("gone", old[k].gone, old[k].obj)
		}
	}
	clear(old)
	maps.Copy(old, now)
}
