package sqlfilter

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ddsgo/ddsgo/internal/errs"
	"github.com/stretchr/testify/require"
)

type Kind int32

const (
	KindCircle Kind = 0
	KindSquare Kind = 1
	KindStar   Kind = 7
)

func (k Kind) String() string {
	switch k {
	case KindCircle:
		return "CIRCLE"
	case KindSquare:
		return "SQUARE"
	case KindStar:
		return "STAR"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

type Point struct{ X, Y int32 }

type Shape struct {
	Color   string `dds:"key"`
	X, Y    int32
	Size    uint32
	Weight  float64
	Ok      bool
	Kind    Kind
	Pos     Point
	Opt     *Point
	Tags    []string
	Arr     [3]int16
	C       uint8
	Big     uint64
	MyField int32
	Hidden  int32 `dds:"-"`
}

func shape() Shape {
	return Shape{
		Color: "BLUE", X: 10, Y: 20, Size: 30, Weight: 1.5, Ok: true, Kind: KindSquare,
		Pos: Point{X: 3, Y: 4}, Tags: []string{"a", "bc"}, Arr: [3]int16{-1, 0, 1}, C: 'z',
		Big: 1 << 63, MyField: 9,
	}
}

func TestFilterGrammar(t *testing.T) {
	s := shape()
	for _, c := range []struct {
		expr   string
		params []string
		want   bool
	}{
		// DDS 1.4 Annex B shapes of predicates.
		{"X = 10", nil, true},
		{"x = 10", nil, true}, // IDL member x is Go field X
		{"X <> 10", nil, false},
		{"X != 10", nil, false},
		{"X > 5 AND Y < %0", []string{"21"}, true},
		{"X > 5 AND Y < %0", []string{"20"}, false},
		{"%0 < X", []string{"9"}, true},
		{"5 >= X", nil, false},
		{"X < Y", nil, true},
		{"X >= Y OR Size = 30", nil, true},
		{"NOT X = 10", nil, false},
		{"NOT (X = 1 OR Y = 1)", nil, true},
		{"X = 1 OR Y = 20 AND Size = 30", nil, true}, // AND binds tighter
		{"(X = 1 OR Y = 20) AND Size = 31", nil, false},
		{"X BETWEEN 10 AND 11", nil, true},
		{"X BETWEEN %0 AND %1", []string{"11", "12"}, false},
		{"X NOT BETWEEN 11 AND 12", nil, true},
		{"Weight BETWEEN 1.4 AND 1.6", nil, true},
		{"Weight > 1", nil, true},
		{"Weight < 1.5e0", nil, false},
		{"Color = 'BLUE'", nil, true},
		{"color = %0", []string{"'BLUE'"}, true},
		{"color = %0", []string{"BLUE"}, true}, // a bare string parameter
		{"Color < 'C'", nil, true},
		{"Color LIKE 'B%'", nil, true},
		{"Color LIKE 'B_UE'", nil, true},
		{"Color LIKE '%U%'", nil, true},
		{"Color LIKE 'b%'", nil, false},
		{"Color NOT LIKE 'R%'", nil, true},
		{"Color LIKE %0", []string{"'%E'"}, true},
		{"Ok = TRUE", nil, true},
		{"Ok = false", nil, false},
		{"Kind = SQUARE", nil, true},
		{"Kind = 'SQUARE'", nil, true},
		{"Kind <> STAR", nil, true},
		{"Kind = 1", nil, true},
		{"Kind = %0", []string{"SQUARE"}, true},
		{"Kind BETWEEN CIRCLE AND SQUARE", nil, true},
		{"Pos.X = 3 AND pos.y = 4", nil, true},
		{"Opt.X = 3", nil, false},     // nil optional: false
		{"NOT Opt.X = 3", nil, true},  // and its negation true
		{"Tags[1] = 'bc'", nil, true}, // index
		{"Tags[2] = 'bc'", nil, false},
		{"Arr[0] < 0 AND Arr[2] > 0", nil, true},
		{"C = 'z'", nil, true},
		{"Big > 0", nil, true},
		{"Big > -1", nil, true},
		{"Big = 9223372036854775808", nil, true},
		{"X > -1", nil, true},
		{"X = 0xa", nil, true},
		{"my_field = 9", nil, true},
		{"X=10 AND(Y=20)", nil, true},
		{"x = 10 and y = 20 or not ok = true", nil, true}, // keywords in any case
	} {
		f, err := Compile(reflect.TypeFor[Shape](), c.expr, c.params)
		require.NoError(t, err, c.expr)
		require.Equal(t, c.want, f.Match(reflect.ValueOf(&s)), "%s %v", c.expr, c.params)
		require.Equal(t, c.want, f.Match(reflect.ValueOf(s)), "%s %v", c.expr, c.params)
	}
}

func TestFilterErrors(t *testing.T) {
	for _, c := range []struct {
		expr   string
		params []string
		says   string
	}{
		{"", nil, "expected a member"},
		{"X =", nil, "expected a member"},
		{"X = 1 AND", nil, "expected a member"},
		{"X == 1", nil, "expected a member"},
		{"(X = 1", nil, "expected ')'"},
		{"X = 1)", nil, "unexpected"},
		{"X = 'abc", nil, "unterminated"},
		{"X = %100", nil, "%0 to %99"},
		{"X = %", nil, "%0 to %99"},
		{"X = #", nil, "unexpected"},
		{"X BETWEEN 1 OR 2", nil, "expected AND"},
		{"X NOT = 1", nil, "BETWEEN or LIKE"},
		{"Nope = 1", nil, "no member Nope"},
		{"Hidden = 1", nil, "no member Hidden"},
		{"Pos.Z = 1", nil, "no member Pos.Z"},
		{"Pos = 1", nil, "member Pos is a"},
		{"Tags = 'a'", nil, "member Tags is a"},
		{"X[0] = 1", nil, "not a sequence"},
		{"X = 'abc'", nil, "member X is a int32"},
		{"Color = 1", nil, "member Color is a string"},
		{"Ok > TRUE", nil, "only = and <>"},
		{"Ok = 1", nil, "member Ok is a bool"},
		{"Kind = TRIANGLE", nil, "not an enumerator"},
		{"Kind = 1.5", nil, "member Kind"},
		{"X = Color", nil, "cannot be compared"},
		{"1 = 1", nil, "needs a member"},
		{"X LIKE 'a'", nil, "member X is a int32"},
		{"X = %1", []string{"1"}, "uses %1 but 1 parameters"},
		{"X = %0", []string{"abc"}, "parameter %0"},
		{"X = %0", []string{"1 2"}, "parameter %0"},
		{"X = 99999999999999999999999", nil, "out of range"},
		{strings.Repeat("(", 100) + "X = 1" + strings.Repeat(")", 100), nil, "nested"},
		{strings.Repeat("NOT ", 100) + "X = 1", nil, "nested"},
	} {
		_, err := Compile(reflect.TypeFor[Shape](), c.expr, c.params)
		require.Error(t, err, c.expr)
		require.True(t, errors.Is(err, errs.ErrBadParameter), "%s: %v", c.expr, err)
		require.Contains(t, err.Error(), c.says, c.expr)
	}
	_, err := Compile(reflect.TypeFor[int](), "X = 1", nil)
	require.ErrorIs(t, err, errs.ErrBadParameter)
}

func TestCheck(t *testing.T) {
	n, err := Check("a.b[1] = %3 OR c LIKE %0")
	require.NoError(t, err)
	require.Equal(t, 4, n)
	_, err = Check("a = ")
	require.ErrorIs(t, err, errs.ErrBadParameter)
}

func TestLike(t *testing.T) {
	for _, c := range []struct {
		s, p string
		want bool
	}{
		{"", "", true},
		{"", "%", true},
		{"a", "", false},
		{"abc", "a%c", true},
		{"abc", "a_c", true},
		{"abc", "a_", false},
		{"abcbc", "%bc", true},
		{"aXbXc", "a%b%c", true},
		{"ac", "a%b%c", false},
		{"héllo", "h_llo", true},
		{"mississippi", "m%iss%pi", true},
		{"abc", "%%%", true},
		{"abc", "ABC", false},
	} {
		require.Equal(t, c.want, like(c.s, c.p), "%q LIKE %q", c.s, c.p)
	}
}

func TestMatchAllocs(t *testing.T) {
	f, err := Compile(reflect.TypeFor[Shape](), "(X BETWEEN 1 AND 20 OR Color LIKE 'B%') AND Kind = SQUARE AND Tags[1] = %0 AND Pos.Y > 1", []string{"'bc'"})
	require.NoError(t, err)
	s := shape()
	require.True(t, f.Match(reflect.ValueOf(&s)))
	n := testing.AllocsPerRun(100, func() {
		if !f.Match(reflect.ValueOf(&s)) {
			t.Fatal("no match")
		}
	})
	require.Zero(t, n)
}

func FuzzCompile(f *testing.F) {
	for _, s := range []string{
		"X = 10", "X > 5 AND Y < %0", "Color LIKE 'B%'", "NOT (Kind = SQUARE OR Pos.X BETWEEN 1 AND %1)",
		"Tags[1] = 'a''b'", "Weight >= -1.5e3", "Big <> 0x10", "((X=1))",
	} {
		f.Add(s, "7", "'x'")
	}
	s := shape()
	f.Fuzz(func(t *testing.T, expr, p0, p1 string) {
		flt, err := Compile(reflect.TypeFor[Shape](), expr, []string{p0, p1})
		if err != nil {
			require.ErrorIs(t, err, errs.ErrBadParameter)
			return
		}
		flt.Match(reflect.ValueOf(&s))
		flt.Match(reflect.ValueOf(&Shape{}))
	})
}

func BenchmarkMatch(b *testing.B) {
	f, err := Compile(reflect.TypeFor[Shape](), "X > 5 AND Color LIKE 'B%' AND Kind = SQUARE", nil)
	require.NoError(b, err)
	s := shape()
	b.ReportAllocs()
	for b.Loop() {
		f.Match(reflect.ValueOf(&s))
	}
}
