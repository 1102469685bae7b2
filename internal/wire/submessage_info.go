package wire

// The interpreter submessages, which change the state of the receiver for
// the submessages that follow them: INFO_DST, INFO_SRC, INFO_TS,
// INFO_REPLY, INFO_REPLY_IP4, and PAD, which carries nothing.

// InfoDst is the INFO_DST submessage (RTPS 2.5 §8.3.7.7, §9.4.5.9): the
// following submessages are for the participant with this prefix
// (GuidPrefixUnknown: for every participant).
type InfoDst struct {
	// BigEndian selects the byte order of the submessage (E flag clear).
	BigEndian  bool
	GuidPrefix GuidPrefix
}

// Kind returns KindInfoDst.
func (x *InfoDst) Kind() SubmessageKind { return KindInfoDst }

// Len returns the wire size of x, submessage header included (16).
func (x *InfoDst) Len() int { return SubmessageHeaderLen + GuidPrefixLen }

// Append appends x, submessage header included, to b.
func (x *InfoDst) Append(b []byte) []byte {
	b = appendSubmessageHeader(b, KindInfoDst, 0, GuidPrefixLen, x.BigEndian)
	return append(b, x.GuidPrefix[:]...)
}

// ParseInfoDst parses the INFO_DST submessage at the start of b (submessage
// header included) and returns it with the number of bytes consumed.
func ParseInfoDst(b []byte) (InfoDst, int, error) {
	var x InfoDst
	n, err := parseAs(b, KindInfoDst, x.decode)
	return x, n, err
}

func (x *InfoDst) decode(flags uint8, body []byte) error {
	if len(body) < GuidPrefixLen {
		return errShortInfoDst
	}
	x.BigEndian = flags&FlagEndianness == 0
	copy(x.GuidPrefix[:], body)
	return nil
}

// InfoSrc is the INFO_SRC submessage (RTPS 2.5 §8.3.7.9, §9.4.5.11): the
// following submessages come from the participant with this prefix, speaking
// this protocol version, of this vendor.
type InfoSrc struct {
	// BigEndian selects the byte order of the submessage (E flag clear).
	BigEndian bool
	// Unused is the 4-octet field that precedes the version, kept so that
	// a round trip is exact; it is sent as written (normally 0).
	Unused     uint32
	Version    ProtocolVersion
	Vendor     VendorID
	GuidPrefix GuidPrefix
}

const infoSrcBodyLen = 20

// Kind returns KindInfoSrc.
func (x *InfoSrc) Kind() SubmessageKind { return KindInfoSrc }

// Len returns the wire size of x, submessage header included (24).
func (x *InfoSrc) Len() int { return SubmessageHeaderLen + infoSrcBodyLen }

// Append appends x, submessage header included, to b.
func (x *InfoSrc) Append(b []byte) []byte {
	b = appendSubmessageHeader(b, KindInfoSrc, 0, infoSrcBodyLen, x.BigEndian)
	b = appendU32(b, x.Unused, x.BigEndian)
	b = x.Version.Append(b)
	b = x.Vendor.Append(b)
	return append(b, x.GuidPrefix[:]...)
}

// ParseInfoSrc parses the INFO_SRC submessage at the start of b (submessage
// header included) and returns it with the number of bytes consumed.
func ParseInfoSrc(b []byte) (InfoSrc, int, error) {
	var x InfoSrc
	n, err := parseAs(b, KindInfoSrc, x.decode)
	return x, n, err
}

func (x *InfoSrc) decode(flags uint8, body []byte) error {
	if len(body) < infoSrcBodyLen {
		return errShortInfoSrc
	}
	be := flags&FlagEndianness == 0
	x.BigEndian = be
	x.Unused = u32(body, be)
	x.Version = ProtocolVersion{body[4], body[5]}
	x.Vendor = VendorID{body[6], body[7]}
	copy(x.GuidPrefix[:], body[8:20])
	return nil
}

// InfoTS is the INFO_TS submessage (RTPS 2.5 §8.3.7.8, §9.4.5.10): the
// source timestamp of the following submessages. With Invalidate (the I
// flag) the body is empty and the following submessages have no timestamp.
type InfoTS struct {
	// BigEndian selects the byte order of the submessage (E flag clear).
	BigEndian  bool
	Invalidate bool
	Timestamp  Time
}

// Kind returns KindInfoTS.
func (x *InfoTS) Kind() SubmessageKind { return KindInfoTS }

// Len returns the wire size of x, submessage header included: 4 with
// Invalidate, 12 otherwise.
func (x *InfoTS) Len() int {
	if x.Invalidate {
		return SubmessageHeaderLen
	}
	return SubmessageHeaderLen + TimeLen
}

// Append appends x, submessage header included, to b.
func (x *InfoTS) Append(b []byte) []byte {
	if x.Invalidate {
		return appendSubmessageHeader(b, KindInfoTS, FlagInfoTSInvalidate, 0, x.BigEndian)
	}
	b = appendSubmessageHeader(b, KindInfoTS, 0, TimeLen, x.BigEndian)
	return x.Timestamp.Append(b, x.BigEndian)
}

// ParseInfoTS parses the INFO_TS submessage at the start of b (submessage
// header included) and returns it with the number of bytes consumed.
func ParseInfoTS(b []byte) (InfoTS, int, error) {
	var x InfoTS
	n, err := parseAs(b, KindInfoTS, x.decode)
	return x, n, err
}

// decode fills x from the flags and body of an INFO_TS. Without the I flag
// the body must hold a timestamp. The timestamp value itself is not checked:
// Time has no invalid encodings apart from TimeInvalid, which is legal.
func (x *InfoTS) decode(flags uint8, body []byte) error {
	be := flags&FlagEndianness == 0
	*x = InfoTS{BigEndian: be, Invalidate: flags&FlagInfoTSInvalidate != 0}
	if x.Invalidate {
		return nil
	}
	if len(body) < TimeLen {
		return errShortInfoTS
	}
	x.Timestamp = timeAt(body, be)
	return nil
}

// InfoReply is the INFO_REPLY submessage (RTPS 2.5 §8.3.7.10, §9.4.5.13):
// where to send replies to the following submessages. The multicast list is
// present on the wire when Multicast (the M flag) is set.
//
// Parsing into a reused InfoReply reuses the capacity of its slices, so it
// allocates only while a slice grows.
type InfoReply struct {
	// BigEndian selects the byte order of the submessage (E flag clear).
	BigEndian         bool
	Multicast         bool
	UnicastLocators   []Locator
	MulticastLocators []Locator
}

// Kind returns KindInfoReply.
func (x *InfoReply) Kind() SubmessageKind { return KindInfoReply }

// Len returns the wire size of x, submessage header included.
func (x *InfoReply) Len() int {
	n := SubmessageHeaderLen + 4 + LocatorLen*len(x.UnicastLocators)
	if x.Multicast {
		n += 4 + LocatorLen*len(x.MulticastLocators)
	}
	return n
}

// Append appends x, submessage header included, to b.
func (x *InfoReply) Append(b []byte) []byte {
	f := flagIf(x.Multicast, FlagInfoReplyMulticast)
	b = appendSubmessageHeader(b, KindInfoReply, f, x.Len()-SubmessageHeaderLen, x.BigEndian)
	b = appendLocatorList(b, x.UnicastLocators, x.BigEndian)
	if x.Multicast {
		b = appendLocatorList(b, x.MulticastLocators, x.BigEndian)
	}
	return b
}

func appendLocatorList(b []byte, ls []Locator, be bool) []byte {
	b = appendU32(b, uint32(len(ls)), be)
	for i := range ls {
		b = ls[i].Append(b, be)
	}
	return b
}

// parseLocatorList reads a LocatorList (count and locators) into dst[:0]
// and returns the octets consumed. The count is checked against the input
// before anything is allocated.
func parseLocatorList(dst []Locator, b []byte, be bool) ([]Locator, int, error) {
	dst = dst[:0]
	if len(b) < 4 {
		return dst, 0, errShortInfoReply
	}
	n := u32(b, be)
	if uint64(n)*LocatorLen > uint64(len(b)-4) {
		return dst, 0, errShortInfoReply
	}
	off := 4
	for range n {
		l, _, _ := ParseLocator(b[off:], be)
		dst = append(dst, l)
		off += LocatorLen
	}
	return dst, off, nil
}

// ParseInfoReply parses the INFO_REPLY submessage at the start of b
// (submessage header included) and returns it with the number of bytes
// consumed.
func ParseInfoReply(b []byte) (InfoReply, int, error) {
	var x InfoReply
	n, err := parseAs(b, KindInfoReply, x.decode)
	return x, n, err
}

func (x *InfoReply) decode(flags uint8, body []byte) error {
	be := flags&FlagEndianness == 0
	x.BigEndian = be
	x.Multicast = flags&FlagInfoReplyMulticast != 0
	var n int
	var err error
	x.UnicastLocators, n, err = parseLocatorList(x.UnicastLocators, body, be)
	if err != nil {
		return err
	}
	x.MulticastLocators = x.MulticastLocators[:0]
	if x.Multicast {
		x.MulticastLocators, _, err = parseLocatorList(x.MulticastLocators, body[n:], be)
	}
	return err
}

// InfoReplyIP4 is the INFO_REPLY_IP4 submessage (RTPS 2.5 §8.3.7.11,
// §9.4.5.14), the compact INFO_REPLY for one UDPv4 unicast and optionally one
// UDPv4 multicast locator. On the wire a LocatorUDPv4 is the address as a
// 32-bit integer and the port, both in the submessage byte order; here they
// are Locators of kind UDPv4.
type InfoReplyIP4 struct {
	// BigEndian selects the byte order of the submessage (E flag clear).
	BigEndian        bool
	Multicast        bool
	UnicastLocator   Locator
	MulticastLocator Locator
}

// Kind returns KindInfoReplyIP4.
func (x *InfoReplyIP4) Kind() SubmessageKind { return KindInfoReplyIP4 }

// Len returns the wire size of x, submessage header included: 12, or 20
// with Multicast.
func (x *InfoReplyIP4) Len() int {
	if x.Multicast {
		return SubmessageHeaderLen + 16
	}
	return SubmessageHeaderLen + 8
}

// appendUDPv4 appends a LocatorUDPv4_t: address, then port.
func appendUDPv4(b []byte, l Locator, be bool) []byte {
	a := uint32(l.Address[12])<<24 | uint32(l.Address[13])<<16 | uint32(l.Address[14])<<8 | uint32(l.Address[15])
	b = appendU32(b, a, be)
	return appendU32(b, l.Port, be)
}

// udpv4At decodes a LocatorUDPv4_t; b must hold 8 octets.
func udpv4At(b []byte, be bool) Locator {
	a := u32(b, be)
	l := Locator{Kind: LocatorKindUDPv4, Port: u32(b[4:], be)}
	l.Address[12], l.Address[13], l.Address[14], l.Address[15] = byte(a>>24), byte(a>>16), byte(a>>8), byte(a)
	return l
}

// Append appends x, submessage header included, to b. Only the IPv4
// address (the last 4 octets of Address) and the port of the locators are
// written.
func (x *InfoReplyIP4) Append(b []byte) []byte {
	f := flagIf(x.Multicast, FlagInfoReplyMulticast)
	b = appendSubmessageHeader(b, KindInfoReplyIP4, f, x.Len()-SubmessageHeaderLen, x.BigEndian)
	b = appendUDPv4(b, x.UnicastLocator, x.BigEndian)
	if x.Multicast {
		b = appendUDPv4(b, x.MulticastLocator, x.BigEndian)
	}
	return b
}

// ParseInfoReplyIP4 parses the INFO_REPLY_IP4 submessage at the start of b
// (submessage header included) and returns it with the number of bytes
// consumed.
func ParseInfoReplyIP4(b []byte) (InfoReplyIP4, int, error) {
	var x InfoReplyIP4
	n, err := parseAs(b, KindInfoReplyIP4, x.decode)
	return x, n, err
}

func (x *InfoReplyIP4) decode(flags uint8, body []byte) error {
	be := flags&FlagEndianness == 0
	*x = InfoReplyIP4{BigEndian: be, Multicast: flags&FlagInfoReplyMulticast != 0}
	need := 8
	if x.Multicast {
		need = 16
	}
	if len(body) < need {
		return errShortInfoReplyIP4
	}
	x.UnicastLocator = udpv4At(body, be)
	if x.Multicast {
		x.MulticastLocator = udpv4At(body[8:], be)
	}
	return nil
}

// Pad is the PAD submessage (RTPS 2.5 §8.3.7.12, §9.4.5.8): Size octets of
// padding, for alignment.
type Pad struct {
	// BigEndian selects the byte order of the submessage (E flag clear).
	BigEndian bool
	// Size is the number of body octets, at most 65535.
	Size int
}

// Kind returns KindPad.
func (x *Pad) Kind() SubmessageKind { return KindPad }

// Len returns the wire size of x, submessage header included.
func (x *Pad) Len() int { return SubmessageHeaderLen + min(max(x.Size, 0), 0xffff) }

// Append appends x, submessage header and zero body, to b.
func (x *Pad) Append(b []byte) []byte {
	n := x.Len() - SubmessageHeaderLen
	b = appendSubmessageHeader(b, KindPad, 0, n, x.BigEndian)
	for range n {
		b = append(b, 0)
	}
	return b
}

// ParsePad parses the PAD submessage at the start of b (submessage header
// included) and returns it with the number of bytes consumed.
func ParsePad(b []byte) (Pad, int, error) {
	var x Pad
	flags, body, n, err := frameAs(b, KindPad)
	if err != nil {
		return x, 0, err
	}
	x.decode(flags, body)
	return x, n, nil
}

func (x *Pad) decode(flags uint8, body []byte) {
	*x = Pad{BigEndian: flags&FlagEndianness == 0, Size: len(body)}
}
