package cdr

import (
	"fmt"
	"reflect"
	"time"
	"unsafe"
)

// sliceHeader is the runtime layout of a Go slice.
type sliceHeader struct {
	data unsafe.Pointer
	len  int
	cap  int
}

func (t *typ) enc(e *Encoder, p unsafe.Pointer) {
	switch t.kind {
	case kBool:
		e.Bool(*(*bool)(p))
	case kInt8, kUint8:
		e.Uint8(*(*uint8)(p))
	case kInt16, kUint16:
		e.Uint16(*(*uint16)(p))
	case kInt32, kUint32, kFloat32:
		e.Uint32(*(*uint32)(p))
	case kInt64, kUint64, kFloat64:
		e.Uint64(*(*uint64)(p))
	case kString:
		s := *(*string)(p)
		if t.bound > 0 && len(s) > t.bound {
			e.SetErr(fmt.Errorf("%w: string of %d characters, bound %d", ErrBound, len(s), t.bound))
		}
		e.String(s)
	case kSlice:
		t.encSlice(e, (*sliceHeader)(p))
	case kStruct:
		t.encStruct(e, p, false)
	default:
		t.encOther(e, p)
	}
}

// encOther writes the kinds enc leaves out of its fast switch.
func (t *typ) encOther(e *Encoder, p unsafe.Pointer) {
	switch t.kind {
	case kArray:
		pos := e.beginDelimited(t.delimitedElems(e.v2))
		t.elem.encElems(e, p, t.n)
		e.endDelimited(pos)
	case kUnion:
		t.encUnion(e, p)
	case kTime:
		encTime(e, *(*time.Time)(p))
	case kDuration:
		encDuration(e, *(*time.Duration)(p))
	default: // written by enc
	}
}

func (t *typ) encSlice(e *Encoder, h *sliceHeader) {
	if t.bound > 0 && h.len > t.bound {
		e.SetErr(fmt.Errorf("%w: sequence of %d elements, bound %d", ErrBound, h.len, t.bound))
	}
	pos := e.beginDelimited(t.delimitedElems(e.v2))
	e.SeqLen(h.len)
	t.elem.encElems(e, h.data, h.len)
	e.endDelimited(pos)
}

// delimitedElems reports whether an array or sequence t has a DHEADER: in XCDR2, when its
// elements are not primitive (XTypes 1.3 §7.4.3.5.3).
func (t *typ) delimitedElems(v2 bool) bool { return v2 && !t.elem.primitive() }

// encElems writes n consecutive elements of type t starting at p.
func (t *typ) encElems(e *Encoder, p unsafe.Pointer, n int) {
	if n == 0 {
		return
	}
	if t.rawElems(e.be) {
		e.Align(t.size)
		e.buf = append(e.buf, unsafe.Slice((*byte)(p), n*t.size)...)
		return
	}
	if t.kind == kStruct && t.encRaw(e, p, n) {
		return
	}
	sz := t.rt.Size()
	for i := range n {
		t.enc(e, unsafe.Add(p, uintptr(i)*sz))
	}
}

func (t *typ) encStruct(e *Encoder, p unsafe.Pointer, keyOnly bool) {
	if !keyOnly {
		if t.encRaw(e, p, 1) {
			return
		}
		if ls := t.flat[b2i(e.v2)]; ls != nil {
			for i := range ls {
				ls[i].t.enc(e, unsafe.Add(p, ls[i].off))
			}
			return
		}
	}
	idx := t.members(keyOnly)
	switch {
	case t.ext == Mutable && !e.keyHolder:
		pos := -1
		if e.v2 {
			pos = e.BeginDHeader()
		}
		for _, i := range idx {
			f := &t.fields[i]
			fp := unsafe.Add(p, f.off)
			if f.optional {
				if fp = *(*unsafe.Pointer)(fp); fp == nil {
					continue
				}
			}
			m := e.BeginMember(f.id, f.key)
			f.encValue(e, fp, keyOnly)
			e.EndMember(m)
		}
		e.EndMembers()
		if pos >= 0 {
			e.EndDHeader(pos)
		}
	case t.ext == Appendable && e.v2 && !keyOnly:
		pos := e.BeginDHeader()
		t.encFields(e, p, idx, false)
		e.EndDHeader(pos)
	default:
		t.encFields(e, p, idx, keyOnly)
	}
}

func (t *typ) encFields(e *Encoder, p unsafe.Pointer, idx []int, keyOnly bool) {
	for _, i := range idx {
		f := &t.fields[i]
		fp := unsafe.Add(p, f.off)
		switch {
		case f.optional:
			f.encOptional(e, *(*unsafe.Pointer)(fp))
		case keyOnly && f.t.kind == kStruct:
			f.t.encStruct(e, fp, true)
		default:
			f.t.enc(e, fp) // the common case, without a call to encValue
		}
	}
}

// encOptional writes the optional member f whose value is at fp, nil when absent.
func (f *field) encOptional(e *Encoder, fp unsafe.Pointer) {
	if e.v2 {
		e.Bool(fp != nil)
		if fp != nil {
			f.t.enc(e, fp)
		}
		return
	}
	// XCDR1 optional member: a parameter header, length 0 when absent.
	m := e.BeginMember(f.id, false)
	if fp != nil {
		f.t.enc(e, fp)
	}
	e.EndMember(m)
}

func (f *field) encValue(e *Encoder, p unsafe.Pointer, keyOnly bool) {
	if keyOnly && f.t.kind == kStruct {
		f.t.encStruct(e, p, true)
		return
	}
	f.t.enc(e, p)
}

func (t *typ) encUnion(e *Encoder, p unsafe.Pointer) {
	pos := e.beginDelimited(e.v2 && t.ext == Appendable)
	df := &t.fields[t.disc]
	df.t.enc(e, unsafe.Add(p, df.off))
	if c := t.unionCase(readInt(df.t, unsafe.Add(p, df.off))); c != nil {
		c.t.enc(e, unsafe.Add(p, c.off))
	}
	e.endDelimited(pos)
}

// unionCase returns the member selected by discriminator value v, or nil.
func (t *typ) unionCase(v int64) *field {
	var def *field
	for i := range t.fields {
		f := &t.fields[i]
		if i == t.disc {
			continue
		}
		for _, l := range f.labels {
			if l == v {
				return f
			}
		}
		if f.isDefault {
			def = f
		}
	}
	return def
}

func readInt(t *typ, p unsafe.Pointer) int64 {
	switch t.kind {
	case kBool:
		if *(*bool)(p) {
			return 1
		}
		return 0
	case kInt8:
		return int64(*(*int8)(p))
	case kUint8:
		return int64(*(*uint8)(p))
	case kInt16:
		return int64(*(*int16)(p))
	case kUint16:
		return int64(*(*uint16)(p))
	case kInt32:
		return int64(*(*int32)(p))
	case kUint32:
		return int64(*(*uint32)(p))
	case kInt64:
		return *(*int64)(p)
	case kUint64:
		return int64(*(*uint64)(p))
	default:
		return 0 // not a discriminator type: rejected when the plan is built
	}
}

func (t *typ) dec(d *Decoder, p unsafe.Pointer) {
	switch t.kind {
	case kBool:
		*(*bool)(p) = d.Uint8() != 0
	case kInt8, kUint8:
		*(*uint8)(p) = d.Uint8()
	case kInt16, kUint16:
		*(*uint16)(p) = d.Uint16()
	case kInt32, kUint32, kFloat32:
		*(*uint32)(p) = d.Uint32()
	case kInt64, kUint64, kFloat64:
		*(*uint64)(p) = d.Uint64()
	case kString:
		t.decString(d, (*string)(p))
	case kSlice:
		t.decSlice(d, (*sliceHeader)(p))
	case kStruct:
		t.decStruct(d, p, false)
	default:
		t.decOther(d, p)
	}
}

// decOther reads the kinds dec leaves out of its fast switch.
func (t *typ) decOther(d *Decoder, p unsafe.Pointer) {
	switch t.kind {
	case kArray:
		end := d.delimited(t.delimitedElems(d.v2))
		t.elem.decElems(d, p, t.n)
		d.endDelimited(end)
	case kUnion:
		t.decUnion(d, p)
	case kTime:
		*(*time.Time)(p) = decTime(d)
	case kDuration:
		*(*time.Duration)(p) = decDuration(d)
	default: // read by dec
	}
}

func (t *typ) decString(d *Decoder, sp *string) {
	b := d.StringBytes()
	if t.bound > 0 && len(b) > t.bound {
		d.fail(fmt.Errorf("%w: string of %d characters, bound %d", ErrBound, len(b), t.bound))
		return
	}
	if string(b) != *sp {
		*sp = string(b)
	}
}

func (t *typ) decSlice(d *Decoder, h *sliceHeader) {
	end := d.delimited(t.delimitedElems(d.v2))
	n := d.SeqLen(t.elem.minWire)
	if t.bound > 0 && n > t.bound {
		d.fail(fmt.Errorf("%w: sequence of %d elements, bound %d", ErrBound, n, t.bound))
		return
	}
	if d.err != nil {
		h.len = 0
		return
	}
	if h.cap < n {
		s := reflect.MakeSlice(t.rt, n, n)
		h.data = s.UnsafePointer()
		h.cap = n
	}
	h.len = n
	t.elem.decElems(d, h.data, n)
	d.endDelimited(end)
}

func (t *typ) decElems(d *Decoder, p unsafe.Pointer, n int) {
	if n == 0 {
		return
	}
	if t.rawElems(d.be) {
		src := d.take(t.size, n*t.size)
		if src != nil {
			copy(unsafe.Slice((*byte)(p), n*t.size), src)
		}
		return
	}
	if t.kind == kStruct && t.decRaw(d, p, n) {
		return
	}
	sz := t.rt.Size()
	for i := range n {
		t.dec(d, unsafe.Add(p, uintptr(i)*sz))
	}
}

func (t *typ) decStruct(d *Decoder, p unsafe.Pointer, keyOnly bool) {
	if !keyOnly && t.decRaw(d, p, 1) {
		return
	}
	idx := t.members(keyOnly)
	switch {
	case t.ext == Mutable:
		t.decMutable(d, p, keyOnly)
	case t.ext == Appendable && d.v2 && !keyOnly:
		end := d.DHeader()
		for n, i := range idx {
			if d.AtEnd(end) {
				// An older writer sent fewer members: the rest take their zero value.
				for _, j := range idx[n:] {
					t.fields[j].zero(p)
				}
				break
			}
			if f := &t.fields[i]; f.optional {
				f.decValue(d, unsafe.Add(p, f.off), false)
			} else {
				f.t.dec(d, unsafe.Add(p, f.off))
			}
		}
		d.SkipTo(end)
	default:
		for _, i := range idx {
			// The common case, neither optional nor key-only, calls dec without decValue
			// (which the compiler cannot inline: it is part of the recursion).
			if f := &t.fields[i]; f.optional || keyOnly {
				f.decValue(d, unsafe.Add(p, f.off), keyOnly)
			} else {
				f.t.dec(d, unsafe.Add(p, f.off))
			}
		}
	}
}

func (t *typ) decMutable(d *Decoder, p unsafe.Pointer, keyOnly bool) {
	end := len(d.b)
	if d.v2 {
		end = d.DHeader()
	}
	// Members not on the wire keep no stale value: optional ones become nil, others zero.
	for i := range t.fields {
		t.fields[i].zero(p)
	}
	hint := 0
	for {
		id, mu, mend, ok := d.Member(end)
		if !ok {
			break
		}
		f := t.member(id, hint)
		if f == nil {
			if mu {
				d.fail(fmt.Errorf("%w: unknown must-understand member id %d in %v", ErrMalformed, id, t.rt))
				return
			}
			d.SkipTo(mend)
			continue
		}
		hint = int(f.id) + 1
		if f.optional && !d.v2 && mend == d.off {
			continue // XCDR1 empty parameter: absent
		}
		fp := unsafe.Add(p, f.off)
		if f.optional {
			fp = f.alloc(fp)
		}
		if keyOnly && f.t.kind == kStruct {
			f.t.decStruct(d, fp, true)
		} else {
			f.t.dec(d, fp)
		}
		d.SkipTo(mend)
	}
	if d.v2 {
		d.SkipTo(end)
	}
}

// member finds the field with member id, trying position hint first.
func (t *typ) member(id uint32, hint int) *field {
	if hint < len(t.fields) && t.fields[hint].id == id {
		return &t.fields[hint]
	}
	for i := range t.fields {
		if t.fields[i].id == id {
			return &t.fields[i]
		}
	}
	return nil
}

func (f *field) decValue(d *Decoder, p unsafe.Pointer, keyOnly bool) {
	if !f.optional {
		if keyOnly && f.t.kind == kStruct {
			f.t.decStruct(d, p, true)
			return
		}
		f.t.dec(d, p)
		return
	}
	if d.v2 {
		if !d.Bool() {
			*(*unsafe.Pointer)(p) = nil
			return
		}
		f.t.dec(d, f.alloc(p))
		return
	}
	id, _, mend, ok := d.Member(len(d.b))
	if !ok || id != f.id {
		d.fail(fmt.Errorf("%w: optional member %s: bad parameter header", ErrMalformed, f.name))
		return
	}
	if mend == d.off {
		*(*unsafe.Pointer)(p) = nil
		return
	}
	f.t.dec(d, f.alloc(p))
	d.SkipTo(mend)
}

// alloc returns the value an optional member's pointer at p points to, allocating it
// when nil.
func (f *field) alloc(p unsafe.Pointer) unsafe.Pointer {
	pp := (*unsafe.Pointer)(p)
	if *pp == nil {
		*pp = reflect.New(f.t.rt).UnsafePointer()
	}
	return *pp
}

// zero sets the field in the struct at p to its zero value (nil for optional members).
func (f *field) zero(p unsafe.Pointer) {
	fp := unsafe.Add(p, f.off)
	if f.optional {
		*(*unsafe.Pointer)(fp) = nil
		return
	}
	reflect.NewAt(f.t.rt, fp).Elem().SetZero()
}

func (t *typ) decUnion(d *Decoder, p unsafe.Pointer) {
	end := d.delimited(d.v2 && t.ext == Appendable)
	df := &t.fields[t.disc]
	df.t.dec(d, unsafe.Add(p, df.off))
	c := t.unionCase(readInt(df.t, unsafe.Add(p, df.off)))
	for i := range t.fields {
		if f := &t.fields[i]; i != t.disc && f != c {
			f.zero(p)
		}
	}
	if c != nil {
		c.t.dec(d, unsafe.Add(p, c.off))
	}
	d.endDelimited(end)
}

// beginDelimited starts a delimited object when delimited is true: it reserves the DHEADER
// and returns its position for endDelimited; otherwise it returns -1.
func (e *Encoder) beginDelimited(delimited bool) int {
	if !delimited {
		return -1
	}
	return e.BeginDHeader()
}

// endDelimited completes what beginDelimited started at pos, if anything.
func (e *Encoder) endDelimited(pos int) {
	if pos >= 0 {
		e.EndDHeader(pos)
	}
}

// delimited reads a DHEADER when delimited is true and returns the end of the object, or
// -1 when there is none.
func (d *Decoder) delimited(delimited bool) int {
	if !delimited {
		return -1
	}
	return d.DHeader()
}

// endDelimited moves past the rest of the delimited object ending at end (skipping what a
// newer type version appended), if there is one.
func (d *Decoder) endDelimited(end int) {
	if end >= 0 {
		d.SkipTo(end)
	}
}
