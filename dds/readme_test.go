package dds_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// README.md's program is Example's hello, but for the options hello takes: the code a
// newcomer copies is the code the example test runs.
func TestReadmeProgramIsTested(t *testing.T) {
	body := func(file, start string) string {
		b, err := os.ReadFile(file)
		require.NoError(t, err)
		s := string(b)
		i := strings.Index(s, start)
		require.GreaterOrEqual(t, i, 0, "%s has %q", file, start)
		j := strings.Index(s[i:], "\n}\n")
		require.Greater(t, j, 0)
		return s[i+len(start) : i+j]
	}
	readme := body("../README.md", "func hello() error {")
	example := body("example_test.go", "func hello(opts ...dds.Option) error {")
	require.Equal(t, readme, strings.ReplaceAll(example, "(0, opts...)", "(0)"))
}
