package xtypes

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/cdr"
)

type node struct {
	Value    int32
	Children []node
}

func TestRecursiveNotDescribed(t *testing.T) {
	_, err := cdr.Describe(reflect.TypeFor[node]())
	require.ErrorIs(t, err, cdr.ErrRecursive)
}

func TestTopLevelMustBeAggregate(t *testing.T) {
	_, err := Build(&cdr.Desc{Kind: cdr.KindInt32})
	require.ErrorIs(t, err, ErrUnsupported)
}

// TestNameTag checks that the name= option names the member in both forms: in the
// complete TypeObject by name, in the minimal one by its hash.
func TestNameTag(t *testing.T) {
	type a struct {
		ID int32 `dds:"name=id"`
	}
	type b struct {
		ID int32
	}
	build := func(rt reflect.Type) *Types {
		d, err := cdr.Describe(rt)
		require.NoError(t, err)
		require.Equal(t, "xtypes::"+rt.Name(), d.Name)
		ty, err := Build(d)
		require.NoError(t, err)
		return ty
	}
	ta, tb := build(reflect.TypeFor[a]()), build(reflect.TypeFor[b]())
	h := NameHash("id")
	require.Contains(t, string(ta.MinimalObjects[0].Bytes), string(h[:]))
	require.Contains(t, string(ta.CompleteObjects[0].Bytes), "id\x00")
	require.NotEqual(t, ta.Minimal, tb.Minimal)
	_, err := cdr.NewCodec[struct {
		X int32 `dds:"name="`
	}]()
	require.Error(t, err)
}

// TestInfoRoundTrip parses what Append writes, for a type with dependencies.
func TestInfoRoundTrip(t *testing.T) {
	d, err := cdr.Describe(reflect.TypeFor[xtNested]())
	require.NoError(t, err)
	ty, err := Build(d)
	require.NoError(t, err)
	info := ty.Info()
	require.EqualValues(t, 2, info.Minimal.DependentCount)
	got, err := ParseInfo(info.Append(nil))
	require.NoError(t, err)
	require.Equal(t, info, got)
}

func FuzzParseInfo(f *testing.F) {
	for _, rt := range goldenTypes {
		d, err := cdr.Describe(rt)
		require.NoError(f, err)
		ty, err := Build(d)
		require.NoError(f, err)
		info := ty.Info()
		f.Add(info.Append(nil))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		info, err := ParseInfo(b)
		if err != nil {
			return
		}
		again, err := ParseInfo(info.Append(nil))
		require.NoError(t, err)
		require.Equal(t, info, again)
	})
}

type color int32

type withEnum struct {
	Shade color `dds:"name=shade"`
}

type withAliasSeq struct {
	Values longs `dds:"name=values"`
}

type longs []int32

// TestDefinedTypesNotNamed: a Go defined type is an enum or a typedef in IDL, which the
// TypeObject built from its underlying type does not say.
func TestDefinedTypesNotNamed(t *testing.T) {
	for _, rt := range []reflect.Type{reflect.TypeFor[withEnum](), reflect.TypeFor[withAliasSeq]()} {
		d, err := cdr.Describe(rt)
		require.NoError(t, err)
		require.False(t, Named(d), rt)
	}
	d, err := cdr.Describe(reflect.TypeFor[interopSample]())
	require.NoError(t, err)
	require.True(t, Named(d))
}

type badEnum int32

func (badEnum) DDSEnumerators() ([]string, []int32) { return []string{"A", "B"}, []int32{0} }

type withBadEnum struct {
	E badEnum `dds:"name=e"`
}

// TestEnumDescribed: a Go integer type with DDSEnumerators is an enum with its
// literals; one whose names and values do not pair up is not described exactly.
func TestEnumDescribed(t *testing.T) {
	d, err := cdr.Describe(reflect.TypeFor[xtPainted]())
	require.NoError(t, err)
	c := d.Members[1].Type
	require.Equal(t, cdr.KindEnum, c.Kind)
	require.Equal(t, "xt::Color", c.Name)
	require.Equal(t, 32, c.Bound)
	require.Equal(t, []cdr.Literal{{Name: "RED", Value: 0}, {Name: "GREEN", Value: 1}, {Name: "BLUE", Value: 5}}, c.Literals)
	require.Equal(t, 8, d.Members[2].Type.Bound)
	require.True(t, Named(d))

	d, err = cdr.Describe(reflect.TypeFor[withBadEnum]())
	require.NoError(t, err)
	require.False(t, Named(d))
}
