package sim

import (
	"fmt"
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/sim/ecm"
)

// worldMover moves every model of the world each step and marks the change, as a physics
// system would.
type worldMover struct{ pose ecm.ComponentID }

func (w *worldMover) Update(_ UpdateInfo, m *ecm.Manager) {
	ecm.Each2(m, func(e ecm.Entity, _ *Model, p *Pose) bool {
		p.Position.X += 0.001
		m.SetChanged(e, w.pose, ecm.PeriodicChange)
		return true
	})
}

// BenchmarkStep measures a step of a world of n moving models at 100 Hz (10 ms steps)
// without publication, and with the world published: /clock, /tf every step and the
// state streams (no reader: what publishing costs the world, not the network). The
// goal: publication costs at most 20 % of the step. ns/op is one step.
func BenchmarkStep(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		for _, publish := range []bool{false, true} {
			b.Run(fmt.Sprintf("models=%d/publish=%v", n, publish), func(b *testing.B) {
				m := ecm.New()
				RegisterComponents(m)
				w := ecm.Create2(m, World{}, Name("bench"))
				for i := range n {
					e := ecm.Create3(m, Model{}, Name(fmt.Sprintf("m%d", i)), Pose{Orientation: identityQuaternion})
					m.SetParentEntity(e, w)
				}
				r, err := NewRunner(m, Config{StepSize: 10 * time.Millisecond, Clock: newFakeClock()})
				if err != nil {
					b.Fatal(err)
				}
				if err := r.AddSystem(&worldMover{pose: ecm.ID[Pose](m)}, SystemConfig{Name: "move"}); err != nil {
					b.Fatal(err)
				}
				if publish {
					p := loopbackParticipant(b, 74)
					clock, err := NewClockPublisher(p)
					if err != nil {
						b.Fatal(err)
					}
					tf, err := NewTfPublisher(p, 0)
					if err != nil {
						b.Fatal(err)
					}
					state, err := NewStatePublisher(p)
					if err != nil {
						b.Fatal(err)
					}
					for _, s := range []System{clock, tf, state} {
						if err := r.AddSystem(s, SystemConfig{}); err != nil {
							b.Fatal(err)
						}
					}
					b.Cleanup(func() { _, _, _ = clock.Close(), tf.Close(), state.Close() })
				}
				for range 3 { // the first steps publish the full state and build the caches
					if _, err := r.RunOnce(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportAllocs()
				b.ResetTimer()
				for range b.N {
					if _, err := r.RunOnce(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
			})
		}
	}
}
