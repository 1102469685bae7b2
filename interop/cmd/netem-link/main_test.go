//go:build linux

package main

import (
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/ddsgo/ddsgo/internal/testutil"
	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) { testutil.Main(m) }

func TestParse(t *testing.T) {
	o, err := parse(strings.Fields("-a 1 -b 2 -loss 0.2 -delay 5ms -seed 9"), io.Discard)
	require.NoError(t, err)
	require.Equal(t, 0.2, o.cfg.Loss)
	require.Equal(t, uint64(9), o.cfg.Seed)
	require.Equal(t, "ddsgota", o.ifA)
	for _, bad := range []string{"", "-a 1", "-a 1 -b 2 -loss 2", "-a 1 -b 2 x"} {
		_, err := parse(strings.Fields(bad), io.Discard)
		require.Error(t, err, bad)
	}
}

// The link refuses the command's own namespace: nothing is created there.
func TestOwnNamespace(t *testing.T) {
	pid := strings.Fields("-a " + itoa(os.Getpid()) + " -b " + itoa(os.Getpid()))
	require.Equal(t, 1, run(pid, io.Discard, nil))
}

func itoa(n int) string { return strconv.Itoa(n) }
