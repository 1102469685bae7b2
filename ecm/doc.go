// Package ecm is an entity-component manager in the manner of Gazebo Sim's
// EntityComponentManager, with archetype storage for speed. It holds the simulation
// world and the DCPS entity model of a participant.
//
// # Entities
//
// An Entity is a uint64 id. Ids increase and are never reused; Null (0) is no entity.
// CreateEntity makes an entity without components; Create1, Create2 and Create3 make an
// entity with its components in one step (faster). SetEntityCreateOffset moves the ids
// of future entities past an offset, so that they do not collide with ids created
// elsewhere and applied with SetState; an offset below the next id is an error. HasEntity and EntityCount describe the entities.
//
// # Components
//
// A component is a value of any Go type T; each type is registered with a Manager once,
// with a name and a Codec, by Register (explicitly) or ID (implicitly, default name
// "pkgpath.TypeName" and default codec). Registration gives a ComponentID. Typed access:
//
//   - CreateComponent(m, e, v) creates or replaces a component, Get(m, e) returns a
//     pointer to it, ComponentData(s, e) a copy, SetComponentData(m, e, v) sets it and
//     reports whether the value changed, ComponentDefault(m, e, def) creates it if
//     missing, RemoveComponent(m, e) removes it, Has(s, e) tests it.
//   - By id: ComponentTypes(e), EntityHasComponentType, EntityMatches, RemoveComponent,
//     HasComponentType (a component of that type was ever created).
//   - First(m) and FirstRO(s) find the entity with the smallest id that has T.
//
// Pointers into component storage stay valid until the next structural change: creating
// an entity, or creating or removing a component (of any entity).
//
// # Parent graph
//
// SetParentEntity, ParentEntity, Children and Descendants (e and everything below it)
// maintain a forest. EntitiesByComponents, EntityByComponents and ChildrenByComponents
// find entities by component values, given as Match(v) for each value.
//
// # Queries
//
// Each1 to Each4 call a function for every entity that has all the given component
// types, with pointers to the components, in ascending entity order, until the function
// returns false. EachRO1 to EachRO4 are the read-only variants: they take a Source (a
// *Manager or a Reader) and pass copies of the components. EachNew1/2 (and EachNewRO1/2) visit only entities created in the current step;
// EachRemoved1/2 only entities marked for removal; EachEntity takes component ids.
//
// Query1 and Query2 are the fastest way to iterate, as a for loop with no callback:
//
//	q := ecm.NewQuery2[Pose, Velocity](m)
//	for q.Next() {
//		p, v := q.Get()
//		...
//	}
//
// A Query loop must make no structural change (Next panics when it notices one); an Each
// callback may. For random access to one component type in a hot loop, an Accessor
// (NewAccessor) caches where the type lives in each archetype and beats Get.
//
// Storage is by archetype: all entities with the same set of component types share a
// table with one dense slice per type. A view (the archetypes matching a set of types) is
// cached on first use and kept up to date when archetypes are created, so a query is a
// loop over a few slices. The callback of a mutable query may create entities and create
// or remove components: rows that leave the query during the iteration are skipped, and
// entities that join it are visited by the next query.
//
// # Steps, removal and change tracking
//
// RequestRemoveEntity(e, recursive) and RequestRemoveEntities mark entities for removal;
// they stay live (and visible to EachRemoved) until the end of the step. Every component
// has a change state in the current step: NoChange, OneTimeChange (creating a component
// is one) or PeriodicChange, set by SetChanged (false if there is no such component) and
// SetComponentData and read by ComponentState, HasOneTimeComponentChanges and
// ComponentTypesWithPeriodicChanges.
//
// Entities created in a step are "new" until its end (HasNewEntities, IsNewEntity,
// EachNew1). The systems runner must call EndStep once at the end of every step, after PostUpdate
// and after ChangedState was taken, outside any query callback. EndStep does what
// Gazebo's runner does after the systems ran, in this order:
//
//  1. Entities created so far are no longer new (Gazebo's ClearNewlyCreatedEntities).
//  2. ProcessRemoveEntityRequests: marked entities are removed (children of a removed
//     entity that were not removed lose their parent).
//  3. ChangedState no longer reports removed components (ClearRemovedComponents).
//  4. Every change state becomes NoChange (SetAllComponentsUnchanged).
//
// Only the second is exported: a participant removes entities between steps with it.
//
// # Read-only access and concurrency
//
// A Manager is not safe for concurrent use. Reader returns a read-only view with no
// mutating method; the generic functions that take a Source only read. Several
// goroutines may use Readers of one Manager at once (the parallel PostUpdate phase) as
// long as nothing else uses the Manager meanwhile; call Manager.Reader before the
// parallel phase starts.
//
// # Serialized state
//
// State returns the state of chosen entities and component types (an empty list, nil or
// not, means all, as in Gazebo), ChangedState the
// changes of the current step (new entities with all their components, removed entities,
// and components added, modified or removed), and SetState applies either kind to a
// Manager. The format is described in state.go; it is CDR (package internal/cdr), so the
// bytes can travel as a DDS topic. Components are identified by registered name;
// component types without a codec are not serialized.
package ecm
