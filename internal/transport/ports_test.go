package transport

import (
	"net/netip"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPorts(t *testing.T) {
	for _, tc := range []struct {
		domain, index          int
		spdp, user, meta, data uint16
	}{
		{0, 0, 7400, 7401, 7410, 7411},
		{0, 1, 7400, 7401, 7412, 7413},
		{7, 0, 9150, 9151, 9160, 9161},
		{7, 3, 9150, 9151, 9166, 9167},
		{232, 0, 65400, 65401, 65410, 65411},
	} {
		p, err := SPDPMulticastPort(tc.domain)
		require.NoError(t, err)
		require.Equal(t, tc.spdp, p)
		p, err = UserMulticastPort(tc.domain)
		require.NoError(t, err)
		require.Equal(t, tc.user, p)
		p, err = MetaUnicastPort(tc.domain, tc.index)
		require.NoError(t, err)
		require.Equal(t, tc.meta, p)
		p, err = UserUnicastPort(tc.domain, tc.index)
		require.NoError(t, err)
		require.Equal(t, tc.data, p)
	}
}

func TestPortRanges(t *testing.T) {
	m := DefaultPortMapping()
	require.Equal(t, 232, m.MaxDomainID())
	require.Equal(t, DefaultMaxDomainID, m.MaxDomainID())
	for _, d := range []int{-1, 233, 1 << 30} {
		_, err := SPDPMulticastPort(d)
		require.ErrorIs(t, err, ErrDomainID, d)
		_, err = MetaUnicastPort(d, 0)
		require.ErrorIs(t, err, ErrDomainID, d)
	}
	// Domain 232: 65535-65400-11 = 124 → index 62 is the last.
	require.Equal(t, 62, m.MaxParticipantIndex(232))
	p, err := UserUnicastPort(232, 62)
	require.NoError(t, err)
	require.Equal(t, uint16(65535), p)
	_, err = UserUnicastPort(232, 63)
	require.ErrorIs(t, err, ErrParticipantIndex)
	_, err = MetaUnicastPort(0, -1)
	require.ErrorIs(t, err, ErrParticipantIndex)
	require.Equal(t, -1, m.MaxParticipantIndex(300))
	require.Equal(t, 0, PortMapping{}.MaxDomainID())
	require.Equal(t, netip.MustParseAddr("239.255.0.1"), DefaultMulticastGroup)
}

func TestParsePeer(t *testing.T) {
	for in, want := range map[string]Peer{
		"10.0.0.1":       {Host: "10.0.0.1"},
		" 10.0.0.1:7410": {Host: "10.0.0.1", Port: 7410},
		"host.example":   {Host: "host.example"},
		"h:1":            {Host: "h", Port: 1},
	} {
		p, err := ParsePeer(in)
		require.NoError(t, err, in)
		require.Equal(t, want, p, in)
	}
	require.Equal(t, "10.0.0.1:7410", Peer{Host: "10.0.0.1", Port: 7410}.String())
	require.Equal(t, "h", Peer{Host: "h"}.String())
	for _, in := range []string{"", ":7410", "h:0", "h:65536", "h:x", "[::1]:7410", "a:b:c", "h h"} {
		_, err := ParsePeer(in)
		require.ErrorIs(t, err, ErrAddress, in)
	}
}

func TestResolvePeers(t *testing.T) {
	c := Config{Domain: 1, Peers: []string{"10.0.0.1", "10.0.0.2:9999"}, PeerProbe: 3, Deliver: func(*Packet) bool { return false }}
	require.NoError(t, c.normalize())
	got, err := c.resolvePeers()
	require.NoError(t, err)
	require.Equal(t, []netip.AddrPort{
		netip.MustParseAddrPort("10.0.0.1:7660"),
		netip.MustParseAddrPort("10.0.0.1:7662"),
		netip.MustParseAddrPort("10.0.0.1:7664"),
		netip.MustParseAddrPort("10.0.0.2:9999"),
	}, got)
	c.Peers = []string{"::1"}
	_, err = c.resolvePeers()
	require.ErrorIs(t, err, ErrAddress)
}

func TestConfigValidate(t *testing.T) {
	deliver := func(*Packet) bool { return false }
	for _, c := range []Config{
		{},
		{Domain: 233, Deliver: deliver},
		{MulticastGroup: netip.MustParseAddr("10.0.0.1"), Deliver: deliver},
		{IndexMode: IndexFixed, ParticipantIndex: -1, Deliver: deliver},
		{IndexMode: 9, Deliver: deliver},
		{MulticastTTL: 256, Deliver: deliver},
	} {
		_, err := Open(c)
		require.Error(t, err, "%+v", c)
	}
	require.Equal(t, "auto", IndexAuto.String())
	require.Equal(t, "fixed", IndexFixed.String())
	require.Equal(t, "none", IndexNone.String())
	require.Equal(t, "IndexMode(9)", IndexMode(9).String())
}
