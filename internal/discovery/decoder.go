package discovery

import (
	"encoding/binary"
	"fmt"

	"github.com/ddsgo/ddsgo/internal/wire"
)

// Encapsulation identifiers of discovery payloads (RTPS 2.5 §10.2,
// §9.6.2.2): a ParameterList in big- or little-endian order.
const (
	encPLCDRBE = 0x0002
	encPLCDRLE = 0x0003
)

// Decoder decodes the discovery data of one remote participant, with the
// context the payload alone does not give: the vendor of the message and
// the bounds to apply. The zero Decoder takes the vendor from the data's own
// PID_VENDORID and applies [DefaultLimits]. A Decoder holds no state between
// calls and may be shared by goroutines.
type Decoder struct {
	// Vendor is the vendor id of the RTPS message the data came in (its
	// header). Vendor-specific parameters are interpreted for it and an
	// unknown must-understand parameter is one this package does not know
	// for it. VendorUnknown takes it from the PID_VENDORID in the data.
	Vendor wire.VendorID
	// Limits bounds each decoded entity; see [Limits].
	Limits Limits
}

// Param is a parameter kept raw: a vendor-specific parameter, interpreted
// only by code that knows the vendor that sent it. Value holds the octets as
// on the wire, padding included, in the byte order of the list it came from
// (little-endian for the data this package writes).
type Param struct {
	ID        wire.ParameterID
	BigEndian bool
	Value     []byte
}

// plist is a ParameterList being decoded: the iterator and its context.
type plist struct {
	r      wire.ParameterReader
	vendor wire.VendorID
	lim    Limits
	what   string // "SPDP", "SEDP", "topic" for error messages
}

// checkAnnounce reports whether v can be announced as it is: its
// ParameterList can be written, and a peer decoding it with decode under
// limits l accepts it.
func checkAnnounce[T any](v interface{ appendList([]byte) ([]byte, error) }, l Limits, decode func(*Decoder, []byte) (T, error)) error {
	b, err := v.appendList(nil)
	if err != nil {
		return err
	}
	d := Decoder{Limits: l}
	_, err = decode(&d, b)
	return err
}

// open checks the encapsulation header of a discovery payload and returns a
// reader over its ParameterList.
func (d *Decoder) open(payload []byte, what string) (*plist, error) {
	if len(payload) < 4 {
		return nil, fmt.Errorf("discovery: %s: payload of %d octets, no encapsulation header: %w", what, len(payload), ErrInvalid)
	}
	var be bool
	switch enc := binary.BigEndian.Uint16(payload); enc {
	case encPLCDRBE:
		be = true
	case encPLCDRLE:
	default:
		return nil, fmt.Errorf("discovery: %s: encapsulation %#04x is not PL_CDR_BE or PL_CDR_LE: %w", what, enc, ErrInvalid)
	}
	list := payload[4:]
	vendor := d.Vendor
	if vendor == wire.VendorUnknown {
		if p, ok := wire.FindParameter(list, be, wire.VendorUnknown, wire.PIDVendorID); ok {
			vendor, _, _ = wire.ParseVendorID(p.Value)
		}
	}
	return &plist{
		r:      wire.NewParameterReader(list, be, vendor),
		vendor: vendor,
		lim:    d.Limits.resolved(),
		what:   what,
	}, nil
}

// err wraps an error met while decoding parameter id.
func (l *plist) err(id wire.ParameterID, err error) error {
	return fmt.Errorf("discovery: %s: %s: %w", l.what, pidName(id, l.vendor), err)
}

// pidName names id as sent by vendor.
func pidName(id wire.ParameterID, vendor wire.VendorID) string {
	if name, ok := id.Name(vendor); ok {
		return "PID_" + name
	}
	return id.String()
}

// done returns the error that ended the iteration, if any.
func (l *plist) done() error {
	if err := l.r.Err(); err != nil {
		return fmt.Errorf("discovery: %s: %w", l.what, err)
	}
	return nil
}

// str decodes a string parameter bounded by MaxStringLen.
func (l *plist) str(p wire.Parameter) (string, error) {
	s, _, err := wire.ParseString(p.Value, p.BigEndian)
	if err != nil {
		return "", l.err(p.ID, err)
	}
	if err := check(p.ID.String()+" length", len(s), l.lim.MaxStringLen); err != nil {
		return "", l.err(p.ID, err)
	}
	return s, nil
}

// copyData copies an opaque value bounded by MaxDataLen; empty gives nil.
func (l *plist) copyData(id wire.ParameterID, v []byte) ([]byte, error) {
	if err := check(id.String()+" length", len(v), l.lim.MaxDataLen); err != nil {
		return nil, l.err(id, err)
	}
	if len(v) == 0 {
		return nil, nil
	}
	return append([]byte(nil), v...), nil
}

// guid decodes a GUID parameter.
func (l *plist) guid(p wire.Parameter) (wire.GUID, error) {
	g, _, err := wire.ParseGUID(p.Value)
	if err != nil {
		return g, l.err(p.ID, err)
	}
	return g, nil
}

// u32 decodes a 32-bit parameter.
func (l *plist) u32(p wire.Parameter) (uint32, error) {
	v, _, err := wire.ParseUint32(p.Value, p.BigEndian)
	if err != nil {
		return 0, l.err(p.ID, err)
	}
	return v, nil
}

// boolean decodes a boolean parameter.
func (l *plist) boolean(p wire.Parameter) (bool, error) {
	v, _, err := wire.ParseBool(p.Value)
	if err != nil {
		return false, l.err(p.ID, err)
	}
	return v, nil
}

// locator appends the locator of p to list, bounded by MaxLocators.
func (l *plist) locator(list []wire.Locator, p wire.Parameter) ([]wire.Locator, error) {
	loc, _, err := wire.ParseLocator(p.Value, p.BigEndian)
	if err != nil {
		return list, l.err(p.ID, err)
	}
	if err := check(p.ID.String()+" count", len(list)+1, l.lim.MaxLocators); err != nil {
		return list, l.err(p.ID, err)
	}
	return append(list, loc), nil
}

// vendorParam keeps a vendor-specific parameter raw.
func (l *plist) vendorParam(list []Param, p wire.Parameter) ([]Param, error) {
	if err := check("vendor-specific parameter count", len(list)+1, l.lim.MaxVendorParams); err != nil {
		return list, l.err(p.ID, err)
	}
	v, err := l.copyData(p.ID, p.Value)
	if err != nil {
		return list, err
	}
	return append(list, Param{ID: p.ID, BigEndian: p.BigEndian, Value: v}), nil
}

// common decodes the parameters shared by all discovery data. It returns
// false for parameters it does not handle.
func (l *plist) common(p wire.Parameter, version *wire.ProtocolVersion, vendor *wire.VendorID, vendorParams *[]Param) (bool, error) {
	var err error
	switch {
	case p.ID == wire.PIDProtocolVersion:
		*version, _, err = wire.ParseProtocolVersion(p.Value)
	case p.ID == wire.PIDVendorID:
		*vendor, _, err = wire.ParseVendorID(p.Value)
	case p.ID.IsVendorSpecific():
		*vendorParams, err = l.vendorParam(*vendorParams, p)
		return true, err
	default:
		return false, nil
	}
	if err != nil {
		return true, l.err(p.ID, err)
	}
	return true, nil
}

// newWriter starts a PL_CDR_LE payload: encapsulation header and an empty
// little-endian ParameterList.
func newWriter(b []byte) wire.ParamWriter {
	b = append(b, 0, encPLCDRLE, 0, 0)
	return wire.NewParamWriter(b, false)
}

// finish appends the sentinel. Parameters the ParamWriter refused (a value
// over 65532 octets) are left out and reported by the error, which the Check
// methods return.
func finish(w *wire.ParamWriter) ([]byte, error) {
	b, err := w.Finish()
	if err != nil {
		err = fmt.Errorf("discovery: %w", err)
	}
	return b, err
}

// putVendorParams writes raw vendor-specific parameters.
func putVendorParams(w *wire.ParamWriter, ps []Param) {
	for _, p := range ps {
		w.PutRaw(p.ID, p.Value)
	}
}
