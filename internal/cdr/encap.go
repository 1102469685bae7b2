package cdr

import "fmt"

// EncapsulationID is the 2-byte representation identifier that starts every serialized
// payload (RTPS 2.5 §10.2, DDS-XTypes 1.3 §7.6.3.1.2). It always travels big-endian.
type EncapsulationID uint16

// The representation identifiers. XCDR1: CDR (plain) and PL_CDR (parameter list, for
// mutable types). XCDR2: CDR2 (plain, final types), D_CDR2 (delimited, appendable types)
// and PL_CDR2 (parameter list, mutable types). XTypes 1.3 Table 60 (the values 0x0006 to
// 0x000b are those Cyclone DDS and Fast DDS put on the wire).
const (
	CDRBE    EncapsulationID = 0x0000
	CDRLE    EncapsulationID = 0x0001
	PLCDRBE  EncapsulationID = 0x0002
	PLCDRLE  EncapsulationID = 0x0003
	CDR2BE   EncapsulationID = 0x0006
	CDR2LE   EncapsulationID = 0x0007
	DCDR2BE  EncapsulationID = 0x0008
	DCDR2LE  EncapsulationID = 0x0009
	PLCDR2BE EncapsulationID = 0x000a
	PLCDR2LE EncapsulationID = 0x000b
)

// Valid reports whether id is one of the encapsulations this package reads and writes.
func (id EncapsulationID) Valid() bool {
	return id <= PLCDRLE || (id >= CDR2BE && id <= PLCDR2LE)
}

// BigEndian reports whether the payload after the header is big-endian.
func (id EncapsulationID) BigEndian() bool { return id&1 == 0 }

// Version2 reports whether id is an XCDR2 encapsulation (8-byte values aligned to 4).
func (id EncapsulationID) Version2() bool { return id >= CDR2BE }

// ParameterList reports whether id is PL_CDR or PL_CDR2 (the encoding of mutable types).
func (id EncapsulationID) ParameterList() bool {
	return id == PLCDRBE || id == PLCDRLE || id == PLCDR2BE || id == PLCDR2LE
}

// Delimited reports whether id is D_CDR2 (the encoding of appendable types).
func (id EncapsulationID) Delimited() bool { return id == DCDR2BE || id == DCDR2LE }

// encapNames are the spec's names of the encapsulations, by id.
var encapNames = [...]string{
	CDRBE: "CDR_BE", CDRLE: "CDR_LE", PLCDRBE: "PL_CDR_BE", PLCDRLE: "PL_CDR_LE",
	CDR2BE: "CDR2_BE", CDR2LE: "CDR2_LE", DCDR2BE: "D_CDR2_BE", DCDR2LE: "D_CDR2_LE",
	PLCDR2BE: "PL_CDR2_BE", PLCDR2LE: "PL_CDR2_LE",
}

// String returns the spec's name of the encapsulation.
func (id EncapsulationID) String() string {
	if id.Valid() {
		return encapNames[id]
	}
	return fmt.Sprintf("EncapsulationID(%#04x)", uint16(id))
}

// Encapsulation returns the identifier a type of extensibility ext is written with in the
// given XCDR version and byte order.
func Encapsulation(ext Extensibility, version2, bigEndian bool) EncapsulationID {
	var id EncapsulationID
	switch {
	case !version2 && ext == Mutable:
		id = PLCDRBE
	case !version2:
		id = CDRBE
	case ext == Final:
		id = CDR2BE
	case ext == Appendable:
		id = DCDR2BE
	default:
		id = PLCDR2BE
	}
	if !bigEndian {
		id |= 1
	}
	return id
}

// Extensibility is a type's XTypes extensibility kind.
type Extensibility uint8

// The extensibility kinds (XTypes 1.3 §7.2.2.4.4.4.7). Final is the default.
const (
	Final Extensibility = iota
	Appendable
	Mutable
)

// String returns the IDL annotation name.
func (x Extensibility) String() string {
	if x <= Mutable {
		return [...]string{Final: "final", Appendable: "appendable", Mutable: "mutable"}[x]
	}
	return fmt.Sprintf("Extensibility(%d)", uint8(x))
}

// stream is what an Encoder and a Decoder share: the encapsulation with its byte order and
// XCDR version, and the first error (errors are sticky).
type stream struct {
	be  bool
	v2  bool
	id  EncapsulationID
	err error
}

func (s *stream) set(id EncapsulationID) {
	s.be, s.v2, s.id, s.err = id.BigEndian(), id.Version2(), id, nil
}

// Err returns the first error met, or nil.
func (s *stream) Err() error { return s.err }

// SetErr records err unless an error is already recorded.
func (s *stream) SetErr(err error) {
	if s.err == nil {
		s.err = err
	}
}

// BigEndian reports the byte order of the stream.
func (s *stream) BigEndian() bool { return s.be }

// Version2 reports whether the stream is XCDR2.
func (s *stream) Version2() bool { return s.v2 }

// Encapsulation returns the encapsulation id given to or read by Reset (for ResetBody, the
// plain CDR or CDR2 id of its byte order and version).
func (s *stream) Encapsulation() EncapsulationID { return s.id }
