// Package cdr implements the Common Data Representation of DDS-XTypes 1.3 §7.4: XCDR1
// (CDR and PL_CDR) and XCDR2 (CDR2, D_CDR2 and PL_CDR2), in both byte orders, as Cyclone
// DDS and Fast DDS put it on the wire. It depends on the standard library only.
//
// # Payloads
//
// A serialized payload starts with a 4-byte encapsulation header: the EncapsulationID
// (big-endian) and two option bytes whose low two bits count the padding added at the end
// to make the payload a multiple of 4. Alignment is relative to the first byte after the
// header. In XCDR1 a primitive is aligned to its size; in XCDR2 8-byte primitives are
// aligned to 4 only.
//
// The encapsulation follows the type's extensibility: a final type is CDR (XCDR1) or CDR2
// (XCDR2), an appendable type D_CDR2 (a DHEADER, the byte count of the object, before it)
// or CDR in XCDR1, a mutable type PL_CDR2 (a DHEADER, then every member behind an EMHEADER
// with its member id and size) or PL_CDR (XCDR1 parameter headers ended by PID_LIST_END).
// Peers write final types in XCDR1 unless XCDR2 is negotiated, and appendable and mutable
// types in XCDR2 (Codec.DefaultEncapsulation).
//
// # Encoder and Decoder
//
// Encoder appends primitives, strings (length counting the NUL, the characters, the NUL),
// sequences and delimiters to a caller's buffer. Decoder reads them back with bounds
// checks; its errors are sticky, so a decoding function reads every member and checks Err
// once. Sequence lengths are checked against the remaining input before the caller
// allocates (Decoder.SeqLen), so memory is bounded by the input size. Both are reused
// across samples to avoid allocation.
//
// # Go types
//
// NewCodec compiles, once per type, a plan for a Go struct by reflection. The members are
// the exported fields in declaration order (docs/types.md has the full table and the
// reasons):
//
//	bool                         boolean
//	int8; uint8 (byte)           int8, char; uint8, octet, char
//	int16 ... uint64             short ... unsigned long long
//	named integer types          enums (int32 for the default 32-bit enum) or typedefs
//	float32, float64             float, double
//	string                       string (bound=N for string<N>)
//	[]T                          sequence<T> (bound=N for sequence<T, N>)
//	[N]T                         T[N] (nest arrays for more dimensions)
//	struct                       a nested struct, or a union with a disc field
//	*T (a struct field)          an optional member of type T
//	time.Time                    Time_t {int32 sec; uint32 nanosec}, a final struct
//	time.Duration                Duration_t {int32 sec; uint32 nanosec}, a final struct
//
// Struct tags configure members: `dds:"key"` (a key member), `dds:"id=N"` (member id for
// mutable types and XCDR1 optional members; otherwise one more than the previous id, from 0),
// `dds:"bound=N"`, `dds:"optional"` (implied by a pointer), `dds:"-"` (not serialized). A
// struct is a union when one field is tagged `dds:"disc"`: the other fields carry
// `dds:"case=1|2"` labels or `dds:"default"`, and only the selected one is serialized. A
// type is final unless it implements Extensible (a DDSExtensibility method).
//
// The zero time.Time is TIME_INVALID and time.Duration(math.MaxInt64) DURATION_INFINITE;
// a time or duration whose seconds do not fit in int32 fails to encode with ErrRange
// rather than being changed silently. Decoded times are in UTC.
//
// A type that cannot be mapped is an error from NewCodec that names the member path:
// int, uint, uintptr, complex numbers, maps, channels, functions, interfaces,
// unsafe.Pointer, a pointer other than an optional member, and a struct with no exported
// field (which would be sent empty). Recursive types are mapped when the recursion goes
// through a sequence or an optional member.
//
// Types may implement Marshaler and Unmarshaler themselves, for a reflection-free fast
// path that must produce the same bytes.
//
// # Keys
//
// Codec.EncodeKey writes only the key members (the payload of a DATA submessage carrying a
// serialized key, as in a dispose); Codec.KeyHash computes the 16-byte instance key hash of
// RTPS 2.5 §9.6.4.8: the key members in big-endian XCDR2, zero-padded when the key can
// never exceed 16 bytes, and the MD5 digest of those bytes otherwise (a string or sequence
// without bound in the key always means MD5). A nested struct used as a key contributes
// its own key members, or all of its members when it declares none.
//
// # Limitations
//
// Wide characters, long double, fixed, maps, bitsets and bitmasks have no Go mapping yet;
// bounds apply to a field's own string or sequence, not to strings inside a sequence;
// mutable unions are not supported; the key hash of a mutable type is computed from its
// key members without member headers.
package cdr
