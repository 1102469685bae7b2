package ecm_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/ecm"
)

// The calls of gz-sim's EntityComponentManager as its documentation describes them
// (include/gz/sim/EntityComponentManager.hh, one test per documented member), with
// ddsgo's equivalents (issue 31, item 3). Gazebo's components::Name, Model, Sensor
// and Pose are the types below.

type (
	docName   string
	docModel  struct{}
	docSensor struct{}
	docPose   struct{ X, Y, Z float64 }
)

// docManager returns a Manager with the component types registered by name, so that
// they take part in State and ChangedState.
func docManager() *ecm.Manager {
	m := ecm.New()
	ecm.Register(m, "doc.Name", ecm.Codec[docName]{})
	ecm.Register(m, "doc.Model", ecm.Codec[docModel]{})
	ecm.Register(m, "doc.Sensor", ecm.Codec[docSensor]{})
	ecm.Register(m, "doc.Pose", ecm.Codec[docPose]{})
	return m
}

// TestDocECMCreateEntity reproduces EntityComponentManager.hh, CreateEntity ("Creates
// a new Entity. Returns an id for the Entity"), EntityCount and HasEntity.
func TestDocECMCreateEntity(t *testing.T) {
	m := docManager()
	require.Equal(t, 0, m.EntityCount())
	a, b := m.CreateEntity(), m.CreateEntity()
	require.NotEqual(t, ecm.Null, a)
	require.NotEqual(t, a, b)
	require.Equal(t, 2, m.EntityCount())
	require.True(t, m.HasEntity(a))
	require.True(t, m.HasEntity(b))
	require.False(t, m.HasEntity(b+1))
	require.False(t, m.HasEntity(ecm.Null))
}

// TestDocECMCreateComponent reproduces EntityComponentManager.hh, CreateComponent
// ("This will copy the _data parameter"; returns a pointer to the component, nullptr
// if _entity does not exist) and Component (the component, or nullptr if it could not
// be found). ddsgo's Component is ecm.Get, whose bool is false where Gazebo returns
// nullptr.
func TestDocECMCreateComponent(t *testing.T) {
	m := docManager()
	e := m.CreateEntity()
	data := docPose{X: 1}
	p := ecm.CreateComponent(m, e, data)
	require.NotNil(t, p)
	data.X = 2 // a copy was stored
	require.Equal(t, docPose{X: 1}, *p)

	got, ok := ecm.Get[docPose](m, e)
	require.True(t, ok)
	require.Equal(t, docPose{X: 1}, *got)
	got.Y = 3 // Component is mutable
	again, _ := ecm.Get[docPose](m, e)
	require.Equal(t, docPose{X: 1, Y: 3}, *again)

	_, ok = ecm.Get[docName](m, e)
	require.False(t, ok, "no such component: nullptr")
	require.Nil(t, ecm.CreateComponent(m, e+100, docPose{}), "no such entity: nullptr")
}

// TestDocECMComponentDefault reproduces EntityComponentManager.hh, ComponentDefault:
// if the component does not exist it is created with the given default; if it exists
// it is returned unchanged; nullptr if the entity does not exist.
func TestDocECMComponentDefault(t *testing.T) {
	m := docManager()
	e := m.CreateEntity()
	p := ecm.ComponentDefault(m, e, docPose{Z: 9})
	require.Equal(t, docPose{Z: 9}, *p)
	p.Z = 1
	require.Equal(t, docPose{Z: 1}, *ecm.ComponentDefault(m, e, docPose{Z: 9}), "existing: kept")
	require.Nil(t, ecm.ComponentDefault(m, e+100, docPose{}))
}

// TestDocECMComponentData reproduces EntityComponentManager.hh, ComponentData (nullopt
// if the entity does not have the component, else its data) and SetComponentData
// (creates the component if missing, else updates it; "True if data has changed").
func TestDocECMComponentData(t *testing.T) {
	m := docManager()
	e := m.CreateEntity()
	_, ok := ecm.ComponentData[docName](m, e)
	require.False(t, ok, "nullopt")

	require.True(t, ecm.SetComponentData(m, e, docName("a")), "created")
	v, ok := ecm.ComponentData[docName](m, e)
	require.True(t, ok)
	require.Equal(t, docName("a"), v)
	require.False(t, ecm.SetComponentData(m, e, docName("a")), "same data: no change")
	require.True(t, ecm.SetComponentData(m, e, docName("b")), "changed")
	v, _ = ecm.ComponentData[docName](m, e)
	require.Equal(t, docName("b"), v)
}

// TestDocECMRemoveComponent reproduces EntityComponentManager.hh, RemoveComponent
// (by type and by type id): "True if the entity and component existed and the
// component was removed".
func TestDocECMRemoveComponent(t *testing.T) {
	m := docManager()
	e := m.CreateEntity()
	ecm.CreateComponent(m, e, docPose{})
	ecm.CreateComponent(m, e, docName("x"))
	require.True(t, ecm.RemoveComponent[docPose](m, e))
	require.False(t, ecm.Has[docPose](m, e))
	require.False(t, ecm.RemoveComponent[docPose](m, e), "already removed")
	require.True(t, m.RemoveComponent(e, ecm.ID[docName](m)))
	require.False(t, m.RemoveComponent(e, ecm.ID[docName](m)))
	require.False(t, ecm.RemoveComponent[docPose](m, e+100), "no such entity")
}

// TestDocECMComponentTypes reproduces EntityComponentManager.hh, HasComponentType ("a
// component type has ever been created"), EntityHasComponentType, EntityMatches ("has
// all the given component types") and ComponentTypes.
func TestDocECMComponentTypes(t *testing.T) {
	m := docManager()
	pose, name, sensor := ecm.ID[docPose](m), ecm.ID[docName](m), ecm.ID[docSensor](m)
	require.False(t, m.HasComponentType(pose))
	e := m.CreateEntity()
	ecm.CreateComponent(m, e, docPose{})
	ecm.CreateComponent(m, e, docName("x"))
	require.True(t, m.HasComponentType(pose))
	require.False(t, m.HasComponentType(sensor))
	require.True(t, m.EntityHasComponentType(e, pose))
	require.False(t, m.EntityHasComponentType(e, sensor))
	require.False(t, m.EntityHasComponentType(e+100, pose), "no such entity")
	require.True(t, m.EntityMatches(e, pose, name))
	require.False(t, m.EntityMatches(e, pose, sensor))
	require.ElementsMatch(t, []ecm.ComponentID{pose, name}, m.ComponentTypes(e))
	ecm.RemoveComponent[docPose](m, e)
	require.True(t, m.HasComponentType(pose), "ever created")
}

// TestDocECMEntityByComponents reproduces the example of EntityComponentManager.hh,
// EntityByComponents: EntityByComponents(components::Name("name"),
// components::Model()) returns the entity with a name component equal to "name" and
// a model component, kNullEntity if none.
func TestDocECMEntityByComponents(t *testing.T) {
	m := docManager()
	ecm.Create1(m, docName("name")) // no Model
	want := ecm.Create2(m, docName("name"), docModel{})
	ecm.Create2(m, docName("other"), docModel{})
	require.Equal(t, want, m.EntityByComponents(ecm.Match(docName("name")), ecm.Match(docModel{})))
	require.Equal(t, ecm.Null, m.EntityByComponents(ecm.Match(docName("none")), ecm.Match(docModel{})))
}

// TestDocECMEntitiesByComponents reproduces the example of EntityComponentManager.hh,
// EntitiesByComponents: EntitiesByComponents(components::Name("camera"),
// components::Sensor()) returns the entities with a name component equal to "camera"
// and a sensor component, an empty vector if none.
func TestDocECMEntitiesByComponents(t *testing.T) {
	m := docManager()
	a := ecm.Create2(m, docName("camera"), docSensor{})
	ecm.Create1(m, docName("camera"))
	b := ecm.Create2(m, docName("camera"), docSensor{})
	ecm.Create2(m, docName("lidar"), docSensor{})
	require.Equal(t, []ecm.Entity{a, b}, m.EntitiesByComponents(ecm.Match(docName("camera")), ecm.Match(docSensor{})))
	require.Empty(t, m.EntitiesByComponents(ecm.Match(docName("gps")), ecm.Match(docSensor{})))
}

// TestDocECMChildrenByComponents reproduces the example of EntityComponentManager.hh,
// ChildrenByComponents: ChildrenByComponents(parent, 123, std::string("name")) returns
// the immediate children of parent with an int component equal to 123 and a string
// component equal to "name".
func TestDocECMChildrenByComponents(t *testing.T) {
	m := docManager()
	parent := m.CreateEntity()
	child := ecm.Create2(m, 123, "name")
	m.SetParentEntity(child, parent)
	other := ecm.Create2(m, 124, "name")
	m.SetParentEntity(other, parent)
	grandchild := ecm.Create2(m, 123, "name")
	m.SetParentEntity(grandchild, child)
	ecm.Create2(m, 123, "name") // not a child
	require.Equal(t, []ecm.Entity{child}, m.ChildrenByComponents(parent, ecm.Match(123), ecm.Match("name")))
	require.Empty(t, m.ChildrenByComponents(other, ecm.Match(123), ecm.Match("name")))
}

// TestDocECMSetParentEntity reproduces EntityComponentManager.hh, SetParentEntity
// ("True if successful. Will fail if entities don't exist") and ParentEntity ("The
// parent entity or kNullEntity if there's none"). ddsgo also refuses a cycle, and
// a Null parent detaches the child.
func TestDocECMSetParentEntity(t *testing.T) {
	m := docManager()
	parent, child := m.CreateEntity(), m.CreateEntity()
	require.Equal(t, ecm.Null, m.ParentEntity(child))
	require.True(t, m.SetParentEntity(child, parent))
	require.Equal(t, parent, m.ParentEntity(child))
	require.Equal(t, []ecm.Entity{child}, m.Children(parent))
	require.False(t, m.SetParentEntity(child, child+100), "parent does not exist")
	require.False(t, m.SetParentEntity(child+100, parent), "child does not exist")
	require.Equal(t, parent, m.ParentEntity(child), "unchanged by the failures")
	require.False(t, m.SetParentEntity(parent, child), "a cycle")
	require.True(t, m.SetParentEntity(child, ecm.Null))
	require.Equal(t, ecm.Null, m.ParentEntity(child))
}

// TestDocECMDescendants reproduces EntityComponentManager.hh, Descendants: "All child
// entities recursively, including _entity. It will be empty if the entity doesn't
// exist."
func TestDocECMDescendants(t *testing.T) {
	m := docManager()
	root, a, b, c := m.CreateEntity(), m.CreateEntity(), m.CreateEntity(), m.CreateEntity()
	m.SetParentEntity(a, root)
	m.SetParentEntity(b, a)
	m.SetParentEntity(c, root)
	require.ElementsMatch(t, []ecm.Entity{root, a, b, c}, m.Descendants(root))
	require.ElementsMatch(t, []ecm.Entity{a, b}, m.Descendants(a))
	require.Equal(t, []ecm.Entity{b}, m.Descendants(b))
	require.Empty(t, m.Descendants(c+100))
}

// TestDocECMEach reproduces EntityComponentManager.hh, Each: the callback is called
// for every entity with all the given component types, with the (mutable) components
// in template order; returning false stops the calls; "an entity marked for removal
// (but not processed yet) will be included".
func TestDocECMEach(t *testing.T) {
	m := docManager()
	a := ecm.Create2(m, docName("a"), docPose{X: 1})
	ecm.Create1(m, docName("no pose"))
	b := ecm.Create2(m, docName("b"), docPose{X: 2})
	c := ecm.Create2(m, docName("c"), docPose{X: 3})
	m.RequestRemoveEntity(c, true)

	var seen []ecm.Entity
	ecm.Each2(m, func(e ecm.Entity, n *docName, p *docPose) bool {
		seen = append(seen, e)
		p.Y = p.X * 10 // mutable
		return true
	})
	require.Equal(t, []ecm.Entity{a, b, c}, seen, "marked for removal is included")
	v, _ := ecm.ComponentData[docPose](m, b)
	require.Equal(t, 20.0, v.Y)

	seen = seen[:0]
	ecm.Each2(m, func(e ecm.Entity, _ *docName, _ *docPose) bool {
		seen = append(seen, e)
		return false
	})
	require.Equal(t, []ecm.Entity{a}, seen, "false stops the calls")

	// The const version: copies.
	seen = seen[:0]
	ecm.EachRO2(m.Reader(), func(e ecm.Entity, n docName, p docPose) bool {
		seen = append(seen, e)
		return true
	})
	require.Equal(t, []ecm.Entity{a, b, c}, seen)
}

// TestDocECMEachNew reproduces EntityComponentManager.hh, EachNew: only newly created
// entities with the given components are visited; "This newness is cleared at the end
// of a simulation step" (ecm.Manager.EndStep), also in the const version.
func TestDocECMEachNew(t *testing.T) {
	m := docManager()
	old := ecm.Create1(m, docPose{})
	m.EndStep()
	a := ecm.Create1(m, docPose{})
	ecm.Create1(m, docName("no pose"))
	var seen []ecm.Entity
	ecm.EachNew1(m, func(e ecm.Entity, _ *docPose) bool { seen = append(seen, e); return true })
	require.Equal(t, []ecm.Entity{a}, seen)
	require.True(t, m.HasNewEntities())
	require.True(t, m.IsNewEntity(a))
	require.False(t, m.IsNewEntity(old))
	seen = seen[:0]
	ecm.EachNewRO1(m.Reader(), func(e ecm.Entity, _ docPose) bool { seen = append(seen, e); return true })
	require.Equal(t, []ecm.Entity{a}, seen)

	m.EndStep()
	seen = seen[:0]
	ecm.EachNew1(m, func(e ecm.Entity, _ *docPose) bool { seen = append(seen, e); return true })
	require.Empty(t, seen, "newness cleared at the end of the step")
	require.False(t, m.HasNewEntities())
}

// TestDocECMEachRemoved reproduces EntityComponentManager.hh, EachRemoved: the
// entities with the given components that "are about to be removed", visited (in a
// PostUpdate) before the removal is processed.
func TestDocECMEachRemoved(t *testing.T) {
	m := docManager()
	a := ecm.Create1(m, docPose{X: 1})
	b := ecm.Create1(m, docPose{X: 2})
	c := ecm.Create1(m, docName("no pose"))
	m.EndStep()
	m.RequestRemoveEntity(b, true)
	m.RequestRemoveEntity(c, true)
	var seen []ecm.Entity
	ecm.EachRemoved1(m.Reader(), func(e ecm.Entity, p docPose) bool {
		seen = append(seen, e)
		require.Equal(t, docPose{X: 2}, p)
		return true
	})
	require.Equal(t, []ecm.Entity{b}, seen)
	require.True(t, m.HasEntitiesMarkedForRemoval())
	m.EndStep()
	seen = seen[:0]
	ecm.EachRemoved1(m, func(e ecm.Entity, _ docPose) bool { seen = append(seen, e); return true })
	require.Empty(t, seen)
	require.True(t, m.HasEntity(a))
}

// TestDocECMRequestRemoveEntity reproduces EntityComponentManager.hh,
// RequestRemoveEntity: the request is queued and "processed toward the end of a
// simulation update step"; _recursive removes all child entities too (Gazebo's
// default is true; ddsgo has no default arguments, so it is always given).
// RequestRemoveEntities removes all entities. A child left behind by a non-recursive
// removal loses its parent (ddsgo's documented choice).
func TestDocECMRequestRemoveEntity(t *testing.T) {
	m := docManager()
	parent, child, grandchild := m.CreateEntity(), m.CreateEntity(), m.CreateEntity()
	m.SetParentEntity(child, parent)
	m.SetParentEntity(grandchild, child)
	other, orphan := m.CreateEntity(), m.CreateEntity()
	m.SetParentEntity(orphan, other)
	m.EndStep()

	m.RequestRemoveEntity(parent, true)
	m.RequestRemoveEntity(other, false)
	for _, e := range []ecm.Entity{parent, child, grandchild, other, orphan} {
		require.True(t, m.HasEntity(e), "queued, still live until the end of the step")
	}
	require.True(t, m.IsMarkedForRemoval(grandchild))
	require.False(t, m.IsMarkedForRemoval(orphan))
	m.EndStep()
	for _, e := range []ecm.Entity{parent, child, grandchild, other} {
		require.False(t, m.HasEntity(e), "removed")
	}
	require.True(t, m.HasEntity(orphan), "not recursive")
	require.Equal(t, ecm.Null, m.ParentEntity(orphan))

	m.CreateEntity()
	m.RequestRemoveEntities()
	require.Equal(t, 2, m.EntityCount())
	m.EndStep()
	require.Equal(t, 0, m.EntityCount())
}

// TestDocECMState reproduces EntityComponentManager.hh, State and SetState: the state
// of the given entities and component types, "Leave empty to get all entities" / "all
// components"; SetState creates the entities and components of the state that are
// missing.
func TestDocECMState(t *testing.T) {
	m := docManager()
	a := ecm.Create2(m, docName("a"), docPose{X: 1})
	b := ecm.Create2(m, docName("b"), docModel{})
	m.SetParentEntity(b, a)

	all, err := m.State(nil, nil)
	require.NoError(t, err)
	r := docManager()
	require.NoError(t, r.SetState(all))
	require.Equal(t, 2, r.EntityCount())
	p, _ := ecm.ComponentData[docPose](r, a)
	require.Equal(t, docPose{X: 1}, p)
	require.True(t, ecm.Has[docModel](r, b))
	require.Equal(t, a, r.ParentEntity(b))

	// Chosen entities and types only.
	some, err := m.State([]ecm.Entity{a}, []ecm.ComponentID{ecm.ID[docName](m)})
	require.NoError(t, err)
	r = docManager()
	require.NoError(t, r.SetState(some))
	require.True(t, r.HasEntity(a))
	require.False(t, r.HasEntity(b))
	require.True(t, ecm.Has[docName](r, a))
	require.False(t, ecm.Has[docPose](r, a))
}

// TestDocECMChangedState reproduces EntityComponentManager.hh, ChangedState: the
// state of what changes in the current iteration, "New entities and all of their
// components", "Removed entities", and entities which had a component added,
// removed or modified. Applied to a replica with SetState, it brings the replica to
// the same state.
func TestDocECMChangedState(t *testing.T) {
	m := docManager()
	a := ecm.Create1(m, docPose{X: 1})
	b := ecm.Create2(m, docName("b"), docPose{})
	c := ecm.Create1(m, docName("c"))
	m.EndStep()
	replica := docManager()
	st, err := m.State(nil, nil)
	require.NoError(t, err)
	require.NoError(t, replica.SetState(st))
	replica.EndStep()

	// Nothing changed: the changed state creates nothing.
	cs, err := m.ChangedState()
	require.NoError(t, err)
	probe := docManager()
	require.NoError(t, probe.SetState(cs))
	require.Equal(t, 0, probe.EntityCount())

	d := ecm.Create2(m, docName("new"), docModel{}) // new entity
	m.RequestRemoveEntity(c, true)                  // removed entity
	ecm.CreateComponent(m, a, docName("a"))         // component added
	ecm.RemoveComponent[docName](m, b)              // component removed
	ecm.SetComponentData(m, a, docPose{X: 5})       // component modified
	cs, err = m.ChangedState()
	require.NoError(t, err)
	require.NoError(t, replica.SetState(cs))
	m.EndStep()
	replica.EndStep()

	require.True(t, ecm.Has[docModel](replica, d))
	require.False(t, replica.HasEntity(c))
	n, _ := ecm.ComponentData[docName](replica, a)
	require.Equal(t, docName("a"), n)
	require.False(t, ecm.Has[docName](replica, b))
	p, _ := ecm.ComponentData[docPose](replica, a)
	require.Equal(t, docPose{X: 5}, p)
	s1, _ := m.State(nil, nil)
	s2, _ := replica.State(nil, nil)
	require.Equal(t, s1, s2)
}
