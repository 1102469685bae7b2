package ecm

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

type Blob struct {
	B    []byte
	F    []float32
	A    [2]int16
	S    string
	Flag bool
	U    uint64
	I8   int8
}

// Hand-written codec.
type Temp struct{ C float64 }

var tempCodec = Codec[Temp]{
	Marshal: func(v *Temp) ([]byte, error) {
		return binary.LittleEndian.AppendUint64(nil, math.Float64bits(v.C)), nil
	},
	Unmarshal: func(b []byte, v *Temp) error {
		if len(b) != 8 {
			return fmt.Errorf("temp: %d octets, want 8", len(b))
		}
		v.C = math.Float64frombits(binary.LittleEndian.Uint64(b))
		return nil
	},
	Equal: func(a, b *Temp) bool { return a.C == b.C },
}

func newStateTest() *Manager {
	m := newTest()
	Register(m, "test.Blob", Codec[Blob]{})
	Register(m, "test.Temp", tempCodec)
	return m
}

func TestStateRoundTrip(t *testing.T) {
	src := newStateTest()
	root := Create1(src, Name{"world"})
	a := Create3(src, Pos{X: 1, Y: 2}, Vel{X: 3}, Blob{B: []byte{1, 2}, F: []float32{1.5}, A: [2]int16{-1, 2}, S: "s", Flag: true, U: 1 << 60, I8: -3})
	b := Create2(src, Temp{C: 21.5}, Tag{N: 4})
	CreateComponent(src, b, Opaque{}) // not serializable: left out
	src.SetParentEntity(a, root)
	src.SetParentEntity(b, a)

	st, err := src.State(nil, nil)
	require.NoError(t, err)
	dst := newStateTest()
	require.NoError(t, dst.SetState(st))
	require.Equal(t, 3, dst.EntityCount())
	require.Equal(t, a, dst.ParentEntity(b))
	require.Equal(t, root, dst.ParentEntity(a))
	blob, ok := ComponentData[Blob](dst, a)
	require.True(t, ok)
	want, _ := ComponentData[Blob](src, a)
	require.Equal(t, want, blob)
	tmp, _ := ComponentData[Temp](dst, b)
	require.Equal(t, 21.5, tmp.C)
	require.False(t, Has[Opaque](dst, b))
	require.True(t, dst.IsNewEntity(a))
	st2, err := dst.State(nil, nil)
	require.NoError(t, err)
	require.Equal(t, st, st2)

	// Applying again changes nothing.
	dst.EndStep()
	require.NoError(t, dst.SetState(st))
	require.False(t, dst.HasOneTimeComponentChanges())

	// A subset of entities and types.
	sub, err := src.State([]Entity{b, a, b, 999}, []ComponentID{ID[Tag](src), ID[Pos](src), ID[Opaque](src)})
	require.NoError(t, err)
	d3 := newStateTest()
	require.NoError(t, d3.SetState(sub))
	require.Equal(t, 2, d3.EntityCount())
	require.True(t, Has[Pos](d3, a))
	require.False(t, Has[Vel](d3, a))
	require.True(t, Has[Tag](d3, b))
	require.Equal(t, Null, d3.ParentEntity(a), "parent not in the state")
	require.Equal(t, a, d3.ParentEntity(b))

	// Unknown types are skipped.
	other := New()
	Register(other, "test.Tag", Codec[Tag]{})
	require.NoError(t, other.SetState(st))
	tg, ok := ComponentData[Tag](other, b)
	require.True(t, ok)
	require.Equal(t, int32(4), tg.N)

	// Created ids are not reused locally.
	require.Greater(t, other.CreateEntity(), b)

	// Reader.
	rs, err := src.Reader().State(nil, nil)
	require.NoError(t, err)
	require.Equal(t, st, rs)
}

func TestChangedStateContents(t *testing.T) {
	m := newStateTest()
	a := Create1(m, Pos{X: 1})
	b := Create2(m, Pos{X: 2}, Vel{})
	c := Create1(m, Tag{})
	m.EndStep()
	dst := newStateTest()
	st, _ := m.State(nil, nil)
	require.NoError(t, dst.SetState(st))
	dst.EndStep()

	// Modify a, remove a component of b, remove c, add d, reparent b.
	SetComponentData(m, a, Pos{X: 5})
	RemoveComponent[Vel](m, b)
	m.RequestRemoveEntity(c, false)
	d := Create1(m, Name{"d"})
	m.SetParentEntity(b, d)
	cs, err := m.ChangedState()
	require.NoError(t, err)
	require.NoError(t, dst.SetState(cs))
	m.EndStep()
	dst.EndStep()
	s1, _ := m.State(nil, nil)
	s2, _ := dst.State(nil, nil)
	require.Equal(t, s1, s2)
	require.False(t, dst.HasEntity(c))
	require.Equal(t, d, dst.ParentEntity(b))

	// Nothing changed: no entities.
	empty, err := m.ChangedState()
	require.NoError(t, err)
	before := dst.EntityCount()
	require.NoError(t, dst.SetState(empty))
	require.Equal(t, before, dst.EntityCount())
}

// TestChangedStateStream applies the changed state of every step of a manager under
// random operations to a second manager; both must end up identical.
func TestChangedStateStream(t *testing.T) {
	for seed := range uint64(20) {
		ops := randomOps{rng: rand.New(rand.NewPCG(seed, 7)), m: newStateTest()}
		src, dst := ops.m, newStateTest()
		for step := range 40 {
			for range ops.rng.IntN(20) {
				ops.run(step)
			}
			cs, err := src.ChangedState()
			require.NoError(t, err)
			require.NoError(t, dst.SetState(cs))
			src.EndStep()
			dst.EndStep()
			ops.live = ops.live[:0]
			EachEntity(src, nil, func(e Entity) bool { ops.live = append(ops.live, e); return true })
			s1, err := src.State(nil, nil)
			require.NoError(t, err)
			s2, err := dst.State(nil, nil)
			require.NoError(t, err)
			require.Equal(t, s1, s2, "seed %d step %d", seed, step)
			require.Equal(t, src.EntityCount(), dst.EntityCount())
		}
	}
}

// randomOps runs random operations on m, on entities picked from live.
type randomOps struct {
	rng  *rand.Rand
	m    *Manager
	live []Entity
}

// pick returns a random live entity, Null when there is none.
func (o *randomOps) pick() Entity {
	if len(o.live) == 0 {
		return Null
	}
	return o.live[o.rng.IntN(len(o.live))]
}

// run runs one random operation of step.
func (o *randomOps) run(step int) {
	switch op := o.rng.IntN(12); op {
	case 0, 1, 2:
		o.live = append(o.live, o.create(op, step))
	case 7:
		o.m.SetParentEntity(o.pick(), o.pick())
	default:
		if e := o.pick(); e != Null {
			o.change(op, e)
		}
	}
}

// create creates an entity in one of three ways.
func (o *randomOps) create(op, step int) Entity {
	switch op {
	case 0:
		return o.m.CreateEntity()
	case 1:
		return Create2(o.m, Pos{X: o.rng.Float64()}, Vel{Y: o.rng.Float64()})
	default:
		return Create1(o.m, Blob{S: "x", B: []byte{byte(step)}})
	}
}

// change changes the live entity e: op says how.
func (o *randomOps) change(op int, e Entity) {
	m := o.m
	switch op {
	case 3:
		SetComponentData(m, e, Pos{X: float64(o.rng.IntN(3))})
	case 4:
		CreateComponent(m, e, Tag{N: o.rng.Int32()})
	case 5:
		RemoveComponent[Pos](m, e)
	case 6:
		if p, ok := Get[Vel](m, e); ok {
			p.X++
			m.SetChanged(e, ID[Vel](m), PeriodicChange)
		}
	case 8:
		m.SetParentEntity(e, Null)
	case 9:
		m.RequestRemoveEntity(e, o.rng.IntN(2) == 0)
	case 10:
		CreateComponent(m, e, Temp{C: o.rng.Float64()})
		RemoveComponent[Tag](m, e)
	case 11:
		SetComponentData(m, e, Name{S: "n"})
	}
}

func TestSetStateErrors(t *testing.T) {
	m := newStateTest()
	e := Create2(m, Pos{X: 1}, Blob{F: []float32{1, 2, 3}})
	good, err := m.State(nil, nil)
	require.NoError(t, err)

	for n := range len(good) {
		d := newStateTest()
		err := d.SetState(good[:n])
		require.Error(t, err, "truncated to %d", n)
		require.True(t, errors.Is(err, ErrState))
		require.Equal(t, 0, d.EntityCount(), "nothing applied")
	}

	bad := func(mut func(b []byte)) error {
		b := append([]byte(nil), good...)
		mut(b)
		return newStateTest().SetState(b)
	}
	require.ErrorContains(t, bad(func(b []byte) { b[4] ^= 0xff }), "not an ECM state")
	require.ErrorContains(t, bad(func(b []byte) { b[8] = 9 }), "unsupported version")
	require.ErrorContains(t, bad(func(b []byte) { b[10] = 9 }), "unknown kind")
	require.ErrorContains(t, bad(func(b []byte) { b[1] = 0x10 }), "encapsulation")
	require.Error(t, newStateTest().SetState(append(good, 0, 0, 0, 0)))
	_ = e
}

// The changes of a step in steady state (components modified, no entity created or
// removed) are serialized into the caller's buffer without allocating, also through a
// Reader.
func TestChangedStateAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	m := New()
	type P struct{ X float64 }
	id := Register(m, "P", Codec[P]{})
	es := []Entity{Create1(m, P{}), Create1(m, P{1}), Create1(m, P{2})}
	m.EndStep()
	var b []byte
	r := m.Reader()
	step := func() {
		for _, e := range es {
			m.SetChanged(e, id, PeriodicChange)
		}
		b, _ = r.AppendChangedState(b[:0])
		m.EndStep()
	}
	step()
	require.Zero(t, testing.AllocsPerRun(100, step))
	require.Zero(t, testing.AllocsPerRun(100, func() {
		for _, e := range es {
			m.SetChanged(e, id, PeriodicChange)
		}
		b, _ = m.AppendChangedState(b[:0])
		m.EndStep()
	}))
}

// A Codec's errors fail State and SetState, and a state its Unmarshal refuses changes
// nothing.
func TestCodecErrors(t *testing.T) {
	bad := errors.New("refused")
	src := New()
	Register(src, "test.Temp", tempCodec)
	Create1(src, Temp{C: 1})
	st, err := src.State(nil, nil)
	require.NoError(t, err)

	refusing := tempCodec
	refusing.Unmarshal = func([]byte, *Temp) error { return bad }
	dst := New()
	Register(dst, "test.Temp", refusing)
	require.ErrorIs(t, dst.SetState(st), bad)
	require.Zero(t, dst.EntityCount(), "a refused state changed the manager")

	failing := tempCodec
	failing.Marshal = func(*Temp) ([]byte, error) { return nil, bad }
	Register(src, "test.Temp", failing)
	_, err = src.State(nil, nil)
	require.ErrorIs(t, err, bad)

	half := Codec[Temp]{Marshal: tempCodec.Marshal} // no Unmarshal: not serializable
	h := New()
	Register(h, "test.Temp", half)
	Create1(h, Temp{C: 1})
	st, err = h.State(nil, nil)
	require.NoError(t, err)
	back := New()
	Register(back, "test.Temp", tempCodec)
	require.NoError(t, back.SetState(st))
	_, v := First[Temp](back)
	require.Nil(t, v, "a type with half a codec went into the state")
}

// An empty entity or type list means all, nil or not, as in Gazebo's
// EntityComponentManager::State (whose sets default to empty).
func TestStateEmptyListsMeanAll(t *testing.T) {
	m := newStateTest()
	a := Create2(m, Pos{X: 1}, Vel{X: 2})
	b := Create1(m, Temp{C: 3})
	m.SetParentEntity(b, a)
	all, err := m.State(nil, nil)
	require.NoError(t, err)
	for _, c := range []struct {
		name     string
		entities []Entity
		types    []ComponentID
	}{
		{"nil entities, empty types", nil, []ComponentID{}},
		{"empty entities, nil types", []Entity{}, nil},
		{"empty entities, empty types", []Entity{}, []ComponentID{}},
	} {
		st, err := m.State(c.entities, c.types)
		require.NoError(t, err, c.name)
		require.Equal(t, all, st, c.name)
		st, err = m.AppendState(nil, c.entities, c.types)
		require.NoError(t, err, c.name)
		require.Equal(t, all, st, c.name)
		st, err = m.Reader().State(c.entities, c.types)
		require.NoError(t, err, c.name)
		require.Equal(t, all, st, c.name)
	}

	// Empty entities with some types: every entity, with those types only.
	st, err := m.State([]Entity{}, []ComponentID{ID[Pos](m)})
	require.NoError(t, err)
	d := newStateTest()
	require.NoError(t, d.SetState(st))
	require.Equal(t, 2, d.EntityCount())
	require.True(t, Has[Pos](d, a))
	require.False(t, Has[Vel](d, a))
	require.False(t, Has[Temp](d, b))
	require.Equal(t, a, d.ParentEntity(b))

	// Some entities with empty types: those entities, with all their types.
	st, err = m.State([]Entity{a}, []ComponentID{})
	require.NoError(t, err)
	d = newStateTest()
	require.NoError(t, d.SetState(st))
	require.Equal(t, 1, d.EntityCount())
	require.True(t, Has[Pos](d, a))
	require.True(t, Has[Vel](d, a))

	// A list of unknown entities is not empty: it selects none.
	st, err = m.State([]Entity{999}, nil)
	require.NoError(t, err)
	d = newStateTest()
	require.NoError(t, d.SetState(st))
	require.Equal(t, 0, d.EntityCount())
}
