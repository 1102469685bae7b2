// Command flood sends a domain's SPDP multicast group forged discovery data: SPDP
// announcements of participants that do not exist, each a new GUID prefix, and
// optionally SEDP announcements of writers of theirs, at a fixed rate for a while. It
// is the hostile load of bench/flood.sh, which measures what a participant of ddsgo,
// Cyclone DDS or Fast DDS holds under it. Run it only inside a network namespace of
// your own (interop/netns.sh): it sends multicast.
//
//	flood [-domain N] [-participants N] [-endpoints K] [-rate HZ] [-duration DUR] [-lease DUR] [-to HOST:PORT]...
//
// The forged participants say they live at 127.0.0.1:9 (discard): nothing answers
// what the victim sends them. With -endpoints K, each participant's SPDP
// announcement is followed by K SEDP DATA(w) of its writers, on topic "forged", the
// last with a HEARTBEAT of the SEDP writer.
// Every -to address gets everything the group gets (a victim's unicast
// metatraffic port, for one that does not listen to the group).
//
// The forged participants claim a vendor id that no vendor has (forgedVendor): Cyclone
// DDS takes no DATA from a reliable writer of its own vendor before that writer's first
// HEARTBEAT, so a flood that claimed to be Cyclone DDS would confirm no endpoint in a
// Cyclone DDS victim and measure nothing there.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"net/netip"
	"os"
	"strings"
	"time"

	"github.com/ddsgo/ddsgo/internal/discovery"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/qos"
)

// forgedVendor is a vendor id the OMG has not assigned: every stack treats its data
// as a stranger's.
var forgedVendor = wire.VendorID{0x01, 0x7e}

type addrs []netip.AddrPort

func (a *addrs) String() string { return fmt.Sprint(*a) }

func (a *addrs) Set(s string) error {
	ap, err := netip.ParseAddrPort(s)
	if err != nil {
		return err
	}
	*a = append(*a, ap)
	return nil
}

func main() {
	domain := flag.Int("domain", 0, "DDS domain: the SPDP group's port is 7400 + 250 domain")
	parts := flag.Int("participants", 10000, "forged participants (distinct GUID prefixes), sent in turn")
	eps := flag.Int("endpoints", 0, "forged writers per participant (SEDP DATA(w) after its SPDP)")
	rate := flag.Int("rate", 10000, "datagrams per second")
	dur := flag.Duration("duration", 20*time.Second, "how long to flood")
	lease := flag.Duration("lease", 100*time.Second, "the forged participants' lease")
	var to addrs
	flag.Var(&to, "to", "also send everything to HOST:PORT (repeatable)")
	flag.Parse()
	if *parts <= 0 || *rate <= 0 || *eps < 0 {
		fmt.Fprintln(os.Stderr, "flood: -participants and -rate must be positive, -endpoints not negative")
		os.Exit(2)
	}
	group := netip.AddrPortFrom(netip.AddrFrom4([4]byte{239, 255, 0, 1}), uint16(7400+250**domain))
	dests := append(addrs{group}, to...)
	conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		fmt.Fprintln(os.Stderr, "flood:", err)
		os.Exit(1)
	}
	defer func() { _ = conn.Close() }()

	hole := wire.LocatorFromAddrPort(netip.MustParseAddrPort("127.0.0.1:9"))
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	prefixes := make([]wire.GuidPrefix, *parts)
	for i := range prefixes {
		for j := range prefixes[i] {
			prefixes[i][j] = byte(rng.Uint32())
		}
		prefixes[i][0], prefixes[i][1] = forgedVendor[0], forgedVendor[1]
	}
	// One participant's datagrams in a round: its SPDP announcement, then its writers
	// and their HEARTBEAT.
	msgs := func(prefix wire.GuidPrefix, round int) [][]byte {
		hdr := wire.Header{Version: wire.ProtocolVersion25, Vendor: forgedVendor, Prefix: prefix}.Append(nil)
		pd := discovery.ParticipantData{
			GUIDPrefix: prefix, ProtocolVersion: wire.ProtocolVersion25, VendorID: forgedVendor,
			LeaseDuration: *lease, BuiltinEndpoints: wire.BuiltinParticipantAnnouncer | wire.BuiltinParticipantDetector |
				wire.BuiltinPublicationsAnnouncer | wire.BuiltinPublicationsDetector |
				wire.BuiltinSubscriptionsAnnouncer | wire.BuiltinSubscriptionsDetector,
			MetatrafficUnicastLocators: []wire.Locator{hole}, DefaultUnicastLocators: []wire.Locator{hole},
			Qos: qos.DefaultDomainParticipantQos(),
		}
		d := wire.Data{DataFlag: true, ReaderID: wire.EntityIDSPDPReader, WriterID: wire.EntityIDSPDPWriter, WriterSN: 1, SerializedPayload: pd.Append(nil)}
		out := [][]byte{d.Append(append([]byte(nil), hdr...))}
		for k := 1; k <= *eps; k++ {
			ed := discovery.EndpointData{
				GUID:            wire.GUID{Prefix: prefix, Entity: wire.EntityID{Key: [3]byte{byte(k >> 16), byte(k >> 8), byte(k)}, Kind: wire.EntityKindWriterNoKey}},
				ParticipantGUID: wire.GUID{Prefix: prefix, Entity: wire.EntityIDParticipant},
				TopicName:       "forged", TypeName: "Forged", Offered: qos.DefaultOffered(),
			}
			w := wire.Data{DataFlag: true, ReaderID: wire.EntityIDSEDPPublicationsReader, WriterID: wire.EntityIDSEDPPublicationsWriter, WriterSN: wire.SequenceNumber(k), SerializedPayload: ed.Append(nil)}
			out = append(out, w.Append(append([]byte(nil), hdr...)))
		}
		if *eps > 0 { // the writers' range, after the last of them: what a reader that waits for it needs
			hb := wire.Heartbeat{ReaderID: wire.EntityIDSEDPPublicationsReader, WriterID: wire.EntityIDSEDPPublicationsWriter, FirstSN: 1, LastSN: wire.SequenceNumber(*eps), Count: wire.Count(round + 1)}
			out[len(out)-1] = hb.Append(out[len(out)-1])
		}
		return out
	}

	const burst = 10 // datagrams between two looks at the clock
	interval := time.Second * burst / time.Duration(*rate)
	start := time.Now()
	next := start
	sent, errs := 0, 0
	for i := 0; time.Since(start) < *dur; i++ {
		for _, m := range msgs(prefixes[i%len(prefixes)], i/len(prefixes)) {
			for _, d := range dests {
				if _, err := conn.WriteToUDPAddrPort(m, d); err != nil {
					errs++ // ENOBUFS under load: counted, not fatal
				}
				sent++
				if sent%burst == 0 {
					next = next.Add(interval)
					if d := time.Until(next); d > 0 {
						time.Sleep(d)
					}
				}
			}
		}
	}
	fmt.Printf("flood: %d datagrams in %v (%d send errors) to %s\n", sent, time.Since(start).Round(time.Millisecond), errs, strings.Trim(fmt.Sprint(dests), "[]"))
}
