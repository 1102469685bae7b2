package qos

import (
	"encoding/binary"
	"math"
	"strconv"
	"time"

	"github.com/ddsgo/ddsgo/internal/errs"
	"github.com/ddsgo/ddsgo/internal/qoswire"
)

// The byte-level helpers the policy table writes its wire encodings with: CDR
// primitives (RTPS 2.5 §9.3.2, §9.4.2.11) in the byte order of the ParameterList, aligned
// relative to the start of the parameter value. They know nothing of parameter headers
// or padding, which the ParameterList writer of the caller adds.

// encoder appends one parameter value.
type encoder struct {
	b     []byte
	be    bool
	start int // offset in b of the value, which alignment is relative to
}

func (e *encoder) order() binary.AppendByteOrder {
	if e.be {
		return binary.BigEndian
	}
	return binary.LittleEndian
}

func (e *encoder) u16(v uint16) { e.b = e.order().AppendUint16(e.b, v) }
func (e *encoder) u32(v uint32) { e.b = e.order().AppendUint32(e.b, v) }
func (e *encoder) i32(v int32)  { e.u32(uint32(v)) }

func (e *encoder) boolean(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

// align4 pads to a multiple of 4 from the start of the value.
func (e *encoder) align4() {
	for (len(e.b)-e.start)%4 != 0 {
		e.b = append(e.b, 0)
	}
}

// duration appends an RTPS Duration_t (seconds, 2^-32 s fraction); Infinite and every
// duration of 2^31-1 s or more are DURATION_INFINITE {0x7fffffff, 0xffffffff}. The
// fraction is rounded up, so that a peer that truncates it to nanoseconds (Fast DDS 2.9)
// reads the duration given, not one nanosecond less: equal durations then compare equal
// in its RxO checks (a LIVELINESS lease of 0.4 s on both sides did not match).
func (e *encoder) duration(d time.Duration) {
	if d >= math.MaxInt32*time.Second {
		e.u32(math.MaxInt32)
		e.u32(math.MaxUint32)
		return
	}
	sec, ns := int64(d/time.Second), int64(d%time.Second)
	if ns < 0 {
		sec--
		ns += int64(time.Second)
	}
	sec = max(sec, math.MinInt32)
	f := min((uint64(ns)<<32+1e9-1)/1e9, math.MaxUint32)
	e.i32(int32(sec))
	e.u32(uint32(f))
}

// octets appends a sequence<octet>.
func (e *encoder) octets(v []byte) {
	e.u32(uint32(len(v)))
	e.b = append(e.b, v...)
}

// strings appends a sequence<string>, each string aligned to 4.
func (e *encoder) strings(ss []string) {
	e.u32(uint32(len(ss)))
	for _, s := range ss {
		e.align4()
		e.u32(uint32(len(s) + 1))
		e.b = append(e.b, s...)
		e.b = append(e.b, 0)
	}
}

// decoder reads one parameter value. The first error sticks: later reads return zero
// values, so that a policy's decode function reads its fields without checking each.
type decoder struct {
	b   []byte
	be  bool
	off int
	id  PolicyID
	lim qoswire.Limits
	err error
}

func (d *decoder) order() binary.ByteOrder {
	if d.be {
		return binary.BigEndian
	}
	return binary.LittleEndian
}

// fail records the first error: code is errs.ErrBadParameter for a malformed value and
// errs.ErrOutOfResources for one beyond the limits.
func (d *decoder) fail(code error, reason string) {
	if d.err == nil {
		d.err = &PolicyError{Policy: d.id, Reason: reason, Err: code}
	}
}

func (d *decoder) rest() int { return len(d.b) - d.off }

// need reports whether n more octets are there, failing when they are not.
func (d *decoder) need(n int) bool {
	if d.err != nil {
		return false
	}
	if d.rest() < n {
		d.fail(errs.ErrBadParameter, "value truncated at octet "+strconv.Itoa(len(d.b)))
		return false
	}
	return true
}

// take returns the next n octets and moves past them, or nil, failing, when
// they are not there.
func (d *decoder) take(n int) []byte {
	if !d.need(n) {
		return nil
	}
	d.off += n
	return d.b[d.off-n : d.off]
}

func (d *decoder) u16() uint16 {
	if b := d.take(2); b != nil {
		return d.order().Uint16(b)
	}
	return 0
}

func (d *decoder) u32() uint32 {
	if b := d.take(4); b != nil {
		return d.order().Uint32(b)
	}
	return 0
}

func (d *decoder) i32() int32 { return int32(d.u32()) }

func (d *decoder) boolean() bool {
	b := d.take(1)
	return b != nil && b[0] != 0
}

// optBool reads a trailing boolean that peers may leave out: absent is false.
func (d *decoder) optBool() bool {
	if d.err != nil || d.rest() < 1 {
		return false
	}
	return d.boolean()
}

func (d *decoder) align4() { d.off = min(d.off+(4-d.off%4)%4, len(d.b)) }

// duration reads a Duration_t. Negative durations are invalid (Cyclone DDS also
// accepts DURATION_INVALID, which nobody sends); 2^31-1 s and more are Infinite, as
// encoder.duration writes them.
func (d *decoder) duration() time.Duration {
	sec, frac := d.i32(), d.u32()
	if d.err != nil {
		return 0
	}
	if sec < 0 {
		d.fail(errs.ErrBadParameter, "negative duration "+strconv.Itoa(int(sec))+"s")
		return 0
	}
	v := time.Duration(sec)*time.Second + time.Duration((uint64(frac)*1e9+1<<31)>>32)
	if sec == math.MaxInt32 || v >= math.MaxInt32*time.Second {
		return Infinite
	}
	return v
}

// kind reads a 32-bit enum value in [0, maxV].
func kind[T ~int32](d *decoder, maxV T) T {
	v := d.u32()
	if v > uint32(maxV) {
		d.fail(errs.ErrBadParameter, "kind "+strconv.FormatUint(uint64(v), 10)+" out of range 0.."+strconv.Itoa(int(maxV)))
		return 0
	}
	return T(v)
}

// count reads a sequence length whose elements take at least minElem octets each,
// checked against the rest of the value (so that a hostile count cannot make the caller
// allocate more than the input) and against limit (0: none).
func (d *decoder) count(minElem, limit int, what string) int {
	n := d.u32()
	if d.err != nil {
		return 0
	}
	if uint64(n)*uint64(minElem) > uint64(d.rest()) {
		d.fail(errs.ErrBadParameter, what+" count "+strconv.FormatUint(uint64(n), 10)+" beyond the value")
		return 0
	}
	d.limit(int(n), limit, what+" count")
	return int(n)
}

// limit fails with a *qoswire.LimitError when n exceeds limit (0: no limit).
func (d *decoder) limit(n, limit int, what string) {
	if limit > 0 && n > limit && d.err == nil {
		d.err = &qoswire.LimitError{Policy: d.id.String(), What: what, Got: n, Max: limit}
	}
}

// octets reads a sequence<octet> into a fresh slice; an empty one is nil.
func (d *decoder) octets() []byte {
	n := d.count(1, 0, "octet")
	d.limit(n, d.lim.MaxDataLen, "length")
	if d.err != nil || n == 0 {
		return nil
	}
	v := append([]byte(nil), d.b[d.off:d.off+n]...)
	d.off += n
	return v
}

// str reads a CDR string (length with the NUL, characters, NUL); a zero length is
// accepted as the empty string.
func (d *decoder) str() string {
	n := d.count(1, 0, "string length")
	if d.err != nil || n == 0 {
		return ""
	}
	s := d.b[d.off : d.off+n]
	if s[n-1] != 0 {
		d.fail(errs.ErrBadParameter, "string without terminating NUL")
		return ""
	}
	d.limit(n-1, d.lim.MaxStringLen, "string length")
	d.off += n
	return string(s[:n-1])
}

// strings reads a sequence<string>; an empty one is nil.
func (d *decoder) strings() []string {
	n := d.count(4, d.lim.MaxCount, "string")
	if d.err != nil || n == 0 {
		return nil
	}
	out := make([]string, 0, n)
	for range n {
		d.align4()
		out = append(out, d.str())
	}
	if d.err != nil {
		return nil
	}
	return out
}
