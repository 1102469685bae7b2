package ecm

import (
	"testing"

	"github.com/stretchr/testify/require"
)

type Pos struct{ X, Y float64 }

type Vel struct{ X, Y float64 }

type Name struct{ S string }

type Tag struct{ N int32 }

type Opaque struct{ F func() } // no default codec

func newTest() *Manager {
	m := New()
	Register(m, "test.Pos", Codec[Pos]{})
	Register(m, "test.Vel", Codec[Vel]{})
	Register(m, "test.Name", Codec[Name]{})
	Register(m, "test.Tag", Codec[Tag]{})
	return m
}

// requireEmptyThenUsable asserts that m holds no entity, and that an entity created
// next is found: the manager is usable afterwards.
func requireEmptyThenUsable(t *testing.T, m *Manager) {
	t.Helper()
	require.Equal(t, 0, m.EntityCount())
	require.Empty(t, collect1[Pos](m))
	e := Create1(m, Pos{})
	require.Equal(t, []Entity{e}, collect1[Pos](m))
}

func collect1[A any](m *Manager) []Entity {
	var out []Entity
	Each1(m, func(e Entity, _ *A) bool {
		out = append(out, e)
		return true
	})
	return out
}

func TestEntities(t *testing.T) {
	m := New()
	require.False(t, m.HasEntity(Null))
	a, b := m.CreateEntity(), m.CreateEntity()
	require.Equal(t, Entity(1), a)
	require.Equal(t, Entity(2), b)
	require.True(t, m.HasEntity(a))
	require.Equal(t, 2, m.EntityCount())

	require.NoError(t, m.SetEntityCreateOffset(100))
	require.Equal(t, Entity(100), m.CreateEntity())
	// Lower than the next id (101): refused, ignored.
	require.EqualError(t, m.SetEntityCreateOffset(50), "ecm: entity create offset 50 is below the next entity id 101: ids never decrease")
	require.Error(t, m.SetEntityCreateOffset(0))
	require.NoError(t, m.SetEntityCreateOffset(101), "the next id itself is no change")
	require.Equal(t, Entity(101), m.CreateEntity())

	m.RequestRemoveEntity(b, false)
	require.True(t, m.HasEntity(b), "removal is deferred")
	m.EndStep()
	require.False(t, m.HasEntity(b))
	require.Equal(t, 3, m.EntityCount())
	require.Equal(t, Entity(102), m.CreateEntity(), "ids are never reused")

	// Far ids (beyond the dense index) work too.
	require.NoError(t, m.SetEntityCreateOffset(1<<40))
	far := Create1(m, Pos{X: 1})
	require.Equal(t, Entity(1<<40), far)
	p, ok := Get[Pos](m, far)
	require.True(t, ok)
	require.Equal(t, 1.0, p.X)
	m.RequestRemoveEntity(far, false)
	m.EndStep()
	require.False(t, m.HasEntity(far))
}

func TestRegister(t *testing.T) {
	m := New()
	id := Register(m, "pos", Codec[Pos]{})
	require.Equal(t, id, Register(m, "pos", Codec[Pos]{}))
	require.Equal(t, id, ID[Pos](m))
	require.Equal(t, "pos", m.ComponentName(id))
	got, ok := m.ComponentIDByName("pos")
	require.True(t, ok)
	require.Equal(t, id, got)
	require.Panics(t, func() { Register(m, "other", Codec[Pos]{}) })
	require.Panics(t, func() { Register(m, "pos", Codec[Vel]{}) })

	vid := ID[Vel](m)
	require.Equal(t, "github.com/ddsgo/ddsgo/ecm.Vel", m.ComponentName(vid))
	require.Equal(t, 2, m.componentTypeCount())
	_, ok = LookupID[Name](m)
	require.False(t, ok)
	require.Equal(t, "", m.ComponentName(99))
}

func TestComponents(t *testing.T) {
	m := newTest()
	e := m.CreateEntity()
	posID := ID[Pos](m)
	require.False(t, m.HasComponentType(posID))

	p := CreateComponent(m, e, Pos{X: 1})
	require.NotNil(t, p)
	require.True(t, m.HasComponentType(posID))
	require.True(t, Has[Pos](m, e))
	require.False(t, Has[Vel](m, e))
	p.X = 2
	v, ok := ComponentData[Pos](m, e)
	require.True(t, ok)
	require.Equal(t, Pos{X: 2}, v)

	require.False(t, SetComponentData(m, e, Pos{X: 2}), "same value")
	require.True(t, SetComponentData(m, e, Pos{X: 3}))
	require.True(t, SetComponentData(m, e, Vel{Y: 1}), "created")
	require.Equal(t, []ComponentID{posID, ID[Vel](m)}, m.ComponentTypes(e))
	require.True(t, m.EntityHasComponentType(e, posID))
	require.True(t, m.EntityMatches(e, posID, ID[Vel](m)))
	require.False(t, m.EntityMatches(e, posID, ID[Name](m)))
	require.False(t, m.EntityMatches(e, 300))

	d := ComponentDefault(m, e, Name{S: "x"})
	require.Equal(t, "x", d.S)
	d = ComponentDefault(m, e, Name{S: "y"})
	require.Equal(t, "x", d.S, "existing component kept")

	require.True(t, RemoveComponent[Name](m, e))
	require.False(t, RemoveComponent[Name](m, e))
	require.True(t, m.RemoveComponent(e, ID[Vel](m)))
	require.Equal(t, []ComponentID{posID}, m.ComponentTypes(e))
	pv, ok := Get[Pos](m, e)
	require.True(t, ok)
	require.Equal(t, 3.0, pv.X, "value survives archetype moves")

	// Missing entity or type.
	require.Nil(t, CreateComponent(m, 999, Pos{}))
	_, ok = Get[Pos](m, 999)
	require.False(t, ok)
	_, ok = Get[Opaque](m, e)
	require.False(t, ok)
	require.False(t, SetComponentData(m, 999, Pos{}))
	require.Nil(t, m.ComponentTypes(999))
	require.False(t, m.RemoveComponent(999, posID))

	// First.
	e2 := Create1(m, Tag{N: 7})
	Create1(m, Tag{N: 8})
	fe, fp := First[Tag](m)
	require.Equal(t, e2, fe)
	require.Equal(t, int32(7), fp.N)
	fe, fv, ok := FirstRO[Tag](m.Reader())
	require.True(t, ok)
	require.Equal(t, e2, fe)
	require.Equal(t, int32(7), fv.N)
	_, _, ok = FirstRO[Opaque](m)
	require.False(t, ok)
}

func TestCreateN(t *testing.T) {
	m := newTest()
	e1 := Create1(m, Pos{X: 1})
	e2 := Create2(m, Pos{X: 2}, Vel{X: 3})
	e3 := Create3(m, Pos{X: 4}, Vel{X: 5}, Name{S: "n"})
	require.Panics(t, func() { Create2(m, Pos{}, Pos{}) })
	require.Panics(t, func() { Create3(m, Pos{}, Vel{}, Pos{}) })
	require.Equal(t, []Entity{e1, e2, e3}, collect1[Pos](m))
	require.Equal(t, []Entity{e2, e3}, collect1[Vel](m))
	n, _ := ComponentData[Name](m, e3)
	require.Equal(t, "n", n.S)
	require.Equal(t, OneTimeChange, m.ComponentState(e3, ID[Name](m)))
}

func TestParentGraph(t *testing.T) {
	m := newTest()
	root := m.CreateEntity()
	a := Create1(m, Name{"a"})
	b := Create1(m, Name{"b"})
	c := Create1(m, Name{"c"})
	require.True(t, m.SetParentEntity(b, root))
	require.True(t, m.SetParentEntity(a, root))
	require.True(t, m.SetParentEntity(c, a))
	require.Equal(t, root, m.ParentEntity(a))
	require.Equal(t, []Entity{a, b}, m.Children(root))
	require.Equal(t, []Entity{root, a, b, c}, m.Descendants(root))
	require.Equal(t, []Entity{a, c}, m.Descendants(a))
	require.Nil(t, m.Descendants(999))

	require.False(t, m.SetParentEntity(root, c), "cycle")
	require.False(t, m.SetParentEntity(a, a))
	require.False(t, m.SetParentEntity(a, 999))
	require.False(t, m.SetParentEntity(999, a))

	require.True(t, m.SetParentEntity(c, b), "reparent")
	require.Equal(t, []Entity{b}, m.Descendants(b)[:1])
	require.Equal(t, []Entity{c}, m.Children(b))
	require.Empty(t, m.Children(a))
	require.True(t, m.SetParentEntity(c, Null))
	require.Equal(t, Null, m.ParentEntity(c))
	require.True(t, m.SetParentEntity(c, a))

	require.Equal(t, []Entity{b}, m.ChildrenByComponents(root, Match(Name{"b"})))
	require.Empty(t, m.ChildrenByComponents(root, Match(Name{"c"})))
	require.Equal(t, []Entity{c}, m.EntitiesByComponents(Match(Name{"c"})))
	require.Equal(t, c, m.EntityByComponents(Match(Name{"c"})))
	require.Equal(t, Null, m.EntityByComponents(Match(Name{"zz"})))
	require.Nil(t, m.EntitiesByComponents(Match(Opaque{})))
	Create2(m, Name{"c"}, Tag{N: 1})
	require.Len(t, m.EntitiesByComponents(Match(Name{"c"})), 2)
	require.Len(t, m.EntitiesByComponents(Match(Name{"c"}), Match(Tag{N: 1})), 1)

	// Non-recursive removal orphans the children; recursive removes the subtree.
	m.RequestRemoveEntity(a, false)
	m.EndStep()
	require.True(t, m.HasEntity(c))
	require.Equal(t, Null, m.ParentEntity(c))
	require.Equal(t, []Entity{b}, m.Children(root))
	require.True(t, m.SetParentEntity(c, b))
	m.RequestRemoveEntity(root, true)
	require.True(t, m.IsMarkedForRemoval(c))
	m.EndStep()
	require.False(t, m.HasEntity(root))
	require.False(t, m.HasEntity(b))
	require.False(t, m.HasEntity(c))
}

func TestEachOrderAcrossArchetypes(t *testing.T) {
	m := newTest()
	var want []Entity
	for i := range 50 {
		var e Entity
		switch i % 3 {
		case 0:
			e = Create1(m, Pos{X: float64(i)})
		case 1:
			e = Create2(m, Pos{X: float64(i)}, Vel{})
		default:
			e = Create2(m, Pos{X: float64(i)}, Tag{})
		}
		want = append(want, e)
	}
	require.Equal(t, want, collect1[Pos](m))

	// Moves between archetypes disturb row order; queries still come out sorted.
	for i := len(want) - 1; i >= 0; i -= 4 {
		CreateComponent(m, want[i], Name{S: "x"})
	}
	for i := 0; i < len(want); i += 5 {
		RemoveComponent[Vel](m, want[i])
	}
	got := collect1[Pos](m)
	require.Equal(t, want, got)
	for _, e := range want {
		p, _ := ComponentData[Pos](m, e)
		require.Equal(t, float64(e-want[0]), p.X)
	}

	// Early stop.
	n := 0
	Each1(m, func(Entity, *Pos) bool { n++; return n < 3 })
	require.Equal(t, 3, n)
}

func TestAccessor(t *testing.T) {
	m := newTest()
	pos := NewAccessor[Pos](m)
	require.Equal(t, ID[Pos](m), pos.ID())
	a := Create1(m, Pos{X: 1})
	b := Create1(m, Vel{})
	p, ok := pos.Get(a)
	require.True(t, ok)
	require.Equal(t, 1.0, p.X)
	require.False(t, pos.Has(b))
	require.False(t, pos.Has(999))
	require.False(t, pos.Has(Null))
	c := Create2(m, Pos{X: 3}, Tag{}) // new archetype after the cache was filled
	p, ok = pos.Get(c)
	require.True(t, ok)
	require.Equal(t, 3.0, p.X)
	require.NoError(t, m.SetEntityCreateOffset(1<<40))
	far := Create1(m, Pos{X: 4})
	p, ok = pos.Get(far)
	require.True(t, ok)
	require.Equal(t, 4.0, p.X)
	RemoveComponent[Pos](m, a)
	require.False(t, pos.Has(a))
}
