package wire

// The reliability submessages: ACKNACK, NACK_FRAG, HEARTBEAT,
// HEARTBEAT_FRAG and GAP. Their bodies may be longer than the elements
// defined here (later protocol versions append elements); the extra octets
// are ignored and not reproduced by Append.

// entityIDAt decodes the EntityID at b[off:off+4]; the caller checked the
// length.
func entityIDAt(b []byte, off int) EntityID {
	return EntityID{Key: [3]byte{b[off], b[off+1], b[off+2]}, Kind: b[off+3]}
}

// AckNack is the ACKNACK submessage (RTPS 2.5 §8.3.7.1, §9.4.5.2): a reader
// acknowledges the changes below ReaderSNState.Base and asks for the ones
// in its bitmap.
type AckNack struct {
	// BigEndian selects the byte order of the submessage (E flag clear).
	BigEndian bool
	// Final (F) says the writer need not answer with a HEARTBEAT.
	Final         bool
	ReaderID      EntityID
	WriterID      EntityID
	ReaderSNState SequenceNumberSet
	Count         Count
}

// Kind returns KindAckNack.
func (a *AckNack) Kind() SubmessageKind { return KindAckNack }

// Len returns the wire size of a, submessage header included.
func (a *AckNack) Len() int { return SubmessageHeaderLen + 8 + a.ReaderSNState.Len() + 4 }

// Append appends a, submessage header included, to b.
func (a *AckNack) Append(b []byte) []byte {
	f := flagIf(a.Final, FlagAckNackFinal)
	b = appendSubmessageHeader(b, KindAckNack, f, a.Len()-SubmessageHeaderLen, a.BigEndian)
	b = a.ReaderID.Append(b)
	b = a.WriterID.Append(b)
	b = a.ReaderSNState.Append(b, a.BigEndian)
	return a.Count.Append(b, a.BigEndian)
}

// ParseAckNack parses the ACKNACK submessage at the start of b (submessage
// header included) and returns it with the number of bytes consumed.
func ParseAckNack(b []byte) (AckNack, int, error) {
	var x AckNack
	n, err := parseAs(b, KindAckNack, x.decode)
	return x, n, err
}

// decode fills a from the flags and body of an ACKNACK. It validates like
// RTPS 2.5 §8.3.7.1.3: at most 256 bits, bitmap and count present, base >= 1.
// The one exception is base 0 with 0 bits, the "pre-emptive ACKNACK" that
// Fast DDS and RTI Connext send to a writer they have not heard from yet:
// it is accepted as is, and the receiver treats it like base 1.
func (a *AckNack) decode(flags uint8, body []byte) error {
	be := flags&FlagEndianness == 0
	if len(body) < 8 {
		return errShortAckNack
	}
	a.BigEndian = be
	a.Final = flags&FlagAckNackFinal != 0
	a.ReaderID = entityIDAt(body, 0)
	a.WriterID = entityIDAt(body, 4)
	set, n, err := ParseSequenceNumberSet(body[8:], be)
	if err != nil {
		return err
	}
	if set.Base < 1 && (set.Base != 0 || set.NumBits != 0) {
		return errAckNackBase
	}
	a.ReaderSNState = set
	if len(body) < 8+n+4 {
		return errShortAckNack
	}
	a.Count = Count(int32(u32(body[8+n:], be)))
	return nil
}

// NackFrag is the NACK_FRAG submessage (RTPS 2.5 §8.3.7.6, §9.4.5.10): a
// reader asks for missing fragments of one change.
type NackFrag struct {
	// BigEndian selects the byte order of the submessage (E flag clear).
	BigEndian           bool
	ReaderID            EntityID
	WriterID            EntityID
	WriterSN            SequenceNumber
	FragmentNumberState FragmentNumberSet
	Count               Count
}

// Kind returns KindNackFrag.
func (x *NackFrag) Kind() SubmessageKind { return KindNackFrag }

// Len returns the wire size of x, submessage header included.
func (x *NackFrag) Len() int { return SubmessageHeaderLen + 16 + x.FragmentNumberState.Len() + 4 }

// Append appends x, submessage header included, to b.
func (x *NackFrag) Append(b []byte) []byte {
	b = appendSubmessageHeader(b, KindNackFrag, 0, x.Len()-SubmessageHeaderLen, x.BigEndian)
	b = x.ReaderID.Append(b)
	b = x.WriterID.Append(b)
	b = x.WriterSN.Append(b, x.BigEndian)
	b = x.FragmentNumberState.Append(b, x.BigEndian)
	return x.Count.Append(b, x.BigEndian)
}

// ParseNackFrag parses the NACK_FRAG submessage at the start of b
// (submessage header included) and returns it with the number of bytes
// consumed.
func ParseNackFrag(b []byte) (NackFrag, int, error) {
	var x NackFrag
	n, err := parseAs(b, KindNackFrag, x.decode)
	return x, n, err
}

// decode fills x from the flags and body of a NACK_FRAG. It validates like
// RTPS 2.5 §8.3.7.6.3: writerSN >= 1, set base >= 1, at most 256 bits.
func (x *NackFrag) decode(flags uint8, body []byte) error {
	be := flags&FlagEndianness == 0
	if len(body) < 16 {
		return errShortNackFrag
	}
	x.BigEndian = be
	x.ReaderID = entityIDAt(body, 0)
	x.WriterID = entityIDAt(body, 4)
	x.WriterSN = snFrom(body[8:], be)
	if x.WriterSN < 1 {
		return errNackFragSN
	}
	set, n, err := ParseFragmentNumberSet(body[16:], be)
	if err != nil {
		return err
	}
	if set.Base < 1 {
		return errNackFragBase
	}
	x.FragmentNumberState = set
	if len(body) < 16+n+4 {
		return errShortNackFrag
	}
	x.Count = Count(int32(u32(body[16+n:], be)))
	return nil
}

// Heartbeat is the HEARTBEAT submessage (RTPS 2.5 §8.3.7.5, §9.4.5.6): a
// writer announces the range of changes it has available.
type Heartbeat struct {
	// BigEndian selects the byte order of the submessage (E flag clear).
	BigEndian bool
	// Final (F) says the reader need not answer with an ACKNACK.
	Final bool
	// Liveliness (L) says the HEARTBEAT asserts the writer's liveliness.
	Liveliness bool
	ReaderID   EntityID
	WriterID   EntityID
	FirstSN    SequenceNumber
	LastSN     SequenceNumber
	Count      Count
}

const heartbeatBodyLen = 28

// Kind returns KindHeartbeat.
func (h *Heartbeat) Kind() SubmessageKind { return KindHeartbeat }

// Len returns the wire size of h, submessage header included (32).
func (h *Heartbeat) Len() int { return SubmessageHeaderLen + heartbeatBodyLen }

// Append appends h, submessage header included, to b.
func (h *Heartbeat) Append(b []byte) []byte {
	f := flagIf(h.Final, FlagHeartbeatFinal) | flagIf(h.Liveliness, FlagHeartbeatLiveliness)
	b = appendSubmessageHeader(b, KindHeartbeat, f, heartbeatBodyLen, h.BigEndian)
	b = h.ReaderID.Append(b)
	b = h.WriterID.Append(b)
	b = h.FirstSN.Append(b, h.BigEndian)
	b = h.LastSN.Append(b, h.BigEndian)
	return h.Count.Append(b, h.BigEndian)
}

// ParseHeartbeat parses the HEARTBEAT submessage at the start of b
// (submessage header included) and returns it with the number of bytes
// consumed.
func ParseHeartbeat(b []byte) (Heartbeat, int, error) {
	var x Heartbeat
	n, err := parseAs(b, KindHeartbeat, x.decode)
	return x, n, err
}

// decode fills h from the flags and body of a HEARTBEAT. It validates like
// RTPS 2.5 §8.3.7.5.3: firstSN >= 1 and lastSN >= firstSN-1 (equality means
// the writer has no changes). The group information of the G flag (RTPS
// 2.4+), which neither Cyclone DDS nor Fast DDS sends, is not decoded.
func (h *Heartbeat) decode(flags uint8, body []byte) error {
	be := flags&FlagEndianness == 0
	if len(body) < heartbeatBodyLen {
		return errShortHeartbeat
	}
	*h = Heartbeat{
		BigEndian:  be,
		Final:      flags&FlagHeartbeatFinal != 0,
		Liveliness: flags&FlagHeartbeatLiveliness != 0,
		ReaderID:   entityIDAt(body, 0),
		WriterID:   entityIDAt(body, 4),
		FirstSN:    snFrom(body[8:], be),
		LastSN:     snFrom(body[16:], be),
		Count:      Count(int32(u32(body[24:], be))),
	}
	if h.FirstSN < 1 || h.LastSN < h.FirstSN-1 {
		return errHeartbeatSN
	}
	return nil
}

// HeartbeatFrag is the HEARTBEAT_FRAG submessage (RTPS 2.5 §8.3.7.6,
// §9.4.5.7): a writer announces the fragments of one change it has
// available.
type HeartbeatFrag struct {
	// BigEndian selects the byte order of the submessage (E flag clear).
	BigEndian       bool
	ReaderID        EntityID
	WriterID        EntityID
	WriterSN        SequenceNumber
	LastFragmentNum FragmentNumber
	Count           Count
}

const heartbeatFragBodyLen = 24

// Kind returns KindHeartbeatFrag.
func (h *HeartbeatFrag) Kind() SubmessageKind { return KindHeartbeatFrag }

// Len returns the wire size of h, submessage header included (28).
func (h *HeartbeatFrag) Len() int { return SubmessageHeaderLen + heartbeatFragBodyLen }

// Append appends h, submessage header included, to b.
func (h *HeartbeatFrag) Append(b []byte) []byte {
	b = appendSubmessageHeader(b, KindHeartbeatFrag, 0, heartbeatFragBodyLen, h.BigEndian)
	b = h.ReaderID.Append(b)
	b = h.WriterID.Append(b)
	b = h.WriterSN.Append(b, h.BigEndian)
	b = h.LastFragmentNum.Append(b, h.BigEndian)
	return h.Count.Append(b, h.BigEndian)
}

// ParseHeartbeatFrag parses the HEARTBEAT_FRAG submessage at the start of b
// (submessage header included) and returns it with the number of bytes
// consumed.
func ParseHeartbeatFrag(b []byte) (HeartbeatFrag, int, error) {
	var x HeartbeatFrag
	n, err := parseAs(b, KindHeartbeatFrag, x.decode)
	return x, n, err
}

// decode fills h from the flags and body of a HEARTBEAT_FRAG. It validates
// like RTPS 2.5 §8.3.7.6.3: writerSN >= 1 and lastFragmentNum >= 1.
func (h *HeartbeatFrag) decode(flags uint8, body []byte) error {
	be := flags&FlagEndianness == 0
	if len(body) < heartbeatFragBodyLen {
		return errShortHeartbeatFrag
	}
	*h = HeartbeatFrag{
		BigEndian:       be,
		ReaderID:        entityIDAt(body, 0),
		WriterID:        entityIDAt(body, 4),
		WriterSN:        snFrom(body[8:], be),
		LastFragmentNum: FragmentNumber(u32(body[16:], be)),
		Count:           Count(int32(u32(body[20:], be))),
	}
	if h.WriterSN < 1 || h.LastFragmentNum < 1 {
		return errHeartbeatFragSN
	}
	return nil
}

// Gap is the GAP submessage (RTPS 2.5 §8.3.7.4, §9.4.5.5): a writer tells a
// reader that the changes in [GapStart, GapList.Base) and those in the
// bitmap of GapList are not relevant to it.
type Gap struct {
	// BigEndian selects the byte order of the submessage (E flag clear).
	BigEndian bool
	ReaderID  EntityID
	WriterID  EntityID
	GapStart  SequenceNumber
	GapList   SequenceNumberSet
}

// Kind returns KindGap.
func (g *Gap) Kind() SubmessageKind { return KindGap }

// Len returns the wire size of g, submessage header included.
func (g *Gap) Len() int { return SubmessageHeaderLen + 16 + g.GapList.Len() }

// Append appends g, submessage header included, to b.
func (g *Gap) Append(b []byte) []byte {
	b = appendSubmessageHeader(b, KindGap, 0, g.Len()-SubmessageHeaderLen, g.BigEndian)
	b = g.ReaderID.Append(b)
	b = g.WriterID.Append(b)
	b = g.GapStart.Append(b, g.BigEndian)
	return g.GapList.Append(b, g.BigEndian)
}

// ParseGap parses the GAP submessage at the start of b (submessage header
// included) and returns it with the number of bytes consumed.
func ParseGap(b []byte) (Gap, int, error) {
	var x Gap
	n, err := parseAs(b, KindGap, x.decode)
	return x, n, err
}

// decode fills g from the flags and body of a GAP. It validates like RTPS
// 2.5 §8.3.7.4.3: gapStart >= 1 and a valid gapList with base >= 1. A
// gapStart above the gapList base (an empty interval) is accepted; the
// group information of the G flag (RTPS 2.4+) is not decoded.
func (g *Gap) decode(flags uint8, body []byte) error {
	be := flags&FlagEndianness == 0
	if len(body) < 16 {
		return errShortGap
	}
	g.BigEndian = be
	g.ReaderID = entityIDAt(body, 0)
	g.WriterID = entityIDAt(body, 4)
	g.GapStart = snFrom(body[8:], be)
	set, _, err := ParseSequenceNumberSet(body[16:], be)
	if err != nil {
		return err
	}
	if g.GapStart < 1 || set.Base < 1 {
		return errGapSN
	}
	g.GapList = set
	return nil
}
