package ecm

import (
	"slices"
)

// mark marks e for removal.
func (m *Manager) mark(e Entity) {
	r := m.rec(e)
	if r == nil || r.ai&flagMarked != 0 {
		return
	}
	r.ai |= flagMarked
	if n := len(m.removeQueue); n > 0 && m.removeQueue[n-1] > e {
		m.queueSorted = false
	}
	m.removeQueue = append(m.removeQueue, e)
}

// RequestRemoveEntity marks e, and with recursive all its descendants, for removal at
// the end of the step (see EndStep). Marked entities stay live until then.
func (m *Manager) RequestRemoveEntity(e Entity, recursive bool) {
	if !m.HasEntity(e) {
		return
	}
	if len(m.removeQueue) == 0 {
		m.queueSorted = true
	}
	if !recursive || m.rec(e).ai&flagChildren == 0 {
		m.mark(e)
		return
	}
	for _, d := range m.Descendants(e) {
		m.mark(d)
	}
}

// RequestRemoveEntities marks every entity for removal at the end of the step.
func (m *Manager) RequestRemoveEntities() { m.removeAll = m.count > 0 }

// HasEntitiesMarkedForRemoval reports whether any entity is marked for removal.
func (m *Manager) HasEntitiesMarkedForRemoval() bool {
	return m.removeAll || len(m.removeQueue) > 0
}

// IsMarkedForRemoval reports whether e is marked for removal.
func (m *Manager) IsMarkedForRemoval(e Entity) bool {
	r := m.rec(e)
	return r != nil && (m.removeAll || r.ai&flagMarked != 0)
}

// HasNewEntities reports whether any live entity was created in the current step.
func (m *Manager) HasNewEntities() bool {
	if len(m.newOld) > 0 {
		return true
	}
	for e := m.stepStart; e < m.nextID; e++ {
		if m.HasEntity(e) {
			return true
		}
		if uint64(e) >= uint64(len(m.index.dense)) {
			// Past the dense index: look at the sparse ids instead of scanning a gap.
			for id, r := range m.index.sparse {
				if id >= m.stepStart && r.ai&aiMask != 0 {
					return true
				}
			}
			return false
		}
	}
	return false
}

// IsNewEntity reports whether e is a live entity created in the current step.
func (m *Manager) IsNewEntity(e Entity) bool { return m.HasEntity(e) && m.isNew(e) }

// sortQueue sorts the removal queue (under mu: read-only queries may call it).
func (m *Manager) sortQueue() {
	m.mu.Lock()
	if !m.queueSorted {
		slices.Sort(m.removeQueue)
		m.queueSorted = true
	}
	m.mu.Unlock()
}

// eachMarked calls fn, in ascending entity order, for the marked entities that have all
// types of k.
func (m *Manager) eachMarked(k mask, fn func(a *archetype, row int) bool) {
	if m.removeAll {
		m.runs(m.viewFor(k), iter{from: 1}, func(a *archetype, lo, hi int) bool {
			for i := lo; i < hi; i++ {
				if a.entities[i] != Null && !fn(a, i) {
					return false
				}
			}
			return true
		})
		return
	}
	m.sortQueue()
	for _, e := range m.removeQueue {
		r := m.rec(e)
		if r != nil && m.archOf(r).mask.contains(&k) && !fn(m.archOf(r), int(r.row)) {
			return
		}
	}
}

// MarkedForRemoval returns the entities marked for removal in ascending order.
func (m *Manager) MarkedForRemoval() []Entity {
	var out []Entity
	m.eachMarked(mask{}, func(a *archetype, row int) bool {
		out = append(out, a.entities[row])
		return true
	})
	return out
}

// EndStep ends a simulation step. The systems runner calls it once per step, after
// PostUpdate (and after anything that reads ChangedState), never from inside a query
// callback. It does, in this order, what Gazebo's runner does at the end of a step:
// clearNewlyCreatedEntities, ProcessRemoveEntityRequests, clearRemovedComponents and
// setAllComponentsUnchanged.
func (m *Manager) EndStep() {
	m.clearNewlyCreatedEntities()
	m.ProcessRemoveEntityRequests()
	m.clearRemovedComponents()
	m.setAllComponentsUnchanged()
}

// clearNewlyCreatedEntities makes the entities created so far no longer new.
func (m *Manager) clearNewlyCreatedEntities() {
	m.stepStart = m.nextID
	clear(m.newOld)
}

// clearRemovedComponents forgets the components removed so far (reported by
// ChangedState).
func (m *Manager) clearRemovedComponents() { m.removedCs = m.removedCs[:0] }

// setAllComponentsUnchanged sets the change state of every component to NoChange.
func (m *Manager) setAllComponentsUnchanged() {
	m.epoch++
	if m.epoch == 1<<30 {
		// The stamps would wrap: reset them all (once per 2^30 steps).
		for _, a := range m.archs {
			for _, st := range a.stamps {
				clear(st)
			}
		}
		m.epoch = 1
	}
	m.oneTime = 0
	clear(m.periodic)
	m.changed = m.changed[:0]
	m.reparent = m.reparent[:0]
}

// ProcessRemoveEntityRequests removes the entities marked for removal. Rows are removed
// in one pass per archetype, keeping the order of the others.
func (m *Manager) ProcessRemoveEntityRequests() {
	if m.removeAll {
		m.removeEverything()
		return
	}
	if len(m.removeQueue) == 0 {
		return
	}
	for _, e := range m.removeQueue {
		r := m.rec(e)
		if r == nil {
			continue
		}
		m.destroy(e, r)
	}
	clear(m.removeQueue)
	m.removeQueue = m.removeQueue[:0]
	if m.iterating == 0 {
		for _, a := range m.holey {
			m.compact(a)
		}
		clear(m.holey)
		m.holey = m.holey[:0]
	}
}

// destroy removes live entity e: its row becomes a hole (compacted by the caller).
func (m *Manager) destroy(e Entity, r *record) {
	a, row := m.archOf(r), int(r.row)
	for i, id := range a.types {
		if s := m.stampState(a.stamps[i][row]); s != NoChange {
			m.noteState(e, id, s, NoChange)
		}
	}
	if r.ai&(flagParent|flagChildren) != 0 {
		m.detach(e, r)
	}
	a.entities[row] = Null
	a.holes++
	if a.holes == 1 {
		m.holey = append(m.holey, a)
	}
	m.index.free(e)
	delete(m.newOld, e)
	m.count--
	m.version++
}

// removeEverything removes all entities.
func (m *Manager) removeEverything() {
	for _, a := range m.archs {
		for _, e := range a.entities {
			if e != Null {
				m.index.free(e)
			}
		}
		if m.iterating > 0 {
			for i, e := range a.entities {
				if e != Null {
					a.entities[i] = Null
					a.holes++
				}
			}
			if a.holes > 0 && !slices.Contains(m.holey, a) {
				m.holey = append(m.holey, a)
			}
			continue
		}
		clear(a.entities)
		a.entities = a.entities[:0]
		for i, c := range a.cols {
			c.clearAll()
			a.stamps[i] = a.stamps[i][:0]
		}
		a.unsorted = false
	}
	m.count = 0
	m.removeAll = false
	clear(m.removeQueue)
	m.removeQueue = m.removeQueue[:0]
	clear(m.children)
	clear(m.newOld)
	m.oneTime = 0
	clear(m.periodic)
	m.version++
}
