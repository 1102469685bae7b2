package main

import (
	"crypto/md5"
	"encoding/binary"
	"fmt"
	"strings"
)

type symKind uint8

const (
	symModule symKind = iota
	symStruct
	symUnion
	symEnum
	symTypedef
	symConst
	symEnumerator
)

func (k symKind) String() string {
	return [...]string{"module", "struct", "union", "enum", "typedef", "constant", "enumerator"}[k]
}

// symbol is a named IDL declaration.
type symbol struct {
	kind   symKind
	at     pos
	path   []string // the scoped name's components
	goName string

	strct  *structDecl
	union  *unionDecl
	enum   *enumDecl
	td     *typedefDecl
	tdDecl declarator
	cnst   *constDecl
	autoid string // the @autoid default of the enclosing modules

	parent *symbol // symEnumerator: its enum
	value  int64   // symEnumerator: its value

	typ       *gtype    // symTypedef, symConst: the resolved type
	cval      *constVal // symConst: the value, once computed
	resolving bool      // against cycles
}

func (s *symbol) scopedName() string { return strings.Join(s.path, "::") }
func (s *symbol) scope() []string    { return s.path[:len(s.path)-1] }

// gkind is the shape of a resolved type.
type gkind uint8

const (
	gPrim gkind = iota
	gString
	gSeq
	gArray
	gNamed
)

// gtype is a resolved type.
type gtype struct {
	kind  gkind
	prim  string
	bound int64   // gString, gSeq; 0 is unbounded
	dims  []int64 // gArray
	elem  *gtype  // gSeq, gArray
	sym   *symbol // gNamed
}

// underlying follows typedefs.
func (t *gtype) underlying() *gtype {
	for i := 0; t.kind == gNamed && t.sym.kind == symTypedef && t.sym.typ != nil && i < 1000; i++ {
		t = t.sym.typ
	}
	return t
}

func (t *gtype) idl() string {
	switch t.kind {
	case gPrim:
		return t.prim
	case gString:
		if t.bound > 0 {
			return fmt.Sprintf("string<%d>", t.bound)
		}
		return "string"
	case gSeq:
		if t.bound > 0 {
			return fmt.Sprintf("sequence<%s, %d>", t.elem.idl(), t.bound)
		}
		return "sequence<" + t.elem.idl() + ">"
	case gArray:
		s := t.elem.idl()
		for _, d := range t.dims {
			s += fmt.Sprintf("[%d]", d)
		}
		return s
	default:
		return t.sym.scopedName()
	}
}

// primGo are the Go types of the IDL basic types (internal/cdr's mapping).
var primGo = map[string]string{
	"short": "int16", "unsigned short": "uint16", "long": "int32", "unsigned long": "uint32",
	"long long": "int64", "unsigned long long": "uint64", "int8": "int8", "uint8": "uint8",
	"octet": "byte", "char": "byte", "boolean": "bool", "float": "float32", "double": "float64",
}

func (t *gtype) goType() string {
	switch t.kind {
	case gPrim:
		return primGo[t.prim]
	case gString:
		return "string"
	case gSeq:
		return "[]" + t.elem.goType()
	case gArray:
		s := ""
		for _, d := range t.dims {
			s += fmt.Sprintf("[%d]", d)
		}
		return s + t.elem.goType()
	default:
		return t.sym.goName
	}
}

// collect walks the declarations and enters every named one into the symbol table.
func (g *gen) collect(decls []decl, scope []string, autoid string) error {
	for _, d := range decls {
		if err := g.collectOne(d, scope, autoid); err != nil {
			return err
		}
	}
	return nil
}

func path(scope []string, name string) []string {
	return append(append([]string(nil), scope...), name)
}

func (g *gen) collectOne(d decl, scope []string, autoid string) error {
	switch d := d.(type) {
	case *moduleDecl:
		p := path(scope, d.name)
		key := strings.Join(p, "::")
		if s, ok := g.syms[key]; ok && s.kind != symModule {
			return errAt(d.at, "module %s redefines the %s at %s", key, s.kind, s.at)
		} else if !ok {
			g.syms[key] = &symbol{kind: symModule, at: d.at, path: p}
		}
		if a := d.annots.find("autoid"); a != nil {
			autoid = annotIdent(a, "SEQUENTIAL")
		}
		return g.collect(d.decls, p, autoid)
	case *structDecl:
		if d.fwd {
			return g.forward(d.at, path(scope, d.name), symStruct)
		}
		return g.define(&symbol{kind: symStruct, at: d.at, path: path(scope, d.name), strct: d, autoid: autoid})
	case *unionDecl:
		if d.fwd {
			return g.forward(d.at, path(scope, d.name), symUnion)
		}
		return g.define(&symbol{kind: symUnion, at: d.at, path: path(scope, d.name), union: d})
	case *enumDecl:
		es := &symbol{kind: symEnum, at: d.at, path: path(scope, d.name), enum: d}
		if err := g.define(es); err != nil {
			return err
		}
		return g.collectEnumerators(es, scope)
	case *typedefDecl:
		for _, dd := range d.decls {
			if err := g.define(&symbol{kind: symTypedef, at: dd.at, path: path(scope, dd.name), td: d, tdDecl: dd}); err != nil {
				return err
			}
		}
	case *constDecl:
		return g.define(&symbol{kind: symConst, at: d.at, path: path(scope, d.name), cnst: d})
	case *pragmaDecl:
		g.pragmas = append(g.pragmas, scopedPragma{d, scope})
	}
	return nil
}

// collectEnumerators enters an enum's enumerators, in the enum's enclosing scope (IDL
// 3.5 and idlc) and in the enum's own scope (IDL 4 style Color::RED).
func (g *gen) collectEnumerators(es *symbol, scope []string) error {
	d := es.enum
	next := int64(0)
	seen := map[string]bool{}
	values := map[int64]string{}
	for _, e := range d.values {
		v := next
		if a := e.annots.find("value"); a != nil {
			cv, err := g.annotInt(a, scope)
			if err != nil {
				return err
			}
			v = cv
		}
		if seen[e.name] {
			return errAt(e.at, "enumerator %s twice", e.name)
		}
		seen[e.name] = true
		if prev, dup := values[v]; dup {
			return errAt(e.at, "enumerators %s and %s of %s have the same value %d", e.name, prev, d.name, v)
		}
		values[v] = e.name
		next = v + 1
		sym := &symbol{kind: symEnumerator, at: e.at, path: path(scope, e.name), parent: es, value: v}
		if err := g.define(sym); err != nil {
			return err
		}
		g.syms[strings.Join(path(es.path, e.name), "::")] = sym
	}
	return nil
}

// forward records a forward declaration; the definition must follow somewhere.
func (g *gen) forward(at pos, p []string, kind symKind) error {
	key := strings.Join(p, "::")
	if s, ok := g.syms[key]; ok && s.kind != kind {
		return errAt(at, "%s redeclares the %s at %s", key, s.kind, s.at)
	}
	g.fwds[key] = at
	return nil
}

func (g *gen) define(s *symbol) error {
	key := s.scopedName()
	if prev, ok := g.syms[key]; ok {
		return errAt(s.at, "%s redefines the %s at %s", key, prev.kind, prev.at)
	}
	if prev, ok := g.folded[strings.ToLower(key)]; ok {
		return errAt(s.at, "%s and the %s %s at %s differ only in case", key, prev.kind, prev.scopedName(), prev.at)
	}
	g.folded[strings.ToLower(key)] = s
	if at, ok := g.fwds[key]; ok && s.kind != symStruct && s.kind != symUnion {
		return errAt(s.at, "%s was forward declared as a struct or union at %s", key, at)
	}
	g.syms[key] = s
	g.order = append(g.order, s)
	return nil
}

// lookup resolves a name as seen from scope: the scope itself, then each enclosing one.
func (g *gen) lookup(scope []string, n scopedName) (*symbol, error) {
	name := strings.Join(n.parts, "::")
	if n.abs {
		if s, ok := g.syms[name]; ok {
			return s, nil
		}
		return nil, errAt(n.at, "undefined name %s", n)
	}
	for i := len(scope); i >= 0; i-- {
		key := name
		if i > 0 {
			key = strings.Join(scope[:i], "::") + "::" + name
		}
		if s, ok := g.syms[key]; ok {
			return s, nil
		}
	}
	return nil, errAt(n.at, "undefined name %s", n)
}

// resolve turns a type specification into a resolved type, evaluating bounds.
func (g *gen) resolve(ts *typeSpec, scope []string) (*gtype, error) {
	switch ts.kind {
	case tyPrim:
		return &gtype{kind: gPrim, prim: ts.prim}, nil
	case tyString:
		b, err := g.bound(ts.bound, scope)
		return &gtype{kind: gString, bound: b}, err
	case tySeq:
		elem, err := g.resolve(ts.elem, scope)
		if err != nil {
			return nil, err
		}
		b, err := g.bound(ts.bound, scope)
		return &gtype{kind: gSeq, elem: elem, bound: b}, err
	default: // a name, below
	}
	sym, err := g.lookup(scope, ts.name)
	if err != nil {
		if _, fwd := g.fwds[g.key(scope, ts.name)]; fwd {
			return nil, errAt(ts.at, "%s is declared but never defined", ts.name)
		}
		return nil, err
	}
	switch sym.kind {
	case symStruct, symUnion, symEnum:
		return &gtype{kind: gNamed, sym: sym}, nil
	case symTypedef:
		if err := g.resolveTypedef(sym); err != nil {
			return nil, err
		}
		return &gtype{kind: gNamed, sym: sym}, nil
	default:
		return nil, errAt(ts.at, "%s is a %s, not a type", ts.name, sym.kind)
	}
}

// key is the table key a forward declaration of n in scope would have.
func (g *gen) key(scope []string, n scopedName) string {
	for i := len(scope); i >= 0; i-- {
		k := strings.Join(append(append([]string(nil), scope[:i]...), n.parts...), "::")
		if _, ok := g.fwds[k]; ok {
			return k
		}
	}
	return ""
}

func (g *gen) resolveTypedef(s *symbol) error {
	if s.typ != nil {
		return nil
	}
	if s.resolving {
		return errAt(s.at, "typedef %s refers to itself", s.scopedName())
	}
	s.resolving = true
	defer func() { s.resolving = false }()
	t, err := g.resolve(s.td.typ, s.scope())
	if err != nil {
		return err
	}
	t, err = g.withDims(t, s.tdDecl, s.scope())
	if err != nil {
		return err
	}
	s.typ = t
	return nil
}

// withDims makes t an array when the declarator has dimensions.
func (g *gen) withDims(t *gtype, d declarator, scope []string) (*gtype, error) {
	if len(d.dims) == 0 {
		return t, nil
	}
	a := &gtype{kind: gArray, elem: t}
	for _, e := range d.dims {
		n, err := g.bound(e, scope)
		if err != nil {
			return nil, err
		}
		a.dims = append(a.dims, n)
	}
	return a, nil
}

// bound evaluates a positive bound (0 when e is nil).
func (g *gen) bound(e expr, scope []string) (int64, error) {
	if e == nil {
		return 0, nil
	}
	v, err := g.eval(e, scope)
	if err != nil {
		return 0, err
	}
	if v.kind != cvInt || v.i.Sign() <= 0 || v.i.BitLen() > 31 {
		return 0, errAt(e.exprPos(), "a bound must be a positive integer below 2^31")
	}
	return v.i.Int64(), nil
}

// constValue evaluates a constant declaration, once.
func (g *gen) constValue(s *symbol) (constVal, error) {
	if s.cval != nil {
		return *s.cval, nil
	}
	if s.resolving {
		return constVal{}, errAt(s.at, "constant %s refers to itself", s.scopedName())
	}
	s.resolving = true
	defer func() { s.resolving = false }()
	t, err := g.resolve(s.cnst.typ, s.scope())
	if err != nil {
		return constVal{}, err
	}
	v, err := g.eval(s.cnst.value, s.scope())
	if err != nil {
		return v, err
	}
	v, err = convert(s.cnst.value.exprPos(), v, t)
	if err != nil {
		return v, err
	}
	s.typ, s.cval = t, &v
	return v, nil
}

// annotIdent returns the identifier parameter of an annotation such as
// @extensibility(APPENDABLE), or def when it has none.
func annotIdent(a *annotation, def string) string {
	if n, ok := a.value.(*nameExpr); ok && len(n.name.parts) == 1 {
		return n.name.parts[0]
	}
	return def
}

// annotBool returns the boolean parameter of an annotation like @key or @key(FALSE).
func (g *gen) annotBool(a *annotation, scope []string) (bool, error) {
	if a == nil {
		return false, nil
	}
	if a.value == nil {
		return true, nil
	}
	v, err := g.eval(a.value, scope)
	if err != nil {
		return false, err
	}
	if v.kind != cvBool {
		return false, errAt(a.at, "@%s takes TRUE or FALSE", a.name)
	}
	return v.b, nil
}

func (g *gen) annotInt(a *annotation, scope []string) (int64, error) {
	if a.value == nil {
		return 0, errAt(a.at, "@%s needs a value", a.name)
	}
	v, err := g.eval(a.value, scope)
	if err != nil {
		return 0, err
	}
	if v.kind != cvInt || !v.i.IsInt64() {
		return 0, errAt(a.at, "@%s takes an integer", a.name)
	}
	return v.i.Int64(), nil
}

// hashID is the member id @hashid gives a name (DDS-XTypes 1.3 §7.3.1.2.1.1): the first
// four bytes of the name's MD5 digest, little endian, masked to 28 bits.
func hashID(name string) uint32 {
	sum := md5.Sum([]byte(name))
	return binary.LittleEndian.Uint32(sum[:4]) & 0x0fffffff
}
