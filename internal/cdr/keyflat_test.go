package cdr

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

type keyMix struct {
	A bool   `dds:"key"`
	B uint16 `dds:"key"`
	V string
	C int8    `dds:"key"`
	D float32 `dds:"key"`
	E uint32  `dds:"key"`
}

type keyNested struct {
	N  inner `dds:"key"`
	ID int8  `dds:"key"`
	V  []int32
}

type keyApp struct {
	ID uint32  `dds:"key"`
	F  float64 `dds:"key"`
}

func (keyApp) DDSExtensibility() Extensibility { return Appendable }

type keyMut struct {
	ID uint32 `dds:"key"`
}

func (keyMut) DDSExtensibility() Extensibility { return Mutable }

type keyArr struct {
	A [2]int32 `dds:"key"`
}

// TestKeyHashFlat checks the key hash written straight from the value's memory against
// the one serialized by the encoder, for keys of primitives (flat or nested), and that
// keys of anything else keep the encoder.
func TestKeyHashFlat(t *testing.T) {
	checkKeyFlat[Sample](t, true)
	checkKeyFlat[keyMix](t, true)
	checkKeyFlat[keyNested](t, true)
	checkKeyFlat[keyApp](t, true)
	checkKeyFlat[keyMut](t, false)
	checkKeyFlat[keyArr](t, false)
	type wide struct { // an int64 after a byte: aligned to 4
		A uint8 `dds:"key"`
		B int64 `dds:"key"`
		C int16 `dds:"key"`
	}
	checkKeyFlat[wide](t, true)
	type big struct { // 20 bytes: a digest
		A, B, C, D, E int32 `dds:"key"`
	}
	checkKeyFlat[big](t, false)
}

func checkKeyFlat[T any](t *testing.T, flat bool) {
	t.Helper()
	c := MustCodec[T]()
	require.Equal(t, flat, c.keyFlat != nil, "%T", *new(T))
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		var v T
		randomize(r, reflect.ValueOf(&v).Elem())
		require.Equal(t, c.keyHashEncoded(&v), c.KeyHash(&v), "%+v", v)
	}
}

// randomize sets the primitive members of v, a struct, to random values.
func randomize(r *rand.Rand, v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				randomize(r, v.Field(i))
			}
		}
	case reflect.Array:
		for i := range v.Len() {
			randomize(r, v.Index(i))
		}
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 1)
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(r.Uint64()))
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(r.Uint64())
	case reflect.Float32, reflect.Float64:
		v.SetFloat(r.NormFloat64() * 1e6)
	default: // strings, slices: not key members here
	}
}
