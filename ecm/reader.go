package ecm

// Source is what read-only functions (ComponentData, EachRO1, EachRemoved1...) read
// from: a *Manager or a Reader. Only this package implements it.
type Source interface {
	// source returns the manager and whether the source is a Reader.
	source() (*Manager, bool)
}

func (m *Manager) source() (*Manager, bool) { return m, false }

// Reader is a read-only view of a Manager: it has no method that changes the Manager,
// and the generic functions that accept it (those taking a Source) only read, so code
// given a Reader cannot write at compile time. Several goroutines may use Readers of
// one Manager at once while nothing else uses the Manager (the systems runner's parallel
// PostUpdate). Callbacks of iterations over a Reader must not change the Manager.
type Reader struct{ m *Manager }

func (r Reader) source() (*Manager, bool) { return r.m, true }

// Reader returns a read-only view of m. It first restores the row order of archetypes
// changed since the last query, so that parallel readers never need to write.
func (m *Manager) Reader() Reader {
	if m.iterating == 0 {
		for _, a := range m.archs {
			m.sortRows(a)
		}
	}
	m.sortQueue()
	return Reader{m}
}

// HasEntity is Manager.HasEntity.
func (r Reader) HasEntity(e Entity) bool { return r.m.HasEntity(e) }

// EntityCount is Manager.EntityCount.
func (r Reader) EntityCount() int { return r.m.EntityCount() }

// ParentEntity is Manager.ParentEntity.
func (r Reader) ParentEntity(e Entity) Entity { return r.m.ParentEntity(e) }

// Children is Manager.Children.
func (r Reader) Children(e Entity) []Entity { return r.m.Children(e) }

// Descendants is Manager.Descendants.
func (r Reader) Descendants(e Entity) []Entity { return r.m.Descendants(e) }

// ComponentTypes is Manager.ComponentTypes.
func (r Reader) ComponentTypes(e Entity) []ComponentID { return r.m.ComponentTypes(e) }

// EntityHasComponentType is Manager.EntityHasComponentType.
func (r Reader) EntityHasComponentType(e Entity, id ComponentID) bool {
	return r.m.EntityHasComponentType(e, id)
}

// EntityMatches is Manager.EntityMatches.
func (r Reader) EntityMatches(e Entity, types ...ComponentID) bool {
	return r.m.EntityMatches(e, types...)
}

// HasComponentType is Manager.HasComponentType.
func (r Reader) HasComponentType(id ComponentID) bool { return r.m.HasComponentType(id) }

// ComponentName is Manager.ComponentName.
func (r Reader) ComponentName(id ComponentID) string { return r.m.ComponentName(id) }

// ComponentIDByName is Manager.ComponentIDByName.
func (r Reader) ComponentIDByName(name string) (ComponentID, bool) {
	return r.m.ComponentIDByName(name)
}

// ComponentState is Manager.ComponentState.
func (r Reader) ComponentState(e Entity, id ComponentID) ComponentState {
	return r.m.ComponentState(e, id)
}

// HasOneTimeComponentChanges is Manager.HasOneTimeComponentChanges.
func (r Reader) HasOneTimeComponentChanges() bool { return r.m.HasOneTimeComponentChanges() }

// ComponentTypesWithPeriodicChanges is Manager.ComponentTypesWithPeriodicChanges.
func (r Reader) ComponentTypesWithPeriodicChanges() []ComponentID {
	return r.m.ComponentTypesWithPeriodicChanges()
}

// HasNewEntities is Manager.HasNewEntities.
func (r Reader) HasNewEntities() bool { return r.m.HasNewEntities() }

// IsNewEntity is Manager.IsNewEntity.
func (r Reader) IsNewEntity(e Entity) bool { return r.m.IsNewEntity(e) }

// HasEntitiesMarkedForRemoval is Manager.HasEntitiesMarkedForRemoval.
func (r Reader) HasEntitiesMarkedForRemoval() bool { return r.m.HasEntitiesMarkedForRemoval() }

// IsMarkedForRemoval is Manager.IsMarkedForRemoval.
func (r Reader) IsMarkedForRemoval(e Entity) bool { return r.m.IsMarkedForRemoval(e) }

// MarkedForRemoval is Manager.MarkedForRemoval.
func (r Reader) MarkedForRemoval() []Entity { return r.m.MarkedForRemoval() }

// EntitiesByComponents is Manager.EntitiesByComponents.
func (r Reader) EntitiesByComponents(values ...Matcher) []Entity {
	return r.m.entitiesBy(iter{from: 1}, 0, values)
}

// EntityByComponents is Manager.EntityByComponents.
func (r Reader) EntityByComponents(values ...Matcher) Entity {
	if out := r.m.entitiesBy(iter{from: 1}, 1, values); len(out) > 0 {
		return out[0]
	}
	return Null
}

// ChildrenByComponents is Manager.ChildrenByComponents.
func (r Reader) ChildrenByComponents(parent Entity, values ...Matcher) []Entity {
	return r.m.ChildrenByComponents(parent, values...)
}

// State is Manager.State.
func (r Reader) State(entities []Entity, types []ComponentID) ([]byte, error) {
	return r.m.appendState(nil, iter{from: 1}, entities, types)
}

// ChangedState is Manager.ChangedState.
func (r Reader) ChangedState() ([]byte, error) { return r.m.appendChangedState(nil, iter{from: 1}) }

// AppendChangedState is Manager.AppendChangedState.
func (r Reader) AppendChangedState(b []byte) ([]byte, error) {
	return r.m.appendChangedState(b, iter{from: 1})
}
