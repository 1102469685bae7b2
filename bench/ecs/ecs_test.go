package ecs

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/ecm"
	"github.com/mlange-42/ark/ecs"
)

type Position struct{ X, Y float64 }

type Velocity struct{ X, Y float64 }

const (
	bigN   = 1_000_000 // Each2, Create2, GetRandom
	smallN = 100_000   // AddRemove, Remove
)

// perEntity reports the wall time per entity (ns/entity) and the process CPU time per
// entity (cpu-ns/entity) since start: on a shared machine the CPU time is the steadier.
func perEntity(b *testing.B, n int, start time.Duration) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N)/float64(n), "cpu-ns/entity")
}

func newECM(n int) (*ecm.Manager, []ecm.Entity) {
	m := ecm.New()
	es := make([]ecm.Entity, n)
	for i := range es {
		es[i] = ecm.Create2(m, Position{}, Velocity{X: 1, Y: 1})
	}
	return m, es
}

func newArk(n int) (*ecs.World, []ecs.Entity) {
	w := ecs.NewWorld()
	mp := ecs.NewMap2[Position, Velocity](w)
	es := make([]ecs.Entity, n)
	for i := range es {
		es[i] = mp.NewEntity(&Position{}, &Velocity{X: 1, Y: 1})
	}
	return w, es
}

func BenchmarkEach2(b *testing.B) {
	b.Run("ecm", func(b *testing.B) {
		m, _ := newECM(bigN)
		start := cpuTime()
		for b.Loop() {
			ecm.Each2(m, func(_ ecm.Entity, p *Position, v *Velocity) bool {
				p.X += v.X
				p.Y += v.Y
				return true
			})
		}
		perEntity(b, bigN, start)
	})
	b.Run("ecm-query", func(b *testing.B) {
		m, _ := newECM(bigN)
		start := cpuTime()
		for b.Loop() {
			q := ecm.NewQuery2[Position, Velocity](m)
			for q.Next() {
				p, v := q.Get()
				p.X += v.X
				p.Y += v.Y
			}
		}
		perEntity(b, bigN, start)
	})
	b.Run("ark", func(b *testing.B) {
		w, _ := newArk(bigN)
		f := ecs.NewFilter2[Position, Velocity](w).Register()
		start := cpuTime()
		for b.Loop() {
			q := f.Query()
			for q.Next() {
				p, v := q.Get()
				p.X += v.X
				p.Y += v.Y
			}
		}
		perEntity(b, bigN, start)
	})
}

func BenchmarkCreate2(b *testing.B) {
	b.Run("ecm", func(b *testing.B) {
		start := cpuTime()
		for b.Loop() {
			m := ecm.New()
			for range bigN {
				ecm.Create2(m, Position{}, Velocity{X: 1})
			}
		}
		perEntity(b, bigN, start)
	})
	b.Run("ark", func(b *testing.B) {
		start := cpuTime()
		for b.Loop() {
			w := ecs.NewWorld()
			mp := ecs.NewMap2[Position, Velocity](w)
			for range bigN {
				mp.NewEntity(&Position{}, &Velocity{X: 1})
			}
		}
		perEntity(b, bigN, start)
	})
}

func BenchmarkAddRemove(b *testing.B) {
	b.Run("ecm", func(b *testing.B) {
		m := ecm.New()
		es := make([]ecm.Entity, smallN)
		for i := range es {
			es[i] = ecm.Create1(m, Position{})
		}
		start := cpuTime()
		for b.Loop() {
			for _, e := range es {
				ecm.CreateComponent(m, e, Velocity{X: 1})
			}
			for _, e := range es {
				ecm.RemoveComponent[Velocity](m, e)
			}
		}
		perEntity(b, smallN, start)
	})
	b.Run("ark", func(b *testing.B) {
		w := ecs.NewWorld()
		pm := ecs.NewMap[Position](w)
		vm := ecs.NewMap[Velocity](w)
		es := make([]ecs.Entity, smallN)
		for i := range es {
			es[i] = pm.NewEntity(&Position{})
		}
		start := cpuTime()
		for b.Loop() {
			for _, e := range es {
				vm.Add(e, &Velocity{X: 1})
			}
			for _, e := range es {
				vm.Remove(e)
			}
		}
		perEntity(b, smallN, start)
	})
}

func BenchmarkGetRandom(b *testing.B) {
	b.Run("ecm", func(b *testing.B) {
		m, es := newECM(bigN)
		rand.New(rand.NewPCG(1, 2)).Shuffle(len(es), func(i, j int) { es[i], es[j] = es[j], es[i] })
		var sum float64
		start := cpuTime()
		for b.Loop() {
			for _, e := range es {
				p, _ := ecm.Get[Position](m, e)
				sum += p.X
			}
		}
		perEntity(b, bigN, start)
		_ = sum
	})
	b.Run("ecm-accessor", func(b *testing.B) {
		m, es := newECM(bigN)
		rand.New(rand.NewPCG(1, 2)).Shuffle(len(es), func(i, j int) { es[i], es[j] = es[j], es[i] })
		pos := ecm.NewAccessor[Position](m)
		var sum float64
		start := cpuTime()
		for b.Loop() {
			for _, e := range es {
				p, _ := pos.Get(e)
				sum += p.X
			}
		}
		perEntity(b, bigN, start)
		_ = sum
	})
	b.Run("ark", func(b *testing.B) {
		w, es := newArk(bigN)
		rand.New(rand.NewPCG(1, 2)).Shuffle(len(es), func(i, j int) { es[i], es[j] = es[j], es[i] })
		pm := ecs.NewMap[Position](w)
		var sum float64
		start := cpuTime()
		for b.Loop() {
			for _, e := range es {
				sum += pm.Get(e).X
			}
		}
		perEntity(b, bigN, start)
		_ = sum
	})
}

func BenchmarkRemove(b *testing.B) {
	b.Run("ecm", func(b *testing.B) {
		var cpu time.Duration
		for b.Loop() {
			b.StopTimer()
			m, es := newECM(smallN)
			rand.New(rand.NewPCG(1, 2)).Shuffle(len(es), func(i, j int) { es[i], es[j] = es[j], es[i] })
			t := cpuTime()
			b.StartTimer()
			for _, e := range es {
				m.RequestRemoveEntity(e, false)
			}
			m.ProcessRemoveEntityRequests()
			cpu += cpuTime() - t
		}
		perEntity(b, smallN, cpuTime()-cpu)
	})
	b.Run("ark", func(b *testing.B) {
		var cpu time.Duration
		for b.Loop() {
			b.StopTimer()
			w, es := newArk(smallN)
			rand.New(rand.NewPCG(1, 2)).Shuffle(len(es), func(i, j int) { es[i], es[j] = es[j], es[i] })
			t := cpuTime()
			b.StartTimer()
			for _, e := range es {
				w.RemoveEntity(e)
			}
			cpu += cpuTime() - t
		}
		perEntity(b, smallN, cpuTime()-cpu)
	})
}
