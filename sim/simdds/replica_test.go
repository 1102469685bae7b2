package simdds

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/sim"
)

// churner moves every model (marking the change, as systems must for it to be
// published), creates a model every 5th step and removes the oldest every 7th.
type churner struct{ n int }

func (c *churner) Update(_ sim.UpdateInfo, m *ecm.Manager) {
	c.n++
	pose := ecm.ID[sim.Pose](m)
	ecm.Each2(m, func(e ecm.Entity, _ *sim.Model, p *sim.Pose) bool {
		p.Position.X += 0.01
		m.SetChanged(e, pose, ecm.PeriodicChange)
		return true
	})
	if c.n%5 == 0 {
		e := ecm.Create3(m, sim.Model{}, sim.Name("m"), sim.Pose{Position: sim.Vector3{Y: float64(c.n)}})
		ecm.CreateComponent(m, e, sim.Tags{"spawned"})
	}
	if c.n%7 == 0 {
		if e, _ := ecm.First[sim.Model](m); e != ecm.Null {
			m.RequestRemoveEntity(e, true)
		}
	}
}

// A replica in another participant follows the world: after every step its ECM's
// state equals the world's, through moves, creations and removals, and a replica that
// joins late starts from the latest full state.
func TestReplica(t *testing.T) {
	world, node := loopbackParticipant(t, 63), loopbackParticipant(t, 63)
	m := ecm.New()
	sim.RegisterComponents(m)
	w := ecm.Create2(m, sim.World{}, sim.Name("demo"))
	for i := range 3 {
		e := ecm.Create3(m, sim.Model{}, sim.Name("box"), sim.Pose{Position: sim.Vector3{Z: float64(i)}})
		m.SetParentEntity(e, w)
	}
	r, pub := publishedRunner(t, m, world, &churner{})

	rep, err := NewReplica(node, nil)
	require.NoError(t, err)
	waitMatched(t, pub.changes.w, 1)
	waitMatched(t, pub.full.w, 1)

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for step := uint64(1); step <= 40; step++ {
		_, err := r.RunOnce()
		require.NoError(t, err)
		require.NoError(t, rep.WaitStep(ctx, step))
		requireSameState(t, m, rep.Manager(), step)
	}

	late, err := NewReplica(node, nil)
	require.NoError(t, err)
	waitMatched(t, pub.changes.w, 2)
	for step := uint64(41); step <= 45; step++ {
		_, err := r.RunOnce()
		require.NoError(t, err)
	}
	require.NoError(t, late.WaitStep(ctx, 45))
	requireSameState(t, m, late.Manager(), 45)

	// Steady state: the step's changes are serialized and written without allocating
	// (measured with no reader matched, so that neither the network nor a history waiting
	// for acknowledgments counts).
	require.NoError(t, late.Close())
	require.NoError(t, rep.Close())
	waitMatched(t, pub.changes.w, 0)
	if !raceEnabled {
		info := sim.UpdateInfo{SimTime: time.Hour}
		pose := ecm.ID[sim.Pose](m)
		e, _ := ecm.First[sim.Model](m)
		m.EndStep()
		require.Zero(t, testing.AllocsPerRun(100, func() {
			m.SetChanged(e, pose, ecm.PeriodicChange)
			pub.PostUpdate(info, m.Reader())
			m.EndStep()
		}))
	}
}

// publishedRunner returns a runner of m on a virtual clock with sys and a
// StatePublisher on p, which is closed when the test ends.
func publishedRunner(t testing.TB, m *ecm.Manager, p *dds.DomainParticipant, sys sim.System) (*sim.Runner, *StatePublisher) {
	t.Helper()
	r, err := sim.NewRunner(m, sim.Config{Clock: newFakeClock()})
	require.NoError(t, err)
	require.NoError(t, r.AddSystem(sys, sim.SystemConfig{Name: "world"}))
	pub, err := NewStatePublisher(p)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, pub.Close()) })
	require.NoError(t, r.AddSystem(pub, sim.SystemConfig{Name: "state"}))
	return r, pub
}

func requireSameState(t *testing.T, world, replica *ecm.Manager, step uint64) {
	t.Helper()
	want, err := world.State(nil, nil)
	require.NoError(t, err)
	got, err := replica.State(nil, nil)
	require.NoError(t, err)
	require.True(t, bytes.Equal(want, got), "step %d: the replica differs (%d entities, world %d)", step, replica.EntityCount(), world.EntityCount())
}

// waitMatched waits until w has n matched readers (at least n, for n > 0).
func waitMatched(t testing.TB, w *dds.DataWriter[worldState], n int32) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ms, err := w.PublicationMatchedStatus()
		require.NoError(t, err)
		if ms.CurrentCount == n || (n > 0 && ms.CurrentCount > n) {
			return
		}
		require.True(t, time.Now().Before(deadline), "not matched")
		time.Sleep(5 * time.Millisecond)
	}
}

// modelMover moves every model and changes nothing else: after the first step the
// world's structure stays the same, so only a request brings a late replica a full state.
type modelMover struct{}

func (modelMover) Update(_ sim.UpdateInfo, m *ecm.Manager) {
	pose := ecm.ID[sim.Pose](m)
	ecm.Each2(m, func(e ecm.Entity, _ *sim.Model, p *sim.Pose) bool {
		p.Position.X += 0.01
		m.SetChanged(e, pose, ecm.PeriodicChange)
		return true
	})
}

// A replica that joins a running world whose structure no longer changes asks for a full
// state, and then follows the world step by step.
func TestReplicaAsksForState(t *testing.T) {
	world, node := loopbackParticipant(t, 65), loopbackParticipant(t, 65)
	m := ecm.New()
	sim.RegisterComponents(m)
	for i := range 3 {
		ecm.Create3(m, sim.Model{}, sim.Name("box"), sim.Pose{Position: sim.Vector3{Z: float64(i)}})
	}
	r, pub := publishedRunner(t, m, world, modelMover{})
	for range 30 {
		_, err := r.RunOnce()
		require.NoError(t, err)
	}

	rep, err := NewReplica(node, nil)
	require.NoError(t, err)
	defer func() { require.NoError(t, rep.Close()) }()
	waitMatched(t, pub.changes.w, 1)
	// The world keeps stepping until the replica has caught up: it asks when it sees the
	// gap, and the publisher answers after its next step.
	step := uint64(30)
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := r.RunOnce()
		require.NoError(t, err)
		step++
		time.Sleep(2 * time.Millisecond)
		got, err := rep.sync(step)
		require.NoError(t, err)
		if got == step {
			break
		}
		require.True(t, time.Now().Before(deadline), "the replica is at step %d of %d", got, step)
	}
	requireSameState(t, m, rep.Manager(), step)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for end := step + 20; step < end; {
		_, err := r.RunOnce()
		require.NoError(t, err)
		step++
		require.NoError(t, rep.WaitStep(ctx, step))
		requireSameState(t, m, rep.Manager(), step)
	}
}

// The entities topic follows the world's structure: an instance per entity, written when
// it is created and disposed when it is removed, with its scoped name and kind; a reader
// that joins late gets the live entities only.
func TestWorldEntities(t *testing.T) {
	world, node := loopbackParticipant(t, 72), loopbackParticipant(t, 72)
	m := ecm.New()
	sim.RegisterComponents(m)
	w := ecm.Create2(m, sim.World{}, sim.Name("demo"))
	robot := ecm.Create3(m, sim.Model{}, sim.Name("robot"), sim.Pose{})
	m.SetParentEntity(robot, w)
	arm := ecm.Create3(m, sim.Link{}, sim.Name("arm"), sim.Pose{})
	m.SetParentEntity(arm, robot)
	r, _ := publishedRunner(t, m, world, &churner{})

	// follow takes what a reader of the entities topic received into seen.
	follow := func(rd *dds.DataReader[WorldEntity], seen map[uint64]WorldEntity) {
		for {
			data, infos, err := rd.Take(context.Background(), dds.NoWait())
			if err != nil {
				return
			}
			for i, info := range infos {
				// A disposed instance may come as its last sample, marked NOT_ALIVE, or
				// as an invalid sample; either way the key is filled in.
				if info.ValidData && info.InstanceState == dds.AliveInstanceState {
					seen[data[i].Entity] = data[i]
				} else {
					delete(seen, data[i].Entity)
				}
			}
		}
	}
	want := func() map[uint64]WorldEntity {
		es := map[uint64]WorldEntity{}
		rd := m.Reader()
		for _, e := range rd.EntitiesByComponents() {
			es[uint64(e)] = WorldEntity{Entity: uint64(e), Name: scopedName(rd, e, nil), Kind: entityKind(rd, e)}
		}
		return es
	}
	entities := func() (*dds.DataReader[WorldEntity], map[uint64]WorldEntity) {
		topic, err := dds.NewTopic[WorldEntity](node, entitiesTopic)
		require.NoError(t, err)
		rd, err := dds.NewReader(topic, fullQos...)
		require.NoError(t, err)
		return rd, map[uint64]WorldEntity{}
	}
	early, seen := entities()
	_, err := r.RunOnce()
	require.NoError(t, err)
	waitFor(t, func() bool { follow(early, seen); return len(seen) == 3 }, func() string { return fmt.Sprintf("the first step's entities: %d", len(seen)) })
	require.Equal(t, WorldEntity{Entity: uint64(arm), Name: "robot::arm", Kind: "link"}, seen[uint64(arm)])
	require.Equal(t, WorldEntity{Entity: uint64(w), Name: "demo", Kind: "world"}, seen[uint64(w)])
	for range 40 { // the churner removes the robot and its arm at step 7
		_, err := r.RunOnce()
		require.NoError(t, err)
	}
	waitFor(t, func() bool { follow(early, seen); return len(seen) == len(want()) }, func() string {
		return fmt.Sprintf("the early reader follows: %d of %d entities", len(seen), len(want()))
	})
	require.Equal(t, want(), seen)
	require.NotContains(t, seen, uint64(arm))

	late, lateSeen := entities()
	waitFor(t, func() bool { follow(late, lateSeen); return len(lateSeen) == len(want()) }, func() string { return fmt.Sprintf("the late reader: %d of %d", len(lateSeen), len(want())) })
	require.Equal(t, want(), lateSeen, "a late reader gets the live entities")
}
