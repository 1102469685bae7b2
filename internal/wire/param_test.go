package wire

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/qos"
)

// collect reads a whole list.
func collect(b []byte, be bool, vendor VendorID) ([]Parameter, ParameterReader) {
	r := NewParameterReader(b, be, vendor)
	var out []Parameter
	for p, ok := r.Next(); ok; p, ok = r.Next() {
		out = append(out, p)
	}
	return out, r
}

func TestParameterReader(t *testing.T) {
	le := []byte{
		0x00, 0x00, 0x04, 0x00, 0xde, 0xad, 0xbe, 0xef, // PID_PAD, skipped
		0x05, 0x00, 0x08, 0x00, 0x03, 0x00, 0x00, 0x00, 'a', 'b', 0x00, 0x00, // TOPIC_NAME "ab"
		0x07, 0x80, 0x04, 0x00, 0x01, 0x02, 0x03, 0x04, // vendor-specific 0x8007
		0x03, 0x3f, 0x00, 0x00, // PID_IGNORE, skipped
		0x01, 0x00, 0x00, 0x00, // SENTINEL
		0xff, 0xff, // trailing octets after the sentinel: not read
	}
	ps, r := collect(le, false, VendorFastDDS)
	require.NoError(t, r.Err())
	require.True(t, r.HasSentinel())
	require.Equal(t, len(le)-2, r.Len())
	require.Len(t, ps, 2)
	require.Equal(t, PIDTopicName, ps[0].ID)
	s, n, err := ParseString(ps[0].Value, ps[0].BigEndian)
	require.NoError(t, err)
	require.Equal(t, "ab", s)
	require.Equal(t, 7, n)
	require.Equal(t, ParameterID(0x8007), ps[1].ID)
	require.True(t, ps[1].ID.IsVendorSpecific())
	require.True(t, ps[1].ID.Known(VendorFastDDS))
	require.False(t, ps[1].ID.Known(VendorRTI))
	require.Equal(t, []byte{1, 2, 3, 4}, ps[1].Value)

	be := []byte{
		0x00, 0x0f, 0x00, 0x04, 0x00, 0x00, 0x00, 0x07, // DOMAIN_ID 7
		0x00, 0x01, 0x12, 0x34, // SENTINEL with a non-zero length: ignored
	}
	ps, r = collect(be, true, VendorCyclone)
	require.NoError(t, r.Err())
	require.Len(t, ps, 1)
	v, _, err := ParseUint32(ps[0].Value, true)
	require.NoError(t, err)
	require.Equal(t, uint32(7), v)
	require.Equal(t, 12, r.Len())
}

func TestParameterReaderLenient(t *testing.T) {
	// A length that is not a multiple of 4: the next parameter follows the
	// value directly. No sentinel: the list ends with the input.
	b := []byte{
		0x60, 0x00, 0x05, 0x00, 1, 2, 3, 4, 5,
		0x0f, 0x00, 0x04, 0x00, 7, 0, 0, 0,
	}
	ps, r := collect(b, false, VendorUnknown)
	require.NoError(t, r.Err())
	require.False(t, r.HasSentinel())
	require.Len(t, ps, 2)
	require.Equal(t, []byte{1, 2, 3, 4, 5}, ps[0].Value)
	require.Equal(t, PIDDomainID, ps[1].ID)
	require.Equal(t, len(b), r.Len())

	// PID_LIST_END ends a list like PID_SENTINEL.
	ps, r = collect([]byte{0x0f, 0x00, 0x04, 0x00, 7, 0, 0, 0, 0x02, 0x3f, 0, 0, 0x0f, 0x00}, false, VendorUnknown)
	require.NoError(t, r.Err())
	require.True(t, r.HasSentinel())
	require.Len(t, ps, 1)

	// Empty list.
	ps, r = collect(nil, false, VendorUnknown)
	require.NoError(t, r.Err())
	require.Empty(t, ps)
}

func TestParameterReaderExtended(t *testing.T) {
	b := []byte{
		0x01, 0x3f, 0x08, 0x00, 0x78, 0x56, 0x34, 0x12, 0x06, 0x00, 0x00, 0x00, // EXTENDED id 0x12345678 len 6
		1, 2, 3, 4, 5, 6,
		0x01, 0x00, 0x00, 0x00,
	}
	ps, r := collect(b, false, VendorUnknown)
	require.NoError(t, r.Err())
	require.Len(t, ps, 1)
	require.Equal(t, PIDExtended, ps[0].ID)
	require.Equal(t, uint32(0x12345678), ps[0].ExtendedID)
	require.Equal(t, []byte{1, 2, 3, 4, 5, 6}, ps[0].Value)
	require.Equal(t, len(b), r.Len())
}

func TestParameterReaderErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    []byte
		want error
	}{
		{"partial header", []byte{0x05, 0x00, 0x04}, ErrTruncated},
		{"value beyond input", []byte{0x05, 0x00, 0x08, 0x00, 1, 2, 3, 4}, ErrTruncated},
		{"extended length", []byte{0x01, 0x3f, 0x04, 0x00, 1, 2, 3, 4}, ErrInvalid},
		{"extended value beyond input", []byte{0x01, 0x3f, 0x08, 0x00, 1, 0, 0, 0, 9, 0, 0, 0, 1}, ErrTruncated},
		{"unknown must-understand", []byte{0xbc, 0x4a, 0x00, 0x00}, ErrMustUnderstand},
		{"unknown vendor must-understand", []byte{0x01, 0xc0, 0x00, 0x00}, ErrMustUnderstand},
	} {
		t.Run(tc.name, func(t *testing.T) {
			good := []byte{0x0f, 0x00, 0x04, 0x00, 7, 0, 0, 0}
			ps, r := collect(append(good, tc.b...), false, VendorCyclone)
			require.Len(t, ps, 1, "the parameters before the error are returned")
			require.ErrorIs(t, r.Err(), tc.want)
			_, ok := r.Next()
			require.False(t, ok, "the reader stays stopped")
		})
	}
	_, r := collect([]byte{0xbc, 0x4a, 0x00, 0x00}, false, VendorCyclone)
	var mu MustUnderstandError
	require.True(t, errors.As(r.Err(), &mu))
	require.Equal(t, ParameterID(0x4abc), mu.ID)
	require.Contains(t, mu.Error(), "0x4abc")

	// PID_DOMAIN_TAG has the must-understand bit and is known.
	ps, r := collect([]byte{0x14, 0x40, 0x08, 0x00, 2, 0, 0, 0, 'x', 0, 0, 0}, false, VendorUnknown)
	require.NoError(t, r.Err())
	require.Len(t, ps, 1)
}

func TestFindParameterZeroAlloc(t *testing.T) {
	w := NewParamWriter(make([]byte, 0, 64), false)
	w.PutKeyHash(KeyHash{1, 2, 3})
	w.PutStatusInfo(StatusInfoDisposed)
	qos, err := w.Finish()
	require.NoError(t, err)

	allocs := testing.AllocsPerRun(100, func() {
		p, ok := FindParameter(qos, false, VendorCyclone, PIDStatusInfo)
		if !ok {
			t.Fatal("no STATUS_INFO")
		}
		s, _, _ := ParseStatusInfo(p.Value)
		p, _ = FindParameter(qos, false, VendorCyclone, PIDKeyHash)
		h, _, _ := ParseKeyHash(p.Value)
		if s != StatusInfoDisposed || h[0] != 1 {
			t.Fatal("wrong values")
		}
		r := NewParameterReader(qos, false, VendorCyclone)
		for _, ok := r.Next(); ok; _, ok = r.Next() {
		}
	})
	require.Zero(t, allocs)
	_, ok := FindParameter(qos, false, VendorCyclone, PIDTopicName)
	require.False(t, ok)

	buf := make([]byte, 0, 256)
	allocs = testing.AllocsPerRun(100, func() {
		w := NewParamWriter(buf[:0], false)
		w.PutKeyHash(KeyHash{1})
		w.PutStatusInfo(StatusInfoUnregistered)
		w.PutGUID(PIDEndpointGUID, GUID{})
		w.PutLocator(PIDUnicastLocator, Locator{})
		w.PutSequenceNumber(PIDCoherentSet, 3)
		_, _ = w.Finish()
	})
	require.Zero(t, allocs)
}

func TestParamWriterBytes(t *testing.T) {
	w := NewParamWriter([]byte{0xaa}, false) // appends to what is there
	w.PutProtocolVersion(ProtocolVersion25)
	w.PutVendorID(VendorDDSGo)
	w.PutGUID(PIDParticipantGUID, GUID{Prefix: GuidPrefix{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, Entity: EntityIDParticipant})
	w.PutLocator(PIDMetatrafficUnicastLocator, Locator{Kind: LocatorKindUDPv4, Port: 7410, Address: [16]byte{12: 127, 15: 1}})
	w.PutDuration(PIDParticipantLeaseDuration, Duration{Seconds: 10})
	w.PutUint32(PIDBuiltinEndpointSet, 0x0000fc3f)
	w.PutString(PIDEntityName, "ab")
	w.PutBool(PIDExpectsInlineQoS, true)
	w.PutStatusInfo(StatusInfoDisposed | StatusInfoUnregistered)
	w.PutOctets(PIDUserData, []byte{9})
	got, err := w.Finish()
	require.NoError(t, err)
	want := []byte{
		0xaa,
		0x15, 0x00, 0x04, 0x00, 2, 5, 0, 0,
		0x16, 0x00, 0x04, 0x00, 0x01, 0xdd, 0, 0,
		0x50, 0x00, 0x10, 0x00, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0x00, 0x00, 0x01, 0xc1,
		0x32, 0x00, 0x18, 0x00, 1, 0, 0, 0, 0xf2, 0x1c, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 127, 0, 0, 1,
		0x02, 0x00, 0x08, 0x00, 10, 0, 0, 0, 0, 0, 0, 0,
		0x58, 0x00, 0x04, 0x00, 0x3f, 0xfc, 0x00, 0x00,
		0x62, 0x00, 0x08, 0x00, 3, 0, 0, 0, 'a', 'b', 0, 0,
		0x43, 0x00, 0x04, 0x00, 1, 0, 0, 0,
		0x71, 0x00, 0x04, 0x00, 0, 0, 0, 3, // STATUS_INFO is big-endian in a little-endian list
		0x2c, 0x00, 0x08, 0x00, 1, 0, 0, 0, 9, 0, 0, 0,
		0x01, 0x00, 0x00, 0x00,
	}
	require.Equal(t, want, got)

	w = NewParamWriter(nil, true)
	o := qos.DefaultOffered()
	o.Writer.Reliability.MaxBlockingTime = 100 * time.Millisecond
	o.Publisher.Presentation = qos.Presentation{AccessScope: qos.TopicScope, CoherentAccess: true}
	putPolicies(&w, &o, PIDReliability, PIDPresentation)
	got, err = w.Finish()
	require.NoError(t, err)
	require.Equal(t, []byte{
		0x00, 0x1a, 0x00, 0x0c, 0, 0, 0, 2, 0, 0, 0, 0, 0x19, 0x99, 0x99, 0x9a,
		0x00, 0x21, 0x00, 0x08, 0, 0, 0, 1, 1, 0, 0, 0,
		0x00, 0x01, 0x00, 0x00,
	}, got)
}

func TestParamWriterErrors(t *testing.T) {
	w := NewParamWriter(nil, false)
	w.PutRaw(PIDSentinel, nil)
	require.ErrorIs(t, w.Err(), ErrInvalid)
	require.Empty(t, w.Bytes())

	w = NewParamWriter(nil, false)
	w.PutOctets(PIDUserData, make([]byte, 70000))
	w.PutUint32(PIDDomainID, 1)
	got, err := w.Finish()
	require.ErrorIs(t, err, ErrInvalid)
	require.Equal(t, []byte{0x0f, 0, 4, 0, 1, 0, 0, 0, 1, 0, 0, 0}, got, "the oversized parameter is left out")

	w.PutUint32(PIDDomainID, 2)
	require.Equal(t, got, w.Bytes())
	_, err = w.Finish()
	require.Error(t, err)

	// The largest value that fits.
	w = NewParamWriter(nil, false)
	w.PutRaw(PIDTypeInformation, make([]byte, 65532))
	got, err = w.Finish()
	require.NoError(t, err)
	require.Len(t, got, 4+65532+4)
	require.Equal(t, []byte{0x75, 0, 0xfc, 0xff}, got[:4])
	require.False(t, w.BigEndian())
}

// roundTripValues holds one value of each typed parameter.
var roundTripValues = []struct {
	id ParameterID
	v  any
}{
	{PIDParticipantGUID, GUID{Prefix: GuidPrefix{1, 2, 3}, Entity: EntityIDParticipant}},
	{PIDGroupEntityID, EntityIDFromUint32(0x000001c9)},
	{PIDProtocolVersion, ProtocolVersion25},
	{PIDVendorID, VendorDDSGo},
	{PIDDomainID, uint32(7)},
	{PIDParticipantManualLivelinessCount, uint32(3)},
	{PIDDomainTag, "tag"},
	{PIDTopicName, "Square"},
	{PIDTypeName, "ShapeType"},
	{PIDEntityName, ""},
	{PIDParticipantLeaseDuration, Duration{Seconds: 20}},
	{PIDDefaultMulticastLocator, Locator{Kind: LocatorKindUDPv6, Port: 7401, Address: [16]byte{0xff, 2, 15: 1}}},
	{PIDExpectsInlineQoS, true},
	{PIDPropertyList, PropertyList{
		Properties: []Property{{"a", "bc"}, {"defg", ""}},
		Binary:     []BinaryProperty{{"k", []byte{1, 2, 3}}, {"kk", nil}},
		HasBinary:  true,
	}},
	{PIDPropertyList, PropertyList{Properties: []Property{{"x", "y"}}}},
	{PIDUserData, []byte{1, 2, 3, 4, 5}},
	{PIDTypeInformation, []byte{1, 2, 3, 4, 5, 6, 7, 8}},
	{PIDKeyHash, KeyHash{15: 1}},
	{PIDStatusInfo, StatusInfoFiltered},
	{PIDContentFilterProperty, ContentFilterProperty{"cft", "Square", "DDSSQL", "x > %0 AND y < %1", []string{"1", "22"}}},
	{PIDContentFilterProperty, ContentFilterProperty{ContentFilteredTopicName: "c"}},
	{PIDContentFilterInfo, ContentFilterInfo{FilterResult: []uint32{5}, FilterSignatures: [][4]uint32{{1, 2, 3, 4}, {5, 6, 7, 8}}}},
	{PIDContentFilterInfo, ContentFilterInfo{}},
	{PIDCoherentSet, SequenceNumber(1 << 33)},
	{PIDOriginalWriterInfo, OriginalWriterInfo{WriterGUID: GUID{Prefix: GuidPrefix{9}}, WriterSN: 4, WriterQoS: []byte{0x71, 0, 4, 0, 0, 0, 0, 1, 1, 0, 0, 0}}},
	{PIDRelatedSampleIdentity, SampleIdentity{WriterGUID: GUID{Prefix: GuidPrefix{7}}, SN: 42}},
}

// put writes v with the writer method that suits it.
func put(w *ParamWriter, id ParameterID, v any) {
	switch x := v.(type) {
	case GUID:
		w.PutGUID(id, x)
	case EntityID:
		w.PutEntityID(id, x)
	case ProtocolVersion:
		w.PutProtocolVersion(x)
	case VendorID:
		w.PutVendorID(x)
	case uint32:
		w.PutUint32(id, x)
	case string:
		w.PutString(id, x)
	case Duration:
		w.PutDuration(id, x)
	case Locator:
		w.PutLocator(id, x)
	case bool:
		w.PutBool(id, x)
	case []byte:
		if id == PIDTypeInformation {
			w.PutRaw(id, x)
		} else {
			w.PutOctets(id, x)
		}
	case KeyHash:
		w.PutKeyHash(x)
	case StatusInfo:
		w.PutStatusInfo(x)
	case SequenceNumber:
		w.PutSequenceNumber(id, x)
	case SampleIdentity:
		w.PutAs(id, x)
	case ParamValue:
		if x.PID() != id {
			panic("wrong PID in table")
		}
		w.Put(x)
	default:
		panic("no writer for value")
	}
}

func TestParamRoundTrip(t *testing.T) {
	for _, be := range []bool{false, true} {
		for _, tc := range roundTripValues {
			if _, ok := tc.v.(OriginalWriterInfo); ok && be {
				continue // its WriterQoS is a little-endian list
			}
			w := NewParamWriter(nil, be)
			put(&w, tc.id, tc.v)
			b, err := w.Finish()
			require.NoError(t, err)
			require.Zero(t, len(b)%4)
			ps, r := collect(b, be, VendorUnknown)
			require.NoError(t, r.Err())
			require.Len(t, ps, 1)
			require.Equal(t, tc.id, ps[0].ID)
			c, ok := codecFor(tc.id, VendorUnknown)
			require.True(t, ok)
			w2 := NewParamWriter(nil, be)
			got, err := c(&w2, tc.id, ps[0].Value, be)
			require.NoError(t, err, "%s", tc.id)
			require.Equal(t, tc.v, got, "%s be=%v", tc.id, be)
			b2, err := w2.Finish()
			require.NoError(t, err)
			require.Equal(t, b, b2)
			if l, ok := tc.v.(interface {
				ValueAppender
				Len() int
			}); ok {
				require.Len(t, l.Append(nil, be), l.Len(), "%s Len", tc.id)
			}
		}
	}
}

func TestPropertyListBytes(t *testing.T) {
	// Cyclone DDS's form: properties, then an empty binary sequence.
	b := []byte{
		1, 0, 0, 0,
		6, 0, 0, 0, '_', '_', 'P', 'i', 'd', 0, 0, 0,
		3, 0, 0, 0, '4', '2', 0, 0,
		0, 0, 0, 0,
	}
	pl, n, err := ParsePropertyList(b, false)
	require.NoError(t, err)
	require.Equal(t, len(b), n)
	require.Equal(t, PropertyList{Properties: []Property{{"__Pid", "42"}}, HasBinary: true}, pl)
	require.Equal(t, b, pl.Append(nil, false))
	v, ok := pl.Get("__Pid")
	require.True(t, ok)
	require.Equal(t, "42", v)
	_, ok = pl.Get("nope")
	require.False(t, ok)

	// A hostile count is rejected before anything is allocated for it.
	_, _, err = ParsePropertyList([]byte{0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0}, false)
	require.ErrorIs(t, err, ErrTruncated)
}

func TestValueMisc(t *testing.T) {
	// An OriginalWriterInfo without QoS gets a lone sentinel.
	o := OriginalWriterInfo{WriterSN: 1}
	b := o.Append(nil, false)
	require.Len(t, b, o.Len())
	got, n, err := ParseOriginalWriterInfo(b, false)
	require.NoError(t, err)
	require.Equal(t, len(b), n)
	require.Equal(t, []byte{1, 0, 0, 0}, got.WriterQoS)

	v := CycloneParticipantVersionInfo{Version: 1, Flags: 0x2c, Internals: "vm/0.10.2/Linux/Linux"}
	require.Len(t, v.Append(nil, true), v.Len())
	require.Equal(t, PIDKeyHash, KeyHash{}.PID())
	require.Equal(t, PIDStatusInfo, StatusInfo(0).PID())
	require.Equal(t, 16, KeyHash{}.Len())
	require.Equal(t, 4, StatusInfo(0).Len())
	require.Equal(t, 24, SampleIdentity{}.Len())
}

func TestStringErrors(t *testing.T) {
	_, _, err := ParseString([]byte{3, 0, 0, 0, 'a', 'b', 'c'}, false)
	require.ErrorIs(t, err, ErrInvalid, "no NUL")
	_, _, err = ParseString([]byte{9, 0, 0, 0, 'a', 0}, false)
	require.ErrorIs(t, err, ErrTruncated)
	_, _, err = ParseString([]byte{1, 0}, false)
	require.ErrorIs(t, err, ErrTruncated)
	s, n, err := ParseString([]byte{0, 0, 0, 0}, false)
	require.NoError(t, err)
	require.Equal(t, "", s)
	require.Equal(t, 4, n)
	s, _, err = ParseString([]byte{0, 0, 0, 3, 'h', 'i', 0}, true)
	require.NoError(t, err)
	require.Equal(t, "hi", s)
}

func TestShortValues(t *testing.T) {
	// Every parser rejects, with an error, every truncation of a valid value that
	// cuts more than its padding, without panicking and without reading beyond its
	// input.
	for _, be := range []bool{false, true} {
		for _, tc := range roundTripValues {
			w := NewParamWriter(nil, be)
			put(&w, tc.id, tc.v)
			full := w.Bytes()[4:]
			c, _ := codecFor(tc.id, VendorUnknown)
			valid := len(full) - 3 // the shortest valid cut: only the padding to 4 octets goes
			switch v := tc.v.(type) {
			case []byte: // an opaque value: any length is one
				valid = 0
			case PropertyList: // the binary properties are optional
				if v.HasBinary {
					w3 := NewParamWriter(nil, be)
					put(&w3, tc.id, PropertyList{Properties: v.Properties})
					valid = len(w3.Bytes()[4:]) - 3
				}
			}
			for i := range full {
				cut := bytes.Clone(full[:i])
				w2 := NewParamWriter(nil, be)
				_, err := c(&w2, tc.id, cut[:i:i], be)
				if i < valid {
					require.Error(t, err, "%v cut to %d of %d octets", tc.id, i, len(full))
				}
			}
		}
	}
}

func TestParameterIDNames(t *testing.T) {
	require.Equal(t, "PID_TOPIC_NAME", PIDTopicName.String())
	require.Equal(t, "PID(0x8007)", PIDCycloneParticipantVersionInfo.String())
	name, ok := ParameterID(0x8007).Name(VendorCyclone)
	require.True(t, ok)
	require.Equal(t, "CYCLONE_PARTICIPANT_VERSION_INFO", name)
	name, ok = ParameterID(0x8007).Name(VendorFastDDS)
	require.True(t, ok)
	require.Equal(t, "FASTDDS_NETWORK_CONFIGURATION_SET", name)
	require.False(t, ParameterID(0x8007).Known(VendorRTI))
	require.True(t, PIDDomainTag.MustUnderstand())
	require.False(t, PIDTopicName.MustUnderstand())
	require.Equal(t, "PID(0x1234)", ParameterID(0x1234).String())
}
