package xtypes

import (
	"crypto/md5" //nolint:gosec // the key hash is MD5 by specification, not for security
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ddsgo/ddsgo/internal/cdr"
)

// Encode writes v, a value of the type top, into e, whose encapsulation decides XCDR1 or
// XCDR2. v has the form Decode returns, and more: a struct or union may also be a
// map[string]any; a number any Go integer or float (integral where the type is an
// integer, within its range: text and JSON give float64) or a json.Number; an enum its
// enumerator's name or value; a char a one-letter string. A struct's members that v
// leaves out are written as their zero values (optional ones as absent); a member the
// type does not have, or a value of the wrong kind, is an error naming its path.
func Encode(e *cdr.Encoder, top TypeID, v any, resolve Resolver) error {
	x := dynEncoder{e: e, typeWalk: typeWalk{resolve: resolve}}
	x.value(&top, v, "", 0)
	if x.err != nil {
		return x.err
	}
	return e.Err()
}

type dynEncoder struct {
	e *cdr.Encoder
	typeWalk
	key bool // writing the key only (EncodeKey)
	// holder: the key for a key hash, as the KeyHolder type of XTypes 1.3 §7.6.8, whose
	// extensibility is FINAL: no DHEADER or member headers.
	holder bool
}

func (x *dynEncoder) failf(path, format string, args ...any) {
	if path == "" {
		path = "the value"
	}
	x.fail(fmt.Errorf("xtypes: %s: %s", path, fmt.Sprintf(format, args...)))
}

// value writes v (nil: the zero value) as a value of type id.
func (x *dynEncoder) value(id *TypeID, v any, path string, depth int) {
	if x.err != nil {
		return
	}
	if depth > maxDynDepth {
		x.failf(path, "nested too deeply")
		return
	}
	switch id.Kind {
	case tiString8S, tiString8L:
		s, ok := v.(string)
		if !ok && v != nil {
			x.failf(path, "%v is not a string", v)
		}
		if id.Bound > 0 && uint32(len(s)) > id.Bound {
			x.failf(path, "string of %d characters, bound %d", len(s), id.Bound)
		}
		x.e.String(s)
	case tiSeqS, tiSeqL, tiArrayS, tiArrayL:
		x.collection(id, v, path, depth)
	case EKMinimal, EKComplete:
		if t := x.lookup(id); t != nil {
			x.hashed(t, v, path, depth)
		}
	default:
		x.primitive(id.Kind, v, path)
	}
}

// primitive writes v (nil: zero) as a value of the primitive type kind k.
func (x *dynEncoder) primitive(k uint8, v any, path string) {
	e := x.e
	switch k {
	case tkBoolean:
		b, ok := v.(bool)
		if !ok && v != nil {
			x.failf(path, "%v is not a boolean", v)
		}
		e.Bool(b)
	case tkByte:
		e.Uint8(uint8(x.integer(v, 0, math.MaxUint8, path)))
	case tkChar8:
		if s, ok := v.(string); ok && len(s) == 1 {
			v = int(s[0])
		}
		e.Int8(int8(x.integer(v, math.MinInt8, math.MaxUint8, path)))
	case tkInt16:
		e.Int16(int16(x.integer(v, math.MinInt16, math.MaxInt16, path)))
	case tkUint16:
		e.Uint16(uint16(x.integer(v, 0, math.MaxUint16, path)))
	case tkInt32:
		e.Int32(int32(x.integer(v, math.MinInt32, math.MaxInt32, path)))
	case tkUint32:
		e.Uint32(uint32(x.integer(v, 0, math.MaxUint32, path)))
	case tkInt64:
		e.Int64(x.integer(v, math.MinInt64, math.MaxInt64, path))
	case tkUint64:
		e.Uint64(x.unsigned64(v, path))
	case tkFloat32:
		e.Float32(float32(x.float(v, path)))
	case tkFloat64:
		e.Float64(x.float(v, path))
	default:
		x.failf(path, "type kind %#02x: %v", k, ErrUnsupported)
	}
}

// number returns v as a float64 and as an int64 when it is an integer.
func number(v any) (f float64, i int64, isInt, ok bool) {
	switch n := v.(type) {
	case nil:
		return 0, 0, true, true
	case float64:
		return n, int64(n), n == math.Trunc(n) && math.Abs(n) < 1<<63, true
	case float32:
		return number(float64(n))
	case int:
		return float64(n), int64(n), true, true
	case int8:
		return float64(n), int64(n), true, true
	case int16:
		return float64(n), int64(n), true, true
	case int32:
		return float64(n), int64(n), true, true
	case int64:
		return float64(n), n, true, true
	case uint8:
		return float64(n), int64(n), true, true
	case uint16:
		return float64(n), int64(n), true, true
	case uint32:
		return float64(n), int64(n), true, true
	case uint64:
		return float64(n), int64(n), n <= math.MaxInt64, true
	case json.Number:
		if i, err := n.Int64(); err == nil {
			return float64(i), i, true, true
		}
		if f, err := n.Float64(); err == nil {
			return number(f)
		}
	}
	return 0, 0, false, false
}

func (x *dynEncoder) integer(v any, lo, hi int64, path string) int64 {
	_, i, isInt, ok := number(v)
	if !ok || !isInt || i < lo || i > hi {
		x.failf(path, "%v is not an integer from %d to %d", v, lo, hi)
		return 0
	}
	return i
}

func (x *dynEncoder) unsigned64(v any, path string) uint64 {
	switch n := v.(type) {
	case uint64:
		return n
	case json.Number:
		if u, err := strconv.ParseUint(n.String(), 10, 64); err == nil {
			return u
		}
	}
	f, i, isInt, ok := number(v)
	switch {
	case ok && isInt && i >= 0:
		return uint64(i)
	case ok && f == math.Trunc(f) && f >= 0 && f < 1<<64:
		return uint64(f)
	}
	x.failf(path, "%v is not an unsigned integer", v)
	return 0
}

func (x *dynEncoder) float(v any, path string) float64 {
	if s, ok := v.(string); ok { // what Decode gives for NaN and infinities
		switch s {
		case "NaN":
			return math.NaN()
		case "+Inf", "Inf":
			return math.Inf(1)
		case "-Inf":
			return math.Inf(-1)
		}
	}
	f, _, _, ok := number(v)
	if !ok {
		x.failf(path, "%v is not a number", v)
	}
	return f
}

func (x *dynEncoder) collection(id *TypeID, v any, path string, depth int) {
	e := x.e
	if id.Elem == nil {
		x.fail(errMalformed)
		return
	}
	var vs []any
	switch l := v.(type) {
	case nil:
	case []any:
		vs = l
	default:
		x.failf(path, "%v is not a list", v)
		return
	}
	seq := id.Kind == tiSeqS || id.Kind == tiSeqL
	n := len(vs)
	if seq {
		if id.Bound > 0 && uint32(n) > id.Bound {
			x.failf(path, "%d elements, bound %d", n, id.Bound)
			return
		}
	} else {
		n = 1
		for _, k := range id.Dims {
			if k == 0 || n > maxDynValues/int(k) {
				x.fail(fmt.Errorf("%w: array dimensions", errMalformed))
				return
			}
			n *= int(k)
		}
		if len(vs) > n {
			x.failf(path, "%d elements in an array of %d", len(vs), n)
			return
		}
	}
	dh := -1
	if e.Version2() && !x.primitiveElem(id.Elem) {
		dh = e.BeginDHeader()
	}
	if seq {
		e.SeqLen(n)
	}
	for i := range n {
		var ev any
		if i < len(vs) {
			ev = vs[i]
		}
		x.value(id.Elem, ev, fmt.Sprintf("%s[%d]", path, i), depth+1)
	}
	if dh >= 0 {
		e.EndDHeader(dh)
	}
}

func (x *dynEncoder) hashed(t *Type, v any, path string, depth int) {
	switch t.Kind {
	case tkEnum:
		x.enum(t, v, path)
	case tkUnion:
		x.union(t, v, path, depth)
	case tkStruct:
		x.structure(t, v, path, depth)
	case tkAlias:
		x.value(&t.Related, v, path, depth+1)
	default:
		x.failf(path, "type kind %#02x: %v", t.Kind, ErrUnsupported)
	}
}

// enumValue returns the value of enumerator v of t, a name or a number; nil is the first.
func (x *dynEncoder) enumValue(t *Type, v any, path string) int32 {
	if s, ok := v.(string); ok {
		for _, l := range t.Literals {
			if l.Name == s {
				return l.Value
			}
		}
		x.failf(path, "%q is not an enumerator of %s", s, t.Name)
		return 0
	}
	if v == nil && len(t.Literals) > 0 {
		return t.Literals[0].Value
	}
	return int32(x.integer(v, math.MinInt32, math.MaxInt32, path))
}

func (x *dynEncoder) enum(t *Type, v any, path string) {
	n := x.enumValue(t, v, path)
	switch enumSize(t.BitBound) {
	case 1:
		x.e.Uint8(uint8(n))
	case 2:
		x.e.Int16(int16(n))
	default:
		x.e.Int32(n)
	}
}

// fields returns the members of v, a struct value, by name.
func (x *dynEncoder) fields(v any, path string) map[string]any {
	switch s := v.(type) {
	case nil:
		return nil
	case map[string]any:
		return s
	case Struct:
		m := make(map[string]any, len(s))
		for _, f := range s {
			m[f.Name] = f.Value
		}
		return m
	}
	x.failf(path, "%v is not a struct", v)
	return nil
}

func (x *dynEncoder) structure(t *Type, v any, path string, depth int) {
	e := x.e
	fs := x.fields(v, path)
	ms := x.members(t, depth)
	if !x.known(t, ms, fs, path) {
		return
	}
	if x.key {
		ms = keyMembers(ms)
	}
	dh := -1
	// The key of an appendable struct goes without its DHEADER; a mutable one keeps its
	// framing, but for a key hash (holder), as the codec and the peers hash it.
	mutable := t.Ext == ExtMutable && !x.holder
	if e.Version2() && (mutable || t.Ext == ExtAppendable && !x.key) {
		dh = e.BeginDHeader()
	}
	for i := range ms {
		m := &ms[i]
		mv, present := memberValue(fs, memberName(m))
		present = present && mv != nil
		mp := join(path, memberName(m))
		switch {
		case mutable:
			if m.Optional() && !present {
				continue
			}
			pos := e.BeginMember(m.ID, m.Key())
			x.value(&m.Type, mv, mp, depth+1)
			e.EndMember(pos)
		case m.Optional() && e.Version2():
			e.Bool(present)
			if present {
				x.value(&m.Type, mv, mp, depth+1)
			}
		case m.Optional():
			pos := e.BeginMember(m.ID, false)
			if present {
				x.value(&m.Type, mv, mp, depth+1)
			}
			e.EndMember(pos)
		default:
			x.value(&m.Type, mv, mp, depth+1)
		}
	}
	if mutable {
		e.EndMembers()
	}
	if dh >= 0 {
		e.EndDHeader(dh)
	}
}

// known reports whether every member fs gives is one of ms, the members of t (by name,
// or by the name without its _: memberValue), and fails if not.
func (x *dynEncoder) known(t *Type, ms []Member, fs map[string]any, path string) bool {
	for name := range fs {
		if !slices.ContainsFunc(ms, func(m Member) bool { n := memberName(&m); return n == name || n == name+"_" }) {
			x.failf(path, "%s has no member %q", t.Name, name)
			return false
		}
	}
	return true
}

// memberValue returns the value fs gives the member called name: by that name or, for a
// name ending in _, without it (ROS 2's DDS types name their members data_, which ROS 2
// tools write data).
func memberValue(fs map[string]any, name string) (any, bool) {
	if v, ok := fs[name]; ok {
		return v, true
	}
	if short, ok := strings.CutSuffix(name, "_"); ok {
		v, ok := fs[short]
		return v, ok
	}
	return nil, false
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func (x *dynEncoder) union(t *Type, v any, path string, depth int) {
	e := x.e
	fs := x.fields(v, path)
	var cases []*Member
	for i := range t.Members {
		if _, ok := fs[memberName(&t.Members[i])]; ok {
			cases = append(cases, &t.Members[i])
		}
	}
	_, hasDisc := fs["discriminator"]
	if len(cases) > 1 || len(fs) > len(cases)+1 || len(fs) == len(cases)+1 && !hasDisc {
		x.failf(path, "a union takes its discriminator and one member")
		return
	}
	disc, et, ok := x.unionDisc(t, fs, cases, path)
	if !ok {
		return
	}
	m := unionCase(t, disc)
	if len(cases) == 1 && m != cases[0] {
		x.failf(path, "the discriminator does not select %s", memberName(cases[0]))
		return
	}
	dh := -1
	if e.Version2() && t.Ext != ExtFinal {
		dh = e.BeginDHeader()
	}
	x.discriminator(t.Disc.Kind, et, disc, path)
	if m != nil {
		var mv any
		if len(cases) == 1 {
			mv = fs[memberName(m)]
		}
		x.value(&m.Type, mv, join(path, memberName(m)), depth+1)
	}
	if dh >= 0 {
		e.EndDHeader(dh)
	}
}

// unionDisc returns the discriminator of union t for the members fs (cases: those that
// are t's): the one given, else the label of the member given or of t's first; et is the
// discriminator's type when it is an enum.
func (x *dynEncoder) unionDisc(t *Type, fs map[string]any, cases []*Member, path string) (int64, *Type, bool) {
	var et *Type // an enum discriminator's type
	if t.Disc.Hashed() {
		if et = x.lookup(&t.Disc); et == nil || et.Kind != tkEnum {
			x.failf(path, "union discriminator: %v", ErrUnsupported)
			return 0, nil, false
		}
	}
	var disc int64
	dv, hasDisc := fs["discriminator"]
	switch {
	case hasDisc && et != nil:
		disc = int64(x.enumValue(et, dv, join(path, "discriminator")))
	case hasDisc:
		if b, ok := dv.(bool); ok && b {
			dv = 1
		} else if ok {
			dv = 0
		}
		disc = x.integer(dv, math.MinInt64, math.MaxInt64, join(path, "discriminator"))
	default:
		// The label of the member given, else of the first.
		m := cases
		if len(m) == 0 && len(t.Members) > 0 {
			m = []*Member{&t.Members[0]}
		}
		if len(m) == 0 || len(m[0].Labels) == 0 {
			x.failf(path, "give the union's discriminator")
			return 0, nil, false
		}
		disc = int64(m[0].Labels[0])
	}
	return disc, et, true
}

// discriminator writes a union's discriminator disc of type kind k (an enum's: et), as
// the decoder reads it.
func (x *dynEncoder) discriminator(k uint8, et *Type, disc int64, path string) {
	e := x.e
	switch k {
	case tkBoolean, tkByte, tkChar8:
		e.Uint8(uint8(disc))
	case tkInt16, tkUint16:
		e.Int16(int16(disc))
	case tkInt32, tkUint32:
		e.Int32(int32(disc))
	case tkInt64, tkUint64:
		e.Int64(disc)
	case EKMinimal, EKComplete:
		x.enum(et, int32(disc), path)
	default:
		x.failf(path, "union discriminator kind %#02x: %v", k, ErrUnsupported)
	}
}

// keyMembers returns the members of a struct that form its key when it is (part of) a
// key: its key members, or all when it declares none (XTypes 1.3 §7.6.8).
func keyMembers(ms []Member) []Member {
	if !slices.ContainsFunc(ms, func(m Member) bool { return m.Key() }) {
		return ms
	}
	return slices.DeleteFunc(slices.Clone(ms), func(m Member) bool { return !m.Key() })
}

// Keyed reports whether the struct top has key members.
func Keyed(top TypeID, resolve Resolver) bool {
	w := typeWalk{resolve: resolve}
	t := w.lookup(&top)
	return t != nil && t.Kind == tkStruct && slices.ContainsFunc(w.members(t, 0), func(m Member) bool { return m.Key() })
}

// EncodeKey writes the key of v, a value of the struct type top as Encode takes it, into
// e in the form of a serialized key (the payload of a dispose or unregister, and what a
// key hash is made of): the key members alone, with neither the DHEADER of an
// appendable struct nor anything else around them.
func EncodeKey(e *cdr.Encoder, top TypeID, v any, resolve Resolver) error {
	x := dynEncoder{e: e, typeWalk: typeWalk{resolve: resolve}, key: true}
	x.value(&top, v, "", 0)
	if x.err != nil {
		return x.err
	}
	return e.Err()
}

// KeyFits reports whether the key of the struct type top can never serialize to more
// than 16 bytes, so that its key hash holds the key itself rather than a digest.
func KeyFits(top TypeID, resolve Resolver) bool {
	return Keyed(top, resolve) && keyFits(top, resolve)
}

// keyFits is KeyFits of a type known to be keyed.
func keyFits(top TypeID, resolve Resolver) bool {
	w := typeWalk{resolve: resolve}
	max := w.maxKeySize(&top, 0, 0)
	return max >= 0 && max <= 16
}

// KeyHash returns the key hash of v, a value of the struct type top as Encode takes it
// (XTypes 1.3 §7.6.8): its key members serialized in big-endian XCDR2 with neither
// delimiters nor member headers, zero-padded to 16 bytes when the key can never take
// more, else their MD5 digest. A type without a key has the zero hash.
func KeyHash(top TypeID, v any, resolve Resolver) ([16]byte, error) {
	var h [16]byte
	if !Keyed(top, resolve) {
		return h, nil
	}
	var e cdr.Encoder
	e.ResetBody(nil, true, true)
	x := dynEncoder{e: &e, typeWalk: typeWalk{resolve: resolve}, key: true, holder: true}
	x.value(&top, v, "", 0)
	if x.err != nil {
		return h, x.err
	}
	if err := e.Err(); err != nil {
		return h, err
	}
	b := e.Bytes()
	if keyFits(top, resolve) {
		copy(h[:], b)
		return h, nil
	}
	return md5.Sum(b), nil //nolint:gosec // specified by DDS-XTypes
}

// maxKeySize returns the position after the largest key of type id written at pos in
// key form (alignment at most 4), -1 when unbounded or beyond 16 bytes.
func (x *typeWalk) maxKeySize(id *TypeID, pos, depth int) int {
	if depth > maxDynDepth || pos < 0 || pos > 16 {
		return -1
	}
	prim := func(n int) int {
		a := min(n, 4)
		return pos + -pos&(a-1) + n
	}
	switch id.Kind {
	case tkBoolean, tkByte, tkChar8:
		return pos + 1
	case tkInt16, tkUint16:
		return prim(2)
	case tkInt32, tkUint32, tkFloat32:
		return prim(4)
	case tkInt64, tkUint64, tkFloat64:
		return prim(8)
	case tiString8S, tiString8L:
		if id.Bound == 0 || id.Bound > 16 {
			return -1
		}
		return pos + -pos&3 + 4 + int(id.Bound) + 1
	case tiArrayS, tiArrayL, tiSeqS, tiSeqL:
		return x.maxCollectionKey(id, pos, depth)
	case EKMinimal, EKComplete:
		if t := x.lookup(id); t != nil {
			return x.maxHashedKey(t, pos, depth)
		}
	}
	return -1
}

// maxCollectionKey is maxKeySize of an array or a bounded sequence.
func (x *typeWalk) maxCollectionKey(id *TypeID, pos, depth int) int {
	seq := id.Kind == tiSeqS || id.Kind == tiSeqL
	n := 1
	for _, k := range id.Dims {
		n *= int(k)
	}
	if seq {
		n = int(id.Bound)
	}
	if id.Elem == nil || n == 0 || n > 16 {
		return -1
	}
	if !x.primitiveElem(id.Elem) { // after a DHEADER
		pos += -pos&3 + 4
	}
	if seq { // after the length
		pos += -pos&3 + 4
	}
	for range n {
		if pos = x.maxKeySize(id.Elem, pos, depth+1); pos < 0 {
			return -1
		}
	}
	return pos
}

// maxHashedKey is maxKeySize of an enum, alias or struct; a union counts as unbounded.
func (x *typeWalk) maxHashedKey(t *Type, pos, depth int) int {
	switch t.Kind {
	case tkEnum:
		n := enumSize(t.BitBound)
		return pos + -pos&(n-1) + n
	case tkAlias:
		return x.maxKeySize(&t.Related, pos, depth+1)
	case tkStruct:
		ms := keyMembers(x.members(t, depth))
		for i := range ms {
			if pos = x.maxKeySize(&ms[i].Type, pos, depth+1); pos < 0 {
				return -1
			}
		}
		return pos
	}
	return -1
}
