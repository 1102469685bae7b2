package ecm

// spawn creates an entity in the archetype of the given component types (no duplicates)
// and returns it with its record; the caller appends the column values.
func (m *Manager) spawn(k mask) (Entity, *archetype) {
	a := m.lastSpawn
	if a == nil || a.mask != k {
		a = m.archetypeFor(k)
		m.lastSpawn = a
	}
	e := m.newID()
	m.insert(e, a)
	st := m.createdStamp()
	for i, id := range a.types {
		a.stamps[i] = append(a.stamps[i], st)
		m.created.set(id)
	}
	m.oneTime += len(a.types)
	return e, a
}

// pushValue appends v to the column of id in a.
func pushValue[T any](a *archetype, id ComponentID, v T) {
	c := colOf[T](a, int(a.colIdx[id])-1)
	c.data = append(c.data, v)
}

// Create1 creates an entity with component a and returns it. It is faster than
// CreateEntity followed by CreateComponent.
func Create1[A any](m *Manager, a A) Entity {
	ia := ID[A](m)
	var k mask
	k.set(ia)
	e, arch := m.spawn(k)
	pushValue(arch, ia, a)
	return e
}

// Create2 creates an entity with components a and b (of distinct types) and returns it.
func Create2[A, B any](m *Manager, a A, b B) Entity {
	ia, ib := ID[A](m), ID[B](m)
	if ia == ib {
		panic("ecm: Create2 with one type twice")
	}
	var k mask
	k.set(ia)
	k.set(ib)
	e, arch := m.spawn(k)
	pushValue(arch, ia, a)
	pushValue(arch, ib, b)
	return e
}

// Create3 creates an entity with components a, b and c (of distinct types).
func Create3[A, B, C any](m *Manager, a A, b B, c C) Entity {
	ia, ib, ic := ID[A](m), ID[B](m), ID[C](m)
	if ia == ib || ia == ic || ib == ic {
		panic("ecm: Create3 with one type twice")
	}
	var k mask
	k.set(ia)
	k.set(ib)
	k.set(ic)
	e, arch := m.spawn(k)
	pushValue(arch, ia, a)
	pushValue(arch, ib, b)
	pushValue(arch, ic, c)
	return e
}
