package cdr

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
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
}

// field is one member of a struct or union.
type field struct {
	name      string
	off       uintptr
	t         *typ
	id        uint32
	key       bool
	optional  bool // a pointer field: absent when nil
	labels    []int64
	isDefault bool
}

func (t *typ) primitive() bool { return t.kind <= kFloat64 }

// Tag options, in the struct tag `dds:"..."` as a comma-separated list:
//
//	key          the member is part of the key
//	id=N         member id (mutable types; default: sequential from 0, XTypes @autoid(SEQUENTIAL))
//	bound=N      a bounded string or sequence
//	optional     the member is optional (the field must be a pointer; pointers are optional anyway)
//	disc         the union discriminator (makes the struct a union)
//	case=A|B     union case labels
//	default      the union's default case
//	-            the field is not serialized
type tagOpts struct {
	skip, key, optional, disc, isDefault bool
	id                                   int64
	bound                                int
	labels                               []int64
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
		if err != nil {
			return o, fmt.Errorf("cdr: tag %q: %w", tag, err)
		}
	}
	return o, nil
}

// Extensible is implemented by struct types that are not final. The method is called on
// the zero value, once per type.
type Extensible interface {
	CDRExtensibility() Extensibility
}

var (
	planMu    sync.Mutex
	planCache = map[reflect.Type]*typ{}
	extType   = reflect.TypeFor[Extensible]()
)

// planOf returns the compiled plan of rt, building and caching it on first use.
func planOf(rt reflect.Type) (*typ, error) {
	planMu.Lock()
	defer planMu.Unlock()
	b := builder{building: map[reflect.Type]*typ{}}
	t, err := b.build(rt, 0)
	if err != nil {
		return nil, err
	}
	for k, v := range b.building {
		planCache[k] = v
	}
	return t, nil
}

type builder struct {
	building map[reflect.Type]*typ
}

func (b *builder) build(rt reflect.Type, bound int) (*typ, error) {
	prim := func(k kind, size int) *typ { return &typ{kind: k, rt: rt, size: size, minWire: size} }
	switch rt.Kind() {
	case reflect.Bool:
		return prim(kBool, 1), nil
	case reflect.Int8:
		return prim(kInt8, 1), nil
	case reflect.Uint8:
		return prim(kUint8, 1), nil
	case reflect.Int16:
		return prim(kInt16, 2), nil
	case reflect.Uint16:
		return prim(kUint16, 2), nil
	case reflect.Int32:
		return prim(kInt32, 4), nil
	case reflect.Uint32:
		return prim(kUint32, 4), nil
	case reflect.Int64:
		return prim(kInt64, 8), nil
	case reflect.Uint64:
		return prim(kUint64, 8), nil
	case reflect.Float32:
		return prim(kFloat32, 4), nil
	case reflect.Float64:
		return prim(kFloat64, 8), nil
	case reflect.String:
		return &typ{kind: kString, rt: rt, bound: bound, minWire: 4}, nil
	case reflect.Slice:
		elem, err := b.build(rt.Elem(), 0)
		if err != nil {
			return nil, err
		}
		return &typ{kind: kSlice, rt: rt, bound: bound, elem: elem, minWire: 4}, nil
	case reflect.Array:
		elem, err := b.build(rt.Elem(), 0)
		if err != nil {
			return nil, err
		}
		return &typ{kind: kArray, rt: rt, n: rt.Len(), elem: elem, minWire: rt.Len() * elem.minWire}, nil
	case reflect.Struct:
		if t, ok := planCache[rt]; ok {
			return t, nil
		}
		if t, ok := b.building[rt]; ok {
			return t, nil // recursive type: filled in further up
		}
		return b.buildStruct(rt)
	default:
		return nil, fmt.Errorf("cdr: type %v: kind %v has no CDR mapping", rt, rt.Kind())
	}
}

func (b *builder) buildStruct(rt reflect.Type) (*typ, error) {
	t := &typ{kind: kStruct, rt: rt, disc: -1, minWire: 1}
	b.building[rt] = t
	if rt.Implements(extType) {
		t.ext = reflect.Zero(rt).Interface().(Extensible).CDRExtensibility()
	} else if x, ok := reflect.Zero(rt).Interface().(interface{ DDSExtensibility() Extensibility }); ok {
		t.ext = x.DDSExtensibility() // the method's name to come; either is accepted until then
	}
	if t.ext > Mutable {
		return nil, fmt.Errorf("cdr: type %v: invalid extensibility %v", rt, t.ext)
	}
	nextID := int64(0)
	ids := map[uint32]string{}
	for i := range rt.NumField() {
		sf := rt.Field(i)
		o, err := parseTag(sf.Tag.Get("dds"))
		if err != nil {
			return nil, fmt.Errorf("cdr: %v.%s: %w", rt, sf.Name, err)
		}
		if o.skip || !sf.IsExported() {
			continue
		}
		ft := sf.Type
		optional := o.optional
		if ft.Kind() == reflect.Pointer {
			optional = true
			ft = ft.Elem()
		} else if optional {
			return nil, fmt.Errorf("cdr: %v.%s: an optional member must be a pointer", rt, sf.Name)
		}
		if o.bound > 0 && ft.Kind() != reflect.String && ft.Kind() != reflect.Slice {
			return nil, fmt.Errorf("cdr: %v.%s: bound on a %v", rt, sf.Name, ft.Kind())
		}
		ftyp, err := b.build(ft, o.bound)
		if err != nil {
			return nil, err
		}
		id := nextID
		if o.id >= 0 {
			id = o.id
		}
		nextID = id + 1
		if prev, dup := ids[uint32(id)]; dup {
			return nil, fmt.Errorf("cdr: %v: members %s and %s have the same id %d", rt, prev, sf.Name, id)
		}
		ids[uint32(id)] = sf.Name
		f := field{
			name: sf.Name, off: sf.Offset, t: ftyp, id: uint32(id), key: o.key,
			optional: optional, labels: o.labels, isDefault: o.isDefault,
		}
		if o.key && optional {
			return nil, fmt.Errorf("cdr: %v.%s: a key member cannot be optional", rt, sf.Name)
		}
		if o.disc {
			if t.disc >= 0 {
				return nil, fmt.Errorf("cdr: %v: two discriminators", rt)
			}
			if !ftyp.primitive() || ftyp.kind == kFloat32 || ftyp.kind == kFloat64 || optional {
				return nil, fmt.Errorf("cdr: %v.%s: a discriminator must be an integer, enum, bool or char", rt, sf.Name)
			}
			t.disc = len(t.fields)
			t.kind = kUnion
		}
		if o.key {
			t.keys = append(t.keys, len(t.fields))
		}
		t.fields = append(t.fields, f)
	}
	t.all = make([]int, len(t.fields))
	for i := range t.all {
		t.all[i] = i
	}
	if t.kind == kUnion {
		if t.ext == Mutable {
			return nil, fmt.Errorf("cdr: union %v: mutable unions are not supported", rt)
		}
		for i := range t.fields {
			f := &t.fields[i]
			if i != t.disc && len(f.labels) == 0 && !f.isDefault {
				return nil, fmt.Errorf("cdr: union %v: member %s has no case label", rt, f.name)
			}
			if i != t.disc && f.optional {
				return nil, fmt.Errorf("cdr: union %v: member %s: union members cannot be optional", rt, f.name)
			}
		}
		t.minWire = t.fields[t.disc].t.size
		return t, nil
	}
	sum := 0
	for _, f := range t.fields {
		if f.optional {
			sum++
		} else {
			sum += f.t.minWire
		}
	}
	switch t.ext {
	case Final:
		t.minWire = max(1, sum)
	case Appendable:
		t.minWire = min(4, max(1, sum))
	case Mutable:
		t.minWire = 4
	}
	return t, nil
}

// maxKeySize returns the largest size the key of t can take in XCDR2 from offset off, or
// -1 when unbounded. It decides between a padded key hash and an MD5 one.
func (t *typ) maxKeySize(off int) int {
	switch {
	case t.primitive():
		a := min(t.size, 4)
		off += -off & (a - 1)
		return off + t.size
	case t.kind == kString:
		if t.bound == 0 {
			return -1
		}
		off += -off & 3
		return off + 4 + t.bound + 1
	case t.kind == kArray:
		for range t.n {
			if off = t.elem.maxKeySize(off); off < 0 {
				return -1
			}
		}
		return off
	case t.kind == kSlice:
		if t.bound == 0 {
			return -1
		}
		off += -off & 3
		off += 4
		for range t.bound {
			if off = t.elem.maxKeySize(off); off < 0 {
				return -1
			}
		}
		return off
	case t.kind == kStruct:
		for _, i := range t.keyFields() {
			if off = t.fields[i].t.maxKeySize(off); off < 0 {
				return -1
			}
		}
		return off
	}
	return -1 // unions as keys: treat as unbounded
}

// keyFields returns the members that form the key of a struct used as (part of) a key:
// its key members, or all members when it declares none (XTypes 1.3 §7.6.8).
func (t *typ) keyFields() []int {
	if len(t.keys) > 0 {
		return t.keys
	}
	return t.all
}
