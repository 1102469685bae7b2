package ecm

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/ddsgo/ddsgo/internal/cdr"
)

// Serialized state, format version 1. A state is one CDR payload, little-endian XCDR1
// with its 4-byte encapsulation header (CDR_LE), padded to a multiple of 4 as an RTPS
// serialized payload, so that it can be the payload of a DDS sample as it is:
//
//	state     = magic:uint32 ("ECMS", 0x45434d53) version:uint16 (1) kind:uint8 flags:uint8 (0)
//	            types:sequence<string>         component type names; entries refer to them by index
//	            entities:sequence<entity>      in ascending entity id order
//	entity    = id:uint64 parent:uint64 op:uint8
//	            [op = 0, upsert] components:sequence<component>
//	            [op = 1, remove] nothing
//	component = type:uint16 (index into types) op:uint8
//	            [op = 0, set] size:uint32 data:size bytes
//	            [op = 1, remove] nothing
//
// kind is 0 for a full state (State) and 1 for changes (ChangedState). An upsert creates
// the entity with that id if it does not exist, sets its parent (0: none) and sets or
// removes the listed components; components it does not list are left alone. A remove
// requests the removal of the entity (processed at the end of the receiver's step). A
// component's data is its codec's CDR encoding, aligned like the rest of the stream;
// size lets a receiver skip types it does not know, which it does silently. flags is 0
// in version 1 and ignored by readers; readers reject versions they do not know.

const (
	stateMagic = 0x45434d53
	// stateVersion is the version of the serialized state format written by this package.
	stateVersion = 1

	kindFull    = 0
	kindChanged = 1

	opUpsert = 0
	opRemove = 1

	compSet    = 0
	compRemove = 1
)

// ErrState is wrapped by the errors of SetState about malformed or unsupported state.
var ErrState = errors.New("ecm: bad state")

// stateWriter encodes a state.
type stateWriter struct {
	m     *Manager
	enc   cdr.Encoder
	index [MaxComponentTypes]int32 // component id -> index in the type table, or -1
	types []ComponentID
	count int
	cpos  int // position of the entity count
}

// begin writes the header and the type table of the given types (all serializable
// types if none) and reserves the entity count.
func (w *stateWriter) begin(b []byte, kind uint8, types []ComponentID) {
	m := w.m
	for i := range w.index {
		w.index[i] = -1
	}
	add := func(id ComponentID) {
		if int(id) < len(m.reg.types) && m.reg.types[id].serializable && w.index[id] < 0 {
			w.index[id] = int32(len(w.types))
			w.types = append(w.types, id)
		}
	}
	if len(types) == 0 {
		for id := range ComponentID(len(m.reg.types)) {
			add(id)
		}
	}
	for _, id := range types {
		add(id)
	}
	w.enc.Reset(b, cdr.CDRLE)
	w.enc.Uint32(stateMagic)
	w.enc.Uint16(stateVersion)
	w.enc.Uint8(kind)
	w.enc.Uint8(0)
	w.enc.SeqLen(len(w.types))
	for _, id := range w.types {
		w.enc.String(m.reg.types[id].name)
	}
	w.enc.Align(4)
	w.cpos = len(w.enc.Bytes())
	w.enc.Uint32(0)
}

// entity writes the header of an entity entry.
func (w *stateWriter) entity(e Entity, op uint8) {
	w.count++
	w.enc.Uint64(uint64(e))
	w.enc.Uint64(uint64(w.m.ParentEntity(e)))
	w.enc.Uint8(op)
}

// components writes the component list of an upsert: the components of e among ids
// (all of e's types if ids is nil); with changedOnly, only changed ones, and removals of
// ids e lacks.
func (w *stateWriter) components(e Entity, ids []ComponentID, changedOnly bool) {
	m := w.m
	r := m.rec(e)
	a := m.archOf(r)
	if ids == nil {
		ids = a.types
	}
	w.enc.Align(4)
	pos := len(w.enc.Bytes())
	w.enc.Uint32(0)
	n := 0
	for _, id := range ids {
		ti := w.index[id]
		if ti < 0 {
			continue
		}
		ci := a.colIdx[id]
		if ci == 0 {
			if changedOnly {
				w.enc.Uint16(uint16(ti))
				w.enc.Uint8(compRemove)
				n++
			}
			continue
		}
		if changedOnly && m.stampState(a.stamps[ci-1][r.row]) == NoChange {
			continue
		}
		w.enc.Uint16(uint16(ti))
		w.enc.Uint8(compSet)
		h := w.enc.BeginDHeader()
		a.cols[ci-1].encode(&w.enc, int(r.row))
		w.enc.EndDHeader(h)
		n++
	}
	putCount(w.enc.Bytes(), pos, n)
}

// finish writes the entity count and pads the payload.
func (w *stateWriter) finish() ([]byte, error) {
	putCount(w.enc.Bytes(), w.cpos, w.count)
	b := w.enc.Finish()
	if err := w.enc.Err(); err != nil {
		return b, fmt.Errorf("ecm: encoding state: %w", err)
	}
	return b, nil
}

// putCount stores a little-endian uint32 count at pos.
func putCount(b []byte, pos, n int) {
	b[pos], b[pos+1], b[pos+2], b[pos+3] = byte(n), byte(n>>8), byte(n>>16), byte(n>>24)
}

// State returns the serialized state (see the format above) of the given entities with
// their components of the given types. As in Gazebo's EntityComponentManager::State, an
// empty list (nil or of length 0) means all: no entities means every live entity, no
// types every type. Component types without a codec are left out.
func (m *Manager) State(entities []Entity, types []ComponentID) ([]byte, error) {
	return m.appendState(nil, iter{from: 1, mutable: true}, entities, types)
}

// AppendState appends State(entities, types) to b.
func (m *Manager) AppendState(b []byte, entities []Entity, types []ComponentID) ([]byte, error) {
	return m.appendState(b, iter{from: 1, mutable: true}, entities, types)
}

func (m *Manager) appendState(b []byte, it iter, entities []Entity, types []ComponentID) ([]byte, error) {
	w := &stateWriter{m: m}
	w.begin(b, kindFull, types)
	var sel []ComponentID // nil: all of each entity's types
	if len(types) > 0 {
		sel = w.types
	}
	write := func(e Entity) {
		w.entity(e, opUpsert)
		w.components(e, sel, false)
	}
	if len(entities) == 0 {
		m.runs(m.archs, it, func(a *archetype, lo, hi int) bool {
			for i := lo; i < hi; i++ {
				if e := a.entities[i]; e != Null {
					write(e)
				}
			}
			return true
		})
	} else {
		es := slices.Clone(entities)
		slices.Sort(es)
		es = slices.Compact(es)
		for _, e := range es {
			if m.HasEntity(e) {
				write(e)
			}
		}
	}
	return w.finish()
}

// ChangedState returns the serialized changes of the current step: entities created in
// it (with all their components), entities marked for removal, and for the other
// entities the components created, modified (change state not NoChange) or removed, and
// parent changes. An entity both created and marked for removal in the step is left out.
// Call it before EndStep.
func (m *Manager) ChangedState() ([]byte, error) {
	return m.appendChangedState(nil, iter{from: 1, mutable: true})
}

// AppendChangedState appends ChangedState() to b.
func (m *Manager) AppendChangedState(b []byte) ([]byte, error) {
	return m.appendChangedState(b, iter{from: 1, mutable: true})
}

// change is one entity's entry in a changed state.
type change struct {
	e    Entity
	kind uint8 // 0: new, 1: removed, 2: modified
	ids  []ComponentID
}

// changeScratch is the working memory of appendChangedState, pooled so that publishing
// the changes of every step allocates nothing in steady state; a Reader may be used by
// several goroutines at once, so it cannot live in the Manager.
type changeScratch struct {
	w    stateWriter
	list []change
	refs []compRef
	ids  []ComponentID
}

var changeScratchPool = sync.Pool{New: func() any { return new(changeScratch) }}

func (m *Manager) appendChangedState(b []byte, it iter) ([]byte, error) {
	s := changeScratchPool.Get().(*changeScratch)
	defer func() {
		s.w.enc.ResetBody(nil, false, false) // keep no reference to the caller's buffer
		s.w.m = nil
		changeScratchPool.Put(s)
	}()
	w := &s.w
	w.m, w.types, w.count = m, w.types[:0], 0
	w.begin(b, kindChanged, nil)
	list := s.list[:0]
	defer func() { s.list = list[:0] }()
	// New entities.
	it.newOnly = true
	m.runs(m.archs, it, func(a *archetype, lo, hi int) bool {
		for i := lo; i < hi; i++ {
			if e := a.entities[i]; e != Null && m.isNew(e) && !m.IsMarkedForRemoval(e) {
				list = append(list, change{e: e})
			}
		}
		return true
	})
	// Removed entities.
	m.eachMarked(mask{}, func(a *archetype, row int) bool {
		if e := a.entities[row]; !m.isNew(e) {
			list = append(list, change{e: e, kind: 1})
		}
		return true
	})
	// Modified entities.
	refs := append(s.refs[:0], m.changed...)
	defer func() { s.refs = refs[:0] }()
	refs = append(refs, m.removedCs...)
	for _, e := range m.reparent {
		refs = append(refs, compRef{e: e, id: noComponent})
	}
	slices.SortFunc(refs, func(x, y compRef) int {
		if x.e != y.e {
			if x.e < y.e {
				return -1
			}
			return 1
		}
		return int(x.id) - int(y.id)
	})
	refs = slices.Compact(refs)
	all := s.ids[:0]
	defer func() { s.ids = all[:0] }()
	for i := 0; i < len(refs); {
		e := refs[i].e
		start := len(all)
		for ; i < len(refs) && refs[i].e == e; i++ {
			if refs[i].id != noComponent {
				all = append(all, refs[i].id)
			}
		}
		ids := all[start:len(all):len(all)]
		if m.HasEntity(e) && !m.isNew(e) && !m.IsMarkedForRemoval(e) {
			list = append(list, change{e: e, kind: 2, ids: ids})
		}
	}
	slices.SortFunc(list, func(x, y change) int {
		if x.e < y.e {
			return -1
		}
		return 1
	})
	for _, c := range list {
		switch c.kind {
		case 0:
			w.entity(c.e, opUpsert)
			w.components(c.e, nil, false)
		case 1:
			w.entity(c.e, opRemove)
		default:
			w.entity(c.e, opUpsert)
			w.components(c.e, c.ids, true)
		}
	}
	return w.finish()
}

// noComponent marks a parent change in a list of component references.
const noComponent = ComponentID(MaxComponentTypes)

// stateReader decodes a state, either to validate it (apply false) or to apply it.
type stateReader struct {
	m       *Manager
	dec     cdr.Decoder
	ids     []int32 // type table index -> local component id, -1 for unknown
	parents []compParent
}

type compParent struct{ child, parent Entity }

func stateErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrState}, args...)...)
}

// SetState applies a serialized state (from State or ChangedState, of this or another
// Manager): it creates entities that do not exist with the ids of the state, sets
// parents, creates, updates and removes components, and requests the removal of removed
// entities (processed by the next EndStep). Component types are matched by name;
// unknown ones are skipped. Created components and changed values are one-time changes.
// The state is validated completely before anything is changed: a malformed state
// returns an error wrapping ErrState and leaves m as it was.
func (m *Manager) SetState(b []byte) error {
	r := stateReader{m: m}
	if err := r.run(b, false); err != nil {
		return err
	}
	return r.run(b, true)
}

// run reads the state b: it validates it, and with apply it applies it too.
func (r *stateReader) run(b []byte, apply bool) error {
	d := &r.dec
	if err := r.header(b); err != nil {
		return err
	}
	r.readTypes()
	ne := d.SeqLen(17)
	for range ne {
		if err := r.entity(apply); err != nil {
			return err
		}
		if d.Err() != nil {
			break
		}
	}
	if err := d.Err(); err != nil {
		return stateErr("%w", err)
	}
	if d.Remaining() != 0 {
		return stateErr("%d bytes after the end", d.Remaining())
	}
	if apply {
		r.applyParents()
	}
	return nil
}

// header starts the decoder on b and checks its encapsulation, magic,
// version and kind.
func (r *stateReader) header(b []byte) error {
	d := &r.dec
	if err := d.Reset(b); err != nil {
		return stateErr("%w", err)
	}
	if d.Encapsulation() != cdr.CDRLE && d.Encapsulation() != cdr.CDRBE {
		return stateErr("encapsulation %v", d.Encapsulation())
	}
	if magic := d.Uint32(); magic != stateMagic && d.Err() == nil {
		return stateErr("not an ECM state")
	}
	if v := d.Uint16(); v != stateVersion && d.Err() == nil {
		return stateErr("unsupported version %d", v)
	}
	if kind := d.Uint8(); kind > kindChanged && d.Err() == nil {
		return stateErr("unknown kind %d", kind)
	}
	d.Uint8()
	return nil
}

// readTypes reads the type table: the local component id of each type
// name, -1 for those unknown here or not serializable.
func (r *stateReader) readTypes() {
	d := &r.dec
	nt := d.SeqLen(5)
	r.ids = r.ids[:0]
	for range nt {
		name := d.StringBytes()
		id, ok := r.m.reg.byName[string(name)]
		if !ok || !r.m.reg.types[id].serializable {
			r.ids = append(r.ids, -1)
			continue
		}
		r.ids = append(r.ids, int32(id))
	}
}

// entity reads one entity of the state: its removal, or its parent and
// components. It returns nil, reading no further, when the decoder fails.
func (r *stateReader) entity(apply bool) error {
	m, d := r.m, &r.dec
	e := Entity(d.Uint64())
	parent := Entity(d.Uint64())
	op := d.Uint8()
	if d.Err() != nil {
		return nil
	}
	if e == Null || e == ^Entity(0) {
		return stateErr("entity id %d", e)
	}
	switch op {
	case opRemove:
		if apply {
			m.RequestRemoveEntity(e, false)
		}
		return nil
	case opUpsert:
	default:
		return stateErr("entity %d: op %d", e, op)
	}
	if apply {
		if !m.HasEntity(e) {
			m.createWithID(e)
		}
		r.parents = append(r.parents, compParent{e, parent})
	}
	nc := d.SeqLen(3)
	for range nc {
		if err := r.component(e, apply); err != nil {
			return err
		}
		if d.Err() != nil {
			break
		}
	}
	return nil
}

// component reads one component of entity e: its removal or its value,
// which it checks, or with apply sets. Components of unknown types are
// skipped. It returns nil, reading no further, when the decoder fails.
func (r *stateReader) component(e Entity, apply bool) error {
	d := &r.dec
	ti := d.Uint16()
	cop := d.Uint8()
	if d.Err() != nil {
		return nil
	}
	if int(ti) >= len(r.ids) {
		return stateErr("entity %d: type index %d", e, ti)
	}
	id := r.ids[ti]
	switch cop {
	case compRemove:
		if apply && id >= 0 {
			r.m.RemoveComponent(e, ComponentID(id))
		}
		return nil
	case compSet:
	default:
		return stateErr("entity %d: component op %d", e, cop)
	}
	end := d.DHeader()
	if id >= 0 {
		if apply {
			r.setComponent(e, ComponentID(id))
		} else {
			r.m.reg.types[id].check(d)
		}
	}
	d.SkipTo(end)
	return nil
}

// applyParents sets the parents the state gives its entities.
func (r *stateReader) applyParents() {
	for _, p := range r.parents {
		if r.m.ParentEntity(p.child) != p.parent {
			r.m.SetParentEntity(p.child, p.parent)
		}
	}
}

// setComponent decodes component id of e from the decoder, creating it if needed.
func (r *stateReader) setComponent(e Entity, id ComponentID) {
	m := r.m
	rec := m.rec(e)
	if ci := m.archOf(rec).colIdx[id]; ci != 0 {
		if m.archOf(rec).cols[ci-1].decodeSet(&r.dec, int(rec.row)) {
			m.SetChanged(e, id, OneTimeChange)
		}
		return
	}
	row, ci := m.addComponent(e, rec, id)
	m.archOf(rec).cols[ci].decodeSet(&r.dec, row)
}

// createWithID creates entity e (not live) for SetState.
func (m *Manager) createWithID(e Entity) {
	m.insert(e, m.empty)
	if e >= m.nextID {
		m.nextID = e + 1
	}
	if e < m.stepStart {
		if m.newOld == nil {
			m.newOld = make(map[Entity]struct{})
		}
		m.newOld[e] = struct{}{}
	}
}
