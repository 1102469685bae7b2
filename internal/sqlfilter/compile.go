package sqlfilter

import (
	"cmp"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/ddsgo/ddsgo/internal/errs"
)

// Filter is an expression compiled for one Go struct type with its parameters bound.
// Match evaluates it on a value of that type without allocating. A Filter does not
// change: new parameters are a new Filter (Compile again).
type Filter struct {
	rt     reflect.Type
	expr   string
	params []string
	eval   func(reflect.Value) bool
}

// Expression returns the filter's expression.
func (f *Filter) Expression() string { return f.expr }

// Params returns a copy of the filter's parameters.
func (f *Filter) Params() []string { return append([]string(nil), f.params...) }

// Type returns the struct type the filter was compiled for.
func (f *Filter) Type() reflect.Type { return f.rt }

// Match reports whether v, a value of the filter's type (or a pointer to one),
// satisfies the filter. A member behind a nil optional member or past the end of a
// sequence makes its predicate false.
func (f *Filter) Match(v reflect.Value) bool {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return false
		}
		v = v.Elem()
	}
	return f.eval(v)
}

// class is the kind of value an operand has.
type class uint8

const (
	cBool class = iota + 1
	cInt
	cUint
	cFloat
	cString
)

func (c class) numeric() bool { return c == cInt || c == cUint || c == cFloat }

// scalar is the value of an operand; k says which field holds it.
type scalar struct {
	k class
	b bool
	i int64
	u uint64
	f float64
	s string
}

func (s scalar) float() float64 {
	switch s.k {
	case cInt:
		return float64(s.i)
	case cUint:
		return float64(s.u)
	default:
		return s.f
	}
}

// compare orders two scalars the compiler found comparable.
func compare(a, b scalar) int {
	switch {
	case a.k == cString:
		return strings.Compare(a.s, b.s)
	case a.k == cBool:
		if a.b == b.b {
			return 0
		}
		if b.b {
			return -1
		}
		return 1
	case a.k == cFloat || b.k == cFloat:
		return cmp.Compare(a.float(), b.float())
	case a.k == cInt && b.k == cInt:
		return cmp.Compare(a.i, b.i)
	case a.k == cUint && b.k == cUint:
		return cmp.Compare(a.u, b.u)
	case a.k == cInt: // b unsigned
		if a.i < 0 {
			return -1
		}
		return cmp.Compare(uint64(a.i), b.u)
	default: // a unsigned, b signed
		if b.i < 0 {
			return 1
		}
		return cmp.Compare(a.u, uint64(b.i))
	}
}

// getter reads an operand from a sample; false when the member is absent.
type getter func(reflect.Value) (scalar, bool)

// typed is a resolved operand: its class, the Go type of a member (for enumerators
// and characters), and how to read it; member says whether it is one.
type typed struct {
	cls    class
	t      reflect.Type
	member bool
	get    getter
	konst  scalar
	name   string // of a member, for messages
}

// Compile parses expr and compiles it for values of the struct type rt, with params
// as the values of %0, %1, ... A syntax error, an unknown member, a type mismatch or a
// parameter missing or of the wrong type is an error matching errs.ErrBadParameter
// that names the member or the parameter.
func Compile(rt reflect.Type, expr string, params []string) (*Filter, error) {
	if rt.Kind() != reflect.Struct {
		return nil, errs.New(errs.ErrBadParameter, "filter %q: %v is not a struct", expr, rt)
	}
	n, np, err := parse(expr)
	if err != nil {
		return nil, err
	}
	if len(params) > MaxParams {
		return nil, errs.New(errs.ErrBadParameter, "filter %q: %d parameters, more than %d", expr, len(params), MaxParams)
	}
	if np > len(params) {
		return nil, errs.New(errs.ErrBadParameter, "filter %q: uses %%%d but %d parameters are given", expr, np-1, len(params))
	}
	c := compiler{rt: rt, params: params}
	eval, err := c.node(n)
	if err != nil {
		return nil, errs.Wrap(errs.ErrBadParameter, err, fmt.Sprintf("filter %q", expr))
	}
	return &Filter{rt: rt, expr: expr, params: append([]string(nil), params...), eval: eval}, nil
}

type compiler struct {
	rt     reflect.Type
	params []string
}

func (c *compiler) node(n *node) (func(reflect.Value) bool, error) {
	switch n.kind {
	case nAnd, nOr:
		l, err := c.node(n.l)
		if err != nil {
			return nil, err
		}
		r, err := c.node(n.r)
		if err != nil {
			return nil, err
		}
		if n.kind == nAnd {
			return func(v reflect.Value) bool { return l(v) && r(v) }, nil
		}
		return func(v reflect.Value) bool { return l(v) || r(v) }, nil
	case nNot:
		l, err := c.node(n.l)
		if err != nil {
			return nil, err
		}
		return func(v reflect.Value) bool { return !l(v) }, nil
	case nCompare:
		return c.comparison(n)
	case nBetween:
		return c.between(n)
	default: // nLike
		return c.like(n)
	}
}

// relOp is a comparison operator as a test of compare's result.
func relOp(op string) func(int) bool {
	switch op {
	case "=":
		return func(c int) bool { return c == 0 }
	case "<>", "!=":
		return func(c int) bool { return c != 0 }
	case "<":
		return func(c int) bool { return c < 0 }
	case "<=":
		return func(c int) bool { return c <= 0 }
	case ">":
		return func(c int) bool { return c > 0 }
	default: // ">="
		return func(c int) bool { return c >= 0 }
	}
}

// flipped is op with its operands swapped (5 < x is x > 5).
func flipped(op string) string {
	switch op {
	case "<":
		return ">"
	case "<=":
		return ">="
	case ">":
		return "<"
	case ">=":
		return "<="
	default:
		return op
	}
}

func (c *compiler) comparison(n *node) (func(reflect.Value) bool, error) {
	a, b, err := c.pair(n.a, n.b)
	if err != nil {
		return nil, err
	}
	op := n.op
	if !a.member {
		a, b, op = b, a, flipped(op)
	}
	if a.cls == cBool && op != "=" && op != "<>" && op != "!=" {
		return nil, fmt.Errorf("member %s is a boolean: only = and <> compare it", a.name)
	}
	test := relOp(op)
	ga := a.get
	if b.member {
		gb := b.get
		return func(v reflect.Value) bool {
			x, ok := ga(v)
			if !ok {
				return false
			}
			y, ok := gb(v)
			return ok && test(compare(x, y))
		}, nil
	}
	k := b.konst
	return func(v reflect.Value) bool {
		x, ok := ga(v)
		return ok && test(compare(x, k))
	}, nil
}

func (c *compiler) between(n *node) (func(reflect.Value) bool, error) {
	a, lo, err := c.pair(n.a, n.b)
	if err != nil {
		return nil, err
	}
	_, hi, err := c.pair(n.a, n.c)
	if err != nil {
		return nil, err
	}
	if !a.member || lo.member || hi.member {
		return nil, fmt.Errorf("at %d: BETWEEN takes a member and two values", n.a.pos)
	}
	if a.cls == cBool {
		return nil, fmt.Errorf("member %s is a boolean: BETWEEN does not apply", a.name)
	}
	ga, l, h := a.get, lo.konst, hi.konst
	return func(v reflect.Value) bool {
		x, ok := ga(v)
		return ok && compare(x, l) >= 0 && compare(x, h) <= 0
	}, nil
}

func (c *compiler) like(n *node) (func(reflect.Value) bool, error) {
	a, p, err := c.pair(n.a, n.b)
	if err != nil {
		return nil, err
	}
	if !a.member || p.member || a.cls != cString {
		return nil, fmt.Errorf("at %d: LIKE takes a string member and a pattern", n.a.pos)
	}
	ga, pat := a.get, p.konst.s
	return func(v reflect.Value) bool {
		x, ok := ga(v)
		return ok && like(x.s, pat)
	}, nil
}

// pair resolves the two operands of a predicate: at least one is a member, and the
// other is converted to its class.
func (c *compiler) pair(x, y operand) (typed, typed, error) {
	a, aerr := c.member(x)
	b, berr := c.member(y)
	switch {
	case aerr == nil && berr == nil:
		if err := comparable(a, b); err != nil {
			return a, b, err
		}
		return a, b, nil
	case aerr == nil:
		k, err := c.constant(y, a)
		if err != nil && y.kind == oName && !isEnum(a.t) {
			err = berr // an unknown member rather than an unknown enumerator
		}
		return a, k, err
	case berr == nil:
		k, err := c.constant(x, b)
		if err != nil && x.kind == oName && !isEnum(b.t) {
			err = aerr
		}
		return k, b, err
	case x.kind == oName:
		return a, b, aerr
	case y.kind == oName:
		return a, b, berr
	default:
		return a, b, fmt.Errorf("at %d: a predicate needs a member", x.pos)
	}
}

func comparable(a, b typed) error {
	switch {
	case a.cls.numeric() && b.cls.numeric():
		if isEnum(a.t) && isEnum(b.t) && a.t != b.t {
			return fmt.Errorf("members %s and %s are enums of different types", a.name, b.name)
		}
		return nil
	case a.cls == b.cls:
		return nil
	default:
		return fmt.Errorf("members %s (%v) and %s (%v) cannot be compared", a.name, a.t, b.name, b.t)
	}
}

// member resolves a member path (a.b[2].c) of the struct type.
func (c *compiler) member(o operand) (typed, error) {
	if o.kind != oName {
		return typed{}, fmt.Errorf("at %d: not a member", o.pos)
	}
	type step struct {
		field int
		deref bool
		index int
	}
	var steps []step
	t := c.rt
	for seg := range strings.SplitSeq(o.text, ".") {
		name, idx, err := splitIndex(seg)
		if err != nil {
			return typed{}, fmt.Errorf("at %d: member %s: %w", o.pos, o.text, err)
		}
		if t.Kind() != reflect.Struct {
			return typed{}, fmt.Errorf("at %d: member %s: %v has no members", o.pos, o.text, t)
		}
		f, ok := fieldByName(t, name)
		if !ok {
			return typed{}, fmt.Errorf("at %d: no member %s in %v", o.pos, o.text, t)
		}
		s := step{field: f.Index[0], index: idx}
		t = f.Type
		if t.Kind() == reflect.Pointer {
			s.deref, t = true, t.Elem()
		}
		if idx >= 0 {
			if t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
				return typed{}, fmt.Errorf("at %d: member %s: %s is not a sequence or an array", o.pos, o.text, name)
			}
			t = t.Elem()
		}
		steps = append(steps, s)
	}
	cls := classOf(t)
	if cls == 0 {
		return typed{}, fmt.Errorf("at %d: member %s is a %v, not a boolean, number, enum or string", o.pos, o.text, t)
	}
	walk := func(v reflect.Value) (reflect.Value, bool) {
		for _, s := range steps {
			v = v.Field(s.field)
			if s.deref {
				if v.IsNil() {
					return v, false
				}
				v = v.Elem()
			}
			if s.index >= 0 {
				if s.index >= v.Len() {
					return v, false
				}
				v = v.Index(s.index)
			}
		}
		return v, true
	}
	return typed{cls: cls, t: t, member: true, name: o.text, get: reader(cls, walk)}, nil
}

// reader returns the getter of a member of class cls that walk reaches.
func reader(cls class, walk func(reflect.Value) (reflect.Value, bool)) getter {
	switch cls {
	case cBool:
		return func(v reflect.Value) (scalar, bool) {
			v, ok := walk(v)
			return scalar{k: cBool, b: ok && v.Bool()}, ok
		}
	case cInt:
		return func(v reflect.Value) (scalar, bool) {
			v, ok := walk(v)
			if !ok {
				return scalar{}, false
			}
			return scalar{k: cInt, i: v.Int()}, true
		}
	case cUint:
		return func(v reflect.Value) (scalar, bool) {
			v, ok := walk(v)
			if !ok {
				return scalar{}, false
			}
			return scalar{k: cUint, u: v.Uint()}, true
		}
	case cFloat:
		return func(v reflect.Value) (scalar, bool) {
			v, ok := walk(v)
			if !ok {
				return scalar{}, false
			}
			return scalar{k: cFloat, f: v.Float()}, true
		}
	default:
		return func(v reflect.Value) (scalar, bool) {
			v, ok := walk(v)
			if !ok {
				return scalar{}, false
			}
			return scalar{k: cString, s: v.String()}, true
		}
	}
}

// splitIndex splits "name[3]" into its name and index (-1 without one).
func splitIndex(seg string) (string, int, error) {
	if seg == "" {
		return "", 0, fmt.Errorf("empty name")
	}
	i := strings.IndexByte(seg, '[')
	if i < 0 {
		return seg, -1, nil
	}
	if i == 0 || !strings.HasSuffix(seg, "]") {
		return "", 0, fmt.Errorf("bad index in %s", seg)
	}
	n, err := strconv.Atoi(seg[i+1 : len(seg)-1])
	if err != nil || n < 0 || strings.Contains(seg[i+1:len(seg)-1], "[") {
		return "", 0, fmt.Errorf("bad index in %s", seg)
	}
	return seg[:i], n, nil
}

// fieldByName finds the serialized field of t that an IDL member name denotes: the
// same name, or else the one whose name is the same ignoring case and underscores
// (IDL id is Go ID, my_field is MyField), when only one is.
func fieldByName(t reflect.Type, name string) (reflect.StructField, bool) {
	var found reflect.StructField
	n := 0
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() || skipped(f) {
			continue
		}
		if f.Name == name {
			return f, true
		}
		if fold(f.Name) == fold(name) {
			found = f
			n++
		}
	}
	return found, n == 1
}

func skipped(f reflect.StructField) bool {
	for o := range strings.SplitSeq(f.Tag.Get("dds"), ",") {
		if strings.TrimSpace(o) == "-" {
			return true
		}
	}
	return false
}

func fold(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }

// classOf returns the class of a member type, 0 for one a filter cannot compare.
func classOf(t reflect.Type) class {
	switch t.Kind() {
	case reflect.Bool:
		return cBool
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int:
		if t.PkgPath() == "time" { // time.Duration is a struct on the wire
			return 0
		}
		return cInt
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uint:
		return cUint
	case reflect.Float32, reflect.Float64:
		return cFloat
	case reflect.String:
		return cString
	default:
		return 0
	}
}

var stringer = reflect.TypeFor[fmt.Stringer]()

// isEnum reports whether t is an enum: a named integer type with a String method
// (what cmd/ddsgen generates).
func isEnum(t reflect.Type) bool {
	return t != nil && t.Name() != "" && t.PkgPath() != "" && classOf(t).numeric() && classOf(t) != cFloat && t.Implements(stringer)
}

// constant converts a literal or a parameter to a value comparable with member m.
func (c *compiler) constant(o operand, m typed) (typed, error) {
	if o.kind == oParam {
		text := c.params[o.param]
		l := lexer{src: text}
		t, err := l.next()
		if err == nil {
			var end token
			end, err = l.next()
			if err == nil && end.kind != tEOF {
				err = errAt(end.pos, "more than one value")
			}
		}
		lit, ok := literal(t)
		lit.pos = o.pos
		if !ok {
			err = errAt(t.pos, "not a value")
		}
		if err == nil {
			var k typed
			if k, err = c.literal(lit, m); err == nil {
				return k, nil
			}
		}
		if m.cls == cString { // a bare string
			return typed{cls: cString, konst: scalar{k: cString, s: text}}, nil
		}
		return typed{}, fmt.Errorf("parameter %%%d (%q) for member %s: %w", o.param, text, m.name, err)
	}
	return c.literal(o, m)
}

// literal converts a literal to a value comparable with member m.
func (c *compiler) literal(o operand, m typed) (typed, error) {
	k := typed{cls: m.cls}
	mismatch := func() (typed, error) {
		return typed{}, fmt.Errorf("at %d: member %s is a %v: %s is not one", o.pos, m.name, m.t, o.text)
	}
	switch o.kind {
	case oInt:
		if !m.cls.numeric() {
			return mismatch()
		}
		if i, err := strconv.ParseInt(o.text, 0, 64); err == nil {
			k.konst = scalar{k: cInt, i: i}
		} else if u, err := strconv.ParseUint(strings.TrimPrefix(o.text, "+"), 0, 64); err == nil {
			k.konst = scalar{k: cUint, u: u}
		} else {
			return typed{}, fmt.Errorf("at %d: %s: out of range", o.pos, o.text)
		}
	case oFloat:
		f, err := strconv.ParseFloat(o.text, 64)
		if err != nil || !m.cls.numeric() || isEnum(m.t) {
			return mismatch()
		}
		k.konst = scalar{k: cFloat, f: f}
	case oBool:
		if m.cls != cBool {
			return mismatch()
		}
		k.konst = scalar{k: cBool, b: o.text == "TRUE"}
	case oString, oName:
		return c.text(o, m, mismatch)
	default:
		return mismatch()
	}
	return k, nil
}

// text converts a string literal or a name: a string, a character (a one-character
// string for an 8-bit member) or an enumerator.
func (c *compiler) text(o operand, m typed, mismatch func() (typed, error)) (typed, error) {
	k := typed{cls: m.cls}
	switch {
	case isEnum(m.t):
		v, ok := enumerators(m.t)[o.text]
		if !ok {
			return typed{}, fmt.Errorf("at %d: %s is not an enumerator of %v (member %s)", o.pos, o.text, m.t, m.name)
		}
		k.konst = scalar{k: cInt, i: v}
		if m.cls == cUint {
			k.konst = scalar{k: cUint, u: uint64(v)}
		}
	case o.kind == oString && m.cls == cString:
		k.konst = scalar{k: cString, s: o.text}
	case o.kind == oString && m.t.Size() == 1 && m.cls != cBool && len(o.text) == 1:
		k.konst = scalar{k: cUint, u: uint64(o.text[0])}
	default:
		return mismatch()
	}
	return k, nil
}

// enumProbe bounds the values enumerators tries.
const enumProbe = 1 << 12

var enumCache sync.Map // reflect.Type -> map[string]int64

// enumerators returns the names of the enum type t: the String of each value from
// -enumProbe to enumProbe that is an identifier.
func enumerators(t reflect.Type) map[string]int64 {
	if m, ok := enumCache.Load(t); ok {
		return m.(map[string]int64)
	}
	m := map[string]int64{}
	v := reflect.New(t).Elem()
	lo := int64(-enumProbe)
	if classOf(t) == cUint {
		lo = 0
	}
	for i := lo; i <= enumProbe; i++ {
		if classOf(t) == cUint {
			if v.OverflowUint(uint64(i)) {
				continue
			}
			v.SetUint(uint64(i))
		} else {
			if v.OverflowInt(i) {
				continue
			}
			v.SetInt(i)
		}
		name := v.Interface().(fmt.Stringer).String()
		if _, dup := m[name]; !dup && isIdent(name) {
			m[name] = i
		}
	}
	enumCache.Store(t, m)
	return m
}

func isIdent(s string) bool {
	if s == "" || !isLetter(s[0]) {
		return false
	}
	for i := range len(s) {
		if !isLetter(s[i]) && !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// like reports whether s matches the LIKE pattern p: % is any run of characters,
// _ one character.
func like(s, p string) bool {
	si, pi := 0, 0
	starP, starS := -1, 0
	for si < len(s) {
		if pi < len(p) {
			switch c := p[pi]; c {
			case '%':
				starP, starS = pi, si
				pi++
				continue
			case '_':
				_, n := utf8.DecodeRuneInString(s[si:])
				si += n
				pi++
				continue
			case s[si]:
				si++
				pi++
				continue
			}
		}
		if starP < 0 {
			return false
		}
		_, n := utf8.DecodeRuneInString(s[starS:])
		starS += n
		si, pi = starS, starP+1
	}
	for pi < len(p) && p[pi] == '%' {
		pi++
	}
	return pi == len(p)
}
