package ecm

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/ddsgo/ddsgo/internal/cdr"
)

// ComponentID identifies a component type within one Manager. IDs are assigned by
// registration in order, starting at 0; the serialized state refers to component types
// by name, so two managers may number the same type differently.
type ComponentID uint16

// MaxComponentTypes is the number of component types one Manager can register.
const MaxComponentTypes = 256

// Codec serializes one component type for the state of package ecm. A zero Codec (both
// Marshal and Unmarshal nil) selects the default codec when T is a plain type (see the
// package documentation); otherwise the type is left out of serialized state unless
// the Codec gives both functions.
//
// Marshal returns the encoding of v, in any form (encoding/binary, JSON, protobuf...);
// the state carries it as a sequence of octets. Unmarshal sets v from such an encoding,
// and returns an error for malformed input: it must never panic, since states come
// from the network. An error of either fails the State or ApplyState call.
//
// Equal, when set, reports whether two values are equal; it decides whether
// SetComponentData changed anything and how EntitiesByComponents matches. When nil,
// values are compared with reflect.DeepEqual.
type Codec[T any] struct {
	Marshal   func(v *T) ([]byte, error)
	Unmarshal func(b []byte, v *T) error
	Equal     func(a, b *T) bool
}

// encoders returns the functions that write and read a value of T in a state: c's, or
// the default codec's; ok is false when T has neither.
func (c Codec[T]) encoders() (enc func(*cdr.Encoder, *T), dec func(*cdr.Decoder, *T), ok bool) {
	if c.Marshal == nil || c.Unmarshal == nil {
		if c.Marshal != nil || c.Unmarshal != nil {
			return nil, nil, false // half a codec serializes nothing
		}
		return defaultCodec[T]()
	}
	enc = func(e *cdr.Encoder, v *T) {
		b, err := c.Marshal(v)
		if err != nil {
			e.SetErr(fmt.Errorf("ecm: Marshal of %v: %w", reflect.TypeFor[T](), err))
		}
		e.OctetSeq(b)
	}
	dec = func(d *cdr.Decoder, v *T) {
		b := d.OctetSeq(nil)
		if d.Err() != nil {
			return
		}
		if err := c.Unmarshal(b, v); err != nil {
			d.SetErr(fmt.Errorf("ecm: Unmarshal of %v: %w", reflect.TypeFor[T](), err))
		}
	}
	return enc, dec, true
}

// typeInfo is the type-erased registration of one component type.
type typeInfo struct {
	name      string
	rtype     reflect.Type
	newColumn func() column
	// serializable reports whether the type has a codec.
	serializable bool
	// check decodes a value into a scratch value (to validate a state before applying it).
	check func(d *cdr.Decoder)
}

type registry struct {
	types  []typeInfo
	byKey  map[uintptr]ComponentID
	byName map[string]ComponentID
	// cache is a direct-mapped cache of byKey: looking a type up costs a few
	// instructions instead of a map access, which keeps typed accessors small enough for
	// the processor to overlap the memory accesses of consecutive calls.
	cache [64]cacheEntry
}

type cacheEntry struct {
	key uintptr
	id  ComponentID
}

func cacheSlot(key uintptr) int { return int(key>>5) & 63 }

// typeKey returns a process-unique key for T: the address of the runtime type descriptor
// of *T, read from an interface's type word. It is cheaper than hashing a reflect.Type.
func typeKey[T any]() uintptr {
	var p any = (*T)(nil)
	return (*[2]uintptr)(unsafe.Pointer(&p))[0]
}

// lookup returns the id of T if T is registered with m.
func lookup[T any](m *Manager) (ComponentID, bool) {
	key := typeKey[T]()
	if c := &m.reg.cache[cacheSlot(key)]; c.key == key {
		return c.id, true
	}
	return m.reg.lookupSlow(key)
}

// lookup2 is lookup for two types: their ids, and whether both are registered.
func lookup2[A, B any](m *Manager) (ia, ib ComponentID, ok bool) {
	ia, ok1 := lookup[A](m)
	ib, ok2 := lookup[B](m)
	return ia, ib, ok1 && ok2
}

// lookup3 is lookup for three types.
func lookup3[A, B, C any](m *Manager) (ia, ib, ic ComponentID, ok bool) {
	ia, ib, ok = lookup2[A, B](m)
	ic, ok3 := lookup[C](m)
	return ia, ib, ic, ok && ok3
}

// lookup4 is lookup for four types.
func lookup4[A, B, C, D any](m *Manager) (ia, ib, ic, id ComponentID, ok bool) {
	ia, ib, ic, ok = lookup3[A, B, C](m)
	id, ok4 := lookup[D](m)
	return ia, ib, ic, id, ok && ok4
}

func (r *registry) lookupSlow(key uintptr) (ComponentID, bool) {
	id, ok := r.byKey[key]
	return id, ok
}

// defaultName is the name given to a type registered implicitly: its package path and
// type name, or its type literal.
func defaultName(t reflect.Type) string {
	if t.Name() != "" && t.PkgPath() != "" {
		return t.PkgPath() + "." + t.Name()
	}
	return t.String()
}

// Register registers component type T under name with codec and returns its id. An empty
// name selects the default name (package path and type name). Registering a type again
// with the same name returns its id and replaces its codec when codec is not zero.
// Register panics when name is taken by another type, when T is already registered under
// another name, or when MaxComponentTypes types are registered: these are programming
// errors, not input errors.
func Register[T any](m *Manager, name string, codec Codec[T]) ComponentID {
	rt := reflect.TypeFor[T]()
	if name == "" {
		name = defaultName(rt)
	}
	key := typeKey[T]()
	if id, ok := m.reg.byKey[key]; ok {
		if m.reg.types[id].name != name {
			panic(fmt.Sprintf("ecm: type %v registered as %q, not %q", rt, m.reg.types[id].name, name))
		}
		if codec.Marshal != nil || codec.Unmarshal != nil || codec.Equal != nil {
			t := &m.reg.types[id]
			t.serializable, t.newColumn, t.check = columnFactory(codec)
			m.updateCodec(id)
		}
		return id
	}
	if _, ok := m.reg.byName[name]; ok {
		panic(fmt.Sprintf("ecm: component name %q already registered", name))
	}
	if len(m.reg.types) >= MaxComponentTypes {
		panic("ecm: too many component types")
	}
	id := ComponentID(len(m.reg.types))
	ser, nc, check := columnFactory(codec)
	m.reg.types = append(m.reg.types, typeInfo{name: name, rtype: rt, newColumn: nc, serializable: ser, check: check})
	m.reg.byKey[key] = id
	m.reg.byName[name] = id
	if c := &m.reg.cache[cacheSlot(key)]; c.key == 0 {
		*c = cacheEntry{key, id}
	}
	m.periodic = append(m.periodic, 0)
	return id
}

// ID returns the id of component type T, registering T with the default name and codec
// if needed.
func ID[T any](m *Manager) ComponentID {
	if id, ok := lookup[T](m); ok {
		return id
	}
	return Register(m, "", Codec[T]{})
}

// LookupID returns the id of component type T and whether T is registered. It never
// registers, so it is safe on a Reader.
func LookupID[T any](s Source) (ComponentID, bool) {
	m, _ := s.source()
	return lookup[T](m)
}

// ComponentName returns the registered name of a component type, or "" if id is unknown.
func (m *Manager) ComponentName(id ComponentID) string {
	if int(id) >= len(m.reg.types) {
		return ""
	}
	return m.reg.types[id].name
}

// ComponentIDByName returns the id of the component type registered under name.
func (m *Manager) ComponentIDByName(name string) (ComponentID, bool) {
	id, ok := m.reg.byName[name]
	return id, ok
}

// componentTypeCount returns the number of registered component types; their ids are
// 0 to componentTypeCount()-1.
func (m *Manager) componentTypeCount() int { return len(m.reg.types) }

// columnFactory returns whether codec (or the default codec) can serialize T, a
// constructor of columns bound to the codec, and a function that decodes and drops a
// value.
func columnFactory[T any](codec Codec[T]) (bool, func() column, func(*cdr.Decoder)) {
	ops := &colOps[T]{eq: codec.Equal}
	ops.enc, ops.dec, _ = codec.encoders()
	if ops.eq == nil {
		ops.eq = func(a, b *T) bool { return reflect.DeepEqual(*a, *b) }
	}
	ser := ops.enc != nil && ops.dec != nil
	check := func(d *cdr.Decoder) {
		var v T
		ops.dec(d, &v)
	}
	return ser, func() column { return &col[T]{ops: ops} }, check
}

// updateCodec points the existing columns of type id at its new codec.
func (m *Manager) updateCodec(id ComponentID) {
	for _, a := range m.archs {
		if ci := a.colIdx[id]; ci != 0 {
			a.cols[ci-1].setOps(m.reg.types[id].newColumn())
		}
	}
}
