package memnet_test

import (
	"fmt"
	"net/netip"

	"github.com/ddsgo/ddsgo/internal/transport"
	"github.com/ddsgo/ddsgo/internal/transport/memnet"
)

// Two hosts: one joins the SPDP group, the other announces itself to it.
func Example() {
	n, _ := memnet.New(memnet.Config{Seed: 1})
	a, _ := n.AddHost("a", netip.MustParseAddr("10.0.0.1"))
	b, _ := n.AddHost("b", netip.MustParseAddr("10.0.0.2"))
	group := netip.MustParseAddrPort("239.255.0.1:7400")

	ifs, _ := a.Interfaces()
	ifs, _ = transport.SelectInterfaces(ifs, nil)
	rx, _ := a.ListenMulticastUDP(group, ifs, transport.SocketOptions{})
	defer func() { _ = rx.Close() }()
	tx, _ := b.ListenUDP(netip.MustParseAddrPort("0.0.0.0:7410"), transport.SocketOptions{})
	defer func() { _ = tx.Close() }()

	_, _ = tx.WriteTo([]byte("hello"), group)
	buf := make([]byte, 100)
	k, src, _ := rx.ReadFrom(buf)
	fmt.Println(string(buf[:k]), src, ifs[0].Name)
	fmt.Printf("%+v\n", n.Stats())
	// Output:
	// hello 10.0.0.2:7410 eth0
	// {Sent:1 Delivered:1 Lost:0 Duplicated:0 Reordered:0 QueueDrops:0 NoRoute:0}
}
