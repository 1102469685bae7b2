package ecm

import (
	"reflect"
	"unsafe"

	"github.com/ddsgo/ddsgo/internal/cdr"
)

// The default codec serializes plain types by reflection: booleans, integers, floats,
// strings, and arrays, slices and structs of them (struct fields must all be exported).
// Other types (maps, pointers, interfaces, functions, channels, unexported fields) have
// no default codec. Encoding is CDR: each value aligned to its size, a slice as a uint32
// length and its elements, an array as its elements, a struct as its fields in order.

type encFn func(e *cdr.Encoder, v reflect.Value)

type decFn func(d *cdr.Decoder, v reflect.Value)

// defaultCodec returns the reflection codec of T if T is a plain type.
func defaultCodec[T any]() (func(*cdr.Encoder, *T), func(*cdr.Decoder, *T), bool) {
	enc, dec, _, ok := plan(reflect.TypeFor[T](), 0)
	if !ok {
		return nil, nil, false
	}
	encode := func(e *cdr.Encoder, v *T) { enc(e, reflect.ValueOf(v).Elem()) }
	if l := (memLayout{}); l.at(reflect.TypeFor[T](), 0) {
		// One copy instead of a reflective call per number (the state of 10,000 moving
		// poses is 70,000 doubles a step).
		slow := encode
		encode = func(e *cdr.Encoder, v *T) {
			if !e.AppendMemory(unsafe.Slice((*byte)(unsafe.Pointer(v)), l.end), l.first, l.align, false) {
				slow(e, v)
			}
		}
	}
	return encode, func(d *cdr.Decoder, v *T) { dec(d, reflect.ValueOf(v).Elem()) }, true
}

// memLayout is the layout of a type whose encoding (XCDR1) is its memory up to end when
// it starts at a multiple of align: fixed-size numbers other than int, uint and uintptr,
// and arrays and structs of them, each at a multiple of its size. first is the size of
// the first number.
type memLayout struct{ end, first, align int }

// at adds the numbers of a value of type t at offset off, reporting false when they are
// not at the offsets the encoding would give them.
func (l *memLayout) at(t reflect.Type, off uintptr) bool {
	switch t.Kind() {
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		n := int(t.Size())
		if l.first == 0 {
			l.first = n
		}
		l.align = max(l.align, n)
		l.end += -l.end & (n - 1)
		ok := uintptr(l.end) == off
		l.end += n
		return ok
	case reflect.Array:
		for i := range t.Len() {
			if !l.at(t.Elem(), off+uintptr(i)*t.Elem().Size()) {
				return false
			}
		}
		return t.Len() > 0
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); !l.at(f.Type, off+f.Offset) {
				return false
			}
		}
		return t.NumField() > 0
	default:
		return false
	}
}

// scalarCodec is the codec of a kind of plain scalar value and the size of its encoding.
type scalarCodec struct {
	enc  encFn
	dec  decFn
	size int
}

// intCodec, uintCodec and floatCodec are the codecs of the signed, unsigned and
// floating-point kinds encoded with put and decoded with get as a T.
func intCodec[T int8 | int16 | int32 | int64](put func(*cdr.Encoder, T), get func(*cdr.Decoder) T) scalarCodec {
	return scalarCodec{
		func(e *cdr.Encoder, v reflect.Value) { put(e, T(v.Int())) },
		func(d *cdr.Decoder, v reflect.Value) { v.SetInt(int64(get(d))) }, sizeOf[T](),
	}
}

func uintCodec[T uint8 | uint16 | uint32 | uint64](put func(*cdr.Encoder, T), get func(*cdr.Decoder) T) scalarCodec {
	return scalarCodec{
		func(e *cdr.Encoder, v reflect.Value) { put(e, T(v.Uint())) },
		func(d *cdr.Decoder, v reflect.Value) { v.SetUint(uint64(get(d))) }, sizeOf[T](),
	}
}

func floatCodec[T float32 | float64](put func(*cdr.Encoder, T), get func(*cdr.Decoder) T) scalarCodec {
	return scalarCodec{
		func(e *cdr.Encoder, v reflect.Value) { put(e, T(v.Float())) },
		func(d *cdr.Decoder, v reflect.Value) { v.SetFloat(float64(get(d))) }, sizeOf[T](),
	}
}

// sizeOf is the size of T's CDR encoding, that of its Go value for a number.
func sizeOf[T any]() int { return int(reflect.TypeFor[T]().Size()) }

var (
	int64Codec  = intCodec((*cdr.Encoder).Int64, (*cdr.Decoder).Int64)
	uint64Codec = uintCodec((*cdr.Encoder).Uint64, (*cdr.Decoder).Uint64)

	// scalarCodecs are the codecs of the scalar kinds that have one.
	scalarCodecs = map[reflect.Kind]scalarCodec{
		reflect.Bool: {
			func(e *cdr.Encoder, v reflect.Value) { e.Bool(v.Bool()) },
			func(d *cdr.Decoder, v reflect.Value) { v.SetBool(d.Bool()) }, 1,
		},
		reflect.Int8:    intCodec((*cdr.Encoder).Int8, (*cdr.Decoder).Int8),
		reflect.Uint8:   uintCodec((*cdr.Encoder).Uint8, (*cdr.Decoder).Uint8),
		reflect.Int16:   intCodec((*cdr.Encoder).Int16, (*cdr.Decoder).Int16),
		reflect.Uint16:  uintCodec((*cdr.Encoder).Uint16, (*cdr.Decoder).Uint16),
		reflect.Int32:   intCodec((*cdr.Encoder).Int32, (*cdr.Decoder).Int32),
		reflect.Uint32:  uintCodec((*cdr.Encoder).Uint32, (*cdr.Decoder).Uint32),
		reflect.Int:     int64Codec,
		reflect.Int64:   int64Codec,
		reflect.Uint:    uint64Codec,
		reflect.Uint64:  uint64Codec,
		reflect.Uintptr: uint64Codec,
		reflect.Float32: floatCodec((*cdr.Encoder).Float32, (*cdr.Decoder).Float32),
		reflect.Float64: floatCodec((*cdr.Encoder).Float64, (*cdr.Decoder).Float64),
		reflect.String: {
			func(e *cdr.Encoder, v reflect.Value) { e.String(v.String()) },
			func(d *cdr.Decoder, v reflect.Value) { v.SetString(d.String(v.String())) }, 4,
		},
	}
)

// plan compiles the codec of t; minSize is the smallest encoding of a value (for bounds
// on sequence lengths).
func plan(t reflect.Type, depth int) (enc encFn, dec decFn, minSize int, ok bool) {
	if depth > 32 {
		return nil, nil, 0, false
	}
	if c, found := scalarCodecs[t.Kind()]; found {
		return c.enc, c.dec, c.size, true
	}
	switch t.Kind() {
	case reflect.Array:
		return planArray(t, depth)
	case reflect.Slice:
		return planSlice(t, depth)
	case reflect.Struct:
		return planStruct(t, depth)
	default: // maps, pointers, interfaces, functions, channels, complex numbers
		return nil, nil, 0, false
	}
}

// planArray compiles the codec of the array type t: its elements.
func planArray(t reflect.Type, depth int) (encFn, decFn, int, bool) {
	ee, de, size, ok := plan(t.Elem(), depth+1)
	if !ok {
		return nil, nil, 0, false
	}
	n := t.Len()
	return func(e *cdr.Encoder, v reflect.Value) {
			for i := range n {
				ee(e, v.Index(i))
			}
		}, func(d *cdr.Decoder, v reflect.Value) {
			for i := range n {
				de(d, v.Index(i))
			}
		}, size * n, true
}

// planSlice compiles the codec of the slice type t: a length and its elements, or
// an octet sequence for []byte.
func planSlice(t reflect.Type, depth int) (encFn, decFn, int, bool) {
	ee, de, size, ok := plan(t.Elem(), depth+1)
	if !ok {
		return nil, nil, 0, false
	}
	if t.Elem().Kind() == reflect.Uint8 {
		return func(e *cdr.Encoder, v reflect.Value) { e.OctetSeq(v.Bytes()) },
			func(d *cdr.Decoder, v reflect.Value) {
				if b := d.OctetSeq(nil); len(b) > 0 || v.Len() > 0 {
					v.SetBytes(b)
				}
			}, 4, true
	}
	return func(e *cdr.Encoder, v reflect.Value) {
			e.SeqLen(v.Len())
			for i := range v.Len() {
				ee(e, v.Index(i))
			}
		}, func(d *cdr.Decoder, v reflect.Value) {
			n := d.SeqLen(size)
			if n == 0 {
				v.SetZero() // an empty sequence decodes as nil
				return
			}
			s := reflect.MakeSlice(t, n, n)
			for i := range n {
				de(d, s.Index(i))
			}
			v.Set(s)
		}, 4, true
}

// planStruct compiles the codec of the struct type t: its fields in order, all of
// which must be exported.
func planStruct(t reflect.Type, depth int) (encFn, decFn, int, bool) {
	type field struct {
		i   int
		enc encFn
		dec decFn
	}
	var fields []field
	minSize := 0
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			return nil, nil, 0, false
		}
		ee, de, size, ok := plan(f.Type, depth+1)
		if !ok {
			return nil, nil, 0, false
		}
		fields = append(fields, field{i, ee, de})
		minSize += size
	}
	return func(e *cdr.Encoder, v reflect.Value) {
			for _, f := range fields {
				f.enc(e, v.Field(f.i))
			}
		}, func(d *cdr.Decoder, v reflect.Value) {
			for _, f := range fields {
				f.dec(d, v.Field(f.i))
			}
		}, minSize, true
}
