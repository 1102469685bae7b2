package transport

import (
	"net/netip"
	"sync"
	"sync/atomic"
)

// BufferSize is the size of a pooled datagram buffer: 64 KiB holds the
// largest UDP datagram (65 507 bytes of IPv4 payload).
const BufferSize = 64 * 1024

// SocketKind tells which socket of a [Transport] a datagram arrived on.
type SocketKind uint8

// Socket kinds. The names follow the locator lists of RTPS SPDP.
const (
	SocketOther         SocketKind = iota // not a Transport socket
	SocketMetaMulticast                   // SPDP multicast group, PB+DG·d+d0
	SocketMetaUnicast                     // metatraffic unicast, PB+DG·d+d1+PG·i
	SocketUserMulticast                   // user multicast group, PB+DG·d+d2
	SocketUserUnicast                     // user unicast, PB+DG·d+d3+PG·i
)

// String returns the kind's name.
func (k SocketKind) String() string {
	switch k {
	case SocketMetaMulticast:
		return "meta-multicast"
	case SocketMetaUnicast:
		return "meta-unicast"
	case SocketUserMulticast:
		return "user-multicast"
	case SocketUserUnicast:
		return "user-unicast"
	case SocketOther:
	}
	return "other"
}

// SmallBufferSize is the size of a small pooled buffer: room for the datagrams of
// discovery and of most other traffic. A datagram that waits in a queue moves to one
// (Compact), so that a queue full of small datagrams does not pin 64 KiB for each.
const SmallBufferSize = 4096

// Packet is a pooled datagram buffer. A received Packet belongs to whoever
// it was delivered to, which must call Release exactly once when it no
// longer uses Data (or anything sliced from it). Get one for sending with
// [GetPacket].
type Packet struct {
	// Data is the datagram: a slice of the packet's own buffer.
	Data []byte
	// Src is the datagram's source address.
	Src netip.AddrPort
	// Kind is the socket the datagram arrived on.
	Kind SocketKind

	buf []byte // BufferSize or SmallBufferSize octets
}

var (
	packetPool = sync.Pool{New: func() any { return &Packet{buf: make([]byte, BufferSize)} }}
	smallPool  = sync.Pool{New: func() any { return &Packet{buf: make([]byte, SmallBufferSize)} }}
)

// packetsOut counts packets taken from the pool and not yet released; tests
// use it to find leaks.
var packetsOut atomic.Int64

// GetPacket takes a Packet from the pool, with Data empty and a capacity of
// BufferSize. Return it with Release.
func GetPacket() *Packet { return getPacket(&packetPool) }

// GetPacketFor takes a Packet whose buffer holds n octets, a small one when n
// fits SmallBufferSize, with Data empty. Return it with Release.
func GetPacketFor(n int) *Packet {
	if n <= SmallBufferSize {
		return getPacket(&smallPool)
	}
	return GetPacket()
}

func getPacket(pool *sync.Pool) *Packet {
	p := pool.Get().(*Packet)
	packetsOut.Add(1)
	p.Data = p.buf[:0]
	return p
}

// Buffer returns the packet's whole buffer (BufferSize bytes, or
// SmallBufferSize for a packet of GetPacketFor or Compact).
func (p *Packet) Buffer() []byte { return p.buf }

// Compact returns p, or, when its datagram fits a small buffer and p's buffer is
// not one, a small packet with a copy of it (and p's Src and Kind) after
// releasing p. A datagram about to wait in a queue is compacted first.
func (p *Packet) Compact() *Packet {
	if len(p.Data) > SmallBufferSize || len(p.buf) == SmallBufferSize {
		return p
	}
	q := getPacket(&smallPool)
	q.Data = append(q.Data, p.Data...)
	q.Src, q.Kind = p.Src, p.Kind
	p.Release()
	return q
}

// Release returns p to the pool. p must not be used afterwards.
func (p *Packet) Release() {
	p.Data, p.Src, p.Kind = nil, netip.AddrPort{}, SocketOther
	packetsOut.Add(-1)
	if len(p.buf) == SmallBufferSize {
		smallPool.Put(p)
		return
	}
	packetPool.Put(p)
}
