package ecm

import (
	"slices"
)

// SetParentEntity makes parent the parent of child, or detaches child from its parent if
// parent is Null. It reports false, changing nothing, if child is not a live entity,
// parent is neither Null nor live, or parent is child or one of its descendants.
func (m *Manager) SetParentEntity(child, parent Entity) bool {
	rc := m.rec(child)
	if rc == nil {
		return false
	}
	var rp *record
	if parent != Null {
		if rp = m.rec(parent); rp == nil || parent == child {
			return false
		}
		for p := rp.parent; p != Null; p = m.ParentEntity(p) {
			if p == child {
				return false
			}
		}
	}
	old, had := rc.parent, rc.ai&flagParent != 0
	if had && old == parent || !had && parent == Null {
		return true
	}
	if !m.isNew(child) {
		m.reparent = append(m.reparent, child)
	}
	if had {
		m.unlinkChild(old, child)
		rc.parent = Null
		rc.ai &^= flagParent
	}
	if parent == Null {
		return true
	}
	rc.parent = parent
	rc.ai |= flagParent
	kids := m.children[parent]
	i, _ := slices.BinarySearch(kids, child)
	m.children[parent] = slices.Insert(kids, i, child)
	rp.ai |= flagChildren
	return true
}

// unlinkChild removes child from the children of parent.
func (m *Manager) unlinkChild(parent, child Entity) {
	kids := m.children[parent]
	if i, ok := slices.BinarySearch(kids, child); ok {
		kids = slices.Delete(kids, i, i+1)
	}
	if len(kids) == 0 {
		delete(m.children, parent)
		if r := m.rec(parent); r != nil {
			r.ai &^= flagChildren
		}
		return
	}
	m.children[parent] = kids
}

// detach removes e from the parent graph: its children lose their parent.
func (m *Manager) detach(e Entity, r *record) {
	if r.ai&flagParent != 0 {
		m.unlinkChild(r.parent, e)
		r.parent = Null
	}
	if r.ai&flagChildren != 0 {
		for _, c := range m.children[e] {
			if rc := m.rec(c); rc != nil {
				rc.parent = Null
				rc.ai &^= flagParent
			}
		}
		delete(m.children, e)
	}
	r.ai &^= flagParent | flagChildren
}

// ParentEntity returns the parent of e, or Null.
func (m *Manager) ParentEntity(e Entity) Entity {
	if r := m.index.get(e); r != nil {
		return r.parent
	}
	return Null
}

// Children returns the children of e in ascending order.
func (m *Manager) Children(e Entity) []Entity { return slices.Clone(m.children[e]) }

// Descendants returns e and all its descendants in ascending order; nil if e is not a
// live entity.
func (m *Manager) Descendants(e Entity) []Entity {
	if !m.HasEntity(e) {
		return nil
	}
	out := []Entity{e}
	for i := 0; i < len(out); i++ {
		out = append(out, m.children[out[i]]...)
	}
	slices.Sort(out)
	return out
}

// Matcher matches entities by the value of one component; see Match.
type Matcher struct {
	lookup func(m *Manager) (ComponentID, bool)
	match  func(a *archetype, ci int, row int) bool
}

// Match returns a Matcher of entities whose component of type T equals v (by the
// codec's Equal).
func Match[T any](v T) Matcher {
	return Matcher{
		lookup: lookup[T],
		match: func(a *archetype, ci int, row int) bool {
			c := colOf[T](a, ci)
			return c.ops.eq(&c.data[row], &v)
		},
	}
}

// matchIDs resolves the component types of values; ok is false if one is unregistered.
func (m *Manager) matchIDs(values []Matcher) (ids []ComponentID, k mask, ok bool) {
	ids = make([]ComponentID, len(values))
	for i, v := range values {
		id, found := v.lookup(m)
		if !found {
			return nil, k, false
		}
		ids[i] = id
		k.set(id)
	}
	return ids, k, true
}

func matches(a *archetype, row int, ids []ComponentID, values []Matcher) bool {
	for i, v := range values {
		if !v.match(a, int(a.colIdx[ids[i]])-1, row) {
			return false
		}
	}
	return true
}

// entitiesBy returns up to limit (0: all) entities matching values, in ascending order.
func (m *Manager) entitiesBy(it iter, limit int, values []Matcher) []Entity {
	ids, k, ok := m.matchIDs(values)
	if !ok {
		return nil
	}
	var out []Entity
	m.runs(m.viewFor(k), it, func(a *archetype, lo, hi int) bool {
		for i := lo; i < hi; i++ {
			if e := a.entities[i]; e != Null && matches(a, i, ids, values) {
				out = append(out, e)
				if len(out) == limit {
					return false
				}
			}
		}
		return true
	})
	return out
}

// EntitiesByComponents returns, in ascending order, the entities that have a component
// equal to each of values.
func (m *Manager) EntitiesByComponents(values ...Matcher) []Entity {
	return m.entitiesBy(iter{from: 1, mutable: true}, 0, values)
}

// EntityByComponents returns the first entity (smallest id) that has a component equal
// to each of values, or Null.
func (m *Manager) EntityByComponents(values ...Matcher) Entity {
	if out := m.entitiesBy(iter{from: 1, mutable: true}, 1, values); len(out) > 0 {
		return out[0]
	}
	return Null
}

// ChildrenByComponents returns, in ascending order, the children of parent that have a
// component equal to each of values.
func (m *Manager) ChildrenByComponents(parent Entity, values ...Matcher) []Entity {
	ids, _, ok := m.matchIDs(values)
	if !ok {
		return nil
	}
	var out []Entity
	for _, c := range m.children[parent] {
		r := m.rec(c)
		if r == nil {
			continue
		}
		has := true
		for _, id := range ids {
			if !m.archOf(r).has(id) {
				has = false
				break
			}
		}
		if has && matches(m.archOf(r), int(r.row), ids, values) {
			out = append(out, c)
		}
	}
	return out
}
