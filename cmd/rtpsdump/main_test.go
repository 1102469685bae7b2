package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/golden"
	"github.com/ddsgo/ddsgo/internal/testutil"
)

func TestMain(m *testing.M) { testutil.Main(m) }

// The embedded capture decodes without a single error and shows both vendors' participants
// and the endpoints they announced.
func TestDumpEmbedded(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, dump(&out, "embedded", defaultCapture, -1))
	s := out.String()
	require.Contains(t, s, "Participants (4):")
	require.Contains(t, s, "Fast DDS RTPS 2.3 lease 20s")
	require.Contains(t, s, "Cyclone DDS RTPS 2.1 lease 10s")
	require.Contains(t, s, `writer topic "InteropTopic" type "interop::Sample" reliable transient-local`)
	require.Contains(t, s, "Errors: 0\n")
	require.Contains(t, s, "DATA(p) 000100c2")
}

// Every golden capture decodes without errors.
func TestDumpGolden(t *testing.T) {
	for _, name := range golden.Files() {
		dgs, err := golden.Datagrams(name)
		require.NoError(t, err)
		require.NotEmpty(t, dgs)
		raw, err := os.ReadFile(filepath.Join("..", "..", "internal", "golden", "captures", name))
		require.NoError(t, err)
		var out bytes.Buffer
		require.NoError(t, dump(&out, name, raw, 0))
		require.True(t, strings.HasSuffix(out.String(), "Errors: 0\n"), "%s:\n%s", name, out.String())
	}
}
