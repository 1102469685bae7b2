package xtypes

import (
	"crypto/md5" //nolint:gosec // MD5 is what DDS-XTypes 1.3 §7.3.4.2 and §7.3.4.5 specify for these hashes
	"errors"
	"fmt"

	"github.com/ddsgo/ddsgo/internal/cdr"
)

// Object is a serialized TypeObject with the identifier that names it.
type Object struct {
	ID    TypeID
	Bytes []byte // the XCDR2 little-endian TypeObject, DHEADER included
}

// Types holds the type objects of one type and all it depends on, in the minimal and the
// complete form.
type Types struct {
	Minimal, Complete TypeID
	// MinimalObjects and CompleteObjects are every hashed type: the top type, then its
	// dependencies in the order a depth-first walk of the members first reaches them (as
	// Cyclone DDS lists them).
	MinimalObjects, CompleteObjects []Object
	// Pairs maps each complete hash to the minimal one of the same type, in the order of
	// CompleteObjects.
	Pairs [][2]TypeID
}

// ErrUnsupported reports a type that cannot be described by a TypeObject here.
var ErrUnsupported = errors.New("xtypes: type cannot be described")

// Build makes the minimal and complete TypeObjects of the struct or union d and of the
// types it uses.
func Build(d *cdr.Desc) (*Types, error) {
	if d.Kind != cdr.KindStruct && d.Kind != cdr.KindUnion {
		return nil, fmt.Errorf("%w: the top-level type must be a struct or union", ErrUnsupported)
	}
	t := &Types{}
	var err error
	bm := builder{ek: EKMinimal}
	if t.Minimal, err = bm.id(d); err != nil {
		return nil, err
	}
	bc := builder{ek: EKComplete}
	if t.Complete, err = bc.id(d); err != nil {
		return nil, err
	}
	t.MinimalObjects, t.CompleteObjects = unique(bm.slots), unique(bc.slots)
	paired := map[[HashLen]byte]bool{}
	for i, c := range bc.slots { // both builders walk the same types in the same order
		if !paired[c.ID.Hash] {
			paired[c.ID.Hash] = true
			t.Pairs = append(t.Pairs, [2]TypeID{c.ID, bm.slots[i].ID})
		}
	}
	return t, nil
}

// unique returns the objects without repeats, in order.
func unique(objs []Object) []Object {
	seen := map[[HashLen]byte]bool{}
	var u []Object
	for _, o := range objs {
		if !seen[o.ID.Hash] {
			seen[o.ID.Hash] = true
			u = append(u, o)
		}
	}
	return u
}

// builder builds the TypeObjects of one equivalence kind.
type builder struct {
	ek    uint8
	slots []Object // every hashed type in the order it was reached, repeats included
}

func (b *builder) complete() bool { return b.ek == EKComplete }

// prim maps the codec's primitives to type kinds. Cyclone DDS 0.10.2 gives IDL int8 the
// kind TK_CHAR8 and uint8 TK_BYTE (it predates TK_INT8 and TK_UINT8), and so does ddsgo:
// Go cannot tell octet or char from uint8 and int8 anyway, and the identifiers must be
// Cyclone's for a type to be recognized as the same.
var prim = [...]uint8{
	cdr.KindBool: tkBoolean, cdr.KindInt8: tkChar8, cdr.KindUint8: tkByte,
	cdr.KindInt16: tkInt16, cdr.KindUint16: tkUint16, cdr.KindInt32: tkInt32,
	cdr.KindUint32: tkUint32, cdr.KindInt64: tkInt64, cdr.KindUint64: tkUint64,
	cdr.KindFloat32: tkFloat32, cdr.KindFloat64: tkFloat64,
}

// id returns the TypeIdentifier of d, building the TypeObjects it needs.
func (b *builder) id(d *cdr.Desc) (TypeID, error) {
	switch d.Kind {
	case cdr.KindString:
		if d.Bound < 256 {
			return TypeID{Kind: tiString8S, Bound: uint32(d.Bound)}, nil
		}
		return TypeID{Kind: tiString8L, Bound: uint32(d.Bound)}, nil
	case cdr.KindSequence:
		return b.collection(d.Elem, tiSeqS, tiSeqL, uint32(d.Bound), nil)
	case cdr.KindArray:
		var dims []uint32
		for d.Kind == cdr.KindArray { // T m[2][3] is [2][3]T in Go: one array, two dimensions
			dims = append(dims, uint32(d.Bound))
			d = d.Elem
		}
		return b.collection(d, tiArrayS, tiArrayL, 0, dims)
	case cdr.KindStruct, cdr.KindUnion, cdr.KindEnum:
		return b.hashed(d)
	default:
		if int(d.Kind) < len(prim) {
			return TypeID{Kind: prim[d.Kind]}, nil
		}
		return TypeID{}, fmt.Errorf("%w: kind %d", ErrUnsupported, d.Kind)
	}
}

// collection returns the plain collection identifier of elements of elem: the small form
// when every bound fits in an octet.
func (b *builder) collection(elem *cdr.Desc, small, large uint8, bound uint32, dims []uint32) (TypeID, error) {
	e, err := b.id(elem)
	if err != nil {
		return TypeID{}, err
	}
	id := TypeID{Kind: small, Bound: bound, Dims: dims, Elem: &e, Equiv: b.ek, eflags: mfTryConstruct1}
	if e.fully() {
		id.Equiv = EKBoth
	}
	fits := bound < 256
	for _, n := range dims {
		fits = fits && n < 256
	}
	if !fits {
		id.Kind = large
	}
	return id, nil
}

// hashed serializes the TypeObject of struct or union d and returns its hash identifier.
func (b *builder) hashed(d *cdr.Desc) (TypeID, error) {
	slot := len(b.slots)
	b.slots = append(b.slots, Object{}) // the type comes before its members
	ids := make([]TypeID, len(d.Members))
	for i := range d.Members {
		var err error
		if ids[i], err = b.id(d.Members[i].Type); err != nil {
			return TypeID{}, fmt.Errorf("%s.%s: %w", d.Name, d.Members[i].Name, err)
		}
	}
	var e cdr.Encoder
	e.ResetBody(nil, false, true)
	obj := e.BeginDHeader() // TypeObject is an appendable union
	e.Uint8(b.ek)
	switch d.Kind {
	case cdr.KindUnion:
		b.union(&e, d, ids)
	case cdr.KindEnum:
		b.enum(&e, d)
	default:
		b.structure(&e, d, ids)
	}
	e.EndDHeader(obj)
	if err := e.Err(); err != nil {
		return TypeID{}, err
	}
	raw := e.Bytes()
	sum := md5.Sum(raw) //nolint:gosec // specified by DDS-XTypes
	id := TypeID{Kind: b.ek}
	copy(id.Hash[:], sum[:HashLen])
	b.slots[slot] = Object{ID: id, Bytes: raw}
	return id, nil
}

func typeFlags(x cdr.Extensibility) uint16 {
	switch x {
	case cdr.Appendable:
		return tfAppendable
	case cdr.Mutable:
		return tfMutable
	default:
		return tfFinal
	}
}

// structure appends a Minimal or CompleteStructType after its TK_STRUCTURE discriminator.
func (b *builder) structure(e *cdr.Encoder, d *cdr.Desc, ids []TypeID) {
	e.Uint8(tkStruct)
	e.Uint16(typeFlags(d.Ext))
	hdr := e.BeginDHeader() // the struct header is appendable
	e.Uint8(tkNone)         // base_type: no base type
	b.typeDetail(e, d.Name)
	e.EndDHeader(hdr)
	seq := e.BeginDHeader()
	e.SeqLen(len(d.Members))
	for i := range d.Members {
		m := &d.Members[i]
		mem := e.BeginDHeader() // Minimal/CompleteStructMember is appendable
		e.Uint32(m.ID)
		flags := uint16(mfTryConstruct1)
		if m.Optional {
			flags |= mfOptional
		}
		if m.Key {
			flags |= mfKey | mfMustUnderstand
		}
		e.Uint16(flags)
		ids[i].encode(e)
		b.memberDetail(e, m.Name)
		e.EndDHeader(mem)
	}
	e.EndDHeader(seq)
}

// union appends a Minimal or CompleteUnionType after its TK_UNION discriminator. The
// discriminator member of d is not a union member: the others are numbered from 0 in
// declaration order, as IDL numbers them.
func (b *builder) union(e *cdr.Encoder, d *cdr.Desc, ids []TypeID) {
	e.Uint8(tkUnion)
	e.Uint16(typeFlags(d.Ext))
	hdr := e.BeginDHeader()
	b.typeDetail(e, d.Name)
	e.EndDHeader(hdr)
	disc := e.BeginDHeader() // Minimal/CompleteDiscriminatorMember is appendable
	dm := &d.Members[d.Disc]
	flags := uint16(mfTryConstruct1 | mfMustUnderstand)
	if dm.Key {
		flags |= mfKey
	}
	e.Uint16(flags)
	ids[d.Disc].encode(e)
	if b.complete() {
		e.Uint8(0) // no ann_builtin
		e.Uint8(0) // no ann_custom
	}
	e.EndDHeader(disc)
	seq := e.BeginDHeader()
	e.SeqLen(len(d.Members) - 1)
	id := uint32(0)
	for i := range d.Members {
		if i == d.Disc {
			continue
		}
		m := &d.Members[i]
		mem := e.BeginDHeader()
		e.Uint32(id)
		id++
		flags := uint16(mfTryConstruct1)
		if m.Default {
			flags |= mfDefault
		}
		e.Uint16(flags)
		ids[i].encode(e)
		e.SeqLen(len(m.Labels))
		for _, l := range m.Labels {
			e.Int32(int32(l))
		}
		b.memberDetail(e, m.Name)
		e.EndDHeader(mem)
	}
	e.EndDHeader(seq)
}

// enum appends a Minimal or CompleteEnumeratedType after its TK_ENUM discriminator. The
// enum flags are 1 and the literals' header is delimited, as Cyclone DDS 0.10.2 writes
// them (its CommonEnumeratedLiteral is appendable).
func (b *builder) enum(e *cdr.Encoder, d *cdr.Desc) {
	e.Uint8(tkEnum)
	e.Uint16(1)
	hdr := e.BeginDHeader()
	e.Uint16(uint16(d.Bound))
	b.typeDetail(e, d.Name)
	e.EndDHeader(hdr)
	seq := e.BeginDHeader()
	e.SeqLen(len(d.Literals))
	for _, l := range d.Literals {
		lit := e.BeginDHeader()
		common := e.BeginDHeader()
		e.Int32(l.Value)
		e.Uint16(0) // no flags
		e.EndDHeader(common)
		b.memberDetail(e, l.Name)
		e.EndDHeader(lit)
	}
	e.EndDHeader(seq)
}

// typeDetail appends a CompleteTypeDetail (no annotations, the type name); the minimal
// detail is empty.
func (b *builder) typeDetail(e *cdr.Encoder, name string) {
	if b.complete() {
		e.Uint8(0) // no ann_builtin
		e.Uint8(0) // no ann_custom
		e.String(name)
	}
}

// memberDetail appends a CompleteMemberDetail (the name, no annotations) or a
// MinimalMemberDetail (the name hash).
func (b *builder) memberDetail(e *cdr.Encoder, name string) {
	if b.complete() {
		e.String(name)
		e.Uint8(0) // no ann_builtin
		e.Uint8(0) // no ann_custom
		return
	}
	h := NameHash(name)
	e.Octets(h[:])
}

// NameHash is the hash of a member name in a minimal type (§7.3.4.5): the first four bytes
// of the MD5 of the name.
func NameHash(name string) [4]byte {
	sum := md5.Sum([]byte(name)) //nolint:gosec // specified by DDS-XTypes
	return [4]byte(sum[:4])
}

// Named reports whether every member of d and of the structs and unions it uses has an
// IDL name given with the name= tag option (as ddsgen generates them), and none is of a
// Go defined type other than a struct (an IDL enum or typedef). Only such a type
// describes itself exactly: a Go field name is not the IDL member name a peer's type
// has (ID for id, X for x_), member names are part of the TypeObject, and so are enums
// and typedefs.
func Named(d *cdr.Desc) bool {
	return named(d, 0)
}

func named(d *cdr.Desc, depth int) bool {
	if depth > maxNamedDepth {
		return false
	}
	for d.Kind == cdr.KindSequence || d.Kind == cdr.KindArray {
		if d.Defined {
			return false
		}
		d = d.Elem
	}
	if d.Defined {
		return false
	}
	for i := range d.Members {
		m := &d.Members[i]
		if !m.Named || !named(m.Type, depth+1) {
			return false
		}
	}
	return true
}

// maxNamedDepth bounds the nesting Named follows (descriptions are not recursive).
const maxNamedDepth = 64
