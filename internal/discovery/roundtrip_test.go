package discovery

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/qoswire"
	"github.com/ddsgo/ddsgo/internal/tshark"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/qos"
)

var testPrefix = wire.GuidPrefix{0x01, 0xdd, 0, 0, 0xca, 0xfe, 0, 1, 0, 0, 0, 7}

func testParticipant() ParticipantData {
	return ParticipantData{
		GUIDPrefix:                   testPrefix,
		ProtocolVersion:              wire.ProtocolVersion25,
		VendorID:                     wire.VendorDDSGo,
		DomainID:                     7,
		HasDomainID:                  true,
		DomainTag:                    "lab",
		ExpectsInlineQoS:             true,
		DefaultUnicastLocators:       []wire.Locator{loc("127.0.0.1:7411"), loc("[::1]:7411")},
		DefaultMulticastLocators:     []wire.Locator{loc("239.255.0.1:9151")},
		MetatrafficUnicastLocators:   []wire.Locator{loc("127.0.0.1:7410")},
		MetatrafficMulticastLocators: []wire.Locator{loc("239.255.0.1:9150")},
		LeaseDuration:                10 * time.Second,
		ManualLivelinessCount:        3,
		BuiltinEndpoints: wire.BuiltinParticipantAnnouncer | wire.BuiltinParticipantDetector |
			wire.BuiltinPublicationsAnnouncer | wire.BuiltinPublicationsDetector |
			wire.BuiltinSubscriptionsAnnouncer | wire.BuiltinSubscriptionsDetector |
			wire.BuiltinParticipantMessageWriter | wire.BuiltinParticipantMessageReader,
		BuiltinEndpointQoS: 1,
		Qos:                participantQos([]byte("hello")),
		EntityName:         "ddsgo participant",
		Properties:         wire.PropertyList{Properties: ProcessProperties()},
	}
}

// requireReparses requires that v, encoded by appendTo (its Append method), parses back
// to v.
func requireReparses[T any](t testing.TB, v T, appendTo func([]byte) []byte, parse func([]byte) (T, error), msgAndArgs ...any) {
	t.Helper()
	back, err := parse(appendTo(nil))
	require.NoError(t, err, msgAndArgs...)
	require.Equal(t, v, back, msgAndArgs...)
}

// testEndpoint returns an endpoint of the test participant on InteropTopic, entity id.
func testEndpoint(id uint32) EndpointData {
	return EndpointData{
		GUID:            wire.GUID{Prefix: testPrefix, Entity: wire.EntityIDFromUint32(id)},
		ParticipantGUID: wire.GUID{Prefix: testPrefix, Entity: wire.EntityIDParticipant},
		ProtocolVersion: wire.ProtocolVersion25,
		VendorID:        wire.VendorDDSGo,
		TopicName:       "InteropTopic",
		TypeName:        "interop::Sample",
	}
}

func testWriter() EndpointData {
	w := qos.DefaultDataWriterQos()
	w.Durability.Kind = qos.TransientLocal
	w.History = qos.History{Kind: qos.KeepAll, Depth: -1}
	w.ResourceLimits = qos.ResourceLimits{MaxSamples: 100, MaxInstances: 10, MaxSamplesPerInstance: 10}
	w.Deadline.Period = 2 * time.Second
	w.LatencyBudget.Duration = time.Millisecond
	w.Liveliness = qos.Liveliness{Kind: qos.ManualByTopic, LeaseDuration: 1500 * time.Millisecond}
	w.Lifespan.Duration = time.Minute
	w.DestinationOrder.Kind = qos.BySourceTimestamp
	w.Ownership.Kind = qos.Exclusive
	w.OwnershipStrength.Value = 5
	w.TransportPriority.Value = 2
	w.UserData.Value = []byte{1, 2, 3}
	w.DataRepresentation.Value = []qos.DataRepresentationID{qos.XCDR2}
	w.DurabilityService.ServiceCleanupDelay = time.Second
	p := qos.DefaultPublisherQos()
	p.Partition.Name = []string{"a", "b*"}
	p.Presentation = qos.Presentation{AccessScope: qos.TopicScope, CoherentAccess: true, OrderedAccess: true}
	p.GroupData.Value = []byte("group")
	e := testEndpoint(0x00000102)
	e.Offered = qos.Offered{Writer: w, Publisher: p, TopicData: qos.TopicData{Value: []byte("topic")}}
	e.UnicastLocators = []wire.Locator{loc("127.0.0.1:7411")}
	e.MulticastLocators = []wire.Locator{loc("239.255.0.1:7401")}
	e.TypeInformation = []byte{0xde, 0xad, 0xbe, 0xef}
	e.TypeMaxSizeSerialized = 1084
	e.EntityName = "writer"
	return e
}

func testReader() EndpointData {
	r := qos.DefaultDataReaderQos()
	r.Reliability.Kind = qos.Reliable
	r.Durability.Kind = qos.TransientLocal
	r.History.Depth = 5
	r.TimeBasedFilter.MinimumSeparation = 10 * time.Millisecond
	r.DataRepresentation.Value = []qos.DataRepresentationID{qos.XCDR1, qos.XCDR2}
	r.TypeConsistencyEnforcement.ForceTypeValidation = true
	s := qos.DefaultSubscriberQos()
	s.Partition.Name = []string{"a"}
	e := testEndpoint(0x00000207)
	e.Requested = qos.Requested{Reader: r, Subscriber: s}
	e.ExpectsInlineQoS = true
	e.ContentFilter = &wire.ContentFilterProperty{
		ContentFilteredTopicName: "Filtered", RelatedTopicName: "InteropTopic",
		FilterClassName: "DDSSQL", FilterExpression: "id > %0", ExpressionParameters: []string{"3"},
	}
	e.VendorParams = []Param{{ID: 0x8abc, Value: []byte{9, 9, 9, 9}}}
	return e
}

func testTopic() TopicData {
	q := qos.DefaultTopicQos()
	q.Reliability.Kind = qos.Reliable
	q.TopicData.Value = []byte("td")
	q.History = qos.History{Kind: qos.KeepLast, Depth: 3}
	return TopicData{
		Key:             wire.GUID{Prefix: testPrefix, Entity: wire.EntityIDFromUint32(0x000001c0 | 0x0a)},
		ProtocolVersion: wire.ProtocolVersion25,
		VendorID:        wire.VendorDDSGo,
		TopicName:       "InteropTopic",
		TypeName:        "interop::Sample",
		Qos:             q,
	}
}

func TestRoundTrip(t *testing.T) {
	p := testParticipant()
	b := p.Append(nil)
	require.Equal(t, []byte{0, 3, 0, 0}, b[:4])
	got, err := ParseParticipantData(b)
	require.NoError(t, err)
	require.Equal(t, p, got)

	for _, e := range []EndpointData{testWriter(), testReader()} {
		requireReparses(t, e, e.Append, ParseEndpointData)
	}
	tp := testTopic()
	requireReparses(t, tp, tp.Append, ParseTopicData)

	// Minimal data: absent policies take the defaults of the endpoint kind.
	for _, e := range []EndpointData{
		{GUID: wire.GUID{Prefix: testPrefix, Entity: wire.EntityIDFromUint32(0x00000303)}, TopicName: "t", TypeName: "T", Offered: qos.DefaultOffered()},
		{GUID: wire.GUID{Prefix: testPrefix, Entity: wire.EntityIDFromUint32(0x00000404)}, TopicName: "t", TypeName: "T", Requested: qos.DefaultRequested()},
	} {
		got, err := ParseEndpointData(e.Append(nil))
		require.NoError(t, err)
		e.ParticipantGUID = wire.GUID{Prefix: testPrefix, Entity: wire.EntityIDParticipant}
		require.Equal(t, e, got)
		require.False(t, got.Keyed())
	}
}

// TestDefaultsWhenAbsent decodes endpoints that announce nothing but their
// names: the DDS defaults of writers and readers apply.
func TestDefaultsWhenAbsent(t *testing.T) {
	for _, tc := range []struct {
		kind uint32
		want qos.ReliabilityKind
	}{{0x02, qos.Reliable}, {0x07, qos.BestEffort}} {
		w := newWriter(nil)
		w.PutGUID(wire.PIDEndpointGUID, wire.GUID{Prefix: testPrefix, Entity: wire.EntityIDFromUint32(0x100 | tc.kind)})
		w.PutString(wire.PIDTopicName, "t")
		w.PutString(wire.PIDTypeName, "T")
		e, err := ParseEndpointData(mustFinish(t, &w))
		require.NoError(t, err)
		if e.IsWriter() {
			require.Equal(t, qos.DefaultOffered(), e.Offered)
			require.Equal(t, tc.want, e.Offered.Writer.Reliability.Kind)
		} else {
			require.Equal(t, qos.DefaultRequested(), e.Requested)
			require.Equal(t, tc.want, e.Requested.Reader.Reliability.Kind)
		}
	}
	w := newWriter(nil)
	w.PutGUID(wire.PIDParticipantGUID, wire.GUID{Prefix: testPrefix, Entity: wire.EntityIDParticipant})
	p, err := ParseParticipantData(mustFinish(t, &w))
	require.NoError(t, err)
	require.Equal(t, DefaultLeaseDuration, p.LeaseDuration)
	require.False(t, p.HasDomainID)
}

// TestBigEndian decodes PL_CDR_BE data, with the GUIDs given only as
// KEY_HASH.
func TestBigEndian(t *testing.T) {
	w := wire.NewParamWriter([]byte{0, 2, 0, 0}, true)
	w.PutKeyHash(KeyHash(wire.GUID{Prefix: testPrefix, Entity: wire.EntityIDParticipant}))
	w.PutDuration(wire.PIDParticipantLeaseDuration, wire.Duration{Seconds: 30})
	w.PutLocator(wire.PIDMetatrafficUnicastLocator, loc("10.0.0.1:7410"))
	w.PutUint32(wire.PIDDomainID, 3)
	b, err := w.Finish()
	require.NoError(t, err)
	p, err := ParseParticipantData(b)
	require.NoError(t, err)
	require.Equal(t, testPrefix, p.GUIDPrefix)
	require.Equal(t, 30*time.Second, p.LeaseDuration)
	require.Equal(t, []wire.Locator{loc("10.0.0.1:7410")}, p.MetatrafficUnicastLocators)
	require.Equal(t, uint32(3), p.DomainID)

	w = wire.NewParamWriter([]byte{0, 2, 0, 0}, true)
	g := wire.GUID{Prefix: testPrefix, Entity: wire.EntityIDFromUint32(0x00000102)}
	w.PutKeyHash(KeyHash(g))
	w.PutString(wire.PIDTopicName, "t")
	w.PutString(wire.PIDTypeName, "T")
	w.PutRaw(wire.PIDReliability, []byte{0, 0, 0, 1}) // kind only, BEST_EFFORT
	w.PutRaw(wire.PIDHistory, []byte{0, 0, 0, 0, 0, 0, 0, 4})
	b, err = w.Finish()
	require.NoError(t, err)
	e, err := ParseEndpointData(b)
	require.NoError(t, err)
	require.Equal(t, g, e.GUID)
	require.Equal(t, qos.Reliability{Kind: qos.BestEffort}, e.Offered.Writer.Reliability)
	require.Equal(t, int32(4), e.Offered.Writer.History.Depth)
}

func TestDecodeErrors(t *testing.T) {
	good := testWriter()
	for name, tc := range map[string]struct {
		payload []byte
		is      error
	}{
		"empty":         {nil, ErrInvalid},
		"encapsulation": {[]byte{0, 1, 0, 0, 1, 0, 0, 0}, ErrInvalid},
		"truncated":     {good.Append(nil)[:40], wire.ErrTruncated},
		"no GUID":       {plBytes(func(w *wire.ParamWriter) { w.PutString(wire.PIDTopicName, "t"); w.PutString(wire.PIDTypeName, "T") }), ErrInvalid},
		"participant ID": {plBytes(func(w *wire.ParamWriter) {
			w.PutGUID(wire.PIDEndpointGUID, wire.GUID{Entity: wire.EntityIDParticipant})
		}), ErrInvalid},
		"no type": {plBytes(func(w *wire.ParamWriter) {
			w.PutGUID(wire.PIDEndpointGUID, good.GUID)
			w.PutString(wire.PIDTopicName, "t")
		}), ErrInvalid},
		"must understand": {plBytes(func(w *wire.ParamWriter) {
			w.PutGUID(wire.PIDEndpointGUID, good.GUID)
			w.PutRaw(0x4abc, []byte{1, 2, 3, 4})
		}), wire.ErrMustUnderstand},
		"vendor must understand": {plBytes(func(w *wire.ParamWriter) {
			w.PutGUID(wire.PIDEndpointGUID, good.GUID)
			w.PutRaw(0xc007, []byte{1, 2, 3, 4})
		}), wire.ErrMustUnderstand},
		"reliability kind": {plBytes(func(w *wire.ParamWriter) {
			w.PutGUID(wire.PIDEndpointGUID, good.GUID)
			w.PutRaw(wire.PIDReliability, []byte{3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
		}), ErrInvalid},
		"durability kind": {plBytes(func(w *wire.ParamWriter) {
			w.PutGUID(wire.PIDEndpointGUID, good.GUID)
			w.PutRaw(wire.PIDDurability, []byte{4, 0, 0, 0})
		}), ErrInvalid},
		"negative duration": {plBytes(func(w *wire.ParamWriter) {
			w.PutGUID(wire.PIDEndpointGUID, good.GUID)
			w.PutRaw(wire.PIDDeadline, []byte{0xfb, 0xff, 0xff, 0xff, 0, 0, 0, 0})
		}), ErrInvalid},
		"short history": {plBytes(func(w *wire.ParamWriter) {
			w.PutGUID(wire.PIDEndpointGUID, good.GUID)
			w.PutRaw(wire.PIDHistory, []byte{1, 0, 0, 0})
		}), ErrInvalid}, // a policy value is the qos table's: malformed, not a truncated list
		"too many partitions": {plBytes(func(w *wire.ParamWriter) {
			w.PutGUID(wire.PIDEndpointGUID, good.GUID)
			w.PutRaw(wire.PIDPartition, append([]byte{65, 0, 0, 0}, make([]byte, 65*4)...))
		}), ErrLimit},
	} {
		_, err := ParseEndpointData(tc.payload)
		require.ErrorIs(t, err, tc.is, name)
		require.Contains(t, err.Error(), "discovery: ", name)
	}
	// Unknown parameters without the must-understand bit are skipped, and
	// vendor parameters of any vendor are kept raw.
	e, err := ParseEndpointData(plBytes(func(w *wire.ParamWriter) {
		w.PutGUID(wire.PIDEndpointGUID, good.GUID)
		w.PutString(wire.PIDTopicName, "t")
		w.PutString(wire.PIDTypeName, "T")
		w.PutRaw(0x0abc, []byte{1, 2, 3, 4})
		w.PutRaw(0x8007, []byte{5, 6, 7, 8})
	}))
	require.NoError(t, err)
	require.Equal(t, []Param{{ID: 0x8007, Value: []byte{5, 6, 7, 8}}}, e.VendorParams)

	_, err = ParseParticipantData(plBytes(func(w *wire.ParamWriter) { w.PutVendorID(wire.VendorCyclone) }))
	require.ErrorIs(t, err, ErrInvalid)
}

func plBytes(fill func(w *wire.ParamWriter)) []byte {
	w := newWriter(nil)
	fill(&w)
	b, err := finish(&w)
	if err != nil {
		panic(err)
	}
	return b
}

func mustFinish(t *testing.T, w *wire.ParamWriter) []byte {
	t.Helper()
	b, err := finish(w)
	require.NoError(t, err)
	return b
}

func TestLimits(t *testing.T) {
	p, e := testParticipant(), testWriter()
	pb, eb := p.Append(nil), e.Append(nil)
	for _, c := range []struct {
		decode func(Decoder) error
		limits map[string]Limits
	}{{
		decode: func(d Decoder) error { _, err := d.ParticipantData(pb); return err },
		limits: map[string]Limits{"locators": {MaxLocators: 1}, "strings": {MaxStringLen: 3}, "properties": {MaxProperties: 2}, "data": {MaxDataLen: 4}},
	}, {
		decode: func(d Decoder) error { _, err := d.EndpointData(eb); return err },
		limits: map[string]Limits{"partitions": {MaxPartitions: 1}, "strings": {MaxStringLen: 5}, "data": {MaxDataLen: 2}},
	}} {
		for name, lim := range c.limits {
			err := c.decode(Decoder{Limits: lim})
			require.ErrorIs(t, err, ErrLimit, name)
			var le *LimitError
			require.True(t, errors.As(err, &le), name)
		}
	}
	r := testReader()
	d := Decoder{Limits: Limits{MaxVendorParams: -1, MaxStringLen: 6}}
	_, err := d.EndpointData(r.Append(nil))
	require.ErrorIs(t, err, ErrLimit)
	d = Decoder{Limits: Limits{MaxVendorParams: -1}}
	_, err = d.EndpointData(r.Append(nil))
	require.NoError(t, err)

	var l Limits
	require.NoError(t, l.CheckParticipants(1023))
	require.ErrorIs(t, l.CheckParticipants(1024), ErrLimit)
	require.ErrorIs(t, Limits{MaxEndpointsPerParticipant: 2}.CheckEndpoints(2), ErrLimit)
	require.NoError(t, Limits{MaxEndpointsPerParticipant: -1}.CheckEndpoints(1<<30))
}

func TestCheck(t *testing.T) {
	p := testParticipant()
	require.NoError(t, p.Check(Limits{}))
	p.Qos.UserData.Value = make([]byte, 70000)
	require.Error(t, p.Check(Limits{MaxDataLen: -1}))
	p.Qos.UserData.Value = make([]byte, 20000)
	require.ErrorIs(t, p.Check(Limits{}), ErrLimit)
	require.NoError(t, p.Check(Limits{MaxDataLen: -1}))

	e := testWriter()
	require.NoError(t, e.Check(Limits{}))
	e.GUID.Entity = wire.EntityIDParticipant
	require.ErrorIs(t, e.Check(Limits{}), ErrInvalid)
	e = testReader()
	e.Requested.Subscriber.Partition.Name = make([]string, 100)
	require.ErrorIs(t, e.Check(Limits{}), ErrLimit)
}

func TestDisposal(t *testing.T) {
	var d Decoder
	for _, g := range []wire.GUID{
		{Prefix: testPrefix, Entity: wire.EntityIDParticipant},
		{Prefix: testPrefix, Entity: wire.EntityIDFromUint32(0x00000102)},
	} {
		x := Disposal{GUID: g, Status: wire.StatusInfoDisposed | wire.StatusInfoUnregistered}
		// As this package sends it: KEY_HASH, STATUS_INFO and the key.
		data := wire.Data{KeyFlag: true, InlineQoS: x.AppendInlineQoS(nil), SerializedPayload: x.AppendKey(nil)}
		got, ok, err := d.Disposal(&data)
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, x, got)
		// As Cyclone DDS sends it: no KEY_HASH.
		w := wire.NewParamWriter(nil, false)
		w.PutStatusInfo(x.Status)
		data.InlineQoS = mustFinish(t, &w)
		got, ok, err = d.Disposal(&data)
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, x, got)
		// As Fast DDS sends it: no payload.
		data = wire.Data{InlineQoS: x.AppendInlineQoS(nil)}
		got, ok, err = d.Disposal(&data)
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, x, got)
	}
	// An announcement is not a disposal.
	p := testParticipant()
	data := wire.Data{DataFlag: true, SerializedPayload: p.Append(nil)}
	_, ok, err := d.Disposal(&data)
	require.NoError(t, err)
	require.False(t, ok)
	w := wire.NewParamWriter(nil, false)
	w.PutStatusInfo(wire.StatusInfoDisposed)
	data = wire.Data{InlineQoS: mustFinish(t, &w)}
	_, _, err = d.Disposal(&data)
	require.ErrorIs(t, err, ErrInvalid)
}

// message wraps a payload in header + INFO_TS + DATA.
func message(writer, reader wire.EntityID, sn wire.SequenceNumber, inline, payload []byte, key bool) []byte {
	var m wire.Builder
	m.Reset(wire.Header{Version: wire.ProtocolVersion25, Vendor: wire.VendorDDSGo, Prefix: testPrefix})
	m.Add(&wire.InfoTS{Timestamp: wire.Time{Seconds: 1700000000}})
	m.Add(&wire.Data{
		DataFlag: !key && payload != nil, KeyFlag: key, ReaderID: reader, WriterID: writer, WriterSN: sn,
		InlineQoS: inline, SerializedPayload: payload,
	})
	return m.Bytes()
}

// TestTshark has Wireshark dissect what this package writes.
func TestTshark(t *testing.T) {
	p, w, r, tp := testParticipant(), testWriter(), testReader(), testTopic()
	pd := Disposal{GUID: p.GUID(), Status: wire.StatusInfoDisposed | wire.StatusInfoUnregistered}
	wd := Disposal{GUID: w.GUID, Status: wire.StatusInfoDisposed | wire.StatusInfoUnregistered}
	tshark.Check(t, [][]byte{
		message(wire.EntityIDSPDPWriter, wire.EntityIDSPDPReader, 1, nil, p.Append(nil), false),
		message(wire.EntityIDSEDPPublicationsWriter, wire.EntityIDSEDPPublicationsReader, 1, nil, w.Append(nil), false),
		message(wire.EntityIDSEDPSubscriptionsWriter, wire.EntityIDSEDPSubscriptionsReader, 1, nil, r.Append(nil), false),
		message(wire.EntityIDSEDPTopicsWriter, wire.EntityIDSEDPTopicsReader, 1, nil, tp.Append(nil), false),
		message(wire.EntityIDSEDPPublicationsWriter, wire.EntityIDSEDPPublicationsReader, 2, wd.AppendInlineQoS(nil), wd.AppendKey(nil), true),
		message(wire.EntityIDSPDPWriter, wire.EntityIDSPDPReader, 2, pd.AppendInlineQoS(nil), pd.AppendKey(nil), true),
	})
}

// TestDurationJustBelowInfinite: a duration that rounds up to 2^31-1 s
// (found by FuzzParseEndpointData) decodes as infinite, which is what it
// re-encodes to.
func TestDurationJustBelowInfinite(t *testing.T) {
	for _, d := range []wire.Duration{
		{Seconds: 2147483646, Fraction: 0xffffffff},
		{Seconds: 2147483647, Fraction: 0},
		wire.DurationInfinite,
	} {
		v := decodeDeadline(t, d.Append(nil, false))
		require.Equal(t, qos.Infinite, v, "%+v", d)
		back := decodeDeadline(t, wire.DurationFromStd(v).Append(nil, false))
		require.Equal(t, v, back)
		lease, err := leaseFromWire(d)
		require.NoError(t, err)
		require.Equal(t, qos.Infinite, lease)
	}
	require.Equal(t, 2147483646*time.Second, decodeDeadline(t, wire.Duration{Seconds: 2147483646}.Append(nil, false)))
}

// decodeDeadline decodes a DEADLINE value with the qos table.
func decodeDeadline(t *testing.T, v []byte) time.Duration {
	t.Helper()
	o := qos.DefaultOffered()
	ok, err := qoswire.Decode(&o, uint16(wire.PIDDeadline), v, false, qoswire.Limits{})
	require.True(t, ok)
	require.NoError(t, err)
	return o.Writer.Deadline.Period
}
