package wire

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// wireHex decodes a hex string with spaces and '|' separators.
func wireHex(s string) []byte {
	s = strings.NewReplacer(" ", "", "|", "", "\n", "", "\t", "").Replace(s)
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

var (
	testReader = EntityIDFromUint32(0x00000407)
	testWriter = EntityIDFromUint32(0x00000402)
	testPrefix = GuidPrefix{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	loopback   = Locator{Kind: LocatorKindUDPv4, Port: 7410, Address: [16]byte{12: 127, 15: 1}}
)

// submessageCases are literal encodings of every submessage kind, each in
// little-endian (E flag set) and big-endian form.
var submessageCases = []struct {
	name string
	sm   Submessage
	wire []byte
}{
	{
		"HEARTBEAT LE", &Heartbeat{Final: true, ReaderID: testReader, WriterID: testWriter, FirstSN: 1, LastSN: 5, Count: 3},
		wireHex("07 03 1c00 | 00000407 00000402 | 00000000 01000000 | 00000000 05000000 | 03000000"),
	},
	{
		"HEARTBEAT BE", &Heartbeat{BigEndian: true, Liveliness: true, ReaderID: testReader, WriterID: testWriter, FirstSN: 1<<32 + 1, LastSN: 1<<32 + 5, Count: 3},
		wireHex("07 04 001c | 00000407 00000402 | 00000001 00000001 | 00000001 00000005 | 00000003"),
	},
	{
		"ACKNACK LE", &AckNack{Final: true, ReaderID: testReader, WriterID: testWriter, ReaderSNState: SequenceNumberSet{Base: 6, NumBits: 10, Bitmap: [8]uint32{0xa0000000}}, Count: 7},
		wireHex("06 03 1c00 | 00000407 00000402 | 00000000 06000000 | 0a000000 | 000000a0 | 07000000"),
	},
	{
		"ACKNACK BE", &AckNack{BigEndian: true, ReaderID: testReader, WriterID: testWriter, ReaderSNState: SequenceNumberSet{Base: 6, NumBits: 33, Bitmap: [8]uint32{0xa0000000, 0x80000000}}, Count: 7},
		wireHex("06 00 0020 | 00000407 00000402 | 00000000 00000006 | 00000021 | a0000000 80000000 | 00000007"),
	},
	{
		"ACKNACK pre-emptive base 0", &AckNack{ReaderID: testReader, WriterID: testWriter, Count: 1},
		wireHex("06 01 1800 | 00000407 00000402 | 00000000 00000000 | 00000000 | 01000000"),
	},
	{
		"GAP LE", &Gap{ReaderID: testReader, WriterID: testWriter, GapStart: 3, GapList: SequenceNumberSet{Base: 5}},
		wireHex("08 01 1c00 | 00000407 00000402 | 00000000 03000000 | 00000000 05000000 | 00000000"),
	},
	{
		"GAP BE", &Gap{BigEndian: true, ReaderID: testReader, WriterID: testWriter, GapStart: 3, GapList: SequenceNumberSet{Base: 5, NumBits: 1, Bitmap: [8]uint32{0x80000000}}},
		wireHex("08 00 0020 | 00000407 00000402 | 00000000 00000003 | 00000000 00000005 | 00000001 | 80000000"),
	},
	{
		"INFO_TS LE", &InfoTS{Timestamp: Time{Seconds: 1, Fraction: 0x80000000}},
		wireHex("09 01 0800 | 01000000 00000080"),
	},
	{
		"INFO_TS BE", &InfoTS{BigEndian: true, Timestamp: Time{Seconds: 1, Fraction: 0x80000000}},
		wireHex("09 00 0008 | 00000001 80000000"),
	},
	{"INFO_TS invalidate LE", &InfoTS{Invalidate: true}, wireHex("09 03 0000")},
	{"INFO_TS invalidate BE", &InfoTS{BigEndian: true, Invalidate: true}, wireHex("09 02 0000")},
	{"INFO_DST LE", &InfoDst{GuidPrefix: testPrefix}, wireHex("0e 01 0c00 | 0102030405060708090a0b0c")},
	{"INFO_DST BE", &InfoDst{BigEndian: true, GuidPrefix: testPrefix}, wireHex("0e 00 000c | 0102030405060708090a0b0c")},
	{
		"INFO_SRC LE", &InfoSrc{Version: ProtocolVersion21, Vendor: VendorCyclone, GuidPrefix: testPrefix},
		wireHex("0c 01 1400 | 00000000 | 0201 0110 | 0102030405060708090a0b0c"),
	},
	{
		"INFO_SRC BE", &InfoSrc{BigEndian: true, Unused: 1, Version: ProtocolVersion23, Vendor: VendorFastDDS, GuidPrefix: testPrefix},
		wireHex("0c 00 0014 | 00000001 | 0203 010f | 0102030405060708090a0b0c"),
	},
	{
		"HEARTBEAT_FRAG LE", &HeartbeatFrag{ReaderID: testReader, WriterID: testWriter, WriterSN: 2, LastFragmentNum: 3, Count: 4},
		wireHex("13 01 1800 | 00000407 00000402 | 00000000 02000000 | 03000000 | 04000000"),
	},
	{
		"HEARTBEAT_FRAG BE", &HeartbeatFrag{BigEndian: true, ReaderID: testReader, WriterID: testWriter, WriterSN: 2, LastFragmentNum: 3, Count: 4},
		wireHex("13 00 0018 | 00000407 00000402 | 00000000 00000002 | 00000003 | 00000004"),
	},
	{
		"NACK_FRAG LE", &NackFrag{ReaderID: testReader, WriterID: testWriter, WriterSN: 2, FragmentNumberState: FragmentNumberSet{Base: 1, NumBits: 2, Bitmap: [8]uint32{0x40000000}}, Count: 5},
		wireHex("12 01 2000 | 00000407 00000402 | 00000000 02000000 | 01000000 02000000 00000040 | 05000000"),
	},
	{
		"NACK_FRAG BE", &NackFrag{BigEndian: true, ReaderID: testReader, WriterID: testWriter, WriterSN: 2, FragmentNumberState: FragmentNumberSet{Base: 1, NumBits: 2, Bitmap: [8]uint32{0x40000000}}, Count: 5},
		wireHex("12 00 0020 | 00000407 00000402 | 00000000 00000002 | 00000001 00000002 40000000 | 00000005"),
	},
	{
		"DATA LE", &Data{
			DataFlag: true, ReaderID: EntityIDUnknown, WriterID: testWriter, WriterSN: 1,
			InlineQoS:         wireHex("7100 0400 00000001 | 0100 0000"),
			SerializedPayload: wireHex("0001 0000 2a000000"),
		},
		wireHex("15 07 2800 | 0000 1000 | 00000000 00000402 | 00000000 01000000 | 7100 0400 00000001 0100 0000 | 0001 0000 2a000000"),
	},
	{
		"DATA BE", &Data{
			BigEndian: true, DataFlag: true, ReaderID: EntityIDUnknown, WriterID: testWriter, WriterSN: 1,
			InlineQoS:         wireHex("0071 0004 00000001 | 0001 0000"),
			SerializedPayload: wireHex("0000 0000 0000002a"),
		},
		wireHex("15 06 0028 | 0000 0010 | 00000000 00000402 | 00000000 00000001 | 0071 0004 00000001 0001 0000 | 0000 0000 0000002a"),
	},
	{
		"DATA key only, no QoS", &Data{KeyFlag: true, NonStandardPayload: true, ReaderID: testReader, WriterID: testWriter, WriterSN: 9, SerializedPayload: wireHex("01020304")},
		wireHex("15 19 1800 | 0000 1000 | 00000407 00000402 | 00000000 09000000 | 01020304"),
	},
	{
		"DATA no payload", &Data{ReaderID: testReader, WriterID: testWriter, WriterSN: 9},
		wireHex("15 01 1400 | 0000 1000 | 00000407 00000402 | 00000000 09000000"),
	},
	{
		"DATA_FRAG LE", &DataFrag{
			ReaderID: testReader, WriterID: testWriter, WriterSN: 3,
			FragmentStartingNum: 1, FragmentsInSubmessage: 1, FragmentSize: 8, SampleSize: 12,
			Fragments: wireHex("0001 0000 01020304"),
		},
		wireHex("16 01 2800 | 0000 1c00 | 00000407 00000402 | 00000000 03000000 | 01000000 | 0100 | 0800 | 0c000000 | 0001 0000 01020304"),
	},
	{
		"DATA_FRAG BE with QoS, short last fragment", &DataFrag{
			BigEndian: true, KeyFlag: true, ReaderID: testReader, WriterID: testWriter, WriterSN: 3,
			FragmentStartingNum: 2, FragmentsInSubmessage: 1, FragmentSize: 8, SampleSize: 12,
			InlineQoS: wireHex("0001 0000"),
			Fragments: wireHex("05060708"),
		},
		wireHex("16 06 0028 | 0000 001c | 00000407 00000402 | 00000000 00000003 | 00000002 | 0001 | 0008 | 0000000c | 0001 0000 | 05060708"),
	},
	{
		"INFO_REPLY LE", &InfoReply{Multicast: true, UnicastLocators: []Locator{loopback}},
		wireHex("0f 03 2000 | 01000000 | 01000000 f21c0000 000000000000000000000000 7f000001 | 00000000"),
	},
	{
		"INFO_REPLY BE", &InfoReply{BigEndian: true, UnicastLocators: []Locator{loopback, loopback}},
		wireHex("0f 00 0034 | 00000002 | 00000001 00001cf2 000000000000000000000000 7f000001 | 00000001 00001cf2 000000000000000000000000 7f000001"),
	},
	{
		"INFO_REPLY_IP4 LE", &InfoReplyIP4{UnicastLocator: loopback},
		wireHex("0d 01 0800 | 0100007f f21c0000"),
	},
	{
		"INFO_REPLY_IP4 BE", &InfoReplyIP4{
			BigEndian: true, Multicast: true, UnicastLocator: loopback,
			MulticastLocator: Locator{Kind: LocatorKindUDPv4, Port: 7401, Address: [16]byte{12: 239, 13: 255, 15: 1}},
		},
		wireHex("0d 02 0010 | 7f000001 00001cf2 | efff0001 00001ce9"),
	},
	{"PAD LE", &Pad{Size: 4}, wireHex("01 01 0400 | 00000000")},
	{"PAD BE", &Pad{BigEndian: true, Size: 4}, wireHex("01 00 0004 | 00000000")},
	{"PAD empty", &Pad{}, wireHex("01 01 0000")},
}

func TestSubmessageLiterals(t *testing.T) {
	for _, c := range submessageCases {
		t.Run(c.name, func(t *testing.T) {
			got := c.sm.Append(nil)
			require.Equal(t, c.wire, got, "Append")
			require.Equal(t, len(got), c.sm.Len(), "Len")

			parsed, n, err := parseAny(c.wire)
			require.NoError(t, err)
			require.Equal(t, len(c.wire), n)
			require.Equal(t, c.sm, parsed)

			// The same through a Reader, into a reused struct, after a header.
			msg := Header{Version: ProtocolVersion25, Vendor: VendorDDSGo, Prefix: testPrefix}.Append(nil)
			msg = append(msg, c.wire...)
			var r Reader
			require.NoError(t, r.Reset(msg))
			var s subs
			require.True(t, r.Next())
			require.Equal(t, c.sm.Kind(), r.Kind())
			require.Equal(t, c.wire, r.Submessage())
			sm, err := s.decodeCurrent(&r)
			require.NoError(t, err)
			require.Equal(t, c.sm, sm)
			require.False(t, r.Next())
			require.NoError(t, r.Err())

			// Every strict prefix of the submessage body fails cleanly
			// (except where a shorter body is legal).
			for i := SubmessageHeaderLen; i < len(c.wire); i++ {
				trunc := append([]byte(nil), c.wire[:i]...)
				setLength(trunc)
				_, _, err := parseAny(trunc)
				if err == nil {
					continue // e.g. DATA without its payload flags, PAD
				}
				require.True(t, errors.Is(err, ErrTruncated) || errors.Is(err, ErrInvalid), "%v", err)
			}
		})
	}
}

// setLength rewrites octetsToNextHeader of the submessage in b to its
// actual body length.
func setLength(b []byte) {
	n := uint16(len(b) - SubmessageHeaderLen)
	if b[1]&FlagEndianness != 0 {
		b[2], b[3] = byte(n), byte(n>>8)
	} else {
		b[2], b[3] = byte(n>>8), byte(n)
	}
}

func TestSubmessageInvalid(t *testing.T) {
	cases := []struct {
		name string
		wire []byte
		is   error
	}{
		{"HEARTBEAT firstSN 0", wireHex("07 01 1c00 | 00000407 00000402 | 00000000 00000000 | 00000000 05000000 | 03000000"), ErrInvalid},
		{"HEARTBEAT lastSN < firstSN-1", wireHex("07 01 1c00 | 00000407 00000402 | 00000000 05000000 | 00000000 03000000 | 03000000"), ErrInvalid},
		{"HEARTBEAT short", wireHex("07 01 1800 | 00000407 00000402 | 00000000 01000000 | 00000000 05000000"), ErrTruncated},
		{"ACKNACK 257 bits", wireHex("06 01 1c00 | 00000407 00000402 | 00000000 01000000 | 01010000 | 00000000 | 00000000"), ErrInvalid},
		{"ACKNACK bitmap missing", wireHex("06 01 1800 | 00000407 00000402 | 00000000 01000000 | 40000000 | 00000000"), ErrTruncated},
		{"ACKNACK count missing", wireHex("06 01 1800 | 00000407 00000402 | 00000000 01000000 | 01000000 | 00000080"), ErrTruncated},
		{"ACKNACK base 0 with bits", wireHex("06 01 1c00 | 00000407 00000402 | 00000000 00000000 | 01000000 | 00000080 | 00000000"), ErrInvalid},
		{"ACKNACK negative base", wireHex("06 01 1800 | 00000407 00000402 | ffffffff 00000000 | 00000000 | 00000000"), ErrInvalid},
		{"GAP start 0", wireHex("08 01 1c00 | 00000407 00000402 | 00000000 00000000 | 00000000 05000000 | 00000000"), ErrInvalid},
		{"GAP list base 0", wireHex("08 01 1c00 | 00000407 00000402 | 00000000 01000000 | 00000000 00000000 | 00000000"), ErrInvalid},
		{"NACK_FRAG base 0", wireHex("12 01 1c00 | 00000407 00000402 | 00000000 02000000 | 00000000 00000000 | 05000000"), ErrInvalid},
		{"NACK_FRAG sn 0", wireHex("12 01 1c00 | 00000407 00000402 | 00000000 00000000 | 01000000 00000000 | 05000000"), ErrInvalid},
		{"HEARTBEAT_FRAG last 0", wireHex("13 01 1800 | 00000407 00000402 | 00000000 02000000 | 00000000 | 04000000"), ErrInvalid},
		{"DATA D and K", wireHex("15 0d 1800 | 0000 1000 | 00000407 00000402 | 00000000 01000000 | 00010000"), ErrInvalid},
		{"DATA sn 0", wireHex("15 05 1800 | 0000 1000 | 00000407 00000402 | 00000000 00000000 | 00010000"), ErrInvalid},
		{"DATA octetsToInlineQos 6", wireHex("15 05 1800 | 0000 0600 | 00000407 00000402 | 00000000 01000000 | 00010000"), ErrInvalid},
		{"DATA octetsToInlineQos beyond body", wireHex("15 05 1800 | 0000 4000 | 00000407 00000402 | 00000000 01000000 | 00010000"), ErrTruncated},
		{"DATA payload < 4", wireHex("15 05 1600 | 0000 1000 | 00000407 00000402 | 00000000 01000000 | 0001"), ErrTruncated},
		{"DATA inline QoS without sentinel", wireHex("15 03 1c00 | 0000 1000 | 00000407 00000402 | 00000000 01000000 | 7100 0400 00000001"), ErrTruncated},
		{"DATA inline QoS overlong param", wireHex("15 03 1c00 | 0000 1000 | 00000407 00000402 | 00000000 01000000 | 7100 0800 00000001"), ErrTruncated},
		{"DATA_FRAG zero size", wireHex("16 01 2800 | 0000 1c00 | 00000407 00000402 | 00000000 03000000 | 01000000 | 0100 | 0000 | 0c000000 | 0001000001020304"), ErrInvalid},
		{"DATA_FRAG beyond sample", wireHex("16 01 2800 | 0000 1c00 | 00000407 00000402 | 00000000 03000000 | 03000000 | 0100 | 0800 | 0c000000 | 0001000001020304"), ErrInvalid},
		{"DATA_FRAG payload short", wireHex("16 01 2400 | 0000 1c00 | 00000407 00000402 | 00000000 03000000 | 01000000 | 0200 | 0400 | 0c000000 | 00010000"), ErrTruncated},
		{"DATA_FRAG short last fragment not ending sample", wireHex("16 01 2400 | 0000 1c00 | 00000407 00000402 | 00000000 03000000 | 01000000 | 0100 | 0800 | 0c000000 | 00010000"), ErrTruncated},
		{"INFO_TS short", wireHex("09 01 0400 | 01000000"), ErrTruncated},
		{"INFO_DST short", wireHex("0e 01 0800 | 0102030405060708"), ErrTruncated},
		{"INFO_REPLY huge count", wireHex("0f 01 0800 | ffffffff 00000000"), ErrTruncated},
		{"INFO_REPLY_IP4 multicast missing", wireHex("0d 03 0800 | 0100007f f21c0000"), ErrTruncated},
		{"length beyond end", wireHex("07 01 ff00 | 00000407"), ErrTruncated},
		{"short header", wireHex("07 01 1c"), ErrTruncated},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := parseAny(c.wire)
			require.Error(t, err)
			require.ErrorIs(t, err, c.is)
			require.True(t, strings.HasPrefix(err.Error(), "wire: "), err.Error())
		})
	}
}

func TestOctetsToNextHeaderZero(t *testing.T) {
	// A HEARTBEAT with octetsToNextHeader 0 extends to the end of the
	// message; an INFO_TS with 0 has an empty body and needs the I flag.
	hb := wireHex("07 01 0000 | 00000407 00000402 | 00000000 01000000 | 00000000 05000000 | 03000000")
	x, n, err := ParseHeartbeat(hb)
	require.NoError(t, err)
	require.Equal(t, len(hb), n)
	require.Equal(t, SequenceNumber(5), x.LastSN)

	msg := Header{Version: ProtocolVersion21}.Append(nil)
	msg = append(msg, wireHex("09 03 0000")...) // INFO_TS invalidate, empty
	msg = append(msg, wireHex("01 01 0000")...) // PAD, empty
	msg = append(msg, hb...)
	var r Reader
	require.NoError(t, r.Reset(msg))
	var kinds []SubmessageKind
	for r.Next() {
		kinds = append(kinds, r.Kind())
	}
	require.NoError(t, r.Err())
	require.Equal(t, []SubmessageKind{KindInfoTS, KindPad, KindHeartbeat}, kinds)

	_, _, err = ParseInfoTS(wireHex("09 01 0000 | 01000000 00000080"))
	require.ErrorIs(t, err, ErrTruncated, "INFO_TS with length 0 has no timestamp")
}

func TestDataExtraOctetsToInlineQoS(t *testing.T) {
	// octetsToInlineQos 20: 4 unknown octets after writerSN are skipped.
	wire := wireHex("15 05 1c00 | 0000 1400 | 00000407 00000402 | 00000000 01000000 | deadbeef | 00010000")
	d, n, err := ParseData(wire)
	require.NoError(t, err)
	require.Equal(t, len(wire), n)
	require.Equal(t, wireHex("00010000"), d.SerializedPayload)
	// Re-encoded with the standard 16.
	require.Equal(t, wireHex("15 05 1800 | 0000 1000 | 00000407 00000402 | 00000000 01000000 | 00010000"), d.Append(nil))
}

func TestDataPadding(t *testing.T) {
	d := Data{DataFlag: true, WriterID: testWriter, WriterSN: 1, SerializedPayload: wireHex("0001 0000 2a")}
	b := d.Append(nil)
	require.Equal(t, d.Len(), len(b))
	require.Equal(t, 0, len(b)%4)
	require.Equal(t, wireHex("0001 0000 2a000000"), b[len(b)-8:])
}

func TestReaderUnknownAndVendorSubmessages(t *testing.T) {
	msg := Header{Version: ProtocolVersion23, Vendor: VendorFastDDS, Prefix: testPrefix}.Append(nil)
	msg = append(msg, wireHex("80 01 0800 | 0102030405060708")...) // vendor-specific
	msg = append(msg, wireHex("7e 00 0004 | 01020304")...)         // unknown standard id
	msg = append(msg, (&InfoDst{GuidPrefix: testPrefix}).Append(nil)...)
	var r Reader
	require.NoError(t, r.Reset(msg))
	require.Equal(t, VendorFastDDS, r.Header.Vendor)
	require.True(t, r.Next())
	require.Equal(t, SubmessageKind(0x80), r.Kind())
	require.True(t, r.Kind().IsVendorSpecific())
	require.Equal(t, wireHex("0102030405060708"), r.Body())
	require.ErrorIs(t, r.Data(&Data{}), ErrInvalid, "accessor of the wrong kind")
	require.True(t, r.Next())
	require.Equal(t, SubmessageKind(0x7e), r.Kind())
	require.Equal(t, "0x7e", r.Kind().String())
	require.True(t, r.BigEndian())
	require.True(t, r.Next())
	var d InfoDst
	require.NoError(t, r.InfoDst(&d))
	require.Equal(t, testPrefix, d.GuidPrefix)
	require.False(t, r.Next())
	require.NoError(t, r.Err())
}

func TestReaderBrokenFraming(t *testing.T) {
	msg := Header{Version: ProtocolVersion25}.Append(nil)
	msg = append(msg, (&InfoDst{}).Append(nil)...)
	msg = append(msg, wireHex("07 01 4000 | 00000407")...) // length beyond end
	var r Reader
	require.NoError(t, r.Reset(msg))
	require.True(t, r.Next())
	require.False(t, r.Next())
	require.ErrorIs(t, r.Err(), ErrTruncated)
	require.Equal(t, HeaderLen+16, r.Offset())
	require.False(t, r.Next())

	require.NoError(t, r.Reset(append(msg[:HeaderLen:HeaderLen], 0x07, 0x01)))
	require.False(t, r.Next())
	require.ErrorIs(t, r.Err(), ErrTruncated)
}

func TestHeader(t *testing.T) {
	wire := wireHex("52545053 0201 0110 0102030405060708090a0b0c")
	hd, n, err := ParseHeader(wire)
	require.NoError(t, err)
	require.Equal(t, HeaderLen, n)
	require.Equal(t, Header{Version: ProtocolVersion21, Vendor: VendorCyclone, Prefix: testPrefix}, hd)
	require.Equal(t, wire, hd.Append(nil))
	require.Equal(t, HeaderLen, hd.Len())

	for _, c := range []struct {
		name string
		b    []byte
		is   error
	}{
		{"empty", nil, ErrNotRTPS},
		{"one byte (Cyclone shutdown)", []byte{0}, ErrNotRTPS},
		{"RTPX", wireHex("52545058 0201 0110 0102030405060708090a0b0c"), ErrNotRTPS},
		{"short", wire[:19], ErrTruncated},
		{"version 1.0", wireHex("52545053 0100 0110 0102030405060708090a0b0c"), ErrVersion},
		{"version 3.0", wireHex("52545053 0300 0110 0102030405060708090a0b0c"), ErrVersion},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := ParseHeader(c.b)
			require.ErrorIs(t, err, c.is)
			var r Reader
			require.ErrorIs(t, r.Reset(c.b), c.is)
			require.False(t, r.Next())
			require.ErrorIs(t, r.Err(), c.is)
		})
	}
}

func TestBuilder(t *testing.T) {
	var w Builder
	hdr := Header{Version: ProtocolVersion25, Vendor: VendorDDSGo, Prefix: testPrefix}
	w.Reset(hdr)
	w.Add(&InfoTS{Invalidate: true})
	w.Add(&Heartbeat{WriterID: testWriter, FirstSN: 1, LastSN: 0})
	require.Equal(t, HeaderLen+4+32, w.Len())
	b := w.Bytes()
	w.Reset(hdr)
	require.Equal(t, HeaderLen, w.Len())
	require.Equal(t, b[:HeaderLen], w.Bytes())
}
