package discovery_test

import (
	"fmt"
	"net/netip"
	"time"

	"github.com/ddsgo/ddsgo/internal/discovery"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/qos"
)

func Example() {
	prefix := wire.GuidPrefix{0x01, 0xdd, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1}

	// SPDP: announce a participant and decode the announcement.
	p := discovery.ParticipantData{
		GUIDPrefix:      prefix,
		ProtocolVersion: wire.ProtocolVersion25,
		VendorID:        wire.VendorDDSGo,
		DomainID:        7,
		HasDomainID:     true,
		MetatrafficUnicastLocators: []wire.Locator{
			wire.LocatorFromAddrPort(netip.MustParseAddrPort("127.0.0.1:9160")),
		},
		LeaseDuration:    10 * time.Second,
		BuiltinEndpoints: wire.BuiltinParticipantAnnouncer | wire.BuiltinParticipantDetector,
	}
	payload := p.Append(nil)
	got, err := discovery.ParseParticipantData(payload)
	if err != nil {
		panic(err)
	}
	fmt.Println(got.GUID(), got.DomainID, got.LeaseDuration, got.MetatrafficUnicastLocators[0])

	// SEDP: a reliable transient-local writer and a best-effort reader.
	wq := qos.DefaultDataWriterQos()
	wq.Durability.Kind = qos.TransientLocal
	w := discovery.EndpointData{
		GUID:      wire.GUID{Prefix: prefix, Entity: wire.EntityIDFromUint32(0x00000102)},
		TopicName: "InteropTopic",
		TypeName:  "interop::Sample",
		Offered:   qos.Offered{Writer: wq, Publisher: qos.DefaultPublisherQos()},
	}
	r := discovery.EndpointData{
		GUID:      wire.GUID{Prefix: prefix, Entity: wire.EntityIDFromUint32(0x00000207)},
		TopicName: "InteropTopic",
		TypeName:  "interop::Sample",
		Requested: qos.DefaultRequested(),
	}
	remote, err := discovery.ParseEndpointData(w.Append(nil))
	if err != nil {
		panic(err)
	}
	fmt.Println(remote.IsWriter(), remote.Keyed(), remote.Offered.Writer.Reliability.Kind, remote.Offered.Writer.Durability.Kind)
	fmt.Println(discovery.Match(&remote, &r).Matched())

	// A reader asking for more than the writer offers.
	r.Requested.Reader.Durability.Kind = qos.Persistent
	m := discovery.Match(&remote, &r)
	fmt.Println(m.Reason, m.Incompatible)
	// Output:
	// 01dd0000.00000001.00000001:000001c1 7 10s udpv4/127.0.0.1:9160
	// true true RELIABLE TRANSIENT_LOCAL
	// true
	// incompatible QoS [Durability]
}
