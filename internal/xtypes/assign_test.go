package xtypes

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/cdr"
)

// Variants of interop::Sample and xt::Mut for the assignability rules.
type (
	sampleRenamed struct {
		ID     int32     `dds:"key,name=id"`
		Label  string    `dds:"name=label"`
		Values []float64 `dds:"name=values"`
		Seq    uint64    `dds:"name=seq"`
	}
	sampleWider struct {
		ID     int32     `dds:"key,name=id"`
		Text   string    `dds:"name=text"`
		Values []float64 `dds:"name=values"`
		Seq    int64     `dds:"name=seq"`
	}
	sampleFinalPlus struct {
		ID     int32     `dds:"key,name=id"`
		Text   string    `dds:"name=text"`
		Values []float64 `dds:"name=values"`
		Seq    uint64    `dds:"name=seq"`
		Extra  int32     `dds:"name=extra"`
	}
	sampleABounded struct {
		ID     int32     `dds:"key,name=id"`
		Text   string    `dds:"bound=16,name=text"`
		Values []float64 `dds:"bound=4,name=values"`
		Seq    uint64    `dds:"name=seq"`
	}
	sampleAKeyLess struct {
		ID     int32     `dds:"name=id"`
		Text   string    `dds:"name=text"`
		Values []float64 `dds:"name=values"`
		Seq    uint64    `dds:"name=seq"`
	}
	mutPlus struct {
		Key    int32    `dds:"key,name=key"`
		Label  string   `dds:"id=10,name=label"`
		Inner  xtInner  `dds:"name=inner"`
		Weight *float64 `dds:"name=weight"`
		More   []int32  `dds:"id=40,name=more"`
	}
	mutRetyped struct {
		Key   int32   `dds:"key,name=key"`
		Label int32   `dds:"id=10,name=label"`
		Inner xtInner `dds:"name=inner"`
	}
	paintedOther struct {
		ID      int32         `dds:"key,name=id"`
		Color   otherColor    `dds:"name=color"`
		Size    xtSmall       `dds:"name=size"`
		Palette []otherColor  `dds:"name=palette"`
		Corners [2]otherColor `dds:"name=corners"`
	}
	otherColor int32
)

func (sampleRenamed) DDSTypeName() string                  { return "interop::Sample" }
func (sampleWider) DDSTypeName() string                    { return "interop::Sample" }
func (sampleFinalPlus) DDSTypeName() string                { return "interop::Sample" }
func (sampleABounded) DDSTypeName() string                 { return "interop::SampleA" }
func (sampleABounded) DDSExtensibility() cdr.Extensibility { return cdr.Appendable }
func (sampleAKeyLess) DDSTypeName() string                 { return "interop::SampleA" }
func (sampleAKeyLess) DDSExtensibility() cdr.Extensibility { return cdr.Appendable }
func (mutPlus) DDSTypeName() string                        { return "xt::Mut" }
func (mutPlus) DDSExtensibility() cdr.Extensibility        { return cdr.Mutable }
func (mutRetyped) DDSTypeName() string                     { return "xt::Mut" }
func (mutRetyped) DDSExtensibility() cdr.Extensibility     { return cdr.Mutable }
func (paintedOther) DDSTypeName() string                   { return "xt::Painted" }
func (paintedOther) DDSExtensibility() cdr.Extensibility   { return cdr.Appendable }
func (otherColor) DDSTypeName() string                     { return "xt::Color" }
func (otherColor) DDSEnumerators() ([]string, []int32) {
	return []string{"RED", "GREEN", "BLUE", "BLACK"}, []int32{0, 1, 5, 6}
}

// TestAssignable applies the rules to pairs of types, in both directions, by their
// complete and by their minimal TypeObjects.
func TestAssignable(t *testing.T) {
	tf := reflect.TypeFor[interopSample]
	ta := reflect.TypeFor[interopSampleA]
	cases := []struct {
		name string
		w, r reflect.Type
		want Verdict
	}{
		{"same type", tf(), tf(), IsAssignable},
		{"appendable, a member appended", ta(), reflect.TypeFor[sampleA2](), IsAssignable},
		{"appendable, a member dropped", reflect.TypeFor[sampleA2](), ta(), IsAssignable},
		{"appendable, bounds differ", ta(), reflect.TypeFor[sampleABounded](), IsAssignable},
		{"appendable, key differs", ta(), reflect.TypeFor[sampleAKeyLess](), NotAssignable},
		{"final, a member appended", tf(), reflect.TypeFor[sampleFinalPlus](), NotAssignable},
		{"final, a member renamed", tf(), reflect.TypeFor[sampleRenamed](), NotAssignable},
		{"final, a member retyped", tf(), reflect.TypeFor[sampleWider](), NotAssignable},
		{"extensibility differs", tf(), ta(), NotAssignable},
		{"mutable, a member added", reflect.TypeFor[xtMut](), reflect.TypeFor[mutPlus](), IsAssignable},
		{"mutable, a member retyped", reflect.TypeFor[xtMut](), reflect.TypeFor[mutRetyped](), NotAssignable},
		{"enum with another enumerator", reflect.TypeFor[xtPainted](), reflect.TypeFor[paintedOther](), NotAssignable},
		{"nested types", reflect.TypeFor[xtNested](), reflect.TypeFor[xtNested](), IsAssignable},
	}
	for _, c := range cases {
		var reg Registry
		wt, rt := buildTypes(t, c.w), buildTypes(t, c.r)
		reg.Add(wt)
		reg.Add(rt)
		cache := Cache{Local: &reg}
		wi, ri := wt.Info(), rt.Info()
		require.Equal(t, c.want, Assignable(&wi, &ri, cache.Resolve), "%s (complete)", c.name)
		require.Equal(t, c.want, Assignable(&ri, &wi, cache.Resolve), "%s (complete, reversed)", c.name)
		wi.Complete, ri.Complete = IDWithDeps{}, IDWithDeps{}
		require.Equal(t, c.want, Assignable(&wi, &ri, cache.Resolve), "%s (minimal)", c.name)
	}
}

// TestAssignableUnknown is Unknown while a TypeObject is missing.
func TestAssignableUnknown(t *testing.T) {
	wt, rt := buildTypes(t, reflect.TypeFor[interopSampleA]()), buildTypes(t, reflect.TypeFor[sampleA2]())
	var reg Registry
	reg.Add(rt)
	cache := Cache{Local: &reg}
	wi, ri := wt.Info(), rt.Info()
	require.Equal(t, Unknown, Assignable(&wi, &ri, cache.Resolve))
	require.Equal(t, IsAssignable, Assignable(&ri, &ri, cache.Resolve), "the same hash needs no TypeObject")
}
