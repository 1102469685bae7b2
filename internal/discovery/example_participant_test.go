package discovery_test

import (
	"context"
	"fmt"
	"net/netip"
	"strings"
	"time"

	rtpsconfig "github.com/ddsgo/ddsgo/rtps"

	"github.com/ddsgo/ddsgo/internal/discovery"
	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/transport/memnet"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/qos"
)

// matched signals the first match of an endpoint.
type matched chan struct{}

func (m matched) OnMatch(wire.GUID, *discovery.EndpointData) { close(m) }
func (m matched) OnUnmatch(wire.GUID, wire.GUID)             {}
func (m matched) OnIncompatible(wire.GUID, *discovery.EndpointData, []qos.PolicyID) {
}

// Two participants on an in-memory network discover each other, match a
// reliable writer with a reader and exchange samples.
func ExampleNewParticipant() {
	n, _ := memnet.New(memnet.Config{Seed: 1})
	defer n.Close()
	ha, _ := n.AddHost("a", netip.MustParseAddr("10.0.0.1"))
	hb, _ := n.AddHost("b", netip.MustParseAddr("10.0.0.2"))
	a, _ := discovery.NewParticipant(discovery.Config{Domain: 0, Net: ha, Config: rtpsconfig.Config{Name: "a"}})
	defer func() { _ = a.Close() }()
	b, _ := discovery.NewParticipant(discovery.Config{Domain: 0, Net: hb, Config: rtpsconfig.Config{Name: "b"}})
	defer func() { _ = b.Close() }()

	wq := qos.DefaultOffered() // RELIABLE
	rq := qos.DefaultRequested()
	rq.Reader.Reliability.Kind = qos.Reliable
	rq.Reader.History = qos.History{Kind: qos.KeepAll}
	wq.Writer.History = qos.History{Kind: qos.KeepAll}

	got := make(chan string, 3)
	_, _ = b.NewReader(discovery.EndpointConfig{Topic: "hello", Type: "Text", Requested: rq},
		func(s *rtps.Sample) bool {
			got <- strings.TrimRight(string(s.Payload[4:]), "\x00") // DATA pads to 4 octets
			return true
		})
	m := make(matched)
	w, _ := a.NewWriter(discovery.EndpointConfig{Topic: "hello", Type: "Text", Offered: wq, Listener: m})
	<-m
	time.Sleep(50 * time.Millisecond) // let the reader match the writer too
	for _, s := range []string{"one", "two", "three"} {
		_, _ = w.Write(context.Background(), rtps.Change{Payload: append([]byte{0, 1, 0, 0}, s...)})
	}
	for range 3 {
		fmt.Println(<-got)
	}
	fmt.Println(len(a.Participants()), len(b.Participants()))
	// Output:
	// one
	// two
	// three
	// 1 1
}
