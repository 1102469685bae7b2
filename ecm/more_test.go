package ecm

import (
	"testing"

	"github.com/ddsgo/ddsgo/internal/cdr"
	"github.com/stretchr/testify/require"
)

func TestReaderMethods(t *testing.T) {
	m := newTest()
	root := Create1(m, Name{"r"})
	a := Create2(m, Name{"a"}, Tag{N: 1})
	m.SetParentEntity(a, root)
	m.SetChanged(a, ID[Tag](m), PeriodicChange)
	m.RequestRemoveEntity(root, false)
	r := m.Reader()
	require.True(t, r.HasEntity(a))
	require.Equal(t, 2, r.EntityCount())
	require.Equal(t, root, r.ParentEntity(a))
	require.Equal(t, []Entity{a}, r.Children(root))
	require.Equal(t, []Entity{root, a}, r.Descendants(root))
	require.Equal(t, m.ComponentTypes(a), r.ComponentTypes(a))
	require.True(t, r.EntityHasComponentType(a, ID[Tag](m)))
	require.True(t, r.EntityMatches(a, ID[Tag](m), ID[Name](m)))
	require.True(t, r.HasComponentType(ID[Tag](m)))
	require.Equal(t, "test.Tag", r.ComponentName(ID[Tag](m)))
	id, ok := r.ComponentIDByName("test.Name")
	require.True(t, ok)
	require.Equal(t, ID[Name](m), id)
	require.Equal(t, PeriodicChange, r.ComponentState(a, ID[Tag](m)))
	require.True(t, r.HasOneTimeComponentChanges())
	require.Equal(t, []ComponentID{ID[Tag](m)}, r.ComponentTypesWithPeriodicChanges())
	require.True(t, r.HasNewEntities())
	require.True(t, r.IsNewEntity(a))
	require.True(t, r.HasEntitiesMarkedForRemoval())
	require.True(t, r.IsMarkedForRemoval(root))
	require.Equal(t, []Entity{root}, r.MarkedForRemoval())
	require.Equal(t, []Entity{a}, r.EntitiesByComponents(Match(Tag{N: 1})))
	require.Equal(t, a, r.EntityByComponents(Match(Name{"a"})))
	require.Equal(t, Null, r.EntityByComponents(Match(Name{"zz"})))
	require.Equal(t, []Entity{a}, r.ChildrenByComponents(root, Match(Name{"a"})))
	require.Nil(t, r.ChildrenByComponents(root, Match(Opaque{})))
	_, err := r.ChangedState()
	require.NoError(t, err)
}

func TestHasNewEntitiesSparse(t *testing.T) {
	m := newTest()
	Create1(m, Pos{})
	m.EndStep()
	require.False(t, m.HasNewEntities())
	require.NoError(t, m.SetEntityCreateOffset(1<<40))
	e := m.CreateEntity()
	require.True(t, m.HasNewEntities())
	m.RequestRemoveEntity(e, false)
	m.EndStep()
	require.False(t, m.HasNewEntities())
	// Entities created by SetState below the step start are new too.
	src := newTest()
	x := Create1(src, Pos{X: 1})
	st, err := src.State(nil, nil)
	require.NoError(t, err)
	dst := newTest()
	for range 5 {
		dst.CreateEntity()
	}
	dst.EndStep()
	dst.RequestRemoveEntity(x, false) // x (1) exists in dst: remove it first
	dst.EndStep()
	require.NoError(t, dst.SetState(st))
	require.True(t, dst.IsNewEntity(x))
	require.True(t, dst.HasNewEntities())
	var got []Entity
	EachNew1(dst, func(e Entity, _ *Pos) bool { got = append(got, e); return true })
	require.Equal(t, []Entity{x}, got)
	dst.EndStep()
	require.False(t, dst.IsNewEntity(x))
}

func TestRemoveAllDuringIteration(t *testing.T) {
	m := newTest()
	for range 5 {
		Create2(m, Pos{}, Vel{})
	}
	n := 0
	Each1(m, func(Entity, *Pos) bool {
		if n == 1 {
			m.RequestRemoveEntities()
			m.ProcessRemoveEntityRequests()
		}
		n++
		return true
	})
	require.Equal(t, 2, n, "removed entities are not visited")
	requireEmptyThenUsable(t, m)
}

func TestCodecReplacement(t *testing.T) {
	m := New()
	Register(m, "temp", Codec[Temp]{})
	e := Create1(m, Temp{C: 2})
	calls := 0
	c := tempCodec
	marshal := c.Marshal
	c.Marshal = func(v *Temp) ([]byte, error) { calls++; return marshal(v) }
	Register(m, "temp", c)
	st, err := m.State(nil, nil)
	require.NoError(t, err)
	require.Equal(t, 1, calls)
	d := New()
	Register(d, "", Codec[Temp]{})
	Register(d, "", c) // empty name: the default name, same registration
	require.Equal(t, 1, d.componentTypeCount())
	_ = e
	_ = st
}

type plain struct {
	B   bool
	I   int
	I16 int16
	I32 int32
	U   uint
	U8  uint8
	U16 uint16
	U32 uint32
	F32 float32
	Arr [3]uint8
	Sl  [][]string
	Nil []int64
	Sub struct{ S string }
}

func TestDefaultCodec(t *testing.T) {
	_, _, ok := defaultCodec[map[string]int]()
	require.False(t, ok)
	_, _, ok = defaultCodec[struct{ x int }]()
	require.False(t, ok)
	_, _, ok = defaultCodec[[]*int]()
	require.False(t, ok)
	_, _, ok = defaultCodec[[2]chan int]()
	require.False(t, ok)
	_, _, ok = defaultCodec[struct{ P *int }]()
	require.False(t, ok)

	enc, dec, ok := defaultCodec[plain]()
	require.True(t, ok)
	in := plain{
		B: true, I: -1, I16: -2, I32: -3, U: 4, U8: 5, U16: 6, U32: 7, F32: 8.5,
		Arr: [3]uint8{1, 2, 3}, Sl: [][]string{{"a"}, {}, {"b", "c"}}, Sub: struct{ S string }{"s"},
	}
	var e cdr.Encoder
	e.Reset(nil, cdr.CDRLE)
	enc(&e, &in)
	var d cdr.Decoder
	require.NoError(t, d.Reset(e.Bytes()))
	out := plain{Nil: []int64{1}}
	dec(&d, &out)
	require.NoError(t, d.Err())
	in.Sl[1] = nil
	require.Equal(t, in, out)
}

func TestAppendState(t *testing.T) {
	m := newStateTest()
	Create1(m, Pos{X: 1})
	prefix := []byte{9, 9}
	b, err := m.AppendState(prefix, nil, nil)
	require.NoError(t, err)
	require.Equal(t, prefix, b[:2])
	require.NoError(t, newStateTest().SetState(b[2:]))
	c, err := m.AppendChangedState(prefix[:2:2])
	require.NoError(t, err)
	d := newStateTest()
	require.NoError(t, d.SetState(c[2:]))
	require.Equal(t, 1, d.EntityCount())
}
