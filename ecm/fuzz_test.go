package ecm

import (
	"testing"
)

// fuzzSeeds returns valid states: a full state and a changed state.
func fuzzSeeds() [][]byte {
	m := newStateTest()
	a := Create2(m, Pos{X: 1}, Blob{B: []byte{1}, F: []float32{2}, S: "x"})
	b := Create2(m, Temp{C: 3}, Name{"b"})
	m.SetParentEntity(b, a)
	full, _ := m.State(nil, nil)
	m.EndStep()
	SetComponentData(m, a, Pos{X: 2})
	RemoveComponent[Name](m, b)
	m.RequestRemoveEntity(a, false)
	Create1(m, Tag{N: 1})
	changed, _ := m.ChangedState()
	return [][]byte{full, changed}
}

// FuzzSetState checks that SetState never panics on malformed input, and that a state it
// accepts leaves a manager whose own state is accepted again.
func FuzzSetState(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m := newStateTest()
		if err := m.SetState(b); err != nil {
			if m.EntityCount() != 0 {
				t.Fatalf("rejected state changed the manager: %v", err)
			}
			return
		}
		m.EndStep()
		s, err := m.State(nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		m2 := newStateTest()
		if err := m2.SetState(s); err != nil {
			t.Fatalf("own state rejected: %v", err)
		}
		m2.EndStep()
		s2, _ := m2.State(nil, nil)
		if string(s) != string(s2) {
			t.Fatal("state does not round-trip")
		}
	})
}
