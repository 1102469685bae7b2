//go:build linux

package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/internal/netem"
	"github.com/ddsgo/ddsgo/internal/netns"
	"github.com/ddsgo/ddsgo/sim"
	"github.com/ddsgo/ddsgo/sim/ecm"
)

// simRoleEnv makes the test binary run a world (world) or a replica of it (replica)
// instead of the peer program: the two processes of TestReplicaAcrossLoss.
const simRoleEnv = "DDSGO_SIM_ROLE"

// replicaSteps is how many steps the world of TestReplicaAcrossLoss runs, one every
// replicaPeriod.
const (
	replicaSteps  = 300
	replicaPeriod = 10 * time.Millisecond
	replicaDomain = 7 // each process is alone in its namespace
)

// TestReplicaAcrossLoss runs a world in one process and a replica of it in another, each
// in a network namespace of its own, joined by a link that loses 20 % of the packets (and
// reorders 5 %, duplicates 1 %, delays 2 ms). The world moves every model at every step,
// creates one every 3rd step and removes one every 4th; each process prints the SHA-256 of
// its ECM's serialized state after every step. From the full state the replica starts
// with, its state must equal the world's after every step to the last.
func TestReplicaAcrossLoss(t *testing.T) {
	netns.Require(t)
	self, err := os.Executable()
	require.NoError(t, err)
	const n = 50
	ifA, ifB := fmt.Sprintf("ddsgota%d", n), fmt.Sprintf("ddsgotb%d", n)
	replica := newHost(t, "replica", ifB, fmt.Sprintf("198.18.%d.2/24", n), []string{"env", simRoleEnv + "=replica", self})
	world := newHost(t, "world", ifA, fmt.Sprintf("198.18.%d.1/24", n), []string{"env", simRoleEnv + "=world", self})
	tapA, err := netem.OpenTAP(world.pid, ifA)
	require.NoError(t, err)
	tapB, err := netem.OpenTAP(replica.pid, ifB)
	require.NoError(t, err)
	cfg := netem.Config{
		Loss: 0.20, Reorder: 0.05, Duplicate: 0.01, Delay: 2 * time.Millisecond,
		Exempt: netem.IsARP, Seed: lossSeed(t),
	}
	link := netem.Start(tapA, tapB, cfg)
	replica.release()
	world.release()
	rr := replica.p.wait(t, 90*time.Second)
	wr := world.p.wait(t, 90*time.Second)
	_ = tapA.Close()
	_ = tapB.Close()
	link.Wait()
	ab, ba := link.Stats()
	t.Logf("seed %d; world->replica %+v; replica->world %+v", cfg.Seed, ab, ba)
	require.Equal(t, 0, wr.code, "world: %s", wr.stderr)
	require.Equal(t, 0, rr.code, "replica: %s", rr.stderr)
	require.Positive(t, ab.Dropped, "the link lost packets")

	want, got := stepDigests(t, wr.stdout), stepDigests(t, rr.stdout)
	require.Len(t, want, replicaSteps, "the world's steps")
	require.Len(t, got, replicaSteps, "the replica's steps")
	// The replica starts from the first full state it gets: before it, it reports that
	// state for the steps it never saw.
	first := 1
	for first <= replicaSteps && got[first] != want[first] {
		first++
	}
	t.Logf("the replica equals the world from step %d", first)
	require.LessOrEqual(t, first, replicaSteps/2, "the replica started late")
	for s := first; s <= replicaSteps; s++ {
		require.Equal(t, want[s], got[s], "step %d: the replica differs from the world", s)
	}
}

// stepDigests reads the "STEP DIGEST" lines of a process.
func stepDigests(t *testing.T, out string) map[int]string {
	t.Helper()
	m := map[int]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Fields(line)
		require.Len(t, f, 2, "line %q", line)
		s, err := strconv.Atoi(f[0])
		require.NoError(t, err, "line %q", line)
		m[s] = f[1]
	}
	return m
}

// runSimRole runs the process of role for TestReplicaAcrossLoss.
func runSimRole(role string, stdout io.Writer) error {
	p, err := dds.NewParticipant(replicaDomain)
	if err != nil {
		return err
	}
	defer func() { _ = p.Close() }()
	w := bufio.NewWriter(stdout)
	defer func() { _ = w.Flush() }()
	switch role {
	case "world":
		return runWorld(p, w)
	case "replica":
		return runReplica(p, w)
	}
	return fmt.Errorf("unknown role %q", role)
}

// printDigest prints the step and the SHA-256 of m's serialized state.
func printDigest(w io.Writer, step int, m *ecm.Manager) error {
	b, err := m.State(nil, nil)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(b)
	_, err = fmt.Fprintln(w, step, hex.EncodeToString(sum[:]))
	return err
}

// runWorld runs replicaSteps steps of a changing world with its state published, then
// gives the replica time to get the last ones.
func runWorld(p *dds.DomainParticipant, w io.Writer) error {
	m := ecm.New()
	sim.RegisterComponents(m)
	for i := range 5 {
		ecm.Create3(m, sim.Model{}, sim.Name(fmt.Sprint("box", i)), sim.Pose{Position: sim.Vector3{Z: float64(i)}})
	}
	r, err := sim.NewRunner(m, sim.Config{})
	if err != nil {
		return err
	}
	if err := r.AddSystem(&mover{}, sim.SystemConfig{Name: "mover"}); err != nil {
		return err
	}
	pub, err := sim.NewStatePublisher(p)
	if err != nil {
		return err
	}
	defer func() { _ = pub.Close() }()
	if err := r.AddSystem(pub, sim.SystemConfig{Name: "state"}); err != nil {
		return err
	}
	time.Sleep(time.Second) // discovery across the lossy link
	for step := 1; step <= replicaSteps; step++ {
		if _, err := r.RunOnce(); err != nil {
			return err
		}
		if err := printDigest(w, step, m); err != nil {
			return err
		}
		time.Sleep(replicaPeriod)
	}
	time.Sleep(5 * time.Second) // repairs of the last steps
	return nil
}

// runReplica follows the world to its last step, printing the state at every step.
func runReplica(p *dds.DomainParticipant, w io.Writer) error {
	rep, err := sim.NewReplica(p, nil)
	if err != nil {
		return err
	}
	defer func() { _ = rep.Close() }()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for step := 1; step <= replicaSteps; step++ {
		if err := rep.WaitStep(ctx, uint64(step)); err != nil {
			return err
		}
		if err := printDigest(w, step, rep.Manager()); err != nil {
			return err
		}
	}
	return nil
}

// mover moves every model at every step, creates a model every 3rd step and removes the
// oldest every 4th.
type mover struct{ n int }

func (c *mover) Update(_ sim.UpdateInfo, m *ecm.Manager) {
	c.n++
	pose := ecm.ID[sim.Pose](m)
	ecm.Each2(m, func(e ecm.Entity, _ *sim.Model, p *sim.Pose) bool {
		p.Position.X += 0.01
		m.SetChanged(e, pose, ecm.PeriodicChange)
		return true
	})
	if c.n%3 == 0 {
		ecm.Create3(m, sim.Model{}, sim.Name(fmt.Sprint("m", c.n)), sim.Pose{Position: sim.Vector3{Y: float64(c.n)}})
	}
	if c.n%4 == 0 {
		if e, _ := ecm.First[sim.Model](m); e != ecm.Null {
			m.RequestRemoveEntity(e, true)
		}
	}
}
