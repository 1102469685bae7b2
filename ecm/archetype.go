package ecm

import (
	"slices"

	"github.com/ddsgo/ddsgo/internal/cdr"
)

// mask is a set of component ids.
type mask [MaxComponentTypes / 64]uint64

func (k *mask) set(id ComponentID)      { k[id>>6] |= 1 << (id & 63) }
func (k *mask) clear(id ComponentID)    { k[id>>6] &^= 1 << (id & 63) }
func (k *mask) has(id ComponentID) bool { return k[id>>6]&(1<<(id&63)) != 0 }

// with returns a copy of k plus id; without returns a copy of k minus id.
func (k mask) with(id ComponentID) mask    { k.set(id); return k }
func (k mask) without(id ComponentID) mask { k.clear(id); return k }

// contains reports whether k holds every id of o.
func (k *mask) contains(o *mask) bool {
	for i := range k {
		if k[i]&o[i] != o[i] {
			return false
		}
	}
	return true
}

// column is the type-erased dense storage of one component type in one archetype.
type column interface {
	appendZero()
	appendFrom(src column, row int)
	swapRemove(row int)
	moveSegments(segs []segment, n int)
	permute(perm []int32, visited []bool)
	setOps(other column)
	encode(enc *cdr.Encoder, row int)
	decodeSet(dec *cdr.Decoder, row int) bool
	clearAll()
}

// colOps holds the codec of a component type, shared by its columns.
type colOps[T any] struct {
	enc func(*cdr.Encoder, *T)
	dec func(*cdr.Decoder, *T)
	eq  func(a, b *T) bool
}

// col is the column of component type T: values in rows, parallel to the archetype's
// entity slice.
type col[T any] struct {
	data []T
	ops  *colOps[T]
}

func (c *col[T]) appendZero() {
	var zero T
	c.data = append(c.data, zero)
}

func (c *col[T]) appendFrom(src column, row int) {
	c.data = append(c.data, src.(*col[T]).data[row])
}

func (c *col[T]) swapRemove(row int) {
	last := len(c.data) - 1
	c.data[row] = c.data[last]
	var zero T
	c.data[last] = zero
	c.data = c.data[:last]
}

func (c *col[T]) moveSegments(segs []segment, n int) {
	moveSegments(c.data, segs)
	clear(c.data[n:])
	c.data = c.data[:n]
}

func (c *col[T]) permute(perm []int32, visited []bool) { permuteInPlace(c.data, perm, visited) }

func (c *col[T]) setOps(other column) { c.ops = other.(*col[T]).ops }

func (c *col[T]) encode(enc *cdr.Encoder, row int) { c.ops.enc(enc, &c.data[row]) }

// decodeSet decodes a value and stores it in row; it reports whether the value changed.
func (c *col[T]) decodeSet(dec *cdr.Decoder, row int) bool {
	var v T
	c.ops.dec(dec, &v)
	if dec.Err() != nil || c.ops.eq(&c.data[row], &v) {
		return false
	}
	c.data[row] = v
	return true
}

func (c *col[T]) clearAll() {
	clear(c.data)
	c.data = c.data[:0]
}

// segment moves n rows from src to dst (dst <= src) during compaction.
type segment struct{ dst, src, n int }

func moveSegments[T any](d []T, segs []segment) {
	for _, s := range segs {
		copy(d[s.dst:s.dst+s.n], d[s.src:s.src+s.n])
	}
}

// permuteInPlace reorders d so that the new d[i] is the old d[perm[i]].
func permuteInPlace[T any](d []T, perm []int32, visited []bool) {
	clear(visited)
	for i := range perm {
		if visited[i] || int(perm[i]) == i {
			continue
		}
		tmp := d[i]
		j := i
		for {
			visited[j] = true
			k := int(perm[j])
			if k == i {
				d[j] = tmp
				break
			}
			d[j] = d[k]
			j = k
		}
	}
}

// archetype is the table of all entities that have exactly one set of component types:
// one dense column per type, rows parallel to entities. Rows are kept in ascending
// entity order except when unsorted is set (restored lazily before iteration). While a
// query iterates, removed rows become holes (entity Null) that are compacted afterwards.
type archetype struct {
	idx      uint32 // index in Manager.archs plus one
	mask     mask
	types    []ComponentID // ascending
	cols     []column
	stamps   [][]uint32 // change stamps, parallel to cols
	colIdx   [MaxComponentTypes]uint8
	entities []Entity
	unsorted bool
	holes    int
	edges    *[MaxComponentTypes]edge // archetype transitions, allocated on first use
}

// edge caches the archetypes reached by adding or removing one component type.
type edge struct{ add, remove *archetype }

// has reports whether a has component id.
func (a *archetype) has(id ComponentID) bool { return a.colIdx[id] != 0 }

func (m *Manager) archetypeFor(k mask) *archetype {
	if a, ok := m.archByMask[k]; ok {
		return a
	}
	if len(m.archs) >= int(aiMask) {
		panic("ecm: too many archetypes")
	}
	a := &archetype{mask: k, idx: uint32(len(m.archs) + 1)}
	for id := range ComponentID(len(m.reg.types)) {
		if k.has(id) {
			a.types = append(a.types, id)
			a.cols = append(a.cols, m.reg.types[id].newColumn())
			a.stamps = append(a.stamps, nil)
			a.colIdx[id] = uint8(len(a.cols))
		}
	}
	m.archs = append(m.archs, a)
	m.archByMask[k] = a
	m.mu.Lock()
	for _, v := range m.views {
		if a.mask.contains(&v.mask) {
			v.archs = append(v.archs, a)
		}
	}
	m.mu.Unlock()
	return a
}

// edgeOf returns the cached transitions of a on component id.
func (a *archetype) edgeOf(id ComponentID) *edge {
	if a.edges == nil {
		a.edges = new([MaxComponentTypes]edge)
	}
	return &a.edges[uint8(id)]
}

// withComponent returns the archetype of a plus component id.
func (m *Manager) withComponent(a *archetype, id ComponentID) *archetype {
	ed := a.edgeOf(id)
	if ed.add == nil {
		ed.add = m.archetypeFor(a.mask.with(id))
	}
	return ed.add
}

// withoutComponent returns the archetype of a minus component id.
func (m *Manager) withoutComponent(a *archetype, id ComponentID) *archetype {
	ed := a.edgeOf(id)
	if ed.remove == nil {
		ed.remove = m.archetypeFor(a.mask.without(id))
	}
	return ed.remove
}

// pushEntity appends e as a new row of a (columns are appended by the caller).
func (a *archetype) pushEntity(e Entity) int {
	row := len(a.entities)
	if row > 0 && a.entities[row-1] > e {
		a.unsorted = true
	}
	a.entities = append(a.entities, e)
	return row
}

// moveEntity moves e (at r) to archetype dst, copying the components both share and
// zeroing the others. It returns the new row.
func (m *Manager) moveEntity(e Entity, r *record, dst *archetype, stamp uint32) int {
	src, row := m.archOf(r), int(r.row)
	for i, t := range dst.types {
		if si := src.colIdx[t]; si != 0 {
			dst.cols[i].appendFrom(src.cols[si-1], row)
			dst.stamps[i] = append(dst.stamps[i], src.stamps[si-1][row])
		} else {
			dst.cols[i].appendZero()
			dst.stamps[i] = append(dst.stamps[i], stamp)
		}
	}
	newRow := dst.pushEntity(e)
	m.removeRow(src, row)
	r.ai, r.row = r.ai&^aiMask|dst.idx, uint32(newRow)
	m.version++
	return newRow
}

// removeRow removes a row: a hole while a query iterates, else a swap with the last row.
func (m *Manager) removeRow(a *archetype, row int) {
	if m.iterating > 0 {
		a.entities[row] = Null
		a.holes++
		if a.holes == 1 {
			m.holey = append(m.holey, a)
		}
		return
	}
	last := len(a.entities) - 1
	if row != last {
		moved := a.entities[last]
		a.entities[row] = moved
		m.index.get(moved).row = uint32(row)
		a.unsorted = true
	}
	a.entities = a.entities[:last]
	for i, c := range a.cols {
		c.swapRemove(row)
		st := a.stamps[i]
		st[row] = st[last]
		a.stamps[i] = st[:last]
	}
	m.version++
}

// compact removes the holes of a, keeping the order of the other rows.
func (m *Manager) compact(a *archetype) {
	if a.holes == 0 {
		return
	}
	segs := m.segBuf[:0]
	w := 0
	ents := a.entities
	for r := 0; r < len(ents); {
		if ents[r] == Null {
			r++
			continue
		}
		s := r
		for r < len(ents) && ents[r] != Null {
			r++
		}
		if w != s {
			segs = append(segs, segment{dst: w, src: s, n: r - s})
			for i := s; i < r; i++ {
				m.index.get(ents[i]).row = uint32(w + i - s)
			}
		}
		w += r - s
	}
	moveSegments(ents, segs)
	clear(ents[w:])
	a.entities = ents[:w]
	for i, c := range a.cols {
		c.moveSegments(segs, w)
		moveSegments(a.stamps[i], segs)
		a.stamps[i] = a.stamps[i][:w]
	}
	a.holes = 0
	m.segBuf = segs[:0]
	m.version++
}

// sortRows restores ascending entity order in a.
func (m *Manager) sortRows(a *archetype) {
	if !a.unsorted {
		return
	}
	n := len(a.entities)
	perm := slices.Grow(m.permBuf[:0], n)[:n]
	for i := range perm {
		perm[i] = int32(i)
	}
	ents := a.entities
	slices.SortFunc(perm, func(x, y int32) int {
		if ents[x] < ents[y] {
			return -1
		}
		return 1
	})
	visited := slices.Grow(m.visitBuf[:0], n)[:n]
	permuteInPlace(ents, perm, visited)
	for i, c := range a.cols {
		c.permute(perm, visited)
		permuteInPlace(a.stamps[i], perm, visited)
	}
	for i, e := range ents {
		m.index.get(e).row = uint32(i)
	}
	a.unsorted = false
	m.permBuf, m.visitBuf = perm[:0], visited[:0]
	m.version++
}
