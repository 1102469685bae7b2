package transport

import (
	"fmt"
	"net/netip"
)

// TRANSPORT_PRIORITY: a writer whose policy value is not 0 sends through a
// send socket of its own whose IP TOS octet is PriorityTOS(value), opened
// when first asked for (PriorityConn) and shared by every writer of that
// value. Unicast datagrams and the multicast ones on the first interface
// leave through it; multicast on the other interfaces through their usual
// sockets.

// PriorityTOS returns the IP TOS octet of a TRANSPORT_PRIORITY value: the
// value itself, clamped to 0..255, with the two ECN bits cleared (they
// belong to congestion control). So DSCP d is the value d<<2: 184 is EF
// (DSCP 46), 32 is CS1, 0 leaves the default.
func PriorityTOS(value int32) int {
	return int(min(max(value, 0), 255)) &^ 3
}

// SocketPriority returns the Linux SO_PRIORITY of a TOS octet: its IP
// precedence (the top three bits), at most 6, the highest a process may
// set without CAP_NET_ADMIN. Linux derives a priority from the TOS itself
// (rt_tos2priority); this one follows the DSCP class instead, so that a
// class selector CSn maps to priority n.
func SocketPriority(tos int) int { return min(tos>>5, 6) }

// PriorityConn returns the send socket of TOS octet tos, opening it the
// first time (a socket of the participant's Net on an ephemeral port, with
// the options of the unicast sockets). It is closed with the transport.
func (t *Transport) PriorityConn(tos int) (PacketConn, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil, ErrClosed
	}
	if c, ok := t.prio[tos]; ok {
		return c, nil
	}
	opts := t.opts
	opts.TOS = tos
	opts.ReadBuffer = 0 // it receives nothing: nobody knows its port
	c, err := t.cfg.Net.ListenUDP(netip.AddrPortFrom(netip.IPv4Unspecified(), 0), opts)
	if err != nil {
		return nil, fmt.Errorf("transport: send socket of TOS %#x: %w", tos, err)
	}
	if t.prio == nil {
		t.prio = make(map[int]PacketConn)
	}
	t.prio[tos] = c
	return c, nil
}

// WriteToConn is WriteTo through the send socket c from PriorityConn (nil:
// the default one).
func (t *Transport) WriteToConn(c PacketConn, b []byte, dst netip.AddrPort) error {
	if c == nil {
		return t.WriteTo(b, dst)
	}
	if !dst.Addr().IsMulticast() {
		return t.write(c, b, dst)
	}
	if len(t.mcSend) == 0 {
		return fmt.Errorf("%w: multicast is disabled", ErrAddress)
	}
	first := t.write(c, b, dst)
	for _, mc := range t.mcSend[1:] {
		if err := t.write(mc, b, dst); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// closePriority closes the sockets PriorityConn opened; the caller holds
// t.mu.
func (t *Transport) closePriority() {
	for tos, c := range t.prio {
		_ = c.Close()
		delete(t.prio, tos)
	}
}
