package pcapng

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"time"
)

// Datagram is one UDP datagram found in (or written to) a capture.
type Datagram struct {
	Time    time.Time
	Src     netip.AddrPort
	Dst     netip.AddrPort
	Payload []byte
}

// Stats counts what [Parse] met in a capture besides the datagrams it returned.
type Stats struct {
	Packets     int // packet records read
	Datagrams   int // UDP datagrams returned
	NonUDP      int // IP packets that carry something else than UDP, and non-IP frames
	Fragments   int // IPv4 or IPv6 fragments (not reassembled)
	Truncated   int // packets cut short by the capture's snap length or malformed inside
	UnknownLink int // packets of a link type this package does not decode
}

// Link types (LINKTYPE_* of the tcpdump.org registry) this package decodes.
const (
	LinkNull     = 0   // BSD loopback: 4-byte address family in host order
	LinkEthernet = 1   // Ethernet II, 802.1Q / 802.1ad tags skipped
	LinkRaw      = 101 // raw IPv4 or IPv6
	LinkSLL      = 113 // Linux cooked capture v1
	LinkIPv4     = 228 // raw IPv4
	LinkIPv6     = 229 // raw IPv6
	LinkSLL2     = 276 // Linux cooked capture v2
)

// Errors returned by [Parse].
var (
	ErrFormat    = errors.New("pcapng: not a pcapng or pcap file")
	ErrTruncated = errors.New("pcapng: file truncated")
)

// ReadFile reads the capture file at path and returns its UDP datagrams.
func ReadFile(path string) ([]Datagram, Stats, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, Stats{}, err
	}
	return Parse(data)
}

// Parse returns the UDP datagrams of a pcapng or classic pcap file held in
// data. The payloads alias data. On a malformed file it returns the datagrams
// read so far together with the error.
func Parse(data []byte) ([]Datagram, Stats, error) {
	if len(data) < 4 {
		return nil, Stats{}, ErrFormat
	}
	switch binary.LittleEndian.Uint32(data) {
	case 0x0a0d0d0a:
		return parseNG(data)
	case 0xa1b2c3d4, 0xd4c3b2a1, 0xa1b23c4d, 0x4d3cb2a1:
		return parseClassic(data)
	}
	return nil, Stats{}, ErrFormat
}

// parseClassic reads the libpcap format: a 24-byte file header and records of
// a 16-byte header followed by the captured bytes.
func parseClassic(data []byte) ([]Datagram, Stats, error) {
	var st Stats
	if len(data) < 24 {
		return nil, st, ErrTruncated
	}
	var bo binary.ByteOrder = binary.LittleEndian
	magic := bo.Uint32(data)
	if magic == 0xd4c3b2a1 || magic == 0x4d3cb2a1 {
		bo = binary.BigEndian
		magic = bo.Uint32(data)
	}
	nano := magic == 0xa1b23c4d
	link := bo.Uint32(data[20:]) & 0x0fffffff // upper bits: FCS length
	var out []Datagram
	for p := data[24:]; len(p) > 0; {
		if len(p) < 16 {
			return out, st, ErrTruncated
		}
		sec, frac := bo.Uint32(p), bo.Uint32(p[4:])
		incl, orig := bo.Uint32(p[8:]), bo.Uint32(p[12:])
		if uint64(incl) > uint64(len(p)-16) {
			return out, st, ErrTruncated
		}
		pkt := p[16 : 16+incl]
		p = p[16+incl:]
		ns := int64(frac) * 1000
		if nano {
			ns = int64(frac)
		}
		ts := time.Unix(int64(sec), ns).UTC()
		out = decodePacket(out, &st, link, pkt, incl < orig, ts)
	}
	return out, st, nil
}

// pcapng block types.
const (
	blockSHB         = 0x0a0d0d0a
	blockIDB         = 0x00000001
	blockPacket      = 0x00000002 // obsolete Packet Block
	blockSimplePkt   = 0x00000003
	blockEnhancedPkt = 0x00000006
)

type iface struct {
	link   uint32
	snap   uint32
	unitNS float64 // nanoseconds per timestamp unit, 0 if the unit is below 1 ns
	perSec uint64  // timestamp units per second
	offset int64   // if_tsoffset, seconds
}

// maxInterfaces bounds the interface table of one section.
const maxInterfaces = 1 << 16

// parseNG reads the pcapng format (draft-ietf-opsawg-pcapng): a sequence of
// blocks, each type, total length, body, total length, in the byte order
// given by the Section Header Block.
func parseNG(data []byte) ([]Datagram, Stats, error) {
	r := ngReader{bo: binary.LittleEndian}
	for p := data; len(p) > 0; {
		typ, body, rest, err := r.nextBlock(p)
		if err == nil {
			err = r.block(typ, body)
		}
		if err != nil {
			return r.out, r.st, err
		}
		p = rest
	}
	return r.out, r.st, nil
}

// ngReader is the state of parseNG: the byte order and interfaces of the
// current section, and what it has read.
type ngReader struct {
	bo     binary.ByteOrder
	ifaces []iface
	st     Stats
	out    []Datagram
}

// nextBlock splits the block at the start of p into its type and body and
// returns the rest of p. A Section Header Block starts a new section: its
// byte order, no interfaces.
func (r *ngReader) nextBlock(p []byte) (typ uint32, body, rest []byte, err error) {
	if len(p) < 12 {
		return 0, nil, nil, ErrTruncated
	}
	typ = r.bo.Uint32(p)
	if typ == blockSHB {
		if len(p) < 28 {
			return 0, nil, nil, ErrTruncated
		}
		switch binary.LittleEndian.Uint32(p[8:]) {
		case 0x1a2b3c4d:
			r.bo = binary.LittleEndian
		case 0x4d3c2b1a:
			r.bo = binary.BigEndian
		default:
			return 0, nil, nil, fmt.Errorf("pcapng: bad byte-order magic in section header")
		}
		r.ifaces = r.ifaces[:0]
	}
	blen := r.bo.Uint32(p[4:])
	if blen < 12 || blen%4 != 0 {
		return 0, nil, nil, fmt.Errorf("pcapng: bad block length %d", blen)
	}
	if uint64(blen) > uint64(len(p)) {
		return 0, nil, nil, ErrTruncated
	}
	return typ, p[8 : blen-4], p[blen:], nil
}

// block reads the body of a block of type typ; it skips the types it
// does not know.
func (r *ngReader) block(typ uint32, body []byte) error {
	switch typ {
	case blockIDB:
		return r.interfaceBlock(body)
	case blockEnhancedPkt, blockPacket:
		return r.packetBlock(typ, body)
	case blockSimplePkt:
		return r.simplePacketBlock(body)
	}
	return nil
}

// interfaceBlock declares the next interface of the section.
func (r *ngReader) interfaceBlock(body []byte) error {
	if len(body) < 8 {
		return fmt.Errorf("pcapng: short interface block")
	}
	if len(r.ifaces) >= maxInterfaces {
		return fmt.Errorf("pcapng: too many interfaces")
	}
	ifc := iface{link: uint32(r.bo.Uint16(body)), snap: r.bo.Uint32(body[4:]), unitNS: 1000, perSec: 1e6}
	parseIDBOptions(&ifc, body[8:], r.bo)
	r.ifaces = append(r.ifaces, ifc)
	return nil
}

// packetBlock reads an Enhanced Packet Block, or the obsolete Packet Block
// (a 16-bit interface id), of type typ.
func (r *ngReader) packetBlock(typ uint32, body []byte) error {
	if len(body) < 20 {
		return fmt.Errorf("pcapng: short packet block")
	}
	var id uint32
	if typ == blockEnhancedPkt {
		id = r.bo.Uint32(body)
	} else {
		id = uint32(r.bo.Uint16(body))
	}
	ts := uint64(r.bo.Uint32(body[4:]))<<32 | uint64(r.bo.Uint32(body[8:]))
	capLen, origLen := r.bo.Uint32(body[12:]), r.bo.Uint32(body[16:])
	if uint64(capLen) > uint64(len(body)-20) {
		return fmt.Errorf("pcapng: packet longer than its block")
	}
	if id >= uint32(len(r.ifaces)) {
		return fmt.Errorf("pcapng: packet of undeclared interface %d", id)
	}
	ifc := &r.ifaces[id]
	r.out = decodePacket(r.out, &r.st, ifc.link, body[20:20+capLen], capLen < origLen, ifc.time(ts))
	return nil
}

// simplePacketBlock reads a Simple Packet Block: a packet of the first
// interface, without a timestamp.
func (r *ngReader) simplePacketBlock(body []byte) error {
	if len(body) < 4 {
		return fmt.Errorf("pcapng: short simple packet block")
	}
	if len(r.ifaces) == 0 {
		return fmt.Errorf("pcapng: simple packet before any interface")
	}
	origLen := r.bo.Uint32(body)
	pkt := body[4:]
	if uint64(origLen) < uint64(len(pkt)) {
		pkt = pkt[:origLen]
	}
	r.out = decodePacket(r.out, &r.st, r.ifaces[0].link, pkt, uint64(len(pkt)) < uint64(origLen), time.Time{})
	return nil
}

// parseIDBOptions reads if_tsresol (9) and if_tsoffset (14) of an interface.
func parseIDBOptions(ifc *iface, opts []byte, bo binary.ByteOrder) {
	for len(opts) >= 4 {
		code, olen := bo.Uint16(opts), int(bo.Uint16(opts[2:]))
		if code == 0 || olen > len(opts)-4 {
			return
		}
		v := opts[4 : 4+olen]
		switch {
		case code == 9 && olen == 1:
			ifc.setResolution(v[0])
		case code == 14 && olen == 8:
			ifc.offset = int64(bo.Uint64(v))
		}
		adv := 4 + (olen+3)&^3
		if adv > len(opts) {
			return
		}
		opts = opts[adv:]
	}
}

// setResolution applies if_tsresol: a negative power of 10, or of 2 when the
// top bit is set.
func (ifc *iface) setResolution(r byte) {
	exp := uint(r & 0x7f)
	if r&0x80 != 0 {
		if exp > 63 {
			exp = 63
		}
		ifc.perSec = 1 << exp
	} else {
		if exp > 19 {
			exp = 19
		}
		ifc.perSec = 1
		for range exp {
			ifc.perSec *= 10
		}
	}
	ifc.unitNS = 1e9 / float64(ifc.perSec)
}

func (ifc *iface) time(ts uint64) time.Time {
	sec := ts / ifc.perSec
	rem := ts % ifc.perSec
	ns := int64(float64(rem) * ifc.unitNS)
	return time.Unix(int64(sec)+ifc.offset, ns).UTC()
}

// decodePacket appends the UDP datagram carried by pkt, if any, and counts
// what it skips.
func decodePacket(out []Datagram, st *Stats, link uint32, pkt []byte, short bool, ts time.Time) []Datagram {
	st.Packets++
	if short {
		st.Truncated++
		return out
	}
	d, why := decodeUDP(link, pkt)
	if why != kept {
		st.count(why)
		return out
	}
	d.Time = ts
	st.Datagrams++
	return append(out, d)
}

// skip is why a packet carries no datagram: the counter of Stats it adds to.
type skip int

const (
	kept skip = iota
	skipTruncated
	skipNonUDP
	skipFragment
	skipUnknownLink
)

func (st *Stats) count(why skip) {
	switch why {
	case skipTruncated:
		st.Truncated++
	case skipNonUDP:
		st.NonUDP++
	case skipFragment:
		st.Fragments++
	case skipUnknownLink:
		st.UnknownLink++
	case kept:
	}
}

// IP ethertypes.
const (
	etherIPv4 = 0x0800
	etherIPv6 = 0x86dd
)

// decodeUDP returns the UDP datagram (without its time) of the packet pkt
// of link type link, or why there is none.
func decodeUDP(link uint32, pkt []byte) (Datagram, skip) {
	ethertype, pkt, why := linkPayload(link, pkt)
	if why != kept {
		return Datagram{}, why
	}
	var (
		src, dst netip.Addr
		udp      []byte
	)
	switch ethertype {
	case etherIPv4:
		src, dst, udp, why = ipv4Payload(pkt)
	case etherIPv6:
		src, dst, udp, why = ipv6Payload(pkt)
	default:
		why = skipNonUDP
	}
	if why != kept {
		return Datagram{}, why
	}
	if len(udp) < 8 {
		return Datagram{}, skipTruncated
	}
	ulen := int(binary.BigEndian.Uint16(udp[4:]))
	if ulen < 8 || ulen > len(udp) {
		return Datagram{}, skipTruncated
	}
	return Datagram{
		Src:     netip.AddrPortFrom(src, binary.BigEndian.Uint16(udp)),
		Dst:     netip.AddrPortFrom(dst, binary.BigEndian.Uint16(udp[2:])),
		Payload: udp[8:ulen:ulen],
	}, kept
}

// linkPayload strips the link-layer header of pkt and returns the ethertype
// of what it carries (0 when not IP, for the link types without one).
func linkPayload(link uint32, pkt []byte) (uint16, []byte, skip) {
	// The header length of the link types with a fixed one, and where in
	// it the ethertype is.
	var hlen, at int
	switch link {
	case LinkEthernet:
		return ethernetPayload(pkt)
	case LinkSLL:
		hlen, at = 16, 14
	case LinkSLL2:
		hlen, at = 20, 0
	case LinkNull:
		if len(pkt) < 4 {
			return 0, nil, skipTruncated
		}
		return nullFamily(binary.LittleEndian.Uint32(pkt)), pkt[4:], kept
	case LinkRaw, LinkIPv4, LinkIPv6:
		if len(pkt) == 0 {
			return 0, nil, skipTruncated
		}
		switch pkt[0] >> 4 {
		case 4:
			return etherIPv4, pkt, kept
		case 6:
			return etherIPv6, pkt, kept
		}
		return 0, pkt, kept
	default:
		return 0, nil, skipUnknownLink
	}
	if len(pkt) < hlen {
		return 0, nil, skipTruncated
	}
	return binary.BigEndian.Uint16(pkt[at:]), pkt[hlen:], kept
}

// ethernetPayload strips an Ethernet II header and its 802.1Q / 802.1ad tags.
func ethernetPayload(pkt []byte) (uint16, []byte, skip) {
	if len(pkt) < 14 {
		return 0, nil, skipTruncated
	}
	ethertype := binary.BigEndian.Uint16(pkt[12:])
	pkt = pkt[14:]
	for ethertype == 0x8100 || ethertype == 0x88a8 {
		if len(pkt) < 4 {
			return 0, nil, skipTruncated
		}
		ethertype = binary.BigEndian.Uint16(pkt[2:])
		pkt = pkt[4:]
	}
	return ethertype, pkt, kept
}

// nullFamily returns the ethertype of a BSD loopback address family. The
// family is in the capturing host's byte order; it accepts both.
func nullFamily(af uint32) uint16 {
	switch af {
	case 2, 0x02000000:
		return etherIPv4
	case 10, 24, 28, 30, 0x18000000, 0x1c000000, 0x1e000000, 0x0a000000:
		return etherIPv6
	}
	return 0
}

// ipv4Payload returns the addresses and the UDP payload of an IPv4 packet
// that is not a fragment.
func ipv4Payload(pkt []byte) (src, dst netip.Addr, udp []byte, why skip) {
	if len(pkt) < 20 || pkt[0]>>4 != 4 {
		return src, dst, nil, skipTruncated
	}
	ihl := int(pkt[0]&0x0f) * 4
	total := int(binary.BigEndian.Uint16(pkt[2:]))
	if ihl < 20 || total < ihl || total > len(pkt) {
		return src, dst, nil, skipTruncated
	}
	if binary.BigEndian.Uint16(pkt[6:])&0x3fff != 0 { // MF flag or offset
		return src, dst, nil, skipFragment
	}
	if pkt[9] != 17 {
		return src, dst, nil, skipNonUDP
	}
	src = netip.AddrFrom4([4]byte(pkt[12:16]))
	dst = netip.AddrFrom4([4]byte(pkt[16:20]))
	return src, dst, pkt[ihl:total], kept
}

// ipv6Payload returns the addresses and the UDP payload of an IPv6 packet,
// after its extension headers, if it is not a fragment.
func ipv6Payload(pkt []byte) (src, dst netip.Addr, udp []byte, why skip) {
	if len(pkt) < 40 || pkt[0]>>4 != 6 {
		return src, dst, nil, skipTruncated
	}
	plen := int(binary.BigEndian.Uint16(pkt[4:]))
	if 40+plen > len(pkt) {
		return src, dst, nil, skipTruncated
	}
	src = netip.AddrFrom16([16]byte(pkt[8:24]))
	dst = netip.AddrFrom16([16]byte(pkt[24:40]))
	next := pkt[6]
	rest := pkt[40 : 40+plen]
	for next != 17 {
		switch next {
		case 0, 43, 60: // hop-by-hop, routing, destination options
			if len(rest) < 8 {
				return src, dst, nil, skipTruncated
			}
			n := 8 + int(rest[1])*8
			if n > len(rest) {
				return src, dst, nil, skipTruncated
			}
			next, rest = rest[0], rest[n:]
		case 44:
			return src, dst, nil, skipFragment
		default:
			return src, dst, nil, skipNonUDP
		}
	}
	return src, dst, rest, kept
}
