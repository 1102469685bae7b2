package simdds

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/sim"
)

// worldMover moves every model of the world each step and marks the change, as a physics
// system would.
type worldMover struct{ pose ecm.ComponentID }

func (w *worldMover) Update(_ sim.UpdateInfo, m *ecm.Manager) {
	ecm.Each2(m, func(e ecm.Entity, _ *sim.Model, p *sim.Pose) bool {
		p.Position.X += 0.001
		m.SetChanged(e, w.pose, ecm.PeriodicChange)
		return true
	})
}

// benchWorld returns a world of n models named m0, m1, ...
func benchWorld(n int) *ecm.Manager {
	m := ecm.New()
	sim.RegisterComponents(m)
	w := ecm.Create2(m, sim.World{}, sim.Name("bench"))
	for i := range n {
		e := ecm.Create3(m, sim.Model{}, sim.Name(fmt.Sprintf("m%d", i)), sim.Pose{Orientation: sim.Quaternion{W: 1}})
		m.SetParentEntity(e, w)
	}
	return m
}

// BenchmarkStep measures a step of a world of n moving models at 100 Hz (10 ms steps)
// without publication, and with the world published: /clock, /tf every step and the
// state streams (no reader: what publishing costs the world, not the network). The
// goal: publication costs at most 20 % of the step. ns/op is one step.
func BenchmarkStep(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		for _, publish := range []bool{false, true} {
			b.Run(fmt.Sprintf("models=%d/publish=%v", n, publish), func(b *testing.B) {
				m := benchWorld(n)
				r, err := sim.NewRunner(m, sim.Config{StepSize: 10 * time.Millisecond, Clock: newFakeClock()})
				if err != nil {
					b.Fatal(err)
				}
				if err := r.AddSystem(&worldMover{pose: ecm.ID[sim.Pose](m)}, sim.SystemConfig{Name: "move"}); err != nil {
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
					for _, s := range []sim.System{clock, tf, state} {
						if err := r.AddSystem(s, sim.SystemConfig{}); err != nil {
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

// BenchmarkReplicaLag measures how far a replica in another participant (over loopback
// UDP) trails a world of n moving models stepped at 100 Hz in real time with the state
// streams published: for each step, the time from the end of the world's step to the
// replica having applied it. It reports the p50 and p99 in milliseconds and in steps
// (10 ms each). One op is one step.
func BenchmarkReplicaLag(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("models=%d", n), func(b *testing.B) {
			m := benchWorld(n)
			world, node := loopbackParticipant(b, 75), loopbackParticipant(b, 75)
			r, pub := publishedRunner(b, m, world, &worldMover{pose: ecm.ID[sim.Pose](m)})
			rep, err := NewReplica(node, nil)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = rep.Close() })
			waitMatched(b, pub.changes.w, 1)
			waitMatched(b, pub.full.w, 1)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if _, err := r.RunOnce(); err != nil || rep.WaitStep(ctx, 1) != nil {
				b.Fatal("the replica did not start", err)
			}
			const period = 10 * time.Millisecond
			done := make([]time.Time, b.N+2)
			ready := make(chan uint64, b.N+1)
			lags := make([]time.Duration, 0, b.N)
			follow := make(chan error, 1)
			go func() {
				for step := range ready {
					if err := rep.WaitStep(ctx, step); err != nil {
						follow <- err
						return
					}
					lags = append(lags, time.Since(done[step]))
				}
				follow <- nil
			}()
			b.ResetTimer()
			next := time.Now()
			for i := range b.N {
				step := uint64(i + 2)
				if _, err := r.RunOnce(); err != nil {
					b.Fatal(err)
				}
				done[step] = time.Now()
				ready <- step
				next = next.Add(period)
				time.Sleep(time.Until(next))
			}
			close(ready)
			if err := <-follow; err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			slices.Sort(lags)
			p50, p99 := lags[len(lags)/2], lags[len(lags)*99/100]
			b.ReportMetric(float64(p50.Microseconds())/1000, "lag-p50-ms")
			b.ReportMetric(float64(p99.Microseconds())/1000, "lag-p99-ms")
			b.ReportMetric(float64(p99)/float64(period), "lag-p99-steps")
		})
	}
}
