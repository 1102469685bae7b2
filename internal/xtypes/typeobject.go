package xtypes

import (
	"bytes"
	"crypto/md5" //nolint:gosec // the EquivalenceHash is MD5 by DDS-XTypes 1.3 §7.3.4.2
	"fmt"

	"github.com/ddsgo/ddsgo/internal/cdr"
)

// tkAlias is the type kind of a typedef (§7.3.4.2).
const tkAlias = 0x30

// Extensibility of a parsed type: the TypeFlag bits of its TypeObject.
const (
	ExtFinal      = tfFinal
	ExtAppendable = tfAppendable
	ExtMutable    = tfMutable
)

// Type is a TypeObject (§7.3.4.5) parsed: a struct, union, enum or alias, in the
// complete form (with names) or the minimal one (member names as hashes).
type Type struct {
	ID   TypeID // the hashed identifier it was parsed for
	Kind uint8  // tkStruct, tkUnion, tkEnum or tkAlias
	Name string // complete form only
	Ext  uint16 // ExtFinal, ExtAppendable or ExtMutable (structs and unions)
	// Base is a struct's base type (inheritance), Kind tkNone when it has none; Related
	// the type an alias stands for; Disc the discriminator type of a union.
	Base, Related, Disc TypeID
	Members             []Member
	BitBound            uint16    // enums
	Literals            []Literal // enums
}

// Member is a member of a struct or union.
type Member struct {
	ID       uint32
	Flags    uint16
	Type     TypeID
	Name     string  // complete form
	NameHash [4]byte // minimal form; NameHash(Name) in the complete one
	Labels   []int32 // union cases
}

// Key reports whether the member is a key; Optional whether it is optional; Default
// whether it is a union's default case.
func (m *Member) Key() bool      { return m.Flags&mfKey != 0 }
func (m *Member) Optional() bool { return m.Flags&mfOptional != 0 }
func (m *Member) Default() bool  { return m.Flags&mfDefault != 0 }

// Literal is an enumerator.
type Literal struct {
	Value    int32
	Name     string
	NameHash [4]byte
}

// Complete reports whether t is in the complete form.
func (t *Type) Complete() bool { return t.ID.Kind == EKComplete }

// Bounds of what a TypeObject may hold when parsed: it comes from a peer.
const (
	maxMembers  = 4096
	maxObject   = 1 << 20 // bytes of one serialized TypeObject
	maxLiterals = 1 << 16
)

// ParseObject parses the serialized TypeObject b (XCDR2 little-endian, DHEADER first)
// that id names: its hash must be the hash of b.
func ParseObject(id TypeID, b []byte) (*Type, error) {
	if !id.Hashed() {
		return nil, fmt.Errorf("%w: not a hashed type identifier", errMalformed)
	}
	if len(b) > maxObject {
		return nil, fmt.Errorf("%w: TypeObject of %d bytes", errMalformed, len(b))
	}
	sum := md5.Sum(b) //nolint:gosec // specified by DDS-XTypes
	if !bytes.Equal(sum[:HashLen], id.Hash[:]) {
		return nil, fmt.Errorf("%w: TypeObject does not have the hash %x", errMalformed, id.Hash)
	}
	var d cdr.Decoder
	d.ResetBody(b, false, true)
	end := d.DHeader()
	ek := d.Uint8()
	if ek != id.Kind {
		return nil, fmt.Errorf("%w: TypeObject of equivalence kind %#02x for a %#02x identifier", errMalformed, ek, id.Kind)
	}
	t := &Type{ID: id, Kind: d.Uint8()}
	var err error
	switch t.Kind {
	case tkStruct:
		err = t.parseStruct(&d)
	case tkUnion:
		err = t.parseUnion(&d)
	case tkEnum:
		err = t.parseEnum(&d)
	case tkAlias:
		err = t.parseAlias(&d)
	default:
		return nil, fmt.Errorf("%w: TypeObject of kind %#02x not supported", errMalformed, t.Kind)
	}
	if err != nil {
		return nil, err
	}
	d.SkipTo(end)
	if err := d.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", errMalformed, err)
	}
	return t, nil
}

// skipOptional skips an optional appendable member (annotations): its presence flag and,
// when present, its delimited value.
func skipOptional(d *cdr.Decoder) {
	if d.Bool() {
		d.SkipTo(d.DHeader())
	}
}

// typeDetail reads a CompleteTypeDetail (annotations, the name); the minimal one is empty.
func (t *Type) typeDetail(d *cdr.Decoder) {
	if t.Complete() {
		skipOptional(d)
		skipOptional(d)
		t.Name = string(d.StringBytes())
	}
}

// memberDetail reads a Complete or MinimalMemberDetail into the name and its hash.
func (t *Type) memberDetail(d *cdr.Decoder) (name string, hash [4]byte) {
	if t.Complete() {
		name = string(d.StringBytes())
		skipOptional(d)
		skipOptional(d)
		return name, NameHash(name)
	}
	copy(hash[:], d.Octets(4))
	return "", hash
}

func (t *Type) parseStruct(d *cdr.Decoder) error {
	t.Ext = d.Uint16() & (tfFinal | tfAppendable | tfMutable)
	hdr := d.DHeader()
	var err error
	if t.Base, err = decodeID(d, 0); err != nil {
		return err
	}
	t.typeDetail(d)
	d.SkipTo(hdr)
	return t.parseMembers(d, false)
}

// parseMembers reads the sequence of struct or union members.
func (t *Type) parseMembers(d *cdr.Decoder, union bool) error {
	seq := d.DHeader()
	n := d.SeqLen(4 + 4 + 2 + 1)
	if n > maxMembers {
		return fmt.Errorf("%w: %d members", errMalformed, n)
	}
	for range n {
		end := d.DHeader()
		m := Member{ID: d.Uint32(), Flags: d.Uint16()}
		var err error
		if m.Type, err = decodeID(d, 0); err != nil {
			return err
		}
		if union {
			k := d.SeqLen(4)
			for range k {
				m.Labels = append(m.Labels, d.Int32())
			}
		}
		m.Name, m.NameHash = t.memberDetail(d)
		d.SkipTo(end)
		if d.Err() != nil {
			return d.Err()
		}
		t.Members = append(t.Members, m)
	}
	d.SkipTo(seq)
	return d.Err()
}

func (t *Type) parseUnion(d *cdr.Decoder) error {
	t.Ext = d.Uint16() & (tfFinal | tfAppendable | tfMutable)
	hdr := d.DHeader()
	t.typeDetail(d)
	d.SkipTo(hdr)
	disc := d.DHeader()
	d.Uint16() // discriminator flags
	var err error
	if t.Disc, err = decodeID(d, 0); err != nil {
		return err
	}
	d.SkipTo(disc)
	return t.parseMembers(d, true)
}

func (t *Type) parseEnum(d *cdr.Decoder) error {
	d.Uint16() // enum flags
	hdr := d.DHeader()
	t.BitBound = d.Uint16()
	t.typeDetail(d)
	d.SkipTo(hdr)
	seq := d.DHeader()
	n := d.SeqLen(4 + 4 + 4 + 2)
	if n > maxLiterals {
		return fmt.Errorf("%w: %d enumerators", errMalformed, n)
	}
	for range n {
		end := d.DHeader()
		common := d.DHeader()
		l := Literal{Value: d.Int32()}
		d.SkipTo(common)
		l.Name, l.NameHash = t.memberDetail(d)
		d.SkipTo(end)
		t.Literals = append(t.Literals, l)
	}
	d.SkipTo(seq)
	return d.Err()
}

func (t *Type) parseAlias(d *cdr.Decoder) error {
	d.Uint16() // alias flags
	hdr := d.DHeader()
	t.typeDetail(d)
	d.SkipTo(hdr)
	body := d.DHeader()
	d.Uint16() // related flags
	var err error
	if t.Related, err = decodeID(d, 0); err != nil {
		return err
	}
	d.SkipTo(body)
	return d.Err()
}

// md5sum is the EquivalenceHash of b.
func md5sum(b []byte) [HashLen]byte {
	sum := md5.Sum(b) //nolint:gosec // specified by DDS-XTypes
	return [HashLen]byte(sum[:HashLen])
}
