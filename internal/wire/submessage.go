package wire

// SubmessageHeader is the 4-byte header of every submessage (RTPS 2.5
// §8.3.3.2, §9.4.5.1): kind, flags and octetsToNextHeader. Bit 0 of Flags is
// the endianness flag; octetsToNextHeader is encoded in the byte order that
// flag selects.
type SubmessageHeader struct {
	Kind  SubmessageKind
	Flags uint8
	// Length is octetsToNextHeader as found on the wire: 0 means "up to the
	// end of the message", except for PAD and INFO_TS, where it means an
	// empty body.
	Length uint16
}

// BigEndian reports whether the submessage body is big-endian (E flag
// clear).
func (h SubmessageHeader) BigEndian() bool { return h.Flags&FlagEndianness == 0 }

// splitSubmessage reads the submessage header at the start of b and returns
// it with the submessage body and the total size of the submessage (header
// and body). The last submessage of a message may have octetsToNextHeader 0,
// which makes its body extend to the end of b (RTPS 2.5 §9.4.5.1.3); for PAD
// and INFO_TS it means an empty body instead.
func splitSubmessage(b []byte) (SubmessageHeader, []byte, int, error) {
	if len(b) < SubmessageHeaderLen {
		return SubmessageHeader{}, nil, 0, errShortSubHeader
	}
	h := SubmessageHeader{Kind: SubmessageKind(b[0]), Flags: b[1]}
	h.Length = u16(b[2:], h.BigEndian())
	n := int(h.Length)
	if n == 0 && h.Kind != KindPad && h.Kind != KindInfoTS {
		n = len(b) - SubmessageHeaderLen
	}
	if SubmessageHeaderLen+n > len(b) {
		return h, nil, 0, errSubLength
	}
	body := b[SubmessageHeaderLen : SubmessageHeaderLen+n : SubmessageHeaderLen+n]
	return h, body, SubmessageHeaderLen + n, nil
}

// appendSubmessageHeader appends a submessage header for a body of bodyLen
// octets. The endianness flag is set unless be. A body longer than 65535
// octets is given octetsToNextHeader 0, so such a submessage must be the
// last one of its message.
func appendSubmessageHeader(b []byte, k SubmessageKind, flags uint8, bodyLen int, be bool) []byte {
	if !be {
		flags |= FlagEndianness
	}
	n := bodyLen
	if n > 0xffff {
		n = 0
	}
	b = append(b, byte(k), flags)
	return appendU16(b, uint16(n), be)
}

// flagIf returns flag if set is true and 0 otherwise, for assembling the
// flags of a submessage from the fields of its struct.
func flagIf(set bool, flag uint8) uint8 {
	if set {
		return flag
	}
	return 0
}

// pad4 returns the number of zero octets that bring n to a multiple of 4.
func pad4(n int) int { return -n & 3 }

// frameAs is the common start of parseAs and ParsePad: it frames
// the submessage at the start of b and checks its kind. It returns the flags,
// the body and the total size of the submessage.
func frameAs(b []byte, k SubmessageKind) (uint8, []byte, int, error) {
	h, body, n, err := splitSubmessage(b)
	if err != nil {
		return 0, nil, 0, err
	}
	if h.Kind != k {
		return 0, nil, 0, errWrongKind
	}
	return h.Flags, body, n, nil
}

// parseAs is the common part of the exported ParseX functions: it frames
// the submessage of kind k at the start of b, passes its flags and body to
// decode (the decode method of the caller's struct) and returns the number
// of bytes consumed (0 on error).
func parseAs(b []byte, k SubmessageKind, decode func(flags uint8, body []byte) error) (int, error) {
	flags, body, n, err := frameAs(b, k)
	if err == nil {
		err = decode(flags, body)
	}
	if err != nil {
		return 0, err
	}
	return n, nil
}
