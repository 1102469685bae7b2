package main

import "strings"

// scopedName is a possibly qualified IDL name: a::b::C, or ::a::C when abs.
type scopedName struct {
	at    pos
	abs   bool
	parts []string
}

func (n scopedName) String() string {
	s := strings.Join(n.parts, "::")
	if n.abs {
		return "::" + s
	}
	return s
}

// annotation is an applied annotation: @name, @name(expr) or @name(k=expr, ...).
type annotation struct {
	at     pos
	name   string
	value  expr            // the single unnamed parameter, or nil
	params map[string]expr // named parameters
}

type annotations []annotation

func (as annotations) find(name string) *annotation {
	for i := range as {
		if as[i].name == name {
			return &as[i]
		}
	}
	return nil
}

// typeKind is the shape of a type specification.
type typeKind uint8

const (
	tyPrim   typeKind = iota // a basic type: prim names it
	tyString                 // string, bounded when bound is set
	tySeq                    // sequence<elem> or sequence<elem, bound>
	tyNamed                  // a scoped name of a typedef, struct, union or enum
)

// typeSpec is a type as written in IDL.
type typeSpec struct {
	at    pos
	kind  typeKind
	prim  string // IDL basic type, normalized: "long", "unsigned long long", "octet", ...
	bound expr
	elem  *typeSpec
	name  scopedName
}

// declarator is a name with optional array dimensions.
type declarator struct {
	at   pos
	name string
	dims []expr
}

// decl is a declaration inside a module or the file.
type decl interface{ declPos() pos }

type moduleDecl struct {
	at     pos
	name   string
	annots annotations
	decls  []decl
}

type member struct {
	at     pos
	annots annotations
	typ    *typeSpec
	decl   declarator
}

type structDecl struct {
	at      pos
	name    string
	annots  annotations
	fwd     bool
	base    *scopedName
	members []member
}

type unionCase struct {
	at        pos
	labels    []expr
	isDefault bool
	member    member
}

type unionDecl struct {
	at       pos
	name     string
	annots   annotations
	fwd      bool
	discType *typeSpec
	discAnn  annotations
	cases    []unionCase
}

type enumerator struct {
	at     pos
	name   string
	annots annotations
}

type enumDecl struct {
	at     pos
	name   string
	annots annotations
	values []enumerator
}

type typedefDecl struct {
	at     pos
	annots annotations
	typ    *typeSpec
	decls  []declarator
}

type constDecl struct {
	at     pos
	annots annotations
	typ    *typeSpec
	name   string
	value  expr
}

// pragmaDecl is a #pragma the generator looks at (keylist), in the scope it appeared in.
type pragmaDecl struct {
	at   pos
	text string
}

func (d *moduleDecl) declPos() pos  { return d.at }
func (d *structDecl) declPos() pos  { return d.at }
func (d *unionDecl) declPos() pos   { return d.at }
func (d *enumDecl) declPos() pos    { return d.at }
func (d *typedefDecl) declPos() pos { return d.at }
func (d *constDecl) declPos() pos   { return d.at }
func (d *pragmaDecl) declPos() pos  { return d.at }

// expr is a constant expression.
type expr interface{ exprPos() pos }

type litExpr struct {
	tok token
}

type nameExpr struct {
	name scopedName
}

type unaryExpr struct {
	at pos
	op string
	x  expr
}

type binaryExpr struct {
	at   pos
	op   string
	x, y expr
}

func (e *litExpr) exprPos() pos    { return e.tok.at }
func (e *nameExpr) exprPos() pos   { return e.name.at }
func (e *unaryExpr) exprPos() pos  { return e.at }
func (e *binaryExpr) exprPos() pos { return e.at }
