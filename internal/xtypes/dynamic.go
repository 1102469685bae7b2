package xtypes

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/ddsgo/ddsgo/internal/cdr"
)

// Field is one member of a decoded struct: its name (or, in a minimal type, its member
// id as "@id") and its value.
type Field struct {
	Name  string
	Value any
}

// Struct is a decoded struct or union: its members in declaration order (the selected
// member alone for a union, after a "discriminator" field). It prints as a JSON object
// with the members in that order.
type Struct []Field

// MarshalJSON writes s as a JSON object, its members in order.
func (s Struct) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range s {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.Name)
		b.Write(k)
		b.WriteByte(':')
		v, err := json.Marshal(f.Value)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Get returns the value of the member called name, and whether there is one.
func (s Struct) Get(name string) (any, bool) {
	for _, f := range s {
		if f.Name == name {
			return f.Value, true
		}
	}
	return nil, false
}

// Resolver finds the parsed TypeObject a hashed identifier names.
type Resolver func(id TypeID) (*Type, bool)

// ErrUnresolved reports a type identifier whose TypeObject the resolver does not have.
var ErrUnresolved = errors.New("xtypes: type not resolved")

// Bounds of a dynamic decoding: nesting depth and values decoded, so that a hostile
// sample or type (a type may name itself through a hash loop) stays bounded.
const (
	maxDynDepth  = 32
	maxDynValues = 1 << 20
)

// Decode decodes the serialized sample payload (encapsulation header first, XCDR1 or
// XCDR2) of the type top into a generic value: a Struct for structs and unions, []any
// for sequences and arrays, string, bool, integers, floats, and enums as the enumerator's
// name (its value when unnamed). A Struct prints as JSON in member order.
func Decode(top TypeID, payload []byte, resolve Resolver) (any, error) {
	return decode(top, payload, resolve, false)
}

// DecodeKey decodes a serialized key (encapsulation header first, as EncodeKey writes
// it) of the struct type top: a Struct of the key members alone, nested structs
// likewise. Encode takes it, the other members left out (zero).
func DecodeKey(top TypeID, key []byte, resolve Resolver) (any, error) {
	return decode(top, key, resolve, true)
}

// decode is Decode, or DecodeKey when key is set.
func decode(top TypeID, payload []byte, resolve Resolver, key bool) (any, error) {
	var d cdr.Decoder
	if err := d.Reset(payload); err != nil {
		return nil, err
	}
	dd := dynDecoder{d: &d, typeWalk: typeWalk{resolve: resolve}, key: key}
	v := dd.value(&top, 0)
	if dd.err != nil {
		return nil, dd.err
	}
	if err := d.Err(); err != nil {
		return nil, err
	}
	return v, nil
}

type dynDecoder struct {
	d *cdr.Decoder
	typeWalk
	values int
	key    bool // a serialized key: key members only, no DHEADER of appendable structs
}

// typeWalk resolves the types of a dynamic decoding or encoding, keeping its first error.
type typeWalk struct {
	resolve Resolver
	err     error
}

func (x *typeWalk) fail(err error) {
	if x.err == nil {
		x.err = err
	}
}

func (x *dynDecoder) failed() bool { return x.err != nil || x.d.Err() != nil }

// lookup resolves a hashed id, following aliases.
func (x *typeWalk) lookup(id *TypeID) *Type {
	for range maxDynDepth {
		t, ok := x.resolve(*id)
		if !ok {
			x.fail(fmt.Errorf("%w: %v", ErrUnresolved, *id))
			return nil
		}
		if t.Kind != tkAlias {
			return t
		}
		if !t.Related.Hashed() {
			return &Type{Kind: tkAlias, Related: t.Related}
		}
		id = &t.Related
	}
	x.fail(fmt.Errorf("%w: alias chain too long", errMalformed))
	return nil
}

// value decodes one value of type id.
func (x *dynDecoder) value(id *TypeID, depth int) any {
	if x.values++; x.values > maxDynValues || depth > maxDynDepth {
		x.fail(fmt.Errorf("%w: sample too deep or too large", errMalformed))
	}
	if x.failed() {
		return nil
	}
	d := x.d
	switch id.Kind {
	case tkBoolean:
		return d.Bool()
	case tkByte:
		return d.Uint8()
	case tkChar8:
		return int8(d.Uint8())
	case tkInt16:
		return d.Int16()
	case tkUint16:
		return d.Uint16()
	case tkInt32:
		return d.Int32()
	case tkUint32:
		return d.Uint32()
	case tkInt64:
		return d.Int64()
	case tkUint64:
		return d.Uint64()
	case tkFloat32:
		return jsonFloat(float64(d.Float32()))
	case tkFloat64:
		return jsonFloat(d.Float64())
	case tiString8S, tiString8L:
		return x.str(id)
	case tiSeqS, tiSeqL, tiArrayS, tiArrayL:
		return x.collection(id, depth)
	case EKMinimal, EKComplete:
		t := x.lookup(id)
		if t == nil {
			return nil
		}
		return x.hashed(t, depth)
	}
	x.fail(fmt.Errorf("%w: type kind %#02x", ErrUnsupported, id.Kind))
	return nil
}

// jsonFloat keeps NaN and infinities printable in JSON: as strings.
func jsonFloat(f float64) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return f
}

func (x *dynDecoder) str(id *TypeID) any {
	b := x.d.StringBytes()
	if id.Bound > 0 && uint32(len(b)) > id.Bound {
		x.fail(fmt.Errorf("%w: string of %d characters, bound %d", cdr.ErrBound, len(b), id.Bound))
	}
	return string(b)
}

// primitiveElem reports whether elements of id are written without a DHEADER in XCDR2:
// primitives and enums.
func (x *typeWalk) primitiveElem(id *TypeID) bool {
	if id.Kind <= tkChar8 {
		return true
	}
	if id.Hashed() {
		t, ok := x.resolve(*id)
		return ok && t.Kind == tkEnum
	}
	return false
}

func (x *dynDecoder) collection(id *TypeID, depth int) any {
	d := x.d
	if id.Elem == nil {
		x.fail(errMalformed)
		return nil
	}
	end := -1
	if d.Version2() && !x.primitiveElem(id.Elem) {
		end = d.DHeader()
	}
	var n int
	if id.Kind == tiSeqS || id.Kind == tiSeqL {
		n = d.SeqLen(1)
		if id.Bound > 0 && uint32(n) > id.Bound {
			x.fail(fmt.Errorf("%w: sequence of %d elements, bound %d", cdr.ErrBound, n, id.Bound))
			return nil
		}
	} else {
		n = 1
		for _, k := range id.Dims {
			if k == 0 || n > maxDynValues/int(k) {
				x.fail(fmt.Errorf("%w: array dimensions", errMalformed))
				return nil
			}
			n *= int(k)
		}
		if n > d.Remaining() { // every element takes an octet at least
			x.fail(fmt.Errorf("%w: array of %d elements in %d bytes", errMalformed, n, d.Remaining()))
			return nil
		}
	}
	if x.failed() {
		return nil
	}
	out := make([]any, 0, n)
	for range n {
		out = append(out, x.value(id.Elem, depth+1))
		if x.failed() {
			return nil
		}
	}
	if end >= 0 {
		d.SkipTo(end)
	}
	return out
}

// hashed decodes a struct, union or enum.
func (x *dynDecoder) hashed(t *Type, depth int) any {
	switch t.Kind {
	case tkEnum:
		return x.enum(t)
	case tkUnion:
		return x.union(t, depth)
	case tkStruct:
		return x.structure(t, depth)
	case tkAlias: // an alias of a type described in place
		return x.value(&t.Related, depth+1)
	}
	x.fail(fmt.Errorf("%w: type kind %#02x", ErrUnsupported, t.Kind))
	return nil
}

func (x *dynDecoder) enum(t *Type) any {
	v := x.enumValue(t.BitBound)
	for _, l := range t.Literals {
		if l.Value == v {
			if l.Name != "" {
				return l.Name
			}
			break
		}
	}
	return v
}

// enumValue reads an enum of the bit bound: 1, 2 or 4 octets.
func (x *dynDecoder) enumValue(bitBound uint16) int32 {
	switch enumSize(bitBound) {
	case 1:
		return int32(int8(x.d.Uint8()))
	case 2:
		return int32(x.d.Int16())
	}
	return x.d.Int32()
}

// enumSize returns the octets of an enum of the bit bound: 1, 2 or 4.
func enumSize(bitBound uint16) int {
	switch {
	case bitBound > 0 && bitBound <= 8:
		return 1
	case bitBound > 8 && bitBound <= 16:
		return 2
	}
	return 4
}

// memberName is a member's name, or "@id" in a minimal type.
func memberName(m *Member) string {
	if m.Name != "" {
		return m.Name
	}
	return "@" + strconv.FormatUint(uint64(m.ID), 10)
}

// members returns the members of struct t with those of its base types first.
func (x *typeWalk) members(t *Type, depth int) []Member {
	if !t.Base.Hashed() {
		return t.Members
	}
	if depth > maxDynDepth {
		x.fail(fmt.Errorf("%w: inheritance too deep", errMalformed))
		return nil
	}
	base := x.lookup(&t.Base)
	if base == nil || base.Kind != tkStruct {
		x.fail(fmt.Errorf("%w: base type of %s", errMalformed, t.Name))
		return nil
	}
	return append(x.members(base, depth+1), t.Members...)
}

func (x *dynDecoder) structure(t *Type, depth int) any {
	d := x.d
	ms := x.members(t, depth)
	if x.key {
		ms = keyMembers(ms)
	}
	out := make(Struct, 0, len(ms))
	switch {
	case t.Ext == ExtMutable:
		return x.mutable(ms, depth)
	case t.Ext == ExtAppendable && d.Version2() && !x.key:
		end := d.DHeader()
		for i := range ms {
			if d.AtEnd(end) {
				break // an older writer: the rest are absent
			}
			out = append(out, Field{memberName(&ms[i]), x.member(&ms[i], depth)})
		}
		d.SkipTo(end)
	default:
		for i := range ms {
			out = append(out, Field{memberName(&ms[i]), x.member(&ms[i], depth)})
		}
	}
	return out
}

// member decodes a member of a final or appendable struct, optional or not.
func (x *dynDecoder) member(m *Member, depth int) any {
	d := x.d
	if !m.Optional() {
		return x.value(&m.Type, depth+1)
	}
	if d.Version2() {
		if !d.Bool() {
			return nil
		}
		return x.value(&m.Type, depth+1)
	}
	id, _, mend, ok := d.Member(d.Pos() + d.Remaining())
	if !ok || id != m.ID {
		x.fail(fmt.Errorf("%w: optional member %s: bad parameter header", errMalformed, memberName(m)))
		return nil
	}
	if mend == d.Pos() {
		return nil
	}
	v := x.value(&m.Type, depth+1)
	d.SkipTo(mend)
	return v
}

func (x *dynDecoder) mutable(ms []Member, depth int) any {
	d := x.d
	end := d.Pos() + d.Remaining()
	if d.Version2() {
		end = d.DHeader()
	}
	out := make(Struct, 0, len(ms))
	for !x.failed() {
		id, mu, mend, ok := d.Member(end)
		if !ok {
			break
		}
		var m *Member
		for i := range ms {
			if ms[i].ID == id {
				m = &ms[i]
				break
			}
		}
		if m == nil {
			if mu {
				x.fail(fmt.Errorf("%w: unknown must-understand member id %d", errMalformed, id))
				return nil
			}
			d.SkipTo(mend)
			continue
		}
		if mend == d.Pos() && !d.Version2() {
			continue // XCDR1: an absent optional member
		}
		out = append(out, Field{memberName(m), x.value(&m.Type, depth+1)})
		d.SkipTo(mend)
	}
	if d.Version2() {
		d.SkipTo(end)
	}
	return out
}

func (x *dynDecoder) union(t *Type, depth int) any {
	d := x.d
	end := -1
	if d.Version2() && t.Ext != ExtFinal {
		end = d.DHeader()
	}
	var disc int64
	var dv any
	switch t.Disc.Kind {
	case tkBoolean, tkByte, tkChar8:
		disc = int64(d.Uint8())
		dv = disc
	case tkInt16, tkUint16:
		disc = int64(d.Int16())
		dv = disc
	case tkInt32, tkUint32:
		disc = int64(d.Int32())
		dv = disc
	case tkInt64, tkUint64:
		disc = d.Int64()
		dv = disc
	case EKMinimal, EKComplete:
		et := x.lookup(&t.Disc)
		if et == nil || et.Kind != tkEnum {
			x.fail(fmt.Errorf("%w: union discriminator", ErrUnsupported))
			return nil
		}
		disc = int64(x.enumValue(et.BitBound))
		dv = x.enumName(et, int32(disc))
	default:
		x.fail(fmt.Errorf("%w: union discriminator kind %#02x", ErrUnsupported, t.Disc.Kind))
		return nil
	}
	out := Struct{{"discriminator", dv}}
	if m := unionCase(t, disc); m != nil {
		out = append(out, Field{memberName(m), x.value(&m.Type, depth+1)})
	}
	if end >= 0 {
		d.SkipTo(end)
	}
	return out
}

func (x *dynDecoder) enumName(t *Type, v int32) any {
	for _, l := range t.Literals {
		if l.Value == v && l.Name != "" {
			return l.Name
		}
	}
	return v
}

// unionCase returns the member of union t that discriminator value v selects.
func unionCase(t *Type, v int64) *Member {
	var def *Member
	for i := range t.Members {
		m := &t.Members[i]
		for _, l := range m.Labels {
			if int64(l) == v {
				return m
			}
		}
		if m.Default() {
			def = m
		}
	}
	return def
}
