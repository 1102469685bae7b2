package transport

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestMaxDatagram(t *testing.T) {
	tr := &Transport{}
	require.Zero(t, tr.MaxDatagram(), "no interface")
	tr.ifs = []Interface{{Name: "lo", MTU: 65536}}
	require.Equal(t, 65536-UDPv4Overhead, tr.MaxDatagram())
	tr.ifs = append(tr.ifs, Interface{Name: "eth0", MTU: 1500}, Interface{Name: "x", MTU: 0})
	require.Equal(t, 1500-UDPv4Overhead, tr.MaxDatagram(), "the smallest MTU in use decides")
}
