package cdr

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// TypeKind is the IDL kind of a described type.
type TypeKind uint8

// The kinds of a Desc. The primitives are in the order of the codec's plan kinds.
const (
	KindBool TypeKind = iota
	KindInt8
	KindUint8
	KindInt16
	KindUint16
	KindInt32
	KindUint32
	KindInt64
	KindUint64
	KindFloat32
	KindFloat64
	KindString
	KindSequence
	KindArray
	KindStruct
	KindUnion
	KindEnum
)

// Desc describes a Go type as the IDL type the codec maps it to: what a type object
// (internal/xtypes) is built from. Time and Duration are described as the structs they
// travel as.
type Desc struct {
	Kind TypeKind
	// Name is the IDL type name of a struct or union: its DDSTypeName, or "pkg::Type".
	Name  string
	Bound int   // KindString, KindSequence: the bound (0 unbounded); KindArray: the length
	Elem  *Desc // KindSequence, KindArray
	Ext   Extensibility
	// Members of a struct or union, in declaration order; a union's discriminator is
	// Members[Disc].
	Members []Member
	Disc    int
	// Defined is set for a primitive, string, sequence or array that is a Go defined
	// type (type Color int32): in IDL an enum or a typedef, which its description as the
	// underlying type does not tell.
	Defined bool
	// Literals are the enumerators of a KindEnum, in declaration order; Bound is then the
	// enum's bit bound (8, 16 or 32: the size of its Go integer type).
	Literals []Literal
}

// Literal is an enumerator of a described enum.
type Literal struct {
	Name  string
	Value int32
}

// Enumerated is implemented by a Go integer type that is an IDL enum (ddsgen generates
// it, with a DDSTypeName method for the enum's IDL name): its enumerators' names and
// values in declaration order. The codec does not need it; type descriptions do.
type Enumerated interface {
	DDSEnumerators() (names []string, values []int32)
}

// Member is a member of a described struct or union.
type Member struct {
	Name     string // the IDL name: the name= tag, or the Go field name
	Named    bool   // Name is from a name= tag
	ID       uint32
	Type     *Desc
	Key      bool
	Optional bool
	Default  bool    // the union's default member
	Labels   []int64 // union case labels
}

// ErrRecursive is returned by Describe for a type that contains itself.
var ErrRecursive = errors.New("cdr: recursive types cannot be described")

// Describe returns the IDL description of rt, which must be a type NewCodec accepts. The
// description is built anew on each call.
func Describe(rt reflect.Type) (*Desc, error) {
	t, err := planOf(rt)
	if err != nil {
		return nil, err
	}
	return describe(t, map[*typ]bool{})
}

// Time and Duration are described as DDS::Time_t and DDS::Duration_t with members not
// Named: no IDL known here declares them that way, so they are not announced as such.
var (
	timeDesc = &Desc{Kind: KindStruct, Name: "DDS::Time_t", Members: []Member{
		{Name: "sec", ID: 0, Type: &Desc{Kind: KindInt32}},
		{Name: "nanosec", ID: 1, Type: &Desc{Kind: KindUint32}},
	}}
	durationDesc = &Desc{Kind: KindStruct, Name: "DDS::Duration_t", Members: timeDesc.Members}
)

func describe(t *typ, visiting map[*typ]bool) (*Desc, error) {
	d, err := describeKind(t, visiting)
	if err != nil || d.Kind == KindStruct || d.Kind == KindUnion || t.rt.PkgPath() == "" {
		return d, err
	}
	if e, ok := describeEnum(t); ok {
		return e, nil
	}
	d.Defined = true
	return d, nil
}

// describeEnum describes t as an enum when it is a signed integer type of 8, 16 or 32
// bits with a DDSEnumerators method giving as many names as values.
func describeEnum(t *typ) (*Desc, bool) {
	if t.kind != kInt8 && t.kind != kInt16 && t.kind != kInt32 {
		return nil, false
	}
	en, ok := reflect.Zero(t.rt).Interface().(Enumerated)
	if !ok {
		return nil, false
	}
	names, values := en.DDSEnumerators()
	if len(names) != len(values) || len(names) == 0 {
		return nil, false
	}
	d := &Desc{Kind: KindEnum, Name: typeName(t.rt), Bound: 8 * t.size, Literals: make([]Literal, len(names))}
	for i := range names {
		d.Literals[i] = Literal{Name: names[i], Value: values[i]}
	}
	return d, true
}

func describeKind(t *typ, visiting map[*typ]bool) (*Desc, error) {
	switch t.kind {
	case kTime:
		return timeDesc, nil
	case kDuration:
		return durationDesc, nil
	case kString:
		return &Desc{Kind: KindString, Bound: t.bound}, nil
	case kSlice, kArray:
		elem, err := describe(t.elem, visiting)
		if err != nil {
			return nil, err
		}
		if t.kind == kSlice {
			return &Desc{Kind: KindSequence, Bound: t.bound, Elem: elem}, nil
		}
		// The plan has a multi-dimensional array as one array of all its elements; the
		// description keeps its dimensions, those of the Go array of arrays.
		var lens []int
		for rt := t.rt; rt.Kind() == reflect.Array && rt != t.elem.rt; rt = rt.Elem() {
			lens = append(lens, rt.Len())
		}
		d := elem
		for i := len(lens) - 1; i >= 0; i-- {
			d = &Desc{Kind: KindArray, Bound: lens[i], Elem: d}
		}
		return d, nil
	case kStruct, kUnion:
		return describeStruct(t, visiting)
	default:
		return &Desc{Kind: TypeKind(t.kind)}, nil
	}
}

func describeStruct(t *typ, visiting map[*typ]bool) (*Desc, error) {
	if visiting[t] {
		return nil, fmt.Errorf("%w: %v", ErrRecursive, t.rt)
	}
	visiting[t] = true
	defer delete(visiting, t)
	d := &Desc{Kind: KindStruct, Name: typeName(t.rt), Ext: t.ext, Disc: -1}
	if t.kind == kUnion {
		d.Kind, d.Disc = KindUnion, t.disc
	}
	d.Members = make([]Member, len(t.fields))
	for i := range t.fields {
		f := &t.fields[i]
		ft, err := describe(f.t, visiting)
		if err != nil {
			return nil, err
		}
		d.Members[i] = Member{
			Name: f.idlName, Named: f.named, ID: f.id, Type: ft, Key: f.key, Optional: f.optional,
			Default: f.isDefault, Labels: f.labels,
		}
	}
	return d, nil
}

type typeNamer interface{ DDSTypeName() string }

// typeName returns the IDL name of struct type rt as package dds names a topic type: its
// DDSTypeName, or "pkg::Type" from its Go names.
func typeName(rt reflect.Type) string {
	if n, ok := reflect.Zero(rt).Interface().(typeNamer); ok {
		return n.DDSTypeName()
	}
	if n, ok := reflect.New(rt).Interface().(typeNamer); ok {
		return n.DDSTypeName()
	}
	pkg := rt.PkgPath()
	if i := strings.LastIndexByte(pkg, '/'); i >= 0 {
		pkg = pkg[i+1:]
	}
	return pkg + "::" + rt.Name()
}
