package main

import (
	"math/big"
	"strings"
)

// parser reads the IDL grammar of the subset ddsgen maps (IDL 4.2 building blocks Core
// Data Types, Anonymous Types and Annotations, without interfaces) by recursive descent.
type parser struct {
	s     *stream
	buf   []token // lookahead
	angle int     // inside <...> of a template type: '>>' closes, not shifts
	paren int
	depth int // nesting, against stack exhaustion on hostile input
}

const maxDepth = 200

// unsupported are keywords of IDL constructs ddsgen does not map.
var unsupported = map[string]string{
	"interface": "interfaces", "valuetype": "value types", "abstract": "abstract types",
	"local": "local interfaces", "exception": "exceptions", "native": "native types",
	"bitset": "bitsets", "bitmask": "bitmasks", "map": "maps", "wchar": "wchar",
	"wstring": "wstring", "fixed": "fixed", "any": "any", "Object": "Object",
	"ValueBase": "ValueBase", "eventtype": "event types", "component": "components",
	"home": "homes", "porttype": "port types", "connector": "connectors", "import": "import",
	"typeid": "typeid", "typeprefix": "typeprefix", "custom": "custom value types",
}

func (p *parser) fill(n int) error {
	for len(p.buf) < n {
		t, err := p.s.next()
		if err != nil {
			return err
		}
		p.buf = append(p.buf, t)
	}
	return nil
}

func (p *parser) peek() (token, error) {
	if err := p.fill(1); err != nil {
		return token{}, err
	}
	return p.buf[0], nil
}

// peek2 returns the next two tokens.
func (p *parser) peek2() (token, token, error) {
	if err := p.fill(2); err != nil {
		return token{}, token{}, err
	}
	return p.buf[0], p.buf[1], nil
}

func (p *parser) take() (token, error) {
	if err := p.fill(1); err != nil {
		return token{}, err
	}
	t := p.buf[0]
	p.buf = p.buf[1:]
	return t, nil
}

// is reports whether the next token is the punctuation or keyword text.
func (p *parser) is(text string) (bool, error) {
	t, err := p.peek()
	if err != nil {
		return false, err
	}
	return (t.kind == tPunct || t.kind == tIdent) && t.text == text, nil
}

// accept takes the next token if it is text.
func (p *parser) accept(text string) (bool, error) {
	ok, err := p.is(text)
	if ok {
		_, err = p.take()
	}
	return ok, err
}

func (p *parser) expect(text string) (token, error) {
	t, err := p.take()
	if err != nil {
		return t, err
	}
	if text == ">" && t.kind == tPunct && t.text == ">>" {
		// Two closing angle brackets: keep the second one.
		rest := t
		rest.text = ">"
		rest.at.col++
		p.buf = append([]token{rest}, p.buf...)
		t.text = ">"
		return t, nil
	}
	if (t.kind != tPunct && t.kind != tIdent) || t.text != text {
		return t, errAt(t.at, "expected %q, found %s", text, t.describe())
	}
	return t, nil
}

var (
	keywords      = map[string]bool{}
	keywordsLower = map[string]string{} // IDL identifiers must not differ from keywords only in case
)

func init() {
	// The keywords idlc reserves: those of the building blocks it implements.
	for _, k := range strings.Fields(`module struct union enum typedef const sequence string wstring
		switch case default TRUE FALSE boolean char wchar octet short long unsigned float double
		int8 uint8 int16 int32 int64 uint16 uint32 uint64 bitmask bitset bitfield map native any
		fixed`) {
		keywords[k] = true
		keywordsLower[strings.ToLower(k)] = k
	}
}

// ident takes an identifier that is not a keyword; a leading '_' escapes keywords.
func (p *parser) ident(what string) (string, pos, error) {
	t, err := p.take()
	if err != nil {
		return "", pos{}, err
	}
	if t.kind != tIdent || (keywords[t.text] && !strings.HasPrefix(t.text, "_")) {
		return "", t.at, errAt(t.at, "expected %s, found %s", what, t.describe())
	}
	if k, ok := keywordsLower[strings.ToLower(t.text)]; ok && !strings.HasPrefix(t.text, "_") {
		return "", t.at, errAt(t.at, "identifier %s differs from the keyword %s only in case (escape it: _%s)", t.text, k, t.text)
	}
	return t.sval, t.at, nil
}

func (p *parser) enter(at pos) error {
	p.depth++
	if p.depth > maxDepth {
		return errAt(at, "nested too deeply")
	}
	return nil
}

// expectAll takes the tokens texts, which must come in this order.
func (p *parser) expectAll(texts ...string) error {
	for _, text := range texts {
		if _, err := p.expect(text); err != nil {
			return err
		}
	}
	return nil
}

// nested parses a construct that may nest (a type, an expression) with parse, given its
// first token, one level deeper.
func nested[T any](p *parser, parse func(t token) (T, error)) (T, error) {
	var none T
	t, err := p.peek()
	if err != nil {
		return none, err
	}
	if err := p.enter(t.at); err != nil {
		return none, err
	}
	defer func() { p.depth-- }()
	return parse(t)
}

// untilClose parses items with item until a '}', which it takes. With no item, the
// error is empty (at at) unless empty is "".
func (p *parser) untilClose(at pos, empty string, item func() error) error {
	for n := 0; ; n++ {
		end, err := p.accept("}")
		if err != nil {
			return err
		}
		if end && n == 0 && empty != "" {
			return errAt(at, "%s", empty)
		}
		if end {
			return nil
		}
		if err := item(); err != nil {
			return err
		}
	}
}

// separated parses one or more items with item, separated by sep.
func (p *parser) separated(sep string, item func() error) error {
	for {
		if err := item(); err != nil {
			return err
		}
		if ok, err := p.accept(sep); err != nil || !ok {
			return err
		}
	}
}

// appendTo returns an item function of untilClose or separated that parses an item
// with parse and appends it to list.
func appendTo[T any](list *[]T, parse func() (T, error)) func() error {
	return func() error {
		v, err := parse()
		*list = append(*list, v)
		return err
	}
}

// blockHead takes the name of a module or enum (what) and the '{' after it.
func (p *parser) blockHead(what string) (string, error) {
	name, _, err := p.ident(what)
	if err != nil {
		return "", err
	}
	_, err = p.expect("{")
	return name, err
}

// forward takes the name of a struct or union (what) into name and reports whether a
// ';' follows: a forward declaration, marked in fwd. It reports true on an error too.
func (p *parser) forward(what string, name *string, fwd *bool) (bool, error) {
	n, _, err := p.ident(what)
	if err != nil {
		return true, err
	}
	*name = n
	if ok, err := p.is(";"); ok || err != nil {
		*fwd = true
		return true, err
	}
	return false, nil
}

// parseFile parses the whole preprocessed input.
func (p *parser) parseFile() ([]decl, error) {
	var decls []decl
	for {
		t, err := p.peek()
		if err != nil {
			return nil, err
		}
		if t.kind == tEOF {
			return decls, nil
		}
		d, err := p.definition()
		if err != nil {
			return nil, err
		}
		decls = append(decls, d)
	}
}

func (p *parser) definition() (decl, error) {
	t, err := p.peek()
	if err != nil {
		return nil, err
	}
	if t.kind == tPragma {
		_, _ = p.take()
		return &pragmaDecl{at: t.at, text: t.text}, nil
	}
	as, err := p.annotations()
	if err != nil {
		return nil, err
	}
	t, err = p.take()
	if err != nil {
		return nil, err
	}
	if t.kind != tIdent {
		return nil, errAt(t.at, "expected a definition, found %s", t.describe())
	}
	var d decl
	switch t.text {
	case "module":
		d, err = p.module(t.at, as)
		return d, err // module reads its own ';'
	case "struct":
		d, err = p.structDecl(t.at, as)
	case "union":
		d, err = p.unionDecl(t.at, as)
	case "enum":
		d, err = p.enumDecl(t.at, as)
	case "typedef":
		d, err = p.typedef(t.at, as)
	case "const":
		d, err = p.constDecl(t.at, as)
	default:
		if what, ok := unsupported[t.text]; ok {
			return nil, errAt(t.at, "%s are not supported", what)
		}
		return nil, errAt(t.at, "expected a definition, found %s", t.describe())
	}
	if err != nil {
		return nil, err
	}
	_, err = p.expect(";")
	return d, err
}

func (p *parser) module(at pos, as annotations) (decl, error) {
	if err := p.enter(at); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	name, err := p.blockHead("a module name")
	if err != nil {
		return nil, err
	}
	m := &moduleDecl{at: at, name: name, annots: as}
	err = p.untilClose(at, "module "+name+" is empty", func() error {
		t, err := p.peek()
		if err != nil {
			return err
		}
		if t.kind == tEOF {
			return errAt(t.at, "module %s: missing '}'", name)
		}
		d, err := p.definition()
		m.decls = append(m.decls, d)
		return err
	})
	if err != nil {
		return nil, err
	}
	_, err = p.expect(";")
	return m, err
}

func (p *parser) structDecl(at pos, as annotations) (decl, error) {
	s := &structDecl{at: at, annots: as}
	if done, err := p.forward("a struct name", &s.name, &s.fwd); done {
		return s, err
	}
	if ok, err := p.accept(":"); err != nil {
		return nil, err
	} else if ok {
		b, err := p.scopedName()
		if err != nil {
			return nil, err
		}
		s.base = &b
	}
	if _, err := p.expect("{"); err != nil {
		return nil, err
	}
	err := p.untilClose(at, "", func() error {
		ms, err := p.members()
		s.members = append(s.members, ms...)
		return err
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// annotatedType parses annotations and a type. When the input ends before the type and
// eof is not "", the error is eof.
func (p *parser) annotatedType(eof string) (annotations, *typeSpec, error) {
	as, err := p.annotations()
	if err != nil {
		return nil, nil, err
	}
	if eof != "" {
		if t, err := p.peek(); err != nil {
			return nil, nil, err
		} else if t.kind == tEOF {
			return nil, nil, errAt(t.at, "%s", eof)
		}
	}
	ts, err := p.typeSpec()
	return as, ts, err
}

// members parses one member line: annotations, a type, declarators and ';'.
func (p *parser) members() ([]member, error) {
	as, ts, err := p.annotatedType("missing '}'")
	if err != nil {
		return nil, err
	}
	var ms []member
	err = p.separated(",", func() error {
		d, err := p.declarator()
		ms = append(ms, member{at: d.at, annots: as, typ: ts, decl: d})
		return err
	})
	if err != nil {
		return nil, err
	}
	_, err = p.expect(";")
	return ms, err
}

func (p *parser) declarator() (declarator, error) {
	name, at, err := p.ident("a declarator name")
	if err != nil {
		return declarator{}, err
	}
	d := declarator{at: at, name: name}
	for {
		ok, err := p.accept("[")
		if err != nil {
			return d, err
		}
		if !ok {
			return d, nil
		}
		e, err := p.constExpr()
		if err != nil {
			return d, err
		}
		d.dims = append(d.dims, e)
		if _, err := p.expect("]"); err != nil {
			return d, err
		}
	}
}

func (p *parser) unionDecl(at pos, as annotations) (decl, error) {
	u := &unionDecl{at: at, annots: as}
	if done, err := p.forward("a union name", &u.name, &u.fwd); done {
		return u, err
	}
	if err := p.unionSwitch(u); err != nil {
		return nil, err
	}
	err := p.untilClose(at, "union "+u.name+" has no cases", appendTo(&u.cases, p.unionCase))
	if err != nil {
		return nil, err
	}
	return u, nil
}

// unionSwitch parses "switch (discriminator) {" of u.
func (p *parser) unionSwitch(u *unionDecl) error {
	if err := p.expectAll("switch", "("); err != nil {
		return err
	}
	var err error
	if u.discAnn, u.discType, err = p.annotatedType(""); err != nil {
		return err
	}
	return p.expectAll(")", "{")
}

func (p *parser) unionCase() (unionCase, error) {
	t, err := p.peek()
	if err != nil {
		return unionCase{}, err
	}
	c := unionCase{at: t.at}
	for {
		ok, err := p.label(&c)
		if err != nil {
			return c, err
		}
		if !ok {
			break
		}
		if _, err := p.expect(":"); err != nil {
			return c, err
		}
	}
	if len(c.labels) == 0 && !c.isDefault {
		t, _ := p.peek()
		return c, errAt(t.at, "expected case or default, found %s", t.describe())
	}
	as, ts, err := p.annotatedType("")
	if err != nil {
		return c, err
	}
	d, err := p.declarator()
	if err != nil {
		return c, err
	}
	c.member = member{at: d.at, annots: as, typ: ts, decl: d}
	_, err = p.expect(";")
	return c, err
}

// label parses a case label ("case" and its value) or "default" of c, and reports false
// when none comes.
func (p *parser) label(c *unionCase) (bool, error) {
	t, err := p.peek()
	if err != nil {
		return false, err
	}
	if t.kind != tIdent || (t.text != "case" && t.text != "default") {
		return false, nil
	}
	_, _ = p.take()
	if t.text == "case" {
		return true, appendTo(&c.labels, p.constExpr)()
	}
	if c.isDefault {
		return false, errAt(t.at, "default label twice")
	}
	c.isDefault = true
	return true, nil
}

func (p *parser) enumDecl(at pos, as annotations) (decl, error) {
	name, err := p.blockHead("an enum name")
	if err != nil {
		return nil, err
	}
	e := &enumDecl{at: at, name: name, annots: as}
	err = p.separated(",", func() error {
		if len(e.values) > 0 { // after a comma: it may be a trailing one
			if ok, err := p.is("}"); ok || err != nil {
				return err
			}
		}
		return appendTo(&e.values, p.enumerator)()
	})
	if err != nil {
		return nil, err
	}
	_, err = p.expect("}")
	return e, err
}

// enumerator parses an enumerator and its annotations.
func (p *parser) enumerator() (enumerator, error) {
	as, err := p.annotations()
	if err != nil {
		return enumerator{}, err
	}
	n, at, err := p.ident("an enumerator")
	return enumerator{at: at, name: n, annots: as}, err
}

func (p *parser) typedef(at pos, as annotations) (decl, error) {
	t, err := p.peek()
	if err != nil {
		return nil, err
	}
	if t.kind == tIdent && (t.text == "struct" || t.text == "union" || t.text == "enum") {
		return nil, errAt(t.at, "a %s defined inside a typedef is not supported: define it first", t.text)
	}
	ts, err := p.typeSpec()
	if err != nil {
		return nil, err
	}
	td := &typedefDecl{at: at, annots: as, typ: ts}
	err = p.separated(",", appendTo(&td.decls, p.declarator))
	if err != nil {
		return nil, err
	}
	return td, nil
}

func (p *parser) constDecl(at pos, as annotations) (decl, error) {
	ts, err := p.typeSpec()
	if err != nil {
		return nil, err
	}
	name, _, err := p.ident("a constant name")
	if err != nil {
		return nil, err
	}
	if _, err := p.expect("="); err != nil {
		return nil, err
	}
	e, err := p.constExpr()
	if err != nil {
		return nil, err
	}
	return &constDecl{at: at, annots: as, typ: ts, name: name, value: e}, nil
}

// annotations parses zero or more applied annotations.
func (p *parser) annotations() (annotations, error) {
	var as annotations
	for {
		t, err := p.peek()
		if err != nil {
			return nil, err
		}
		if t.kind != tPunct || t.text != "@" {
			return as, nil
		}
		_, _ = p.take()
		n, err := p.peek()
		if err != nil {
			return nil, err
		}
		if n.kind == tIdent && n.text == "annotation" {
			return nil, errAt(t.at, "annotation definitions are not supported")
		}
		var a annotation
		if n.kind == tIdent && n.text == "default" { // IDL 4's @default, a keyword elsewhere
			_, _ = p.take()
			a = annotation{at: t.at, name: "default"}
		} else {
			name, err := p.scopedName()
			if err != nil {
				return nil, err
			}
			a = annotation{at: t.at, name: name.parts[len(name.parts)-1]}
		}
		if ok, err := p.accept("("); err != nil {
			return nil, err
		} else if ok {
			if err := p.annotationParams(&a); err != nil {
				return nil, err
			}
		}
		as = append(as, a)
	}
}

func (p *parser) annotationParams(a *annotation) error {
	if ok, err := p.accept(")"); ok || err != nil {
		return err
	}
	for {
		t, t2, err := p.peek2()
		if err != nil {
			return err
		}
		if t.kind == tIdent && t2.kind == tPunct && t2.text == "=" {
			_, _ = p.take()
			_, _ = p.take()
			e, err := p.constExpr()
			if err != nil {
				return err
			}
			if a.params == nil {
				a.params = map[string]expr{}
			}
			a.params[t.text] = e
		} else {
			if a.value != nil || a.params != nil {
				return errAt(t.at, "annotation @%s: expected name=value", a.name)
			}
			if a.value, err = p.constExpr(); err != nil {
				return err
			}
		}
		if ok, err := p.accept(","); err != nil {
			return err
		} else if !ok {
			_, err := p.expect(")")
			return err
		}
	}
}

func (p *parser) scopedName() (scopedName, error) {
	t, err := p.peek()
	if err != nil {
		return scopedName{}, err
	}
	n := scopedName{at: t.at}
	if ok, err := p.accept("::"); err != nil {
		return n, err
	} else if ok {
		n.abs = true
	}
	err = p.separated("::", func() error {
		id, _, err := p.ident("a name")
		if err == nil {
			n.parts = append(n.parts, id)
		}
		return err
	})
	return n, err
}

// basic maps the first keyword of a basic type to the parse of the rest.
var basicOne = map[string]string{
	"short": "short", "float": "float", "double": "double", "char": "char", "octet": "octet",
	"boolean": "boolean", "int8": "int8", "uint8": "uint8", "int16": "short", "int32": "long",
	"int64": "long long", "uint16": "unsigned short", "uint32": "unsigned long",
	"uint64": "unsigned long long",
}

func (p *parser) typeSpec() (*typeSpec, error) { return nested(p, p.typeSpecAt) }

// typeSpecAt parses a type whose first token is t.
func (p *parser) typeSpecAt(t token) (*typeSpec, error) {
	ts := &typeSpec{at: t.at}
	if t.kind == tIdent && !strings.HasPrefix(t.text, "_") {
		if prim, ok := basicOne[t.text]; ok {
			_, _ = p.take()
			ts.kind, ts.prim = tyPrim, prim
			return ts, nil
		}
		switch t.text {
		case "long", "unsigned":
			return p.integerType(ts)
		case "string":
			_, _ = p.take()
			ts.kind = tyString
			return ts, p.optBound(ts)
		case "sequence":
			_, _ = p.take()
			return p.sequenceType(ts)
		}
		if what, ok := unsupported[t.text]; ok {
			return nil, errAt(t.at, "%s are not supported", what)
		}
		if keywords[t.text] {
			return nil, errAt(t.at, "expected a type, found %s", t.describe())
		}
	}
	if t.kind != tIdent && (t.kind != tPunct || t.text != "::") {
		return nil, errAt(t.at, "expected a type, found %s", t.describe())
	}
	n, err := p.scopedName()
	if err != nil {
		return nil, err
	}
	ts.kind, ts.name = tyNamed, n
	return ts, nil
}

func (p *parser) integerType(ts *typeSpec) (*typeSpec, error) {
	ts.kind = tyPrim
	unsigned, err := p.accept("unsigned")
	if err != nil {
		return nil, err
	}
	prefix := ""
	if unsigned {
		prefix = "unsigned "
		if ok, err := p.accept("short"); err != nil {
			return nil, err
		} else if ok {
			ts.prim = "unsigned short"
			return ts, nil
		}
	}
	if _, err := p.expect("long"); err != nil {
		return nil, err
	}
	if ok, err := p.accept("long"); err != nil {
		return nil, err
	} else if ok {
		ts.prim = prefix + "long long"
		return ts, nil
	}
	if !unsigned {
		if ok, err := p.is("double"); err != nil {
			return nil, err
		} else if ok {
			return nil, errAt(ts.at, "long double is not supported")
		}
	}
	ts.prim = prefix + "long"
	return ts, nil
}

func (p *parser) optBound(ts *typeSpec) error {
	ok, err := p.accept("<")
	if err != nil || !ok {
		return err
	}
	p.angle++
	defer func() { p.angle-- }()
	if ts.bound, err = p.constExpr(); err != nil {
		return err
	}
	_, err = p.expect(">")
	return err
}

func (p *parser) sequenceType(ts *typeSpec) (*typeSpec, error) {
	ts.kind = tySeq
	if _, err := p.expect("<"); err != nil {
		return nil, err
	}
	p.angle++
	defer func() { p.angle-- }()
	saved := p.paren
	p.paren = 0
	defer func() { p.paren = saved }()
	var err error
	if ts.elem, err = p.typeSpec(); err != nil {
		return nil, err
	}
	if ok, err := p.accept(","); err != nil {
		return nil, err
	} else if ok {
		if ts.bound, err = p.constExpr(); err != nil {
			return nil, err
		}
	}
	_, err = p.expect(">")
	return ts, err
}

// Constant expressions, lowest precedence first: | ^ & << >> + - * / % unary.

func (p *parser) constExpr() (expr, error) {
	return nested(p, func(token) (expr, error) { return p.binary(0) })
}

var binLevels = [][]string{{"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}}

func (p *parser) binary(level int) (expr, error) {
	if level == len(binLevels) {
		return p.unary()
	}
	x, err := p.binary(level + 1)
	if err != nil {
		return nil, err
	}
	for {
		t, err := p.peek()
		if err != nil {
			return nil, err
		}
		if t.kind != tPunct || !contains(binLevels[level], t.text) || (t.text == ">>" && p.angle > 0 && p.paren == 0) {
			return x, nil
		}
		_, _ = p.take()
		y, err := p.binary(level + 1)
		if err != nil {
			return nil, err
		}
		x = &binaryExpr{at: t.at, op: t.text, x: x, y: y}
	}
}

func contains(ss []string, s string) bool {
	for _, v := range ss {
		if v == s {
			return true
		}
	}
	return false
}

func (p *parser) unary() (expr, error) { return nested(p, p.unaryAt) }

// unaryAt parses a unary expression whose first token is t.
func (p *parser) unaryAt(t token) (expr, error) {
	if t.kind == tPunct && (t.text == "-" || t.text == "+" || t.text == "~") {
		_, _ = p.take()
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &unaryExpr{at: t.at, op: t.text, x: x}, nil
	}
	return p.primary()
}

func (p *parser) primary() (expr, error) {
	t, err := p.peek()
	if err != nil {
		return nil, err
	}
	switch {
	case t.kind == tInt || t.kind == tFloat || t.kind == tChar:
		_, _ = p.take()
		return &litExpr{tok: t}, nil
	case t.kind == tString:
		_, _ = p.take()
		// Adjacent string literals concatenate.
		for {
			n, err := p.peek()
			if err != nil {
				return nil, err
			}
			if n.kind != tString {
				break
			}
			_, _ = p.take()
			t.sval += n.sval
		}
		return &litExpr{tok: t}, nil
	case t.kind == tIdent && (t.text == "TRUE" || t.text == "FALSE"):
		_, _ = p.take()
		v := int64(0)
		if t.text == "TRUE" {
			v = 1
		}
		t.ival = big.NewInt(v)
		return &litExpr{tok: t}, nil
	case t.kind == tPunct && t.text == "(":
		_, _ = p.take()
		p.paren++
		x, err := p.constExpr()
		p.paren--
		if err != nil {
			return nil, err
		}
		_, err = p.expect(")")
		return x, err
	case t.kind == tIdent || (t.kind == tPunct && t.text == "::"):
		n, err := p.scopedName()
		if err != nil {
			return nil, err
		}
		return &nameExpr{name: n}, nil
	}
	return nil, errAt(t.at, "expected a constant expression, found %s", t.describe())
}
