package wire

// PID_SENTINEL and the parameter header size, needed here only to find the
// end of an inline QoS ParameterList (RTPS 2.5 §9.4.2.11).
const (
	pidSentinel       = 0x0001
	paramHeaderLen    = 4
	dataFixedLen      = 20 // extraFlags .. writerSN
	dataFragFixedLen  = 32 // extraFlags .. sampleSize
	dataOctetsToQoS   = 16 // standard octetsToInlineQos of DATA
	dataFragOctetsToQ = 28 // standard octetsToInlineQos of DATA_FRAG
)

// inlineQoSAt returns the ParameterList at b[off:] (off <= len(b)), up to
// and including its PID_SENTINEL, aliasing b, and the offset just after it.
// It only walks the parameter headers; the values are the business of the
// ParameterList decoder.
func inlineQoSAt(b []byte, off int, be bool) ([]byte, int, error) {
	start := off
	for {
		if len(b)-off < paramHeaderLen {
			return nil, 0, errShortInlineQoS
		}
		pid := u16(b[off:], be)
		l := int(u16(b[off+2:], be))
		off += paramHeaderLen
		if pid == pidSentinel {
			return b[start:off:off], off, nil
		}
		if l > len(b)-off {
			return nil, 0, errShortInlineQoS
		}
		off += l
	}
}

// inlineQoSOffset follows octetsToInlineQos (body[2:4]) of a DATA or
// DATA_FRAG body to where the inline QoS, if any, and then the payload
// start. The field must be a multiple of 4 and at least minOTQ (errOTQ
// otherwise); the octets it skips beyond the standard fixed part are
// ignored, and a target beyond the body is errShort. It is small enough to
// inline, which keeps the DATA parse path free of an extra call.
func inlineQoSOffset(body []byte, be bool, minOTQ int, errOTQ, errShort error) (int, error) {
	otq := int(u16(body[2:], be))
	if otq%4 != 0 || otq < minOTQ {
		return 0, errOTQ
	}
	if 4+otq > len(body) {
		return 0, errShort
	}
	return 4 + otq, nil
}

// Data is the DATA submessage (RTPS 2.5 §8.3.7.2, §9.4.5.3): one change of
// a writer, with optional inline QoS and an optional serialized payload.
//
// InlineQoS and SerializedPayload alias the parsed input (zero copy): they
// are valid only as long as the caller keeps the datagram buffer unchanged.
// InlineQoS is the raw ParameterList including its sentinel, in the
// submessage's byte order; the Q flag is set exactly when it is non-empty.
// SerializedPayload starts with the 4-byte encapsulation header unless
// NonStandardPayload is set.
type Data struct {
	// BigEndian selects the byte order of the submessage (E flag clear).
	BigEndian bool
	// DataFlag (D) says SerializedPayload holds the data of the sample.
	DataFlag bool
	// KeyFlag (K) says SerializedPayload holds the serialized key only.
	// D and K are never both set.
	KeyFlag bool
	// NonStandardPayload (N) says the payload does not follow the standard
	// SerializedPayload format.
	NonStandardPayload bool
	// ExtraFlags is the 16-bit extraFlags field, reserved (0) in RTPS 2.5.
	ExtraFlags        uint16
	ReaderID          EntityID
	WriterID          EntityID
	WriterSN          SequenceNumber
	InlineQoS         []byte
	SerializedPayload []byte
}

// Kind returns KindData.
func (d *Data) Kind() SubmessageKind { return KindData }

// flags returns the submessage flags of d without the endianness flag.
func (d *Data) flags() uint8 {
	return flagIf(len(d.InlineQoS) > 0, FlagDataInlineQoS) | flagIf(d.DataFlag, FlagDataData) |
		flagIf(d.KeyFlag, FlagDataKey) | flagIf(d.NonStandardPayload, FlagDataNonStandard)
}

// bodyLen returns the body size of d without trailing padding.
func (d *Data) bodyLen() int {
	n := dataFixedLen + len(d.InlineQoS)
	if d.DataFlag || d.KeyFlag {
		n += len(d.SerializedPayload)
	}
	return n
}

// Len returns the wire size of d: submessage header, body and the zero
// padding that brings the body to a multiple of 4 octets.
func (d *Data) Len() int {
	n := d.bodyLen()
	return SubmessageHeaderLen + n + pad4(n)
}

// Append appends d, submessage header included, to b. octetsToInlineQos is
// always 16. The payload is written only when DataFlag or KeyFlag is set,
// and zero octets pad the submessage to a multiple of 4.
func (d *Data) Append(b []byte) []byte {
	n := d.bodyLen()
	p := pad4(n)
	b = appendSubmessageHeader(b, KindData, d.flags(), n+p, d.BigEndian)
	b = appendU16(b, d.ExtraFlags, d.BigEndian)
	b = appendU16(b, dataOctetsToQoS, d.BigEndian)
	b = d.ReaderID.Append(b)
	b = d.WriterID.Append(b)
	b = d.WriterSN.Append(b, d.BigEndian)
	b = append(b, d.InlineQoS...)
	if d.DataFlag || d.KeyFlag {
		b = append(b, d.SerializedPayload...)
	}
	return append(b, zeros[:p]...)
}

var zeros [4]byte

// ParseData parses the DATA submessage at the start of b (submessage header
// included) and returns it with the number of bytes consumed.
func ParseData(b []byte) (Data, int, error) {
	var x Data
	n, err := parseAs(b, KindData, x.decode)
	return x, n, err
}

// decode fills d from the flags and body of a DATA submessage. It validates
// like RTPS 2.5 §8.3.7.2.3 (and Cyclone DDS): writerSN >= 1, not both D and
// K, octetsToInlineQos a multiple of 4 and at least 16 (extra octets are
// skipped), inline QoS a ParameterList ending in a sentinel, and a payload
// of at least 4 octets when D or K is set.
func (d *Data) decode(flags uint8, body []byte) error {
	be := flags&FlagEndianness == 0
	if len(body) < dataFixedLen {
		return errShortData
	}
	if flags&(FlagDataData|FlagDataKey) == FlagDataData|FlagDataKey {
		return errDataKeyAndData
	}
	*d = Data{
		BigEndian:          be,
		DataFlag:           flags&FlagDataData != 0,
		KeyFlag:            flags&FlagDataKey != 0,
		NonStandardPayload: flags&FlagDataNonStandard != 0,
		ExtraFlags:         u16(body, be),
		ReaderID:           EntityID{Key: [3]byte{body[4], body[5], body[6]}, Kind: body[7]},
		WriterID:           EntityID{Key: [3]byte{body[8], body[9], body[10]}, Kind: body[11]},
		WriterSN:           snFrom(body[12:], be),
	}
	if d.WriterSN < 1 {
		return errDataSN
	}
	if flags&(FlagDataInlineQoS|FlagDataData|FlagDataKey) == 0 {
		return nil // nothing follows the fixed part; octetsToInlineQos is moot
	}
	off, err := inlineQoSOffset(body, be, dataOctetsToQoS, errDataOctetsToQoS, errShortData)
	if err != nil {
		return err
	}
	if flags&FlagDataInlineQoS != 0 {
		if d.InlineQoS, off, err = inlineQoSAt(body, off, be); err != nil {
			return err
		}
	}
	if d.DataFlag || d.KeyFlag {
		if len(body)-off < 4 && !d.NonStandardPayload {
			return errDataPayload
		}
		d.SerializedPayload = body[off:len(body):len(body)]
	}
	return nil
}

// DataFrag is the DATA_FRAG submessage (RTPS 2.5 §8.3.7.3, §9.4.5.4): one
// or more consecutive fragments of a change too large for one DATA.
//
// InlineQoS and Fragments alias the parsed input, as for Data. Fragments
// holds FragmentsInSubmessage fragments of FragmentSize octets, the last one
// possibly shorter when it ends the sample; the first fragment of a sample
// starts with the 4-byte encapsulation header.
type DataFrag struct {
	// BigEndian selects the byte order of the submessage (E flag clear).
	BigEndian bool
	// KeyFlag (K) says the fragments are of the serialized key.
	KeyFlag bool
	// NonStandardPayload (N) says the payload does not follow the standard
	// SerializedPayload format.
	NonStandardPayload bool
	// ExtraFlags is the 16-bit extraFlags field, reserved (0) in RTPS 2.5.
	ExtraFlags            uint16
	ReaderID              EntityID
	WriterID              EntityID
	WriterSN              SequenceNumber
	FragmentStartingNum   FragmentNumber
	FragmentsInSubmessage uint16
	FragmentSize          uint16
	SampleSize            uint32
	InlineQoS             []byte
	Fragments             []byte
}

// Kind returns KindDataFrag.
func (d *DataFrag) Kind() SubmessageKind { return KindDataFrag }

func (d *DataFrag) flags() uint8 {
	return flagIf(len(d.InlineQoS) > 0, FlagDataFragInlineQoS) | flagIf(d.KeyFlag, FlagDataFragKey) |
		flagIf(d.NonStandardPayload, FlagDataFragNonStandard)
}

func (d *DataFrag) bodyLen() int { return dataFragFixedLen + len(d.InlineQoS) + len(d.Fragments) }

// Len returns the wire size of d, submessage header and padding included.
func (d *DataFrag) Len() int {
	n := d.bodyLen()
	return SubmessageHeaderLen + n + pad4(n)
}

// Append appends d, submessage header included, to b. octetsToInlineQos is
// always 28; zero octets pad the submessage to a multiple of 4.
func (d *DataFrag) Append(b []byte) []byte {
	n := d.bodyLen()
	p := pad4(n)
	be := d.BigEndian
	b = appendSubmessageHeader(b, KindDataFrag, d.flags(), n+p, be)
	b = appendU16(b, d.ExtraFlags, be)
	b = appendU16(b, dataFragOctetsToQ, be)
	b = d.ReaderID.Append(b)
	b = d.WriterID.Append(b)
	b = d.WriterSN.Append(b, be)
	b = appendU32(b, uint32(d.FragmentStartingNum), be)
	b = appendU16(b, d.FragmentsInSubmessage, be)
	b = appendU16(b, d.FragmentSize, be)
	b = appendU32(b, d.SampleSize, be)
	b = append(b, d.InlineQoS...)
	b = append(b, d.Fragments...)
	return append(b, zeros[:p]...)
}

// ParseDataFrag parses the DATA_FRAG submessage at the start of b
// (submessage header included) and returns it with the number of bytes
// consumed.
func ParseDataFrag(b []byte) (DataFrag, int, error) {
	var x DataFrag
	n, err := parseAs(b, KindDataFrag, x.decode)
	return x, n, err
}

// decode fills d from the flags and body of a DATA_FRAG submessage. It
// validates like RTPS 2.5 §8.3.7.3.3 (and Cyclone DDS): writerSN >= 1,
// non-zero fragment numbers and sizes, fragments that start within
// sampleSize, and a payload holding all announced fragments, of which only
// the last one may be short, and then only if it ends the sample.
func (d *DataFrag) decode(flags uint8, body []byte) error {
	be := flags&FlagEndianness == 0
	if len(body) < dataFragFixedLen {
		return errShortDataFrag
	}
	*d = DataFrag{
		BigEndian:             be,
		KeyFlag:               flags&FlagDataFragKey != 0,
		NonStandardPayload:    flags&FlagDataFragNonStandard != 0,
		ExtraFlags:            u16(body, be),
		ReaderID:              EntityID{Key: [3]byte{body[4], body[5], body[6]}, Kind: body[7]},
		WriterID:              EntityID{Key: [3]byte{body[8], body[9], body[10]}, Kind: body[11]},
		WriterSN:              snFrom(body[12:], be),
		FragmentStartingNum:   FragmentNumber(u32(body[20:], be)),
		FragmentsInSubmessage: u16(body[24:], be),
		FragmentSize:          u16(body[26:], be),
		SampleSize:            u32(body[28:], be),
	}
	if d.WriterSN < 1 {
		return errFragSN
	}
	start, count, size := uint64(d.FragmentStartingNum), uint64(d.FragmentsInSubmessage), uint64(d.FragmentSize)
	if start == 0 || count == 0 || size == 0 {
		return errFragZero
	}
	if (start+count-2)*size >= uint64(d.SampleSize) {
		return errFragBeyondSample
	}
	off, err := inlineQoSOffset(body, be, dataFragOctetsToQ, errFragOctetsToQoS, errShortDataFrag)
	if err != nil {
		return err
	}
	if flags&FlagDataFragInlineQoS != 0 {
		if d.InlineQoS, off, err = inlineQoSAt(body, off, be); err != nil {
			return err
		}
	}
	payload := uint64(len(body) - off)
	switch {
	case count*size <= payload:
		// all fragments present in full (plus, perhaps, padding)
	case (count-1)*size >= payload:
		return errFragPayload // more than the last fragment is short
	case (start-1)*size+payload < uint64(d.SampleSize):
		return errFragPayload // a short last fragment must end the sample
	}
	if start == 1 && payload < 4 && !d.NonStandardPayload {
		return errFragPayload
	}
	d.Fragments = body[off:len(body):len(body)]
	return nil
}
