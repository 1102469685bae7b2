package ecm

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/ddsgo/ddsgo/internal/cdr"
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
	Encode: func(e *cdr.Encoder, v *Temp) { e.Float64(v.C) },
	Decode: func(d *cdr.Decoder, v *Temp) { v.C = d.Float64() },
	Equal:  func(a, b *Temp) bool { return a.C == b.C },
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
		rng := rand.New(rand.NewPCG(seed, 7))
		src, dst := newStateTest(), newStateTest()
		var live []Entity
		pick := func() Entity {
			if len(live) == 0 {
				return Null
			}
			return live[rng.IntN(len(live))]
		}
		for step := range 40 {
			for range rng.IntN(20) {
				switch rng.IntN(12) {
				case 0:
					live = append(live, src.CreateEntity())
				case 1:
					live = append(live, Create2(src, Pos{X: rng.Float64()}, Vel{Y: rng.Float64()}))
				case 2:
					live = append(live, Create1(src, Blob{S: "x", B: []byte{byte(step)}}))
				case 3:
					if e := pick(); e != Null {
						SetComponentData(src, e, Pos{X: float64(rng.IntN(3))})
					}
				case 4:
					if e := pick(); e != Null {
						CreateComponent(src, e, Tag{N: rng.Int32()})
					}
				case 5:
					if e := pick(); e != Null {
						RemoveComponent[Pos](src, e)
					}
				case 6:
					if e := pick(); e != Null {
						if p, ok := Get[Vel](src, e); ok {
							p.X++
							src.SetChanged(e, ID[Vel](src), PeriodicChange)
						}
					}
				case 7:
					src.SetParentEntity(pick(), pick())
				case 8:
					if e := pick(); e != Null {
						src.SetParentEntity(e, Null)
					}
				case 9:
					if e := pick(); e != Null {
						src.RequestRemoveEntity(e, rng.IntN(2) == 0)
					}
				case 10:
					if e := pick(); e != Null {
						CreateComponent(src, e, Temp{C: rng.Float64()})
						RemoveComponent[Tag](src, e)
					}
				case 11:
					if e := pick(); e != Null {
						SetComponentData(src, e, Name{S: "n"})
					}
				}
			}
			cs, err := src.ChangedState()
			require.NoError(t, err)
			require.NoError(t, dst.SetState(cs))
			src.EndStep()
			dst.EndStep()
			live = live[:0]
			EachEntity(src, nil, func(e Entity) bool { live = append(live, e); return true })
			s1, err := src.State(nil, nil)
			require.NoError(t, err)
			s2, err := dst.State(nil, nil)
			require.NoError(t, err)
			require.Equal(t, s1, s2, "seed %d step %d", seed, step)
			require.Equal(t, src.EntityCount(), dst.EntityCount())
		}
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
