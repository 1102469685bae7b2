package dds_test

import (
	"net/netip"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/internal/transport/memnet"
	"github.com/ddsgo/ddsgo/rtps"
)

// memnetParticipants returns a function that adds a participant of domain 3 on its own
// host of one in-memory network.
func memnetParticipants(t *testing.T) func(name string) *dds.DomainParticipant {
	return memnetHosts(t, 1, memnet.Impairments{}, 3)
}

// memnetHosts returns a function that adds a participant of domain on its own host
// (10.0.0.1, 10.0.0.2, ...) of one in-memory network with the impairments imp, drawn
// from seed. The participants and the network are closed when the test ends.
func memnetHosts(t *testing.T, seed uint64, imp memnet.Impairments, domain int) func(name string) *dds.DomainParticipant {
	t.Helper()
	n, err := memnet.New(memnet.Config{Seed: seed, Impairments: imp})
	require.NoError(t, err)
	t.Cleanup(n.Close)
	host := 0
	return func(name string) *dds.DomainParticipant {
		host++
		h, err := n.AddHost(name, netip.AddrFrom4([4]byte{10, 0, 0, byte(host)}))
		require.NoError(t, err)
		p, err := dds.NewParticipant(domain, dds.WithNet(h), dds.WithRTPS(rtps.Config{Name: name}))
		require.NoError(t, err)
		t.Cleanup(func() { _ = p.Close() }) // a test may close it itself
		return p
	}
}
