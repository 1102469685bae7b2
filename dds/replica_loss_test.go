package dds_test

import (
	"bytes"
	"context"
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/internal/transport/memnet"
	"github.com/ddsgo/ddsgo/rtps"
	"github.com/ddsgo/ddsgo/sim"
	"github.com/ddsgo/ddsgo/sim/simdds"
)

// churn moves every model each step (marking the change), creates a model every 5th
// step and removes the oldest every 7th.
type churn struct{ n int }

func (c *churn) Update(_ sim.UpdateInfo, m *ecm.Manager) {
	c.n++
	pose := ecm.ID[sim.Pose](m)
	ecm.Each2(m, func(e ecm.Entity, _ *sim.Model, p *sim.Pose) bool {
		p.Position.X += 0.01
		m.SetChanged(e, pose, ecm.PeriodicChange)
		return true
	})
	if c.n%5 == 0 {
		ecm.Create3(m, sim.Model{}, sim.Name("m"), sim.Pose{Position: sim.Vector3{Y: float64(c.n)}})
	}
	if c.n%7 == 0 {
		if e, _ := ecm.First[sim.Model](m); e != ecm.Null {
			m.RequestRemoveEntity(e, true)
		}
	}
}

// A replica in another participant follows a world across a network that loses 20 % of
// the datagrams (and reorders and duplicates some): after every one of 150 steps, with
// moves, creations and removals, its ECM's serialized state equals the world's.
func TestReplicaUnderLoss(t *testing.T) {
	n, err := memnet.New(memnet.Config{Seed: 20, Impairments: memnet.Impairments{
		Loss: 0.20, Duplicate: 0.01, Reorder: 0.05, Delay: 200 * time.Microsecond,
	}})
	require.NoError(t, err)
	t.Cleanup(n.Close)
	participant := func(name, addr string) *dds.DomainParticipant {
		h, err := n.AddHost(name, netip.MustParseAddr(addr))
		require.NoError(t, err)
		p, err := dds.NewParticipant(7, dds.WithNet(h), dds.WithRTPS(rtps.Config{Name: name}))
		require.NoError(t, err)
		t.Cleanup(func() { require.NoError(t, p.Close()) })
		return p
	}
	world, node := participant("world", "10.0.0.1"), participant("replica", "10.0.0.2")

	m := ecm.New()
	sim.RegisterComponents(m)
	for i := range 5 {
		ecm.Create3(m, sim.Model{}, sim.Name("box"), sim.Pose{Position: sim.Vector3{Z: float64(i)}})
	}
	r, err := sim.NewRunner(m, sim.Config{})
	require.NoError(t, err)
	require.NoError(t, r.AddSystem(&churn{}, sim.SystemConfig{Name: "churn"}))
	pub, err := simdds.NewStatePublisher(world)
	require.NoError(t, err)
	defer func() { require.NoError(t, pub.Close()) }()
	require.NoError(t, r.AddSystem(pub, sim.SystemConfig{Name: "state"}))
	rep, err := simdds.NewReplica(node, nil)
	require.NoError(t, err)
	defer func() { require.NoError(t, rep.Close()) }()

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for step := uint64(1); step <= 150; step++ {
		_, err := r.RunOnce()
		require.NoError(t, err)
		require.NoError(t, rep.WaitStep(ctx, step), "step %d", step)
		want, err := m.State(nil, nil)
		require.NoError(t, err)
		got, err := rep.Manager().State(nil, nil)
		require.NoError(t, err)
		require.True(t, bytes.Equal(want, got), "step %d: the replica differs", step)
	}
	st := n.Stats()
	t.Logf("network: %+v", st)
	require.Positive(t, st.Lost, "the network lost datagrams")
}
