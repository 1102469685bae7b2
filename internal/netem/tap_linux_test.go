package netem

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// OpenTAP never creates an interface in the caller's own network namespace.
func TestOpenTAPRefusesOwnNamespace(t *testing.T) {
	f, err := OpenTAP(os.Getpid(), "ddsgotest0")
	require.Error(t, err)
	require.Nil(t, f)
	require.Contains(t, err.Error(), "shares the caller's network namespace")
}

func TestOpenTAPNoSuchProcess(t *testing.T) {
	_, err := OpenTAP(1<<30, "ddsgotest0")
	require.Error(t, err)
}
