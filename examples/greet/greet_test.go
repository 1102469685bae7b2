package greet_test

import (
	"bufio"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/netns"
)

// build compiles the program in dir into the test's temporary directory.
func build(t *testing.T, dir string) string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the example")
	}
	bin := filepath.Join(t.TempDir(), filepath.Base(dir))
	out, err := exec.Command(gobin, "build", "-o", bin, "./"+dir).CombinedOutput()
	require.NoError(t, err, "%s", out)
	return bin
}

// The two programs, each its own process: the subscriber prints what the publisher
// writes, and the publisher exits once the subscriber acknowledged it all.
func TestPublisherAndSubscriber(t *testing.T) {
	netns.Require(t)
	pub, sub := build(t, "publisher"), build(t, "subscriber")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	s := exec.CommandContext(ctx, sub, "-loopback", "-n", "3")
	out, err := s.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, s.Start())
	lines := bufio.NewScanner(out)
	require.True(t, lines.Scan())
	require.Equal(t, "ready", lines.Text())

	p, err := exec.CommandContext(ctx, pub, "-loopback", "-n", "3", "-every", "10ms").CombinedOutput()
	require.NoError(t, err, "publisher: %s", p)
	require.Equal(t, "wrote hello 0\nwrote hello 1\nwrote hello 2\n", string(p))

	var got []string
	for lines.Scan() {
		got = append(got, lines.Text())
	}
	require.NoError(t, s.Wait(), "the subscriber exits after three")
	require.Equal(t, []string{"got hello 0", "got hello 1", "got hello 2"}, got, strings.Join(got, "\n"))
}
