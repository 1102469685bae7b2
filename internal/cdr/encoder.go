package cdr

import (
	"encoding/binary"
	"math"
)

var zeros [8]byte

// Encoder appends CDR-encoded values to a byte slice. The zero value is not ready for use:
// call Reset (payload with encapsulation header) or ResetBody (bare CDR stream) first. An
// Encoder is reused across samples to avoid allocation: Reset keeps the buffer's capacity.
//
// Encoding errors (a bounded string or sequence over its bound) are sticky: the first one
// is kept and returned by Err; later writes still append so that lengths stay consistent.
type Encoder struct {
	buf    []byte
	origin int // alignment origin: offset of the first byte after the encapsulation header
	// keyHolder: the key members are written for a key hash, as the KeyHolder type of
	// XTypes 1.3 §7.6.8, whose extensibility is FINAL: no DHEADER or member headers.
	keyHolder bool
	stream
}

// Reset starts a serialized payload with encapsulation id in buf[len(buf):]: it appends
// the 4-byte encapsulation header (id big-endian, options zero) and sets the alignment
// origin just after it. Finish completes the payload.
func (e *Encoder) Reset(buf []byte, id EncapsulationID) {
	buf = append(buf, byte(id>>8), byte(id), 0, 0)
	e.buf = buf
	e.origin = len(buf)
	e.keyHolder = false
	e.set(id)
}

// ResetBody starts a bare CDR stream (no encapsulation header) at buf[len(buf):] with the
// given byte order and XCDR version. Alignment is relative to len(buf).
func (e *Encoder) ResetBody(buf []byte, bigEndian, version2 bool) {
	e.buf, e.origin, e.keyHolder = buf, len(buf), false
	e.stream = stream{be: bigEndian, v2: version2, id: Encapsulation(Final, version2, bigEndian)}
}

// Bytes returns the buffer holding everything appended since (and before) Reset.
func (e *Encoder) Bytes() []byte { return e.buf }

// Len returns the number of bytes written since the alignment origin.
func (e *Encoder) Len() int { return len(e.buf) - e.origin }

// Finish pads the payload to a multiple of 4 bytes, as RTPS requires of a serialized
// payload, and records the number of padding bytes in the low two bits of the
// encapsulation options (XTypes 1.3 §7.6.3.1.2). It returns the whole buffer. Call it only
// after Reset, once.
func (e *Encoder) Finish() []byte {
	pad := -(len(e.buf) - e.origin) & 3
	e.buf = append(e.buf, zeros[:pad]...)
	if e.origin >= 4 {
		e.buf[e.origin-1] = byte(pad)
	}
	return e.buf
}

// Align pads the stream with zeros to a multiple of n (1, 2, 4 or 8) from the origin.
// In XCDR2 an alignment of 8 is reduced to 4.
func (e *Encoder) Align(n int) {
	if n > 4 && e.v2 {
		n = 4
	}
	pad := -(len(e.buf) - e.origin) & (n - 1)
	e.buf = append(e.buf, zeros[:pad]...)
}

// Bool appends a boolean as one octet, 0 or 1.
func (e *Encoder) Bool(v bool) {
	var b byte
	if v {
		b = 1
	}
	e.buf = append(e.buf, b)
}

// Uint8 appends an octet.
func (e *Encoder) Uint8(v uint8) { e.buf = append(e.buf, v) }

// Int8 appends a signed octet.
func (e *Encoder) Int8(v int8) { e.buf = append(e.buf, byte(v)) }

// Uint16 appends an aligned unsigned short.
func (e *Encoder) Uint16(v uint16) {
	e.Align(2)
	if e.be {
		e.buf = binary.BigEndian.AppendUint16(e.buf, v)
	} else {
		e.buf = binary.LittleEndian.AppendUint16(e.buf, v)
	}
}

// Int16 appends an aligned short.
func (e *Encoder) Int16(v int16) { e.Uint16(uint16(v)) }

// Uint32 appends an aligned unsigned long.
func (e *Encoder) Uint32(v uint32) {
	e.Align(4)
	if e.be {
		e.buf = binary.BigEndian.AppendUint32(e.buf, v)
	} else {
		e.buf = binary.LittleEndian.AppendUint32(e.buf, v)
	}
}

// Int32 appends an aligned long.
func (e *Encoder) Int32(v int32) { e.Uint32(uint32(v)) }

// Uint64 appends an aligned unsigned long long (aligned to 8 in XCDR1, 4 in XCDR2).
func (e *Encoder) Uint64(v uint64) {
	e.Align(8)
	if e.be {
		e.buf = binary.BigEndian.AppendUint64(e.buf, v)
	} else {
		e.buf = binary.LittleEndian.AppendUint64(e.buf, v)
	}
}

// Int64 appends an aligned long long.
func (e *Encoder) Int64(v int64) { e.Uint64(uint64(v)) }

// Float32 appends an aligned float.
func (e *Encoder) Float32(v float32) { e.Uint32(math.Float32bits(v)) }

// Float64 appends an aligned double.
func (e *Encoder) Float64(v float64) { e.Uint64(math.Float64bits(v)) }

// String appends a CDR string: an unsigned long length that counts the terminating NUL,
// the characters, and the NUL.
func (e *Encoder) String(s string) {
	e.Uint32(uint32(len(s) + 1))
	e.buf = append(e.buf, s...)
	e.buf = append(e.buf, 0)
}

// Octets appends raw bytes with no length and no alignment.
func (e *Encoder) Octets(b []byte) { e.buf = append(e.buf, b...) }

// OctetSeq appends a sequence<octet>: an unsigned long length and the bytes.
func (e *Encoder) OctetSeq(b []byte) {
	e.Uint32(uint32(len(b)))
	e.buf = append(e.buf, b...)
}

// SeqLen appends the length of a sequence.
func (e *Encoder) SeqLen(n int) { e.Uint32(uint32(n)) }

// BeginDHeader reserves an aligned 4-byte delimiter header (XCDR2 DHEADER) and returns its
// position for EndDHeader.
func (e *Encoder) BeginDHeader() int {
	e.Align(4)
	pos := len(e.buf)
	e.buf = append(e.buf, 0, 0, 0, 0)
	return pos
}

// EndDHeader writes into the header reserved at pos the number of bytes appended after it.
func (e *Encoder) EndDHeader(pos int) {
	e.putUint32(pos, uint32(len(e.buf)-pos-4))
}

// Length codes of an XCDR2 member header (EMHEADER1, XTypes 1.3 §7.4.3.4.8).
const (
	lc1      = 0 // 1-byte member, no NEXTINT
	lc2      = 1
	lc4      = 2
	lc8      = 3
	lcNext   = 4 // NEXTINT holds the member size
	lcNextB  = 5 // NEXTINT is the member's own length prefix, counted in bytes
	lcNext4  = 6 // ... counted in 4-byte elements
	lcNext8  = 7 // ... counted in 8-byte elements
	emMFlag  = 1 << 31
	emIDMask = 1<<28 - 1
)

// BeginMember starts a member of a mutable type with the given member id and returns a
// position for EndMember. In XCDR2 it writes an EMHEADER1 with length code 4 and a NEXTINT
// (the size is filled in by EndMember); in XCDR1 a parameter header, using the extended
// form for ids above 0x3eff. mustUnderstand sets the M flag (key members).
func (e *Encoder) BeginMember(id uint32, mustUnderstand bool) int {
	e.Align(4)
	pos := len(e.buf)
	if e.v2 {
		h := id&emIDMask | lcNext<<28
		if mustUnderstand {
			h |= emMFlag
		}
		e.Uint32(h)
		e.Uint32(0)
		return pos
	}
	if id < pidExtended {
		pid := uint16(id)
		if mustUnderstand {
			pid |= pidMustUnderstand
		}
		e.Uint16(pid)
		e.Uint16(0)
		return pos
	}
	e.Uint16(pidExtended | pidMustUnderstand)
	e.Uint16(8)
	e.Uint32(id)
	e.Uint32(0)
	return pos
}

// EndMember completes the member started at pos by writing its size.
func (e *Encoder) EndMember(pos int) {
	if e.v2 {
		e.putUint32(pos+4, uint32(len(e.buf)-pos-8))
		return
	}
	// XCDR1: the member is padded to 4 and its length includes the padding.
	pad := -(len(e.buf) - e.origin) & 3
	e.buf = append(e.buf, zeros[:pad]...)
	if e.getUint16(pos)&pidIDMask == pidExtended {
		e.putUint32(pos+8, uint32(len(e.buf)-pos-12))
		return
	}
	n := len(e.buf) - pos - 4
	if n > 0xffff {
		e.SetErr(errMemberTooLong)
	}
	e.putUint16(pos+2, uint16(n))
}

// EndMembers closes the member list of a mutable type: in XCDR1 the PID_LIST_END sentinel;
// in XCDR2 nothing (the DHEADER delimits the list).
func (e *Encoder) EndMembers() {
	if !e.v2 {
		e.Align(4)
		e.Uint16(pidListEnd | pidMustUnderstand)
		e.Uint16(0)
	}
}

func (e *Encoder) putUint32(pos int, v uint32) {
	if e.be {
		binary.BigEndian.PutUint32(e.buf[pos:], v)
	} else {
		binary.LittleEndian.PutUint32(e.buf[pos:], v)
	}
}

func (e *Encoder) putUint16(pos int, v uint16) {
	if e.be {
		binary.BigEndian.PutUint16(e.buf[pos:], v)
	} else {
		binary.LittleEndian.PutUint16(e.buf[pos:], v)
	}
}

func (e *Encoder) getUint16(pos int) uint16 {
	if e.be {
		return binary.BigEndian.Uint16(e.buf[pos:])
	}
	return binary.LittleEndian.Uint16(e.buf[pos:])
}
