package wire

import "fmt"

var errNoSubmessage = fmt.Errorf("wire: reader: no current submessage of that kind: %w", ErrInvalid)

// Reader iterates over the submessages of one RTPS message without
// allocating. Reset parses the message header; each Next frames the
// following submessage; the typed accessors (Data, Heartbeat, ...) decode
// the current one into a struct the caller provides and reuses.
//
//	var r wire.Reader
//	var d wire.Data
//	if err := r.Reset(datagram); err != nil { drop }
//	for r.Next() {
//		switch r.Kind() {
//		case wire.KindData:
//			if err := r.Data(&d); err != nil { drop the rest of the message }
//		...
//		default: // unknown and vendor-specific kinds: skip
//		}
//	}
//	if r.Err() != nil { the framing of the message is broken }
//
// Next stops, with Err set, only when the framing itself is broken (a
// truncated submessage header, or octetsToNextHeader beyond the end of the
// message), because then the next submessage cannot be found. Unknown and
// vendor-specific submessage kinds are returned like the others, so the
// caller can skip (or count) them; they never fail the message. An error
// from a typed accessor concerns that submessage only: RTPS 2.5 §8.3.4.1
// says the receiver then ignores the rest of the message, and the caller
// decides whether to do so.
//
// The slices a Reader returns (Body, Submessage, and the InlineQoS and
// payload slices of Data and DataFrag) alias the message passed to Reset.
type Reader struct {
	// Header is the message header parsed by Reset.
	Header Header

	msg  []byte
	next int // offset of the next submessage header
	off  int // offset of the current submessage
	n    int // size of the current submessage
	cur  SubmessageHeader
	body []byte
	err  error
}

// Reset starts reading msg. It parses the message header and fails with
// ErrNotRTPS, ErrVersion or a truncation error; the Reader then yields no
// submessages.
func (r *Reader) Reset(msg []byte) error {
	*r = Reader{msg: msg}
	h, n, err := ParseHeader(msg)
	if err != nil {
		r.err = err
		r.next = len(msg)
		return err
	}
	r.Header = h
	r.next = n
	return nil
}

// Next advances to the next submessage and reports whether there is one.
// It returns false at the end of the message and when the framing is
// broken (see Err).
func (r *Reader) Next() bool {
	r.cur, r.body, r.n = SubmessageHeader{}, nil, 0
	if r.err != nil || r.next >= len(r.msg) {
		return false
	}
	h, body, n, err := splitSubmessage(r.msg[r.next:])
	if err != nil {
		r.err = err
		r.off = r.next
		r.next = len(r.msg)
		return false
	}
	r.cur, r.body, r.n = h, body, n
	r.off = r.next
	r.next += n
	return true
}

// Err returns the error that stopped the iteration, or nil at the normal
// end of the message.
func (r *Reader) Err() error { return r.err }

// Kind returns the kind of the current submessage.
func (r *Reader) Kind() SubmessageKind { return r.cur.Kind }

// Flags returns the flags of the current submessage, endianness flag
// included.
func (r *Reader) Flags() uint8 { return r.cur.Flags }

// SubmessageHeader returns the header of the current submessage.
func (r *Reader) SubmessageHeader() SubmessageHeader { return r.cur }

// BigEndian reports whether the current submessage is big-endian.
func (r *Reader) BigEndian() bool { return r.cur.BigEndian() }

// Body returns the body of the current submessage (after its 4-byte
// header), aliasing the message.
func (r *Reader) Body() []byte { return r.body }

// Submessage returns the whole current submessage, header included,
// aliasing the message.
func (r *Reader) Submessage() []byte { return r.msg[r.off : r.off+r.n : r.off+r.n] }

// Offset returns the offset of the current submessage in the message (or,
// after a framing error, of the submessage that could not be framed).
func (r *Reader) Offset() int { return r.off }

// Rest returns the message from the next submessage on.
func (r *Reader) Rest() []byte { return r.msg[r.next:] }

// Data decodes the current submessage, which must be a DATA, into d.
func (r *Reader) Data(d *Data) error {
	if r.cur.Kind != KindData || r.n == 0 {
		return errNoSubmessage
	}
	return d.decode(r.cur.Flags, r.body)
}

// DataFrag decodes the current submessage, which must be a DATA_FRAG, into d.
func (r *Reader) DataFrag(d *DataFrag) error {
	if r.cur.Kind != KindDataFrag || r.n == 0 {
		return errNoSubmessage
	}
	return d.decode(r.cur.Flags, r.body)
}

// AckNack decodes the current submessage, which must be an ACKNACK, into a.
func (r *Reader) AckNack(a *AckNack) error {
	if r.cur.Kind != KindAckNack || r.n == 0 {
		return errNoSubmessage
	}
	return a.decode(r.cur.Flags, r.body)
}

// NackFrag decodes the current submessage, which must be a NACK_FRAG, into x.
func (r *Reader) NackFrag(x *NackFrag) error {
	if r.cur.Kind != KindNackFrag || r.n == 0 {
		return errNoSubmessage
	}
	return x.decode(r.cur.Flags, r.body)
}

// Heartbeat decodes the current submessage, which must be a HEARTBEAT, into h.
func (r *Reader) Heartbeat(h *Heartbeat) error {
	if r.cur.Kind != KindHeartbeat || r.n == 0 {
		return errNoSubmessage
	}
	return h.decode(r.cur.Flags, r.body)
}

// HeartbeatFrag decodes the current submessage, which must be a
// HEARTBEAT_FRAG, into h.
func (r *Reader) HeartbeatFrag(h *HeartbeatFrag) error {
	if r.cur.Kind != KindHeartbeatFrag || r.n == 0 {
		return errNoSubmessage
	}
	return h.decode(r.cur.Flags, r.body)
}

// Gap decodes the current submessage, which must be a GAP, into g.
func (r *Reader) Gap(g *Gap) error {
	if r.cur.Kind != KindGap || r.n == 0 {
		return errNoSubmessage
	}
	return g.decode(r.cur.Flags, r.body)
}

// InfoDst decodes the current submessage, which must be an INFO_DST, into x.
func (r *Reader) InfoDst(x *InfoDst) error {
	if r.cur.Kind != KindInfoDst || r.n == 0 {
		return errNoSubmessage
	}
	return x.decode(r.cur.Flags, r.body)
}

// InfoSrc decodes the current submessage, which must be an INFO_SRC, into x.
func (r *Reader) InfoSrc(x *InfoSrc) error {
	if r.cur.Kind != KindInfoSrc || r.n == 0 {
		return errNoSubmessage
	}
	return x.decode(r.cur.Flags, r.body)
}

// InfoTS decodes the current submessage, which must be an INFO_TS, into x.
func (r *Reader) InfoTS(x *InfoTS) error {
	if r.cur.Kind != KindInfoTS || r.n == 0 {
		return errNoSubmessage
	}
	return x.decode(r.cur.Flags, r.body)
}

// InfoReply decodes the current submessage, which must be an INFO_REPLY,
// into x, reusing the capacity of x's slices.
func (r *Reader) InfoReply(x *InfoReply) error {
	if r.cur.Kind != KindInfoReply || r.n == 0 {
		return errNoSubmessage
	}
	return x.decode(r.cur.Flags, r.body)
}

// InfoReplyIP4 decodes the current submessage, which must be an
// INFO_REPLY_IP4, into x.
func (r *Reader) InfoReplyIP4(x *InfoReplyIP4) error {
	if r.cur.Kind != KindInfoReplyIP4 || r.n == 0 {
		return errNoSubmessage
	}
	return x.decode(r.cur.Flags, r.body)
}

// Pad decodes the current submessage, which must be a PAD, into x.
func (r *Reader) Pad(x *Pad) error {
	if r.cur.Kind != KindPad || r.n == 0 {
		return errNoSubmessage
	}
	x.decode(r.cur.Flags, r.body)
	return nil
}

// Submessage is implemented by the pointer types of all submessages of this
// package (*Data, *Heartbeat, ...).
type Submessage interface {
	// Kind returns the submessage id.
	Kind() SubmessageKind
	// Len returns the wire size, submessage header included.
	Len() int
	// Append appends the submessage, header included, to b.
	Append(b []byte) []byte
}

// Builder assembles an outgoing message in a reused buffer:
//
//	var w wire.Builder
//	w.Reset(hdr)                    // keeps the buffer's capacity
//	w.Buf = ts.Append(w.Buf)        // allocation-free
//	w.Add(&data)                    // the same through the interface
//	send(w.Bytes())
//
// Appending a submessage directly to Buf never allocates once the buffer
// is large enough; Add is convenient but may make its argument escape.
type Builder struct {
	// Buf holds the message built so far; submessages may be appended to
	// it directly.
	Buf []byte
}

// Reset empties the builder, keeping its buffer, and writes the header.
func (w *Builder) Reset(h Header) { w.Buf = h.Append(w.Buf[:0]) }

// Add appends s to the message.
func (w *Builder) Add(s Submessage) { w.Buf = s.Append(w.Buf) }

// Len returns the size of the message built so far.
func (w *Builder) Len() int { return len(w.Buf) }

// Bytes returns the message built so far. It aliases the builder's buffer:
// it is valid until the next Reset.
func (w *Builder) Bytes() []byte { return w.Buf }
