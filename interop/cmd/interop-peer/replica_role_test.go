package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"time"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/sim"
	"github.com/ddsgo/ddsgo/sim/simdds"
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
	pub, err := simdds.NewStatePublisher(p)
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
	rep, err := simdds.NewReplica(p, nil)
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
