package wire

import (
	"errors"
	"fmt"
)

// ErrMustUnderstand is matched (with errors.Is) by the [MustUnderstandError]
// a [ParameterReader] returns for an unrecognized parameter id that has the
// must-understand bit set.
var ErrMustUnderstand = errors.New("wire: ParameterList: unknown must-understand parameter")

// MustUnderstandError reports a parameter id with the must-understand bit
// (0x4000) that the reader does not recognize for the message's vendor. The
// receiver must then drop the whole ParameterList (RTPS 2.5 §9.6.2.2.1).
type MustUnderstandError struct {
	ID ParameterID
}

func (e MustUnderstandError) Error() string {
	return fmt.Sprintf("wire: ParameterList: unknown must-understand parameter %#04x", uint16(e.ID))
}

// Is makes errors.Is(err, ErrMustUnderstand) true.
func (e MustUnderstandError) Is(target error) bool { return target == ErrMustUnderstand }

// Parameter is one element of a ParameterList. Value aliases the parsed
// input and holds the parameter's octets as on the wire, padding included.
type Parameter struct {
	ID ParameterID
	// ExtendedID is the 32-bit member id of a PID_EXTENDED parameter (ID is
	// then PIDExtended) and zero otherwise.
	ExtendedID uint32
	// BigEndian is the byte order of the list, needed to decode Value.
	BigEndian bool
	Value     []byte
}

// ParameterReader iterates over a ParameterList (RTPS 2.5 §9.4.2.11) without
// allocating:
//
//	r := wire.NewParameterReader(b, bigEndian, vendor)
//	for p, ok := r.Next(); ok; p, ok = r.Next() {
//		...
//	}
//	if err := r.Err(); err != nil { ... }
//
// PID_PAD and PID_IGNORE are skipped; PID_SENTINEL (or PID_LIST_END) ends
// the list whatever its length field says. The reader is lenient where the
// peers are: a length that is not a multiple of 4 is accepted and the next
// parameter is read right after the value, and a list that ends with the
// input at a parameter boundary without a sentinel is accepted
// ([ParameterReader.HasSentinel] tells). A parameter longer than the
// remaining input, a partial parameter header and a malformed PID_EXTENDED
// stop the iteration with an error wrapping [ErrTruncated] or [ErrInvalid].
// A parameter with the must-understand bit that [ParameterID.Known] does not
// recognize for vendor stops it with a [MustUnderstandError].
// Vendor-specific ids of any vendor are returned; interpret them only when
// [ParameterID.Known] says so for the message's vendor.
type ParameterReader struct {
	b        []byte
	off      int
	be       bool
	vendor   VendorID
	done     bool
	sentinel bool
	err      error
}

// NewParameterReader returns a reader over the ParameterList at the start of
// b, in the byte order selected by be, sent by vendor.
func NewParameterReader(b []byte, be bool, vendor VendorID) ParameterReader {
	return ParameterReader{b: b, be: be, vendor: vendor}
}

// Next returns the next parameter and true, or false at the end of the list
// or on an error (see [ParameterReader.Err]).
func (r *ParameterReader) Next() (Parameter, bool) {
	for !r.done {
		rest := r.b[r.off:]
		if len(rest) == 0 {
			r.done = true
			break
		}
		if len(rest) < 4 {
			r.fail(errParamHeader)
			break
		}
		id := ParameterID(u16(rest, r.be))
		n := int(u16(rest[2:], r.be))
		if id == PIDSentinel || id == PIDListEnd {
			r.off += 4
			r.done, r.sentinel = true, true
			break
		}
		if n > len(rest)-4 {
			r.fail(errParamLength)
			break
		}
		r.off += 4 + n
		p := Parameter{ID: id, BigEndian: r.be, Value: rest[4 : 4+n : 4+n]}
		switch {
		case id == PIDPad || id == PIDIgnore:
			continue
		case id == PIDExtended:
			if n != 8 {
				r.fail(errParamExtended)
				return Parameter{}, false
			}
			p.ExtendedID = u32(rest[4:], r.be)
			m := u32(rest[8:], r.be)
			if uint64(m) > uint64(len(rest)-12) {
				r.fail(errParamLength)
				return Parameter{}, false
			}
			r.off += int(m)
			p.Value = rest[12 : 12+m : 12+m]
		case id.MustUnderstand() && !id.Known(r.vendor):
			r.fail(MustUnderstandError{ID: id})
			return Parameter{}, false
		}
		return p, true
	}
	return Parameter{}, false
}

func (r *ParameterReader) fail(err error) {
	r.err = err
	r.done = true
}

// Err returns the error that ended the iteration, or nil.
func (r *ParameterReader) Err() error { return r.err }

// HasSentinel reports whether the list read so far ended with PID_SENTINEL
// (or PID_LIST_END).
func (r *ParameterReader) HasSentinel() bool { return r.sentinel }

// Len returns the number of octets read so far; once Next has returned false
// without error it is the size of the whole list, sentinel included.
func (r *ParameterReader) Len() int { return r.off }

// FindParameter returns the first parameter with the given id in the
// ParameterList b, for example PID_KEY_HASH or PID_STATUS_INFO in inline QoS.
// It does not allocate. It returns false when the list holds no such
// parameter or is malformed before it.
func FindParameter(b []byte, be bool, vendor VendorID, id ParameterID) (Parameter, bool) {
	r := NewParameterReader(b, be, vendor)
	for p, ok := r.Next(); ok; p, ok = r.Next() {
		if p.ID == id {
			return p, true
		}
	}
	return Parameter{}, false
}

// ParamWriter appends a ParameterList to a byte slice. Every parameter is
// written with its value padded by zero octets to a multiple of 4 and its
// length field set accordingly; [ParamWriter.Finish] appends PID_SENTINEL.
// Errors (a value too long for the 16-bit length field, a reserved id) are
// sticky: the offending parameter is left out and Finish returns the first
// error.
type ParamWriter struct {
	b      []byte
	be     bool
	closed bool
	err    error
}

// NewParamWriter returns a writer that appends to b in the byte order
// selected by be.
func NewParamWriter(b []byte, be bool) ParamWriter {
	return ParamWriter{b: b, be: be}
}

// BigEndian reports the byte order of the writer.
func (w *ParamWriter) BigEndian() bool { return w.be }

// begin appends the header of a parameter with a zero length and returns its
// offset, or -1 if the parameter must not be written.
func (w *ParamWriter) begin(id ParameterID) int {
	if w.closed {
		w.setErr(errParamAfterClose)
		return -1
	}
	if id == PIDPad || id == PIDSentinel || id == PIDExtended || id == PIDListEnd || id == PIDIgnore {
		w.setErr(errParamReserved)
		return -1
	}
	at := len(w.b)
	w.b = appendU16(w.b, uint16(id), w.be)
	w.b = append(w.b, 0, 0)
	return at
}

// end pads the value of the parameter that starts at offset at and sets its
// length, or drops it if the value is too long.
func (w *ParamWriter) end(at int) {
	if at < 0 {
		return
	}
	n := len(w.b) - at - 4
	p := pad4(n)
	if n+p > 0xffff {
		w.b = w.b[:at]
		w.setErr(errParamTooLong)
		return
	}
	w.b = append(w.b, zeros[:p]...)
	n += p
	if w.be {
		w.b[at+2], w.b[at+3] = byte(n>>8), byte(n)
	} else {
		w.b[at+2], w.b[at+3] = byte(n), byte(n>>8)
	}
}

func (w *ParamWriter) setErr(err error) {
	if w.err == nil {
		w.err = err
	}
}

// Err returns the first error met so far.
func (w *ParamWriter) Err() error { return w.err }

// Bytes returns the list written so far, without sentinel.
func (w *ParamWriter) Bytes() []byte { return w.b }

// Finish appends PID_SENTINEL (length 0) and returns the whole buffer and the
// first error met. Nothing may be written after Finish.
func (w *ParamWriter) Finish() ([]byte, error) {
	if !w.closed {
		w.closed = true
		w.b = appendU16(w.b, uint16(PIDSentinel), w.be)
		w.b = append(w.b, 0, 0)
	}
	return w.b, w.err
}

// ValueAppender is a parameter value that can append its wire form.
type ValueAppender interface {
	Append(b []byte, be bool) []byte
}

// ParamValue is a value that knows its parameter id: the QoS policy structs
// of this package and the other single-PID values.
type ParamValue interface {
	ValueAppender
	PID() ParameterID
}

// put writes parameter id with the value that app appends to the list: the
// common body of the Put methods.
func (w *ParamWriter) put(id ParameterID, app func(b []byte) []byte) {
	at := w.begin(id)
	if at >= 0 {
		w.b = app(w.b)
	}
	w.end(at)
}

// Put writes the parameter v.PID() with value v. It may allocate to box v;
// the Put… methods for fixed types do not.
func (w *ParamWriter) Put(v ParamValue) { w.PutAs(v.PID(), v) }

// PutAs writes parameter id with value v, for values whose id depends on
// the context (SampleIdentity, CycloneParticipantVersionInfo, Duration...).
// It may allocate to box v.
func (w *ParamWriter) PutAs(id ParameterID, v ValueAppender) {
	w.put(id, func(b []byte) []byte { return v.Append(b, w.be) })
}

// PutRaw writes a parameter whose value is given as octets, for example
// PID_TYPE_INFORMATION or an unknown parameter being forwarded. The value is
// padded to a multiple of 4.
func (w *ParamWriter) PutRaw(id ParameterID, value []byte) {
	w.put(id, func(b []byte) []byte { return append(b, value...) })
}

// PutGUID writes a GUID-valued parameter (PID_PARTICIPANT_GUID,
// PID_ENDPOINT_GUID, PID_GROUP_GUID, PID_DIRECTED_WRITE...).
func (w *ParamWriter) PutGUID(id ParameterID, g GUID) {
	w.put(id, func(b []byte) []byte { return g.Append(b) })
}

// PutEntityID writes an EntityId-valued parameter (PID_GROUP_ENTITYID).
func (w *ParamWriter) PutEntityID(id ParameterID, e EntityID) {
	w.put(id, func(b []byte) []byte { return e.Append(b) })
}

// PutLocator writes a Locator-valued parameter (the six *_LOCATOR ids); a
// locator list is one parameter per locator.
func (w *ParamWriter) PutLocator(id ParameterID, l Locator) {
	w.put(id, func(b []byte) []byte { return l.Append(b, w.be) })
}

// PutDuration writes a Duration-valued parameter
// (PID_PARTICIPANT_LEASE_DURATION).
func (w *ParamWriter) PutDuration(id ParameterID, d Duration) {
	w.put(id, func(b []byte) []byte { return d.Append(b, w.be) })
}

// PutSequenceNumber writes a SequenceNumber-valued parameter
// (PID_COHERENT_SET, PID_GROUP_COHERENT_SET, PID_GROUP_SEQ_NUM).
func (w *ParamWriter) PutSequenceNumber(id ParameterID, sn SequenceNumber) {
	w.put(id, func(b []byte) []byte { return sn.Append(b, w.be) })
}

// PutUint32 writes a 32-bit integer parameter (PID_DOMAIN_ID,
// PID_BUILTIN_ENDPOINT_SET, PID_BUILTIN_ENDPOINT_QOS,
// PID_TYPE_MAX_SIZE_SERIALIZED, PID_PARTICIPANT_MANUAL_LIVELINESS_COUNT...);
// pass signed values converted with uint32().
func (w *ParamWriter) PutUint32(id ParameterID, v uint32) {
	w.put(id, func(b []byte) []byte { return appendU32(b, v, w.be) })
}

// PutBool writes a boolean parameter (PID_EXPECTS_INLINE_QOS): one octet
// 0 or 1 and three octets of padding.
func (w *ParamWriter) PutBool(id ParameterID, v bool) {
	w.put(id, func(b []byte) []byte { return AppendBool(b, v) })
}

// PutString writes a CDR string parameter (PID_TOPIC_NAME, PID_TYPE_NAME,
// PID_ENTITY_NAME, PID_DOMAIN_TAG): length including the terminating NUL,
// the characters, NUL, padding.
func (w *ParamWriter) PutString(id ParameterID, s string) {
	w.put(id, func(b []byte) []byte { return AppendString(b, s, w.be) })
}

// PutOctets writes a sequence<octet> parameter (PID_USER_DATA,
// PID_TOPIC_DATA, PID_GROUP_DATA): length, octets, padding.
func (w *ParamWriter) PutOctets(id ParameterID, v []byte) {
	w.put(id, func(b []byte) []byte { return AppendOctetSeq(b, v, w.be) })
}

// PutProtocolVersion writes PID_PROTOCOL_VERSION.
func (w *ParamWriter) PutProtocolVersion(v ProtocolVersion) {
	w.put(PIDProtocolVersion, func(b []byte) []byte { return v.Append(b) })
}

// PutVendorID writes PID_VENDORID.
func (w *ParamWriter) PutVendorID(v VendorID) {
	w.put(PIDVendorID, func(b []byte) []byte { return v.Append(b) })
}

// PutKeyHash writes PID_KEY_HASH.
func (w *ParamWriter) PutKeyHash(h KeyHash) {
	w.put(PIDKeyHash, func(b []byte) []byte { return append(b, h[:]...) })
}

// PutStatusInfo writes PID_STATUS_INFO (always big-endian).
func (w *ParamWriter) PutStatusInfo(s StatusInfo) {
	w.put(PIDStatusInfo, func(b []byte) []byte { return s.Append(b, w.be) })
}
