package ecm

import (
	"fmt"
	"sync"
)

// Entity identifies an entity of a Manager. Ids increase and are never reused; Null is
// never a valid entity.
type Entity uint64

// Null is the null entity: no entity has this id.
const Null Entity = 0

// record locates a live entity: its archetype's index plus one (0 for an id that is not
// a live entity) in the low 24 bits of ai, flags in the high bits, its row, and its
// parent (kept here rather than in a map: the state and /tf read every entity's parent
// each step). Records hold no pointers, so the garbage collector does not scan the
// entity index.
type record struct {
	ai     uint32
	row    uint32
	parent Entity // Null without flagParent
}

const (
	aiMask       uint32 = 1<<24 - 1
	flagMarked   uint32 = 1 << 24 // marked for removal
	flagParent   uint32 = 1 << 25 // has a parent
	flagChildren uint32 = 1 << 26 // has children
)

// archOf returns the archetype of live record r.
func (m *Manager) archOf(r *record) *archetype { return m.archs[r.ai&aiMask-1] }

// entityIndex maps entity ids to records: a dense slice for ids near the ones created so
// far, a map for far-away ids (from SetEntityCreateOffset or SetState), so that memory is
// bounded by the number of entities.
type entityIndex struct {
	dense  []record
	sparse map[Entity]*record
}

// get returns the record of e, or nil if e has none.
func (x *entityIndex) get(e Entity) *record {
	if uint64(e) < uint64(len(x.dense)) {
		return &x.dense[e]
	}
	if x.sparse == nil {
		return nil
	}
	return x.sparse[e]
}

// alloc returns a zeroed record for e (not present before); live is the number of live
// entities, which bounds the size of the dense slice.
func (x *entityIndex) alloc(e Entity, live int) *record {
	if uint64(e) < uint64(len(x.dense)) {
		return &x.dense[e]
	}
	if limit := 2*uint64(live) + 1024; uint64(e) < limit {
		n := int(min(max(uint64(e)+1, 2*uint64(len(x.dense))), limit))
		if n <= cap(x.dense) {
			x.dense = x.dense[:n]
		} else {
			d := make([]record, n, n+n/4)
			copy(d, x.dense)
			x.dense = d
		}
		for id, r := range x.sparse {
			if uint64(id) < uint64(n) {
				x.dense[id] = *r
				delete(x.sparse, id)
			}
		}
		return &x.dense[e]
	}
	if x.sparse == nil {
		x.sparse = make(map[Entity]*record)
	}
	r := &record{}
	x.sparse[e] = r
	return r
}

// free forgets e.
func (x *entityIndex) free(e Entity) {
	if uint64(e) < uint64(len(x.dense)) {
		x.dense[e] = record{}
		return
	}
	delete(x.sparse, e)
}

// Manager is an entity-component manager: it owns entities, their typed components, the
// parent graph, cached views, change states and removal requests. It is not safe for
// concurrent use, except that several goroutines may use Readers of one Manager at the
// same time while nothing else uses the Manager.
type Manager struct {
	reg     registry
	nextID  Entity
	count   int
	index   entityIndex
	empty   *archetype
	archs   []*archetype
	created mask // component types ever created

	archByMask map[mask]*archetype
	lastSpawn  *archetype // archetype of the last Create1/2/3
	mu         sync.Mutex // guards views (read-only queries may run in parallel)
	views      map[mask]*view

	iterating int          // depth of running mutable iterations
	version   uint64       // incremented by each structural change
	holey     []*archetype // archetypes with holes, compacted when iteration ends
	segBuf    []segment
	permBuf   []int32
	visitBuf  []bool

	// Steps and removal.
	stepStart   Entity              // entities with ids >= stepStart were created this step
	newOld      map[Entity]struct{} // entities created this step with ids < stepStart
	removeAll   bool
	removeQueue []Entity
	queueSorted bool

	// Change tracking: a component's stamp is epoch<<2|state; states of older epochs
	// read as NoChange, so ending a step clears them all at once.
	epoch     uint32
	oneTime   int
	periodic  []int32 // per type: components with PeriodicChange this step
	changed   []compRef
	removedCs []compRef
	reparent  []Entity // entities (not new) whose parent changed this step

	// Parent graph.
	children map[Entity][]Entity
}

// compRef names one component of one entity.
type compRef struct {
	e  Entity
	id ComponentID
}

// New returns an empty Manager. The first entity created gets id 1.
func New() *Manager {
	m := &Manager{
		reg:        registry{byKey: make(map[uintptr]ComponentID), byName: make(map[string]ComponentID)},
		nextID:     1,
		stepStart:  1,
		epoch:      1,
		archByMask: make(map[mask]*archetype),
		views:      make(map[mask]*view),
		children:   make(map[Entity][]Entity),
	}
	m.empty = m.archetypeFor(mask{})
	return m
}

// newID returns the next entity id.
func (m *Manager) newID() Entity {
	e := m.nextID
	for m.rec(e) != nil {
		e++
	}
	m.nextID = e + 1
	return e
}

// insert makes e a live entity in archetype a (columns appended by the caller) and
// returns its record.
func (m *Manager) insert(e Entity, a *archetype) *record {
	r := m.index.alloc(e, m.count)
	r.ai = a.idx
	r.row = uint32(a.pushEntity(e))
	m.count++
	m.version++
	return r
}

// CreateEntity creates an entity without components and returns it.
func (m *Manager) CreateEntity() Entity {
	e := m.newID()
	m.insert(e, m.empty)
	return e
}

// HasEntity reports whether e is a live entity (including one marked for removal).
func (m *Manager) HasEntity(e Entity) bool {
	r := m.index.get(e)
	return r != nil && r.ai&aiMask != 0
}

// EntityCount returns the number of live entities.
func (m *Manager) EntityCount() int { return m.count }

// SetEntityCreateOffset makes entities created from now on get ids from offset on, so
// that they do not collide with ids created elsewhere (and later applied with SetState).
// Ids never decrease, so that they are never reused: an offset below the next id is
// refused with an error that names both, and changes nothing. (Gazebo warns and
// applies it anyway, "incorrect behavior should be expected".)
func (m *Manager) SetEntityCreateOffset(offset uint64) error {
	if Entity(offset) < m.nextID {
		return fmt.Errorf("ecm: entity create offset %d is below the next entity id %d: ids never decrease", offset, m.nextID)
	}
	m.nextID = Entity(offset)
	return nil
}

// locate returns the archetype and row of live entity e. It is small enough to inline
// into typed accessors; far ids take the slow path.
func (m *Manager) locate(e Entity) (*archetype, uint32, bool) {
	if d := m.index.dense; uint64(e) < uint64(len(d)) {
		if r := d[e]; r.ai&aiMask != 0 {
			return m.archs[r.ai&aiMask-1], r.row, true
		}
	}
	return m.locateSlow(e)
}

func (m *Manager) locateSlow(e Entity) (*archetype, uint32, bool) {
	r := m.rec(e)
	if r == nil {
		return nil, 0, false
	}
	return m.archOf(r), r.row, true
}

// rec returns the record of live entity e, or nil.
func (m *Manager) rec(e Entity) *record {
	r := m.index.get(e)
	if r == nil || r.ai&aiMask == 0 {
		return nil
	}
	return r
}
