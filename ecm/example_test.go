package ecm_test

import (
	"fmt"

	"github.com/ddsgo/ddsgo/ecm"
)

type Position struct{ X, Y float64 }

type Velocity struct{ X, Y float64 }

func Example() {
	m := ecm.New()
	ecm.Register(m, "example.Position", ecm.Codec[Position]{})
	ecm.Register(m, "example.Velocity", ecm.Codec[Velocity]{})

	world := m.CreateEntity()
	for i := range 3 {
		e := ecm.Create2(m, Position{}, Velocity{X: float64(i + 1)})
		m.SetParentEntity(e, world)
	}

	// One step: move everything that has a position and a velocity.
	ecm.Each2(m, func(e ecm.Entity, p *Position, v *Velocity) bool {
		p.X += v.X
		return true
	})
	m.EndStep()

	ecm.EachRO1(m.Reader(), func(e ecm.Entity, p Position) bool {
		fmt.Println(e, p.X, m.ParentEntity(e))
		return true
	})
	// Output:
	// 2 1 1
	// 3 2 1
	// 4 3 1
}

// A query loop is the fastest way to visit entities; the state of a manager can be
// applied to another.
func ExampleNewQuery2() {
	m := ecm.New()
	for i := range 3 {
		ecm.Create2(m, Position{X: float64(i)}, Velocity{X: 10})
	}
	q := ecm.NewQuery2[Position, Velocity](m)
	for q.Next() {
		p, v := q.Get()
		p.X += v.X
	}

	state, err := m.State(nil, nil)
	if err != nil {
		panic(err)
	}
	replica := ecm.New()
	ecm.ID[Position](replica) // component types are matched by name
	if err := replica.SetState(state); err != nil {
		panic(err)
	}
	ecm.EachRO1(replica, func(e ecm.Entity, p Position) bool {
		fmt.Println(e, p.X)
		return true
	})
	// Output:
	// 1 10
	// 2 11
	// 3 12
}
