package ecm

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestEachVariants(t *testing.T) {
	m := newTest()
	e1 := Create3(m, Pos{X: 1}, Vel{X: 10}, Name{"a"})
	e2 := Create2(m, Pos{X: 2}, Vel{X: 20})
	CreateComponent(m, e2, Tag{N: 2})
	CreateComponent(m, e1, Tag{N: 1})
	e3 := Create1(m, Pos{X: 3})

	var got []Entity
	Each2(m, func(e Entity, p *Pos, v *Vel) bool {
		p.X += v.X
		got = append(got, e)
		return true
	})
	require.Equal(t, []Entity{e1, e2}, got)
	got = nil
	Each3(m, func(e Entity, _ *Pos, _ *Vel, tg *Tag) bool {
		got = append(got, e)
		return true
	})
	require.Equal(t, []Entity{e1, e2}, got)
	got = nil
	Each4(m, func(e Entity, _ *Pos, _ *Vel, _ *Tag, n *Name) bool {
		got = append(got, e)
		return true
	})
	require.Equal(t, []Entity{e1}, got)

	r := m.Reader()
	var xs []float64
	EachRO1(r, func(_ Entity, p Pos) bool { xs = append(xs, p.X); return true })
	require.Equal(t, []float64{11, 22, 3}, xs)
	xs = nil
	EachRO2(r, func(_ Entity, p Pos, v Vel) bool { xs = append(xs, p.X+v.X); return true })
	require.Equal(t, []float64{21, 42}, xs)
	n := 0
	EachRO3(r, func(Entity, Pos, Vel, Tag) bool { n++; return true })
	require.Equal(t, 2, n)
	n = 0
	EachRO4(r, func(Entity, Pos, Vel, Tag, Name) bool { n++; return true })
	require.Equal(t, 1, n)

	got = nil
	EachEntity(m, []ComponentID{ID[Pos](m)}, func(e Entity) bool { got = append(got, e); return true })
	require.Equal(t, []Entity{e1, e2, e3}, got)
	got = nil
	EachEntity(r, nil, func(e Entity) bool { got = append(got, e); return true })
	require.Equal(t, []Entity{e1, e2, e3}, got)
	EachEntity(m, []ComponentID{200}, func(Entity) bool { t.Fatal("unknown type"); return true })

	// Unregistered types iterate nothing.
	Each2(m, func(Entity, *Pos, *Opaque) bool { t.Fatal("no Opaque"); return true })
	EachRO1(m, func(Entity, Opaque) bool { t.Fatal("no Opaque"); return true })
}

func TestEachStructuralChanges(t *testing.T) {
	m := newTest()
	var es []Entity
	for i := range 20 {
		es = append(es, Create2(m, Pos{X: float64(i)}, Vel{X: 1}))
	}
	var visited []Entity
	Each2(m, func(e Entity, p *Pos, v *Vel) bool {
		visited = append(visited, e)
		// Moves e to another archetype, then writes: the write must stick.
		CreateComponent(m, e, Tag{N: int32(e)})
		p2, _ := Get[Pos](m, e)
		p2.X += 100
		// Removes a later entity's Vel: it leaves the query and must not be visited.
		if e == es[3] {
			RemoveComponent[Vel](m, es[10])
		}
		// New entities join the query but are not visited now.
		if e == es[0] {
			Create2(m, Pos{}, Vel{})
		}
		// Writes through the old pointer of a moved row are lost; the callback got a
		// pointer valid until the change, which is the documented contract.
		_ = p
		_ = v
		return true
	})
	want := append(append([]Entity{}, es[:10]...), es[11:]...)
	require.Equal(t, want, visited)
	for i, e := range es {
		p, _ := ComponentData[Pos](m, e)
		want := float64(i)
		if e != es[10] {
			want += 100
		}
		require.Equal(t, want, p.X, "entity %d", e)
		tg, ok := ComponentData[Tag](m, e)
		require.Equal(t, e != es[10], ok)
		if ok {
			require.Equal(t, int32(e), tg.N)
		}
	}
	require.Len(t, collect1[Vel](m), 20, "19 old + 1 new")
	require.Equal(t, 21, len(collect1[Pos](m)))

	// Removal of entities inside a callback (processed immediately by EndStep inside).
	Each1(m, func(e Entity, _ *Pos) bool {
		if e == es[5] {
			m.RequestRemoveEntity(es[6], false)
			m.ProcessRemoveEntityRequests()
		}
		return true
	})
	require.False(t, m.HasEntity(es[6]))
	require.Len(t, collect1[Pos](m), 20)
	// Order kept after compaction.
	got := collect1[Pos](m)
	require.IsIncreasing(t, got)
}

func TestNestedIterationUnsorted(t *testing.T) {
	m := newTest()
	var es []Entity
	for range 10 {
		es = append(es, Create1(m, Pos{}))
	}
	// Inside an outer iteration, moving rows leaves archetypes unsorted; the inner
	// iteration must still be in ascending order.
	first := true
	Each1(m, func(e Entity, _ *Tag) bool { return true })
	Each1(m, func(e Entity, _ *Pos) bool {
		if first {
			first = false
			CreateComponent(m, es[9], Tag{})
			CreateComponent(m, es[2], Tag{})
			RemoveComponent[Tag](m, es[9])
			var inner []Entity
			Each1(m, func(e Entity, _ *Pos) bool { inner = append(inner, e); return true })
			require.Equal(t, es, inner)
			inner = nil
			EachRO1(m, func(e Entity, _ Pos) bool { inner = append(inner, e); return true })
			require.Equal(t, es, inner)
		}
		return true
	})
	require.Equal(t, es, collect1[Pos](m))
}

func TestQuery(t *testing.T) {
	m := newTest()
	var es []Entity
	for i := range 30 {
		if i%2 == 0 {
			es = append(es, Create2(m, Pos{X: float64(i)}, Vel{X: 1}))
		} else {
			es = append(es, Create3(m, Pos{X: float64(i)}, Vel{X: 1}, Tag{}))
		}
	}
	q := NewQuery2[Pos, Vel](m)
	var got []Entity
	for q.Next() {
		p, v := q.Get()
		p.X += v.X
		got = append(got, q.Entity())
	}
	require.Equal(t, es, got)
	require.False(t, q.Next())

	q1 := NewQuery1[Tag](m)
	n := 0
	for q1.Next() {
		_ = q1.Get()
		require.Equal(t, es[2*n+1], q1.Entity())
		n++
	}
	require.Equal(t, 15, n)

	empty := NewQuery2[Pos, Opaque](m)
	require.False(t, empty.Next())
	e1 := NewQuery1[Opaque](m)
	require.False(t, e1.Next())

	require.Panics(t, func() {
		q := NewQuery1[Pos](m)
		for q.Next() {
			CreateComponent(m, q.Entity(), Name{})
		}
	})
}

func TestEachNewAndRemoved(t *testing.T) {
	m := newTest()
	old := Create2(m, Pos{X: 1}, Vel{})
	m.EndStep()
	require.False(t, m.HasNewEntities())
	n1 := Create2(m, Pos{X: 2}, Vel{})
	n2 := Create1(m, Pos{X: 3})
	require.True(t, m.HasNewEntities())
	require.True(t, m.IsNewEntity(n1))
	require.False(t, m.IsNewEntity(old))

	var got []Entity
	EachNew1(m, func(e Entity, _ *Pos) bool { got = append(got, e); return true })
	require.Equal(t, []Entity{n1, n2}, got)
	got = nil
	EachNew2(m, func(e Entity, _ *Pos, _ *Vel) bool { got = append(got, e); return true })
	require.Equal(t, []Entity{n1}, got)
	got = nil
	EachNewRO1(m.Reader(), func(e Entity, _ Pos) bool { got = append(got, e); return true })
	require.Equal(t, []Entity{n1, n2}, got)
	got = nil
	EachNewRO2(m.Reader(), func(e Entity, _ Pos, _ Vel) bool { got = append(got, e); return true })
	require.Equal(t, []Entity{n1}, got)

	require.False(t, m.HasEntitiesMarkedForRemoval())
	m.RequestRemoveEntity(n2, false)
	m.RequestRemoveEntity(old, false)
	require.True(t, m.HasEntitiesMarkedForRemoval())
	got = nil
	EachRemoved1(m, func(e Entity, _ Pos) bool { got = append(got, e); return true })
	require.Equal(t, []Entity{old, n2}, got)
	got = nil
	EachRemoved2(m.Reader(), func(e Entity, _ Pos, _ Vel) bool { got = append(got, e); return true })
	require.Equal(t, []Entity{old}, got)
	require.Equal(t, []Entity{old, n2}, m.MarkedForRemoval())

	m.EndStep()
	require.False(t, m.HasNewEntities())
	require.False(t, m.HasEntitiesMarkedForRemoval())
	require.Equal(t, []Entity{n1}, collect1[Pos](m))

	m.RequestRemoveEntities()
	require.True(t, m.IsMarkedForRemoval(n1))
	got = nil
	EachRemoved1(m, func(e Entity, _ Pos) bool { got = append(got, e); return true })
	require.Equal(t, []Entity{n1}, got)
	m.EndStep()
	requireEmptyThenUsable(t, m)
}

func TestChangeTracking(t *testing.T) {
	m := newTest()
	pos, vel := ID[Pos](m), ID[Vel](m)
	e := Create1(m, Pos{})
	require.Equal(t, OneTimeChange, m.ComponentState(e, pos), "creation is a one-time change")
	require.True(t, m.HasOneTimeComponentChanges())
	m.EndStep()
	require.Equal(t, NoChange, m.ComponentState(e, pos))
	require.False(t, m.HasOneTimeComponentChanges())

	CreateComponent(m, e, Vel{})
	m.SetChanged(e, pos, PeriodicChange)
	require.Equal(t, PeriodicChange, m.ComponentState(e, pos))
	require.Equal(t, []ComponentID{pos}, m.ComponentTypesWithPeriodicChanges())
	require.True(t, m.HasOneTimeComponentChanges())
	m.SetChanged(e, vel, NoChange)
	require.False(t, m.HasOneTimeComponentChanges())
	m.SetChanged(e, pos, OneTimeChange)
	require.Empty(t, m.ComponentTypesWithPeriodicChanges())
	require.True(t, m.HasOneTimeComponentChanges())
	require.True(t, m.SetChanged(e, pos, OneTimeChange))
	require.False(t, m.SetChanged(e, ID[Name](m), OneTimeChange), "absent component: reported, ignored")
	require.False(t, m.SetChanged(999, pos, OneTimeChange), "no such entity: reported, ignored")
	require.False(t, m.SetChanged(e, pos, ComponentState(9)), "not a state: reported, ignored")
	require.False(t, m.SetChanged(e, MaxComponentTypes, OneTimeChange), "bad id: reported, ignored")
	require.Equal(t, OneTimeChange, m.ComponentState(e, pos))
	require.Equal(t, NoChange, m.ComponentState(e, ID[Name](m)))
	require.Equal(t, NoChange, m.ComponentState(999, pos))
	m.EndStep()

	require.False(t, SetComponentData(m, e, Pos{}))
	require.Equal(t, NoChange, m.ComponentState(e, pos), "equal data is no change")
	require.True(t, SetComponentData(m, e, Pos{X: 1}))
	require.Equal(t, OneTimeChange, m.ComponentState(e, pos))
	// Removing the entity removes its changes from the counts.
	m.SetChanged(e, vel, PeriodicChange)
	m.RequestRemoveEntity(e, false)
	m.ProcessRemoveEntityRequests()
	require.False(t, m.HasOneTimeComponentChanges())
	require.Empty(t, m.ComponentTypesWithPeriodicChanges())
	require.Equal(t, "PeriodicChange", PeriodicChange.String())
	require.Equal(t, "NoChange", NoChange.String())
	require.Equal(t, "OneTimeChange", OneTimeChange.String())
	require.Equal(t, "ComponentState(?)", ComponentState(9).String())
}

func TestEpochWrap(t *testing.T) {
	m := newTest()
	e := Create1(m, Pos{})
	m.epoch = 1<<30 - 2
	m.SetChanged(e, ID[Pos](m), PeriodicChange)
	m.EndStep()
	m.EndStep()
	require.Equal(t, uint32(1), m.epoch)
	require.Equal(t, NoChange, m.ComponentState(e, ID[Pos](m)))
}

// TestParallelReaders runs read-only queries from several goroutines (run with -race).
func TestParallelReaders(t *testing.T) {
	m := newTest()
	for i := range 100 {
		e := Create2(m, Pos{X: float64(i)}, Vel{})
		if i%3 == 0 {
			CreateComponent(m, e, Tag{})
		}
	}
	for i := Entity(1); i < 100; i += 7 {
		RemoveComponent[Vel](m, i) // leaves archetypes unsorted
	}
	m.RequestRemoveEntity(5, false)
	r := m.Reader()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			sum := 0.0
			EachRO1(r, func(_ Entity, p Pos) bool { sum += p.X; return true })
			EachRO2(r, func(_ Entity, p Pos, _ Tag) bool { sum += p.X; return true })
			EachRemoved1(r, func(Entity, Pos) bool { return true })
			_, _ = ComponentData[Pos](r, 3)
			_ = r.EntitiesByComponents(Match(Pos{X: 3}))
			_, _ = r.ChangedState()
			_, _ = r.State(nil, nil)
			require.Equal(t, 4950.0+1683.0, sum)
		})
	}
	wg.Wait()
}

func TestAllocations(t *testing.T) {
	m := newTest()
	var es []Entity
	for i := range 100 {
		es = append(es, Create2(m, Pos{X: float64(i)}, Vel{X: 1}))
	}
	fn := func(_ Entity, p *Pos, v *Vel) bool { p.X += v.X; return true }
	Each2(m, fn)
	require.Zero(t, testing.AllocsPerRun(100, func() { Each2(m, fn) }))
	require.Zero(t, testing.AllocsPerRun(100, func() {
		q := NewQuery2[Pos, Vel](m)
		for q.Next() {
			p, v := q.Get()
			p.X += v.X
		}
	}))
	require.Zero(t, testing.AllocsPerRun(100, func() {
		for _, e := range es {
			p, _ := Get[Pos](m, e)
			p.X++
		}
	}))
	acc := NewAccessor[Pos](m)
	acc.Get(es[0])
	require.Zero(t, testing.AllocsPerRun(100, func() {
		for _, e := range es {
			p, _ := acc.Get(e)
			p.X++
		}
	}))
	ro := func(_ Entity, p Pos) bool { return p.X >= 0 }
	r := m.Reader()
	require.Zero(t, testing.AllocsPerRun(100, func() { EachRO1(r, ro) }))
	require.Zero(t, testing.AllocsPerRun(100, func() {
		CreateComponent(m, es[3], Tag{})
		RemoveComponent[Tag](m, es[3])
	}))
}
