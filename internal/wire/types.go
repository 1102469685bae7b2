package wire

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"net/netip"
	"strconv"
	"time"
)

// ErrTruncated is wrapped by every error that reports input shorter than the
// element being parsed. Test for it with errors.Is.
var ErrTruncated = errors.New("wire: truncated input")

// ErrInvalid is wrapped by every error that reports a value the RTPS
// specification forbids (for example a SequenceNumberSet with more than 256
// bits). Test for it with errors.Is.
var ErrInvalid = errors.New("wire: invalid value")

// appendU32 appends v in the byte order selected by be.
func appendU32(b []byte, v uint32, be bool) []byte {
	if be {
		return binary.BigEndian.AppendUint32(b, v)
	}
	return binary.LittleEndian.AppendUint32(b, v)
}

// appendU16 appends v in the byte order selected by be.
func appendU16(b []byte, v uint16, be bool) []byte {
	if be {
		return binary.BigEndian.AppendUint16(b, v)
	}
	return binary.LittleEndian.AppendUint16(b, v)
}

// u32 reads a uint32 in the byte order selected by be; b must hold 4 bytes.
func u32(b []byte, be bool) uint32 {
	if be {
		return binary.BigEndian.Uint32(b)
	}
	return binary.LittleEndian.Uint32(b)
}

// u16 reads a uint16 in the byte order selected by be; b must hold 2 bytes.
func u16(b []byte, be bool) uint16 {
	if be {
		return binary.BigEndian.Uint16(b)
	}
	return binary.LittleEndian.Uint16(b)
}

// GuidPrefix is the 12-octet prefix shared by the GUIDs of all entities of
// one participant (RTPS 2.5 §8.2.4.3, §9.3.1.1). Its wire form is the 12
// octets in order, independent of endianness.
type GuidPrefix [12]byte

// GuidPrefixUnknown is GUIDPREFIX_UNKNOWN, all zeros.
var GuidPrefixUnknown GuidPrefix

// GuidPrefixLen is the wire size of a GuidPrefix.
const GuidPrefixLen = 12

// ParseGuidPrefix reads a GuidPrefix from the start of b. It returns the
// number of bytes consumed (12).
func ParseGuidPrefix(b []byte) (GuidPrefix, int, error) {
	var p GuidPrefix
	if len(b) < GuidPrefixLen {
		return p, 0, errShortGuidPrefix
	}
	copy(p[:], b)
	return p, GuidPrefixLen, nil
}

// Append appends the 12 octets of p to b.
func (p GuidPrefix) Append(b []byte) []byte { return append(b, p[:]...) }

// Len returns the wire size of p (12).
func (p GuidPrefix) Len() int { return GuidPrefixLen }

// String formats p as three dot-separated groups of 8 hex digits.
func (p GuidPrefix) String() string {
	return hex.EncodeToString(p[0:4]) + "." + hex.EncodeToString(p[4:8]) + "." + hex.EncodeToString(p[8:12])
}

// EntityID identifies an entity within a participant (RTPS 2.5 §8.2.4.3,
// §9.3.1.2): a 3-octet key and a 1-octet kind. The wire form is the key
// octets followed by the kind octet, independent of endianness. EntityID is a
// comparable struct, so it can be a map key; Uint32 gives the conventional
// 0xKKKKKKkk notation used in the specification.
type EntityID struct {
	Key  [3]byte
	Kind byte
}

// EntityIDLen is the wire size of an EntityID.
const EntityIDLen = 4

// EntityIDFromUint32 builds an EntityID from its conventional notation,
// key in the upper 24 bits and kind in the low 8 (e.g. 0x000100c2).
func EntityIDFromUint32(v uint32) EntityID {
	return EntityID{Key: [3]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8)}, Kind: byte(v)}
}

// Uint32 returns the conventional notation of e (key << 8 | kind).
func (e EntityID) Uint32() uint32 {
	return uint32(e.Key[0])<<24 | uint32(e.Key[1])<<16 | uint32(e.Key[2])<<8 | uint32(e.Kind)
}

// IsBuiltin reports whether e's kind marks a built-in entity.
func (e EntityID) IsBuiltin() bool { return e.Kind&EntityKindBuiltinFlag != 0 }

// IsVendorSpecific reports whether e's kind marks a vendor-specific entity.
func (e EntityID) IsVendorSpecific() bool {
	return e.Kind&0xc0 == EntityKindVendorFlag
}

// IsWriter reports whether e's kind is one of the writer kinds.
func (e EntityID) IsWriter() bool {
	k := e.Kind & 0x3f
	return k == EntityKindWriterWithKey || k == EntityKindWriterNoKey
}

// IsReader reports whether e's kind is one of the reader kinds.
func (e EntityID) IsReader() bool {
	k := e.Kind & 0x3f
	return k == EntityKindReaderWithKey || k == EntityKindReaderNoKey
}

// ParseEntityID reads an EntityID from the start of b and returns the number
// of bytes consumed (4).
func ParseEntityID(b []byte) (EntityID, int, error) {
	if len(b) < EntityIDLen {
		return EntityID{}, 0, errShortEntityID
	}
	return EntityID{Key: [3]byte{b[0], b[1], b[2]}, Kind: b[3]}, EntityIDLen, nil
}

// Append appends the 4 octets of e to b.
func (e EntityID) Append(b []byte) []byte { return append(b, e.Key[0], e.Key[1], e.Key[2], e.Kind) }

// Len returns the wire size of e (4).
func (e EntityID) Len() int { return EntityIDLen }

// String formats e as 8 hex digits.
func (e EntityID) String() string { return fmt.Sprintf("%08x", e.Uint32()) }

// GUID globally identifies an RTPS entity (RTPS 2.5 §8.2.4.1, §9.3.1): the
// participant's prefix and the entity id. Its wire form is the 16 octets,
// independent of endianness.
type GUID struct {
	Prefix GuidPrefix
	Entity EntityID
}

// GUIDLen is the wire size of a GUID.
const GUIDLen = 16

// GUIDUnknown is GUID_UNKNOWN, all zeros.
var GUIDUnknown GUID

// ParseGUID reads a GUID from the start of b and returns the number of bytes
// consumed (16).
func ParseGUID(b []byte) (GUID, int, error) {
	var g GUID
	if len(b) < GUIDLen {
		return g, 0, errShortGUID
	}
	copy(g.Prefix[:], b)
	g.Entity = EntityID{Key: [3]byte{b[12], b[13], b[14]}, Kind: b[15]}
	return g, GUIDLen, nil
}

// Append appends the 16 octets of g to b.
func (g GUID) Append(b []byte) []byte {
	b = append(b, g.Prefix[:]...)
	return g.Entity.Append(b)
}

// Len returns the wire size of g (16).
func (g GUID) Len() int { return GUIDLen }

// String formats g as prefix:entity in hex.
func (g GUID) String() string { return g.Prefix.String() + ":" + g.Entity.String() }

// Locator is an RTPS transport address (RTPS 2.5 §8.2.4.5, §9.3.2 Locator_t):
// kind, port and a 16-octet address. An IPv4 address occupies the last 4
// octets of Address. On the wire Kind and Port are 4-byte integers in the
// message byte order, followed by the 16 address octets.
type Locator struct {
	Kind    int32
	Port    uint32
	Address [16]byte
}

// LocatorLen is the wire size of a Locator.
const LocatorLen = 24

// LocatorInvalid is LOCATOR_INVALID: kind invalid, port 0, address zero.
var LocatorInvalid = Locator{Kind: LocatorKindInvalid}

// LocatorFromAddrPort converts a UDP address to a Locator: UDPv4 for IPv4
// (and IPv4-mapped IPv6) addresses, UDPv6 otherwise. An invalid AddrPort
// gives LocatorInvalid.
func LocatorFromAddrPort(ap netip.AddrPort) Locator {
	a := ap.Addr()
	if !a.IsValid() {
		return LocatorInvalid
	}
	a = a.Unmap()
	l := Locator{Port: uint32(ap.Port())}
	if a.Is4() {
		l.Kind = LocatorKindUDPv4
		v4 := a.As4()
		copy(l.Address[12:], v4[:])
		return l
	}
	l.Kind = LocatorKindUDPv6
	l.Address = a.As16()
	return l
}

// AddrPort converts a UDPv4 or UDPv6 locator to a UDP address. It returns
// false for other kinds and for ports that do not fit in 16 bits.
func (l Locator) AddrPort() (netip.AddrPort, bool) {
	if l.Port > math.MaxUint16 {
		return netip.AddrPort{}, false
	}
	switch l.Kind {
	case LocatorKindUDPv4:
		return netip.AddrPortFrom(netip.AddrFrom4([4]byte(l.Address[12:16])), uint16(l.Port)), true
	case LocatorKindUDPv6:
		return netip.AddrPortFrom(netip.AddrFrom16(l.Address), uint16(l.Port)), true
	}
	return netip.AddrPort{}, false
}

// IsValid reports whether l's kind is not LOCATOR_KIND_INVALID.
func (l Locator) IsValid() bool { return l.Kind != LocatorKindInvalid }

// String formats l as "udpv4/1.2.3.4:7410", "udpv6/[::1]:7410" or
// "kind(N)/hex:port".
func (l Locator) String() string {
	if ap, ok := l.AddrPort(); ok {
		if l.Kind == LocatorKindUDPv4 {
			return "udpv4/" + ap.String()
		}
		return "udpv6/" + ap.String()
	}
	if l.Kind == LocatorKindInvalid {
		return "invalid"
	}
	return "kind(" + strconv.Itoa(int(l.Kind)) + ")/" + hex.EncodeToString(l.Address[:]) + ":" + strconv.FormatUint(uint64(l.Port), 10)
}

// ParseLocator reads a Locator from the start of b in the byte order
// selected by be and returns the number of bytes consumed (24).
func ParseLocator(b []byte, be bool) (Locator, int, error) {
	var l Locator
	if len(b) < LocatorLen {
		return l, 0, errShortLocator
	}
	l.Kind = int32(u32(b, be))
	l.Port = u32(b[4:], be)
	copy(l.Address[:], b[8:24])
	return l, LocatorLen, nil
}

// Append appends the wire form of l to b in the byte order selected by be.
func (l Locator) Append(b []byte, be bool) []byte {
	b = appendU32(b, uint32(l.Kind), be)
	b = appendU32(b, l.Port, be)
	return append(b, l.Address[:]...)
}

// Len returns the wire size of l (24).
func (l Locator) Len() int { return LocatorLen }

// SequenceNumber is an RTPS sequence number (RTPS 2.5 §9.3.2
// SequenceNumber_t). On the wire it is a signed 32-bit high word followed by
// an unsigned 32-bit low word, each in the message byte order; the value is
// high*2^32 + low. Valid sequence numbers start at 1.
type SequenceNumber int64

// SequenceNumberLen is the wire size of a SequenceNumber.
const SequenceNumberLen = 8

// SequenceNumberUnknown is SEQUENCENUMBER_UNKNOWN {high -1, low 0}.
const SequenceNumberUnknown SequenceNumber = -1 << 32

// ParseSequenceNumber reads a SequenceNumber from the start of b in the byte
// order selected by be and returns the number of bytes consumed (8).
func ParseSequenceNumber(b []byte, be bool) (SequenceNumber, int, error) {
	if len(b) < SequenceNumberLen {
		return 0, 0, errShortSN
	}
	return snFrom(b, be), SequenceNumberLen, nil
}

// snFrom decodes a SequenceNumber; b must hold 8 bytes.
func snFrom(b []byte, be bool) SequenceNumber {
	hi := int32(u32(b, be))
	lo := u32(b[4:], be)
	return SequenceNumber(int64(hi)<<32 | int64(lo))
}

// Append appends the wire form of s to b in the byte order selected by be.
func (s SequenceNumber) Append(b []byte, be bool) []byte {
	b = appendU32(b, uint32(int64(s)>>32), be)
	return appendU32(b, uint32(s), be)
}

// Len returns the wire size of s (8).
func (s SequenceNumber) Len() int { return SequenceNumberLen }

// MaxSetBits is the largest number of bits of a SequenceNumberSet or
// FragmentNumberSet (RTPS 2.5 §9.4.2.6).
const MaxSetBits = 256

// SequenceNumberSet is a bitmap of sequence numbers starting at Base (RTPS
// 2.5 §8.3.5.5, §9.4.2.6): bit i stands for Base+i, for i < NumBits. Bit i
// is the bit (31 - i%32) of Bitmap[i/32], as on the wire. The fixed-size
// array means parsing never allocates. On the wire: Base (8 bytes), NumBits
// (4), then (NumBits+31)/32 words of 4 bytes, all in the message byte order.
// Bits at or beyond NumBits must be zero for two sets to compare equal with
// ==; the parser and Add keep them zero.
type SequenceNumberSet struct {
	Base    SequenceNumber
	NumBits uint32
	Bitmap  [8]uint32
}

// ParseSequenceNumberSet reads a SequenceNumberSet from the start of b in
// the byte order selected by be and returns the number of bytes consumed. It
// rejects NumBits > 256 and a bitmap shorter than NumBits needs. It does not
// check Base, whose valid range depends on the submessage.
func ParseSequenceNumberSet(b []byte, be bool) (SequenceNumberSet, int, error) {
	var s SequenceNumberSet
	if len(b) < 12 {
		return s, 0, errShortSNSet
	}
	s.Base = snFrom(b, be)
	n, err := parseBitmap(b[8:], be, &s.NumBits, &s.Bitmap, errShortSNSet, errSNSetBits)
	if err != nil {
		return s, 0, err
	}
	return s, 8 + n, nil
}

// The bitmap of a SequenceNumberSet or FragmentNumberSet: numBits, then
// (numBits+31)/32 words in which bit i is bit (31 - i%32) of word i/32.

// parseBitmap reads numBits and the bitmap words at the start of b (just
// after the base of a set) into *numBits and bm, zeroing the bits beyond
// numBits, and returns the octets consumed. It returns errShort if b ends
// early and errBits if numBits is above 256 (*numBits is then set).
func parseBitmap(b []byte, be bool, numBits *uint32, bm *[8]uint32, errShort, errBits error) (int, error) {
	if len(b) < 4 {
		return 0, errShort
	}
	*numBits = u32(b, be)
	if *numBits > MaxSetBits {
		return 0, errBits
	}
	words := int(*numBits+31) / 32
	n := 4 + 4*words
	if len(b) < n {
		return 0, errShort
	}
	for i := range words {
		bm[i] = u32(b[4+4*i:], be)
	}
	clearTail(bm, *numBits)
	return n, nil
}

// appendBitmap appends numBits, clamped to 256, and the words of bm that
// hold them.
func appendBitmap(b []byte, numBits uint32, bm *[8]uint32, be bool) []byte {
	nb := min(numBits, MaxSetBits)
	b = appendU32(b, nb, be)
	for i := range int(nb+31) / 32 {
		b = appendU32(b, bm[i], be)
	}
	return b
}

// bitmapLen is the wire size of a bitmap of numBits bits (clamped to 256),
// the numBits field included.
func bitmapLen(numBits uint32) int { return 4 + 4*int((min(numBits, MaxSetBits)+31)/32) }

// bitAt reports whether bit i (< 256) of bm is set.
func bitAt(bm *[8]uint32, i uint32) bool { return bm[i/32]&(1<<(31-i%32)) != 0 }

// setBit sets bit i (< 256) of bm and grows *numBits to cover it.
func setBit(bm *[8]uint32, numBits *uint32, i uint32) {
	bm[i/32] |= 1 << (31 - i%32)
	if i >= *numBits {
		*numBits = i + 1
	}
}

func clearTail(bm *[8]uint32, numBits uint32) {
	if numBits > MaxSetBits {
		return
	}
	w := numBits / 32
	if r := numBits % 32; r != 0 {
		bm[w] &= ^uint32(0) << (32 - r)
		w++
	}
	for ; w < 8; w++ {
		bm[w] = 0
	}
}

// Append appends the wire form of s to b in the byte order selected by be.
// NumBits above 256 is clamped to 256.
func (s SequenceNumberSet) Append(b []byte, be bool) []byte {
	b = s.Base.Append(b, be)
	return appendBitmap(b, s.NumBits, &s.Bitmap, be)
}

// Len returns the wire size of s.
func (s SequenceNumberSet) Len() int { return 8 + bitmapLen(s.NumBits) }

// Contains reports whether sn is in the set.
func (s *SequenceNumberSet) Contains(sn SequenceNumber) bool {
	if sn < s.Base || sn-s.Base >= SequenceNumber(min(s.NumBits, MaxSetBits)) {
		return false
	}
	return bitAt(&s.Bitmap, uint32(sn-s.Base))
}

// Add puts sn in the set, growing NumBits as needed. It returns false if sn
// is below Base or at Base+256 or beyond.
func (s *SequenceNumberSet) Add(sn SequenceNumber) bool {
	if sn < s.Base || sn-s.Base >= MaxSetBits {
		return false
	}
	setBit(&s.Bitmap, &s.NumBits, uint32(sn-s.Base))
	return true
}

// All calls yield for each sequence number in the set in increasing order
// until yield returns false. It is a range-over-func iterator.
func (s *SequenceNumberSet) All(yield func(SequenceNumber) bool) {
	for i := range min(s.NumBits, MaxSetBits) {
		if bitAt(&s.Bitmap, i) && !yield(s.Base+SequenceNumber(i)) {
			return
		}
	}
}

// FragmentNumber numbers the fragments of a sample, from 1 (RTPS 2.5
// §9.3.2 FragmentNumber_t). On the wire it is an unsigned 32-bit integer in
// the message byte order.
type FragmentNumber uint32

// ParseFragmentNumber reads a FragmentNumber from the start of b in the byte
// order selected by be and returns the number of bytes consumed (4).
func ParseFragmentNumber(b []byte, be bool) (FragmentNumber, int, error) {
	if len(b) < 4 {
		return 0, 0, errShortFN
	}
	return FragmentNumber(u32(b, be)), 4, nil
}

// Append appends the wire form of f to b in the byte order selected by be.
func (f FragmentNumber) Append(b []byte, be bool) []byte { return appendU32(b, uint32(f), be) }

// Len returns the wire size of f (4).
func (f FragmentNumber) Len() int { return 4 }

// FragmentNumberSet is a bitmap of fragment numbers starting at Base, with
// the same layout rules as SequenceNumberSet but a 4-byte base (RTPS 2.5
// §9.4.2.8).
type FragmentNumberSet struct {
	Base    FragmentNumber
	NumBits uint32
	Bitmap  [8]uint32
}

// ParseFragmentNumberSet reads a FragmentNumberSet from the start of b in
// the byte order selected by be and returns the number of bytes consumed. It
// rejects NumBits > 256 and a bitmap shorter than NumBits needs.
func ParseFragmentNumberSet(b []byte, be bool) (FragmentNumberSet, int, error) {
	var s FragmentNumberSet
	if len(b) < 8 {
		return s, 0, errShortFNSet
	}
	s.Base = FragmentNumber(u32(b, be))
	n, err := parseBitmap(b[4:], be, &s.NumBits, &s.Bitmap, errShortFNSet, errFNSetBits)
	if err != nil {
		return s, 0, err
	}
	return s, 4 + n, nil
}

// Append appends the wire form of s to b in the byte order selected by be.
// NumBits above 256 is clamped to 256.
func (s FragmentNumberSet) Append(b []byte, be bool) []byte {
	b = appendU32(b, uint32(s.Base), be)
	return appendBitmap(b, s.NumBits, &s.Bitmap, be)
}

// Len returns the wire size of s.
func (s FragmentNumberSet) Len() int { return 4 + bitmapLen(s.NumBits) }

// Contains reports whether f is in the set.
func (s *FragmentNumberSet) Contains(f FragmentNumber) bool {
	if f < s.Base || uint32(f-s.Base) >= min(s.NumBits, MaxSetBits) {
		return false
	}
	return bitAt(&s.Bitmap, uint32(f-s.Base))
}

// Add puts f in the set, growing NumBits as needed. It returns false if f is
// below Base or at Base+256 or beyond.
func (s *FragmentNumberSet) Add(f FragmentNumber) bool {
	if f < s.Base || uint32(f-s.Base) >= MaxSetBits {
		return false
	}
	setBit(&s.Bitmap, &s.NumBits, uint32(f-s.Base))
	return true
}

// All calls yield for each fragment number in the set in increasing order
// until yield returns false. It is a range-over-func iterator.
func (s *FragmentNumberSet) All(yield func(FragmentNumber) bool) {
	for i := range min(s.NumBits, MaxSetBits) {
		if bitAt(&s.Bitmap, i) && !yield(s.Base+FragmentNumber(i)) {
			return
		}
	}
}

// Time is an RTPS timestamp (RTPS 2.5 §9.3.2 Time_t): seconds since the
// Unix epoch and a fraction in units of 2^-32 s. On the wire Seconds then
// Fraction, 4 bytes each in the message byte order.
type Time struct {
	Seconds  int32
	Fraction uint32
}

// Reserved Time values (RTPS 2.5 §9.3.2).
var (
	TimeZero     = Time{}                                  // TIME_ZERO
	TimeInvalid  = Time{Seconds: -1, Fraction: 0xffffffff} // TIME_INVALID
	TimeInfinite = Time{Seconds: 0x7fffffff, Fraction: 0xffffffff}
)

// TimeLen is the wire size of a Time.
const TimeLen = 8

// fracToNanos converts a 2^-32 s fraction to nanoseconds, rounded.
func fracToNanos(f uint32) int64 { return int64((uint64(f)*1e9 + 1<<31) >> 32) }

// nanosToFrac converts nanoseconds in [0, 1e9) to a 2^-32 s fraction, rounded.
func nanosToFrac(ns int64) uint32 {
	f := (uint64(ns)<<32 + 5e8) / 1e9
	if f > math.MaxUint32 {
		return math.MaxUint32
	}
	return uint32(f)
}

// nanosToFracUp is nanosToFrac rounded up: a peer that truncates the fraction
// to nanoseconds (Fast DDS 2.9) reads back ns, not ns-1, so that equal
// durations compare equal on both sides (a LIVELINESS lease of 0.4 s offered by
// Fast DDS and requested by ddsgo: rounded to nearest, Fast DDS read 399999999
// ns and refused the match). fracToNanos still gives ns back.
func nanosToFracUp(ns int64) uint32 {
	f := (uint64(ns)<<32 + 1e9 - 1) / 1e9
	if f > math.MaxUint32 {
		return math.MaxUint32
	}
	return uint32(f)
}

// TimeFromTime converts t to an RTPS Time. Instants before 1901 or after
// 2038 (outside the int32 seconds range) saturate to TimeZero and
// TimeInfinite respectively; nanosecond precision survives a round trip
// through Time.Time.
func TimeFromTime(t time.Time) Time {
	sec := t.Unix()
	if sec < math.MinInt32+1 { // -1 seconds belongs to TimeInvalid
		return TimeZero
	}
	if sec >= math.MaxInt32 {
		return TimeInfinite
	}
	return Time{Seconds: int32(sec), Fraction: nanosToFrac(int64(t.Nanosecond()))}
}

// Time converts t to a time.Time in UTC. TimeInvalid and TimeInfinite have
// no meaningful instant: test for them first.
func (t Time) Time() time.Time {
	ns := fracToNanos(t.Fraction)
	return time.Unix(int64(t.Seconds), ns).UTC()
}

// ParseTime reads a Time from the start of b in the byte order selected by
// be and returns the number of bytes consumed (8).
func ParseTime(b []byte, be bool) (Time, int, error) {
	if len(b) < TimeLen {
		return Time{}, 0, errShortTime
	}
	return timeAt(b, be), TimeLen, nil
}

// timeAt decodes the seconds and fraction of a Time or Duration (the same
// wire form) at the start of b; the caller checked that b holds 8 octets.
func timeAt(b []byte, be bool) Time {
	return Time{Seconds: int32(u32(b, be)), Fraction: u32(b[4:], be)}
}

// Append appends the wire form of t to b in the byte order selected by be.
func (t Time) Append(b []byte, be bool) []byte {
	b = appendU32(b, uint32(t.Seconds), be)
	return appendU32(b, t.Fraction, be)
}

// Len returns the wire size of t (8).
func (t Time) Len() int { return TimeLen }

// Duration is an RTPS time span (RTPS 2.5 §9.3.2 Duration_t, DDS
// Duration_t): seconds and a fraction in units of 2^-32 s. The wire form is
// the same as Time's.
type Duration struct {
	Seconds  int32
	Fraction uint32
}

// Reserved Duration values.
var (
	DurationZero     = Duration{}                                          // DURATION_ZERO
	DurationInfinite = Duration{Seconds: 0x7fffffff, Fraction: 0xffffffff} // DURATION_INFINITE
)

// DurationLen is the wire size of a Duration.
const DurationLen = 8

// DurationFromStd converts d to a Duration. Durations of 2^31-1 seconds or
// more (and math.MaxInt64, the conventional "forever") give
// DurationInfinite; negative ones below -2^31 s saturate to the smallest
// representable value. Nanosecond precision survives a round trip.
func DurationFromStd(d time.Duration) Duration {
	if d >= math.MaxInt32*time.Second {
		return DurationInfinite
	}
	sec := int64(d / time.Second)
	ns := int64(d % time.Second)
	if ns < 0 {
		sec--
		ns += int64(time.Second)
	}
	if sec < math.MinInt32 {
		return Duration{Seconds: math.MinInt32}
	}
	f := nanosToFracUp(ns)
	return Duration{Seconds: int32(sec), Fraction: f}
}

// Std converts d to a time.Duration; DurationInfinite and any duration too
// long for time.Duration give math.MaxInt64.
func (d Duration) Std() time.Duration {
	if d == DurationInfinite {
		return math.MaxInt64
	}
	return time.Duration(d.Seconds)*time.Second + time.Duration(fracToNanos(d.Fraction))
}

// IsInfinite reports whether d is DurationInfinite.
func (d Duration) IsInfinite() bool { return d == DurationInfinite }

// ParseDuration reads a Duration from the start of b in the byte order
// selected by be and returns the number of bytes consumed (8).
func ParseDuration(b []byte, be bool) (Duration, int, error) {
	if len(b) < DurationLen {
		return Duration{}, 0, errShortDuration
	}
	return Duration(timeAt(b, be)), DurationLen, nil
}

// Append appends the wire form of d to b in the byte order selected by be.
func (d Duration) Append(b []byte, be bool) []byte { return Time(d).Append(b, be) }

// Len returns the wire size of d (8).
func (d Duration) Len() int { return DurationLen }

// ProtocolVersion is the RTPS protocol version (RTPS 2.5 §8.2.4.2, §9.3.1):
// two octets, independent of endianness.
type ProtocolVersion struct {
	Major, Minor uint8
}

// Protocol versions.
var (
	ProtocolVersion21 = ProtocolVersion{2, 1} // sent by Cyclone DDS 0.10
	ProtocolVersion23 = ProtocolVersion{2, 3} // sent by Fast DDS 2.9
	ProtocolVersion25 = ProtocolVersion{2, 5} // the version this package implements and sends
)

// ParseProtocolVersion reads a ProtocolVersion from the start of b and
// returns the number of bytes consumed (2).
func ParseProtocolVersion(b []byte) (ProtocolVersion, int, error) {
	if len(b) < 2 {
		return ProtocolVersion{}, 0, errShortVersion
	}
	return ProtocolVersion{b[0], b[1]}, 2, nil
}

// Append appends the two octets of v to b.
func (v ProtocolVersion) Append(b []byte) []byte { return append(b, v.Major, v.Minor) }

// Len returns the wire size of v (2).
func (v ProtocolVersion) Len() int { return 2 }

// String formats v as "major.minor".
func (v ProtocolVersion) String() string {
	return strconv.Itoa(int(v.Major)) + "." + strconv.Itoa(int(v.Minor))
}

// VendorID identifies the implementation that sent a message (RTPS 2.5
// §8.2.4.2, §9.3.1.3): two octets, independent of endianness. The known
// values are in consts.go.
type VendorID [2]byte

// ParseVendorID reads a VendorID from the start of b and returns the number
// of bytes consumed (2).
func ParseVendorID(b []byte) (VendorID, int, error) {
	if len(b) < 2 {
		return VendorID{}, 0, errShortVendor
	}
	return VendorID{b[0], b[1]}, 2, nil
}

// Append appends the two octets of v to b.
func (v VendorID) Append(b []byte) []byte { return append(b, v[0], v[1]) }

// Len returns the wire size of v (2).
func (v VendorID) Len() int { return 2 }

// String formats v as "01.10".
func (v VendorID) String() string { return fmt.Sprintf("%02x.%02x", v[0], v[1]) }

// Count is an RTPS counter (RTPS 2.5 §9.3.2 Count_t) used to detect
// duplicate HEARTBEAT, ACKNACK and NACK_FRAG submessages. On the wire it is
// a signed 32-bit integer in the message byte order.
type Count int32

// ParseCount reads a Count from the start of b in the byte order selected by
// be and returns the number of bytes consumed (4).
func ParseCount(b []byte, be bool) (Count, int, error) {
	if len(b) < 4 {
		return 0, 0, errShortCount
	}
	return Count(int32(u32(b, be))), 4, nil
}

// Append appends the wire form of c to b in the byte order selected by be.
func (c Count) Append(b []byte, be bool) []byte { return appendU32(b, uint32(c), be) }

// Len returns the wire size of c (4).
func (c Count) Len() int { return 4 }
