package ecm

// errStructural is the panic value of a query whose loop made a structural change.
const errStructural = "ecm: structural change (entity or component created or removed) during a Query loop; use Each for such loops"

// queryBase is the part of a query that does not depend on component types.
type queryBase struct {
	m      *Manager
	archs  []*archetype
	c      cursor
	opened bool
	ver    uint64
}

// advance moves to the next run and returns its archetype (the rows are
// q.c.lo to q.c.hi); it returns nil at the end.
func (q *queryBase) advance() *archetype {
	if q.m == nil {
		return nil
	}
	if !q.opened {
		q.c.noHoles = true
		q.m.open(&q.c, q.archs, iter{from: 1, mutable: true}, false)
		q.opened = true
	} else if q.m.version != q.ver {
		panic(errStructural)
	}
	if !q.c.next() {
		q.m = nil
		return nil
	}
	q.ver = q.m.version
	return q.c.a
}

// Query1 iterates, in a for loop, the entities that have component A, in ascending
// entity order, as fast as the data can be read:
//
//	q := ecm.NewQuery1[Pose](m)
//	for q.Next() {
//		p := q.Get()
//		...
//	}
//
// The loop body must not create or remove entities or components (Next panics when it
// notices, at the latest at the end of the archetype); use Each1 for such loops.
// Breaking out of the loop early needs no clean-up.
type Query1[A any] struct {
	i, n int // current row and end of the run; a fresh query has i = n = 0
	queryBase
	ia   ComponentID
	ents []Entity
	da   []A
}

// NewQuery1 returns a query over the entities that have component A.
func NewQuery1[A any](m *Manager) Query1[A] {
	ia, ok := lookup[A](m)
	if !ok {
		return Query1[A]{}
	}
	return Query1[A]{queryBase: queryBase{m: m, archs: m.viewFor(mask1(ia))}, ia: ia}
}

// Next moves to the next entity and reports whether there is one.
func (q *Query1[A]) Next() bool {
	q.i++
	return q.i < q.n || q.nextRun()
}

// nextRun is kept out of line so that Next inlines.
//
//go:noinline
func (q *Query1[A]) nextRun() bool {
	a := q.advance()
	if a == nil {
		return false
	}
	q.i, q.n, q.ents = q.c.lo, q.c.hi, a.entities
	q.da = colOf[A](a, int(a.colIdx[q.ia])-1).data
	return true
}

// Entity returns the current entity.
func (q *Query1[A]) Entity() Entity { return q.ents[q.i] }

// Get returns a pointer to the current entity's component, valid until the next
// structural change.
func (q *Query1[A]) Get() *A { return &q.da[q.i] }

// Query2 is Query1 for entities that have components A and B.
type Query2[A, B any] struct {
	i, n int // current row and end of the run; a fresh query has i = n = 0
	queryBase
	ia, ib ComponentID
	ents   []Entity
	da     []A
	db     []B
}

// NewQuery2 returns a query over the entities that have components A and B.
func NewQuery2[A, B any](m *Manager) Query2[A, B] {
	ia, ib, ok := lookup2[A, B](m)
	if !ok {
		return Query2[A, B]{}
	}
	return Query2[A, B]{queryBase: queryBase{m: m, archs: m.viewFor(mask2(ia, ib))}, ia: ia, ib: ib}
}

// Next moves to the next entity and reports whether there is one.
func (q *Query2[A, B]) Next() bool {
	q.i++
	return q.i < q.n || q.nextRun()
}

// nextRun is kept out of line so that Next inlines.
//
//go:noinline
func (q *Query2[A, B]) nextRun() bool {
	a := q.advance()
	if a == nil {
		return false
	}
	q.i, q.n, q.ents = q.c.lo, q.c.hi, a.entities
	q.da = colOf[A](a, int(a.colIdx[q.ia])-1).data
	q.db = colOf[B](a, int(a.colIdx[q.ib])-1).data
	return true
}

// Entity returns the current entity.
func (q *Query2[A, B]) Entity() Entity { return q.ents[q.i] }

// Get returns pointers to the current entity's components, valid until the next
// structural change.
func (q *Query2[A, B]) Get() (*A, *B) { return &q.da[q.i], &q.db[q.i] }
