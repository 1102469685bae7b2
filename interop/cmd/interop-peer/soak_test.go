package main

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ddsgo/ddsgo/internal/netns"
	"github.com/stretchr/testify/require"
)

// TestSoak runs interop/soak.sh for one minute: long-lived ddsgo peers, Cyclone DDS,
// Fast DDS and ddsgo peers joining and leaving, and the verdict that the long-lived
// peers' heap, goroutines, fds and sockets stayed flat and every peer succeeded. The
// ten-minute run and its figures are in docs/benchmarks.md.
func TestSoak(t *testing.T) {
	netns.Require(t)
	if testing.Short() {
		t.Skip("a one-minute run")
	}
	peerBinary(t, "cyclone")
	peerBinary(t, "fastdds")
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	t.Parallel()
	script, err := filepath.Abs(filepath.Join("..", "..", "soak.sh"))
	require.NoError(t, err)
	out, err := exec.Command(script, "-d", "60s", "-i", "2s").CombinedOutput()
	t.Logf("soak.sh -d 60s -i 2s:\n%s", out)
	require.NoError(t, err)
}
