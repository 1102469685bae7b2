package netns

import (
	"errors"
	"net"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCheck(t *testing.T) {
	lo := net.Interface{Name: "lo", Flags: net.FlagUp | net.FlagLoopback}
	eth := net.Interface{Name: "eth0", Flags: net.FlagUp | net.FlagMulticast}
	ethDown := net.Interface{Name: "eth1", Flags: net.FlagMulticast}
	veth := net.Interface{Name: "ddsgo0", Flags: net.FlagUp | net.FlagMulticast}
	list := func(ifs ...net.Interface) func() ([]net.Interface, error) {
		return func() ([]net.Interface, error) { return ifs, nil }
	}
	require.Empty(t, check("1", list(lo)))
	require.Empty(t, check("1", list(lo, ethDown, veth)))
	require.Contains(t, check("", list(lo)), "DDSGO_NETNS")
	require.Contains(t, check("1", list(lo, eth)), "eth0 is up")
	require.Contains(t, check("1", func() ([]net.Interface, error) { return nil, errors.New("boom") }), "boom")
}

func TestRequire(t *testing.T) {
	ok, reason := InNamespace()
	Require(t) // skips outside a namespace
	require.True(t, ok, reason)
}
