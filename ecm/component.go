package ecm

import "unsafe"

// ComponentState is the change state of one component of one entity in the current step.
type ComponentState uint8

// Component change states, as in Gazebo: a one-time change must reach every consumer
// (creation, a teleport); a periodic change may be dropped by rate-limited consumers.
const (
	NoChange ComponentState = iota
	OneTimeChange
	PeriodicChange
)

// String returns the name of s.
func (s ComponentState) String() string {
	switch s {
	case NoChange:
		return "NoChange"
	case OneTimeChange:
		return "OneTimeChange"
	case PeriodicChange:
		return "PeriodicChange"
	}
	return "ComponentState(?)"
}

// stampState returns the state recorded in stamp, NoChange if from an older step.
func (m *Manager) stampState(stamp uint32) ComponentState {
	if stamp>>2 != m.epoch {
		return NoChange
	}
	return ComponentState(stamp & 3)
}

// createdStamp is the stamp of a component created now: a one-time change.
func (m *Manager) createdStamp() uint32 { return m.epoch<<2 | uint32(OneTimeChange) }

// isNew reports whether e was created in the current step.
func (m *Manager) isNew(e Entity) bool {
	if e >= m.stepStart {
		return true
	}
	_, ok := m.newOld[e]
	return ok
}

// noteState accounts a component's state moving from old to s.
func (m *Manager) noteState(e Entity, id ComponentID, old, s ComponentState) {
	if old == s {
		return
	}
	switch old {
	case NoChange:
	case OneTimeChange:
		m.oneTime--
	case PeriodicChange:
		m.periodic[id]--
	}
	switch s {
	case NoChange:
	case OneTimeChange:
		m.oneTime++
	case PeriodicChange:
		m.periodic[id]++
	}
	if old == NoChange && !m.isNew(e) {
		m.changed = append(m.changed, compRef{e, id})
	}
}

// addComponent adds component id (zero value) to e at r and returns its new row and
// column index. The component is a one-time change.
func (m *Manager) addComponent(e Entity, r *record, id ComponentID) (row, ci int) {
	dst := m.withComponent(m.archOf(r), id)
	row = m.moveEntity(e, r, dst, m.createdStamp())
	m.created.set(id)
	m.noteState(e, id, NoChange, OneTimeChange)
	return row, int(dst.colIdx[id]) - 1
}

// removeComponent removes component id from e at r, if present.
func (m *Manager) removeComponent(e Entity, r *record, id ComponentID) bool {
	a := m.archOf(r)
	ci := a.colIdx[id]
	if ci == 0 {
		return false
	}
	m.noteState(e, id, m.stampState(a.stamps[ci-1][r.row]), NoChange)
	if !m.isNew(e) {
		m.removedCs = append(m.removedCs, compRef{e, id})
	}
	m.moveEntity(e, r, m.withoutComponent(a, id), 0)
	return true
}

// colOf returns the typed column of T at column index ci of a.
func colOf[T any](a *archetype, ci int) *col[T] { return a.cols[ci].(*col[T]) }

// elem returns the address of row of the column of T at column index ci of a, without
// the type assertion and bounds check of colOf: the caller found ci through a.colIdx of
// T's id (so the column is a *col[T]) and row is the row of a live entity of a.
func elem[T any](a *archetype, ci int, row uint32) *T {
	c := (*[2]unsafe.Pointer)(unsafe.Pointer(&a.cols[ci]))[1] // the interface's data word
	return (*T)(unsafe.Add(*(*unsafe.Pointer)(c), uintptr(row)*unsafe.Sizeof(*new(T))))
}

// CreateComponent sets component T of e to v, creating it if e lacks it, and returns a
// pointer to the stored value (valid until the next structural change). Creating a
// component, or replacing its value, is a one-time change. It returns nil if e is not a
// live entity.
func CreateComponent[T any](m *Manager, e Entity, v T) *T {
	r := m.rec(e)
	if r == nil {
		return nil
	}
	id := ID[T](m)
	if ci := m.archOf(r).colIdx[id]; ci != 0 {
		p := &colOf[T](m.archOf(r), int(ci)-1).data[r.row]
		*p = v
		m.SetChanged(e, id, OneTimeChange)
		return p
	}
	row, ci := m.addComponent(e, r, id)
	p := &colOf[T](m.archOf(r), ci).data[row]
	*p = v
	return p
}

// Get returns a pointer to component T of e, valid until the next structural change
// (creating or removing a component or an entity), and whether e has it. Writing through
// the pointer does not mark the component changed: call SetChanged or use
// SetComponentData.
func Get[T any](m *Manager, e Entity) (*T, bool) {
	a, row, ok := m.locate(e)
	if !ok {
		return nil, false
	}
	id, ok := lookup[T](m)
	if !ok {
		return nil, false
	}
	ci := a.colIdx[uint8(id)]
	if ci == 0 {
		return nil, false
	}
	return elem[T](a, int(ci)-1, row), true
}

// Has reports whether e has component T.
func Has[T any](s Source, e Entity) bool {
	m, _ := s.source()
	id, ok := lookup[T](m)
	if !ok {
		return false
	}
	r := m.rec(e)
	return r != nil && m.archOf(r).has(id)
}

// ComponentData returns a copy of component T of e and whether e has it.
func ComponentData[T any](s Source, e Entity) (T, bool) {
	m, _ := s.source()
	if p, ok := Get[T](m, e); ok {
		return *p, true
	}
	var zero T
	return zero, false
}

// SetComponentData sets component T of e to v, creating the component if e lacks it. It
// reports whether the stored data changed (always true on creation; otherwise compared
// with the codec's Equal). A change is a one-time change; setting an equal value leaves
// the change state as it is. It returns false if e is not a live entity.
func SetComponentData[T any](m *Manager, e Entity, v T) bool {
	r := m.rec(e)
	if r == nil {
		return false
	}
	id := ID[T](m)
	if ci := m.archOf(r).colIdx[id]; ci != 0 {
		c := colOf[T](m.archOf(r), int(ci)-1)
		p := &c.data[r.row]
		if c.ops.eq(p, &v) {
			return false
		}
		*p = v
		m.SetChanged(e, id, OneTimeChange)
		return true
	}
	row, ci := m.addComponent(e, r, id)
	colOf[T](m.archOf(r), ci).data[row] = v
	return true
}

// ComponentDefault returns a pointer to component T of e, first creating it with value
// def if e lacks it. It returns nil if e is not a live entity.
func ComponentDefault[T any](m *Manager, e Entity, def T) *T {
	if p, ok := Get[T](m, e); ok {
		return p
	}
	return CreateComponent(m, e, def)
}

// RemoveComponent removes component T from e and reports whether e had it.
func RemoveComponent[T any](m *Manager, e Entity) bool {
	id, ok := lookup[T](m)
	if !ok {
		return false
	}
	return m.RemoveComponent(e, id)
}

// RemoveComponent removes component type id from e and reports whether e had it.
func (m *Manager) RemoveComponent(e Entity, id ComponentID) bool {
	r := m.rec(e)
	if r == nil || int(id) >= len(m.reg.types) {
		return false
	}
	return m.removeComponent(e, r, id)
}

// ComponentTypes returns the component types of e in ascending order (nil if e is not a
// live entity).
func (m *Manager) ComponentTypes(e Entity) []ComponentID {
	r := m.rec(e)
	if r == nil || len(m.archOf(r).types) == 0 {
		return nil
	}
	return append([]ComponentID(nil), m.archOf(r).types...)
}

// EntityHasComponentType reports whether e has component type id.
func (m *Manager) EntityHasComponentType(e Entity, id ComponentID) bool {
	r := m.rec(e)
	return r != nil && int(id) < MaxComponentTypes && m.archOf(r).has(id)
}

// EntityMatches reports whether e has all the given component types.
func (m *Manager) EntityMatches(e Entity, types ...ComponentID) bool {
	r := m.rec(e)
	if r == nil {
		return false
	}
	for _, id := range types {
		if int(id) >= MaxComponentTypes || !m.archOf(r).has(id) {
			return false
		}
	}
	return true
}

// HasComponentType reports whether a component of type id was ever created in m.
func (m *Manager) HasComponentType(id ComponentID) bool {
	return int(id) < MaxComponentTypes && m.created.has(id)
}

// First returns the entity with the smallest id that has component T, and a pointer to
// that component; Null and nil if there is none.
func First[T any](m *Manager) (Entity, *T) {
	var (
		first Entity
		p     *T
	)
	Each1(m, func(e Entity, v *T) bool {
		first, p = e, v
		return false
	})
	return first, p
}

// FirstRO returns the entity with the smallest id that has component T, and a copy of
// that component.
func FirstRO[T any](s Source) (Entity, T, bool) {
	var (
		first Entity
		val   T
	)
	EachRO1(s, func(e Entity, v T) bool {
		first, val = e, v
		return false
	})
	return first, val, first != Null
}

// SetChanged sets the change state of component type id of e and reports whether it
// did: it returns false, and changes nothing, if e is not a live entity, lacks the
// component or s is not one of NoChange, OneTimeChange and PeriodicChange. (Gazebo's
// SetChanged returns nothing and ignores a missing component; the result says so, as
// RemoveComponent's does.)
func (m *Manager) SetChanged(e Entity, id ComponentID, s ComponentState) bool {
	r := m.rec(e)
	if r == nil || int(id) >= MaxComponentTypes || s > PeriodicChange {
		return false
	}
	ci := m.archOf(r).colIdx[id]
	if ci == 0 {
		return false
	}
	st := &m.archOf(r).stamps[ci-1][r.row]
	m.noteState(e, id, m.stampState(*st), s)
	*st = m.epoch<<2 | uint32(s)
	return true
}

// ComponentState returns the change state of component type id of e in this step;
// NoChange if e lacks it.
func (m *Manager) ComponentState(e Entity, id ComponentID) ComponentState {
	r := m.rec(e)
	if r == nil || int(id) >= MaxComponentTypes {
		return NoChange
	}
	ci := m.archOf(r).colIdx[id]
	if ci == 0 {
		return NoChange
	}
	return m.stampState(m.archOf(r).stamps[ci-1][r.row])
}

// HasOneTimeComponentChanges reports whether any component has a one-time change in
// this step.
func (m *Manager) HasOneTimeComponentChanges() bool { return m.oneTime > 0 }

// ComponentTypesWithPeriodicChanges returns, in ascending order, the component types
// that have a periodic change in this step.
func (m *Manager) ComponentTypesWithPeriodicChanges() []ComponentID {
	var out []ComponentID
	for id, n := range m.periodic {
		if n > 0 {
			out = append(out, ComponentID(id))
		}
	}
	return out
}
