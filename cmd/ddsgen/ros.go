package main

import (
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file reads ROS 2 interface definitions (.msg, .srv, .action) as rosidl_adapter
// does (ros2/rosidl: rosidl_adapter/rosidl_adapter/parser.py) and writes them as the IDL
// that rosidl_generator_dds_idl declares (ros2/rosidl_dds: resource/msg.idl.em): module
// pkg::msg::dds_ (srv, action), struct Name_, members and constants with a trailing
// underscore. That IDL is what the rmws put on the wire; the IDL front end then
// generates the Go from it like from any IDL file.

// rosArr is how a ROS field is repeated.
type rosArr uint8

const (
	rosOne     rosArr = iota // T
	rosFixed                 // T[N]: an array
	rosSeq                   // T[]: a sequence
	rosBounded               // T[<=N]: a bounded sequence
)

// rosType is a field type of a ROS definition.
type rosType struct {
	prim     string // a ROS primitive type; "" for a nested type
	strBound int64  // string<=N
	pkg      string // nested: the package,
	sub      string // "msg" (or "action" for the types of an action's services),
	name     string // and the type name
	arr      rosArr
	size     int64
}

type rosField struct {
	at   pos
	typ  rosType
	name string
	def  string // the default value as an IDL literal, "" when none
}

type rosConst struct {
	at    pos
	prim  string
	name  string
	value string // IDL literal
}

// rosStruct is one structure of a definition: the message, a service's request or
// response, an action's goal, result, feedback or one of the types derived from them.
type rosStruct struct {
	at     pos
	name   string // Pose, GetEntities_Request, SimulateSteps_SendGoal_Request
	fields []rosField
	consts []rosConst
}

// rosFile is a parsed definition file.
type rosFile struct {
	path    string
	pkg     string
	kind    string // msg, srv or action
	name    string
	structs []rosStruct
}

// rosPrimIDL maps the ROS primitive types to IDL (rosidl_adapter/msg/__init__.py
// MSG_TYPE_TO_IDL; char is uint8 since ROS 2 Foxy).
var rosPrimIDL = map[string]string{
	"bool": "boolean", "byte": "octet", "char": "uint8", "float32": "float", "float64": "double",
	"int8": "int8", "uint8": "uint8", "int16": "int16", "uint16": "uint16", "int32": "int32",
	"uint32": "uint32", "int64": "int64", "uint64": "uint64", "string": "string",
}

var (
	rosPackageName  = regexp.MustCompile(`^[a-z][a-z0-9_]*$`) // and no "__", no trailing "_"
	rosMessageName  = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)
	rosConstantName = regexp.MustCompile(`^[A-Z]([A-Z0-9_]?[A-Z0-9]+)*$`)
)

// validROSName is rosidl's pattern for package and field names.
func validROSName(s string) bool {
	return rosPackageName.MatchString(s) && !strings.Contains(s, "__") && !strings.HasSuffix(s, "_")
}

// parseROSFile parses a .msg, .srv or .action file of package pkg.
func parseROSFile(path, pkg string, src []byte) (*rosFile, error) {
	ext := filepath.Ext(path)
	f := &rosFile{path: path, pkg: pkg, kind: strings.TrimPrefix(ext, "."), name: strings.TrimSuffix(filepath.Base(path), ext)}
	at := pos{file: path, line: 1, col: 1}
	if !rosMessageName.MatchString(f.name) {
		return nil, errAt(at, "%q is not a valid ROS type name (%s)", f.name, rosMessageName)
	}
	if !validROSName(pkg) {
		return nil, errAt(at, "%q is not a valid ROS package name", pkg)
	}
	if !utf8.Valid(src) {
		return nil, errAt(at, "the file is not UTF-8 text") // rosidl reads definitions as UTF-8
	}
	lines := strings.Split(string(src), "\n")
	var sections [][2]int // first line index, end
	start := 0
	for i, l := range lines {
		if strings.TrimSuffix(l, "\r") == "---" {
			sections = append(sections, [2]int{start, i})
			start = i + 1
		}
	}
	sections = append(sections, [2]int{start, len(lines)})
	want := map[string]int{"msg": 1, "srv": 2, "action": 3}[f.kind]
	if len(sections) != want {
		return nil, errAt(at, "a .%s file has %d parts separated by ---, not %d", f.kind, want, len(sections))
	}
	var names []string
	switch f.kind {
	case "msg":
		names = []string{f.name}
	case "srv":
		names = []string{f.name + "_Request", f.name + "_Response"}
	default:
		names = []string{f.name + "_Goal", f.name + "_Result", f.name + "_Feedback"}
	}
	for i, sec := range sections {
		s, err := parseROSSection(path, pkg, lines[sec[0]:sec[1]], sec[0]+1)
		if err != nil {
			return nil, err
		}
		s.at, s.name = pos{file: path, line: sec[0] + 1, col: 1}, names[i]
		f.structs = append(f.structs, s)
	}
	if f.kind == "action" {
		f.structs = append(f.structs, actionStructs(f)...)
	}
	return f, nil
}

// actionStructs are the types rosidl derives from an action A's goal, result and
// feedback (ros2/rosidl: rosidl_parser/rosidl_parser/definition.py, class Action).
func actionStructs(f *rosFile) []rosStruct {
	at := pos{file: f.path, line: 1, col: 1}
	nested := func(pkg, sub, name string) rosType { return rosType{pkg: pkg, sub: sub, name: name} }
	goalID := rosField{at: at, name: "goal_id", typ: nested("unique_identifier_msgs", "msg", "UUID")}
	own := func(suffix, member string) rosField {
		return rosField{at: at, name: member, typ: nested(f.pkg, "action", f.name+suffix)}
	}
	return []rosStruct{
		{at: at, name: f.name + "_SendGoal_Request", fields: []rosField{goalID, own("_Goal", "goal")}},
		{at: at, name: f.name + "_SendGoal_Response", fields: []rosField{
			{at: at, name: "accepted", typ: rosType{prim: "bool"}},
			{at: at, name: "stamp", typ: nested("builtin_interfaces", "msg", "Time")},
		}},
		{at: at, name: f.name + "_GetResult_Request", fields: []rosField{goalID}},
		{at: at, name: f.name + "_GetResult_Response", fields: []rosField{
			{at: at, name: "status", typ: rosType{prim: "int8"}},
			own("_Result", "result"),
		}},
		{at: at, name: f.name + "_FeedbackMessage", fields: []rosField{goalID, own("_Feedback", "feedback")}},
	}
}

// parseROSSection parses the lines of one structure; first is the number of the first.
func parseROSSection(path, pkg string, lines []string, first int) (rosStruct, error) {
	var s rosStruct
	seen := map[string]bool{}
	for i, raw := range lines {
		at := pos{file: path, line: first + i, col: 1}
		line := strings.ReplaceAll(strings.TrimSuffix(raw, "\r"), "\t", " ")
		if c := strings.IndexByte(line, '#'); c >= 0 {
			line = line[:c]
		}
		line = strings.TrimRight(line, " ")
		if strings.TrimSpace(line) == "" {
			continue
		}
		if strings.HasPrefix(line, "@") {
			return s, errAt(at, "annotations (%s) are not supported: ROS 2 Humble and Jazzy have none", strings.Fields(line)[0])
		}
		if line[0] == ' ' {
			return s, errAt(at, "a definition starts at the beginning of its line")
		}
		typ, rest, _ := strings.Cut(line, " ")
		rest = strings.TrimLeft(rest, " ")
		if rest == "" {
			return s, errAt(at, "%q: want a type and a name", line)
		}
		if eq := strings.IndexByte(rest, '='); eq >= 0 {
			c, err := parseROSConst(at, typ, strings.TrimRight(rest[:eq], " "), strings.TrimLeft(rest[eq+1:], " "))
			if err != nil {
				return s, err
			}
			if seen["const "+c.name] {
				return s, errAt(at, "constant %s twice", c.name)
			}
			seen["const "+c.name] = true
			s.consts = append(s.consts, c)
			continue
		}
		name, def, _ := strings.Cut(rest, " ")
		f, err := parseROSField(at, pkg, typ, name, strings.TrimLeft(def, " "))
		if err != nil {
			return s, err
		}
		if seen[f.name] {
			return s, errAt(at, "field %s twice", f.name)
		}
		seen[f.name] = true
		s.fields = append(s.fields, f)
	}
	return s, nil
}

func parseROSConst(at pos, typ, name, value string) (rosConst, error) {
	if _, ok := rosPrimIDL[typ]; !ok {
		return rosConst{}, errAt(at, "constant %s: the type of a constant is a primitive type, not %q", name, typ)
	}
	if !rosConstantName.MatchString(name) {
		return rosConst{}, errAt(at, "%q is not a valid constant name (%s)", name, rosConstantName)
	}
	lit, err := rosValue(at, rosType{prim: typ}, value)
	if err != nil {
		return rosConst{}, err
	}
	return rosConst{at: at, prim: typ, name: name, value: lit}, nil
}

func parseROSField(at pos, pkg, typ, name, def string) (rosField, error) {
	t, err := parseROSType(at, pkg, typ)
	if err != nil {
		return rosField{}, err
	}
	if !validROSName(name) {
		return rosField{}, errAt(at, "%q is not a valid field name (lower case, digits and single underscores, not at the end)", name)
	}
	f := rosField{at: at, typ: t, name: name}
	if def != "" {
		if f.def, err = rosDefault(at, t, def); err != nil {
			return f, err
		}
	}
	return f, nil
}

// parseROSType parses a field type: a primitive, string<=N, pkg/Name or Name (in pkg),
// each optionally followed by [], [N] or [<=N].
func parseROSType(at pos, pkg, s string) (rosType, error) {
	var t rosType
	if strings.HasSuffix(s, "]") {
		i := strings.LastIndexByte(s, '[')
		if i < 0 {
			return t, errAt(at, "type %q ends with ] but has no [", s)
		}
		inner := s[i+1 : len(s)-1]
		s = s[:i]
		switch {
		case inner == "":
			t.arr = rosSeq
		case strings.HasPrefix(inner, "<="):
			t.arr, inner = rosBounded, inner[2:]
		default:
			t.arr = rosFixed
		}
		if t.arr != rosSeq {
			n, err := rosSize(at, inner)
			if err != nil {
				return t, err
			}
			t.size = n
		}
	}
	switch {
	case s == "wstring" || strings.HasPrefix(s, "wstring<="):
		return t, errAt(at, "wstring is not supported: ddsgo's CDR codec has no wide strings")
	case s == "time" || s == "duration":
		return t, errAt(at, "%s is ROS 1's; use builtin_interfaces/%s", s, export(s))
	case rosPrimIDL[s] != "":
		t.prim = s
	case strings.HasPrefix(s, "string<="):
		n, err := rosSize(at, s[len("string<="):])
		if err != nil {
			return t, err
		}
		t.prim, t.strBound = "string", n
	default:
		t.pkg, t.sub, t.name = pkg, "msg", s
		if p, n, ok := strings.Cut(s, "/"); ok {
			t.pkg, t.name = p, n
		}
		if !validROSName(t.pkg) || !rosMessageName.MatchString(t.name) {
			return t, errAt(at, "unknown type %q", s)
		}
	}
	return t, nil
}

// rosSize parses an array size or bound: an integer above 0.
func rosSize(at pos, s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil || n <= 0 {
		return 0, errAt(at, "size %q: want an integer above 0", s)
	}
	return n, nil
}

// rosValue parses the value of a constant or default of primitive type t as rosidl
// does (parse_primitive_value_string) and returns it as an IDL literal.
func rosValue(at pos, t rosType, s string) (string, error) {
	bad := func(why string) error { return errAt(at, "value %q of %s: %s", s, t.prim, why) }
	switch t.prim {
	case "bool":
		switch strings.ToLower(s) {
		case "true", "1":
			return "TRUE", nil
		case "false", "0":
			return "FALSE", nil
		}
		return "", bad("want true, false, 1 or 0")
	case "float32", "float64":
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return "", bad("want a finite floating-point number")
		}
		if t.prim == "float32" && math.Abs(f) > math.MaxFloat32 {
			return "", bad("out of the range of float32")
		}
		lit := strconv.FormatFloat(f, 'g', -1, 64)
		if !strings.ContainsAny(lit, ".e") {
			lit += ".0"
		}
		return lit, nil
	case "string":
		return rosString(s, t.strBound, bad)
	}
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		v, ok = new(big.Int).SetString(s, 0) // 0x.., 0o.., 0b..
	}
	lo, hi := rosIntRange(t.prim)
	if !ok || v.Cmp(lo) < 0 || v.Cmp(hi) > 0 {
		return "", bad(fmt.Sprintf("want an integer from %v to %v", lo, hi))
	}
	return v.String(), nil
}

// rosIntRange is the range of an integer primitive (byte and char are uint8).
func rosIntRange(prim string) (lo, hi *big.Int) {
	bits, unsigned := 8, true
	if p := strings.TrimPrefix(strings.TrimPrefix(prim, "u"), "int"); p != prim && p != "" {
		bits, _ = strconv.Atoi(p)
		unsigned = strings.HasPrefix(prim, "u")
	}
	if unsigned {
		return big.NewInt(0), new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(bits)), big.NewInt(1))
	}
	hi = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(bits-1)), big.NewInt(1))
	return new(big.Int).Neg(new(big.Int).Add(hi, big.NewInt(1))), hi
}

// rosString unquotes a string value (outer quotes are optional, inner ones escaped)
// and writes it as an IDL string literal.
func rosString(s string, bound int64, bad func(string) error) (string, error) {
	for _, q := range []string{`"`, `'`} {
		if len(s) >= 2 && strings.HasPrefix(s, q) && strings.HasSuffix(s, q) {
			inner := s[1 : len(s)-1]
			if strings.Contains(strings.ReplaceAll(inner, `\`+q, ""), q) {
				return "", bad("inner quotes must be escaped")
			}
			s = strings.ReplaceAll(inner, `\`+q, q)
			break
		}
	}
	if bound > 0 && int64(len(s)) > bound {
		return "", bad(fmt.Sprintf("longer than the bound %d", bound))
	}
	if strings.IndexByte(s, 0) >= 0 {
		return "", bad("a string cannot hold a NUL character") // CDR strings end at NUL
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' || c == '"':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\%03o`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String(), nil
}

// rosDefault parses a field's default value: a primitive value, or [v, ...] for an
// array or sequence of primitives, which becomes an IDL string as in rosidl_adapter.
func rosDefault(at pos, t rosType, s string) (string, error) {
	if t.prim == "" {
		return "", errAt(at, "default values of nested types are not supported (nor are they by rosidl)")
	}
	if t.arr == rosOne {
		return rosValue(at, t, s)
	}
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
		return "", errAt(at, "default %q of an array: want [v, ...]", s)
	}
	elems := splitROSList(s[1 : len(s)-1])
	switch {
	case t.arr == rosFixed && int64(len(elems)) != t.size:
		return "", errAt(at, "default %q: want %d elements, not %d", s, t.size, len(elems))
	case t.arr == rosBounded && int64(len(elems)) > t.size:
		return "", errAt(at, "default %q: want at most %d elements, not %d", s, t.size, len(elems))
	}
	lits := make([]string, len(elems))
	for i, e := range elems {
		lit, err := rosValue(at, rosType{prim: t.prim, strBound: t.strBound}, strings.TrimSpace(e))
		if err != nil {
			return "", err
		}
		lits[i] = lit
	}
	v, _ := rosString("["+strings.Join(lits, ", ")+"]", 0, nil)
	return v, nil
}

// splitROSList splits the elements of a list value at commas outside quotes.
func splitROSList(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	var out []string
	var quote byte
	start := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0 && c == '\\':
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		case quote == 0 && c == ',':
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// idlType is the IDL of a field's type, as rosidl_generator_dds_idl writes it.
func (t rosType) idlBase() string {
	switch {
	case t.prim == "":
		return t.pkg + "::" + t.sub + "::dds_::" + t.name + "_"
	case t.strBound > 0:
		return fmt.Sprintf("string<%d>", t.strBound)
	}
	return rosPrimIDL[t.prim]
}

// writeIDL writes the definitions of f as rosidl_generator_dds_idl does.
func (f *rosFile) writeIDL(b *strings.Builder) {
	fmt.Fprintf(b, "// %s/%s/%s.%s\nmodule %s { module %s { module dds_ {\n", f.pkg, f.kind, f.name, f.kind, f.pkg, f.kind)
	for _, s := range f.structs {
		if len(s.consts) > 0 {
			fmt.Fprintf(b, "  module %s_Constants {\n", s.name)
			for _, c := range s.consts {
				fmt.Fprintf(b, "    const %s %s_ = %s;\n", rosPrimIDL[c.prim], c.name, c.value)
			}
			b.WriteString("  };\n")
		}
		fmt.Fprintf(b, "  struct %s_ {\n", s.name)
		if len(s.fields) == 0 {
			b.WriteString("    uint8 structure_needs_at_least_one_member_;\n")
		}
		for _, fl := range s.fields {
			b.WriteString("    ")
			if fl.def != "" {
				fmt.Fprintf(b, "@default(value=%s) ", fl.def)
			}
			switch fl.typ.arr {
			case rosOne:
				fmt.Fprintf(b, "%s %s_;\n", fl.typ.idlBase(), fl.name)
			case rosFixed:
				fmt.Fprintf(b, "%s %s_[%d];\n", fl.typ.idlBase(), fl.name, fl.typ.size)
			case rosSeq:
				fmt.Fprintf(b, "sequence<%s> %s_;\n", fl.typ.idlBase(), fl.name)
			case rosBounded:
				fmt.Fprintf(b, "sequence<%s, %d> %s_;\n", fl.typ.idlBase(), fl.typ.size, fl.name)
			}
		}
		b.WriteString("  };\n")
	}
	b.WriteString("}; }; };\n\n")
}

// rosSet is a ROS package to generate and the definitions it needs.
type rosSet struct {
	pkg   string   // the (first) package named on the command line
	named string   // every package named on the command line, for the IDL's header
	dirs  []string // where packages are looked up: the target's parent, then -I
	read  readFunc
	files map[string]*rosFile // by pkg/kind/Name
	order []*rosFile          // dependencies before their users
}

// loadROS reads the definitions named on the command line (package directories or
// files) and, recursively, the messages they use. For Go they must all be of one package
// (one Go package is generated); for IDL (several) they may come from several.
func loadROS(args, incDirs []string, read readFunc, several bool) (*rosSet, error) {
	set := &rosSet{read: read, files: map[string]*rosFile{}}
	type named struct{ pkg, path string }
	var todo []named
	var pkgs []string
	for _, a := range args {
		pkgDir, ps, err := rosArg(a)
		if err != nil {
			return nil, err
		}
		pkg := filepath.Base(pkgDir)
		if set.pkg != "" && pkg != set.pkg && !several {
			return nil, fmt.Errorf("ddsgen: %s is in package %s, not %s: one package at a time (several only with -idl)", a, pkg, set.pkg)
		}
		if set.pkg == "" {
			set.pkg = pkg
		}
		if !slices.Contains(pkgs, pkg) {
			pkgs = append(pkgs, pkg)
		}
		if d := filepath.Dir(pkgDir); !slices.Contains(set.dirs, d) {
			set.dirs = append(set.dirs, d)
		}
		for _, p := range ps {
			todo = append(todo, named{pkg, p})
		}
	}
	set.named = strings.Join(pkgs, ", ")
	set.dirs = append(set.dirs, incDirs...)
	for _, n := range todo {
		if err := set.load(n.pkg, n.path); err != nil {
			return nil, err
		}
	}
	return set, nil
}

// rosArg returns the package directory of a command-line argument and the definition
// files it names: a file pkg/{msg,srv,action}/Name.ext, or all files of a package directory.
func rosArg(a string) (string, []string, error) {
	if st, err := os.Stat(a); err == nil && st.IsDir() {
		var ps []string
		for _, k := range []string{"msg", "srv", "action"} {
			m, _ := filepath.Glob(filepath.Join(a, k, "*."+k))
			ps = append(ps, m...)
		}
		if len(ps) == 0 {
			return "", nil, fmt.Errorf("ddsgen: %s has no msg/*.msg, srv/*.srv or action/*.action", a)
		}
		return filepath.Clean(a), ps, nil
	}
	abs, err := filepath.Abs(a)
	if err != nil {
		return "", nil, err
	}
	kind := strings.TrimPrefix(filepath.Ext(a), ".")
	if (kind != "msg" && kind != "srv" && kind != "action") || filepath.Base(filepath.Dir(abs)) != kind {
		return "", nil, fmt.Errorf("ddsgen: %s: want PKG/msg/NAME.msg, PKG/srv/NAME.srv, PKG/action/NAME.action or a package directory", a)
	}
	pkgDir := filepath.Dir(filepath.Dir(a))
	if filepath.Base(pkgDir) == "." || filepath.Base(pkgDir) == ".." {
		pkgDir = filepath.Dir(filepath.Dir(abs))
	}
	return pkgDir, []string{a}, nil
}

// load reads one definition file of package pkg, then what it uses.
func (set *rosSet) load(pkg, path string) error {
	kind := strings.TrimPrefix(filepath.Ext(path), ".")
	key := pkg + "/" + kind + "/" + strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if _, done := set.files[key]; done {
		return nil
	}
	return set.parse(key, pkg, path)
}

func (set *rosSet) parse(key, pkg, path string) error {
	src, err := set.read(path)
	if err != nil {
		return err
	}
	f, err := parseROSFile(path, pkg, src)
	if err != nil {
		return err
	}
	set.files[key] = f // before its dependencies: a cycle ends here
	for _, s := range f.structs {
		for _, fl := range s.fields {
			if fl.typ.prim != "" || fl.typ.sub != "msg" {
				continue
			}
			if err := set.need(fl.at, fl.typ.pkg, fl.typ.name); err != nil {
				return err
			}
		}
	}
	set.order = append(set.order, f)
	return nil
}

// need loads the message pkg/msg/name, from the first directory that has it.
func (set *rosSet) need(at pos, pkg, name string) error {
	key := pkg + "/msg/" + name
	if _, done := set.files[key]; done {
		return nil
	}
	for _, d := range set.dirs {
		p := filepath.Join(d, pkg, "msg", name+".msg")
		if _, err := set.read(p); err == nil {
			return set.parse(key, pkg, p)
		}
	}
	return errAt(at, "unknown type %s/%s: no %s in %s", pkg, name, filepath.Join(pkg, "msg", name+".msg"), strings.Join(set.dirs, ", "))
}

// idl returns the IDL of every definition, dependencies first.
func (set *rosSet) idl() string {
	var b strings.Builder
	for _, f := range set.order {
		f.writeIDL(&b)
	}
	return b.String()
}

// generateROS generates the Go types of one ROS package, or with idlOnly the IDL of one
// or several.
func generateROS(opt options, args []string, idlOnly bool) ([]byte, error) {
	read := opt.read
	if read == nil {
		read = os.ReadFile
	}
	set, err := loadROS(args, opt.incDirs, read, idlOnly)
	if err != nil {
		return nil, err
	}
	src := set.idl()
	if idlOnly {
		what := "package " + set.named + " and what it uses"
		if strings.Contains(set.named, ",") {
			what = "packages " + set.named + " and what they use"
		}
		return []byte("// IDL of ROS 2 " + what + ", generated by ddsgen -ros -idl.\n\n" + src), nil
	}
	if opt.pkg == "" {
		opt.pkg = set.pkg
	}
	opt.rosPkg = set.pkg
	opt.ext = "final"
	opt.header = "ROS 2 package " + set.pkg
	const name = "ros.idl"
	opt.read = func(n string) ([]byte, error) {
		if n != name {
			return nil, os.ErrNotExist
		}
		return []byte(src), nil
	}
	return generate(opt, []string{name})
}
