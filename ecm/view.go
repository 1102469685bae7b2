package ecm

import (
	"slices"
	"sort"
)

// view caches the archetypes that hold a set of component types. It is created on first
// use and kept up to date as archetypes are created; archetypes are never deleted.
type view struct {
	mask  mask
	archs []*archetype
}

// viewFor returns the cached view of the types in k.
func (m *Manager) viewFor(k mask) []*archetype {
	m.mu.Lock()
	v := m.views[k]
	if v == nil {
		v = &view{mask: k}
		for _, a := range m.archs {
			if a.mask.contains(&k) {
				v.archs = append(v.archs, a)
			}
		}
		m.views[k] = v
	}
	archs := v.archs
	m.mu.Unlock()
	return archs
}

// runFunc visits rows lo to hi-1 of a (holes have entity Null); it returns false to stop.
type runFunc func(a *archetype, lo, hi int) bool

// iter describes one iteration.
type iter struct {
	from    Entity // first entity id of interest
	newOnly bool   // only entities created this step
	mutable bool   // the source is a *Manager: rows may be sorted first, and changes made
	// by the callback are deferred into holes until the outermost iteration ends.
}

// iterFor returns the iteration settings of source s.
func iterFor(s Source) (*Manager, iter) {
	m, reader := s.source()
	return m, iter{from: 1, mutable: !reader}
}

func (m *Manager) beginIter() { m.iterating++ }

func (m *Manager) endIter() {
	m.iterating--
	if m.iterating == 0 && len(m.holey) > 0 {
		for _, a := range m.holey {
			m.compact(a)
		}
		clear(m.holey)
		m.holey = m.holey[:0]
	}
}

// lowerBound returns the first row of a whose entity is >= from.
func lowerBound(a *archetype, from Entity) int {
	if from <= 1 {
		return 0
	}
	if a.holes > 0 {
		for i, e := range a.entities {
			if e >= from {
				return i
			}
		}
		return len(a.entities)
	}
	return sort.Search(len(a.entities), func(i int) bool { return a.entities[i] >= from })
}

// cursor walks the rows of a list of archetypes in ascending entity order, one run of
// consecutive rows of one archetype at a time: after next returns true, rows lo to hi-1
// of a are the run. Rows appended during the walk are not visited.
type cursor struct {
	m       *Manager
	n       int        // archetypes in small
	small   [8]curArch // the archetypes, when at most 8
	big     []curArch  // the archetypes, when more than 8
	sorted  []loc      // fallback for unsorted archetypes
	useSort bool       // walk sorted instead of the archetypes
	locked  bool       // beginIter was called
	noHoles bool       // cut runs at holes
	cur     int        // index of the current run's archetype
	a       *archetype
	lo, hi  int
}

// curArch is an archetype in a cursor: the next row to visit and the end.
type curArch struct {
	a        *archetype
	pos, end int
}

type loc struct {
	e   Entity
	a   *archetype
	row int
}

// entries returns the archetypes of c. The cursor holds no pointer into itself, so a
// query that embeds one can be copied and stay on the stack.
func (c *cursor) entries() []curArch {
	if c.big != nil {
		return c.big
	}
	return c.small[:c.n]
}

// open starts c over archs. With it.mutable, unsorted archetypes are sorted first (when
// no iteration is running). With lock, removals are turned into holes until close.
func (m *Manager) open(c *cursor, archs []*archetype, it iter, lock bool) {
	c.m = m
	if it.newOnly && len(m.newOld) == 0 {
		it.from = max(it.from, m.stepStart)
	}
	unsorted := false
	for _, a := range archs {
		if len(a.entities) == 0 {
			continue
		}
		if a.unsorted {
			if it.mutable && m.iterating == 0 {
				m.sortRows(a)
			} else {
				unsorted = true
			}
		}
		e := curArch{a: a, pos: lowerBound(a, it.from), end: len(a.entities)}
		switch {
		case c.big != nil:
			c.big = append(c.big, e)
		case c.n < len(c.small):
			c.small[c.n] = e
			c.n++
		default:
			c.big = append(append(make([]curArch, 0, 2*c.n), c.small[:c.n]...), e)
		}
	}
	if lock {
		m.beginIter()
		c.locked = true
	}
	if unsorted {
		for _, ca := range c.entries() {
			for row, e := range ca.a.entities {
				if e != Null && e >= it.from {
					c.sorted = append(c.sorted, loc{e, ca.a, row})
				}
			}
		}
		slices.SortFunc(c.sorted, func(x, y loc) int {
			if x.e < y.e {
				return -1
			}
			return 1
		})
		c.useSort = true
	}
}

// close ends the walk.
func (c *cursor) close() {
	if c.locked {
		c.locked = false
		c.m.endIter()
	}
}

// next advances to the next run.
func (c *cursor) next() bool {
	if c.useSort {
		for len(c.sorted) > 0 {
			l := c.sorted[0]
			c.sorted = c.sorted[1:]
			if l.a.entities[l.row] == l.e { // not a hole made since
				c.a, c.lo, c.hi = l.a, l.row, l.row+1
				return true
			}
		}
		return false
	}
	list := c.entries()
	const maxEntity = ^Entity(0)
	best := -1
	bestID, second := maxEntity, maxEntity
	for k := range list {
		ca := &list[k]
		ents := ca.a.entities
		p := ca.pos
		for p < ca.end && ents[p] == Null {
			p++
		}
		ca.pos = p
		if p >= ca.end {
			continue
		}
		if id := ents[p]; id < bestID {
			second = bestID
			bestID, best = id, k
		} else if id < second {
			second = id
		}
	}
	if best < 0 {
		return false
	}
	ca := &list[best]
	ents := ca.a.entities
	lo, end := ca.pos, ca.end
	hi := lo + 1
	switch {
	case ca.a.holes == 0 && second == maxEntity:
		hi = end
	case ca.a.holes == 0:
		// Rows are sorted: find the first entity >= second.
		hi += sort.Search(end-hi, func(j int) bool { return ents[hi+j] >= second })
	default:
		for hi < end && ents[hi] < second && (ents[hi] != Null || !c.noHoles) {
			hi++
		}
	}
	ca.pos = hi
	c.cur = best
	c.a, c.lo, c.hi = ca.a, lo, hi
	return true
}

// resume makes the walk continue at row of the current run's archetype.
func (c *cursor) resume(row int) {
	if !c.useSort {
		c.entries()[c.cur].pos = row
	}
}

// runs calls fn for the runs of a cursor over archs.
func (m *Manager) runs(archs []*archetype, it iter, fn runFunc) {
	var c cursor
	m.open(&c, archs, it, it.mutable)
	defer c.close()
	for c.next() {
		if !fn(c.a, c.lo, c.hi) {
			return
		}
	}
}

func mask1(a ComponentID) mask {
	var k mask
	k.set(a)
	return k
}

func mask2(a, b ComponentID) mask {
	var k mask
	k.set(a)
	k.set(b)
	return k
}

func mask3(a, b, c ComponentID) mask {
	k := mask2(a, b)
	k.set(c)
	return k
}

func mask4(a, b, c, d ComponentID) mask {
	k := mask3(a, b, c)
	k.set(d)
	return k
}

// openRows starts c over archs for the eachN functions: runs are cut at holes, and
// removals are turned into holes until close when the source is a *Manager.
func (m *Manager) openRows(c *cursor, archs []*archetype, it iter) {
	c.noHoles = true
	m.open(c, archs, it, it.mutable)
}

// rowsOf returns the rows of the current run of c in the column of component id, of
// type A.
func rowsOf[A any](c *cursor, id ComponentID) []A {
	return colOf[A](c.a, int(c.a.colIdx[id])-1).data[c.lo:c.hi:c.hi]
}

// each1 iterates, with it, over the entities with component A
// in the archetypes that match lists for their mask.
func each1[A any](m *Manager, match func(mask) []*archetype, it iter, fn func(Entity, *A) bool) {
	ia, ok := lookup[A](m)
	if !ok {
		return
	}
	var c cursor
	m.openRows(&c, match(mask1(ia)), it)
	defer c.close()
	for c.next() {
		ents := c.a.entities[c.lo:c.hi:c.hi]
		da := rowsOf[A](&c, ia)[:len(ents)]
		ver := m.version
		for i := range ents {
			if it.newOnly && !m.isNew(ents[i]) {
				continue
			}
			if !fn(ents[i], &da[i]) {
				return
			}
			if m.version != ver {
				// A structural change: rows may have become holes or slices moved.
				c.resume(c.lo + i + 1)
				break
			}
		}
	}
}

// each2 iterates, with it, over the entities with components A and B
// in the archetypes that match lists for their mask.
func each2[A, B any](m *Manager, match func(mask) []*archetype, it iter, fn func(Entity, *A, *B) bool) {
	ia, ib, ok := lookup2[A, B](m)
	if !ok {
		return
	}
	var c cursor
	m.openRows(&c, match(mask2(ia, ib)), it)
	defer c.close()
	for c.next() {
		ents := c.a.entities[c.lo:c.hi:c.hi]
		da, db := rowsOf[A](&c, ia)[:len(ents)], rowsOf[B](&c, ib)[:len(ents)]
		ver := m.version
		for i := range ents {
			if it.newOnly && !m.isNew(ents[i]) {
				continue
			}
			if !fn(ents[i], &da[i], &db[i]) {
				return
			}
			if m.version != ver {
				// A structural change: rows may have become holes or slices moved.
				c.resume(c.lo + i + 1)
				break
			}
		}
	}
}

// each3 iterates, with it, over the entities with components A, B and C
// in the archetypes that match lists for their mask.
func each3[A, B, C any](m *Manager, match func(mask) []*archetype, it iter, fn func(Entity, *A, *B, *C) bool) {
	ia, ib, ic, ok := lookup3[A, B, C](m)
	if !ok {
		return
	}
	var c cursor
	m.openRows(&c, match(mask3(ia, ib, ic)), it)
	defer c.close()
	for c.next() {
		ents := c.a.entities[c.lo:c.hi:c.hi]
		da, db, dc := rowsOf[A](&c, ia)[:len(ents)], rowsOf[B](&c, ib)[:len(ents)], rowsOf[C](&c, ic)[:len(ents)]
		ver := m.version
		for i := range ents {
			if it.newOnly && !m.isNew(ents[i]) {
				continue
			}
			if !fn(ents[i], &da[i], &db[i], &dc[i]) {
				return
			}
			if m.version != ver {
				// A structural change: rows may have become holes or slices moved.
				c.resume(c.lo + i + 1)
				break
			}
		}
	}
}

// each4 iterates, with it, over the entities with components A, B, C and D
// in the archetypes that match lists for their mask.
func each4[A, B, C, D any](m *Manager, match func(mask) []*archetype, it iter, fn func(Entity, *A, *B, *C, *D) bool) {
	ia, ib, ic, id, ok := lookup4[A, B, C, D](m)
	if !ok {
		return
	}
	var c cursor
	m.openRows(&c, match(mask4(ia, ib, ic, id)), it)
	defer c.close()
	for c.next() {
		ents := c.a.entities[c.lo:c.hi:c.hi]
		da, db, dc, dd := rowsOf[A](&c, ia)[:len(ents)], rowsOf[B](&c, ib)[:len(ents)], rowsOf[C](&c, ic)[:len(ents)], rowsOf[D](&c, id)[:len(ents)]
		ver := m.version
		for i := range ents {
			if it.newOnly && !m.isNew(ents[i]) {
				continue
			}
			if !fn(ents[i], &da[i], &db[i], &dc[i], &dd[i]) {
				return
			}
			if m.version != ver {
				// A structural change: rows may have become holes or slices moved.
				c.resume(c.lo + i + 1)
				break
			}
		}
	}
}

// Each1 calls fn for every entity that has component A, in ascending entity order, with
// a pointer to the component, until fn returns false. Components created, removed or
// entities created inside fn are allowed: rows that leave the query are skipped and
// entities that join it are not visited in this iteration. Pointers are valid until the
// next structural change.
func Each1[A any](m *Manager, fn func(Entity, *A) bool) {
	each1(m, m.viewFor, iter{from: 1, mutable: true}, fn)
}

// Each2 is Each1 for entities that have components A and B.
func Each2[A, B any](m *Manager, fn func(Entity, *A, *B) bool) {
	each2(m, m.viewFor, iter{from: 1, mutable: true}, fn)
}

// Each3 is Each1 for entities that have components A, B and C.
func Each3[A, B, C any](m *Manager, fn func(Entity, *A, *B, *C) bool) {
	each3(m, m.viewFor, iter{from: 1, mutable: true}, fn)
}

// Each4 is Each1 for entities that have components A, B, C and D.
func Each4[A, B, C, D any](m *Manager, fn func(Entity, *A, *B, *C, *D) bool) {
	each4(m, m.viewFor, iter{from: 1, mutable: true}, fn)
}

// EachRO1 is the read-only Each1: fn gets a copy of each component, and s may be a
// Reader.
func EachRO1[A any](s Source, fn func(Entity, A) bool) {
	m, it := iterFor(s)
	each1(m, m.viewFor, it, func(e Entity, a *A) bool { return fn(e, *a) })
}

// EachRO2 is the read-only Each2.
func EachRO2[A, B any](s Source, fn func(Entity, A, B) bool) {
	m, it := iterFor(s)
	each2(m, m.viewFor, it, func(e Entity, a *A, b *B) bool { return fn(e, *a, *b) })
}

// EachRO3 is the read-only Each3.
func EachRO3[A, B, C any](s Source, fn func(Entity, A, B, C) bool) {
	m, it := iterFor(s)
	each3(m, m.viewFor, it, func(e Entity, a *A, b *B, c *C) bool { return fn(e, *a, *b, *c) })
}

// EachRO4 is the read-only Each4.
func EachRO4[A, B, C, D any](s Source, fn func(Entity, A, B, C, D) bool) {
	m, it := iterFor(s)
	each4(m, m.viewFor, it,
		func(e Entity, a *A, b *B, c *C, d *D) bool { return fn(e, *a, *b, *c, *d) })
}

// EachNew1 is Each1 restricted to entities created in the current step.
func EachNew1[A any](m *Manager, fn func(Entity, *A) bool) {
	each1(m, m.viewFor, iter{from: 1, newOnly: true, mutable: true}, fn)
}

// EachNew2 is Each2 restricted to entities created in the current step.
func EachNew2[A, B any](m *Manager, fn func(Entity, *A, *B) bool) {
	each2(m, m.viewFor, iter{from: 1, newOnly: true, mutable: true}, fn)
}

// EachNewRO1 is the read-only EachNew1.
func EachNewRO1[A any](s Source, fn func(Entity, A) bool) {
	m, it := iterFor(s)
	it.newOnly = true
	each1(m, m.viewFor, it, func(e Entity, a *A) bool { return fn(e, *a) })
}

// EachNewRO2 is the read-only EachNew2.
func EachNewRO2[A, B any](s Source, fn func(Entity, A, B) bool) {
	m, it := iterFor(s)
	it.newOnly = true
	each2(m, m.viewFor, it, func(e Entity, a *A, b *B) bool { return fn(e, *a, *b) })
}

// EachRemoved1 calls fn, in ascending entity order, for every entity marked for removal
// in this step that has component A, with a copy of the component.
func EachRemoved1[A any](s Source, fn func(Entity, A) bool) {
	m, _ := s.source()
	ia, ok := lookup[A](m)
	if !ok {
		return
	}
	m.eachMarked(mask1(ia), func(a *archetype, row int) bool {
		return fn(a.entities[row], colOf[A](a, int(a.colIdx[ia])-1).data[row])
	})
}

// EachRemoved2 is EachRemoved1 for entities that have components A and B.
func EachRemoved2[A, B any](s Source, fn func(Entity, A, B) bool) {
	m, _ := s.source()
	ia, ib, ok := lookup2[A, B](m)
	if !ok {
		return
	}
	m.eachMarked(mask2(ia, ib), func(a *archetype, row int) bool {
		return fn(a.entities[row], colOf[A](a, int(a.colIdx[ia])-1).data[row], colOf[B](a, int(a.colIdx[ib])-1).data[row])
	})
}

// EachEntity calls fn, in ascending entity order, for every entity that has all the
// given component types (every entity if types is empty), until fn returns false.
func EachEntity(s Source, types []ComponentID, fn func(Entity) bool) {
	m, it := iterFor(s)
	var k mask
	for _, id := range types {
		if int(id) >= len(m.reg.types) {
			return
		}
		k.set(id)
	}
	m.runs(m.viewFor(k), it, func(a *archetype, lo, hi int) bool {
		for i := lo; i < hi; i++ {
			if e := a.entities[i]; e != Null {
				if !fn(e) {
					return false
				}
			}
		}
		return true
	})
}
