package pcapng

import (
	"encoding/binary"
	"errors"
	"io"
)

// maxUDPPayload is the largest payload that fits a UDP length field.
const maxUDPPayload = 65535 - 8

// Writer writes datagrams as Ethernet frames into a classic pcap file
// (little-endian, microsecond timestamps, link type Ethernet).
type Writer struct {
	w   io.Writer
	buf []byte
	id  uint16

	// ZeroUDPChecksum writes a zero ("no checksum") UDP checksum for IPv4
	// datagrams instead of computing it. IPv6 always gets a computed one.
	ZeroUDPChecksum bool
}

// NewWriter writes the pcap file header to w and returns a Writer for the
// records.
func NewWriter(w io.Writer) (*Writer, error) {
	var h [24]byte
	binary.LittleEndian.PutUint32(h[0:], 0xa1b2c3d4)
	binary.LittleEndian.PutUint16(h[4:], 2)
	binary.LittleEndian.PutUint16(h[6:], 4)
	binary.LittleEndian.PutUint32(h[16:], 262144) // snap length
	binary.LittleEndian.PutUint32(h[20:], LinkEthernet)
	if _, err := w.Write(h[:]); err != nil {
		return nil, err
	}
	return &Writer{w: w}, nil
}

// Write appends one record holding d as an Ethernet/IP/UDP frame. Src and Dst
// must be both IPv4 or both IPv6.
func (wr *Writer) Write(d Datagram) error {
	if len(d.Payload) > maxUDPPayload {
		return errors.New("pcapng: datagram too large for UDP")
	}
	src, dst := d.Src.Addr().Unmap(), d.Dst.Addr().Unmap()
	v4 := src.Is4() && dst.Is4()
	if !v4 && (!src.Is6() || !dst.Is6()) {
		return errors.New("pcapng: source and destination must be both IPv4 or both IPv6")
	}
	ulen := 8 + len(d.Payload)
	if v4 && 20+ulen > 65535 {
		return errors.New("pcapng: datagram too large for IPv4")
	}
	b := wr.buf[:0]
	// Record header, lengths filled in below.
	usec := d.Time.UnixMicro()
	b = binary.LittleEndian.AppendUint32(b, uint32(usec/1e6))
	b = binary.LittleEndian.AppendUint32(b, uint32(usec%1e6))
	b = append(b, make([]byte, 8)...)
	frame := len(b)
	// Ethernet: zero MAC addresses like a loopback capture.
	b = append(b, make([]byte, 12)...)
	if v4 {
		b = binary.BigEndian.AppendUint16(b, 0x0800)
		ip := len(b)
		wr.id++
		b = append(b, 0x45, 0)
		b = binary.BigEndian.AppendUint16(b, uint16(20+ulen))
		b = binary.BigEndian.AppendUint16(b, wr.id)
		b = append(b, 0x40, 0, 64, 17, 0, 0) // DF, TTL 64, UDP, checksum
		s4, d4 := src.As4(), dst.As4()
		b = append(b, s4[:]...)
		b = append(b, d4[:]...)
		binary.BigEndian.PutUint16(b[ip+10:], ^fold(sum(0, b[ip:ip+20])))
	} else {
		b = binary.BigEndian.AppendUint16(b, 0x86dd)
		b = append(b, 0x60, 0, 0, 0)
		b = binary.BigEndian.AppendUint16(b, uint16(ulen))
		b = append(b, 17, 64)
		s16, d16 := src.As16(), dst.As16()
		b = append(b, s16[:]...)
		b = append(b, d16[:]...)
	}
	u := len(b)
	b = binary.BigEndian.AppendUint16(b, d.Src.Port())
	b = binary.BigEndian.AppendUint16(b, d.Dst.Port())
	b = binary.BigEndian.AppendUint16(b, uint16(ulen))
	b = append(b, 0, 0)
	b = append(b, d.Payload...)
	if !v4 || !wr.ZeroUDPChecksum {
		s := sum(0, src.AsSlice())
		s = sum(s, dst.AsSlice())
		s += 17 + uint32(ulen)
		c := ^fold(sum(s, b[u:]))
		if c == 0 {
			c = 0xffff
		}
		binary.BigEndian.PutUint16(b[u+6:], c)
	}
	n := uint32(len(b) - frame)
	binary.LittleEndian.PutUint32(b[8:], n)
	binary.LittleEndian.PutUint32(b[12:], n)
	wr.buf = b
	_, err := wr.w.Write(b)
	return err
}

// sum adds b as big-endian 16-bit words to s (RFC 1071).
func sum(s uint32, b []byte) uint32 {
	for len(b) >= 2 {
		s += uint32(b[0])<<8 | uint32(b[1])
		b = b[2:]
	}
	if len(b) == 1 {
		s += uint32(b[0]) << 8
	}
	return s
}

func fold(s uint32) uint16 {
	for s > 0xffff {
		s = s>>16 + s&0xffff
	}
	return uint16(s)
}
