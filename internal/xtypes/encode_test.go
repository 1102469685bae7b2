package xtypes

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/cdr"
)

// encodeDynamic encodes v of type top in enc with Encode, encapsulation header first.
func encodeDynamic(t *testing.T, enc cdr.EncapsulationID, top TypeID, v any, resolve Resolver) []byte {
	var e cdr.Encoder
	e.Reset(nil, enc)
	require.NoError(t, Encode(&e, top, v, resolve))
	return e.Finish()
}

// TestEncodeDynamic encodes what Decode made of each case and what encoding/json makes
// of its JSON (maps, float64): the bytes must be the codec's, in XCDR1 and XCDR2 and
// both byte orders; the key hash must be the codec's too.
func TestEncodeDynamic(t *testing.T) {
	for _, c := range dynamicCases {
		rt := reflect.TypeOf(c.v)
		ty, resolve := parsedTypes(t, rt)
		d, err := cdr.Describe(rt)
		require.NoError(t, err)
		var fromJSON any
		require.NoError(t, json.Unmarshal([]byte(c.json), &fromJSON))
		for _, enc := range encapsulations(d.Ext) {
			want := marshal(t, c.v, enc)
			decoded, err := Decode(ty.Complete, want, resolve)
			require.NoError(t, err)
			require.Equal(t, want, encodeDynamic(t, enc, ty.Complete, decoded, resolve), "%s %v decoded", rt, enc)
			require.Equal(t, want, encodeDynamic(t, enc, ty.Complete, fromJSON, resolve), "%s %v JSON", rt, enc)
		}
		h, err := KeyHash(ty.Complete, fromJSON, resolve)
		require.NoError(t, err)
		require.Equal(t, [16]byte(keyHashes[rt](c.v)), h, "%s key hash", rt)
		require.Equal(t, h != [16]byte{}, Keyed(ty.Complete, resolve), rt)
	}
}

func codecKeyHash[T any](v any) cdr.KeyHash {
	x := v.(T)
	return cdr.MustCodec[T]().KeyHash(&x)
}

var keyHashes = map[reflect.Type]func(any) cdr.KeyHash{
	reflect.TypeFor[dynNested]():     codecKeyHash[dynNested],
	reflect.TypeFor[xtMut]():         codecKeyHash[xtMut],
	reflect.TypeFor[xtWithUnion]():   codecKeyHash[xtWithUnion],
	reflect.TypeFor[xtPainted]():     codecKeyHash[xtPainted],
	reflect.TypeFor[interopSample](): codecKeyHash[interopSample],
}

// TestEncodeDynamicUnion takes a union's discriminator from the member given.
func TestEncodeDynamicUnion(t *testing.T) {
	ty, resolve := parsedTypes(t, reflect.TypeFor[xtWithUnion]())
	want := marshal(t, xtWithUnion{U: xtU{D: 3, B: "bee"}, O: 1}, cdr.CDR2LE)
	require.Equal(t, want, encodeDynamic(t, cdr.CDR2LE, ty.Complete, map[string]any{"u": map[string]any{"b": "bee"}, "o": 1}, resolve))
	var e cdr.Encoder
	e.Reset(nil, cdr.CDR2LE)
	err := Encode(&e, ty.Complete, map[string]any{"u": map[string]any{"discriminator": 9, "b": "bee"}}, resolve)
	require.ErrorContains(t, err, "u: the discriminator does not select b")
}

// TestEncodeDynamicROSNames takes a member called name_ (ROS 2's DDS types) as name.
func TestEncodeDynamicROSNames(t *testing.T) {
	type rosString struct {
		Data string `dds:"name=data_"`
	}
	ty, resolve := parsedTypes(t, reflect.TypeFor[rosString]())
	want := codecMarshalOf(t, rosString{Data: "hi"})
	require.Equal(t, want, encodeDynamic(t, cdr.CDRLE, ty.Complete, map[string]any{"data": "hi"}, resolve))
	require.Equal(t, want, encodeDynamic(t, cdr.CDRLE, ty.Complete, map[string]any{"data_": "hi"}, resolve))
}

func codecMarshalOf[T any](t *testing.T, v T) []byte {
	b, err := cdr.MustCodec[T]().Marshal(nil, cdr.CDRLE, &v)
	require.NoError(t, err)
	return b
}

// TestEncodeDynamicZero leaves every member out: the codec's zero value.
func TestEncodeDynamicZero(t *testing.T) {
	for _, v := range []any{interopSample{}, xtPainted{}, xtMut{}} {
		rt := reflect.TypeOf(v)
		ty, resolve := parsedTypes(t, rt)
		d, err := cdr.Describe(rt)
		require.NoError(t, err)
		for _, enc := range encapsulations(d.Ext) {
			require.Equal(t, marshal(t, v, enc), encodeDynamic(t, enc, ty.Complete, map[string]any{}, resolve), "%s %v", rt, enc)
		}
	}
}

// TestEncodeDynamicErrors names the member at fault.
func TestEncodeDynamicErrors(t *testing.T) {
	ty, resolve := parsedTypes(t, reflect.TypeFor[dynNested]())
	for v, want := range map[string]string{
		`{"nope": 1}`:                          `no member "nope"`,
		`{"ident": -1}`:                        "ident: -1 is not an integer from 0 to 4294967295",
		`{"ident": 1.5}`:                       "ident: 1.5 is not an integer",
		`{"inner": {"a": "x"}}`:                "inner.a: x is not an integer",
		`{"points": [{}, {}, {}, {}]}`:         "points: 4 elements in an array of 3",
		`{"names": [1]}`:                       "names[0]: 1 is not a string",
		`{"names": ["1","2","3","4","5","6"]}`: "names: 6 elements, bound 5",
		`{"flag": 1}`:                          "flag: 1 is not a boolean",
		`{"path": {}}`:                         "path: map[] is not a list",
		`[]`:                                   "the value: [] is not a struct",
	} {
		var x any
		require.NoError(t, json.Unmarshal([]byte(v), &x))
		var e cdr.Encoder
		e.Reset(nil, cdr.CDR2LE)
		err := Encode(&e, ty.Complete, x, resolve)
		require.ErrorContains(t, err, want, v)
	}
	pty, presolve := parsedTypes(t, reflect.TypeFor[xtPainted]())
	var e cdr.Encoder
	e.Reset(nil, cdr.CDR2LE)
	require.ErrorContains(t, Encode(&e, pty.Complete, map[string]any{"color": "PINK"}, presolve), `color: "PINK" is not an enumerator`)
}

// TestDecodeKey reads back the serialized key of each keyed case, in every encapsulation:
// the key members alone, which serialize to the same key and hash and, the rest left
// out, to a whole sample.
func TestDecodeKey(t *testing.T) {
	keys := map[reflect.Type][]string{
		reflect.TypeFor[dynNested]():     {"ident"},
		reflect.TypeFor[xtMut]():         {"key"},
		reflect.TypeFor[xtPainted]():     {"id"},
		reflect.TypeFor[interopSample](): {"id"},
	}
	for _, c := range dynamicCases {
		rt := reflect.TypeOf(c.v)
		ty, resolve := parsedTypes(t, rt)
		if !Keyed(ty.Complete, resolve) {
			continue
		}
		d, err := cdr.Describe(rt)
		require.NoError(t, err)
		for _, enc := range encapsulations(d.Ext) {
			full, err := Decode(ty.Complete, marshal(t, c.v, enc), resolve)
			require.NoError(t, err)
			var e cdr.Encoder
			e.Reset(nil, enc)
			require.NoError(t, EncodeKey(&e, ty.Complete, full, resolve))
			key := e.Finish()

			kv, err := DecodeKey(ty.Complete, key, resolve)
			require.NoError(t, err, "%s %v", rt, enc)
			var names []string
			for _, f := range kv.(Struct) {
				names = append(names, f.Name)
				got, _ := kv.(Struct).Get(f.Name)
				want, _ := full.(Struct).Get(f.Name)
				require.Equal(t, want, got, "%s %v %s", rt, enc, f.Name)
			}
			require.Equal(t, keys[rt], names, "%s %v", rt, enc)
			e.Reset(nil, enc)
			require.NoError(t, EncodeKey(&e, ty.Complete, kv, resolve))
			require.Equal(t, key, e.Finish(), "%s %v", rt, enc)
			encodeDynamic(t, enc, ty.Complete, kv, resolve)
		}
	}
	ty, resolve := parsedTypes(t, reflect.TypeFor[interopSample]())
	_, err := DecodeKey(ty.Complete, []byte{0, 1, 0, 0, 1}, resolve)
	require.Error(t, err, "a truncated key")
}
