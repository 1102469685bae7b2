package transport

import (
	"fmt"
	"net"
	"net/netip"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/netns"
	"github.com/ddsgo/ddsgo/internal/wire"
)

// The socket tests use domains 220..226, whose ports (62400 and up) lie
// above the Linux ephemeral range and are unlikely to be used by the tests
// of other packages running in the same namespace at the same time.

// open opens a Transport on the real network delivering into a new queue.
func open(t *testing.T, cfg Config) (*Transport, *Queue) {
	t.Helper()
	return openQueue(t, cfg, 64)
}

// openQueue opens a Transport on the real network delivering into a new queue of
// qlen packets; the cleanup of tb closes the transport and drains the queue.
func openQueue(tb testing.TB, cfg Config, qlen int) (*Transport, *Queue) {
	tb.Helper()
	q := NewQueue(qlen)
	cfg.Deliver = q.Push
	tr, err := Open(cfg)
	require.NoError(tb, err)
	tb.Cleanup(func() {
		require.NoError(tb, tr.Close())
		q.Drain()
	})
	return tr, q
}

// loopback returns the address of tr's user unicast socket on 127.0.0.1.
func loopback(tr *Transport) netip.AddrPort {
	return netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), tr.Port(SocketUserUnicast))
}

func TestUDPTwoParticipants(t *testing.T) {
	netns.Require(t)
	checkNoLeaks(t)
	a, qa := open(t, Config{Domain: 220})
	b, qb := open(t, Config{Domain: 220})
	require.Equal(t, 0, a.ParticipantIndex())
	require.Equal(t, 1, b.ParticipantIndex())
	require.Equal(t, uint16(62410), a.Port(SocketMetaUnicast))
	require.Equal(t, uint16(62411), a.Port(SocketUserUnicast))
	require.Equal(t, uint16(62412), b.Port(SocketMetaUnicast))
	require.Equal(t, uint16(62400), b.Port(SocketMetaMulticast))
	require.Equal(t, uint16(62401), b.Port(SocketUserMulticast))
	require.Equal(t, "lo", a.Interfaces()[0].Name)

	spdp := netip.MustParseAddrPort("239.255.0.1:62400")
	require.Equal(t, []netip.AddrPort{spdp}, a.SPDPDestinations())
	require.Equal(t, []wire.Locator{wire.LocatorFromAddrPort(spdp)}, a.MetatrafficMulticastLocators())
	require.Equal(t, []wire.Locator{wire.LocatorFromAddrPort(netip.MustParseAddrPort("239.255.0.1:62401"))}, a.DefaultMulticastLocators())
	require.Equal(t, []wire.Locator{wire.LocatorFromAddrPort(netip.MustParseAddrPort("127.0.0.1:62412"))}, b.MetatrafficUnicastLocators())
	require.Equal(t, []wire.Locator{wire.LocatorFromAddrPort(netip.MustParseAddrPort("127.0.0.1:62413"))}, b.DefaultUnicastLocators())

	// SPDP multicast both ways; each also hears itself (loopback on).
	require.NoError(t, a.WriteTo([]byte("spdp-a"), spdp))
	p := recvFrom(t, qb, SocketMetaMulticast, "spdp-a")
	require.Equal(t, a.Port(SocketMetaUnicast), p.Src.Port(), "sent from a's unicast socket")
	p.Release()
	recvFrom(t, qa, SocketMetaMulticast, "spdp-a").Release()
	require.NoError(t, b.WriteTo([]byte("spdp-b"), spdp))
	recvFrom(t, qa, SocketMetaMulticast, "spdp-b").Release()
	// b hears itself too; waited for, so that b's count below does not race its delivery
	// (1 failure in 300 runs of scripts/stress.sh).
	recvFrom(t, qb, SocketMetaMulticast, "spdp-b").Release()

	// User multicast.
	require.NoError(t, a.WriteToLocator([]byte("user-mc"), a.DefaultMulticastLocators()[0]))
	recvFrom(t, qb, SocketUserMulticast, "user-mc").Release()

	// Unicast to the announced locators.
	require.NoError(t, a.WriteToLocator([]byte("meta-uc"), b.MetatrafficUnicastLocators()[0]))
	p = recvFrom(t, qb, SocketMetaUnicast, "meta-uc")
	require.Equal(t, netip.MustParseAddrPort("127.0.0.1:62410"), p.Src)
	p.Release()
	require.NoError(t, b.WriteToLocator([]byte("user-uc"), a.DefaultUnicastLocators()[0]))
	recvFrom(t, qa, SocketUserUnicast, "user-uc").Release()

	require.ErrorIs(t, a.WriteToLocator(nil, wire.LocatorInvalid), ErrAddress)
	s := b.Stats()
	require.GreaterOrEqual(t, s.DatagramsIn, uint64(4))
	require.Equal(t, uint64(2), s.DatagramsOut)
	require.Equal(t, uint64(len("spdp-b")+len("user-uc")), s.BytesOut)
	require.Equal(t, uint64(1), a.SocketStats(SocketUserUnicast).DatagramsIn)
	require.Equal(t, uint64(1), b.SocketStats(SocketMetaUnicast).DatagramsIn)
	require.Zero(t, b.SocketStats(SocketUserUnicast).DatagramsIn)
}

func TestUDPReuseDiscoveryPort(t *testing.T) {
	netns.Require(t)
	n := UDPNet{}
	ifs, err := n.Interfaces()
	require.NoError(t, err)
	ifs, err = SelectInterfaces(ifs, nil)
	require.NoError(t, err)
	group := netip.MustParseAddrPort("239.255.0.1:62650") // domain 221
	opts := SocketOptions{MulticastLoopback: true}
	var conns []PacketConn
	for range 3 {
		c, err := n.ListenMulticastUDP(group, ifs, opts)
		require.NoError(t, err)
		defer func() { _ = c.Close() }()
		conns = append(conns, c)
	}
	tx, err := n.ListenUDP(netip.AddrPort{}, opts)
	require.NoError(t, err)
	defer func() { _ = tx.Close() }()
	_, err = tx.WriteTo([]byte("hello"), group)
	require.NoError(t, err)
	buf := make([]byte, 100)
	for _, c := range conns {
		nr, src, err := c.ReadFrom(buf)
		require.NoError(t, err)
		require.Equal(t, "hello", string(buf[:nr]))
		require.Equal(t, tx.LocalAddr().Port(), src.Port())
	}

	// A socket of another group on the same port: neither hears the other's
	// group (IP_MULTICAST_ALL is off on Linux).
	other := netip.MustParseAddrPort("239.255.0.2:62650")
	oc, err := n.ListenMulticastUDP(other, ifs, opts)
	require.NoError(t, err)
	defer func() { _ = oc.Close() }()
	_, err = tx.WriteTo([]byte("to .2"), other)
	require.NoError(t, err)
	_, err = tx.WriteTo([]byte("to .1"), group)
	require.NoError(t, err)
	nr, _, err := oc.ReadFrom(buf)
	require.NoError(t, err)
	require.Equal(t, "to .2", string(buf[:nr]))
	nr, _, err = conns[0].ReadFrom(buf)
	require.NoError(t, err)
	require.Equal(t, "to .1", string(buf[:nr]))

	_, err = n.ListenMulticastUDP(netip.MustParseAddrPort("10.0.0.1:7400"), ifs, opts)
	require.ErrorIs(t, err, ErrAddress)
}

func TestUDPParticipantIndex(t *testing.T) {
	netns.Require(t)
	checkNoLeaks(t)
	deliver := func(p *Packet) bool { return false }
	a, err := Open(Config{Domain: 222, Deliver: deliver})
	require.NoError(t, err)
	defer func() { _ = a.Close() }()
	b, err := Open(Config{Domain: 222, Deliver: deliver})
	require.NoError(t, err)
	require.Equal(t, []int{0, 1}, []int{a.ParticipantIndex(), b.ParticipantIndex()})

	// A fixed index that is taken fails; a free one works.
	_, err = Open(Config{Domain: 222, IndexMode: IndexFixed, ParticipantIndex: 1, Deliver: deliver})
	require.ErrorIs(t, err, ErrPortInUse)
	c, err := Open(Config{Domain: 222, IndexMode: IndexFixed, ParticipantIndex: 5, Deliver: deliver})
	require.NoError(t, err)
	mp, _ := MetaUnicastPort(222, 5)
	require.Equal(t, mp, c.Port(SocketMetaUnicast))
	require.NoError(t, c.Close())
	require.ErrorIs(t, c.Close(), ErrClosed)

	// The freed index 1 is reused; with all indices up to the maximum
	// taken, Open fails.
	require.NoError(t, b.Close())
	b, err = Open(Config{Domain: 222, Deliver: deliver})
	require.NoError(t, err)
	require.Equal(t, 1, b.ParticipantIndex())
	_, err = Open(Config{Domain: 222, MaxParticipantIndex: 1, Deliver: deliver})
	require.ErrorIs(t, err, ErrNoParticipantIndex)
	require.NoError(t, b.Close())

	// IndexNone: ephemeral ports.
	d, err := Open(Config{Domain: 222, IndexMode: IndexNone, DisableMulticast: true, Deliver: deliver})
	require.NoError(t, err)
	require.Equal(t, -1, d.ParticipantIndex())
	require.NotZero(t, d.Port(SocketMetaUnicast))
	require.NotEqual(t, d.Port(SocketMetaUnicast), d.Port(SocketUserUnicast))
	require.Zero(t, d.Port(SocketMetaMulticast))
	require.Empty(t, d.MetatrafficMulticastLocators())
	require.Empty(t, d.SPDPDestinations())
	require.ErrorIs(t, d.WriteTo(nil, netip.MustParseAddrPort("239.255.0.1:62900")), ErrAddress)
	require.NoError(t, d.Close())
}

func TestUDPPeers(t *testing.T) {
	netns.Require(t)
	checkNoLeaks(t)
	// Without multicast, SPDP to the static peer "127.0.0.1" reaches the
	// participant with index 2 on its well-known port.
	a, _ := open(t, Config{Domain: 223, DisableMulticast: true, Peers: []string{"127.0.0.1"}, PeerProbe: 3})
	b, qb := open(t, Config{Domain: 223, DisableMulticast: true, IndexMode: IndexFixed, ParticipantIndex: 2})
	dst := a.SPDPDestinations()
	require.Len(t, dst, 3)
	for _, d := range dst {
		require.NoError(t, a.WriteTo([]byte("spdp"), d))
	}
	p := recvFrom(t, qb, SocketMetaUnicast, "spdp")
	require.Equal(t, b.Port(SocketMetaUnicast), dst[2].Port())
	p.Release()
}

func TestUDPBatch(t *testing.T) {
	netns.Require(t)
	n := UDPNet{}
	rx, err := n.ListenUDP(netip.MustParseAddrPort("127.0.0.1:0"), SocketOptions{})
	require.NoError(t, err)
	defer func() { _ = rx.Close() }()
	tx, err := n.ListenUDP(netip.MustParseAddrPort("127.0.0.1:0"), SocketOptions{})
	require.NoError(t, err)
	defer func() { _ = tx.Close() }()
	require.Implements(t, (*BatchConn)(nil), tx)

	const count = 16
	out := make([]Message, count)
	for i := range out {
		out[i] = Message{Buf: fmt.Appendf(nil, "msg %02d", i), Addr: rx.LocalAddr()}
	}
	sent, err := WriteBatch(tx, out)
	require.NoError(t, err)
	require.Equal(t, count, sent)
	require.Equal(t, 6, out[3].N)

	in := make([]Message, 8)
	for i := range in {
		in[i].Buf = make([]byte, 64)
	}
	var got []string
	for len(got) < count {
		k, err := ReadBatch(rx, in)
		require.NoError(t, err)
		require.Positive(t, k)
		for _, m := range in[:k] {
			require.Equal(t, tx.LocalAddr(), m.Addr)
			got = append(got, string(m.Buf[:m.N]))
		}
	}
	for i := range count {
		require.Equal(t, fmt.Sprintf("msg %02d", i), got[i])
	}
}

func TestUDPBatchTransport(t *testing.T) {
	netns.Require(t)
	checkNoLeaks(t)
	a, _ := open(t, Config{Domain: 224, DisableMulticast: true})
	b, qb := open(t, Config{Domain: 224, DisableMulticast: true, ReadBatch: 8})
	dst := b.Port(SocketUserUnicast)
	ms := make([]Message, 20)
	for i := range ms {
		ms[i] = Message{Buf: fmt.Appendf(nil, "%d", i), Addr: netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), dst)}
	}
	n, err := a.WriteBatch(ms)
	require.NoError(t, err)
	require.Equal(t, 20, n)
	for i := range 20 {
		p := recv(t, qb)
		require.Equal(t, fmt.Sprint(i), string(p.Data))
		p.Release()
	}
	require.Equal(t, uint64(20), a.Stats().DatagramsOut)
	_, err = a.WriteBatch([]Message{{Addr: netip.MustParseAddrPort("239.255.0.1:7401")}})
	require.ErrorIs(t, err, ErrAddress)
}

func TestUDPQueueOverflow(t *testing.T) {
	netns.Require(t)
	checkNoLeaks(t)
	b, q := openQueue(t, Config{Domain: 225, DisableMulticast: true}, 4)
	a, _ := open(t, Config{Domain: 225, DisableMulticast: true})
	dst := b.DefaultUnicastLocators()[0]
	for range 50 {
		require.NoError(t, a.WriteToLocator([]byte("x"), dst))
	}
	require.Eventually(t, func() bool { return b.Stats().DatagramsIn == 50 }, 5*time.Second, time.Millisecond)
	s := b.Stats()
	require.Equal(t, uint64(46), s.Drops)
	require.Equal(t, 4, q.Len())
}

// The Helper goes to the receivers of the user-traffic sockets only: the engine
// queues the metatraffic to its event loop, which may keep that receiver waiting.
func TestUDPHelperOnUserSockets(t *testing.T) {
	netns.Require(t)
	checkNoLeaks(t)
	h := &helperLog{}
	b, q := openQueue(t, Config{Domain: 226, DisableMulticast: true, Helper: h}, 8)
	a, _ := open(t, Config{Domain: 226, DisableMulticast: true})
	require.NoError(t, a.WriteToLocator([]byte("meta"), b.MetatrafficUnicastLocators()[0]))
	recvFrom(t, q, SocketMetaUnicast, "meta").Release()
	h.mu.Lock()
	require.Zero(t, h.receiving)
	h.mu.Unlock()
	require.NoError(t, a.WriteToLocator([]byte("user"), b.DefaultUnicastLocators()[0]))
	recvFrom(t, q, SocketUserUnicast, "user").Release()
	require.Eventually(t, func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return h.receiving == 1 && len(h.gids) == 1
	}, 5*time.Second, time.Millisecond)
}

func TestUDPWriteAllocs(t *testing.T) {
	netns.Require(t)
	if raceEnabled {
		t.Skip("allocation counts are meaningless under the race detector")
	}
	checkNoLeaks(t)
	a, q := openQueue(t, Config{Domain: 226, DisableMulticast: true}, 8)
	dst := loopback(a)
	msg := []byte("ping")
	allocs := testing.AllocsPerRun(200, func() {
		if err := a.WriteTo(msg, dst); err != nil {
			panic(err)
		}
		p := <-q.C()
		p.Release()
	})
	require.Zero(t, allocs, "send + receive + release allocates")

	ms := make([]Message, 4)
	for i := range ms {
		ms[i] = Message{Buf: msg, Addr: dst}
	}
	allocs = testing.AllocsPerRun(100, func() {
		if _, err := a.WriteBatch(ms); err != nil {
			panic(err)
		}
		for range ms {
			(<-q.C()).Release()
		}
	})
	require.Zero(t, allocs, "batch send allocates")
}

func TestUDPClose(t *testing.T) {
	netns.Require(t)
	checkNoLeaks(t)
	c, err := UDPNet{}.ListenUDP(netip.AddrPort{}, SocketOptions{})
	require.NoError(t, err)
	r := StartReceiver(c, ReceiverConfig{Deliver: func(p *Packet) bool { return false }})
	require.Eventually(t, func() bool { return receiverGoroutines() == 1 }, 5*time.Second, time.Millisecond)
	require.NoError(t, r.Close())
	<-r.Done()
	require.Zero(t, r.Stats().Snapshot().ReadErrors)
	_, err = UDPNet{}.ListenUDP(netip.MustParseAddrPort("[::1]:0"), SocketOptions{})
	require.ErrorIs(t, err, ErrAddress)
}

func BenchmarkUDPSendReceive(b *testing.B) {
	netns.Require(b)
	for _, size := range []int{16, 1024, 16 << 10, 64000} {
		b.Run(fmt.Sprint(size), func(b *testing.B) {
			tr, q := openQueue(b, Config{Domain: 227, DisableMulticast: true}, 64)
			dst := loopback(tr)
			msg := make([]byte, size)
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				if err := tr.WriteTo(msg, dst); err != nil {
					b.Fatal(err)
				}
				(<-q.C()).Release()
			}
		})
	}
}

// ReadFrom and WriteTo (raw system calls on Linux, rawio_linux.go): the datagram and
// its source come through, a datagram longer than the buffer is truncated, a read
// waits for a datagram sent later, and a read of a closed socket fails with
// net.ErrClosed.
func TestUDPReadWrite(t *testing.T) {
	netns.Require(t)
	n := UDPNet{}
	rx, err := n.ListenUDP(netip.MustParseAddrPort("127.0.0.1:0"), SocketOptions{})
	require.NoError(t, err)
	tx, err := n.ListenUDP(netip.MustParseAddrPort("127.0.0.1:0"), SocketOptions{})
	require.NoError(t, err)
	defer func() { _ = tx.Close() }()

	big := make([]byte, 64000)
	for i := range big {
		big[i] = byte(i)
	}
	k, err := tx.WriteTo(big, rx.LocalAddr())
	require.NoError(t, err)
	require.Equal(t, len(big), k)
	buf := make([]byte, 65536)
	k, src, err := rx.ReadFrom(buf)
	require.NoError(t, err)
	require.Equal(t, tx.LocalAddr(), src)
	require.Equal(t, big, buf[:k])

	_, err = tx.WriteTo([]byte("truncated"), rx.LocalAddr())
	require.NoError(t, err)
	k, _, err = rx.ReadFrom(buf[:5])
	require.NoError(t, err)
	require.Equal(t, "trunc", string(buf[:k]))

	got := make(chan string, 1)
	go func() {
		k, _, err := rx.ReadFrom(buf)
		if err != nil {
			got <- err.Error()
			return
		}
		got <- string(buf[:k])
	}()
	time.Sleep(10 * time.Millisecond) // let it wait in the netpoller (either order passes)
	_, err = tx.WriteTo([]byte("later"), rx.LocalAddr())
	require.NoError(t, err)
	require.Equal(t, "later", <-got)

	require.NoError(t, rx.Close())
	_, _, err = rx.ReadFrom(buf)
	require.ErrorIs(t, err, net.ErrClosed)
}

// A busy poll (SocketOptions.BusyPoll, Linux) finds the datagram that arrives while
// the read polls and counts it, only on the user-traffic sockets of a Transport;
// without one a read waits in the netpoller; closing the socket ends a poll at once,
// however long it had to run.
func TestUDPBusyPoll(t *testing.T) {
	netns.Require(t)
	if runtime.GOOS != "linux" {
		t.Skip("busy polling is Linux's (rawio_linux.go)")
	}
	checkNoLeaks(t)
	n := UDPNet{}
	tx, err := n.ListenUDP(netip.MustParseAddrPort("127.0.0.1:0"), SocketOptions{})
	require.NoError(t, err)
	defer func() { _ = tx.Close() }()
	// later reads one datagram of rx, sent 20 ms after the read started.
	later := func(rx PacketConn) (string, bool, error) {
		pr := rx.(polledReader)
		go func() {
			time.Sleep(20 * time.Millisecond)
			_, _ = tx.WriteTo([]byte("later"), rx.LocalAddr())
		}()
		buf := make([]byte, 64)
		k, _, polled, err := pr.readPolled(buf)
		return string(buf[:k]), polled, err
	}
	for _, tc := range []struct {
		poll   time.Duration
		polled bool
	}{{0, false}, {time.Hour, true}} {
		rx, err := n.ListenUDP(netip.MustParseAddrPort("127.0.0.1:0"), SocketOptions{BusyPoll: tc.poll})
		require.NoError(t, err)
		got, polled, err := later(rx)
		require.NoError(t, err)
		require.Equal(t, "later", got)
		require.Equal(t, tc.polled, polled, "busy poll %v", tc.poll)
		require.NoError(t, rx.Close())
	}

	rx, err := n.ListenUDP(netip.MustParseAddrPort("127.0.0.1:0"), SocketOptions{BusyPoll: 30 * time.Second})
	require.NoError(t, err)
	errc := make(chan error, 1)
	go func() {
		_, _, err := rx.ReadFrom(make([]byte, 64))
		errc <- err
	}()
	time.Sleep(10 * time.Millisecond) // polling (either order passes)
	require.NoError(t, rx.Close())
	select {
	case err := <-errc:
		require.ErrorIs(t, err, net.ErrClosed)
	case <-time.After(10 * time.Second):
		t.Fatal("closing the socket did not end the busy poll")
	}

	b, q := openQueue(t, Config{Domain: 226, DisableMulticast: true, BusyPoll: time.Hour}, 8)
	a, _ := open(t, Config{Domain: 226, DisableMulticast: true})
	for _, kind := range []SocketKind{SocketMetaUnicast, SocketUserUnicast} {
		loc := b.MetatrafficUnicastLocators()[0]
		if kind == SocketUserUnicast {
			loc = b.DefaultUnicastLocators()[0]
		}
		for i := range 2 { // the second is read by a poll that started after the first
			time.Sleep(20 * time.Millisecond)
			require.NoError(t, a.WriteToLocator([]byte(fmt.Sprint(i)), loc))
			recvFrom(t, q, kind, fmt.Sprint(i)).Release()
		}
	}
	require.Zero(t, b.SocketStats(SocketMetaUnicast).BusyPolled)
	require.NotZero(t, b.SocketStats(SocketUserUnicast).BusyPolled)
	require.Equal(t, b.SocketStats(SocketUserUnicast).BusyPolled, b.Stats().BusyPolled)
}

// The adaptive poll (SocketOptions.Poll) on real sockets: each side of a
// request/reply that runs at full rate polls for the other's next datagram and
// finds it; the same exchange of datagrams without user data never polls, and
// neither does one paced slower than the window.
func TestUDPAdaptivePoll(t *testing.T) {
	netns.Require(t)
	if runtime.GOOS != "linux" {
		t.Skip("busy polling is Linux's (rawio_linux.go)")
	}
	checkNoLeaks(t)
	user := message(dataOf(userWriter, false))
	ack := message(&wire.Heartbeat{ReaderID: userReader, WriterID: userWriter, FirstSN: 1, LastSN: 1, Count: 1})
	// side is a socket read by its own goroutine, as a Receiver reads it.
	type side struct {
		c      PacketConn
		poll   *Poll
		in     chan []byte
		polled atomic.Int64
	}
	open := func(window time.Duration) *side {
		s := &side{poll: NewPoll(window), in: make(chan []byte, 1)}
		var err error
		s.c, err = UDPNet{}.ListenUDP(netip.MustParseAddrPort("127.0.0.1:0"), SocketOptions{Poll: s.poll})
		require.NoError(t, err)
		go func() {
			defer close(s.in)
			for {
				buf := make([]byte, 256)
				n, _, polled, err := s.c.(polledReader).readPolled(buf)
				if err != nil {
					return
				}
				if polled {
					s.polled.Add(1)
				}
				s.in <- buf[:n]
			}
		}()
		return s
	}
	send := func(from, to *side, msg []byte) {
		from.poll.Sent(msg)
		_, err := from.c.WriteTo(msg, to.c.LocalAddr())
		require.NoError(t, err)
	}
	// exchange runs rounds of request (a) and reply (b), pause before each
	// request, and returns the datagrams each side's polls found.
	exchange := func(window time.Duration, msg []byte, rounds int, pause time.Duration) (pa, pb int64) {
		a, b := open(window), open(window)
		for range rounds {
			time.Sleep(pause)
			send(a, b, msg)
			require.Equal(t, msg, <-b.in)
			send(b, a, msg)
			require.Equal(t, msg, <-a.in)
		}
		for _, s := range []*side{a, b} {
			require.NoError(t, s.c.Close())
			for range s.in { //nolint:revive // drain until the reader ends
			}
		}
		return a.polled.Load(), b.polled.Load()
	}

	const rounds = 50
	pa, pb := exchange(time.Second, user, rounds, 0)
	require.GreaterOrEqual(t, pa, int64(rounds-2), "the requester's polls found the replies")
	require.GreaterOrEqual(t, pb, int64(rounds-2), "the replier's polls found the requests")

	pa, pb = exchange(time.Second, ack, rounds, 0)
	require.Zero(t, pa+pb, "datagrams without user data earn no poll")

	pa, pb = exchange(2*time.Millisecond, user, 10, 20*time.Millisecond)
	require.Zero(t, pa+pb, "an exchange slower than the window does not poll")
}

// A busy-polled read allocates nothing either.
func TestUDPBusyPollAllocs(t *testing.T) {
	netns.Require(t)
	if raceEnabled {
		t.Skip("allocation counts are meaningless under the race detector")
	}
	checkNoLeaks(t)
	a, q := openQueue(t, Config{Domain: 226, DisableMulticast: true, BusyPoll: time.Second}, 8)
	dst := a.DefaultUnicastLocators()[0]
	msg := []byte("ping")
	allocs := testing.AllocsPerRun(200, func() {
		if err := a.WriteToLocator(msg, dst); err != nil {
			panic(err)
		}
		(<-q.C()).Release()
	})
	require.Zero(t, allocs, "send + busy-polled receive + release allocates")
	if runtime.GOOS == "linux" {
		require.NotZero(t, a.Stats().BusyPolled)
	}
}
