package wire

import (
	"math"
	"net/netip"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestEntityID(t *testing.T) {
	e := EntityIDFromUint32(0x000100c2)
	require.Equal(t, EntityIDSPDPWriter, e)
	require.Equal(t, uint32(0x000100c2), e.Uint32())
	require.Equal(t, "000100c2", e.String())
	require.True(t, e.IsBuiltin())
	require.True(t, e.IsWriter())
	require.False(t, e.IsReader())
	require.True(t, EntityIDSEDPSubscriptionsReader.IsReader())
	require.False(t, EntityIDFromUint32(0x00001007).IsBuiltin())
	require.True(t, EntityIDFromUint32(0x00001042).IsVendorSpecific())
	require.Equal(t, []byte{0, 1, 0, 0xc2}, e.Append(nil))
	got, n, err := ParseEntityID([]byte{0, 1, 0, 0xc2, 9})
	require.NoError(t, err)
	require.Equal(t, 4, n)
	require.Equal(t, e, got)
	_, _, err = ParseEntityID([]byte{0, 1, 0})
	require.ErrorIs(t, err, ErrTruncated)
}

func TestGUID(t *testing.T) {
	g := GUID{Prefix: testPrefix, Entity: EntityIDParticipant}
	b := g.Append(nil)
	require.Equal(t, wireHex("0102030405060708090a0b0c 000001c1"), b)
	require.Equal(t, GUIDLen, g.Len())
	got, n, err := ParseGUID(b)
	require.NoError(t, err)
	require.Equal(t, 16, n)
	require.Equal(t, g, got)
	require.Equal(t, "01020304.05060708.090a0b0c:000001c1", g.String())
	_, _, err = ParseGUID(b[:15])
	require.ErrorIs(t, err, ErrTruncated)
	p, n, err := ParseGuidPrefix(b)
	require.NoError(t, err)
	require.Equal(t, 12, n)
	require.Equal(t, testPrefix, p)
	_, _, err = ParseGuidPrefix(b[:11])
	require.ErrorIs(t, err, ErrTruncated)
}

func TestLocator(t *testing.T) {
	for _, c := range []struct {
		ap   string
		kind int32
		str  string
	}{
		{"127.0.0.1:7410", LocatorKindUDPv4, "udpv4/127.0.0.1:7410"},
		{"[::ffff:10.0.0.1]:7400", LocatorKindUDPv4, "udpv4/10.0.0.1:7400"},
		{"[fe80::1]:7411", LocatorKindUDPv6, "udpv6/[fe80::1]:7411"},
	} {
		ap := netip.MustParseAddrPort(c.ap)
		l := LocatorFromAddrPort(ap)
		require.Equal(t, c.kind, l.Kind)
		require.Equal(t, c.str, l.String())
		back, ok := l.AddrPort()
		require.True(t, ok)
		require.Equal(t, netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()), back)
		requireRoundTrip(t, l, ParseLocator)
	}
	l := LocatorFromAddrPort(netip.MustParseAddrPort("127.0.0.1:7410"))
	require.Equal(t, wireHex("01000000 f21c0000 000000000000000000000000 7f000001"), l.Append(nil, false))
	require.Equal(t, wireHex("00000001 00001cf2 000000000000000000000000 7f000001"), l.Append(nil, true))

	require.Equal(t, LocatorInvalid, LocatorFromAddrPort(netip.AddrPort{}))
	require.False(t, LocatorInvalid.IsValid())
	require.Equal(t, "invalid", LocatorInvalid.String())
	_, ok := LocatorInvalid.AddrPort()
	require.False(t, ok)
	_, ok = Locator{Kind: LocatorKindUDPv4, Port: 70000}.AddrPort()
	require.False(t, ok)
	require.Equal(t, "kind(16)/00000000000000000000000000000001:5", Locator{Kind: 16, Port: 5, Address: [16]byte{15: 1}}.String())
	_, _, err := ParseLocator(make([]byte, 23), false)
	require.ErrorIs(t, err, ErrTruncated)
}

func TestSequenceNumber(t *testing.T) {
	for _, c := range []struct {
		sn     SequenceNumber
		le, be string
	}{
		{1, "00000000 01000000", "00000000 00000001"},
		{1<<32 + 2, "01000000 02000000", "00000001 00000002"},
		{SequenceNumberUnknown, "ffffffff 00000000", "ffffffff 00000000"},
		{math.MaxInt64, "ffffff7f ffffffff", "7fffffff ffffffff"},
	} {
		require.Equal(t, wireHex(c.le), c.sn.Append(nil, false))
		require.Equal(t, wireHex(c.be), c.sn.Append(nil, true))
		got, n, err := ParseSequenceNumber(wireHex(c.le), false)
		require.NoError(t, err)
		require.Equal(t, 8, n)
		require.Equal(t, c.sn, got)
		got, _, err = ParseSequenceNumber(wireHex(c.be), true)
		require.NoError(t, err)
		require.Equal(t, c.sn, got)
	}
	_, _, err := ParseSequenceNumber(make([]byte, 7), true)
	require.ErrorIs(t, err, ErrTruncated)
}

func TestSequenceNumberSet(t *testing.T) {
	s := SequenceNumberSet{Base: 100}
	requireSetOps(t, &s, []SequenceNumber{100, 131, 132, 355}, []SequenceNumber{356, 99}, 130)
	require.Equal(t, uint32(256), s.NumBits)
	require.Equal(t, 12+32, s.Len())
	requireRoundTrip(t, s, ParseSequenceNumberSet)
	// Bits beyond numBits are cleared on parse.
	p, n, err := ParseSequenceNumberSet(wireHex("00000000 01000000 01000000 ffffffff"), false)
	require.NoError(t, err)
	require.Equal(t, 16, n)
	require.Equal(t, [8]uint32{0x80000000}, p.Bitmap)

	_, _, err = ParseSequenceNumberSet(wireHex("00000000 01000000 01010000"), false)
	require.ErrorIs(t, err, ErrInvalid)
	_, _, err = ParseSequenceNumberSet(wireHex("00000000 01000000 21000000 00000000"), false)
	require.ErrorIs(t, err, ErrTruncated)
	_, _, err = ParseSequenceNumberSet(wireHex("00000000 01000000"), false)
	require.ErrorIs(t, err, ErrTruncated)

	// Append clamps an out-of-range NumBits.
	require.Equal(t, 12+32, SequenceNumberSet{NumBits: 1000}.Len())
}

// requireSetOps adds the numbers of in, in order, to the empty set s, which
// must take them, and those of out, which it must refuse as out of range. It
// then checks that s contains exactly in, in that order, and not absent.
func requireSetOps[N comparable](t *testing.T, s interface {
	Add(N) bool
	Contains(N) bool
	All(yield func(N) bool)
}, in, out []N, absent N,
) {
	t.Helper()
	for _, x := range in {
		require.True(t, s.Add(x), "Add(%v)", x)
	}
	for _, x := range out {
		require.False(t, s.Add(x), "Add(%v)", x)
		require.False(t, s.Contains(x), "Contains(%v)", x)
	}
	for _, x := range in {
		require.True(t, s.Contains(x), "Contains(%v)", x)
	}
	require.False(t, s.Contains(absent), "Contains(%v)", absent)
	require.Equal(t, in, slices.Collect(s.All))
}

func TestFragmentNumberSet(t *testing.T) {
	s := FragmentNumberSet{Base: 1}
	requireSetOps(t, &s, []FragmentNumber{1, 40}, []FragmentNumber{257, 0}, 41)
	requireRoundTrip(t, s, ParseFragmentNumberSet)
	_, _, err := ParseFragmentNumberSet(wireHex("01000000 01010000"), false)
	require.ErrorIs(t, err, ErrInvalid)
	_, _, err = ParseFragmentNumberSet(wireHex("01000000 01000000"), false)
	require.ErrorIs(t, err, ErrTruncated)
	f, n, err := ParseFragmentNumber(wireHex("00000007"), true)
	require.NoError(t, err)
	require.Equal(t, 4, n)
	require.Equal(t, FragmentNumber(7), f)
	require.Equal(t, wireHex("07000000"), f.Append(nil, false))
	require.Equal(t, 4, f.Len())
}

func TestTime(t *testing.T) {
	now := time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.UTC)
	rt := TimeFromTime(now)
	require.Equal(t, int32(now.Unix()), rt.Seconds)
	require.True(t, now.Equal(rt.Time()), "%v != %v", now, rt.Time())
	require.Equal(t, Time{Seconds: 1, Fraction: 1 << 31}, TimeFromTime(time.Unix(1, 5e8)))
	require.Equal(t, TimeInfinite, TimeFromTime(time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)))
	require.Equal(t, TimeZero, TimeFromTime(time.Date(1800, 1, 1, 0, 0, 0, 0, time.UTC)))
	requireRoundTrip(t, rt, ParseTime)
	_, _, err := ParseTime(make([]byte, 7), false)
	require.ErrorIs(t, err, ErrTruncated)
	// Every nanosecond value survives the round trip.
	for ns := int64(0); ns < 1e9; ns += 999_983 {
		tt := time.Unix(1_700_000_000, ns)
		require.True(t, tt.Equal(TimeFromTime(tt).Time()), "ns %d", ns)
	}
}

func TestDuration(t *testing.T) {
	for _, d := range []time.Duration{0, 1, time.Millisecond, 100 * time.Millisecond, 10 * time.Second, -1500 * time.Millisecond} {
		rd := DurationFromStd(d)
		require.Equal(t, d, rd.Std(), "%v", d)
	}
	// The fraction is rounded up: a peer that truncates it to nanoseconds (Fast DDS)
	// reads the duration given.
	for ns := int64(1); ns < 1e9; ns += 999_983 {
		f := DurationFromStd(time.Duration(ns)).Fraction
		require.Equal(t, ns, int64(uint64(f)*1e9>>32), "ns %d", ns)
	}
	require.Equal(t, Duration{Fraction: 1717986919}, DurationFromStd(400*time.Millisecond))
	require.Equal(t, Duration{Seconds: 10}, DurationFromStd(10*time.Second))
	require.Equal(t, Duration{Seconds: -2, Fraction: 1 << 31}, DurationFromStd(-1500*time.Millisecond))
	require.Equal(t, DurationInfinite, DurationFromStd(math.MaxInt64))
	require.Equal(t, DurationInfinite, DurationFromStd(math.MaxInt32*time.Second))
	require.True(t, DurationInfinite.IsInfinite())
	require.Equal(t, time.Duration(math.MaxInt64), DurationInfinite.Std())
	require.Equal(t, Duration{Seconds: math.MinInt32}, DurationFromStd(math.MinInt64))
	require.Equal(t, wireHex("ffffff7f ffffffff"), DurationInfinite.Append(nil, false))
	got, n, err := ParseDuration(wireHex("7fffffff ffffffff"), true)
	require.NoError(t, err)
	require.Equal(t, 8, n)
	require.Equal(t, DurationInfinite, got)
	require.Equal(t, 8, got.Len())
	_, _, err = ParseDuration(make([]byte, 4), true)
	require.ErrorIs(t, err, ErrTruncated)
}

func TestSmallElements(t *testing.T) {
	v := requireParse(t, ParseProtocolVersion, []byte{2, 5}, ProtocolVersion25)
	require.Equal(t, "2.5", v.String())
	require.Equal(t, []byte{2, 5}, v.Append(nil))
	require.Equal(t, 2, v.Len())
	_, _, err := ParseProtocolVersion(nil)
	require.ErrorIs(t, err, ErrTruncated)

	vid := requireParse(t, ParseVendorID, []byte{1, 0x0f}, VendorFastDDS)
	require.Equal(t, "01.0f", vid.String())
	require.Equal(t, []byte{1, 0x0f}, vid.Append(nil))
	require.Equal(t, 2, vid.Len())
	_, _, err = ParseVendorID(nil)
	require.ErrorIs(t, err, ErrTruncated)

	c := requireParse(t, func(b []byte) (Count, int, error) { return ParseCount(b, false) }, wireHex("feffffff"), Count(-2))
	require.Equal(t, wireHex("fffffffe"), c.Append(nil, true))
	require.Equal(t, 4, c.Len())
	_, _, err = ParseCount(nil, false)
	require.ErrorIs(t, err, ErrTruncated)

	require.Equal(t, 12, testPrefix.Len())
	require.Equal(t, 4, EntityIDUnknown.Len())
	require.Equal(t, "DATA_FRAG", KindDataFrag.String())
	require.Equal(t, "0x00", SubmessageKind(0).String())
	require.False(t, KindData.IsVendorSpecific())
}

// requireParse checks that parse reads want from in, consuming all of it,
// and refuses in without its last octet as truncated. It returns what it
// read.
func requireParse[T any](t *testing.T, parse func([]byte) (T, int, error), in []byte, want T) T {
	t.Helper()
	got, n, err := parse(in)
	require.NoError(t, err)
	require.Equal(t, len(in), n)
	require.Equal(t, want, got)
	_, _, err = parse(in[:len(in)-1])
	require.ErrorIs(t, err, ErrTruncated)
	return got
}

func TestPortConstants(t *testing.T) {
	// Domain 7 SPDP multicast port, as seen in the captures (9150), and the
	// unicast ports of participant index 0.
	const domain = 7
	require.Equal(t, 9150, PortBase+PortDomainGain*domain+PortOffsetMetaMulticast)
	require.Equal(t, 7410, PortBase+PortOffsetMetaUnicast)
	require.Equal(t, 7411, PortBase+PortOffsetUserUnicast)
	require.Equal(t, 7401, PortBase+PortOffsetUserMulticast)
}
