package wire

import (
	"encoding/binary"
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/pcapng"
	"github.com/ddsgo/ddsgo/internal/tshark"
	"github.com/ddsgo/ddsgo/qos"
)

var plPrefix = GuidPrefix{0x01, 0xdd, 0, 0, 0xca, 0xfe, 0, 1, 0, 0, 0, 7}

// plPayload wraps a ParameterList in a PL_CDR_LE or PL_CDR_BE
// serialized payload.
func plPayload(t *testing.T, be bool, fill func(w *ParamWriter)) []byte {
	t.Helper()
	enc := []byte{0, 3, 0, 0}
	if be {
		enc[1] = 2
	}
	w := NewParamWriter(enc, be)
	fill(&w)
	b, err := w.Finish()
	require.NoError(t, err)
	return b
}

// dataMessage builds INFO_TS + DATA from writer to reader with the payload
// and inline QoS given.
func dataMessage(be bool, reader, writer EntityID, sn SequenceNumber, inlineQoS, payload []byte, key bool) []byte {
	var m Builder
	m.Reset(Header{Version: ProtocolVersion25, Vendor: VendorDDSGo, Prefix: plPrefix})
	m.Add(&InfoTS{BigEndian: be, Timestamp: Time{Seconds: 1700000000}})
	m.Add(&Data{
		BigEndian: be, DataFlag: !key, KeyFlag: key, ReaderID: reader, WriterID: writer, WriterSN: sn,
		InlineQoS: inlineQoS, SerializedPayload: payload,
	})
	return m.Bytes()
}

func spdpParams(w *ParamWriter) {
	w.PutProtocolVersion(ProtocolVersion25)
	w.PutVendorID(VendorDDSGo)
	w.PutGUID(PIDParticipantGUID, GUID{Prefix: plPrefix, Entity: EntityIDParticipant})
	lo := netip.MustParseAddrPort("127.0.0.1:7410")
	w.PutLocator(PIDMetatrafficUnicastLocator, LocatorFromAddrPort(lo))
	w.PutLocator(PIDDefaultUnicastLocator, LocatorFromAddrPort(netip.AddrPortFrom(lo.Addr(), 7411)))
	w.PutLocator(PIDMetatrafficMulticastLocator, LocatorFromAddrPort(netip.MustParseAddrPort("239.255.0.1:7400")))
	w.PutLocator(PIDDefaultMulticastLocator, LocatorFromAddrPort(netip.MustParseAddrPort("239.255.0.1:7401")))
	w.PutLocator(PIDDefaultUnicastLocator, LocatorFromAddrPort(netip.MustParseAddrPort("[::1]:7411")))
	w.PutDuration(PIDParticipantLeaseDuration, Duration{Seconds: 10})
	w.PutUint32(PIDBuiltinEndpointSet, BuiltinParticipantAnnouncer|BuiltinParticipantDetector|
		BuiltinPublicationsAnnouncer|BuiltinPublicationsDetector|BuiltinSubscriptionsAnnouncer|
		BuiltinSubscriptionsDetector|BuiltinParticipantMessageWriter|BuiltinParticipantMessageReader)
	w.PutUint32(PIDDomainID, 0)
	w.PutUint32(PIDParticipantManualLivelinessCount, 0)
	w.PutUint32(PIDBuiltinEndpointQoS, 0)
	w.PutString(PIDEntityName, "ddsgo participant")
	w.Put(PropertyList{Properties: []Property{{"__ProcessName", "wire.test"}, {"__Pid", "1234"}}, HasBinary: true})
	w.PutOctets(PIDUserData, []byte("hello"))
}

func sedpParams(writer bool) func(w *ParamWriter) {
	return func(w *ParamWriter) {
		kind := byte(EntityKindReaderWithKey)
		if writer {
			kind = EntityKindWriterWithKey
		}
		ep := GUID{Prefix: plPrefix, Entity: EntityID{Key: [3]byte{0, 0, 1}, Kind: kind}}
		w.PutGUID(PIDEndpointGUID, ep)
		w.PutGUID(PIDParticipantGUID, GUID{Prefix: plPrefix, Entity: EntityIDParticipant})
		w.PutKeyHash(KeyHash(ep.Append(nil)))
		w.PutProtocolVersion(ProtocolVersion25)
		w.PutVendorID(VendorDDSGo)
		w.PutString(PIDTopicName, "InteropTopic")
		w.PutString(PIDTypeName, "interop::Sample")
		w.PutLocator(PIDUnicastLocator, LocatorFromAddrPort(netip.MustParseAddrPort("127.0.0.1:7411")))
		w.PutLocator(PIDMulticastLocator, LocatorFromAddrPort(netip.MustParseAddrPort("239.255.0.1:7401")))
		if writer {
			o := qos.DefaultOffered()
			sedpPolicies(&o.Writer.Durability, &o.Writer.Reliability, &o.Writer.History, &o.Writer.DataRepresentation)
			sedpGroupPolicies(&o.Publisher.Presentation, &o.Publisher.Partition, &o.Publisher.GroupData)
			putPolicies(w, &o)
		} else {
			r := qos.DefaultRequested()
			sedpPolicies(&r.Reader.Durability, &r.Reader.Reliability, &r.Reader.History, &r.Reader.DataRepresentation)
			sedpGroupPolicies(&r.Subscriber.Presentation, &r.Subscriber.Partition, &r.Subscriber.GroupData)
			putPolicies(w, &r)
		}
		w.PutOctets(PIDTopicData, nil)
		if writer {
			w.PutUint32(PIDTypeMaxSizeSerialized, 1084)
		} else {
			w.PutBool(PIDExpectsInlineQoS, false)
			w.Put(ContentFilterProperty{
				ContentFilteredTopicName: "Filtered", RelatedTopicName: "InteropTopic", FilterClassName: "DDSSQL",
				FilterExpression: "id > %0", ExpressionParameters: []string{"5"},
			})
		}
	}
}

// sedpPolicies sets the policies Cyclone DDS announces for a reliable
// TRANSIENT_LOCAL KEEP_ALL endpoint.
func sedpPolicies(d *qos.Durability, r *qos.Reliability, h *qos.History, dr *qos.DataRepresentation) {
	d.Kind = qos.TransientLocal
	*r = qos.Reliability{Kind: qos.Reliable, MaxBlockingTime: 100 * time.Millisecond}
	*h = qos.History{Kind: qos.KeepAll, Depth: -1}
	dr.Value = []qos.DataRepresentationID{qos.XCDR1, qos.XCDR2}
}

// sedpGroupPolicies sets the publisher or subscriber policies of the SEDP
// messages to other than their defaults.
func sedpGroupPolicies(p *qos.Presentation, part *qos.Partition, gd *qos.GroupData) {
	*p = qos.Presentation{AccessScope: qos.TopicScope, CoherentAccess: true}
	part.Name = []string{"p1", "part*"}
	gd.Value = []byte{1, 2, 3}
}

// TestParamTshark passes SPDP and SEDP DATA messages built with
// ParamWriter, in both byte orders, and a disposal with inline QoS through
// Wireshark's dissector.
func TestParamTshark(t *testing.T) {
	if !tshark.Available() {
		t.Skip("tshark is not installed")
	}
	var msgs []pcapng.Datagram
	add := func(dst string, m []byte) {
		msgs = append(msgs, pcapng.Datagram{
			Src: netip.MustParseAddrPort("127.0.0.1:7410"), Dst: netip.MustParseAddrPort(dst), Payload: m,
		})
	}
	for _, be := range []bool{false, true} {
		add("239.255.0.1:7400", dataMessage(be, EntityIDSPDPReader, EntityIDSPDPWriter, 1, nil, plPayload(t, be, spdpParams), false))
		add("127.0.0.1:7410", dataMessage(be, EntityIDSEDPPublicationsReader, EntityIDSEDPPublicationsWriter, 1, nil, plPayload(t, be, sedpParams(true)), false))
		add("127.0.0.1:7410", dataMessage(be, EntityIDSEDPSubscriptionsReader, EntityIDSEDPSubscriptionsWriter, 1, nil, plPayload(t, be, sedpParams(false)), false))

		qw := NewParamWriter(nil, be)
		ep := GUID{Prefix: plPrefix, Entity: EntityID{Key: [3]byte{0, 0, 1}, Kind: EntityKindWriterWithKey}}
		qw.PutKeyHash(KeyHash(ep.Append(nil)))
		qw.PutStatusInfo(StatusInfoDisposed | StatusInfoUnregistered)
		qos, err := qw.Finish()
		require.NoError(t, err)
		key := plPayload(t, be, func(w *ParamWriter) { w.PutGUID(PIDEndpointGUID, ep) })
		add("127.0.0.1:7410", dataMessage(be, EntityIDSEDPPublicationsReader, EntityIDSEDPPublicationsWriter, 2, qos, key, true))
	}
	// Our own reader accepts what we wrote.
	for _, m := range msgs {
		var r Reader
		var d Data
		require.NoError(t, r.Reset(m.Payload))
		for r.Next() {
			if r.Kind() != KindData {
				continue
			}
			require.NoError(t, r.Data(&d))
			be := binary.BigEndian.Uint16(d.SerializedPayload) == 0x0002
			ps, pr := collect(d.SerializedPayload[4:], be, VendorDDSGo)
			require.NoError(t, pr.Err())
			require.True(t, pr.HasSentinel())
			require.NotEmpty(t, ps)
		}
	}
	tshark.CheckDatagrams(t, msgs)
}
