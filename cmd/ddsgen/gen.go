package main

import (
	"fmt"
	"go/format"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// options are what the command line sets.
type options struct {
	pkg     string   // Go package name
	scoped  bool     // Go names carry their modules: Mod_Sub_Name
	ext     string   // default extensibility: final, appendable, mutable
	incDirs []string // -I
	read    readFunc // nil: os.ReadFile

	// ROS mode (-ros): the declarations come from ROS 2 definitions (ros.go).
	rosPkg    string // the ROS package generated; other packages' types are imported
	rosImport string // import path prefix of the Go packages of other ROS packages
	header    string // what the "Code generated" line says it is from, instead of the files
}

type scopedPragma struct {
	d     *pragmaDecl
	scope []string
}

// gen holds what one run has read and resolved.
type gen struct {
	opt     options
	syms    map[string]*symbol
	fwds    map[string]pos
	order   []*symbol // definitions in IDL order
	pragmas []scopedPragma
	goNames map[string]*symbol
	folded  map[string]*symbol   // scoped names in lower case: IDL names collide ignoring case
	keylist map[*symbol][]string // #pragma keylist
	files   []string
}

// field is a member of a generated struct.
type field struct {
	at       pos
	name     string // Go name
	idl      string
	typ      *gtype
	optional bool
	key      bool
	id       uint32
	labels   []string // union case labels, as integers
	isDef    bool
	disc     bool
	def      string // the @default value, for a comment
}

// generate reads the IDL files and returns the Go source.
func generate(opt options, files []string) ([]byte, error) {
	g := &gen{opt: opt, syms: map[string]*symbol{}, fwds: map[string]pos{}, goNames: map[string]*symbol{}, folded: map[string]*symbol{}, keylist: map[*symbol][]string{}}
	if opt.ext == "" {
		g.opt.ext = "final"
	}
	st := newStream(opt.read, opt.incDirs)
	for _, f := range files {
		st.macros = map[string]string{}
		if err := st.push(f, nil); err != nil {
			return nil, err
		}
		p := &parser{s: st}
		decls, err := p.parseFile()
		if err != nil {
			return nil, err
		}
		if err := g.collect(decls, nil, "SEQUENTIAL"); err != nil {
			return nil, err
		}
	}
	g.files = st.files
	if err := g.names(); err != nil {
		return nil, err
	}
	if err := g.applyPragmas(); err != nil {
		return nil, err
	}
	return g.emit()
}

// initialisms become all capitals in Go names when a name part is one of them in lower
// case (frame_id -> FrameID).
var initialisms = map[string]bool{
	"id": true, "url": true, "uri": true, "http": true, "ip": true, "tcp": true, "udp": true,
	"json": true, "xml": true, "api": true, "uuid": true, "guid": true, "qos": true, "cpu": true,
	"dds": true, "rtps": true, "utc": true,
}

// camel maps an IDL identifier to an exported Go one: split at underscores, each part
// capitalized (or all capitals for a lower-case initialism), joined.
func camel(name string) string {
	var b strings.Builder
	for _, part := range strings.Split(name, "_") {
		if part == "" {
			continue
		}
		if initialisms[part] {
			b.WriteString(strings.ToUpper(part))
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	if b.Len() == 0 {
		return "X"
	}
	return b.String()
}

// export capitalizes the first letter only (constants and enumerators keep their spelling).
func export(name string) string {
	if name == "" {
		return "X"
	}
	return strings.ToUpper(name[:1]) + name[1:]
}

// names gives every symbol its Go name and reports collisions.
func (g *gen) names() error {
	for _, s := range g.order {
		if g.opt.rosPkg != "" {
			s.goName = rosGoName(s)
			if s.path[0] != g.opt.rosPkg {
				s.goName = s.path[0] + "." + s.goName
			}
			if err := g.claim(s.goName, s); err != nil {
				return err
			}
			continue
		}
		prefix := ""
		if g.opt.scoped {
			for _, m := range s.scope() {
				prefix += camel(m) + "_"
			}
		}
		switch s.kind {
		case symConst:
			s.goName = prefix + export(s.path[len(s.path)-1])
		case symEnumerator:
			continue // after its enum
		default:
			s.goName = prefix + camel(s.path[len(s.path)-1])
		}
		if err := g.claim(s.goName, s); err != nil {
			return err
		}
		if s.kind == symEnum {
			for _, e := range s.enum.values {
				es := g.syms[strings.Join(path(s.scope(), e.name), "::")]
				es.goName = s.goName + "_" + e.name
				if err := g.claim(es.goName, es); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// rosGoName is the Go name of a declaration of the IDL that ros.go writes: a struct
// pkg::msg::dds_::Name_ is Name (GetEntities_Request_ is GetEntitiesRequest), a
// constant X_ in module Name_Constants is Name_X.
func rosGoName(s *symbol) string {
	name := s.path[len(s.path)-1]
	if s.kind == symConst && len(s.path) > 1 {
		if owner, ok := strings.CutSuffix(s.path[len(s.path)-2], "_Constants"); ok {
			return camel(owner) + "_" + strings.TrimSuffix(name, "_")
		}
	}
	return camel(name)
}

// external reports whether s belongs to another ROS package, whose Go package has it.
func (g *gen) external(s *symbol) bool {
	return g.opt.rosPkg != "" && s.path[0] != g.opt.rosPkg
}

func (g *gen) claim(name string, s *symbol) error {
	if prev, ok := g.goNames[name]; ok {
		hint := ""
		if !g.opt.scoped {
			hint = "; -scoped prefixes Go names with their modules"
		}
		return errAt(s.at, "%s %s and %s %s (%s) both map to the Go name %s%s",
			s.kind, s.scopedName(), prev.kind, prev.scopedName(), prev.at, name, hint)
	}
	g.goNames[name] = s
	return nil
}

// applyPragmas handles #pragma keylist TYPE MEMBER... (Cyclone DDS's key declaration).
func (g *gen) applyPragmas() error {
	for _, sp := range g.pragmas {
		f := strings.Fields(sp.d.text)
		if len(f) == 0 || f[0] != "keylist" {
			continue // other pragmas are ignored, as compilers do
		}
		if len(f) < 2 {
			return errAt(sp.d.at, "#pragma keylist needs a type name")
		}
		n := scopedName{at: sp.d.at, parts: strings.Split(strings.TrimPrefix(f[1], "::"), "::"), abs: strings.HasPrefix(f[1], "::")}
		s, err := g.lookup(sp.scope, n)
		if err != nil {
			return err
		}
		if s.kind != symStruct {
			return errAt(sp.d.at, "#pragma keylist: %s is not a struct", f[1])
		}
		g.keylist[s] = append(g.keylist[s], f[2:]...)
	}
	return nil
}

// emit writes the Go source of every definition, in IDL order.
func (g *gen) emit() ([]byte, error) {
	var body strings.Builder
	imports := map[string]bool{}
	for _, s := range g.order {
		if g.external(s) {
			continue
		}
		var err error
		switch s.kind {
		case symStruct:
			err = g.emitStruct(&body, s, imports)
		case symUnion:
			err = g.emitUnion(&body, s, imports)
		case symEnum:
			err = g.emitEnum(&body, s, imports)
		case symTypedef:
			err = g.emitTypedef(&body, s)
		case symConst:
			err = g.emitConst(&body, s)
		default: // modules and enumerators are emitted with what contains them
		}
		if err != nil {
			return nil, err
		}
	}
	var out strings.Builder
	var srcs []string
	for _, f := range g.files {
		srcs = append(srcs, filepath.Base(f))
	}
	from := strings.Join(srcs, ", ")
	if g.opt.header != "" {
		from = g.opt.header
	}
	fmt.Fprintf(&out, "// Code generated by ddsgen from %s. DO NOT EDIT.\n\n", from)
	fmt.Fprintf(&out, "package %s\n\n", g.opt.pkg)
	writeImports(&out, imports)
	out.WriteString(body.String())
	src, err := format.Source([]byte(out.String()))
	if err != nil {
		return nil, fmt.Errorf("ddsgen: formatting the generated code: %w", err)
	}
	return src, nil
}

// extensibility returns final, appendable or mutable from a type's annotations.
func (g *gen) extensibility(as annotations) (string, bool, error) {
	found := ""
	for _, a := range as {
		var x string
		switch a.name {
		case "final", "appendable", "mutable":
			x = a.name
		case "extensibility":
			x = strings.ToLower(annotIdent(&a, ""))
			if x != "final" && x != "appendable" && x != "mutable" {
				return "", false, errAt(a.at, "@extensibility takes FINAL, APPENDABLE or MUTABLE")
			}
		default:
			continue
		}
		if found != "" && found != x {
			return "", false, errAt(a.at, "conflicting extensibility annotations")
		}
		found = x
	}
	if found == "" {
		return g.opt.ext, false, nil
	}
	return found, true, nil
}

var extConst = map[string]string{"appendable": "dds.Appendable", "mutable": "dds.Mutable"}

// structFields resolves the members of a struct, its bases' first (flattened: the wire
// has them first, in one object), with their member ids.
func (g *gen) structFields(s *symbol, depth int) ([]field, string, error) {
	d := s.strct
	if depth > 100 {
		return nil, "", errAt(d.at, "inheritance nested too deeply")
	}
	ext, explicit, err := g.extensibility(d.annots)
	if err != nil {
		return nil, "", err
	}
	var fields []field
	next := uint32(0)
	if d.base != nil {
		bf, bext, err := g.baseFields(s, depth)
		if err != nil {
			return nil, "", err
		}
		if explicit && bext != ext {
			return nil, "", errAt(d.at, "struct %s is %s but its base %s is %s", s.scopedName(), ext, d.base, bext)
		}
		ext = bext
		fields = bf
		if len(bf) > 0 {
			next = bf[len(bf)-1].id + 1
		}
	}
	autoid := s.autoid
	if a := d.annots.find("autoid"); a != nil {
		autoid = annotIdent(a, "SEQUENTIAL")
	}
	keys := g.keylist[s]
	for _, m := range d.members {
		f, err := g.memberField(m, s.scope(), autoid, &next)
		if err != nil {
			return nil, "", err
		}
		if slices.Contains(keys, m.decl.name) {
			f.key = true
		}
		if f.key && f.optional {
			return nil, "", errAt(m.at, "member %s: a key member cannot be optional", m.decl.name)
		}
		fields = append(fields, f)
	}
	for _, k := range keys {
		if !slices.ContainsFunc(fields, func(f field) bool { return f.idl == k }) {
			return nil, "", errAt(d.at, "#pragma keylist: %s has no member %s", s.scopedName(), k)
		}
	}
	return fields, ext, nil
}

// baseFields returns the fields and extensibility of the base of struct s.
func (g *gen) baseFields(s *symbol, depth int) ([]field, string, error) {
	base := s.strct.base
	bs, err := g.lookup(s.scope(), *base)
	if err != nil {
		return nil, "", err
	}
	if bs.kind == symTypedef {
		if err := g.resolveTypedef(bs); err != nil {
			return nil, "", err
		}
		if u := bs.typ.underlying(); u.kind == gNamed {
			bs = u.sym
		}
	}
	if bs.kind != symStruct || bs == s {
		return nil, "", errAt(base.at, "base %s is not a struct", base)
	}
	return g.structFields(bs, depth+1)
}

func (g *gen) memberField(m member, scope []string, autoid string, next *uint32) (field, error) {
	t, err := g.resolve(m.typ, scope)
	if err != nil {
		return field{}, err
	}
	if t, err = g.withDims(t, m.decl, scope); err != nil {
		return field{}, err
	}
	f := field{at: m.at, name: camel(m.decl.name), idl: m.decl.name, typ: t}
	if f.def, err = g.defaultValue(m.annots.find("default"), t, scope); err != nil {
		return f, err
	}
	if f.key, err = g.annotBool(m.annots.find("key"), scope); err != nil {
		return f, err
	}
	if f.optional, err = g.annotBool(m.annots.find("optional"), scope); err != nil {
		return f, err
	}
	switch {
	case m.annots.find("id") != nil:
		id, err := g.annotInt(m.annots.find("id"), scope)
		if err != nil {
			return f, err
		}
		if id < 0 || id > 0x0fffffff {
			return f, errAt(m.at, "member id %d out of range", id)
		}
		f.id = uint32(id)
	case m.annots.find("hashid") != nil:
		name := m.decl.name
		if a := m.annots.find("hashid"); a.value != nil {
			v, err := g.eval(a.value, scope)
			if err != nil {
				return f, err
			}
			if v.kind != cvString {
				return f, errAt(a.at, "@hashid takes a string")
			}
			name = v.s
		}
		f.id = hashID(name)
	case autoid == "HASH":
		f.id = hashID(m.decl.name)
	default:
		f.id = *next
	}
	*next = f.id + 1
	return f, nil
}

// tag returns the struct tag options of a field: the IDL name; bounds apply to a string or sequence
// member itself (element bounds have no Go mapping; the wire does not carry them).
func (f *field) tag(withID, named bool) string {
	var opts []string
	if f.disc {
		opts = append(opts, "disc")
	}
	if f.key {
		opts = append(opts, "key")
	}
	if len(f.labels) > 0 {
		opts = append(opts, "case="+strings.Join(f.labels, "|"))
	}
	if f.isDef {
		opts = append(opts, "default")
	}
	if withID {
		opts = append(opts, fmt.Sprintf("id=%d", f.id))
	}
	if u := f.typ.underlying(); (u.kind == gString || u.kind == gSeq) && u.bound > 0 {
		opts = append(opts, fmt.Sprintf("bound=%d", u.bound))
	}
	// The IDL name, on every member of a type the Go form describes exactly (exact.go):
	// it announces its TypeObjects (internal/xtypes).
	if named {
		opts = append(opts, "name="+f.idl)
	}
	if len(opts) == 0 {
		return ""
	}
	return " `dds:\"" + strings.Join(opts, ",") + "\"`"
}

func (g *gen) emitStruct(w *strings.Builder, s *symbol, imports map[string]bool) error {
	fields, ext, err := g.structFields(s, 0)
	if err != nil {
		return err
	}
	withIDs := ext == "mutable"
	for i, f := range fields {
		if f.id != uint32(i) {
			withIDs = true
		}
	}
	if err := uniqueFields(s, fields); err != nil {
		return err
	}
	named := g.exactStruct(s)
	if g.opt.rosPkg != "" {
		fmt.Fprintf(w, "// %s is the ROS 2 type %s, on the wire the IDL struct %s.\ntype %s struct {\n", s.goName, rosTypeName(s), s.scopedName(), s.goName)
	} else {
		fmt.Fprintf(w, "// %s is the IDL struct %s (%s).\ntype %s struct {\n", s.goName, s.scopedName(), ext, s.goName)
	}
	for _, f := range fields {
		t := f.typ.goType()
		if f.optional {
			t = "*" + t
		}
		g.importsOf(f.typ, imports)
		comment := ""
		if f.def != "" {
			comment = " // default " + f.def
		}
		fmt.Fprintf(w, "\t%s %s%s%s\n", f.name, t, f.tag(withIDs, named), comment)
	}
	w.WriteString("}\n\n")
	nested, err := g.annotBool(s.strct.annots.find("nested"), s.scope())
	if err != nil {
		return err
	}
	if !nested {
		fmt.Fprintf(w, "// DDSTypeName returns the topic type name of %s.\n", s.goName)
		fmt.Fprintf(w, "func (%s) DDSTypeName() string { return %q }\n\n", s.goName, s.scopedName())
	}
	emitExt(w, s, ext, imports)
	return nil
}

// rosTypeName is the ROS name of a struct pkg::msg::dds_::Name_: pkg/msg/Name.
func rosTypeName(s *symbol) string {
	p := s.path
	if len(p) != 4 {
		return s.scopedName()
	}
	return p[0] + "/" + p[1] + "/" + strings.TrimSuffix(p[3], "_")
}

// importsOf adds the import of the Go package of another ROS package that t uses.
func (g *gen) importsOf(t *gtype, imports map[string]bool) {
	for t.kind == gSeq || t.kind == gArray {
		t = t.elem
	}
	if t.kind == gNamed && g.external(t.sym) {
		imports[g.opt.rosImport+"/"+t.sym.path[0]] = true
	}
}

// defaultValue returns the value of a @default(value=...) annotation as Go would
// write it; a string default of a sequence or array (ROS's [1, 2]) is the text itself.
func (g *gen) defaultValue(a *annotation, t *gtype, scope []string) (string, error) {
	if a == nil {
		return "", nil
	}
	e := a.params["value"]
	if e == nil {
		e = a.value
	}
	if e == nil {
		return "", errAt(a.at, "@default needs a value")
	}
	v, err := g.eval(e, scope)
	if err != nil {
		return "", err
	}
	switch v.kind {
	case cvInt:
		return v.i.String(), nil
	case cvFloat:
		return strconv.FormatFloat(v.f, 'g', -1, 64), nil
	case cvBool:
		return strconv.FormatBool(v.b), nil
	case cvEnum:
		return v.esym.goName, nil
	default:
		if u := t.underlying(); u.kind == gSeq || u.kind == gArray {
			return v.s, nil
		}
		return strconv.Quote(v.s), nil
	}
}

func emitExt(w *strings.Builder, s *symbol, ext string, imports map[string]bool) {
	if ext == "final" {
		return
	}
	imports["github.com/ddsgo/ddsgo/dds"] = true
	fmt.Fprintf(w, "// DDSExtensibility returns the extensibility of %s: %s.\n", s.goName, ext)
	fmt.Fprintf(w, "func (%s) DDSExtensibility() dds.Extensibility { return %s }\n\n", s.goName, extConst[ext])
}

func uniqueFields(s *symbol, fields []field) error {
	seen := map[string]field{}
	for _, f := range fields {
		if prev, ok := seen[f.name]; ok {
			return errAt(f.at, "%s: members %s and %s (%s) both map to the Go field %s", s.scopedName(), f.idl, prev.idl, prev.at, f.name)
		}
		seen[f.name] = f
	}
	return nil
}

func (g *gen) emitUnion(w *strings.Builder, s *symbol, imports map[string]bool) error {
	d := s.union
	ext, _, err := g.extensibility(d.annots)
	if err != nil {
		return err
	}
	if ext == "mutable" {
		return errAt(d.at, "mutable unions are not supported by ddsgo's CDR codec")
	}
	dt, err := g.resolve(d.discType, s.scope())
	if err != nil {
		return err
	}
	if !discType(dt) {
		return errAt(d.discType.at, "a union discriminator must be an integer, char, octet, boolean or enum, not %s", dt.idl())
	}
	fields := []field{{at: d.at, name: "Disc", idl: "_d", typ: dt, disc: true}}
	defaults := 0
	seen := map[string]pos{}
	for _, c := range d.cases {
		f, err := g.unionField(s, c, dt, seen)
		if err != nil {
			return err
		}
		if f.isDef {
			defaults++
			if defaults > 1 {
				return errAt(c.at, "union %s: more than one default case", s.scopedName())
			}
		}
		fields = append(fields, f)
	}
	for slices.ContainsFunc(fields[1:], func(f field) bool { return f.name == fields[0].name }) {
		fields[0].name += "_"
	}
	if err := uniqueFields(s, fields); err != nil {
		return err
	}
	named := g.exactUnion(s)
	fmt.Fprintf(w, "// %s is the IDL union %s (%s): Disc selects the member.\ntype %s struct {\n", s.goName, s.scopedName(), ext, s.goName)
	for _, f := range fields {
		fmt.Fprintf(w, "\t%s %s%s\n", f.name, f.typ.goType(), f.tag(false, named))
	}
	w.WriteString("}\n\n")
	if nested, err := g.annotBool(d.annots.find("nested"), s.scope()); err != nil {
		return err
	} else if !nested {
		// The union's IDL name, which its TypeObject holds.
		fmt.Fprintf(w, "// DDSTypeName returns the IDL type name of %s.\n", s.goName)
		fmt.Fprintf(w, "func (%s) DDSTypeName() string { return %q }\n\n", s.goName, s.scopedName())
	}
	emitExt(w, s, ext, imports)
	return nil
}

func discType(t *gtype) bool {
	u := t.underlying()
	if u.kind == gNamed {
		return u.sym.kind == symEnum
	}
	return u.kind == gPrim && u.prim != "float" && u.prim != "double"
}

func (g *gen) unionField(s *symbol, c unionCase, dt *gtype, seen map[string]pos) (field, error) {
	m := c.member
	if m.annots.find("optional") != nil || m.annots.find("key") != nil {
		return field{}, errAt(m.at, "union members cannot be optional or keys")
	}
	t, err := g.resolve(m.typ, s.scope())
	if err != nil {
		return field{}, err
	}
	if t, err = g.withDims(t, m.decl, s.scope()); err != nil {
		return field{}, err
	}
	f := field{at: m.at, name: camel(m.decl.name), idl: m.decl.name, typ: t, isDef: c.isDefault}
	for _, l := range c.labels {
		v, err := g.eval(l, s.scope())
		if err != nil {
			return f, err
		}
		if u := dt.underlying(); u.kind == gPrim && u.prim == "boolean" && v.kind == cvBool {
			v = constVal{kind: cvInt, i: boolInt(v.b)}
		} else if v, err = convert(l.exprPos(), v, dt); err != nil {
			return f, err
		}
		lbl := v.i.String()
		if prev, dup := seen[lbl]; dup {
			return f, errAt(l.exprPos(), "case label %s repeats the one at %s", lbl, prev)
		}
		seen[lbl] = l.exprPos()
		f.labels = append(f.labels, lbl)
	}
	return f, nil
}

func (g *gen) emitEnum(w *strings.Builder, s *symbol, imports map[string]bool) error {
	d := s.enum
	bits := int64(32)
	if a := d.annots.find("bit_bound"); a != nil {
		var err error
		if bits, err = g.annotInt(a, s.scope()); err != nil {
			return err
		}
		if bits < 1 || bits > 32 {
			return errAt(a.at, "@bit_bound of an enum must be 1..32")
		}
	}
	base := "int32"
	switch {
	case bits <= 8:
		base = "int8"
	case bits <= 16:
		base = "int16"
	}
	fmt.Fprintf(w, "// %s is the IDL enum %s.\ntype %s %s\n\n", s.goName, s.scopedName(), s.goName, base)
	w.WriteString("const (\n")
	var ens []*symbol
	for _, e := range d.values {
		es := g.syms[strings.Join(path(s.scope(), e.name), "::")]
		if es.value < -(1<<(bits-1)) || es.value >= 1<<(bits-1) {
			return errAt(e.at, "enumerator %s: %d does not fit in %d bits", e.name, es.value, bits)
		}
		fmt.Fprintf(w, "\t%s %s = %d\n", es.goName, s.goName, es.value)
		ens = append(ens, es)
	}
	w.WriteString(")\n\n")
	imports["strconv"] = true
	fmt.Fprintf(w, "// String returns the IDL name of the enumerator.\nfunc (v %s) String() string {\n\tswitch v {\n", s.goName)
	done := map[int64]bool{}
	for _, es := range ens {
		if done[es.value] {
			continue
		}
		done[es.value] = true
		fmt.Fprintf(w, "\tcase %s:\n\t\treturn %q\n", es.goName, es.path[len(es.path)-1])
	}
	fmt.Fprintf(w, "\t}\n\treturn %q + strconv.FormatInt(int64(v), 10) + \")\"\n}\n\n", s.goName+"(")
	// The IDL name and the enumerators, which the enum's TypeObject holds (internal/xtypes).
	fmt.Fprintf(w, "// DDSTypeName returns the IDL type name of %s.\n", s.goName)
	fmt.Fprintf(w, "func (%s) DDSTypeName() string { return %q }\n\n", s.goName, s.scopedName())
	names, values := make([]string, len(ens)), make([]string, len(ens))
	for i, es := range ens {
		names[i] = strconv.Quote(es.path[len(es.path)-1])
		values[i] = strconv.FormatInt(es.value, 10)
	}
	fmt.Fprintf(w, "// DDSEnumerators returns the enumerators of %s and their values, in declaration order.\n", s.goName)
	fmt.Fprintf(w, "func (%s) DDSEnumerators() ([]string, []int32) {\n\treturn []string{%s}, []int32{%s}\n}\n\n",
		s.goName, strings.Join(names, ", "), strings.Join(values, ", "))
	return nil
}

func (g *gen) emitTypedef(w *strings.Builder, s *symbol) error {
	if err := g.resolveTypedef(s); err != nil {
		return err
	}
	fmt.Fprintf(w, "// %s is the IDL typedef %s (%s).\ntype %s = %s\n\n", s.goName, s.scopedName(), s.typ.idl(), s.goName, s.typ.goType())
	return nil
}

func (g *gen) emitConst(w *strings.Builder, s *symbol) error {
	v, err := g.constValue(s)
	if err != nil {
		return err
	}
	var lit string
	switch v.kind {
	case cvInt:
		lit = v.i.String()
		if u := s.typ.underlying(); u.kind == gPrim && u.prim == "char" && v.i.Int64() >= 0x20 && v.i.Int64() < 0x7f {
			lit = strconv.QuoteRune(rune(v.i.Int64()))
		}
	case cvFloat:
		lit = strconv.FormatFloat(v.f, 'g', -1, 64)
	case cvString:
		lit = strconv.Quote(v.s)
	case cvBool:
		lit = strconv.FormatBool(v.b)
	case cvEnum:
		lit = v.esym.goName
	}
	if p := s.path; g.opt.rosPkg != "" && len(p) == 5 {
		fmt.Fprintf(w, "// %s is the constant %s of %s/%s/%s.\n", s.goName, strings.TrimSuffix(p[4], "_"), p[0], p[1], strings.TrimSuffix(p[3], "_Constants"))
	} else {
		fmt.Fprintf(w, "// %s is the IDL constant %s.\n", s.goName, s.scopedName())
	}
	fmt.Fprintf(w, "const %s %s = %s\n\n", s.goName, s.typ.goType(), lit)
	return nil
}

// writeImports writes the import declaration: the standard library first, as gofumpt
// wants it.
func writeImports(w *strings.Builder, imports map[string]bool) {
	imps := slices.Sorted(maps.Keys(imports))
	switch len(imps) {
	case 0:
		return
	case 1:
		fmt.Fprintf(w, "import %q\n\n", imps[0])
		return
	}
	w.WriteString("import (\n")
	std := true
	for _, imp := range slices.Concat(
		slices.DeleteFunc(slices.Clone(imps), func(s string) bool { return strings.Contains(s, ".") }),
		slices.DeleteFunc(slices.Clone(imps), func(s string) bool { return !strings.Contains(s, ".") })) {
		if std && strings.Contains(imp, ".") {
			if !strings.HasSuffix(w.String(), "(\n") {
				w.WriteString("\n")
			}
			std = false
		}
		fmt.Fprintf(w, "\t%q\n", imp)
	}
	w.WriteString(")\n\n")
}
