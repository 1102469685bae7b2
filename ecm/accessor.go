package ecm

import "unsafe"

// Accessor gives fast random access to component T of any entity: it caches, per
// archetype, where T is stored, so that Get is a few loads (Get[T] looks the type up on
// every call). Create one per component type during set-up and keep it. An Accessor is
// bound to its Manager and, like it, not safe for concurrent use.
type Accessor[T any] struct {
	m    *Manager
	id   ComponentID
	size uintptr
	// cols holds, by archetype index, the *col[T] of T in that archetype (nil where the
	// archetype lacks T) as an unsafe.Pointer: its first word is the address of the
	// column's data, so Get needs no type assertion and inlines.
	cols []unsafe.Pointer
}

// NewAccessor returns an Accessor of component T in m, registering T if needed.
func NewAccessor[T any](m *Manager) *Accessor[T] {
	return &Accessor[T]{m: m, id: ID[T](m), size: unsafe.Sizeof(*new(T))}
}

// ID returns the component type id of T.
func (s *Accessor[T]) ID() ComponentID { return s.id }

// Get returns a pointer to component T of e and whether e has it; the pointer is valid
// until the next structural change.
func (s *Accessor[T]) Get(e Entity) (*T, bool) {
	if d := s.m.index.dense; uint64(e) < uint64(len(d)) {
		r := d[e]
		if ai := r.ai & aiMask; ai != 0 && int(ai) <= len(s.cols) {
			if c := s.cols[ai-1]; c != nil {
				// Live rows are always within the column.
				return (*T)(unsafe.Add(*(*unsafe.Pointer)(c), uintptr(r.row)*s.size)), true
			}
		}
	}
	return s.getSlow(e)
}

// getSlow handles far entity ids, archetypes created since the cache was filled, and
// entities without T.
func (s *Accessor[T]) getSlow(e Entity) (*T, bool) {
	for i := len(s.cols); i < len(s.m.archs); i++ {
		var c unsafe.Pointer
		if a := s.m.archs[i]; a.has(s.id) {
			c = unsafe.Pointer(colOf[T](a, int(a.colIdx[s.id])-1))
		}
		s.cols = append(s.cols, c)
	}
	r := s.m.rec(e)
	if r == nil || s.cols[r.ai&aiMask-1] == nil {
		return nil, false
	}
	return &(*col[T])(s.cols[r.ai&aiMask-1]).data[r.row], true
}

// Has reports whether e has component T.
func (s *Accessor[T]) Has(e Entity) bool {
	_, ok := s.Get(e)
	return ok
}
