// Command rtpsdump decodes RTPS traffic from a capture file (pcap or pcapng) and prints every
// message, the participants and endpoints announced by discovery, and a summary. Without an
// argument it decodes an embedded capture of Cyclone DDS and Fast DDS exchanging samples.
//
// Usage:
//
//	rtpsdump [-q] [-n N] [capture.pcapng]
//
// -q prints only the discovery table and the summary; -n limits the messages printed.
package main

import (
	_ "embed"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/ddsgo/ddsgo/internal/pcapng"
	"github.com/ddsgo/ddsgo/internal/qoswire"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/qos"
)

//go:embed default.pcapng
var defaultCapture []byte

func main() {
	quiet := flag.Bool("q", false, "print only the discovery table and the summary")
	limit := flag.Int("n", -1, "print at most N messages (-1: all)")
	flag.Parse()
	name, data := "embedded capture: Fast DDS 2.9.1 and Cyclone DDS 0.10.2 (interop::Sample)", defaultCapture
	if flag.NArg() > 0 {
		name = flag.Arg(0)
		var err error
		if data, err = os.ReadFile(name); err != nil {
			fmt.Fprintln(os.Stderr, "rtpsdump:", err)
			os.Exit(1)
		}
	}
	if *quiet {
		*limit = 0
	}
	if err := dump(os.Stdout, name, data, *limit); err != nil {
		fmt.Fprintln(os.Stderr, "rtpsdump:", err)
		os.Exit(1)
	}
}

// dump decodes every datagram of a capture and writes the report to w.
func dump(w io.Writer, name string, data []byte, limit int) error {
	dgs, _, err := pcapng.Parse(data)
	if err != nil {
		return err
	}
	s := newSummary()
	fmt.Fprintf(w, "%s: %d UDP datagrams\n", name, len(dgs))
	printed := 0
	var t0 int64
	for i, dg := range dgs {
		if i == 0 {
			t0 = dg.Time.UnixNano()
		}
		var out strings.Builder
		s.message(&out, dg.Payload)
		if limit < 0 || printed < limit {
			if out.Len() > 0 {
				fmt.Fprintf(w, "\n#%d %.6f %v -> %v\n%s", i+1, float64(dg.Time.UnixNano()-t0)/1e9, dg.Src, dg.Dst, out.String())
				printed++
			}
		}
	}
	s.report(w)
	return nil
}

type participant struct {
	vendor  wire.VendorID
	version wire.ProtocolVersion
	lease   wire.Duration
	name    string
	locs    []string
	props   []string
}

type endpoint struct {
	writer     bool
	topic      string
	typ        string
	durability string
	reliable   string
}

type summary struct {
	rtps, other  int
	kinds        map[string]int
	errors       []string
	participants map[wire.GuidPrefix]*participant
	endpoints    map[wire.GUID]*endpoint
}

func newSummary() *summary {
	return &summary{
		kinds:        map[string]int{},
		participants: map[wire.GuidPrefix]*participant{},
		endpoints:    map[wire.GUID]*endpoint{},
	}
}

// message decodes one datagram, writing one line per submessage to out.
func (s *summary) message(out *strings.Builder, b []byte) {
	var r wire.Reader
	if err := r.Reset(b); err != nil {
		s.other++
		fmt.Fprintf(out, "  not RTPS (%d bytes): %v\n", len(b), err)
		return
	}
	s.rtps++
	h := r.Header
	fmt.Fprintf(out, "  RTPS %v vendor %v (%s) from %v\n", h.Version, h.Vendor, vendorName(h.Vendor), h.Prefix)
	var (
		data wire.Data
		frag wire.DataFrag
		hb   wire.Heartbeat
		ack  wire.AckNack
		gap  wire.Gap
		ts   wire.InfoTS
		dst  wire.InfoDst
	)
	for r.Next() {
		k := r.Kind()
		s.kinds[k.String()]++
		var err error
		switch k {
		case wire.KindData:
			if err = r.Data(&data); err == nil {
				fmt.Fprintf(out, "  DATA%s %v -> %v sn %d%s\n", dataKind(data.WriterID), data.WriterID, data.ReaderID,
					data.WriterSN, s.dataDetail(h, &data))
			}
		case wire.KindDataFrag:
			if err = r.DataFrag(&frag); err == nil {
				fmt.Fprintf(out, "  DATA_FRAG %v -> %v sn %d fragments %d..%d of %d bytes, sample %d bytes\n",
					frag.WriterID, frag.ReaderID, frag.WriterSN, frag.FragmentStartingNum,
					int(frag.FragmentStartingNum)+int(frag.FragmentsInSubmessage)-1, frag.FragmentSize, frag.SampleSize)
			}
		case wire.KindHeartbeat:
			if err = r.Heartbeat(&hb); err == nil {
				fmt.Fprintf(out, "  HEARTBEAT %v -> %v sn %d..%d count %d%s\n", hb.WriterID, hb.ReaderID, hb.FirstSN, hb.LastSN,
					hb.Count, flags(hb.Final, "final", hb.Liveliness, "liveliness"))
			}
		case wire.KindAckNack:
			if err = r.AckNack(&ack); err == nil {
				fmt.Fprintf(out, "  ACKNACK %v -> %v base %d missing %v count %d%s\n", ack.ReaderID, ack.WriterID,
					ack.ReaderSNState.Base, missing(ack.ReaderSNState), ack.Count, flags(ack.Final, "final", false, ""))
			}
		case wire.KindGap:
			if err = r.Gap(&gap); err == nil {
				fmt.Fprintf(out, "  GAP %v -> %v start %d list base %d\n", gap.WriterID, gap.ReaderID, gap.GapStart, gap.GapList.Base)
			}
		case wire.KindInfoTS:
			if err = r.InfoTS(&ts); err == nil {
				fmt.Fprintf(out, "  INFO_TS %s\n", ts.Timestamp.Time().UTC().Format("15:04:05.000000"))
			}
		case wire.KindInfoDst:
			if err = r.InfoDst(&dst); err == nil {
				fmt.Fprintf(out, "  INFO_DST %v\n", dst.GuidPrefix)
			}
		default:
			if k.IsVendorSpecific() {
				fmt.Fprintf(out, "  vendor submessage %v, %d bytes (skipped)\n", k, len(r.Body()))
			} else {
				fmt.Fprintf(out, "  %v, %d bytes\n", k, len(r.Body()))
			}
		}
		if err != nil {
			s.errors = append(s.errors, err.Error())
			fmt.Fprintf(out, "  invalid %v: %v\n", k, err)
		}
	}
	if err := r.Err(); err != nil {
		s.errors = append(s.errors, err.Error())
		fmt.Fprintf(out, "  broken message: %v\n", err)
	}
}

// inlineDetail prints the key hash and status info of a DATA's inline QoS.
func inlineDetail(b *strings.Builder, h wire.Header, d *wire.Data) {
	pr := wire.NewParameterReader(d.InlineQoS, d.BigEndian, h.Vendor)
	for p, ok := pr.Next(); ok; p, ok = pr.Next() {
		switch p.ID {
		case wire.PIDKeyHash:
			if kh, _, err := wire.ParseKeyHash(p.Value); err == nil {
				fmt.Fprintf(b, " keyhash %x", kh[:])
			}
		case wire.PIDStatusInfo:
			if si, _, err := wire.ParseStatusInfo(p.Value); err == nil {
				fmt.Fprintf(b, " status %s", statusInfo(si))
			}
		default:
		}
	}
}

// param records what an SPDP parameter says of the participant.
func (pp *participant) param(p wire.Parameter, be bool) {
	v := p.Value
	switch p.ID {
	case wire.PIDParticipantLeaseDuration:
		pp.lease, _, _ = wire.ParseDuration(v, be)
	case wire.PIDProtocolVersion:
		pp.version, _, _ = wire.ParseProtocolVersion(v)
	case wire.PIDEntityName:
		pp.name, _, _ = wire.ParseString(v, be)
	case wire.PIDDefaultUnicastLocator, wire.PIDDefaultMulticastLocator,
		wire.PIDMetatrafficUnicastLocator, wire.PIDMetatrafficMulticastLocator:
		if l, _, err := wire.ParseLocator(v, be); err == nil {
			pp.locs = append(pp.locs, locatorRoles[p.ID]+" "+l.String())
		}
	case wire.PIDPropertyList:
		if pl, _, err := wire.ParsePropertyList(v, be); err == nil {
			for _, prop := range pl.Properties {
				pp.props = append(pp.props, prop.Name+"="+prop.Value)
			}
		}
	default:
	}
}

// param records what an SEDP parameter says of the endpoint.
func (ep *endpoint) param(p wire.Parameter, be bool) {
	switch p.ID {
	case wire.PIDTopicName:
		ep.topic, _, _ = wire.ParseString(p.Value, be)
	case wire.PIDTypeName:
		ep.typ, _, _ = wire.ParseString(p.Value, be)
	case wire.PIDReliability, wire.PIDDurability:
		o := qos.DefaultOffered()
		if ok, err := qoswire.Decode(&o, uint16(p.ID), p.Value, be, qoswire.Limits{}); !ok || err != nil {
			return
		}
		if p.ID == wire.PIDReliability {
			ep.reliable = kindWord(o.Writer.Reliability.Kind)
		} else {
			ep.durability = kindWord(o.Writer.Durability.Kind)
		}
	default:
	}
}

// dataDetail decodes the parameter list of a discovery DATA and records what it announces.
func (s *summary) dataDetail(h wire.Header, d *wire.Data) string {
	var b strings.Builder
	inlineDetail(&b, h, d)
	discovery := d.WriterID == wire.EntityIDSPDPWriter || d.WriterID == wire.EntityIDSEDPPublicationsWriter ||
		d.WriterID == wire.EntityIDSEDPSubscriptionsWriter || d.WriterID == wire.EntityIDSEDPTopicsWriter
	if len(d.SerializedPayload) < 4 || !discovery {
		if len(d.SerializedPayload) >= 4 {
			fmt.Fprintf(&b, " payload %d bytes encapsulation %02x%02x", len(d.SerializedPayload), d.SerializedPayload[0], d.SerializedPayload[1])
		}
		return b.String()
	}
	be := d.SerializedPayload[1]&1 == 0
	pr := wire.NewParameterReader(d.SerializedPayload[4:], be, h.Vendor)
	var (
		guid wire.GUID
		pp   participant
		ep   endpoint
	)
	pp.vendor, ep.writer = h.Vendor, d.WriterID == wire.EntityIDSEDPPublicationsWriter
	for p, ok := pr.Next(); ok; p, ok = pr.Next() {
		if p.ID == wire.PIDParticipantGUID || p.ID == wire.PIDEndpointGUID {
			guid, _, _ = wire.ParseGUID(p.Value)
		}
		pp.param(p, be)
		ep.param(p, be)
	}
	if err := pr.Err(); err != nil {
		s.errors = append(s.errors, err.Error())
		return b.String() + " (bad parameter list: " + err.Error() + ")"
	}
	switch d.WriterID {
	case wire.EntityIDSPDPWriter:
		if d.DataFlag {
			s.participants[guid.Prefix] = &pp
			fmt.Fprintf(&b, " participant %v lease %v", guid.Prefix, pp.lease.Std())
		}
	case wire.EntityIDSEDPPublicationsWriter, wire.EntityIDSEDPSubscriptionsWriter:
		if d.DataFlag {
			s.endpoints[guid] = &ep
			fmt.Fprintf(&b, " endpoint %v topic %q type %q", guid, ep.topic, ep.typ)
		}
	default:
	}
	return b.String()
}

func (s *summary) report(w io.Writer) {
	fmt.Fprintf(w, "\nParticipants (%d):\n", len(s.participants))
	for _, g := range sortedKeys(s.participants, func(g wire.GuidPrefix) string { return g.String() }) {
		p := s.participants[g]
		fmt.Fprintf(w, "  %v %s RTPS %v lease %v %s\n", g, vendorName(p.vendor), p.version, p.lease.Std(), p.name)
		for _, l := range p.locs {
			fmt.Fprintf(w, "    %s\n", l)
		}
		for _, pr := range p.props {
			fmt.Fprintf(w, "    %s\n", pr)
		}
	}
	fmt.Fprintf(w, "Endpoints (%d):\n", len(s.endpoints))
	for _, g := range sortedKeys(s.endpoints, func(g wire.GUID) string { return g.String() }) {
		e := s.endpoints[g]
		role := "reader"
		if e.writer {
			role = "writer"
		}
		fmt.Fprintf(w, "  %v %s topic %q type %q %s %s\n", g, role, e.topic, e.typ, e.reliable, e.durability)
	}
	fmt.Fprintf(w, "Messages: %d RTPS, %d other\nSubmessages:", s.rtps, s.other)
	for _, k := range sortedKeys(s.kinds, func(k string) string { return k }) {
		fmt.Fprintf(w, " %s %d", k, s.kinds[k])
	}
	fmt.Fprintf(w, "\nErrors: %d\n", len(s.errors))
	for _, e := range s.errors {
		fmt.Fprintf(w, "  %s\n", e)
	}
}

func sortedKeys[K comparable, V any](m map[K]V, key func(K) string) []K {
	ks := make([]K, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return key(ks[i]) < key(ks[j]) })
	return ks
}

// vendorNames are the vendors rtpsdump names; others show as their id.
var vendorNames = map[wire.VendorID]string{
	wire.VendorCyclone: "Cyclone DDS",
	wire.VendorFastDDS: "Fast DDS",
	wire.VendorDDSGo:   "ddsgo",
}

func vendorName(v wire.VendorID) string {
	if name, ok := vendorNames[v]; ok {
		return name
	}
	return "vendor " + v.String()
}

// dataKinds name a DATA by its writer the way Wireshark does: (p) participant,
// (w)/(r)/(t) endpoints and topics, (m) message; user data has no name.
var dataKinds = map[wire.EntityID]string{
	wire.EntityIDSPDPWriter:               "(p)",
	wire.EntityIDSEDPPublicationsWriter:   "(w)",
	wire.EntityIDSEDPSubscriptionsWriter:  "(r)",
	wire.EntityIDSEDPTopicsWriter:         "(t)",
	wire.EntityIDParticipantMessageWriter: "(m)",
}

func dataKind(writer wire.EntityID) string { return dataKinds[writer] }

// locatorRoles name the four locator parameters of SPDP.
var locatorRoles = map[wire.ParameterID]string{
	wire.PIDDefaultUnicastLocator:       "user unicast",
	wire.PIDDefaultMulticastLocator:     "user multicast",
	wire.PIDMetatrafficUnicastLocator:   "metatraffic unicast",
	wire.PIDMetatrafficMulticastLocator: "metatraffic multicast",
}

// statusFlags name the bits of a PID_STATUS_INFO, in the order statusInfo shows them.
var statusFlags = []struct {
	bit  wire.StatusInfo
	name string
}{
	{wire.StatusInfoDisposed, "disposed"},
	{wire.StatusInfoUnregistered, "unregistered"},
	{wire.StatusInfoFiltered, "filtered"},
}

func statusInfo(si wire.StatusInfo) string {
	var parts []string
	for _, f := range statusFlags {
		if si&f.bit != 0 {
			parts = append(parts, f.name)
		}
	}
	if len(parts) == 0 {
		return "alive"
	}
	return strings.Join(parts, "+")
}

func missing(set wire.SequenceNumberSet) string {
	var sns []string
	for sn := range set.All {
		sns = append(sns, fmt.Sprint(sn))
	}
	return "[" + strings.Join(sns, " ") + "]"
}

func flags(a bool, an string, b bool, bn string) string {
	var s string
	if a {
		s += " " + an
	}
	if b {
		s += " " + bn
	}
	return s
}

// kindWord prints a QoS kind the way this tool does: "transient-local", "best-effort".
func kindWord(k fmt.Stringer) string {
	return strings.ToLower(strings.ReplaceAll(k.String(), "_", "-"))
}
