package pcapng

import (
	"bytes"
	"encoding/binary"
	"net/netip"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

const captures = "../golden/captures"

func TestParseCapture(t *testing.T) {
	ds, st, err := ReadFile(filepath.Join(captures, "cyclone_interop.pcapng"))
	require.NoError(t, err)
	require.Equal(t, 36, st.Packets)
	require.Equal(t, 33, st.Datagrams)
	require.Equal(t, 3, st.NonUDP) // IGMP membership reports
	require.Len(t, ds, 33)
	d := ds[0]
	require.Equal(t, netip.MustParseAddrPort("127.0.0.1:57739"), d.Src)
	require.Equal(t, netip.MustParseAddrPort("239.255.0.1:7400"), d.Dst)
	require.Len(t, d.Payload, 400)
	require.Equal(t, "RTPS", string(d.Payload[:4]))
	require.Equal(t, time.Unix(1795306263, 270008500).UTC(), d.Time)
}

func TestParseAllCaptures(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(captures, "*.pcapng"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		ds, st, err := ReadFile(f)
		require.NoError(t, err, f)
		require.NotEmpty(t, ds, f)
		require.Equal(t, st.Packets, st.Datagrams+st.NonUDP+st.Fragments+st.Truncated+st.UnknownLink, f)
	}
}

// frame builds an Ethernet/IPv4/UDP frame with the Writer.
func frame(d Datagram) []byte {
	var buf bytes.Buffer
	w, err := NewWriter(&buf)
	if err == nil {
		err = w.Write(d)
	}
	if err != nil {
		panic(err)
	}
	return buf.Bytes()[24+16:]
}

func testDatagram() Datagram {
	return Datagram{
		Time:    time.Unix(1700000000, 123456000).UTC(),
		Src:     netip.MustParseAddrPort("127.0.0.1:7410"),
		Dst:     netip.MustParseAddrPort("239.255.0.1:7400"),
		Payload: []byte("RTPS\x02\x03\x01\x0fhello"),
	}
}

func TestWriteRoundTrip(t *testing.T) {
	in := []Datagram{
		testDatagram(),
		{Time: time.Unix(1700000001, 0).UTC(), Src: netip.MustParseAddrPort("[::1]:1"), Dst: netip.MustParseAddrPort("[ff02::1]:7400"), Payload: []byte("odd")},
		{Time: time.Unix(1700000002, 999999000).UTC(), Src: netip.MustParseAddrPort("10.0.0.1:9"), Dst: netip.MustParseAddrPort("10.0.0.2:9"), Payload: nil},
	}
	for _, zero := range []bool{false, true} {
		var buf bytes.Buffer
		w, err := NewWriter(&buf)
		require.NoError(t, err)
		w.ZeroUDPChecksum = zero
		for _, d := range in {
			require.NoError(t, w.Write(d))
		}
		out, st, err := Parse(buf.Bytes())
		require.NoError(t, err)
		require.Equal(t, 3, st.Datagrams)
		for i := range in {
			require.Equal(t, in[i].Src, out[i].Src)
			require.Equal(t, in[i].Dst, out[i].Dst)
			require.Equal(t, in[i].Time, out[i].Time)
			require.Equal(t, string(in[i].Payload), string(out[i].Payload))
		}
	}
}

func TestWriteChecksums(t *testing.T) {
	f := frame(testDatagram())
	ip := f[14:34]
	require.Equal(t, uint16(0xffff), fold(sum(0, ip)), "IPv4 header checksum")
	udp := f[34:]
	s := sum(0, ip[12:20]) + 17 + uint32(len(udp))
	require.NotZero(t, binary.BigEndian.Uint16(udp[6:]))
	require.Equal(t, uint16(0xffff), fold(sum(s, udp)), "UDP checksum")

	var buf bytes.Buffer
	w, err := NewWriter(&buf)
	require.NoError(t, err)
	w.ZeroUDPChecksum = true
	require.NoError(t, w.Write(testDatagram()))
	require.Zero(t, binary.BigEndian.Uint16(buf.Bytes()[24+16+34+6:]))

	w6 := frame(Datagram{Src: netip.MustParseAddrPort("[::1]:5"), Dst: netip.MustParseAddrPort("[::1]:6"), Payload: []byte{1, 2, 3}})
	ip6 := w6[14:54]
	udp6 := w6[54:]
	s6 := sum(sum(0, ip6[8:24]), ip6[24:40]) + 17 + uint32(len(udp6))
	require.Equal(t, uint16(0xffff), fold(sum(s6, udp6)))
}

func TestWriteErrors(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf)
	require.NoError(t, err)
	d := testDatagram()
	d.Dst = netip.MustParseAddrPort("[::1]:1")
	require.Error(t, w.Write(d))
	d = testDatagram()
	d.Payload = make([]byte, 70000)
	require.Error(t, w.Write(d))
}

// classic builds a classic pcap file of one packet.
func classic(bo binary.AppendByteOrder, magic, link uint32, pkt []byte, orig uint32) []byte {
	b := bo.AppendUint32(nil, magic)
	b = bo.AppendUint16(b, 2)
	b = bo.AppendUint16(b, 4)
	b = append(b, make([]byte, 8)...)
	b = bo.AppendUint32(b, 65535)
	b = bo.AppendUint32(b, link)
	b = bo.AppendUint32(b, 1700000000)
	b = bo.AppendUint32(b, 5)
	b = bo.AppendUint32(b, uint32(len(pkt)))
	b = bo.AppendUint32(b, orig)
	return append(b, pkt...)
}

// ng builds a pcapng file: section header, one interface, one enhanced packet.
func ng(bo binary.AppendByteOrder, link uint16, tsresol byte, pkt []byte) []byte {
	block := func(b []byte, typ uint32, body []byte) []byte {
		n := uint32(12 + len(body))
		b = bo.AppendUint32(b, typ)
		b = bo.AppendUint32(b, n)
		b = append(b, body...)
		return bo.AppendUint32(b, n)
	}
	shb := bo.AppendUint32(nil, 0x1a2b3c4d)
	shb = bo.AppendUint16(shb, 1)
	shb = bo.AppendUint16(shb, 0)
	shb = bo.AppendUint64(shb, ^uint64(0))
	idb := bo.AppendUint16(nil, link)
	idb = bo.AppendUint16(idb, 0)
	idb = bo.AppendUint32(idb, 0)
	idb = bo.AppendUint16(idb, 9)
	idb = bo.AppendUint16(idb, 1)
	idb = append(idb, tsresol, 0, 0, 0)
	idb = bo.AppendUint32(idb, 0) // opt_endofopt
	ts := uint64(1700000000) * 1000000000
	epb := bo.AppendUint32(nil, 0)
	epb = bo.AppendUint32(epb, uint32(ts>>32))
	epb = bo.AppendUint32(epb, uint32(ts))
	epb = bo.AppendUint32(epb, uint32(len(pkt)))
	epb = bo.AppendUint32(epb, uint32(len(pkt)))
	epb = append(epb, pkt...)
	for len(epb)%4 != 0 {
		epb = append(epb, 0)
	}
	b := block(nil, blockSHB, shb)
	b = block(b, blockIDB, idb)
	return block(b, blockEnhancedPkt, epb)
}

func TestLinkTypesAndFormats(t *testing.T) {
	eth := frame(testDatagram())
	ip := eth[14:]
	sll := append(append(make([]byte, 14), 0x08, 0x00), ip...)
	sll2 := append(append([]byte{0x08, 0x00}, make([]byte, 18)...), ip...)
	null := append([]byte{2, 0, 0, 0}, ip...)
	vlan := append(append(append([]byte{}, eth[:12]...), 0x81, 0x00, 0x00, 0x05), eth[12:]...)

	frag := bytes.Clone(eth)
	frag[14+6] |= 0x20 // more fragments
	tcp := bytes.Clone(eth)
	tcp[14+9] = 6
	arp := bytes.Clone(eth)
	arp[12], arp[13] = 0x08, 0x06

	le, be := binary.LittleEndian, binary.BigEndian
	want := testDatagram()
	for _, tc := range []struct {
		name string
		file []byte
		st   Stats
		time time.Time
	}{
		{"ethernet", classic(le, 0xa1b2c3d4, LinkEthernet, eth, uint32(len(eth))), Stats{Datagrams: 1}, time.Unix(1700000000, 5000)},
		{"big-endian nanosecond", classic(be, 0xa1b23c4d, LinkEthernet, eth, uint32(len(eth))), Stats{Datagrams: 1}, time.Unix(1700000000, 5)},
		{"vlan", classic(le, 0xa1b2c3d4, LinkEthernet, vlan, uint32(len(vlan))), Stats{Datagrams: 1}, time.Unix(1700000000, 5000)},
		{"sll", classic(le, 0xa1b2c3d4, LinkSLL, sll, uint32(len(sll))), Stats{Datagrams: 1}, time.Unix(1700000000, 5000)},
		{"sll2", classic(le, 0xa1b2c3d4, LinkSLL2, sll2, uint32(len(sll2))), Stats{Datagrams: 1}, time.Unix(1700000000, 5000)},
		{"raw", classic(le, 0xa1b2c3d4, LinkRaw, ip, uint32(len(ip))), Stats{Datagrams: 1}, time.Unix(1700000000, 5000)},
		{"ipv4", classic(le, 0xa1b2c3d4, LinkIPv4, ip, uint32(len(ip))), Stats{Datagrams: 1}, time.Unix(1700000000, 5000)},
		{"null", classic(le, 0xa1b2c3d4, LinkNull, null, uint32(len(null))), Stats{Datagrams: 1}, time.Unix(1700000000, 5000)},
		{"fragment", classic(le, 0xa1b2c3d4, LinkEthernet, frag, uint32(len(frag))), Stats{Fragments: 1}, time.Time{}},
		{"tcp", classic(le, 0xa1b2c3d4, LinkEthernet, tcp, uint32(len(tcp))), Stats{NonUDP: 1}, time.Time{}},
		{"arp", classic(le, 0xa1b2c3d4, LinkEthernet, arp, uint32(len(arp))), Stats{NonUDP: 1}, time.Time{}},
		{"snapped", classic(le, 0xa1b2c3d4, LinkEthernet, eth[:30], uint32(len(eth))), Stats{Truncated: 1}, time.Time{}},
		{"unknown link", classic(le, 0xa1b2c3d4, 147, eth, uint32(len(eth))), Stats{UnknownLink: 1}, time.Time{}},
		{"pcapng le ns", ng(le, LinkEthernet, 9, eth), Stats{Datagrams: 1}, time.Unix(1700000000, 0)},
		{"pcapng be ns", ng(be, LinkSLL2, 9, sll2), Stats{Datagrams: 1}, time.Unix(1700000000, 0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds, st, err := Parse(tc.file)
			require.NoError(t, err)
			tc.st.Packets = 1
			require.Equal(t, tc.st, st)
			if tc.st.Datagrams == 0 {
				require.Empty(t, ds)
				return
			}
			require.Len(t, ds, 1)
			require.Equal(t, want.Src, ds[0].Src)
			require.Equal(t, want.Dst, ds[0].Dst)
			require.Equal(t, want.Payload, ds[0].Payload)
			require.Equal(t, tc.time.UTC(), ds[0].Time)
		})
	}
}

func TestIPv6ExtensionAndFragment(t *testing.T) {
	f := frame(Datagram{Src: netip.MustParseAddrPort("[::1]:5"), Dst: netip.MustParseAddrPort("[::1]:6"), Payload: []byte{1, 2, 3}})
	ip := f[14:]
	// Insert an 8-byte destination-options header.
	ext := append(append(append([]byte{}, ip[:40]...), 17, 0, 1, 4, 0, 0, 0, 0), ip[40:]...)
	ext[6] = 60
	binary.BigEndian.PutUint16(ext[4:], binary.BigEndian.Uint16(ip[4:])+8)
	ds, st, err := Parse(classic(binary.LittleEndian, 0xa1b2c3d4, LinkRaw, ext, uint32(len(ext))))
	require.NoError(t, err)
	require.Equal(t, 1, st.Datagrams)
	require.Equal(t, []byte{1, 2, 3}, ds[0].Payload)

	ext[6] = 44
	_, st, err = Parse(classic(binary.LittleEndian, 0xa1b2c3d4, LinkRaw, ext, uint32(len(ext))))
	require.NoError(t, err)
	require.Equal(t, 1, st.Fragments)
}

func TestParseErrors(t *testing.T) {
	good := classic(binary.LittleEndian, 0xa1b2c3d4, LinkEthernet, frame(testDatagram()), 100)
	_, _, err := Parse([]byte("nope nope nope nope nope"))
	require.ErrorIs(t, err, ErrFormat)
	_, _, err = Parse(nil)
	require.ErrorIs(t, err, ErrFormat)
	_, _, err = Parse(good[:30])
	require.ErrorIs(t, err, ErrTruncated)
	_, _, err = Parse(good[:len(good)-1])
	require.ErrorIs(t, err, ErrTruncated)
	n := ng(binary.LittleEndian, LinkEthernet, 6, frame(testDatagram()))
	_, _, err = Parse(n[:len(n)-4])
	require.Error(t, err)
}

func FuzzParse(f *testing.F) {
	eth := frame(testDatagram())
	f.Add(classic(binary.LittleEndian, 0xa1b2c3d4, LinkEthernet, eth, uint32(len(eth))))
	f.Add(ng(binary.BigEndian, LinkEthernet, 0x89, eth))
	f.Add(ng(binary.LittleEndian, LinkSLL2, 6, append(append([]byte{0x86, 0xdd}, make([]byte, 18)...), eth[14:]...)))
	if b, err := os.ReadFile(filepath.Join(captures, "cyclone_interop.pcapng")); err == nil {
		f.Add(b[:2000])
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ds, st, _ := Parse(b)
		if len(ds) != st.Datagrams || st.Datagrams > st.Packets {
			t.Fatalf("inconsistent stats %+v for %d datagrams", st, len(ds))
		}
	})
}

// TestDecodeUDPSkips: every way a packet can carry no datagram is counted
// under its reason, for each link type.
func TestDecodeUDPSkips(t *testing.T) {
	eth := frame(testDatagram())
	ip := eth[14:]
	for _, tc := range []struct {
		name string
		link uint32
		pkt  []byte
		want skip
	}{
		{"ethernet short", LinkEthernet, eth[:13], skipTruncated},
		{"vlan tag short", LinkEthernet, append(append([]byte{}, eth[:12]...), 0x81, 0x00, 0x00), skipTruncated},
		{"sll short", LinkSLL, make([]byte, 15), skipTruncated},
		{"sll2 short", LinkSLL2, make([]byte, 19), skipTruncated},
		{"null short", LinkNull, []byte{2, 0, 0}, skipTruncated},
		{"null ipv6 big-endian", LinkNull, []byte{0, 0, 0, 30}, skipTruncated},
		{"null unknown family", LinkNull, append([]byte{7, 0, 0, 0}, ip...), skipNonUDP},
		{"raw empty", LinkRaw, nil, skipTruncated},
		{"raw version 5", LinkRaw, append([]byte{0x50}, ip[1:]...), skipNonUDP},
		{"raw ipv6 short", LinkIPv6, []byte{0x60}, skipTruncated},
		{"unknown link", 147, eth, skipUnknownLink},
		{"ipv4 short", LinkRaw, ip[:19], skipTruncated},
		{"ipv4 total beyond packet", LinkRaw, ip[:len(ip)-1], skipTruncated},
		{"udp short", LinkRaw, ipv4Len(ip[:27]), skipTruncated},
		{"udp length beyond packet", LinkRaw, udpLen(ip, 1000), skipTruncated},
		{"ok", LinkRaw, ip, kept},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, why := decodeUDP(tc.link, tc.pkt)
			require.Equal(t, tc.want, why)
			var st Stats
			out := decodePacket(nil, &st, tc.link, tc.pkt, false, time.Time{})
			require.Equal(t, 1, st.Packets)
			require.Equal(t, st.Packets, st.Datagrams+st.NonUDP+st.Fragments+st.Truncated+st.UnknownLink)
			require.Len(t, out, st.Datagrams)
		})
	}
}

// ipv4Len returns a copy of the IPv4 packet ip with its total length set to
// its length.
func ipv4Len(ip []byte) []byte {
	ip = bytes.Clone(ip)
	binary.BigEndian.PutUint16(ip[2:], uint16(len(ip)))
	return ip
}

// udpLen returns a copy of the IPv4 packet ip with the UDP length n.
func udpLen(ip []byte, n uint16) []byte {
	ip = bytes.Clone(ip)
	binary.BigEndian.PutUint16(ip[20+4:], n)
	return ip
}

// TestSimplePacketBlock: a Simple Packet Block is a packet of the first
// interface, cut to its original length, without a time.
func TestSimplePacketBlock(t *testing.T) {
	eth := frame(testDatagram())
	le := binary.LittleEndian
	file := ng(le, LinkEthernet, 6, eth)
	spb := le.AppendUint32(nil, uint32(len(eth)))
	spb = append(spb, eth...)
	for len(spb)%4 != 0 {
		spb = append(spb, 0)
	}
	file = le.AppendUint32(file, blockSimplePkt)
	file = le.AppendUint32(file, uint32(12+len(spb)))
	file = append(file, spb...)
	file = le.AppendUint32(file, uint32(12+len(spb)))
	ds, st, err := Parse(file)
	require.NoError(t, err)
	require.Equal(t, Stats{Packets: 2, Datagrams: 2}, st)
	require.True(t, ds[1].Time.IsZero())
	require.Equal(t, ds[0].Payload, ds[1].Payload)
}
