package memnet

import (
	"fmt"
	"net"
	"net/netip"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/transport"
)

var (
	addrA = netip.MustParseAddr("10.0.0.1")
	addrB = netip.MustParseAddr("10.0.0.2")
	addrC = netip.MustParseAddr("10.0.0.3")
	group = netip.MustParseAddrPort("239.255.0.1:7400")
)

func newNet(t *testing.T, cfg Config, addrs ...netip.Addr) (*Network, []*Host) {
	t.Helper()
	n, err := New(cfg)
	require.NoError(t, err)
	var hosts []*Host
	for i, a := range addrs {
		h, err := n.AddHost(fmt.Sprintf("h%d", i), a)
		require.NoError(t, err)
		hosts = append(hosts, h)
	}
	return n, hosts
}

func listen(t *testing.T, h *Host, port uint16, opts transport.SocketOptions) transport.PacketConn {
	t.Helper()
	c, err := h.ListenUDP(netip.AddrPortFrom(netip.Addr{}, port), opts)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func read(t *testing.T, c transport.PacketConn) (string, netip.AddrPort) {
	t.Helper()
	buf := make([]byte, MaxDatagram)
	n, src, err := c.ReadFrom(buf)
	require.NoError(t, err)
	return string(buf[:n]), src
}

func TestUnicast(t *testing.T) {
	n, h := newNet(t, Config{}, addrA, addrB)
	a := listen(t, h[0], 7410, transport.SocketOptions{})
	b := listen(t, h[1], 0, transport.SocketOptions{})
	require.Equal(t, uint16(32768), b.LocalAddr().Port())
	_, err := b.WriteTo([]byte("hi"), netip.AddrPortFrom(addrA, 7410))
	require.NoError(t, err)
	msg, src := read(t, a)
	require.Equal(t, "hi", msg)
	require.Equal(t, netip.AddrPortFrom(addrB, 32768), src)

	// Loopback stays on the host, with a loopback source.
	l := listen(t, h[0], 0, transport.SocketOptions{})
	_, err = l.WriteTo([]byte("lo"), netip.MustParseAddrPort("127.0.0.1:7410"))
	require.NoError(t, err)
	msg, src = read(t, a)
	require.Equal(t, "lo", msg)
	require.Equal(t, netip.AddrPortFrom(loopback, l.LocalAddr().Port()), src)

	// Nobody listening, or no such host: silently dropped.
	_, err = b.WriteTo([]byte("x"), netip.AddrPortFrom(addrA, 9999))
	require.NoError(t, err)
	_, err = b.WriteTo([]byte("x"), netip.AddrPortFrom(addrC, 7410))
	require.NoError(t, err)
	require.Equal(t, Stats{Sent: 4, Delivered: 2, NoRoute: 2}, n.Stats())

	// Exclusive ports; ReuseAddr shares them.
	_, err = h[0].ListenUDP(netip.AddrPortFrom(addrA, 7410), transport.SocketOptions{})
	require.ErrorIs(t, err, transport.ErrPortInUse)
	r1 := listen(t, h[0], 7500, transport.SocketOptions{ReuseAddr: true})
	r2 := listen(t, h[0], 7500, transport.SocketOptions{ReuseAddr: true})
	require.Equal(t, r1.LocalAddr(), r2.LocalAddr())

	// Errors.
	_, err = b.WriteTo(make([]byte, MaxDatagram+1), netip.AddrPortFrom(addrA, 7410))
	require.Error(t, err)
	_, err = b.WriteTo(nil, netip.MustParseAddrPort("[::1]:1"))
	require.ErrorIs(t, err, transport.ErrAddress)
	_, err = h[0].ListenUDP(netip.AddrPortFrom(addrB, 1), transport.SocketOptions{})
	require.ErrorIs(t, err, transport.ErrAddress)
	_, err = n.AddHost("dup", addrA)
	require.Error(t, err)
	_, err = n.AddHost("bad", netip.MustParseAddr("239.1.1.1"))
	require.Error(t, err)
	require.NoError(t, b.Close())
	require.ErrorIs(t, b.Close(), net.ErrClosed)
	_, _, err = b.ReadFrom(nil)
	require.ErrorIs(t, err, net.ErrClosed)
	_, err = b.WriteTo(nil, netip.AddrPortFrom(addrA, 7410))
	require.ErrorIs(t, err, net.ErrClosed)
}

func TestMulticastFanOut(t *testing.T) {
	n, h := newNet(t, Config{}, addrA, addrB, addrC)
	var members []transport.PacketConn
	for _, host := range h {
		ifs, err := host.Interfaces()
		require.NoError(t, err)
		ifs, err = transport.SelectInterfaces(ifs, nil)
		require.NoError(t, err)
		require.Equal(t, "eth0", ifs[0].Name)
		for range 2 { // two participants per host share the port
			c, err := host.ListenMulticastUDP(group, ifs, transport.SocketOptions{})
			require.NoError(t, err)
			t.Cleanup(func() { _ = c.Close() })
			members = append(members, c)
		}
	}
	quiet := listen(t, h[0], 0, transport.SocketOptions{})
	loud := listen(t, h[0], 0, transport.SocketOptions{MulticastLoopback: true})

	// Without loopback the sender's host hears nothing.
	_, err := quiet.WriteTo([]byte("q"), group)
	require.NoError(t, err)
	_, err = loud.WriteTo([]byte("l"), group)
	require.NoError(t, err)
	for i, m := range members {
		msg, src := read(t, m)
		if i < 2 {
			require.Equal(t, "l", msg)
		} else {
			require.Equal(t, "q", msg)
			require.Equal(t, netip.AddrPortFrom(addrA, quiet.LocalAddr().Port()), src)
			msg, _ = read(t, m)
			require.Equal(t, "l", msg)
		}
	}
	require.Equal(t, Stats{Sent: 2, Delivered: 4 + 6}, n.Stats())

	// Leaving: a closed member gets nothing.
	require.NoError(t, members[5].Close())
	_, err = loud.WriteTo([]byte("2"), group)
	require.NoError(t, err)
	require.Equal(t, uint64(15), n.Stats().Delivered)

	_, err = h[0].ListenMulticastUDP(netip.MustParseAddrPort("10.0.0.9:7400"), nil, transport.SocketOptions{})
	require.ErrorIs(t, err, transport.ErrAddress)
	_, err = h[0].ListenMulticastUDP(group, []transport.Interface{{Name: "wlan0"}}, transport.SocketOptions{})
	require.ErrorIs(t, err, transport.ErrNoInterface)
}

func TestQueueFull(t *testing.T) {
	n, h := newNet(t, Config{QueueLen: 3}, addrA)
	c := listen(t, h[0], 7410, transport.SocketOptions{})
	for range 10 {
		_, err := c.WriteTo([]byte("x"), netip.MustParseAddrPort("127.0.0.1:7410"))
		require.NoError(t, err)
	}
	require.Equal(t, Stats{Sent: 10, Delivered: 3, QueueDrops: 7}, n.Stats())
	ms := make([]transport.Message, 8)
	for i := range ms {
		ms[i].Buf = make([]byte, 8)
	}
	k, err := transport.ReadBatch(c, ms)
	require.NoError(t, err)
	require.Equal(t, 3, k)
	out := []transport.Message{{Buf: []byte("a"), Addr: netip.MustParseAddrPort("127.0.0.1:7410")}, {Buf: []byte("b"), Addr: netip.MustParseAddrPort("[::1]:7410")}}
	k, err = transport.WriteBatch(c, out)
	require.ErrorIs(t, err, transport.ErrAddress)
	require.Equal(t, 1, k)
	require.Equal(t, 1, out[0].N)
}

func TestHostDown(t *testing.T) {
	n, h := newNet(t, Config{}, addrA, addrB)
	a := listen(t, h[0], 7410, transport.SocketOptions{})
	b := listen(t, h[1], 7410, transport.SocketOptions{})
	h[1].SetDown(true)
	_, err := a.WriteTo([]byte("x"), netip.AddrPortFrom(addrB, 7410))
	require.NoError(t, err)
	_, err = b.WriteTo([]byte("x"), netip.AddrPortFrom(addrA, 7410))
	require.NoError(t, err)
	require.Equal(t, Stats{Sent: 2, NoRoute: 2}, n.Stats())
	h[1].SetDown(false)
	_, err = b.WriteTo([]byte("y"), netip.AddrPortFrom(addrA, 7410))
	require.NoError(t, err)
	msg, _ := read(t, a)
	require.Equal(t, "y", msg)
}

// impairedRun sends count numbered datagrams from A to B through an
// impaired network inside a synctest bubble and returns the stats and the
// order of arrival.
func impairedRun(t *testing.T, seed uint64, im Impairments, count int) (Stats, []int) {
	t.Helper()
	var stats Stats
	var order []int
	synctest.Test(t, func(t *testing.T) {
		n, h := newNet(t, Config{Seed: seed, Impairments: im, QueueLen: 4 * count}, addrA, addrB)
		defer n.Close()
		a := listen(t, h[0], 0, transport.SocketOptions{})
		b := listen(t, h[1], 7410, transport.SocketOptions{})
		start := time.Now()
		for i := range count {
			_, err := a.WriteTo(fmt.Append(nil, i), netip.AddrPortFrom(addrB, 7410))
			require.NoError(t, err)
			time.Sleep(100 * time.Microsecond)
		}
		time.Sleep(time.Second) // every delayed delivery is due
		require.Zero(t, n.Pending())
		stats = n.Stats()
		for range stats.Delivered {
			msg, _ := read(t, b)
			var v int
			_, err := fmt.Sscan(msg, &v)
			require.NoError(t, err)
			order = append(order, v)
		}
		require.Equal(t, start.Add(time.Duration(count)*100*time.Microsecond+time.Second), time.Now(), "fake clock")
	})
	return stats, order
}

func TestImpairmentsDeterministic(t *testing.T) {
	im := Impairments{Loss: 0.2, Duplicate: 0.1, Reorder: 0.1, Delay: 2 * time.Millisecond, Jitter: time.Millisecond}
	const count = 2000
	s1, o1 := impairedRun(t, 42, im, count)
	s2, o2 := impairedRun(t, 42, im, count)
	require.Equal(t, s1, s2)
	require.Equal(t, o1, o2)
	s3, o3 := impairedRun(t, 43, im, count)
	require.NotEqual(t, o1, o3)

	for _, s := range []Stats{s1, s3} {
		require.Equal(t, uint64(count), s.Sent)
		require.InDelta(t, 0.2*count, float64(s.Lost), 0.04*count)
		kept := count - s.Lost
		require.InDelta(t, 0.1*float64(kept), float64(s.Duplicated), 0.03*float64(kept))
		require.InDelta(t, 0.1*float64(kept+s.Duplicated), float64(s.Reordered), 0.03*float64(kept))
		require.Equal(t, kept+s.Duplicated, s.Delivered)
		require.Zero(t, s.QueueDrops)
	}
	inversions, dups := 0, 0
	seen := map[int]bool{}
	for i, v := range o1 {
		if i > 0 && v < o1[i-1] {
			inversions++
		}
		if seen[v] {
			dups++
		}
		seen[v] = true
	}
	require.Positive(t, inversions)
	require.Positive(t, dups)
	t.Logf("seed 42: %+v, %d inversions, %d duplicates received", s1, inversions, dups)
}

func TestDelayOnFakeClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n, h := newNet(t, Config{Impairments: Impairments{Delay: 50 * time.Millisecond}}, addrA, addrB)
		defer n.Close()
		a := listen(t, h[0], 0, transport.SocketOptions{})
		b := listen(t, h[1], 7410, transport.SocketOptions{})
		start := time.Now()
		_, err := a.WriteTo([]byte("late"), netip.AddrPortFrom(addrB, 7410))
		require.NoError(t, err)
		msg, _ := read(t, b) // blocks durably until the fake clock advances
		require.Equal(t, "late", msg)
		require.Equal(t, 50*time.Millisecond, time.Since(start))

		// A reader blocked in ReadFrom is released by Close.
		done := make(chan error)
		go func() {
			_, _, err := b.ReadFrom(make([]byte, 10))
			done <- err
		}()
		synctest.Wait()
		require.NoError(t, b.Close())
		require.ErrorIs(t, <-done, net.ErrClosed)

		// Deliveries to a socket closed meanwhile are dropped.
		_, err = a.WriteTo([]byte("gone"), netip.AddrPortFrom(addrB, 7410))
		require.NoError(t, err)
		time.Sleep(time.Second)
		require.Equal(t, uint64(1), n.Stats().NoRoute)
	})
}

func TestSetImpairments(t *testing.T) {
	n, _ := newNet(t, Config{})
	require.Error(t, n.SetImpairments(Impairments{Loss: 1.5}))
	require.Error(t, n.SetImpairments(Impairments{Delay: -1}))
	require.NoError(t, n.SetImpairments(Impairments{Loss: 1}))
	_, err := New(Config{Impairments: Impairments{Duplicate: -0.1}})
	require.Error(t, err)
}

// A Transport runs unchanged over memnet: two participants on two hosts
// discover each other by multicast, under synctest.
func TestTransportOverMemnet(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n, h := newNet(t, Config{Seed: 1, Impairments: Impairments{Delay: time.Millisecond}}, addrA, addrB)
		defer n.Close()
		var ts []*transport.Transport
		var qs []*transport.Queue
		for _, host := range h {
			q := transport.NewQueue(16)
			tr, err := transport.Open(transport.Config{Domain: 7, Net: host, Deliver: q.Push})
			require.NoError(t, err)
			require.Equal(t, 0, tr.ParticipantIndex())
			ts = append(ts, tr)
			qs = append(qs, q)
		}
		require.Equal(t, "udpv4/10.0.0.2:9160", ts[1].MetatrafficUnicastLocators()[0].String())
		require.NoError(t, ts[0].WriteTo([]byte("spdp"), ts[0].SPDPDestinations()[0]))
		p := <-qs[1].C()
		require.Equal(t, "spdp", string(p.Data))
		require.Equal(t, transport.SocketMetaMulticast, p.Kind)
		require.Equal(t, netip.AddrPortFrom(addrA, 9160), p.Src)
		p.Release()
		p = <-qs[0].C() // own announcement, looped back
		require.Equal(t, addrA, p.Src.Addr())
		p.Release()
		require.NoError(t, ts[1].WriteToLocator([]byte("reply"), ts[0].MetatrafficUnicastLocators()[0]))
		p = <-qs[0].C()
		require.Equal(t, "reply", string(p.Data))
		require.Equal(t, transport.SocketMetaUnicast, p.Kind)
		p.Release()
		for i, tr := range ts {
			require.NoError(t, tr.Close())
			qs[i].Drain()
		}
	})
}

// Participant index allocation and interface selection of a Transport on
// one memnet host.
func TestTransportIndexAndInterfaces(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n, h := newNet(t, Config{}, addrA)
		defer n.Close()
		deliver := func(p *transport.Packet) bool { p.Release(); return true }
		a, err := transport.Open(transport.Config{Net: h[0], Deliver: deliver})
		require.NoError(t, err)
		b, err := transport.Open(transport.Config{Net: h[0], Deliver: deliver, Interfaces: []string{"eth0", "127.0.0.1"}})
		require.NoError(t, err)
		require.Equal(t, []int{0, 1}, []int{a.ParticipantIndex(), b.ParticipantIndex()})
		var locs []string
		for _, l := range b.MetatrafficUnicastLocators() {
			locs = append(locs, l.String())
		}
		require.Equal(t, []string{"udpv4/10.0.0.1:7412", "udpv4/127.0.0.1:7412"}, locs)
		// A multicast send leaves once per interface.
		require.NoError(t, b.WriteTo([]byte("spdp"), b.SPDPDestinations()[0]))
		require.Equal(t, uint64(2), b.Stats().DatagramsOut)
		synctest.Wait()
		require.Equal(t, uint64(2), a.SocketStats(transport.SocketMetaMulticast).DatagramsIn)
		_, err = transport.Open(transport.Config{Net: h[0], Deliver: deliver, Interfaces: []string{"wlan0"}})
		require.ErrorIs(t, err, transport.ErrNoInterface)
		require.NoError(t, a.Close())
		require.NoError(t, b.Close())
	})
}
