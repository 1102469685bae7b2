package xtypes

import (
	"fmt"

	"github.com/ddsgo/ddsgo/internal/cdr"
)

// Member ids of TypeInformation (a mutable struct, §7.6.3.2.2).
const (
	infoMinimal  = 0x1001
	infoComplete = 0x1002
)

// IDWithSize is a TypeIdentifierWithSize: a hashed identifier and the size of the
// serialized TypeObject it names.
type IDWithSize struct {
	ID   TypeID
	Size uint32
}

// IDWithDeps is a TypeIdentifierWithDependencies: a type and the hashed types it needs.
// DependentCount is the number of dependencies, which may exceed len(Dependent) when a
// sender lists only some of them (-1: not counted).
type IDWithDeps struct {
	Type           IDWithSize
	DependentCount int32
	Dependent      []IDWithSize
}

// Info is a TypeInformation: what an endpoint announces of its type in
// PID_TYPE_INFORMATION.
type Info struct {
	Minimal, Complete IDWithDeps
}

// Info returns the TypeInformation of the types: every dependency is listed.
func (t *Types) Info() Info {
	return Info{Minimal: withDeps(t.Minimal, t.MinimalObjects), Complete: withDeps(t.Complete, t.CompleteObjects)}
}

func withDeps(top TypeID, objs []Object) IDWithDeps {
	var w IDWithDeps
	for _, o := range objs {
		s := IDWithSize{ID: o.ID, Size: uint32(len(o.Bytes))}
		if o.ID.Hash == top.Hash {
			w.Type = s
			continue
		}
		w.Dependent = append(w.Dependent, s)
	}
	w.DependentCount = int32(len(w.Dependent))
	return w
}

// Append appends the TypeInformation in XCDR2 little-endian without an encapsulation
// header: the value of PID_TYPE_INFORMATION.
func (i *Info) Append(b []byte) []byte {
	var e cdr.Encoder
	e.ResetBody(b, false, true)
	all := e.BeginDHeader()
	for _, m := range [...]struct {
		id uint32
		w  *IDWithDeps
	}{{infoMinimal, &i.Minimal}, {infoComplete, &i.Complete}} {
		pos := e.BeginMember(m.id, false)
		m.w.encode(&e)
		e.EndMember(pos)
	}
	e.EndDHeader(all)
	return e.Bytes()
}

func (w *IDWithDeps) encode(e *cdr.Encoder) {
	pos := e.BeginDHeader()
	w.Type.encode(e)
	e.Int32(w.DependentCount)
	seq := e.BeginDHeader()
	e.SeqLen(len(w.Dependent))
	for i := range w.Dependent {
		w.Dependent[i].encode(e)
	}
	e.EndDHeader(seq)
	e.EndDHeader(pos)
}

func (s *IDWithSize) encode(e *cdr.Encoder) {
	pos := e.BeginDHeader()
	s.ID.encode(e)
	e.Uint32(s.Size)
	e.EndDHeader(pos)
}

// ParseInfo decodes a PID_TYPE_INFORMATION value (XCDR2 little-endian, as every
// implementation sends it). Members other than minimal and complete are skipped.
func ParseInfo(b []byte) (Info, error) {
	var i Info
	var d cdr.Decoder
	d.ResetBody(b, false, true)
	end := d.DHeader()
	for {
		id, _, mend, ok := d.Member(end)
		if !ok {
			break
		}
		var err error
		switch id {
		case infoMinimal:
			i.Minimal, err = decodeDeps(&d, mend)
		case infoComplete:
			i.Complete, err = decodeDeps(&d, mend)
		}
		if err != nil {
			return i, err
		}
		d.SkipTo(mend)
	}
	if err := d.Err(); err != nil {
		return i, fmt.Errorf("%w: %w", errMalformed, err)
	}
	return i, nil
}

func decodeDeps(d *cdr.Decoder, limit int) (IDWithDeps, error) {
	var w IDWithDeps
	end := d.DHeader()
	if end > limit {
		return w, errMalformed
	}
	var err error
	if w.Type, err = decodeWithSize(d, end); err != nil {
		return w, err
	}
	w.DependentCount = d.Int32()
	if !d.AtEnd(end) {
		send := d.DHeader()
		n := d.SeqLen(4 + 1 + 4) // DHEADER, kind, size at the least
		for range n {
			s, err := decodeWithSize(d, send)
			if err != nil {
				return w, err
			}
			w.Dependent = append(w.Dependent, s)
		}
		d.SkipTo(send)
	}
	d.SkipTo(end)
	return w, d.Err()
}

func decodeWithSize(d *cdr.Decoder, limit int) (IDWithSize, error) {
	var s IDWithSize
	end := d.DHeader()
	if end > limit {
		return s, errMalformed
	}
	var err error
	if s.ID, err = decodeID(d, 0); err != nil {
		return s, err
	}
	s.Size = d.Uint32()
	d.SkipTo(end)
	return s, d.Err()
}

// AppendMapping appends the types as Cyclone DDS's TypeMapping (XCDR2 little-endian):
// the minimal (identifier, TypeObject) pairs, the complete ones, and the complete to
// minimal identifier pairs. idlc writes this as TYPE_MAP_CDR; it is the reply material of
// the TypeLookup service.
func (t *Types) AppendMapping(b []byte) []byte {
	var e cdr.Encoder
	e.ResetBody(b, false, true)
	for _, objs := range [...][]Object{t.MinimalObjects, t.CompleteObjects} {
		encodeObjects(&e, objs)
	}
	seq := e.BeginDHeader()
	e.SeqLen(len(t.Pairs))
	for _, p := range t.Pairs {
		p[0].encode(&e)
		p[1].encode(&e)
	}
	e.EndDHeader(seq)
	return e.Bytes()
}

// encodeObjects encodes objs as a sequence of TypeIdentifierTypeObjectPair (with its
// DHEADER): each object's identifier, then its serialized TypeObject.
func encodeObjects(e *cdr.Encoder, objs []Object) {
	seq := e.BeginDHeader()
	e.SeqLen(len(objs))
	for _, o := range objs {
		o.ID.encode(e)
		e.Align(4)
		e.Octets(o.Bytes)
	}
	e.EndDHeader(seq)
}
