package wire

import (
	"encoding/binary"
)

// Value codecs of the parameters that are not QoS policies. Every ParseX
// reads from the start of a parameter value in the byte order selected by be
// and returns the number of octets consumed; it accepts a value longer than
// it needs (later protocol versions may append fields) and never reads
// beyond b. Every Append writes the canonical form without the trailing
// padding, which ParamWriter adds.

// ParseUint32 reads a 32-bit integer value (PID_DOMAIN_ID,
// PID_BUILTIN_ENDPOINT_SET, PID_BUILTIN_ENDPOINT_QOS,
// PID_TYPE_MAX_SIZE_SERIALIZED, PID_PARTICIPANT_MANUAL_LIVELINESS_COUNT,
// Cyclone's PID_CYCLONE_RECEIVE_BUFFER_SIZE and PID_CYCLONE_ENTITY_FACTORY).
// Convert with int32() for signed ones.
func ParseUint32(b []byte, be bool) (uint32, int, error) {
	if len(b) < 4 {
		return 0, 0, errShortUint32
	}
	return u32(b, be), 4, nil
}

// ParseBool reads a CDR boolean (PID_EXPECTS_INLINE_QOS): any non-zero
// octet is true. It consumes 1 octet.
func ParseBool(b []byte) (bool, int, error) {
	if len(b) < 1 {
		return false, 0, errShortBool
	}
	return b[0] != 0, 1, nil
}

// AppendBool appends a CDR boolean, 0 or 1.
func AppendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// align4 returns n rounded up to a multiple of 4.
func align4(n int) int { return n + pad4(n) }

// parseStringBytes reads a CDR string at the start of b and returns its
// characters (aliasing b, without the NUL) and the octets consumed. A zero
// length (sent by some implementations for an empty string) is accepted.
func parseStringBytes(b []byte, be bool) ([]byte, int, error) {
	s, n, err := lengthPrefixed(b, be, errShortString)
	if err != nil || len(s) == 0 {
		return nil, n, err
	}
	if s[len(s)-1] != 0 {
		return nil, 0, errStringNUL
	}
	return s[:len(s)-1], n, nil
}

// ParseString reads a CDR string (PID_TOPIC_NAME, PID_TYPE_NAME,
// PID_ENTITY_NAME, PID_DOMAIN_TAG): a 32-bit length counting the terminating
// NUL, the characters and the NUL. It allocates the string.
func ParseString(b []byte, be bool) (string, int, error) {
	s, n, err := parseStringBytes(b, be)
	return string(s), n, err
}

// AppendString appends s as a CDR string (length, characters, NUL) without
// trailing padding.
func AppendString(b []byte, s string, be bool) []byte {
	b = appendU32(b, uint32(len(s)+1), be)
	b = append(b, s...)
	return append(b, 0)
}

// stringLen is the size of s as a CDR string without trailing padding.
func stringLen(s string) int { return 4 + len(s) + 1 }

// ParseOctetSeq reads a sequence<octet> (PID_USER_DATA, PID_TOPIC_DATA,
// PID_GROUP_DATA): a 32-bit count and the octets. The result aliases b.
func ParseOctetSeq(b []byte, be bool) ([]byte, int, error) { return lengthPrefixed(b, be, errShortSeq) }

// lengthPrefixed reads a 32-bit length and that many octets at the start of
// b and returns the octets (aliasing b) and the number consumed; short is
// the error when b ends early. CDR strings and octet sequences are framed
// so.
func lengthPrefixed(b []byte, be bool, short error) ([]byte, int, error) {
	if len(b) < 4 {
		return nil, 0, short
	}
	n := u32(b, be)
	if uint64(n) > uint64(len(b)-4) {
		return nil, 0, short
	}
	return b[4 : 4+n : 4+n], 4 + int(n), nil
}

// AppendOctetSeq appends v as a sequence<octet> without trailing padding.
func AppendOctetSeq(b []byte, v []byte, be bool) []byte {
	b = appendU32(b, uint32(len(v)), be)
	return append(b, v...)
}

// seqCount reads the count of a sequence whose elements take at least min
// octets each, checking it against the rest of b so that a hostile count
// cannot make the caller allocate more than the input size.
func seqCount(b []byte, be bool, minElem int) (int, error) {
	if len(b) < 4 {
		return 0, errShortSeq
	}
	n := u32(b, be)
	if uint64(n)*uint64(minElem) > uint64(len(b)-4) {
		return 0, errShortSeq
	}
	return int(n), nil
}

// newSeq reads the count of a sequence at the start of b, as seqCount does,
// and returns it with an empty slice of that capacity for the elements (nil
// for none).
func newSeq[T any](b []byte, be bool, minElem int) ([]T, int, error) {
	n, err := seqCount(b, be, minElem)
	if err != nil || n == 0 {
		return nil, n, err
	}
	return make([]T, 0, n), n, nil
}

// alignedAt aligns off to 4 and reads a value there with parse; it returns
// the value and the (unaligned) offset just after it. Padding that runs past
// b is the error short.
func alignedAt[T any](b []byte, off int, be bool, parse func([]byte, bool) (T, int, error), short error) (T, int, error) {
	var zero T
	off = align4(off)
	if off > len(b) {
		return zero, 0, short
	}
	v, m, err := parse(b[off:], be)
	if err != nil {
		return zero, 0, err
	}
	return v, off + m, nil
}

// alignedStringAt is alignedAt for a CDR string; padding that runs past b
// is errShortString.
func alignedStringAt(b []byte, off int, be bool) (string, int, error) {
	return alignedAt(b, off, be, ParseString, errShortString)
}

// parseStringSeq reads a sequence<string>.
func parseStringSeq(b []byte, be bool) ([]string, int, error) {
	out, n, err := newSeq[string](b, be, 4)
	if err != nil {
		return nil, 0, err
	}
	off := 4
	for range n {
		var s string
		if s, off, err = alignedStringAt(b, off, be); err != nil {
			return nil, 0, err
		}
		out = append(out, s)
	}
	return out, off, nil
}

// appendStringSeq appends a sequence<string>; start is the offset in b of
// the value, which alignment is relative to.
func appendStringSeq(b []byte, start int, ss []string, be bool) []byte {
	b = appendU32(b, uint32(len(ss)), be)
	for _, s := range ss {
		b = appendAlignedString(b, start, s, be)
	}
	return b
}

// alignFrom pads b with zero octets to a multiple of 4 counted from offset
// start, the beginning of the value that alignment is relative to.
func alignFrom(b []byte, start int) []byte { return append(b, zeros[:pad4(len(b)-start)]...) }

// appendAlignedString, the inverse of alignedStringAt, aligns b from start
// and appends s as a CDR string.
func appendAlignedString(b []byte, start int, s string, be bool) []byte {
	return AppendString(alignFrom(b, start), s, be)
}

// stringSeqLen is the size of a sequence<string> that starts at offset off
// of a value, without trailing padding.
func stringSeqLen(off int, ss []string) int {
	n := off + 4
	for _, s := range ss {
		n = align4(n) + stringLen(s)
	}
	return n - off
}

// KeyHash is the 16-octet instance key hash of PID_KEY_HASH (RTPS 2.5
// §9.6.4.8), independent of endianness.
type KeyHash [16]byte

// ParseKeyHash reads a KeyHash.
func ParseKeyHash(b []byte) (KeyHash, int, error) {
	var h KeyHash
	if len(b) < 16 {
		return h, 0, errShortKeyHash
	}
	copy(h[:], b)
	return h, 16, nil
}

// PID returns PIDKeyHash.
func (h KeyHash) PID() ParameterID { return PIDKeyHash }

// Append appends the 16 octets of h; be is ignored.
func (h KeyHash) Append(b []byte, _ bool) []byte { return append(b, h[:]...) }

// Len returns 16.
func (h KeyHash) Len() int { return 16 }

// StatusInfo is the value of PID_STATUS_INFO (RTPS 2.5 §9.6.4.9): four
// octets always in big-endian order whatever the list's byte order, of which
// the last holds the flags.
type StatusInfo uint32

// StatusInfo flags.
const (
	StatusInfoDisposed     StatusInfo = 1 << 0
	StatusInfoUnregistered StatusInfo = 1 << 1
	StatusInfoFiltered     StatusInfo = 1 << 2
)

// ParseStatusInfo reads a StatusInfo (big-endian).
func ParseStatusInfo(b []byte) (StatusInfo, int, error) {
	if len(b) < 4 {
		return 0, 0, errShortStatusInfo
	}
	return StatusInfo(binary.BigEndian.Uint32(b)), 4, nil
}

// PID returns PIDStatusInfo.
func (s StatusInfo) PID() ParameterID { return PIDStatusInfo }

// Append appends s big-endian; be is ignored.
func (s StatusInfo) Append(b []byte, _ bool) []byte {
	return binary.BigEndian.AppendUint32(b, uint32(s))
}

// Len returns 4.
func (s StatusInfo) Len() int { return 4 }

// Property is a name/value pair of PID_PROPERTY_LIST (DDS-Security 1.1
// §7.2.1 Property_t; the propagate field is not serialized).
type Property struct {
	Name, Value string
}

// BinaryProperty is a name/octets pair of PID_PROPERTY_LIST (DDS-Security
// 1.1 §7.2.2 BinaryProperty_t).
type BinaryProperty struct {
	Name  string
	Value []byte
}

// PropertyList is the value of PID_PROPERTY_LIST: a sequence of Property
// and, optionally, a sequence of BinaryProperty (Cyclone DDS sends it empty,
// older implementations omit it). Append writes the binary sequence when
// Binary is non-empty or HasBinary is set.
type PropertyList struct {
	Properties []Property
	Binary     []BinaryProperty
	// HasBinary records that the binary sequence was present on the wire.
	HasBinary bool
}

// ParsePropertyList reads a PropertyList. It allocates the strings.
func ParsePropertyList(b []byte, be bool) (PropertyList, int, error) {
	var pl PropertyList
	props, n, err := newSeq[Property](b, be, 8)
	if err != nil {
		return pl, 0, err
	}
	off := 4
	for range n {
		var p Property
		if p.Name, off, err = alignedStringAt(b, off, be); err != nil {
			return pl, 0, err
		}
		if p.Value, off, err = alignedStringAt(b, off, be); err != nil {
			return pl, 0, err
		}
		props = append(props, p)
	}
	pl.Properties = props
	off = min(align4(off), len(b)) // the last string may end the value unpadded
	if len(b)-off < 4 {
		return pl, off, nil
	}
	pl.HasBinary = true
	if pl.Binary, n, err = newSeq[BinaryProperty](b[off:], be, 8); err != nil {
		return pl, 0, err
	}
	off += 4
	for range n {
		var p BinaryProperty
		if p.Name, off, err = alignedStringAt(b, off, be); err != nil {
			return pl, 0, err
		}
		var v []byte
		if v, off, err = alignedAt(b, off, be, ParseOctetSeq, errShortSeq); err != nil {
			return pl, 0, err
		}
		p.Value = append([]byte(nil), v...)
		pl.Binary = append(pl.Binary, p)
	}
	return pl, off, nil
}

// PID returns PIDPropertyList.
func (pl PropertyList) PID() ParameterID { return PIDPropertyList }

// Append appends pl without trailing padding.
func (pl PropertyList) Append(b []byte, be bool) []byte {
	start := len(b)
	b = appendU32(b, uint32(len(pl.Properties)), be)
	for _, p := range pl.Properties {
		b = appendAlignedString(b, start, p.Name, be)
		b = appendAlignedString(b, start, p.Value, be)
	}
	if len(pl.Binary) == 0 && !pl.HasBinary {
		return b
	}
	b = appendU32(alignFrom(b, start), uint32(len(pl.Binary)), be)
	for _, p := range pl.Binary {
		b = appendAlignedString(b, start, p.Name, be)
		b = AppendOctetSeq(alignFrom(b, start), p.Value, be)
	}
	return b
}

// Len returns the size of pl without trailing padding.
func (pl PropertyList) Len() int {
	n := 4
	for _, p := range pl.Properties {
		n = align4(n) + stringLen(p.Name)
		n = align4(n) + stringLen(p.Value)
	}
	if len(pl.Binary) == 0 && !pl.HasBinary {
		return n
	}
	n = align4(n) + 4
	for _, p := range pl.Binary {
		n = align4(n) + stringLen(p.Name)
		n = align4(n) + 4 + len(p.Value)
	}
	return n
}

// Get returns the value of the first property called name.
func (pl PropertyList) Get(name string) (string, bool) {
	for _, p := range pl.Properties {
		if p.Name == name {
			return p.Value, true
		}
	}
	return "", false
}

// ContentFilterProperty is the value of PID_CONTENT_FILTER_PROPERTY (RTPS
// 2.5 §9.6.3.1 ContentFilterProperty_t), sent in SEDP by readers of a
// content-filtered topic.
type ContentFilterProperty struct {
	ContentFilteredTopicName string
	RelatedTopicName         string
	FilterClassName          string
	FilterExpression         string
	ExpressionParameters     []string
}

// ParseContentFilterProperty reads a ContentFilterProperty.
func ParseContentFilterProperty(b []byte, be bool) (ContentFilterProperty, int, error) {
	var c ContentFilterProperty
	off := 0
	for _, dst := range []*string{&c.ContentFilteredTopicName, &c.RelatedTopicName, &c.FilterClassName, &c.FilterExpression} {
		var err error
		if *dst, off, err = alignedStringAt(b, off, be); err != nil {
			return c, 0, err
		}
	}
	ps, off, err := alignedAt(b, off, be, parseStringSeq, errShortSeq)
	if err != nil {
		return c, 0, err
	}
	c.ExpressionParameters = ps
	return c, off, nil
}

// PID returns PIDContentFilterProperty.
func (c ContentFilterProperty) PID() ParameterID { return PIDContentFilterProperty }

// Append appends c without trailing padding.
func (c ContentFilterProperty) Append(b []byte, be bool) []byte {
	start := len(b)
	for _, s := range []string{c.ContentFilteredTopicName, c.RelatedTopicName, c.FilterClassName, c.FilterExpression} {
		b = appendAlignedString(b, start, s, be)
	}
	return appendStringSeq(alignFrom(b, start), start, c.ExpressionParameters, be)
}

// Len returns the size of c without trailing padding.
func (c ContentFilterProperty) Len() int {
	n := 0
	for _, s := range []string{c.ContentFilteredTopicName, c.RelatedTopicName, c.FilterClassName, c.FilterExpression} {
		n = align4(n) + stringLen(s)
	}
	n = align4(n)
	return n + stringSeqLen(n, c.ExpressionParameters)
}

// ContentFilterInfo is the inline QoS PID_CONTENT_FILTER_INFO (RTPS 2.5
// §9.6.3.1 ContentFilterInfo_t): for each filter signature, whether the
// sample passed (bit i of FilterResult).
type ContentFilterInfo struct {
	FilterResult     []uint32
	FilterSignatures [][4]uint32
}

// ParseContentFilterInfo reads a ContentFilterInfo.
func ParseContentFilterInfo(b []byte, be bool) (ContentFilterInfo, int, error) {
	var c ContentFilterInfo
	res, n, err := newSeq[uint32](b, be, 4)
	if err != nil {
		return c, 0, errShortFilterInfo
	}
	off := 4
	for range n {
		res = append(res, u32(b[off:], be))
		off += 4
	}
	c.FilterResult = res
	sigs, m, err := newSeq[[4]uint32](b[off:], be, 16)
	if err != nil {
		return c, 0, errShortFilterInfo
	}
	off += 4
	for range m {
		var s [4]uint32
		for j := range s {
			s[j] = u32(b[off:], be)
			off += 4
		}
		sigs = append(sigs, s)
	}
	c.FilterSignatures = sigs
	return c, off, nil
}

// PID returns PIDContentFilterInfo.
func (c ContentFilterInfo) PID() ParameterID { return PIDContentFilterInfo }

// Append appends c.
func (c ContentFilterInfo) Append(b []byte, be bool) []byte {
	b = appendU32(b, uint32(len(c.FilterResult)), be)
	for _, v := range c.FilterResult {
		b = appendU32(b, v, be)
	}
	b = appendU32(b, uint32(len(c.FilterSignatures)), be)
	for _, s := range c.FilterSignatures {
		for _, v := range s {
			b = appendU32(b, v, be)
		}
	}
	return b
}

// Len returns the size of c.
func (c ContentFilterInfo) Len() int { return 8 + 4*len(c.FilterResult) + 16*len(c.FilterSignatures) }

// OriginalWriterInfo is the inline QoS PID_ORIGINAL_WRITER_INFO (RTPS 2.5
// §9.6.3.1 OriginalWriterInfo_t), sent by relays such as persistence
// services. WriterQoS is the original writer's inline QoS ParameterList,
// sentinel included, aliasing the input.
type OriginalWriterInfo struct {
	WriterGUID GUID
	WriterSN   SequenceNumber
	WriterQoS  []byte
}

// ParseOriginalWriterInfo reads an OriginalWriterInfo; the ParameterList
// that ends it is delimited by its sentinel and not otherwise interpreted.
func ParseOriginalWriterInfo(b []byte, be bool) (OriginalWriterInfo, int, error) {
	var o OriginalWriterInfo
	if len(b) < 24 {
		return o, 0, errShortOWI
	}
	o.WriterGUID, _, _ = ParseGUID(b)
	o.WriterSN = snFrom(b[16:], be)
	qos, n, err := inlineQoSAt(b, 24, be)
	if err != nil {
		return o, 0, err
	}
	o.WriterQoS = qos
	return o, n, nil
}

// PID returns PIDOriginalWriterInfo.
func (o OriginalWriterInfo) PID() ParameterID { return PIDOriginalWriterInfo }

// Append appends o; an empty WriterQoS is written as a lone sentinel.
func (o OriginalWriterInfo) Append(b []byte, be bool) []byte {
	b = o.WriterGUID.Append(b)
	b = o.WriterSN.Append(b, be)
	if len(o.WriterQoS) == 0 {
		b = appendU16(b, uint16(PIDSentinel), be)
		return append(b, 0, 0)
	}
	return append(b, o.WriterQoS...)
}

// Len returns the size of o.
func (o OriginalWriterInfo) Len() int { return 24 + max(len(o.WriterQoS), 4) }

// SampleIdentity names one sample: the writer's GUID and the sequence
// number (DDS-RPC 1.0 §7.5.1.1). It is the value of
// PID_RELATED_SAMPLE_IDENTITY and of Fast DDS's
// PID_FASTDDS_CUSTOM_RELATED_SAMPLE_IDENTITY (0x800f), which Fast DDS puts in
// the inline QoS of its SPDP and SEDP disposals.
type SampleIdentity struct {
	WriterGUID GUID
	SN         SequenceNumber
}

// ParseSampleIdentity reads a SampleIdentity.
func ParseSampleIdentity(b []byte, be bool) (SampleIdentity, int, error) {
	if len(b) < 24 {
		return SampleIdentity{}, 0, errShortSampleID
	}
	g, _, _ := ParseGUID(b)
	return SampleIdentity{WriterGUID: g, SN: snFrom(b[16:], be)}, 24, nil
}

// Append appends s.
func (s SampleIdentity) Append(b []byte, be bool) []byte {
	b = s.WriterGUID.Append(b)
	return s.SN.Append(b, be)
}

// Len returns 24.
func (s SampleIdentity) Len() int { return 24 }

// CycloneParticipantVersionInfo is the value of Cyclone DDS's
// PID_CYCLONE_PARTICIPANT_VERSION_INFO (0x8007 from vendor 01.10): a
// version, flags, three unused words and a free-form string such as
// "host/0.10.2/Linux/Linux".
type CycloneParticipantVersionInfo struct {
	Version   uint32
	Flags     uint32
	Unused    [3]uint32
	Internals string
}

// ParseCycloneParticipantVersionInfo reads a CycloneParticipantVersionInfo.
func ParseCycloneParticipantVersionInfo(b []byte, be bool) (CycloneParticipantVersionInfo, int, error) {
	var v CycloneParticipantVersionInfo
	if len(b) < 20 {
		return v, 0, errShortUint32
	}
	v.Version, v.Flags = u32(b, be), u32(b[4:], be)
	for i := range v.Unused {
		v.Unused[i] = u32(b[8+4*i:], be)
	}
	s, n, err := ParseString(b[20:], be)
	if err != nil {
		return v, 0, err
	}
	v.Internals = s
	return v, 20 + n, nil
}

// Append appends v without trailing padding.
func (v CycloneParticipantVersionInfo) Append(b []byte, be bool) []byte {
	b = appendU32(b, v.Version, be)
	b = appendU32(b, v.Flags, be)
	for _, u := range v.Unused {
		b = appendU32(b, u, be)
	}
	return AppendString(b, v.Internals, be)
}

// Len returns the size of v without trailing padding.
func (v CycloneParticipantVersionInfo) Len() int { return 20 + stringLen(v.Internals) }
