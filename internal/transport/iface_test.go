package transport

import (
	"net"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/require"
)

func testInterfaces() []Interface {
	return []Interface{
		{Name: "lo", Index: 1, Flags: net.FlagUp | net.FlagLoopback, Addrs: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/8"), netip.MustParsePrefix("::1/128")}},
		{Name: "eth0", Index: 2, Flags: net.FlagUp | net.FlagMulticast, Addrs: []netip.Prefix{netip.MustParsePrefix("fe80::1/64"), netip.MustParsePrefix("10.0.0.2/24")}},
		{Name: "eth1", Index: 3, Flags: net.FlagMulticast, Addrs: []netip.Prefix{netip.MustParsePrefix("10.1.0.2/24")}},
		{Name: "wg0", Index: 4, Flags: net.FlagUp, Addrs: []netip.Prefix{netip.MustParsePrefix("10.2.0.2/24")}},
		{Name: "v6", Index: 5, Flags: net.FlagUp | net.FlagMulticast, Addrs: []netip.Prefix{netip.MustParsePrefix("fe80::2/64")}},
	}
}

func names(ifs []Interface) []string {
	var out []string
	for _, i := range ifs {
		out = append(out, i.Name)
	}
	return out
}

func TestSelectInterfaces(t *testing.T) {
	all := testInterfaces()
	require.Equal(t, []string{"eth0"}, names(UsableInterfaces(all)))
	require.Equal(t, netip.MustParseAddr("10.0.0.2"), all[1].IPv4())

	got, err := SelectInterfaces(all, nil)
	require.NoError(t, err)
	require.Equal(t, []string{"eth0"}, names(got))

	// Only loopback: it is chosen.
	got, err = SelectInterfaces(all[:1], nil)
	require.NoError(t, err)
	require.Equal(t, []string{"lo"}, names(got))

	// By name and by address, loopback explicitly, duplicates removed.
	got, err = SelectInterfaces(all, []string{"lo", "10.0.0.2", "eth0", "wg0"})
	require.NoError(t, err)
	require.Equal(t, []string{"lo", "eth0", "wg0"}, names(got))

	for _, want := range []string{"eth1", "nope", "10.9.9.9", "v6"} {
		_, err = SelectInterfaces(all, []string{want})
		require.ErrorIs(t, err, ErrNoInterface, want)
	}
	_, err = SelectInterfaces(all[4:], nil)
	require.ErrorIs(t, err, ErrNoInterface)
	require.True(t, Interface{}.IsZero())
}
