package xtypes

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/cdr"
)

// parsedTypes builds the types of rt and parses every TypeObject back: the resolver of
// both forms.
func parsedTypes(t testing.TB, rt reflect.Type) (*Types, Resolver) {
	d, err := cdr.Describe(rt)
	require.NoError(t, err)
	ty, err := Build(d)
	require.NoError(t, err)
	got := map[[HashLen]byte]*Type{}
	for _, objs := range [][]Object{ty.MinimalObjects, ty.CompleteObjects} {
		for _, o := range objs {
			p, err := ParseObject(o.ID, o.Bytes)
			require.NoError(t, err, "%v", o.ID)
			got[o.ID.Hash] = p
		}
	}
	return ty, func(id TypeID) (*Type, bool) {
		p, ok := got[id.Hash]
		return p, ok
	}
}

// TestParseObjects parses the TypeObjects of every golden type, checking the names and
// member ids against the codec's description.
func TestParseObjects(t *testing.T) {
	for name, rt := range goldenTypes {
		ty, resolve := parsedTypes(t, rt)
		d, err := cdr.Describe(rt)
		require.NoError(t, err)
		c, ok := resolve(ty.Complete)
		require.True(t, ok, name)
		require.Equal(t, d.Name, c.Name, name)
		m, ok := resolve(ty.Minimal)
		require.True(t, ok, name)
		require.Len(t, m.Members, len(c.Members), name)
		for i := range c.Members {
			require.Equal(t, c.Members[i].NameHash, m.Members[i].NameHash, name)
			require.Equal(t, c.Members[i].ID, m.Members[i].ID, name)
		}
	}
}

func TestParseObjectHash(t *testing.T) {
	ty, _ := parsedTypes(t, reflect.TypeFor[xtNested]())
	o := ty.CompleteObjects[0]
	bad := append([]byte(nil), o.Bytes...)
	bad[len(bad)-1] ^= 1
	_, err := ParseObject(o.ID, bad)
	require.ErrorIs(t, err, errMalformed)
}

// dynNested is xtNested with a one-dimensional array: ddsgo's codec writes a DHEADER
// before the rows of a [2][4]int32 in XCDR2, which XTypes (one two-dimensional array of
// a primitive) does not.
type dynNested struct {
	Ident  uint32     `dds:"key,name=ident"`
	Inner  xtInner    `dds:"name=inner"`
	Points [3]xtPoint `dds:"name=points"`
	Path   []xtPoint  `dds:"name=path"`
	Big    []xtPoint  `dds:"bound=300,name=big"`
	Names  []string   `dds:"bound=5,name=names"`
	Text   string     `dds:"bound=300,name=text"`
	Grid   [8]int32   `dds:"name=grid"`
	Flag   bool       `dds:"name=flag"`
	I8     int8       `dds:"name=i8"`
	U8     uint8      `dds:"name=u8"`
	S      int16      `dds:"name=s"`
	US     uint16     `dds:"name=us"`
	LL     int64      `dds:"name=ll"`
	F      float32    `dds:"name=f"`
	Maybe  *int32     `dds:"name=maybe"`
}

func (dynNested) DDSTypeName() string                 { return "xt::DynNested" }
func (dynNested) DDSExtensibility() cdr.Extensibility { return cdr.Appendable }

func ptr[T any](v T) *T { return &v }

// dynamicCases are values whose dynamic decoding is checked against their JSON.
var dynamicCases = []struct {
	v    any
	json string
}{
	{dynNested{
		Ident: 7, Inner: xtInner{A: -1, Name: "in"}, Points: [3]xtPoint{{1, 2}, {3, 4}, {5, 6}},
		Path: []xtPoint{{0.5, -0.5}}, Names: []string{"a", "bc"}, Text: "t", Grid: [8]int32{1, 2, 3, 4, 5, 6, 7, 8},
		Flag: true, I8: -3, U8: 250, S: -300, US: 60000, LL: -1 << 40, F: 1.5, Maybe: ptr(int32(9)),
	}, `{"ident":7,"inner":{"a":-1,"name":"in"},"points":[{"x":1,"y":2},{"x":3,"y":4},{"x":5,"y":6}],` +
		`"path":[{"x":0.5,"y":-0.5}],"big":[],"names":["a","bc"],"text":"t","grid":[1,2,3,4,5,6,7,8],` +
		`"flag":true,"i8":-3,"u8":250,"s":-300,"us":60000,"ll":-1099511627776,"f":1.5,"maybe":9}`},
	{xtMut{Key: 3, Label: "L", Inner: xtInner{A: 2, Name: "n"}}, `{"key":3,"label":"L","inner":{"a":2,"name":"n"}}`},
	{xtMut{Key: 3, Weight: ptr(2.5)}, `{"key":3,"label":"","inner":{"a":0,"name":""},"weight":2.5}`},
	{xtWithUnion{U: xtU{D: 3, B: "bee"}, O: 1}, `{"u":{"discriminator":3,"b":"bee"},"o":1}`},
	{xtWithUnion{U: xtU{D: 9, C: xtPoint{1, 2}}, O: 2}, `{"u":{"discriminator":9,"c":{"x":1,"y":2}},"o":2}`},
	{
		xtPainted{ID: 1, Color: 5, Size: 1, Palette: []xtColor{0, 1}, Corners: [2]xtColor{5, 7}},
		`{"id":1,"color":"BLUE","size":"B","palette":["RED","GREEN"],"corners":["BLUE",7]}`,
	},
	{interopSample{ID: 4, Text: "hello", Values: []float64{1.25}, Seq: 99}, `{"id":4,"text":"hello","values":[1.25],"seq":99}`},
}

// marshal serializes v (a pointer to a golden type value) with its codec in enc.
func marshal(t testing.TB, v any, enc cdr.EncapsulationID) []byte {
	rv := reflect.ValueOf(v)
	m := reflect.ValueOf(marshalers[rv.Type()])
	out := m.Call([]reflect.Value{reflect.ValueOf(enc), rv})
	if !out[1].IsNil() {
		t.Fatal(out[1].Interface())
	}
	return out[0].Bytes()
}

func codecMarshal[T any](enc cdr.EncapsulationID, v T) ([]byte, error) {
	return cdr.MustCodec[T]().Marshal(nil, enc, &v)
}

var marshalers = map[reflect.Type]any{
	reflect.TypeFor[dynNested]():     codecMarshal[dynNested],
	reflect.TypeFor[xtMut]():         codecMarshal[xtMut],
	reflect.TypeFor[xtWithUnion]():   codecMarshal[xtWithUnion],
	reflect.TypeFor[xtPainted]():     codecMarshal[xtPainted],
	reflect.TypeFor[interopSample](): codecMarshal[interopSample],
}

// encapsulations are the XCDR1 and XCDR2 forms of a type of extensibility x, both byte
// orders.
func encapsulations(x cdr.Extensibility) []cdr.EncapsulationID {
	return []cdr.EncapsulationID{
		cdr.Encapsulation(x, false, false), cdr.Encapsulation(x, false, true),
		cdr.Encapsulation(x, true, false), cdr.Encapsulation(x, true, true),
	}
}

// TestDecodeDynamic decodes samples serialized by the codec with the types parsed from
// their complete TypeObjects, in XCDR1 and XCDR2 and both byte orders.
func TestDecodeDynamic(t *testing.T) {
	for _, c := range dynamicCases {
		rt := reflect.TypeOf(c.v)
		ty, resolve := parsedTypes(t, rt)
		d, err := cdr.Describe(rt)
		require.NoError(t, err)
		for _, enc := range encapsulations(d.Ext) {
			payload := marshal(t, c.v, enc)
			v, err := Decode(ty.Complete, payload, resolve)
			require.NoError(t, err, "%s %v", rt, enc)
			b, err := json.Marshal(v)
			require.NoError(t, err)
			require.JSONEq(t, c.json, string(b), "%s %v", rt, enc)
			require.Equal(t, c.json, string(b), "member order %s %v", rt, enc)

			// The minimal form names members by id.
			v, err = Decode(ty.Minimal, payload, resolve)
			require.NoError(t, err, "%s %v minimal", rt, enc)
			require.NotEmpty(t, v.(Struct))
			require.Equal(t, "@0", v.(Struct)[0].Name)
		}
	}
}

// TestDecodeDynamicUnresolved reports a dependency the resolver lacks.
func TestDecodeDynamicUnresolved(t *testing.T) {
	ty, resolve := parsedTypes(t, reflect.TypeFor[dynNested]())
	only := func(id TypeID) (*Type, bool) {
		if id.Hash != ty.Complete.Hash {
			return nil, false
		}
		return resolve(id)
	}
	_, err := Decode(ty.Complete, marshal(t, dynamicCases[0].v, cdr.CDR2LE), only)
	require.ErrorIs(t, err, ErrUnresolved)
}

func FuzzDecodeDynamic(f *testing.F) {
	type typed struct {
		id      TypeID
		resolve Resolver
	}
	var types []typed
	for _, c := range dynamicCases {
		rt := reflect.TypeOf(c.v)
		ty, resolve := parsedTypes(f, rt)
		types = append(types, typed{ty.Complete, resolve}, typed{ty.Minimal, resolve})
		d, _ := cdr.Describe(rt)
		for _, enc := range encapsulations(d.Ext) {
			f.Add(uint8(len(types)-2), marshal(f, c.v, enc))
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, payload []byte) {
		ty := types[int(which)%len(types)]
		_, _ = DecodeKey(ty.id, payload, ty.resolve) // never panics, as Decode
		v, err := Decode(ty.id, payload, ty.resolve)
		if err != nil {
			return
		}
		_, err = json.Marshal(v)
		require.NoError(t, err)
		// What decodes encodes (Encode), and decodes again to what was encoded: after
		// the first round, in which members a mutable sample left out become their
		// defaults.
		roundTrip := func(v any, enc cdr.EncapsulationID) (any, string) {
			var e cdr.Encoder
			e.Reset(nil, enc)
			require.NoError(t, Encode(&e, ty.id, v, ty.resolve))
			again, err := Decode(ty.id, e.Finish(), ty.resolve)
			require.NoError(t, err)
			b, err := json.Marshal(again)
			require.NoError(t, err)
			return again, string(b)
		}
		for _, enc := range []cdr.EncapsulationID{cdr.CDRLE, cdr.CDR2BE} {
			once, b1 := roundTrip(v, enc)
			_, b2 := roundTrip(once, enc)
			require.JSONEq(t, b1, b2)
		}
	})
}

func FuzzParseObject(f *testing.F) {
	for _, rt := range goldenTypes {
		d, err := cdr.Describe(rt)
		require.NoError(f, err)
		ty, err := Build(d)
		require.NoError(f, err)
		for _, o := range append(ty.MinimalObjects, ty.CompleteObjects...) {
			f.Add(o.Bytes)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		// The hash is checked first: fuzz the parser behind it with the hash of b.
		id := TypeID{Kind: EKComplete}
		if len(b) > 4 {
			id.Kind = b[4]
		}
		sum := md5sum(b)
		copy(id.Hash[:], sum[:])
		_, _ = ParseObject(id, b)
	})
}
