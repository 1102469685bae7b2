package transport_test

import (
	"fmt"
	"net"
	"net/netip"

	"github.com/ddsgo/ddsgo/internal/transport"
)

// The well-known ports of domain 7 for participant index 2.
func ExamplePortMapping() {
	m := transport.DefaultPortMapping()
	spdp, _ := m.SPDPMulticastPort(7)
	user, _ := m.UserMulticastPort(7)
	meta, _ := m.MetaUnicastPort(7, 2)
	data, _ := m.UserUnicastPort(7, 2)
	fmt.Println(spdp, user, meta, data)
	_, err := m.SPDPMulticastPort(233)
	fmt.Println(err)
	// Output:
	// 9150 9151 9164 9165
	// transport: domain id out of range: 233 not in 0..232
}

// Interfaces are chosen by name or address; with no choice, loopback is
// used only when nothing else is up.
func ExampleSelectInterfaces() {
	all := []transport.Interface{
		{Name: "lo", Index: 1, Flags: net.FlagUp | net.FlagLoopback, Addrs: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/8")}},
		{Name: "eth0", Index: 2, Flags: net.FlagUp | net.FlagMulticast, Addrs: []netip.Prefix{netip.MustParsePrefix("192.168.1.10/24")}},
	}
	auto, _ := transport.SelectInterfaces(all, nil)
	byAddr, _ := transport.SelectInterfaces(all, []string{"127.0.0.1"})
	onlyLo, _ := transport.SelectInterfaces(all[:1], nil)
	fmt.Println(auto[0].Name, byAddr[0].Name, onlyLo[0].Name)
	// Output: eth0 lo lo
}

// A static peer with or without a port.
func ExampleParsePeer() {
	for _, s := range []string{"10.0.0.5:7410", "10.0.0.6"} {
		p, err := transport.ParsePeer(s)
		fmt.Println(p.Host, p.Port, err)
	}
	// Output:
	// 10.0.0.5 7410 <nil>
	// 10.0.0.6 0 <nil>
}

// The receive path: a receive goroutine pushes packets into a bounded
// queue; the consumer releases each packet when done with it. Here a packet
// is pushed by hand.
func ExampleQueue() {
	q := transport.NewQueue(1)
	p := transport.GetPacket()
	p.Data = append(p.Data, "RTPS"...)
	fmt.Println(q.Push(p))
	extra := transport.GetPacket()
	fmt.Println(q.Push(extra)) // full: the receiver would drop and count it
	extra.Release()

	got := <-q.C()
	fmt.Println(string(got.Data), len(got.Buffer()))
	got.Release()
	// Output:
	// true
	// false
	// RTPS 65536
}
