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

// plan compiles the codec of t; minSize is the smallest encoding of a value (for bounds
// on sequence lengths).
func plan(t reflect.Type, depth int) (enc encFn, dec decFn, minSize int, ok bool) {
	if depth > 32 {
		return nil, nil, 0, false
	}
	switch t.Kind() {
	case reflect.Bool:
		return func(e *cdr.Encoder, v reflect.Value) { e.Bool(v.Bool()) },
			func(d *cdr.Decoder, v reflect.Value) { v.SetBool(d.Bool()) }, 1, true
	case reflect.Int8:
		return func(e *cdr.Encoder, v reflect.Value) { e.Int8(int8(v.Int())) },
			func(d *cdr.Decoder, v reflect.Value) { v.SetInt(int64(d.Int8())) }, 1, true
	case reflect.Uint8:
		return func(e *cdr.Encoder, v reflect.Value) { e.Uint8(uint8(v.Uint())) },
			func(d *cdr.Decoder, v reflect.Value) { v.SetUint(uint64(d.Uint8())) }, 1, true
	case reflect.Int16:
		return func(e *cdr.Encoder, v reflect.Value) { e.Int16(int16(v.Int())) },
			func(d *cdr.Decoder, v reflect.Value) { v.SetInt(int64(d.Int16())) }, 2, true
	case reflect.Uint16:
		return func(e *cdr.Encoder, v reflect.Value) { e.Uint16(uint16(v.Uint())) },
			func(d *cdr.Decoder, v reflect.Value) { v.SetUint(uint64(d.Uint16())) }, 2, true
	case reflect.Int32:
		return func(e *cdr.Encoder, v reflect.Value) { e.Int32(int32(v.Int())) },
			func(d *cdr.Decoder, v reflect.Value) { v.SetInt(int64(d.Int32())) }, 4, true
	case reflect.Uint32:
		return func(e *cdr.Encoder, v reflect.Value) { e.Uint32(uint32(v.Uint())) },
			func(d *cdr.Decoder, v reflect.Value) { v.SetUint(uint64(d.Uint32())) }, 4, true
	case reflect.Int, reflect.Int64:
		return func(e *cdr.Encoder, v reflect.Value) { e.Int64(v.Int()) },
			func(d *cdr.Decoder, v reflect.Value) { v.SetInt(d.Int64()) }, 8, true
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		return func(e *cdr.Encoder, v reflect.Value) { e.Uint64(v.Uint()) },
			func(d *cdr.Decoder, v reflect.Value) { v.SetUint(d.Uint64()) }, 8, true
	case reflect.Float32:
		return func(e *cdr.Encoder, v reflect.Value) { e.Float32(float32(v.Float())) },
			func(d *cdr.Decoder, v reflect.Value) { v.SetFloat(float64(d.Float32())) }, 4, true
	case reflect.Float64:
		return func(e *cdr.Encoder, v reflect.Value) { e.Float64(v.Float()) },
			func(d *cdr.Decoder, v reflect.Value) { v.SetFloat(d.Float64()) }, 8, true
	case reflect.String:
		return func(e *cdr.Encoder, v reflect.Value) { e.String(v.String()) },
			func(d *cdr.Decoder, v reflect.Value) { v.SetString(d.String(v.String())) }, 4, true
	case reflect.Array:
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
	case reflect.Slice:
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
	case reflect.Struct:
		type field struct {
			i   int
			enc encFn
			dec decFn
		}
		var fields []field
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
	default: // maps, pointers, interfaces, functions, channels, complex numbers
		return nil, nil, 0, false
	}
}
