package main

// A generated struct or union gives its members their IDL names (name= tags) only when
// the Go type describes the IDL type exactly: then ddsgo announces its XTypes
// TypeObjects (internal/xtypes), whose hashes must be those of the peer's own type
// (Cyclone DDS's idlc makes them), or the peer does not match. The IDL constructs whose
// TypeObject the Go type cannot reproduce leave the type without names, so that it is
// not announced and is matched by type name as before.

// exactTypeAnnots are the type annotations that do not change a TypeObject beyond what
// the Go type says (extensibility, sequential member ids).
var exactTypeAnnots = map[string]bool{
	"final": true, "appendable": true, "mutable": true, "extensibility": true,
	"autoid": true, "nested": true, "topic": true,
}

// exactMemberAnnots are the member annotations a TypeObject made from the Go type
// reproduces; idlc puts no @default value in a TypeObject.
var exactMemberAnnots = map[string]bool{"key": true, "id": true, "optional": true, "default": true}

// exactStruct reports whether struct s is described exactly: no base struct (idlc
// names it as base_type, the Go type flattens it), not @nested (a type flag), member ids
// not hashed (a type flag), and exactly described members.
func (g *gen) exactStruct(s *symbol) bool {
	d := s.strct
	if d.base != nil || !onlyAnnots(d.annots, exactTypeAnnots) {
		return false
	}
	if nested, err := g.annotBool(d.annots.find("nested"), s.scope()); err != nil || nested {
		return false
	}
	autoid := s.autoid
	if a := d.annots.find("autoid"); a != nil {
		autoid = annotIdent(a, "SEQUENTIAL")
	}
	if autoid == "HASH" {
		return false
	}
	for _, m := range d.members {
		if !onlyAnnots(m.annots, exactMemberAnnots) {
			return false
		}
		t, err := g.resolve(m.typ, s.scope())
		if err == nil {
			t, err = g.withDims(t, m.decl, s.scope())
		}
		if err != nil || !g.exactType(t, true) {
			return false
		}
	}
	return true
}

// exactUnion reports whether union s is described exactly: an integer or boolean
// discriminator, members without annotations (their ids are then sequential) and of
// exactly described types.
func (g *gen) exactUnion(s *symbol) bool {
	d := s.union
	if !onlyAnnots(d.annots, exactTypeAnnots) || len(d.discAnn) > 0 {
		return false
	}
	if nested, err := g.annotBool(d.annots.find("nested"), s.scope()); err != nil || nested {
		return false
	}
	dt, err := g.resolve(d.discType, s.scope())
	if err != nil || !g.exactType(dt, true) || dt.kind != gPrim && dt.kind != gNamed {
		return false
	}
	for _, c := range d.cases {
		if len(c.member.annots) > 0 {
			return false
		}
		t, err := g.resolve(c.member.typ, s.scope())
		if err == nil {
			t, err = g.withDims(t, c.member.decl, s.scope())
		}
		if err != nil || !g.exactType(t, true) {
			return false
		}
	}
	return true
}

// exactType reports whether the Go form of t describes it exactly. A typedef (a TK_ALIAS
// type object in IDL, a Go alias that reflection cannot see), an enum whose bit bound is
// not its Go size (exactEnum), char (TK_CHAR8, a Go byte like octet) and a bound inside a sequence or array (not
// kept by the Go type) are not; a struct or union is, as far as this member goes (its
// own members decide for it). top is false inside a sequence or array.
func (g *gen) exactType(t *gtype, top bool) bool {
	switch t.kind {
	case gPrim:
		return primGo[t.prim] != "" && t.prim != "char"
	case gString:
		return top || t.bound == 0
	case gSeq:
		return (top || t.bound == 0) && g.exactType(t.elem, false)
	case gArray:
		return g.exactType(t.elem, false)
	case gNamed:
		return t.sym.kind == symStruct || t.sym.kind == symUnion || t.sym.kind == symEnum && g.exactEnum(t.sym)
	default:
		return false
	}
}

// exactEnum reports whether enum s is described exactly: a bit bound of 8, 16 or 32 (the
// size of its Go type; 32 by default) and no annotation on its enumerators but @value.
func (g *gen) exactEnum(s *symbol) bool {
	d := s.enum
	if !onlyAnnots(d.annots, map[string]bool{"bit_bound": true}) {
		return false
	}
	if a := d.annots.find("bit_bound"); a != nil {
		v, err := g.annotInt(a, s.scope())
		if err != nil || v != 8 && v != 16 && v != 32 {
			return false
		}
	}
	for _, e := range d.values {
		if !onlyAnnots(e.annots, map[string]bool{"value": true}) {
			return false
		}
	}
	return true
}

// onlyAnnots reports whether every annotation of as is in allowed.
func onlyAnnots(as annotations, allowed map[string]bool) bool {
	for _, a := range as {
		if !allowed[a.name] {
			return false
		}
	}
	return true
}
