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

// docs/lifecycle.md and docs/waitset.md show the examples the tests run, as they are.
func TestWalkThroughsAreTested(t *testing.T) {
	src, err := os.ReadFile("example_walk_test.go")
	require.NoError(t, err)
	for doc, fn := range map[string]string{
		"../docs/lifecycle.md": "func Example_lifecycle() {",
		"../docs/waitset.md":   "func Example_waitSet() {",
	} {
		s := string(src)
		i := strings.Index(s, fn)
		require.GreaterOrEqual(t, i, 0, fn)
		j := strings.Index(s[i:], "\n}\n")
		require.Greater(t, j, 0)
		b, err := os.ReadFile(doc)
		require.NoError(t, err)
		require.Contains(t, string(b), s[i:i+j+2], "%s shows %s as the test has it", doc, fn)
	}
}
