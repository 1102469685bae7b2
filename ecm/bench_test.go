package ecm

import "testing"

type benchPos struct{ X, Y float64 }

type benchVel struct{ X, Y float64 }

func benchManager(n int) *Manager {
	m := New()
	for range n {
		Create2(m, benchPos{}, benchVel{X: 1, Y: 1})
	}
	return m
}

func BenchmarkEach2Small(b *testing.B) {
	const n = 10_000
	m := benchManager(n)
	for b.Loop() {
		Each2(m, func(_ Entity, p *benchPos, v *benchVel) bool {
			p.X += v.X
			p.Y += v.Y
			return true
		})
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/entity")
}

func BenchmarkQuery2Small(b *testing.B) {
	const n = 10_000
	m := benchManager(n)
	for b.Loop() {
		q := NewQuery2[benchPos, benchVel](m)
		for q.Next() {
			p, v := q.Get()
			p.X += v.X
			p.Y += v.Y
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/entity")
}
