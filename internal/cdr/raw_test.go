package cdr

import (
	"testing"

	"github.com/stretchr/testify/require"
)

type rawVec struct{ X, Y, Z float64 }

type rawPose struct {
	P rawVec
	Q [4]float64
}

type rawMixed struct { // a hole before F in XCDR2 only
	I int32
	F float64
}

type rawTail struct { // trailing padding in memory
	F float64
	I int32
}

type rawSmall struct {
	A int8
	B uint8
	C int16
	D uint32
}

type rawApp struct{ X, Y int32 }

func (rawApp) DDSExtensibility() Extensibility { return Appendable }

type rawFlag struct {
	On bool
	N  int32
}

type rawStamped struct { // inline, not raw: its members are leaves of rawOuter
	Stamp rawSmall
	Frame string
	App   rawApp
	Opt   *rawVec
}

type rawHeader struct {
	S    rawStamped
	Kids []rawHeader
}

type rawOuter struct {
	Tag    uint8 // shifts what follows off its alignment
	Pose   rawPose
	Mixed  rawMixed
	Tail   rawTail
	Small  rawSmall
	App    rawApp
	Flag   rawFlag
	Poses  []rawPose
	Mixeds []rawMixed
	Tails  []rawTail
	Smalls []rawSmall
	Apps   []rawApp
	Arr    [3]rawSmall
	Name   string
	Last   rawPose
	Head   rawHeader
}

// rawPlans returns the struct plans reachable from t.
func rawPlans(t *typ, seen map[*typ]bool) {
	if t == nil || seen[t] {
		return
	}
	seen[t] = true
	rawPlans(t.elem, seen)
	for i := range t.fields {
		rawPlans(t.fields[i].t, seen)
	}
}

// TestEncRaw checks that structs copied as memory encode to the same bytes as field by
// field, in every encapsulation, at every starting offset.
func TestEncRaw(t *testing.T) {
	c := MustCodec[rawOuter]()
	require.NotZero(t, MustCodec[rawPose]().t.raw[0].size)
	require.Zero(t, MustCodec[rawFlag]().t.raw[0].size)
	require.Zero(t, MustCodec[rawApp]().t.raw[1].size)
	require.Zero(t, MustCodec[rawMixed]().t.raw[1].size)
	require.False(t, MustCodec[rawTail]().t.raw[0].elems)
	encodeAll := func() [][]byte {
		var out [][]byte
		for tag := range 8 {
			v := rawValue(tag)
			for _, id := range []EncapsulationID{CDRBE, CDRLE, CDR2BE, CDR2LE, DCDR2LE} {
				b, err := c.Marshal(nil, id, &v)
				require.NoError(t, err)
				out = append(out, b)
			}
		}
		return out
	}
	require.NotEmpty(t, c.t.flat[0])
	require.Nil(t, MustCodec[rawStamped]().t.flat[0]) // an optional member
	fast := encodeAll()
	restore := rawPlansOff(c)
	slow := encodeAll()
	restore()
	require.Equal(t, slow, fast)
}

// rawValue is a rawOuter whose Tag (0-7) shifts what follows off its alignment.
func rawValue(tag int) rawOuter {
	v := rawOuter{
		Tag: uint8(tag), Pose: rawPose{rawVec{1, 2, 3}, [4]float64{4, 5, 6, 7}},
		Mixed: rawMixed{-1, 2.5}, Tail: rawTail{3.5, -4}, Small: rawSmall{-1, 2, -3, 4},
		App: rawApp{5, 6}, Flag: rawFlag{true, 7},
		Poses:  []rawPose{{rawVec{1, 2, 3}, [4]float64{1}}, {rawVec{4, 5, 6}, [4]float64{2}}},
		Mixeds: []rawMixed{{1, 2}, {3, 4}}, Tails: []rawTail{{1, 2}, {3, 4}},
		Smalls: []rawSmall{{1, 2, 3, 4}, {5, 6, 7, 8}}, Apps: []rawApp{{1, 2}, {3, 4}},
		Arr: [3]rawSmall{{1, 2, 3, 4}}, Name: "ab"[:tag%3], Last: rawPose{Q: [4]float64{0, 0, 0, 1}},
	}
	v.Head = rawHeader{S: rawStamped{Stamp: v.Small, Frame: v.Name, App: v.App}, Kids: []rawHeader{{
		S: rawStamped{Frame: "k", Opt: &rawVec{1, 2, 3}},
	}}}
	return v
}

// rawPlansOff clears the raw layouts and flat leaves of the plans reachable from c's
// type (the member-by-member paths) and returns a function that restores them.
func rawPlansOff[T any](c *Codec[T]) (restore func()) {
	seen := map[*typ]bool{}
	rawPlans(c.t, seen)
	type plans struct {
		raw  [2]rawLayout
		flat [2][]leaf
	}
	saved := map[*typ]plans{}
	for p := range seen {
		saved[p] = plans{p.raw, p.flat}
		p.raw, p.flat = [2]rawLayout{}, [2][]leaf{}
	}
	return func() {
		for p := range seen {
			p.raw, p.flat = saved[p].raw, saved[p].flat
		}
	}
}

// TestDecRaw checks that structs decoded as one copy of their encoding (decRaw) come out
// as when decoded member by member, in every encapsulation, at every starting offset,
// and that a truncated payload fails the same way.
func TestDecRaw(t *testing.T) {
	c := MustCodec[rawOuter]()
	decodeAll := func() (vs []rawOuter, errs []string) {
		for tag := range 8 {
			v := rawValue(tag)
			for _, id := range []EncapsulationID{CDRBE, CDRLE, CDR2BE, CDR2LE, DCDR2LE} {
				b, err := c.Marshal(nil, id, &v)
				require.NoError(t, err)
				var got rawOuter
				require.NoError(t, c.Unmarshal(b, &got))
				vs = append(vs, got)
				for cut := 1; cut < len(b)-4; cut += 7 {
					var short rawOuter
					if err := c.Unmarshal(b[:len(b)-cut], &short); err != nil {
						errs = append(errs, err.Error())
					} else {
						errs = append(errs, "")
					}
				}
			}
		}
		return vs, errs
	}
	fastV, fastE := decodeAll()
	restore := rawPlansOff(c)
	slowV, slowE := decodeAll()
	restore()
	require.Equal(t, slowV, fastV)
	require.Equal(t, slowE, fastE)
	require.Equal(t, rawValue(3), fastV[3*5+1], "CDR_LE, tag 3")
}
