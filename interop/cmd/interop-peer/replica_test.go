//go:build linux

package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/netem"
	"github.com/ddsgo/ddsgo/internal/netns"
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
