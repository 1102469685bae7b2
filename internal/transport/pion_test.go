package transport

import (
	"net/netip"
	"testing"
	"testing/synctest"
	"time"

	"github.com/pion/logging"
	"github.com/pion/transport/v3/vnet"
	"github.com/stretchr/testify/require"
)

// vnetRun sends count datagrams from one vnet host to another through a
// router whose receiving NIC loses 20% of the chunks, seeded, inside a
// synctest bubble, and returns how many arrived.
func vnetRun(t *testing.T, seed int64, count int) uint64 {
	var got uint64
	synctest.Test(t, func(t *testing.T) {
		lf := logging.NewDefaultLoggerFactory()
		lf.DefaultLogLevel = logging.LogLevelDisabled
		router, err := vnet.NewRouter(&vnet.RouterConfig{CIDR: "10.0.0.0/24", MinDelay: time.Millisecond, LoggerFactory: lf})
		require.NoError(t, err)
		na, err := vnet.NewNet(&vnet.NetConfig{StaticIPs: []string{"10.0.0.1"}})
		require.NoError(t, err)
		nb, err := vnet.NewNet(&vnet.NetConfig{StaticIPs: []string{"10.0.0.2"}})
		require.NoError(t, err)
		require.NoError(t, router.AddNet(na))
		lossy, err := vnet.NewLossFilterWithOptions(nb, 20, vnet.WithLossSeed(seed))
		require.NoError(t, err)
		require.NoError(t, router.AddNet(lossy))
		require.NoError(t, router.Start())
		defer func() { require.NoError(t, router.Stop()) }()

		deliver := func(p *Packet) bool { p.Release(); return true }
		_, err = Open(Config{Net: NewPionNet(na), Deliver: deliver})
		require.ErrorIs(t, err, ErrMulticastUnsupported)
		a, err := Open(Config{Net: NewPionNet(na), DisableMulticast: true, Peers: []string{"10.0.0.2"}, Deliver: deliver})
		require.NoError(t, err)
		defer func() { _ = a.Close() }()
		b, err := Open(Config{Net: NewPionNet(nb), DisableMulticast: true, Deliver: deliver})
		require.NoError(t, err)
		defer func() { _ = b.Close() }()
		require.Equal(t, "udpv4/10.0.0.2:7410", b.MetatrafficUnicastLocators()[0].String())
		dst := a.SPDPDestinations()[0]
		require.Equal(t, netip.MustParseAddrPort("10.0.0.2:7410"), dst)
		for range count {
			require.NoError(t, a.WriteTo([]byte("spdp"), dst))
			time.Sleep(time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond)
		got = b.SocketStats(SocketMetaUnicast).DatagramsIn
	})
	return got
}

func TestPionVnet(t *testing.T) {
	const count = 500
	got := vnetRun(t, 7, count)
	require.InDelta(t, 0.8*count, float64(got), 0.06*count)
	t.Logf("%d of %d arrived", got, count)
	require.Equal(t, got, vnetRun(t, 7, count), "same seed, same losses")
}

func TestPionVnetPorts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n, err := vnet.NewNet(&vnet.NetConfig{})
		require.NoError(t, err)
		pn := NewPionNet(n)
		ifs, err := pn.Interfaces()
		require.NoError(t, err)
		require.True(t, ifs[0].IsLoopback()) // vnet names it "lo0String"
		c, err := pn.ListenUDP(netip.MustParseAddrPort("127.0.0.1:7410"), SocketOptions{})
		require.NoError(t, err)
		_, err = pn.ListenUDP(netip.MustParseAddrPort("127.0.0.1:7410"), SocketOptions{})
		require.ErrorIs(t, err, ErrPortInUse)
		_, err = pn.ListenUDP(netip.MustParseAddrPort("[::1]:7410"), SocketOptions{})
		require.ErrorIs(t, err, ErrAddress)
		require.NoError(t, c.Close())
		require.Error(t, c.Close())
		_, err = c.WriteTo(nil, c.LocalAddr())
		require.Error(t, err)
	})
}
