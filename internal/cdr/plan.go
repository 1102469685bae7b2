package cdr

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
)

// kind is the wire shape of a Go type in a codec plan.
type kind uint8

const (
	kBool kind = iota
	kInt8
	kUint8
	kInt16
	kUint16
	kInt32
	kUint32
	kInt64
	kUint64
	kFloat32
	kFloat64
	kString
	kSlice
	kArray
	kStruct
	kUnion
	kTime     // time.Time as DDS Time_t {int32 sec; uint32 nanosec}
	kDuration // time.Duration as DDS Duration_t {int32 sec; uint32 nanosec}
)

// typ is the compiled plan of one Go type: what to read and write, where, in which order.
type typ struct {
	kind kind
	rt   reflect.Type
	size int // wire size of a primitive; 0 otherwise

	// kString, kSlice: bound (0 unbounded). kArray: length.
	bound int
	n     int
	elem  *typ

	// kStruct, kUnion
	ext    Extensibility
	fields []field
	keys   []int // indices of key fields, declaration order
	disc   int   // kUnion: index of the discriminator in fields
	all    []int // 0..len(fields)-1, for keyFields

	minWire int // fewest bytes a value can take on the wire (bounds allocation on decode)

	raw  [2]rawLayout // kStruct: encoded as a copy of its memory, XCDR1 and XCDR2
	flat [2][]leaf    // kStruct: the leaves when inline, XCDR1 and XCDR2
}

// field is one member of a struct or union.
type field struct {
	name      string
	idlName   string // the member's IDL name: the name= tag, or the Go name
	named     bool   // idlName is from a name= tag
	off       uintptr
	t         *typ
	id        uint32
	key       bool
	disc      bool // the union discriminator
	optional  bool // a pointer field: absent when nil
	labels    []int64
	isDefault bool
}

func (t *typ) primitive() bool { return t.kind <= kFloat64 }

// rawElems reports whether elements of t are stored as they are encoded in
// byte order be, so that encElems and decElems copy them as one block:
// primitives other than bool that are octets or in the host's byte order.
func (t *typ) rawElems(be bool) bool {
	return t.primitive() && t.kind != kBool && (t.size == 1 || be != hostLE)
}

// Tag options, in the struct tag `dds:"..."` as a comma-separated list:
//
//	key          the member is part of the key
//	id=N         member id (mutable types; default: sequential from 0, XTypes @autoid(SEQUENTIAL))
//	bound=N      a bounded string or sequence
//	optional     the member is optional (the field must be a pointer; pointers are optional anyway)
//	disc         the union discriminator (makes the struct a union)
//	case=A|B     union case labels
//	default      the union's default case
//	name=N       the member's IDL name, when it is not the Go field name (type objects)
//	-            the field is not serialized
type tagOpts struct {
	skip, key, optional, disc, isDefault bool
	id                                   int64
	bound                                int
	labels                               []int64
	name                                 string
}

func parseTag(tag string) (tagOpts, error) {
	o := tagOpts{id: -1}
	if tag == "" {
		return o, nil
	}
	for _, part := range strings.Split(tag, ",") {
		name, val, _ := strings.Cut(strings.TrimSpace(part), "=")
		var err error
		switch name {
		case "":
		case "-":
			o.skip = true
		case "key":
			o.key = true
		case "optional":
			o.optional = true
		case "disc":
			o.disc = true
		case "default":
			o.isDefault = true
		default:
			err = o.setValue(name, val)
		}
		if err != nil {
			return o, fmt.Errorf("tag %q: %w", tag, err)
		}
	}
	return o, nil
}

// setValue sets the tag option name that takes a value.
func (o *tagOpts) setValue(name, val string) error {
	var err error
	switch name {
	case "name":
		o.name = val
		if val == "" {
			err = fmt.Errorf("empty name")
		}
	case "id":
		o.id, err = strconv.ParseInt(val, 0, 64)
		if err == nil && (o.id < 0 || o.id > emIDMask) {
			err = fmt.Errorf("member id %d out of range", o.id)
		}
	case "bound":
		o.bound, err = strconv.Atoi(val)
		if err == nil && o.bound < 0 {
			err = fmt.Errorf("negative bound")
		}
	case "case":
		for _, l := range strings.Split(val, "|") {
			var v int64
			v, err = strconv.ParseInt(strings.TrimSpace(l), 0, 64)
			if err != nil {
				break
			}
			o.labels = append(o.labels, v)
		}
	default:
		err = fmt.Errorf("unknown option %q", name)
	}
	return err
}

// Extensible is implemented by struct types that are not final. It is the module's public
// contract: package dds re-exports Extensibility and its constants, so a user writes
//
//	func (Sample) DDSExtensibility() dds.Extensibility { return dds.Appendable }
//
// The method is called on the zero value, once per type.
type Extensible interface {
	DDSExtensibility() Extensibility
}

var (
	planMu       sync.Mutex
	planCache    = map[reflect.Type]*typ{}
	extType      = reflect.TypeFor[Extensible]()
	timeType     = reflect.TypeFor[time.Time]()
	durationType = reflect.TypeFor[time.Duration]()
)

// planOf returns the compiled plan of rt, building and caching it on first use. The
// build holds no lock, since it calls the type's DDSExtensibility method (user code);
// when two goroutines build the same type at once, the first to finish is kept.
func planOf(rt reflect.Type) (*typ, error) {
	b := builder{root: rt, building: map[reflect.Type]*typ{}}
	t, err := b.build(rt, 0)
	if err != nil {
		return nil, err
	}
	planMu.Lock()
	defer planMu.Unlock()
	for k, v := range b.building {
		if _, ok := planCache[k]; !ok {
			planCache[k] = v
		}
	}
	if c, ok := planCache[rt]; ok {
		return c, nil
	}
	return t, nil
}

// cachedPlan returns the plan of rt built earlier, if any.
func cachedPlan(rt reflect.Type) (*typ, bool) {
	planMu.Lock()
	defer planMu.Unlock()
	t, ok := planCache[rt]
	return t, ok
}

// builder compiles the plan of one root type. path is the member being compiled, as the
// user wrote it (Pose.Tags, Items[]), for errors.
type builder struct {
	root     reflect.Type
	path     []string
	building map[reflect.Type]*typ
}

// errorf returns a type error naming the root type and the member being compiled.
func (b *builder) errorf(format string, args ...any) error {
	if len(b.path) == 0 {
		return fmt.Errorf("cdr: type %v: "+format, append([]any{b.root}, args...)...)
	}
	var sb strings.Builder
	for i, seg := range b.path {
		if i > 0 && seg != "[]" {
			sb.WriteByte('.')
		}
		sb.WriteString(seg)
	}
	return fmt.Errorf("cdr: type %v: field %s: "+format, append([]any{b.root, sb.String()}, args...)...)
}

// prims maps the Go kinds of the fixed-size IDL primitives to their plan.
var prims = [...]struct {
	k    kind
	size int
}{
	reflect.Bool:    {kBool, 1},
	reflect.Int8:    {kInt8, 1},
	reflect.Uint8:   {kUint8, 1},
	reflect.Int16:   {kInt16, 2},
	reflect.Uint16:  {kUint16, 2},
	reflect.Int32:   {kInt32, 4},
	reflect.Uint32:  {kUint32, 4},
	reflect.Int64:   {kInt64, 8},
	reflect.Uint64:  {kUint64, 8},
	reflect.Float32: {kFloat32, 4},
	reflect.Float64: {kFloat64, 8},
}

// unmappable says why a Go kind has no CDR mapping.
var unmappable = map[reflect.Kind]string{
	reflect.Int:           "int has no fixed size: use int32 or int64",
	reflect.Uint:          "uint has no fixed size: use uint32 or uint64",
	reflect.Uintptr:       "uintptr has no fixed size and no IDL counterpart",
	reflect.Complex64:     "complex numbers have no IDL counterpart: use a struct of two floats",
	reflect.Complex128:    "complex numbers have no IDL counterpart: use a struct of two doubles",
	reflect.Map:           "IDL map<K, V> is not supported: use a sequence of key-value structs",
	reflect.Chan:          "channels have no IDL counterpart",
	reflect.Func:          "functions have no IDL counterpart",
	reflect.Interface:     "an interface has no IDL type: the codec needs the concrete type when it is built",
	reflect.UnsafePointer: "unsafe.Pointer has no IDL counterpart",
	reflect.Pointer:       "a pointer is mapped only as an optional struct member, not inside another type",
}

func (b *builder) build(rt reflect.Type, bound int) (*typ, error) {
	switch rt {
	case timeType:
		return &typ{kind: kTime, rt: rt, minWire: 8}, nil
	case durationType:
		return &typ{kind: kDuration, rt: rt, minWire: 8}, nil
	}
	if k := rt.Kind(); int(k) < len(prims) && prims[k].size > 0 {
		p := prims[k]
		return &typ{kind: p.k, rt: rt, size: p.size, minWire: p.size}, nil
	}
	switch rt.Kind() {
	case reflect.String:
		return &typ{kind: kString, rt: rt, bound: bound, minWire: 4}, nil
	case reflect.Slice:
		elem, err := b.buildElem(rt)
		if err != nil {
			return nil, err
		}
		return &typ{kind: kSlice, rt: rt, bound: bound, elem: elem, minWire: 4}, nil
	case reflect.Array:
		elem, err := b.buildElem(rt)
		if err != nil {
			return nil, err
		}
		if elem.kind == kArray {
			// A Go array of arrays is IDL's multi-dimensional array (T m[2][3] is [2][3]T, and
			// its TypeObject one array of two dimensions): on the wire one array of 2x3 T,
			// with one DHEADER at most (none for a primitive T, as Cyclone DDS writes it).
			// Go lays it out as 2x3 consecutive T.
			return &typ{kind: kArray, rt: rt, n: rt.Len() * elem.n, elem: elem.elem, minWire: rt.Len() * elem.minWire}, nil
		}
		return &typ{kind: kArray, rt: rt, n: rt.Len(), elem: elem, minWire: rt.Len() * elem.minWire}, nil
	case reflect.Struct:
		if t, ok := cachedPlan(rt); ok {
			return t, nil
		}
		if t, ok := b.building[rt]; ok {
			return t, nil // recursive type (through a sequence or an optional member): filled in further up
		}
		return b.buildStruct(rt)
	default:
		return nil, b.errorf("%v cannot be mapped (%s)", rt, unmappable[rt.Kind()])
	}
}

// buildElem compiles the element type of a slice or array type.
func (b *builder) buildElem(rt reflect.Type) (*typ, error) {
	b.path = append(b.path, "[]")
	defer func() { b.path = b.path[:len(b.path)-1] }()
	return b.build(rt.Elem(), 0)
}

func (b *builder) buildStruct(rt reflect.Type) (*typ, error) {
	t := &typ{kind: kStruct, rt: rt, disc: -1, minWire: 1}
	b.building[rt] = t
	var err error
	if t.ext, err = b.extensibility(rt); err != nil {
		return nil, err
	}
	ids := map[uint32]string{}
	nextID := int64(0)
	for i := range rt.NumField() {
		sf := rt.Field(i)
		b.path = append(b.path, sf.Name)
		f, ok, err := b.buildField(sf, nextID)
		if err == nil && ok {
			err = b.addField(t, f, ids)
		}
		b.path = b.path[:len(b.path)-1]
		if err != nil {
			return nil, err
		}
		if ok {
			nextID = int64(f.id) + 1
		}
	}
	if len(t.fields) == 0 {
		return nil, b.errorf("struct %v has no exported field to map: it would be sent empty", rt)
	}
	t.all = make([]int, len(t.fields))
	for i := range t.all {
		t.all[i] = i
	}
	if t.kind == kUnion {
		return t, b.checkUnion(t)
	}
	t.minWire = t.structMinWire()
	t.computeRaw()
	return t, nil
}

// extensibility returns the extensibility struct type rt declares. A DDSExtensibility
// method that does not implement Extensible (a pointer receiver, another signature) is an
// error rather than a type silently left final.
func (b *builder) extensibility(rt reflect.Type) (Extensibility, error) {
	if !rt.Implements(extType) {
		if _, ok := reflect.PointerTo(rt).MethodByName("DDSExtensibility"); ok {
			return Final, b.errorf("%v: the DDSExtensibility method must have a value receiver and the signature DDSExtensibility() dds.Extensibility", rt)
		}
		return Final, nil
	}
	x := reflect.Zero(rt).Interface().(Extensible).DDSExtensibility()
	if x > Mutable {
		return Final, b.errorf("invalid extensibility %v of %v", x, rt)
	}
	return x, nil
}

// buildField compiles the struct field sf whose member id defaults to nextID. ok is false
// for a field that is not serialized.
func (b *builder) buildField(sf reflect.StructField, nextID int64) (f field, ok bool, err error) {
	o, err := parseTag(sf.Tag.Get("dds"))
	if err != nil {
		return f, false, b.errorf("%w", err)
	}
	if o.skip || !sf.IsExported() {
		return f, false, nil
	}
	ft := sf.Type
	optional := o.optional
	if ft.Kind() == reflect.Pointer {
		optional = true
		ft = ft.Elem()
	} else if optional {
		return f, false, b.errorf("an optional member must be a pointer")
	}
	if o.bound > 0 && ft.Kind() != reflect.String && ft.Kind() != reflect.Slice {
		return f, false, b.errorf("a bound applies to a string or a slice, not to %v", ft)
	}
	if o.key && optional {
		return f, false, b.errorf("a key member cannot be optional")
	}
	ftyp, err := b.build(ft, o.bound)
	if err != nil {
		return f, false, err
	}
	id := nextID
	if o.id >= 0 {
		id = o.id
	}
	if o.disc && (!ftyp.primitive() || ftyp.kind == kFloat32 || ftyp.kind == kFloat64 || optional) {
		return f, false, b.errorf("a discriminator must be an integer, enum, bool or char")
	}
	idlName := sf.Name
	if o.name != "" {
		idlName = o.name
	}
	return field{
		name: sf.Name, idlName: idlName, named: o.name != "", off: sf.Offset, t: ftyp, id: uint32(id), key: o.key, disc: o.disc,
		optional: optional, labels: o.labels, isDefault: o.isDefault,
	}, true, nil
}

// addField appends f to t's members, checking its id against the ids seen so far.
func (b *builder) addField(t *typ, f field, ids map[uint32]string) error {
	if prev, dup := ids[f.id]; dup {
		return b.errorf("members %s and %s have the same id %d", prev, f.name, f.id)
	}
	ids[f.id] = f.name
	if f.disc {
		if t.disc >= 0 {
			return b.errorf("%v has two discriminators", t.rt)
		}
		t.disc = len(t.fields)
		t.kind = kUnion
	}
	if f.key {
		t.keys = append(t.keys, len(t.fields))
	}
	t.fields = append(t.fields, f)
	return nil
}

// checkUnion validates a union's members and sets its minWire.
func (b *builder) checkUnion(t *typ) error {
	if t.ext == Mutable {
		return b.errorf("union %v: mutable unions are not supported", t.rt)
	}
	for i := range t.fields {
		f := &t.fields[i]
		if i != t.disc && len(f.labels) == 0 && !f.isDefault {
			return b.errorf("union %v: member %s has no case label", t.rt, f.name)
		}
		if i != t.disc && f.optional {
			return b.errorf("union %v: member %s: union members cannot be optional", t.rt, f.name)
		}
	}
	t.minWire = t.fields[t.disc].t.size
	return nil
}

// structMinWire returns the fewest bytes a value of struct t takes on the wire.
func (t *typ) structMinWire() int {
	sum := 0
	for _, f := range t.fields {
		if f.optional {
			sum++
		} else {
			sum += f.t.minWire
		}
	}
	switch t.ext {
	case Appendable:
		return min(4, max(1, sum))
	case Mutable:
		return 4
	default:
		return max(1, sum)
	}
}

// maxKeySize returns the largest size the key of t can take in XCDR2 from offset off, or
// -1 when unbounded. It decides between a padded key hash and an MD5 one. A key that
// nests its own type deeper than maxKeyDepth (a recursive type) counts as unbounded.
func (t *typ) maxKeySize(off, depth int) int {
	if depth > maxKeyDepth {
		return -1
	}
	switch t.kind {
	case kString:
		if t.bound == 0 {
			return -1
		}
		return align4(off) + 4 + t.bound + 1
	case kArray:
		return t.elem.maxElemsSize(t.elemsStart(off), t.n, depth)
	case kSlice:
		if t.bound == 0 {
			return -1
		}
		return t.elem.maxElemsSize(align4(t.elemsStart(off))+4, t.bound, depth)
	case kStruct:
		for _, i := range t.keyFields() {
			if off = t.fields[i].t.maxKeySize(off, depth+1); off < 0 {
				return -1
			}
		}
		return off
	case kTime, kDuration:
		return align4(off) + 8
	case kUnion:
		return -1 // unions as keys: treat as unbounded
	default: // primitives
		a := min(t.size, 4)
		return off + -off&(a-1) + t.size
	}
}

// maxKeyDepth bounds the nesting maxKeySize follows.
const maxKeyDepth = 32

func align4(off int) int { return off + -off&3 }

// elemsStart returns where the elements (or the length) of an array or sequence t start
// from off: after a DHEADER when its elements are not primitive (XCDR2).
func (t *typ) elemsStart(off int) int {
	if t.elem.primitive() {
		return off
	}
	return align4(off) + 4
}

// maxElemsSize returns the largest size of n elements of type t from off, -1 if unbounded.
func (t *typ) maxElemsSize(off, n, depth int) int {
	for range n {
		if off = t.maxKeySize(off, depth+1); off < 0 {
			return -1
		}
	}
	return off
}

// keyFields returns the members that form the key of a struct used as (part of) a key:
// its key members, or all members when it declares none (XTypes 1.3 §7.6.8).
func (t *typ) keyFields() []int {
	if len(t.keys) > 0 {
		return t.keys
	}
	return t.all
}

// members returns the members a struct writes or reads: its keyFields
// when only the key is wanted, otherwise all of them.
func (t *typ) members(keyOnly bool) []int {
	if keyOnly {
		return t.keyFields()
	}
	return t.all
}

// keyLeaf is a primitive member of a key: where it lies in the value and its wire size.
type keyLeaf struct {
	off  uintptr
	size int
}

// keyLeaves appends to out the primitive members that make up t's key, in the order
// the key is serialized, with their offsets from base. It reports false when the key
// holds anything else (a string, sequence, array, time, optional member, union or
// mutable struct): KeyHash then serializes it through the encoder.
func (t *typ) keyLeaves(base uintptr, depth int, out []keyLeaf) ([]keyLeaf, bool) {
	if depth > maxKeyDepth || t.ext == Mutable {
		return nil, false
	}
	for _, i := range t.keyFields() {
		f := &t.fields[i]
		switch {
		case f.optional:
			return nil, false
		case f.t.kind == kStruct:
			var ok bool
			if out, ok = f.t.keyLeaves(base+f.off, depth+1, out); !ok {
				return nil, false
			}
		case f.t.primitive():
			out = append(out, keyLeaf{base + f.off, f.t.size})
		default:
			return nil, false
		}
	}
	return out, true
}
