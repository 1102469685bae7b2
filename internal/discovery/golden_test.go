package discovery

import (
	"fmt"
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/golden"
	"github.com/ddsgo/ddsgo/internal/testutil/goldendata"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/qos"
)

// sample is one DATA of a built-in discovery writer found in a capture,
// decoded.
type sample struct {
	file     string
	vendor   wire.VendorID
	writer   wire.EntityID
	payload  []byte // serialized payload, a copy
	disposal *Disposal
	part     *ParticipantData
	ep       *EndpointData
	topic    *TopicData
}

// goldenSamples decodes every SPDP, SEDP and topic DATA of every capture and
// fails the test if any does not decode.
func goldenSamples(t testing.TB) []sample {
	t.Helper()
	var out []sample
	for _, name := range golden.Files() {
		goldendata.Each(t, name, func(h *wire.Header, d *wire.Data, i int) {
			switch d.WriterID {
			case wire.EntityIDSPDPWriter, wire.EntityIDSEDPPublicationsWriter,
				wire.EntityIDSEDPSubscriptionsWriter, wire.EntityIDSEDPTopicsWriter:
				out = append(out, goldenSample(t, name, i, h, d))
			}
		})
	}
	return out
}

// goldenSample decodes d, a DATA of a built-in discovery writer in message i of capture
// name.
func goldenSample(t testing.TB, name string, i int, h *wire.Header, d *wire.Data) sample {
	t.Helper()
	s := sample{file: name, vendor: h.Vendor, writer: d.WriterID, payload: append([]byte(nil), d.SerializedPayload...)}
	dec := Decoder{Vendor: h.Vendor}
	x, ok, err := dec.Disposal(d)
	require.NoError(t, err, "%s message %d", name, i)
	if ok {
		s.disposal = &x
		return s
	}
	switch d.WriterID {
	case wire.EntityIDSPDPWriter:
		p, err := dec.ParticipantData(d.SerializedPayload)
		require.NoError(t, err, "%s message %d", name, i)
		s.part = &p
	case wire.EntityIDSEDPTopicsWriter:
		tp, err := dec.TopicData(d.SerializedPayload)
		require.NoError(t, err, "%s message %d", name, i)
		s.topic = &tp
	default:
		e, err := dec.EndpointData(d.SerializedPayload)
		require.NoError(t, err, "%s message %d", name, i)
		require.Equal(t, d.WriterID == wire.EntityIDSEDPPublicationsWriter, e.IsWriter())
		s.ep = &e
	}
	return s
}

func prefix(t *testing.T, s string) wire.GuidPrefix {
	t.Helper()
	var p wire.GuidPrefix
	require.Len(t, s, 24)
	for i := range p {
		var v byte
		for _, c := range s[2*i : 2*i+2] {
			v <<= 4
			switch {
			case c >= '0' && c <= '9':
				v |= byte(c - '0')
			default:
				v |= byte(c-'a') + 10
			}
		}
		p[i] = v
	}
	return p
}

func loc(s string) wire.Locator {
	return wire.LocatorFromAddrPort(netip.MustParseAddrPort(s))
}

// locs returns the locators of the addresses and ports ss.
func locs(ss ...string) []wire.Locator {
	out := make([]wire.Locator, len(ss))
	for i, s := range ss {
		out[i] = loc(s)
	}
	return out
}

// findSample returns the first sample of file that is, failing t ("file: no what") if
// there is none.
func findSample(t *testing.T, ss []sample, file, what string, is func(*sample) bool) *sample {
	t.Helper()
	for i := range ss {
		if ss[i].file == file && is(&ss[i]) {
			return &ss[i]
		}
	}
	t.Fatalf("%s: no %s", file, what)
	return nil
}

func findParticipant(t *testing.T, ss []sample, file string, p wire.GuidPrefix) *ParticipantData {
	t.Helper()
	return findSample(t, ss, file, fmt.Sprintf("SPDP data of %s", p),
		func(s *sample) bool { return s.part != nil && s.part.GUIDPrefix == p }).part
}

func findEndpoint(t *testing.T, ss []sample, file string, g wire.GUID) *EndpointData {
	t.Helper()
	return findSample(t, ss, file, fmt.Sprintf("SEDP data of %s", g),
		func(s *sample) bool { return s.ep != nil && s.ep.GUID == g }).ep
}

func findDisposal(t *testing.T, ss []sample, file string, writer wire.EntityID, g wire.GUID) *Disposal {
	t.Helper()
	return findSample(t, ss, file, fmt.Sprintf("disposal of %s from %s", g, writer),
		func(s *sample) bool { return s.disposal != nil && s.writer == writer && s.disposal.GUID == g }).disposal
}

// TestGoldenAll decodes every discovery DATA of every capture, and checks
// that re-encoding each decoded value and decoding it again gives the same
// value.
func TestGoldenAll(t *testing.T) {
	ss := goldenSamples(t)
	counts := map[string]int{}
	for _, s := range ss {
		key := s.vendor.String() + "/"
		switch {
		case s.disposal != nil:
			key += "disposal/" + s.writer.String()
		case s.part != nil:
			key += "SPDP"
			requireReparses(t, *s.part, s.part.Append, ParseParticipantData, s.file)
		case s.ep != nil:
			key += "SEDP"
			if s.ep.IsWriter() {
				key += "/writer"
			} else {
				key += "/reader"
			}
			requireReparses(t, *s.ep, s.ep.Append, ParseEndpointData, s.file)
		case s.topic != nil:
			key += "topic"
			requireReparses(t, *s.topic, s.topic.Append, ParseTopicData, s.file)
		}
		counts[key]++
	}
	t.Logf("decoded: %v", counts)
	for _, k := range []string{
		"01.10/SPDP", "01.10/SEDP/writer", "01.10/SEDP/reader",
		"01.10/disposal/000100c2", "01.10/disposal/000003c2", "01.10/disposal/000004c2",
		"01.0f/SPDP", "01.0f/SEDP/writer", "01.0f/SEDP/reader",
		"01.0f/disposal/000100c2", "01.0f/disposal/000004c2",
	} {
		require.Positive(t, counts[k], k)
	}
}

// announced is what a golden test requires of the SPDP data of a vendor's participant.
// An empty list of locators requires none.
type announced struct {
	version                              wire.ProtocolVersion
	vendor                               wire.VendorID
	hasDomainID                          bool
	lease                                time.Duration
	builtin                              uint32
	defUni, metaUni, defMulti, metaMulti []wire.Locator
}

// goldenParticipant decodes the discovery data of the captures (goldenSamples), finds the
// participant of prefix pfxHex in file and requires that it announced want.
func goldenParticipant(t *testing.T, file, pfxHex string, want announced) ([]sample, wire.GuidPrefix, *ParticipantData) {
	t.Helper()
	ss := goldenSamples(t)
	pfx := prefix(t, pfxHex)
	p := findParticipant(t, ss, file, pfx)
	requireAnnounced(t, p, want)
	return ss, pfx, p
}

func requireAnnounced(t *testing.T, p *ParticipantData, want announced) {
	t.Helper()
	require.Equal(t, want.version, p.ProtocolVersion)
	require.Equal(t, want.vendor, p.VendorID)
	require.Equal(t, want.hasDomainID, p.HasDomainID)
	require.Equal(t, want.lease, p.LeaseDuration)
	require.Equal(t, want.builtin, p.BuiltinEndpoints)
	for _, l := range []struct{ want, got []wire.Locator }{
		{want.defUni, p.DefaultUnicastLocators},
		{want.metaUni, p.MetatrafficUnicastLocators},
		{want.defMulti, p.DefaultMulticastLocators},
		{want.metaMulti, p.MetatrafficMulticastLocators},
	} {
		if len(l.want) == 0 {
			require.Empty(t, l.got)
		} else {
			require.Equal(t, l.want, l.got)
		}
	}
}

// requireInteropReader requires of r what both peers' interop readers announce: a keyed
// reader of participant pfx for interop::Sample on topic.
func requireInteropReader(t *testing.T, r *EndpointData, pfx wire.GuidPrefix, topic string) {
	t.Helper()
	require.True(t, r.IsReader())
	require.True(t, r.Keyed())
	require.Equal(t, wire.GUID{Prefix: pfx, Entity: wire.EntityIDParticipant}, r.ParticipantGUID)
	require.Equal(t, topic, r.TopicName)
	require.Equal(t, "interop::Sample", r.TypeName)
}

func TestGoldenCyclone(t *testing.T) {
	const file = "cyclone_interop.pcapng"
	ss, pfx, p := goldenParticipant(t, file, "011010d728101438d53d2802", announced{
		version: wire.ProtocolVersion21, vendor: wire.VendorCyclone, hasDomainID: true, lease: 10 * time.Second, builtin: 0x0000fc3f,
		defUni: locs("127.0.0.1:58604"), metaUni: locs("127.0.0.1:58604"), defMulti: locs("239.255.0.1:7401"), metaMulti: locs("239.255.0.1:7400"),
	})
	require.Equal(t, uint32(0), p.DomainID)
	require.Equal(t, []wire.Property{
		{Name: PropertyProcessName, Value: "interop_peer"}, {Name: PropertyPid, Value: "26224"}, {Name: PropertyHostname, Value: "vm"},
	}, p.Properties.Properties)
	require.True(t, p.Properties.HasBinary)
	require.Len(t, p.VendorParams, 2)
	require.Equal(t, wire.PIDCycloneParticipantVersionInfo, p.VendorParams[0].ID)
	require.Equal(t, wire.PIDCycloneReceiveBufferSize, p.VendorParams[1].ID)
	v, ok := p.CycloneVersion()
	require.True(t, ok)
	require.Equal(t, "vm/0.10.2/Linux/Linux", v.Internals)

	r := findEndpoint(t, ss, file, wire.GUID{Prefix: pfx, Entity: wire.EntityIDFromUint32(0x00000207)})
	requireInteropReader(t, r, pfx, "InteropTopic")
	require.Equal(t, qos.Reliability{Kind: qos.Reliable, MaxBlockingTime: 10 * time.Second}, r.Requested.Reader.Reliability)
	require.Equal(t, qos.TransientLocal, r.Requested.Reader.Durability.Kind)
	require.Equal(t, qos.History{Kind: qos.KeepAll, Depth: -1}, r.Requested.Reader.History)
	require.Equal(t, []qos.DataRepresentationID{qos.XCDR1, qos.XCDR2}, r.Requested.Reader.DataRepresentation.Value)
	require.Len(t, r.TypeInformation, 100)
	require.Empty(t, r.UnicastLocators)
	require.Empty(t, r.MulticastLocators)
	u, m := r.Locators(p)
	require.Equal(t, p.DefaultUnicastLocators, u)
	require.Equal(t, p.DefaultMulticastLocators, m)
	// Defaults of a reader for what Cyclone does not send.
	def := qos.DefaultDataReaderQos()
	require.Equal(t, def.Liveliness, r.Requested.Reader.Liveliness)
	require.Equal(t, def.Deadline, r.Requested.Reader.Deadline)
	require.Equal(t, def.TypeConsistencyEnforcement, r.Requested.Reader.TypeConsistencyEnforcement)
	// The whole decoded QoS: the defaults but for what the interop peer set.
	wantR := qos.DefaultRequested()
	wantR.Reader.Durability.Kind = qos.TransientLocal
	wantR.Reader.Reliability = qos.Reliability{Kind: qos.Reliable, MaxBlockingTime: 10 * time.Second}
	wantR.Reader.History = qos.History{Kind: qos.KeepAll, Depth: -1}
	wantR.Reader.DataRepresentation.Value = []qos.DataRepresentationID{qos.XCDR1, qos.XCDR2}
	require.Equal(t, wantR, r.Requested)

	wpfx := prefix(t, "0110592db3ae8634ffe5af7f")
	w := findEndpoint(t, ss, file, wire.GUID{Prefix: wpfx, Entity: wire.EntityIDFromUint32(0x00000202)})
	require.True(t, w.IsWriter())
	require.Equal(t, "InteropTopic", w.TopicName)
	require.Equal(t, qos.DurabilityService{
		HistoryKind: qos.KeepAll, HistoryDepth: 1,
		MaxSamples: qos.LengthUnlimited, MaxInstances: qos.LengthUnlimited, MaxSamplesPerInstance: qos.LengthUnlimited,
	}, w.Offered.Writer.DurabilityService)
	wantW := qos.DefaultOffered()
	wantW.Writer.Durability.Kind = qos.TransientLocal
	wantW.Writer.DurabilityService.HistoryKind = qos.KeepAll
	wantW.Writer.Reliability = qos.Reliability{Kind: qos.Reliable, MaxBlockingTime: 10 * time.Second}
	wantW.Writer.History = qos.History{Kind: qos.KeepAll, Depth: -1}
	wantW.Writer.DataRepresentation.Value = []qos.DataRepresentationID{qos.XCDR1, qos.XCDR2}
	require.Equal(t, wantW, w.Offered)
	require.Equal(t, []Param{{ID: wire.PIDCycloneEntityFactory, Value: []byte{1, 0, 0, 0}}}, w.VendorParams)
	require.True(t, Match(w, r).Matched())

	// Disposals: the serialized key with the K flag and STATUS_INFO inline.
	x := findDisposal(t, ss, file, wire.EntityIDSPDPWriter, wire.GUID{Prefix: pfx, Entity: wire.EntityIDParticipant})
	require.Equal(t, wire.StatusInfoDisposed|wire.StatusInfoUnregistered, x.Status)
	findDisposal(t, ss, "cyclone_frag.pcapng", wire.EntityIDSEDPPublicationsWriter,
		wire.GUID{Prefix: prefix(t, "01105f75e8e706ff3e2d457c"), Entity: wire.EntityIDFromUint32(0x00000802)})
	findDisposal(t, ss, "cyclone_domain7.pcapng", wire.EntityIDSEDPSubscriptionsWriter,
		wire.GUID{Prefix: prefix(t, "01108aa4f3f3242442c84ebd"), Entity: wire.EntityIDFromUint32(0x00000207)})

	// Domain 7 and user data (ddsperf).
	p7 := findParticipant(t, ss, "cyclone_domain7.pcapng", prefix(t, "01108aa4f3f3242442c84ebd"))
	require.Equal(t, uint32(7), p7.DomainID)
	require.Equal(t, []wire.Locator{loc("239.255.0.1:9150")}, p7.MetatrafficMulticastLocators)
	pf := findParticipant(t, ss, "cyclone_frag.pcapng", prefix(t, "0110b7074107a77735431d77"))
	require.Equal(t, []byte("DDSPerf:1:26413:vm"), pf.Qos.UserData.Value)
	// A partition and resource limits (ddsperf's KS topics).
	e := findEndpoint(t, ss, "cyclone_frag.pcapng", wire.GUID{Prefix: prefix(t, "0110b7074107a77735431d77"), Entity: wire.EntityIDFromUint32(0x00000d07)})
	require.NotEmpty(t, e.Requested.Subscriber.Partition.Name)
	require.Equal(t, qos.ResourceLimits{MaxSamples: 10000, MaxInstances: -1, MaxSamplesPerInstance: -1}, e.Requested.Reader.ResourceLimits)
	require.Equal(t, qos.History{Kind: qos.KeepAll, Depth: 1}, e.Requested.Reader.History)
}

func TestGoldenFastDDS(t *testing.T) {
	const file = "fastdds_interop.pcapng"
	ss, sub, p := goldenParticipant(t, file, "010f7f018964e31700000000", announced{
		version: wire.ProtocolVersion23, vendor: wire.VendorFastDDS, lease: 20 * time.Second, builtin: 0x0c3f0c3f,
		defUni: locs("127.0.0.1:7411"), metaUni: locs("127.0.0.1:7410"), // no multicast
	})
	require.Equal(t, "interop_peer_sub", p.EntityName)
	host, ok := p.Properties.Get("fastdds.physical_data.process")
	require.True(t, ok)
	require.Equal(t, "25737", host)
	_, ok = p.CycloneVersion()
	require.False(t, ok)

	r := findEndpoint(t, ss, file, wire.GUID{Prefix: sub, Entity: wire.EntityIDFromUint32(0x00000107)})
	requireInteropReader(t, r, sub, "interop_topic")
	require.Equal(t, []wire.Locator{loc("127.0.0.1:7411")}, r.UnicastLocators)
	require.False(t, r.ExpectsInlineQoS)
	require.Equal(t, qos.Reliability{Kind: qos.Reliable, MaxBlockingTime: 100 * time.Millisecond}, r.Requested.Reader.Reliability)
	require.Equal(t, qos.TransientLocal, r.Requested.Reader.Durability.Kind)
	require.Equal(t, qos.Infinite, r.Requested.Reader.Deadline.Period)
	require.Equal(t, qos.Liveliness{Kind: qos.Automatic, LeaseDuration: qos.Infinite}, r.Requested.Reader.Liveliness)
	require.Equal(t, qos.TypeConsistencyEnforcement{Kind: qos.AllowTypeCoercion, IgnoreSequenceBounds: true, IgnoreStringBounds: true}, r.Requested.Reader.TypeConsistencyEnforcement)
	require.Empty(t, r.Requested.Reader.DataRepresentation.Value)
	require.Empty(t, r.Requested.Subscriber.Partition.Name)
	require.Nil(t, r.Requested.Reader.UserData.Value)
	require.Nil(t, r.TypeInformation)
	wantR := qos.DefaultRequested()
	wantR.Reader.Durability.Kind = qos.TransientLocal
	wantR.Reader.Reliability.Kind = qos.Reliable
	require.Equal(t, wantR, r.Requested)

	pub := prefix(t, "010f7f019064fe7100000000")
	w := findEndpoint(t, ss, file, wire.GUID{Prefix: pub, Entity: wire.EntityIDFromUint32(0x00000102)})
	require.True(t, w.IsWriter())
	require.Equal(t, uint32(1084), w.TypeMaxSizeSerialized)
	require.Equal(t, []wire.Locator{loc("127.0.0.1:7413")}, w.UnicastLocators)
	require.Equal(t, qos.History{Kind: qos.KeepLast, Depth: 1}, w.Offered.Writer.History) // not sent: the default
	wantW := qos.DefaultOffered()
	wantW.Writer.Durability.Kind = qos.TransientLocal
	require.Equal(t, wantW, w.Offered)
	require.True(t, Match(w, r).Matched())

	// Disposals: no payload, KEY_HASH and STATUS_INFO inline.
	x := findDisposal(t, ss, file, wire.EntityIDSPDPWriter, wire.GUID{Prefix: sub, Entity: wire.EntityIDParticipant})
	require.Equal(t, wire.StatusInfoDisposed|wire.StatusInfoUnregistered, x.Status)
	findDisposal(t, ss, file, wire.EntityIDSEDPSubscriptionsWriter, wire.GUID{Prefix: sub, Entity: wire.EntityIDFromUint32(0x00000107)})

	// Fast DDS and Cyclone DDS on one topic (fastdds_cyclone.pcapng).
	const mixed = "fastdds_cyclone.pcapng"
	fw := findEndpoint(t, ss, mixed, wire.GUID{Prefix: prefix(t, "010f7f01e2649d1300000000"), Entity: wire.EntityIDFromUint32(0x00000102)})
	cr := findEndpoint(t, ss, mixed, wire.GUID{Prefix: prefix(t, "01106a0d58aa3ff57688b3fa"), Entity: wire.EntityIDFromUint32(0x00000207)})
	require.Equal(t, "InteropTopic", fw.TopicName)
	require.Equal(t, MatchResult{}, Match(fw, cr))
}
