package cdr

import "unsafe"

// rawLayout describes a struct whose CDR encoding in one XCDR version is a copy of its
// memory: fixed-size primitives (no bool) and nested such structs or arrays, each at the
// offset the CDR alignment rules give it when the struct starts at a multiple of align.
// size 0: the struct is not encoded this way.
type rawLayout struct {
	size  int // bytes of the encoding (the memory up to the end of the last primitive)
	first int // CDR alignment of the first primitive, the one the encoder pads to
	align int // largest CDR alignment of its primitives
	elems bool
}

// computeRaw fills t.raw and t.flat for both XCDR versions; t is a built struct.
func (t *typ) computeRaw() {
	for v, v2 := range []bool{false, true} {
		if t.inline(v2) {
			t.flat[v] = t.appendLeaves(nil, 0, v2)
		}
		w := rawWalk{v2: v2}
		if w.structAt(t, 0) && w.end > 0 {
			l := rawLayout{size: w.end, first: w.first, align: w.align}
			// Consecutive elements are consecutive encodings when the memory has no trailing
			// padding and each element starts aligned as the first.
			l.elems = uintptr(w.end) == t.rt.Size() && w.end%w.align == 0
			t.raw[v] = l
		}
	}
}

// leaf is a member of a struct whose encoding is that of its members in order, nested
// such structs replaced by their members: one call each instead of a descent per level.
type leaf struct {
	off uintptr
	t   *typ
}

// inline reports whether struct t is encoded (in XCDR2 when v2) as its members one after
// the other, with no header and no optional member.
func (t *typ) inline(v2 bool) bool {
	if t.kind != kStruct || t.ext == Mutable || (t.ext == Appendable && v2) {
		return false
	}
	for i := range t.fields {
		if t.fields[i].optional {
			return false
		}
	}
	return true
}

// appendLeaves appends the leaves of struct t at offset off.
func (t *typ) appendLeaves(ls []leaf, off uintptr, v2 bool) []leaf {
	for i := range t.fields {
		f := &t.fields[i]
		if f.t.inline(v2) && f.t.raw[b2i(v2)].size == 0 {
			ls = f.t.appendLeaves(ls, off+f.off, v2)
		} else {
			ls = append(ls, leaf{off + f.off, f.t})
		}
	}
	return ls
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// rawWalk follows the primitives of a struct in declaration order, checking that the CDR
// offset of each equals its memory offset.
type rawWalk struct {
	v2           bool
	end          int // CDR offset after the last primitive seen
	first, align int
}

func (w *rawWalk) structAt(t *typ, off uintptr) bool {
	if t.kind != kStruct || t.ext == Mutable || (t.ext == Appendable && w.v2) {
		return false
	}
	for i := range t.fields {
		f := &t.fields[i]
		if f.optional || !w.at(f.t, off+f.off) {
			return false
		}
	}
	return true
}

func (w *rawWalk) at(t *typ, off uintptr) bool {
	switch {
	case t.kind == kStruct:
		return w.structAt(t, off)
	case t.kind == kArray && (t.elem.primitive() || !w.v2): // XCDR2: a DHEADER otherwise
		sz := t.elem.rt.Size()
		for i := range t.n {
			if !w.at(t.elem, off+uintptr(i)*sz) {
				return false
			}
		}
		return true
	case !t.primitive() || t.kind == kBool:
		return false
	}
	a := t.size
	if w.v2 {
		a = min(a, 4)
	}
	if w.first == 0 {
		w.first = a
	}
	w.align = max(w.align, a)
	o := w.end + -w.end&(a-1)
	if uintptr(o) != off {
		return false
	}
	w.end = o + t.size
	return true
}

// encRaw writes n consecutive values of struct t at p as one copy of their memory when
// their layout allows it in e's version and byte order, and reports whether it did.
func (t *typ) encRaw(e *Encoder, p unsafe.Pointer, n int) bool {
	l := &t.raw[b2i(e.v2)]
	if l.size == 0 || (n > 1 && !l.elems) {
		return false
	}
	return e.AppendMemory(unsafe.Slice((*byte)(p), l.size*n), l.first, l.align, e.v2)
}

// decRaw reads n consecutive values of struct t into p as one copy of their encoding,
// when their layout allows it in d's version and byte order (encRaw's converse), and
// reports whether it did; not after an error, so that the member-by-member path reports
// it as before.
func (t *typ) decRaw(d *Decoder, p unsafe.Pointer, n int) bool {
	l := &t.raw[b2i(d.v2)]
	if l.size == 0 || (n > 1 && !l.elems) || d.be == hostLE || d.err != nil {
		return false
	}
	off := d.off + -(d.off-d.origin)&(l.first-1)
	if (off-d.origin)&(l.align-1) != 0 {
		return false
	}
	size := l.size * n
	if size > len(d.b)-off || off > len(d.b) {
		return false
	}
	copy(unsafe.Slice((*byte)(p), size), d.b[off:off+size])
	d.off = off + size
	return true
}

// AppendMemory appends b, the memory of values whose encoding in XCDR2 (v2) or XCDR1 is
// that memory when it starts at a multiple of align: fixed-size numbers in the host's
// byte order, each at the offset the CDR alignment rules give it. It first pads to first,
// the alignment of the first number, as encoding it would. It reports whether it
// appended: not when the stream is of the other version or byte order, nor when after the
// padding it is not at a multiple of align (the values must then be encoded one by one).
func (e *Encoder) AppendMemory(b []byte, first, align int, v2 bool) bool {
	if e.v2 != v2 || e.be == hostLE {
		return false
	}
	e.Align(first)
	if (len(e.buf)-e.origin)&(align-1) != 0 {
		return false
	}
	e.buf = append(e.buf, b...)
	return true
}
