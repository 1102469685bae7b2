package cdr

import (
	"crypto/md5" //nolint:gosec // key hash test
	"encoding/hex"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Sample is interop::Sample { @key long id; string text; sequence<double> values; unsigned long long seq; }.
type Sample struct {
	ID     int32 `dds:"key"`
	Text   string
	Values []float64
	Seq    uint64
}

// SampleA is the same type declared @appendable.
type SampleA Sample

func (SampleA) DDSExtensibility() Extensibility { return Appendable }

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	require.NoError(t, err)
	return b
}

// cycloneSample is the payload Cyclone DDS 0.10.2 wrote for interop::Sample{1, "cyclone #1", [1], 1}
// (internal/golden/captures/cyclone_interop.pcapng).
const cycloneSample = `0001 0000 01000000 0b000000 6379636c6f6e652023310000 01000000 000000000000f03f 0100000000000000`

func TestSampleXCDR1MatchesCyclone(t *testing.T) {
	c := MustCodec[Sample]()
	want := unhex(t, cycloneSample)
	v := Sample{ID: 1, Text: "cyclone #1", Values: []float64{1}, Seq: 1}
	got, err := c.Marshal(nil, CDRLE, &v)
	require.NoError(t, err)
	require.Equal(t, want, got)

	var back Sample
	require.NoError(t, c.Unmarshal(want, &back))
	require.Equal(t, v, back)
}

func TestSampleXCDR2AlignsEightByteMembersToFour(t *testing.T) {
	c := MustCodec[Sample]()
	v := Sample{ID: 1, Text: "cyclone #1", Values: []float64{1}, Seq: 1}
	got, err := c.Marshal(nil, CDR2LE, &v)
	require.NoError(t, err)
	want := unhex(t, `0007 0000 01000000 0b000000 6379636c6f6e652023310000 01000000 000000000000f03f 0100000000000000`)
	require.Equal(t, want, got) // the double starts at 24 here anyway; check a case where it matters:

	type X struct {
		A uint8
		B float64
	}
	cx := MustCodec[X]()
	v1, err := cx.Marshal(nil, CDRBE, &X{1, 2})
	require.NoError(t, err)
	require.Equal(t, unhex(t, `0000 0000 01 00000000000000 4000000000000000`), v1)
	v2, err := cx.Marshal(nil, CDR2BE, &X{1, 2})
	require.NoError(t, err)
	require.Equal(t, unhex(t, `0006 0000 01 000000 4000000000000000`), v2)
}

func TestAppendableHasDHeader(t *testing.T) {
	c := MustCodec[SampleA]()
	require.Equal(t, DCDR2LE, c.DefaultEncapsulation())
	v := SampleA{ID: 7, Text: "a", Values: nil, Seq: 2}
	got, err := c.Marshal(nil, DCDR2LE, &v)
	require.NoError(t, err)
	// DHEADER 20: id(4) text(4+2, pad 2) seqlen(4) seq(8, aligned to 4) = 4+8+4+8 = 24
	want := unhex(t, `0009 0000 18000000 07000000 02000000 6100 0000 00000000 0200000000000000`)
	require.Equal(t, want, got)
	var back SampleA
	require.NoError(t, c.Unmarshal(got, &back))
	require.Equal(t, v.Seq, back.Seq)
	require.Equal(t, v.Text, back.Text)
}

// A Go array of arrays is IDL's multi-dimensional array: of a primitive, no DHEADER in
// XCDR2 (one array of 2x3 primitives, as Cyclone DDS writes long m[2][3]); of strings,
// one DHEADER for the whole array.
func TestMultiDimensionalArrayXCDR2(t *testing.T) {
	type grid struct {
		M [2][3]int16
		S [2][1]string
	}
	c := MustCodec[grid]()
	v := grid{M: [2][3]int16{{1, 2, 3}, {4, 5, 6}}, S: [2][1]string{{"a"}, {"b"}}}
	got, err := c.Marshal(nil, CDR2LE, &v)
	require.NoError(t, err)
	want := unhex(t, `0007 0002 0100 0200 0300 0400 0500 0600 0e000000 02000000 6100 0000 02000000 6200 0000`)
	require.Equal(t, want, got)
	var back grid
	require.NoError(t, c.Unmarshal(got, &back))
	require.Equal(t, v, back)
}

// Older and newer versions of an appendable type read each other.
type appV1 struct{ A int32 }

func (appV1) DDSExtensibility() Extensibility { return Appendable }

type appV2 struct {
	A int32
	B string
}

func (appV2) DDSExtensibility() Extensibility { return Appendable }

func TestAppendableEvolution(t *testing.T) {
	b, err := MustCodec[appV2]().Marshal(nil, DCDR2LE, &appV2{A: 5, B: "new"})
	require.NoError(t, err)
	var old appV1
	require.NoError(t, MustCodec[appV1]().Unmarshal(b, &old))
	require.Equal(t, int32(5), old.A)

	b, err = MustCodec[appV1]().Marshal(nil, DCDR2LE, &appV1{A: 6})
	require.NoError(t, err)
	nw := appV2{B: "stale"}
	require.NoError(t, MustCodec[appV2]().Unmarshal(b, &nw))
	require.Equal(t, appV2{A: 6}, nw)
}

type mut struct {
	A int32   `dds:"key"`
	B string  `dds:"id=10"`
	C *uint16 // id 11
	D float64 `dds:"id=0x4000"`
}

func (mut) DDSExtensibility() Extensibility { return Mutable }

func TestMutablePLCDR2(t *testing.T) {
	c := MustCodec[mut]()
	u := uint16(3)
	v := mut{A: 1, B: "x", C: &u, D: 1.5}
	got, err := c.Marshal(nil, PLCDR2LE, &v)
	require.NoError(t, err)
	want := unhex(t, `000b 0000
		38000000
		00000040 04000000 01000000
		0a000040 06000000 02000000 7800 0000
		0b000040 02000000 0300 0000
		00400040 08000000 000000000000f83f`)
	// M flag only on key member A: fix expectations (bit 31 of the EMHEADER).
	want[4+4+3] = 0xc0 // A: M flag | LC 4
	want[4+4+12+3] = 0x40
	require.Equal(t, hex.EncodeToString(want), hex.EncodeToString(got))
	var back mut
	require.NoError(t, c.Unmarshal(got, &back))
	require.Equal(t, v, back)

	// Absent optional and reordered members, an unknown member, and the LC 5 form (NEXTINT
	// doubling as the string length) decode.
	in := unhex(t, `000b 0000 28000000
		0a000050 02000000 7900 0000
		00400030 0000000000000840
		63000020 07000000
		00000020 09000000`)
	back = mut{C: &u}
	require.NoError(t, c.Unmarshal(in, &back))
	require.Equal(t, mut{A: 9, B: "y", D: 3}, back)

	// XCDR1 parameter list.
	got, err = c.Marshal(nil, PLCDRLE, &v)
	require.NoError(t, err)
	back = mut{}
	require.NoError(t, c.Unmarshal(got, &back))
	require.Equal(t, v, back)
	require.Equal(t, unhex(t, `0003 0000 0040 0400 01000000`), got[:12])
}

func TestMutableUnknownMustUnderstand(t *testing.T) {
	in := unhex(t, `000b 0000 08000000 630000a0 07000000`)
	var v mut
	err := MustCodec[mut]().Unmarshal(in, &v)
	require.ErrorIs(t, err, ErrMalformed)
}

type shape struct {
	Kind   int32    `dds:"disc"`
	Circle float64  `dds:"case=1"`
	Rect   [2]int16 `dds:"case=2|3"`
	Other  string   `dds:"default"`
}

func TestUnion(t *testing.T) {
	c := MustCodec[shape]()
	for _, v := range []shape{{Kind: 1, Circle: 2.5}, {Kind: 3, Rect: [2]int16{4, 5}}, {Kind: 9, Other: "hi"}} {
		b, err := c.Marshal(nil, CDRLE, &v)
		require.NoError(t, err)
		back := shape{Circle: 7, Other: "stale"}
		require.NoError(t, c.Unmarshal(b, &back))
		require.Equal(t, v, back)
	}
	b, _ := c.Marshal(nil, CDRLE, &shape{Kind: 2, Rect: [2]int16{1, 2}})
	require.Equal(t, unhex(t, `0001 0000 02000000 0100 0200`), b)
}

type nested struct {
	Inner   inner
	Opt     *inner
	Names   []string `dds:"bound=3"`
	Grid    [2][2]uint8
	Flag    bool
	Ch      byte
	Inners  []inner
	private int //nolint:unused // not serialized
	Skip    int `dds:"-"`
}

type inner struct {
	X int16
	Y int64
}

func TestNestedRoundTripAllEncodings(t *testing.T) {
	c := MustCodec[nested]()
	v := nested{
		Inner: inner{1, -2}, Opt: &inner{3, 4}, Names: []string{"a", "", "ccc"},
		Grid: [2][2]uint8{{1, 2}, {3, 4}}, Flag: true, Ch: 'z', Inners: []inner{{5, 6}, {7, 8}},
	}
	for _, id := range []EncapsulationID{CDRBE, CDRLE, CDR2BE, CDR2LE, DCDR2BE, DCDR2LE} {
		b, err := c.Marshal(nil, id, &v)
		require.NoError(t, err, id)
		require.Zero(t, len(b)%4)
		var back nested
		require.NoError(t, c.Unmarshal(b, &back), id)
		require.Equal(t, v, back, id)
	}
	v.Opt = nil
	b, err := c.Marshal(nil, CDR2LE, &v)
	require.NoError(t, err)
	back := nested{Opt: &inner{9, 9}}
	require.NoError(t, c.Unmarshal(b, &back))
	require.Nil(t, back.Opt)
}

func TestBounds(t *testing.T) {
	c := MustCodec[nested]()
	_, err := c.Marshal(nil, CDRLE, &nested{Names: []string{"a", "b", "c", "d"}})
	require.ErrorIs(t, err, ErrBound)
	require.ErrorContains(t, err, "member Names: ", "the error names the member")

	type label struct {
		Text string `dds:"bound=4"`
	}
	type deep struct {
		ID     int32
		Labels []label
		Opt    *label
	}
	dc := MustCodec[deep]()
	_, err = dc.Marshal(nil, CDR2LE, &deep{Labels: []label{{"ok"}, {"too long"}}})
	require.ErrorIs(t, err, ErrBound)
	require.ErrorContains(t, err, "member Labels[1].Text: ")
	_, err = dc.Marshal(nil, CDR2LE, &deep{Opt: &label{"much too long"}})
	require.ErrorContains(t, err, "member Opt.Text: ")

	type long struct {
		S []int32 `dds:"bound=1"`
	}
	in := unhex(t, `0001 0000 02000000 01000000 02000000`)
	var v long
	require.ErrorIs(t, MustCodec[long]().Unmarshal(in, &v), ErrBound)
}

func TestMalformedNeverPanics(t *testing.T) {
	c := MustCodec[Sample]()
	full := unhex(t, cycloneSample)
	for i := range len(full) {
		var v Sample
		err := c.Unmarshal(full[:i], &v)
		require.Error(t, err, "truncated at %d", i)
	}
	// A sequence length far beyond the data is rejected before allocating.
	huge := unhex(t, `0001 0000 01000000 01000000 00000000 ffffff7f`)
	var v Sample
	require.ErrorIs(t, c.Unmarshal(huge, &v), ErrMalformed)
	require.Nil(t, v.Values)
	// String without NUL.
	require.ErrorIs(t, c.Unmarshal(unhex(t, `0001 0000 01000000 01000000 41000000`), &v), ErrMalformed)
	// Unknown encapsulation.
	require.ErrorIs(t, c.Unmarshal(unhex(t, `0077 0000 01000000`), &v), ErrMalformed)
}

func TestKeyHash(t *testing.T) {
	// An int32 key: its big-endian bytes padded with zeros.
	c := MustCodec[Sample]()
	h := c.KeyHash(&Sample{ID: 0x01020304, Text: "ignored"})
	require.Equal(t, KeyHash{1, 2, 3, 4}, h)

	// A string key can exceed 16 bytes: MD5 of the XCDR2 BE serialization.
	type sk struct {
		Name string `dds:"key"`
		V    int32
	}
	h = MustCodec[sk]().KeyHash(&sk{Name: "ab"})
	require.Equal(t, KeyHash(md5.Sum([]byte{0, 0, 0, 3, 'a', 'b', 0})), h)

	// A bounded key of at most 16 bytes is not hashed; an int64 after a byte aligns to 4 (XCDR2).
	type bk struct {
		A uint8 `dds:"key"`
		B int64 `dds:"key"`
	}
	h = MustCodec[bk]().KeyHash(&bk{A: 1, B: 2})
	require.Equal(t, KeyHash{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2}, h)
	// With a bounded string the key can reach 19 bytes: MD5 even for a short value.
	type bks struct {
		A uint8  `dds:"key"`
		B int64  `dds:"key"`
		C string `dds:"key,bound=2"`
	}
	require.Equal(t, 19, MustCodec[bks]().keyMax)
	h = MustCodec[bks]().KeyHash(&bks{A: 1, B: 2, C: "x"})
	require.Equal(t, KeyHash(md5.Sum([]byte{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 2, 'x', 0})), h)

	type nk struct {
		Pos inner `dds:"key"` // all members of a struct without keys form the key
		V   int32
	}
	h = MustCodec[nk]().KeyHash(&nk{Pos: inner{1, 2}})
	require.Equal(t, KeyHash{0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2}, h)
}

func TestKeyOnlyRoundTrip(t *testing.T) {
	c := MustCodec[Sample]()
	var e Encoder
	e.Reset(nil, CDRLE)
	c.EncodeKey(&e, &Sample{ID: 42, Text: "x"})
	b := e.Finish()
	require.Equal(t, unhex(t, `0001 0000 2a000000`), b)
	var d Decoder
	require.NoError(t, d.Reset(b))
	var v Sample
	c.DecodeKey(&d, &v)
	require.NoError(t, d.Err())
	require.Equal(t, int32(42), v.ID)
}

func TestPlanErrors(t *testing.T) {
	type badKind struct{ C chan int }
	_, err := NewCodec[badKind]()
	require.Error(t, err)
	type badTag struct {
		A int32 `dds:"bogus"`
	}
	_, err = NewCodec[badTag]()
	require.Error(t, err)
	type dupID struct {
		A int32 `dds:"id=1"`
		B int32 `dds:"id=1"`
	}
	_, err = NewCodec[dupID]()
	require.Error(t, err)
	_, err = NewCodec[int]()
	require.Error(t, err)
}

// recursive types compile (a tree through a sequence).
type node struct {
	Name     string
	Children []node
}

func TestRecursiveType(t *testing.T) {
	c := MustCodec[node]()
	v := node{"root", []node{{"a", nil}, {"b", []node{{"c", nil}}}}}
	b, err := c.Marshal(nil, CDR2LE, &v)
	require.NoError(t, err)
	var back node
	require.NoError(t, c.Unmarshal(b, &back))
	require.Equal(t, v.Children[1].Children[0].Name, back.Children[1].Children[0].Name)
}

func TestPrimitives(t *testing.T) {
	type all struct {
		B   bool
		I8  int8
		U8  uint8
		I16 int16
		U16 uint16
		I32 int32
		U32 uint32
		I64 int64
		U64 uint64
		F32 float32
		F64 float64
		E   color
	}
	v := all{true, -1, 2, -3, 4, -5, 6, -7, 8, 1.5, math.Inf(-1), blue}
	c := MustCodec[all]()
	for _, id := range []EncapsulationID{CDRBE, CDRLE, CDR2BE, CDR2LE} {
		b, err := c.Marshal(nil, id, &v)
		require.NoError(t, err)
		var back all
		require.NoError(t, c.Unmarshal(b, &back))
		require.Equal(t, v, back)
	}
	b, _ := c.Marshal(nil, CDRBE, &v)
	require.Equal(t, unhex(t, `0000 0000 01 ff 02 00 fffd 0004 fffffffb 00000006 fffffffffffffff9 0000000000000008 3fc00000 00000000 fff0000000000000 00000002`), b)
}

type color int32

const blue color = 2

func TestDecodeReusesSlicesWithoutAllocating(t *testing.T) {
	c := MustCodec[Sample]()
	v := Sample{ID: 1, Text: "hello", Values: make([]float64, 128), Seq: 9}
	b, err := c.Marshal(nil, CDRLE, &v)
	require.NoError(t, err)
	var back Sample
	require.NoError(t, c.Unmarshal(b, &back))
	allocs := testing.AllocsPerRun(100, func() {
		if err := c.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
	})
	require.Zero(t, allocs)
	buf := make([]byte, 0, 4096)
	allocs = testing.AllocsPerRun(100, func() {
		if _, err := c.Marshal(buf[:0], CDRLE, &v); err != nil {
			t.Fatal(err)
		}
	})
	require.Zero(t, allocs)
	allocs = testing.AllocsPerRun(100, func() { _ = c.KeyHash(&v) })
	require.Zero(t, allocs)
}

func TestEncapsulationNames(t *testing.T) {
	require.Equal(t, "D_CDR2_LE", DCDR2LE.String())
	require.Equal(t, PLCDR2BE, Encapsulation(Mutable, true, true))
	require.True(t, PLCDRLE.ParameterList())
	require.False(t, EncapsulationID(0x20).Valid())
	var d Decoder
	require.Error(t, d.Reset([]byte{0}))
	require.True(t, errors.Is(d.Err(), ErrMalformed))
}

// handSample is interop::Sample with a hand-written codec: the reflection-free fast path.
type handSample Sample

func (s *handSample) MarshalCDR(e *Encoder) {
	e.Int32(s.ID)
	e.String(s.Text)
	e.SeqLen(len(s.Values))
	for _, v := range s.Values {
		e.Float64(v)
	}
	e.Uint64(s.Seq)
}

func (s *handSample) UnmarshalCDR(d *Decoder) {
	s.ID = d.Int32()
	s.Text = d.String(s.Text)
	n := d.SeqLen(8)
	if cap(s.Values) < n {
		s.Values = make([]float64, n)
	}
	s.Values = s.Values[:n]
	for i := range s.Values {
		s.Values[i] = d.Float64()
	}
	s.Seq = d.Uint64()
}

func TestMarshalerFastPathMatchesReflection(t *testing.T) {
	v := Sample{ID: 3, Text: "hand", Values: []float64{1, 2.5}, Seq: 77}
	for _, id := range []EncapsulationID{CDRLE, CDRBE, CDR2LE} {
		want, err := MustCodec[Sample]().Marshal(nil, id, &v)
		require.NoError(t, err)
		h := handSample(v)
		got, err := MustCodec[handSample]().Marshal(nil, id, &h)
		require.NoError(t, err)
		require.Equal(t, want, got, id)
		var back handSample
		require.NoError(t, MustCodec[handSample]().Unmarshal(want, &back))
		require.Equal(t, h, back)
	}
	// The key still comes from the tags (the plan), whatever the body codec.
	h := handSample(v)
	require.Equal(t, MustCodec[Sample]().KeyHash(&v), MustCodec[handSample]().KeyHash(&h))
}

func TestDecodeKeyHash(t *testing.T) {
	c := MustCodec[Sample]()
	require.True(t, c.KeyHashIsKey())
	var v Sample
	require.NoError(t, c.DecodeKeyHash(c.KeyHash(&Sample{ID: -7}), &v))
	require.Equal(t, int32(-7), v.ID)

	type sk struct {
		Name string `dds:"key"`
	}
	cs := MustCodec[sk]()
	require.False(t, cs.KeyHashIsKey())
	require.Error(t, cs.DecodeKeyHash(KeyHash{}, &sk{}))
}

type mutKey struct {
	Name string `dds:"key"`
	V    int32
}

func (mutKey) DDSExtensibility() Extensibility { return Mutable }

// A mutable type's key hash is its key members' alone (XTypes 1.3 §7.6.8: the KeyHolder
// is FINAL): the same as a final type's with those members.
func TestMutableKeyHashWithoutHeaders(t *testing.T) {
	type finalKey struct {
		Name string `dds:"key"`
		V    int32
	}
	got := MustCodec[mutKey]().KeyHash(&mutKey{Name: "ab", V: 7})
	require.Equal(t, KeyHash(md5.Sum([]byte{0, 0, 0, 3, 'a', 'b', 0})), got)
	require.Equal(t, MustCodec[finalKey]().KeyHash(&finalKey{Name: "ab"}), got)
}
