package cdr

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"unsafe"
)

// XCDR1 parameter-list ids (XTypes 1.3 §7.4.1.2.1).
const (
	pidExtended       = 0x3f01
	pidListEnd        = 0x3f02
	pidIDMask         = 0x3fff
	pidMustUnderstand = 0x4000
	pidImplExtension  = 0x8000
)

// Errors returned by Decoder and Encoder. Decoding errors wrap ErrMalformed.
var (
	// ErrMalformed is wrapped by every error about bytes that are not a valid encoding.
	ErrMalformed = errors.New("cdr: malformed data")
	// ErrBound reports a string or sequence longer than its declared bound.
	ErrBound = errors.New("cdr: bound exceeded")
	// ErrRange reports a value its IDL type cannot represent, such as a time.Time beyond
	// the int32 seconds of DDS Time_t.
	ErrRange = errors.New("cdr: value out of range")

	errShort         = fmt.Errorf("%w: unexpected end of data", ErrMalformed)
	errHeader        = fmt.Errorf("%w: short encapsulation header", ErrMalformed)
	errString        = fmt.Errorf("%w: string without terminating NUL", ErrMalformed)
	errSeqLen        = fmt.Errorf("%w: sequence length exceeds the data", ErrMalformed)
	errDelimiter     = fmt.Errorf("%w: delimiter beyond the data", ErrMalformed)
	errMemberHeader  = fmt.Errorf("%w: bad member header", ErrMalformed)
	errMemberTooLong = errors.New("cdr: XCDR1 member longer than 65535 bytes")
)

// Decoder reads CDR-encoded values from a byte slice. Errors are sticky: after the first
// one every read returns the zero value and Err reports it, so a decoding function reads
// all fields and checks Err once at the end. A Decoder never allocates except where a
// method says so, and never reads outside its input.
type Decoder struct {
	b      []byte
	off    int
	origin int
	stream
}

// Reset starts decoding a serialized payload that begins with its 4-byte encapsulation
// header. It reports an error for a short or unknown header.
func (d *Decoder) Reset(b []byte) error {
	*d = Decoder{b: b}
	if len(b) < 4 {
		d.err = errHeader
		return d.err
	}
	id := EncapsulationID(binary.BigEndian.Uint16(b))
	if !id.Valid() {
		d.err = fmt.Errorf("%w: unknown encapsulation %v", ErrMalformed, id)
		return d.err
	}
	d.off, d.origin = 4, 4
	d.set(id)
	// The options' low two bits count padding at the end; it is not part of the data.
	if pad := int(b[3] & 3); pad <= len(b)-4 {
		d.b = b[:len(b)-pad]
	}
	return nil
}

// ResetBody starts decoding a bare CDR stream (no encapsulation header) with the given
// byte order and XCDR version; alignment is relative to b[0].
func (d *Decoder) ResetBody(b []byte, bigEndian, version2 bool) {
	*d = Decoder{b: b, stream: stream{be: bigEndian, v2: version2, id: Encapsulation(Final, version2, bigEndian)}}
}

// Remaining returns the number of unread bytes.
func (d *Decoder) Remaining() int { return len(d.b) - d.off }

// Offset returns the read position relative to the alignment origin.
func (d *Decoder) Offset() int { return d.off - d.origin }

// Align skips padding to a multiple of n (1, 2, 4 or 8; 8 is 4 in XCDR2).
func (d *Decoder) Align(n int) {
	if n > 4 && d.v2 {
		n = 4
	}
	pad := -(d.off - d.origin) & (n - 1)
	if pad > len(d.b)-d.off {
		d.fail(errShort)
		return
	}
	d.off += pad
}

func (d *Decoder) fail(err error) {
	d.SetErr(err)
	d.off = len(d.b)
}

// take aligns to align and returns the next n bytes, or nil after an error.
func (d *Decoder) take(align, n int) []byte {
	if d.err != nil {
		return nil
	}
	if align > 1 {
		if align > 4 && d.v2 {
			align = 4
		}
		d.off += -(d.off - d.origin) & (align - 1)
	}
	if n > len(d.b)-d.off || d.off > len(d.b) {
		d.fail(errShort)
		return nil
	}
	p := d.b[d.off : d.off+n]
	d.off += n
	return p
}

// Bool reads a boolean octet; any non-zero value is true.
func (d *Decoder) Bool() bool { return d.Uint8() != 0 }

// Uint8 reads an octet.
func (d *Decoder) Uint8() uint8 {
	if p := d.take(1, 1); p != nil {
		return p[0]
	}
	return 0
}

// Int8 reads a signed octet.
func (d *Decoder) Int8() int8 { return int8(d.Uint8()) }

// Uint16 reads an aligned unsigned short.
func (d *Decoder) Uint16() uint16 {
	p := d.take(2, 2)
	if p == nil {
		return 0
	}
	if d.be {
		return binary.BigEndian.Uint16(p)
	}
	return binary.LittleEndian.Uint16(p)
}

// Int16 reads an aligned short.
func (d *Decoder) Int16() int16 { return int16(d.Uint16()) }

// Uint32 reads an aligned unsigned long.
func (d *Decoder) Uint32() uint32 {
	p := d.take(4, 4)
	if p == nil {
		return 0
	}
	if d.be {
		return binary.BigEndian.Uint32(p)
	}
	return binary.LittleEndian.Uint32(p)
}

// Int32 reads an aligned long.
func (d *Decoder) Int32() int32 { return int32(d.Uint32()) }

// Uint64 reads an aligned unsigned long long.
func (d *Decoder) Uint64() uint64 {
	p := d.take(8, 8)
	if p == nil {
		return 0
	}
	if d.be {
		return binary.BigEndian.Uint64(p)
	}
	return binary.LittleEndian.Uint64(p)
}

// Int64 reads an aligned long long.
func (d *Decoder) Int64() int64 { return int64(d.Uint64()) }

// Float32 reads an aligned float.
func (d *Decoder) Float32() float32 { return math.Float32frombits(d.Uint32()) }

// Float64 reads an aligned double.
func (d *Decoder) Float64() float64 { return math.Float64frombits(d.Uint64()) }

// StringBytes reads a CDR string and returns its characters without the NUL, aliasing the
// input.
func (d *Decoder) StringBytes() []byte {
	n := d.Uint32()
	if d.err != nil {
		return nil
	}
	if n == 0 {
		// Some writers encode the empty string as length 0; accept it.
		return []byte{}
	}
	p := d.take(1, int(min(n, uint32(math.MaxInt32))))
	if p == nil {
		return nil
	}
	if p[n-1] != 0 {
		d.fail(errString)
		return nil
	}
	return p[:n-1]
}

// String reads a CDR string. It allocates only when the result differs from old, so that
// decoding into a reused value whose strings did not change allocates nothing; pass "" to
// always get a fresh string.
func (d *Decoder) String(old string) string {
	p := d.StringBytes()
	if string(p) == old {
		return old
	}
	return string(p)
}

// Octets returns the next n raw bytes, aliasing the input.
func (d *Decoder) Octets(n int) []byte {
	if n < 0 {
		d.fail(errSeqLen)
		return nil
	}
	return d.take(1, n)
}

// OctetSeq reads a sequence<octet> into dst (reusing its capacity) and returns it.
func (d *Decoder) OctetSeq(dst []byte) []byte {
	n := d.SeqLen(1)
	p := d.take(1, n)
	if p == nil {
		return dst[:0]
	}
	return append(dst[:0], p...)
}

// SeqLen reads a sequence length and checks that n elements of at least minElemSize bytes
// each fit in the remaining data, so that a caller can allocate n elements safely: memory
// is bounded by the input size. minElemSize 0 is treated as 1.
func (d *Decoder) SeqLen(minElemSize int) int {
	n := d.Uint32()
	if d.err != nil {
		return 0
	}
	if minElemSize < 1 {
		minElemSize = 1
	}
	if uint64(n)*uint64(minElemSize) > uint64(len(d.b)-d.off) {
		d.fail(errSeqLen)
		return 0
	}
	return int(n)
}

// DHeader reads an XCDR2 delimiter header and returns the end offset of the delimited
// object (an argument for AtEnd and SkipTo).
func (d *Decoder) DHeader() int {
	n := d.Uint32()
	if d.err != nil {
		return d.off
	}
	if uint64(n) > uint64(len(d.b)-d.off) {
		d.fail(errDelimiter)
		return d.off
	}
	return d.off + int(n)
}

// AtEnd reports whether the read position has reached end (or an error occurred).
func (d *Decoder) AtEnd(end int) bool { return d.err != nil || d.off >= end }

// SkipTo moves the read position to end, skipping data a newer type version appended. It
// fails if the position is already past end.
func (d *Decoder) SkipTo(end int) {
	if d.err != nil {
		return
	}
	if d.off > end || end > len(d.b) {
		d.fail(errDelimiter)
		return
	}
	d.off = end
}

// Member reads the header of the next member of a mutable type within a list that ends at
// end (from DHeader in XCDR2; len of the data in XCDR1). It returns the member id, whether
// the must-understand flag is set, the offset where the member ends, and ok false at the
// end of the list or on error.
func (d *Decoder) Member(end int) (id uint32, mustUnderstand bool, memberEnd int, ok bool) {
	if d.err != nil {
		return 0, false, 0, false
	}
	if d.v2 {
		if d.off >= end {
			return 0, false, 0, false
		}
		h := d.Uint32()
		id = h & emIDMask
		mustUnderstand = h&emMFlag != 0
		var size uint64
		switch lc := h >> 28 & 7; lc {
		case lc1, lc2, lc4, lc8:
			size = 1 << lc
		case lcNext:
			size = uint64(d.Uint32())
		case lcNextB, lcNext4, lcNext8:
			// NEXTINT is also the first word of the member itself: do not consume it.
			p := d.take(4, 4)
			if p == nil {
				return 0, false, 0, false
			}
			d.off -= 4
			var n uint32
			if d.be {
				n = binary.BigEndian.Uint32(p)
			} else {
				n = binary.LittleEndian.Uint32(p)
			}
			size = 4 + uint64(n)<<[]uint{0, 2, 3}[lc-lcNextB]
		}
		if d.err != nil {
			return 0, false, 0, false
		}
		if size > uint64(end-d.off) {
			d.fail(errMemberHeader)
			return 0, false, 0, false
		}
		return id, mustUnderstand, d.off + int(size), true
	}
	d.Align(4)
	pid := d.Uint16()
	n := uint32(d.Uint16())
	if d.err != nil {
		return 0, false, 0, false
	}
	mustUnderstand = pid&pidMustUnderstand != 0
	switch pid & pidIDMask {
	case pidListEnd:
		return 0, false, 0, false
	case pidExtended:
		if n < 8 {
			d.fail(errMemberHeader)
			return 0, false, 0, false
		}
		id = d.Uint32()
		n = d.Uint32()
		if d.err != nil {
			return 0, false, 0, false
		}
	default:
		id = uint32(pid & pidIDMask)
	}
	if uint64(n) > uint64(min(end, len(d.b))-d.off) {
		d.fail(errMemberHeader)
		return 0, false, 0, false
	}
	return id, mustUnderstand, d.off + int(n), true
}

// hostLE reports whether this machine is little-endian (bulk copies of primitive arrays).
var hostLE = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()
