package wire

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/golden"
	"github.com/ddsgo/ddsgo/qos"
)

// plist is one ParameterList found in a capture.
type plist struct {
	file   string
	vendor VendorID
	writer EntityID
	inline bool // inline QoS rather than serialized payload
	be     bool
	raw    []byte
	params []Parameter
}

func (l *plist) get(id ParameterID) (Parameter, bool) {
	for _, p := range l.params {
		if p.ID == id {
			return p, true
		}
	}
	return Parameter{}, false
}

func (l *plist) all(id ParameterID) []Parameter {
	var out []Parameter
	for _, p := range l.params {
		if p.ID == id {
			out = append(out, p)
		}
	}
	return out
}

// goldenLists returns the ParameterLists of every DATA submessage of every
// capture: inline QoS, and the serialized payload of built-in writers when
// it is encapsulated as PL_CDR_LE or PL_CDR_BE.
func goldenLists(t testing.TB) []*plist {
	t.Helper()
	var out []*plist
	for _, name := range golden.Files() {
		msgs, err := golden.RTPS(name)
		require.NoError(t, err)
		var r Reader
		var d Data
		for _, m := range msgs {
			require.NoError(t, r.Reset(m.Payload))
			for r.Next() {
				if r.Kind() != KindData {
					continue
				}
				require.NoError(t, r.Data(&d))
				if len(d.InlineQoS) > 0 {
					out = append(out, &plist{file: name, vendor: r.Header.Vendor, writer: d.WriterID, inline: true, be: d.BigEndian, raw: d.InlineQoS})
				}
				if !d.WriterID.IsBuiltin() || len(d.SerializedPayload) < 4 {
					continue
				}
				switch binary.BigEndian.Uint16(d.SerializedPayload) {
				case 0x0002:
					out = append(out, &plist{file: name, vendor: r.Header.Vendor, writer: d.WriterID, be: true, raw: d.SerializedPayload[4:]})
				case 0x0003:
					out = append(out, &plist{file: name, vendor: r.Header.Vendor, writer: d.WriterID, raw: d.SerializedPayload[4:]})
				}
			}
			require.NoError(t, r.Err())
		}
	}
	for _, l := range out {
		pr := NewParameterReader(l.raw, l.be, l.vendor)
		for p, ok := pr.Next(); ok; p, ok = pr.Next() {
			l.params = append(l.params, p)
		}
		require.NoError(t, pr.Err(), "%s writer %s", l.file, l.writer)
		require.True(t, pr.HasSentinel(), "%s writer %s", l.file, l.writer)
	}
	return out
}

// TestParamGolden decodes every parameter of every ParameterList the real
// peers sent, checks that every standard parameter and every vendor
// parameter of a known vendor decodes, and that re-encoding the decoded
// value gives the captured octets.
func TestParamGolden(t *testing.T) {
	lists := goldenLists(t)
	require.NotEmpty(t, lists)
	seen := map[string]int{}
	skipped := map[string]int{}
	for _, l := range lists {
		for _, p := range l.params {
			key := fmt.Sprintf("%s/%s", l.vendor, p.ID)
			if e, isQos, err := decodePolicy(p); isQos {
				require.NoError(t, err, "%s: %s value %x", l.file, key, p.Value)
				requirePolicyRoundTrip(t, p, e)
				seen[key]++
				continue
			}
			c, ok := codecFor(p.ID, l.vendor)
			if !ok {
				require.True(t, p.ID.IsVendorSpecific(), "%s: no codec for standard %s", l.file, p.ID)
				require.False(t, p.ID.Known(l.vendor))
				skipped[key]++
				continue
			}
			require.True(t, p.ID.Known(l.vendor), key)
			w := NewParamWriter(nil, l.be)
			_, err := c(&w, p.ID, p.Value, l.be)
			require.NoError(t, err, "%s: %s value %x", l.file, key, p.Value)
			require.NoError(t, w.Err())
			want := appendU16(nil, uint16(p.ID), l.be)
			want = appendU16(want, uint16(len(p.Value)), l.be)
			want = append(want, p.Value...)
			require.Equal(t, want, w.Bytes(), "%s: %s not canonical", l.file, key)
			seen[key]++
		}
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	t.Logf("decoded and re-encoded: %v", keys)
	t.Logf("vendor parameters skipped: %v", skipped)
	// Every parameter the peers are known to send was met.
	for _, k := range []string{
		"01.10/PID_PARTICIPANT_GUID", "01.10/PID_PROPERTY_LIST", "01.10/PID_DATA_REPRESENTATION",
		"01.10/PID(0x8007)", "01.10/PID(0x8019)", "01.10/PID(0x800c)", "01.10/PID_STATUS_INFO",
		"01.0f/PID_TYPE_CONSISTENCY_ENFORCEMENT", "01.0f/PID_KEY_HASH", "01.0f/PID(0x800f)",
		"01.0f/PID_PRESENTATION", "01.0f/PID_PARTITION", "01.0f/PID_EXPECTS_INLINE_QOS",
	} {
		require.Positive(t, seen[k], k)
	}
}

// find returns the first list of file from writer whose parameter id has a
// value satisfying match (or any, if match is nil).
func find(t *testing.T, lists []*plist, file string, writer EntityID, inline bool, id ParameterID, match func(Parameter) bool) *plist {
	t.Helper()
	for _, l := range lists {
		if l.file != file || l.writer != writer || l.inline != inline {
			continue
		}
		if p, ok := l.get(id); ok && (match == nil || match(p)) {
			return l
		}
	}
	t.Fatalf("%s: no list from %s with %s", file, writer, id)
	return nil
}

func mustGet[T any](t *testing.T, l *plist, id ParameterID, parse func([]byte, bool) (T, int, error)) T {
	t.Helper()
	p, ok := l.get(id)
	require.True(t, ok, "%s missing", id)
	v, _, err := parse(p.Value, p.BigEndian)
	require.NoError(t, err)
	return v
}

func locators(t *testing.T, l *plist, id ParameterID) []string {
	t.Helper()
	var out []string
	for _, p := range l.all(id) {
		loc, _, err := ParseLocator(p.Value, p.BigEndian)
		require.NoError(t, err)
		ap, ok := loc.AddrPort()
		require.True(t, ok)
		out = append(out, ap.String())
	}
	return out
}

func stringIs(s string) func(Parameter) bool {
	return func(p Parameter) bool {
		v, _, err := ParseString(p.Value, p.BigEndian)
		return err == nil && v == s
	}
}

// prefixIs matches a GUID-valued parameter of the participant with prefix.
func prefixIs(prefix GuidPrefix) func(Parameter) bool {
	return func(p Parameter) bool {
		g, _, _ := ParseGUID(p.Value)
		return g.Prefix == prefix
	}
}

func guidPrefix(t *testing.T, s string) GuidPrefix {
	t.Helper()
	b, err := hex.DecodeString(s)
	require.NoError(t, err)
	require.Len(t, b, GuidPrefixLen)
	return GuidPrefix(b)
}

// TestParamGoldenCyclone checks values read off `tshark -V` of the Cyclone
// DDS 0.10.2 capture.
func TestParamGoldenCyclone(t *testing.T) {
	lists := goldenLists(t)
	const file = "cyclone_interop.pcapng"
	prefix := guidPrefix(t, "011010d728101438d53d2802")

	spdp := find(t, lists, file, EntityIDSPDPWriter, false, PIDParticipantGUID, prefixIs(prefix))
	require.Equal(t, GUID{Prefix: prefix, Entity: EntityIDParticipant}, mustGet(t, spdp, PIDParticipantGUID, noOrder(ParseGUID)))
	require.Equal(t, ProtocolVersion21, mustGet(t, spdp, PIDProtocolVersion, noOrder(ParseProtocolVersion)))
	require.Equal(t, VendorCyclone, mustGet(t, spdp, PIDVendorID, noOrder(ParseVendorID)))
	require.Equal(t, Duration{Seconds: 10}, mustGet(t, spdp, PIDParticipantLeaseDuration, ParseDuration))
	require.Equal(t, uint32(0x0000fc3f), mustGet(t, spdp, PIDBuiltinEndpointSet, ParseUint32))
	require.Equal(t, uint32(0), mustGet(t, spdp, PIDDomainID, ParseUint32))
	require.Equal(t, []string{"127.0.0.1:58604"}, locators(t, spdp, PIDDefaultUnicastLocator))
	require.Equal(t, []string{"239.255.0.1:7401"}, locators(t, spdp, PIDDefaultMulticastLocator))
	require.Equal(t, []string{"127.0.0.1:58604"}, locators(t, spdp, PIDMetatrafficUnicastLocator))
	require.Equal(t, []string{"239.255.0.1:7400"}, locators(t, spdp, PIDMetatrafficMulticastLocator))
	props := mustGet(t, spdp, PIDPropertyList, ParsePropertyList)
	require.Equal(t, []Property{{"__ProcessName", "interop_peer"}, {"__Pid", "26224"}, {"__Hostname", "vm"}}, props.Properties)
	require.True(t, props.HasBinary)
	require.Empty(t, props.Binary)
	// Vendor parameters, interpreted because the vendor is Cyclone.
	require.Equal(t, uint32(2<<20), mustGet(t, spdp, PIDCycloneReceiveBufferSize, ParseUint32))
	vi := mustGet(t, spdp, PIDCycloneParticipantVersionInfo, ParseCycloneParticipantVersionInfo)
	require.Contains(t, vi.Internals, "0.10.2")

	// SEDP of the subscription (DATA(r)) and of the publication (DATA(w)).
	for _, tc := range []struct {
		writer EntityID
		kind   byte
	}{{EntityIDSEDPSubscriptionsWriter, EntityKindReaderWithKey}, {EntityIDSEDPPublicationsWriter, EntityKindWriterWithKey}} {
		sedp := find(t, lists, file, tc.writer, false, PIDTopicName, stringIs("InteropTopic"))
		require.Equal(t, "interop::Sample", mustGet(t, sedp, PIDTypeName, ParseString))
		require.Equal(t, qos.TransientLocal, mustPolicies(t, sedp, PIDDurability).o.Writer.Durability.Kind)
		require.Equal(t, qos.Reliable, mustPolicies(t, sedp, PIDReliability).r.Reader.Reliability.Kind)
		require.Equal(t, qos.History{Kind: qos.KeepAll, Depth: -1}, mustPolicies(t, sedp, PIDHistory).o.Writer.History)
		require.Equal(t, []qos.DataRepresentationID{qos.XCDR1, qos.XCDR2},
			mustPolicies(t, sedp, PIDDataRepresentation).r.Reader.DataRepresentation.Value)
		g := mustGet(t, sedp, PIDEndpointGUID, noOrder(ParseGUID))
		require.Equal(t, tc.kind, g.Entity.Kind)
		ti, ok := sedp.get(PIDTypeInformation)
		require.True(t, ok)
		require.Len(t, ti.Value, 100)
		require.Equal(t, uint32(1), mustGet(t, sedp, PIDCycloneEntityFactory, ParseUint32))
	}
	pub := find(t, lists, file, EntityIDSEDPPublicationsWriter, false, PIDTopicName, stringIs("InteropTopic"))
	require.Equal(t, qos.DurabilityService{HistoryKind: qos.KeepAll, HistoryDepth: 1, MaxSamples: -1, MaxInstances: -1, MaxSamplesPerInstance: -1},
		mustPolicies(t, pub, PIDDurabilityService).o.Writer.DurabilityService)

	// Disposal of the reader: inline STATUS_INFO, key-only payload.
	dispose := find(t, lists, file, EntityIDSEDPSubscriptionsWriter, true, PIDStatusInfo, nil)
	require.Equal(t, StatusInfoDisposed|StatusInfoUnregistered, mustGet(t, dispose, PIDStatusInfo, noOrder(ParseStatusInfo)))
}

// TestParamGoldenFastDDS checks values read off `tshark -V` of the Fast DDS
// 2.9.1 capture.
func TestParamGoldenFastDDS(t *testing.T) {
	lists := goldenLists(t)
	const file = "fastdds_interop.pcapng"
	prefix := guidPrefix(t, "010f7f018964e31700000000")

	spdp := find(t, lists, file, EntityIDSPDPWriter, false, PIDParticipantGUID, prefixIs(prefix))
	require.Equal(t, ProtocolVersion23, mustGet(t, spdp, PIDProtocolVersion, noOrder(ParseProtocolVersion)))
	require.Equal(t, VendorFastDDS, mustGet(t, spdp, PIDVendorID, noOrder(ParseVendorID)))
	require.Equal(t, Duration{Seconds: 20}, mustGet(t, spdp, PIDParticipantLeaseDuration, ParseDuration))
	require.Equal(t, uint32(0x0c3f0c3f), mustGet(t, spdp, PIDBuiltinEndpointSet, ParseUint32))
	require.Equal(t, []string{"127.0.0.1:7410"}, locators(t, spdp, PIDMetatrafficUnicastLocator))
	require.Equal(t, []string{"127.0.0.1:7411"}, locators(t, spdp, PIDDefaultUnicastLocator))
	require.Empty(t, spdp.all(PIDMetatrafficMulticastLocator))
	require.Empty(t, spdp.all(PIDDomainID))
	require.Equal(t, "interop_peer_sub", mustGet(t, spdp, PIDEntityName, ParseString))
	props := mustGet(t, spdp, PIDPropertyList, ParsePropertyList)
	require.Len(t, props.Properties, 4)
	v, ok := props.Get("PARTICIPANT_TYPE")
	require.True(t, ok)
	require.Equal(t, "SIMPLE", v)
	v, _ = props.Get("fastdds.physical_data.user")
	require.Equal(t, "root", v)

	w := find(t, lists, file, EntityIDSEDPPublicationsWriter, false, PIDTopicName, stringIs("interop_topic"))
	require.Equal(t, "interop::Sample", mustGet(t, w, PIDTypeName, ParseString))
	require.Equal(t, uint32(1084), mustGet(t, w, PIDTypeMaxSizeSerialized, ParseUint32))
	eg := mustGet(t, w, PIDEndpointGUID, noOrder(ParseGUID))
	kh := mustGet(t, w, PIDKeyHash, noOrder(ParseKeyHash))
	require.Equal(t, eg.Append(nil), kh[:], "Fast DDS puts the endpoint GUID in KEY_HASH")
	require.Equal(t, qos.Deadline{Period: qos.Infinite}, mustPolicies(t, w, PIDDeadline).o.Writer.Deadline)
	require.Equal(t, qos.Liveliness{Kind: qos.Automatic, LeaseDuration: qos.Infinite}, mustPolicies(t, w, PIDLiveliness).o.Writer.Liveliness)
	require.Equal(t, qos.Presentation{}, mustPolicies(t, w, PIDPresentation).o.Publisher.Presentation)
	require.Empty(t, mustPolicies(t, w, PIDPartition).o.Publisher.Partition.Name)
	ud, _, err := ParseOctetSeq(mustParam(t, w, PIDUserData).Value, false)
	require.NoError(t, err)
	require.Empty(t, ud)
	require.Equal(t, []string{"127.0.0.1:7413"}, locators(t, w, PIDUnicastLocator))

	r := find(t, lists, file, EntityIDSEDPSubscriptionsWriter, false, PIDTopicName, stringIs("interop_topic"))
	eiq, _, err := ParseBool(mustParam(t, r, PIDExpectsInlineQoS).Value)
	require.NoError(t, err)
	require.False(t, eiq)
	require.Equal(t, qos.TypeConsistencyEnforcement{Kind: qos.AllowTypeCoercion, IgnoreSequenceBounds: true, IgnoreStringBounds: true},
		mustPolicies(t, r, PIDTypeConsistencyEnforcement).r.Reader.TypeConsistencyEnforcement)

	// SPDP disposal: Fast DDS's vendor sample identity, KEY_HASH, STATUS_INFO.
	dispose := find(t, lists, file, EntityIDSPDPWriter, true, PIDStatusInfo, nil)
	require.Equal(t, StatusInfoDisposed|StatusInfoUnregistered, mustGet(t, dispose, PIDStatusInfo, noOrder(ParseStatusInfo)))
	si := mustGet(t, dispose, PIDFastDDSCustomRelatedSampleIdentity, ParseSampleIdentity)
	require.Equal(t, EntityIDSPDPWriter, si.WriterGUID.Entity)
	require.Equal(t, SequenceNumber(1), si.SN)
	kh = mustGet(t, dispose, PIDKeyHash, noOrder(ParseKeyHash))
	require.Equal(t, EntityIDParticipant.Append(nil), kh[12:])
}

func mustParam(t *testing.T, l *plist, id ParameterID) Parameter {
	t.Helper()
	p, ok := l.get(id)
	require.True(t, ok, "%s missing", id)
	return p
}
