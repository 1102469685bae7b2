package ecm

import (
	"reflect"

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
	return func(e *cdr.Encoder, v *T) { enc(e, reflect.ValueOf(v).Elem()) },
		func(d *cdr.Decoder, v *T) { dec(d, reflect.ValueOf(v).Elem()) },
		true
}

// scalarCodec is the codec of a kind of plain scalar value and the size of its encoding.
type scalarCodec struct {
	enc  encFn
	dec  decFn
	size int
}

var (
	int64Codec = scalarCodec{
		func(e *cdr.Encoder, v reflect.Value) { e.Int64(v.Int()) },
		func(d *cdr.Decoder, v reflect.Value) { v.SetInt(d.Int64()) }, 8,
	}
	uint64Codec = scalarCodec{
		func(e *cdr.Encoder, v reflect.Value) { e.Uint64(v.Uint()) },
		func(d *cdr.Decoder, v reflect.Value) { v.SetUint(d.Uint64()) }, 8,
	}

	// scalarCodecs are the codecs of the scalar kinds that have one.
	scalarCodecs = map[reflect.Kind]scalarCodec{
		reflect.Bool: {
			func(e *cdr.Encoder, v reflect.Value) { e.Bool(v.Bool()) },
			func(d *cdr.Decoder, v reflect.Value) { v.SetBool(d.Bool()) }, 1,
		},
		reflect.Int8: {
			func(e *cdr.Encoder, v reflect.Value) { e.Int8(int8(v.Int())) },
			func(d *cdr.Decoder, v reflect.Value) { v.SetInt(int64(d.Int8())) }, 1,
		},
		reflect.Uint8: {
			func(e *cdr.Encoder, v reflect.Value) { e.Uint8(uint8(v.Uint())) },
			func(d *cdr.Decoder, v reflect.Value) { v.SetUint(uint64(d.Uint8())) }, 1,
		},
		reflect.Int16: {
			func(e *cdr.Encoder, v reflect.Value) { e.Int16(int16(v.Int())) },
			func(d *cdr.Decoder, v reflect.Value) { v.SetInt(int64(d.Int16())) }, 2,
		},
		reflect.Uint16: {
			func(e *cdr.Encoder, v reflect.Value) { e.Uint16(uint16(v.Uint())) },
			func(d *cdr.Decoder, v reflect.Value) { v.SetUint(uint64(d.Uint16())) }, 2,
		},
		reflect.Int32: {
			func(e *cdr.Encoder, v reflect.Value) { e.Int32(int32(v.Int())) },
			func(d *cdr.Decoder, v reflect.Value) { v.SetInt(int64(d.Int32())) }, 4,
		},
		reflect.Uint32: {
			func(e *cdr.Encoder, v reflect.Value) { e.Uint32(uint32(v.Uint())) },
			func(d *cdr.Decoder, v reflect.Value) { v.SetUint(uint64(d.Uint32())) }, 4,
		},
		reflect.Int:     int64Codec,
		reflect.Int64:   int64Codec,
		reflect.Uint:    uint64Codec,
		reflect.Uint64:  uint64Codec,
		reflect.Uintptr: uint64Codec,
		reflect.Float32: {
			func(e *cdr.Encoder, v reflect.Value) { e.Float32(float32(v.Float())) },
			func(d *cdr.Decoder, v reflect.Value) { v.SetFloat(float64(d.Float32())) }, 4,
		},
		reflect.Float64: {
			func(e *cdr.Encoder, v reflect.Value) { e.Float64(v.Float()) },
			func(d *cdr.Decoder, v reflect.Value) { v.SetFloat(d.Float64()) }, 8,
		},
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
