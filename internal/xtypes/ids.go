package xtypes

import (
	"errors"
	"fmt"

	"github.com/ddsgo/ddsgo/internal/cdr"
)

// Equivalence kinds, type kinds and type identifier kinds (DDS-XTypes 1.3 §7.3.4.2,
// Annex B).
const (
	EKMinimal  = 0xf1
	EKComplete = 0xf2
	EKBoth     = 0xf3

	tkNone      = 0x00
	tkBoolean   = 0x01
	tkByte      = 0x02
	tkInt16     = 0x03
	tkInt32     = 0x04
	tkInt64     = 0x05
	tkUint16    = 0x06
	tkUint32    = 0x07
	tkUint64    = 0x08
	tkFloat32   = 0x09
	tkFloat64   = 0x0a
	tkChar8     = 0x10
	tkEnum      = 0x40
	tkStruct    = 0x51
	tkUnion     = 0x52
	tiString8S  = 0x70
	tiString8L  = 0x71
	tiString16S = 0x72
	tiString16L = 0x73
	tiSeqS      = 0x80
	tiSeqL      = 0x81
	tiArrayS    = 0x90
	tiArrayL    = 0x91
)

// Flags of members and types (§7.3.4.4, MemberFlag and TypeFlag).
const (
	mfTryConstruct1  = 1 << 0 // TRY_CONSTRUCT1 alone: DISCARD
	mfOptional       = 1 << 3
	mfMustUnderstand = 1 << 4
	mfKey            = 1 << 5
	mfDefault        = 1 << 6

	tfFinal      = 1 << 0
	tfAppendable = 1 << 1
	tfMutable    = 1 << 2
)

// HashLen is the length of an EquivalenceHash: the first 14 bytes of the MD5 of a
// serialized TypeObject.
const HashLen = 14

// TypeID is a TypeIdentifier (§7.3.4.2): a primitive type kind, a string or plain
// collection described in place, or the hash of a TypeObject.
type TypeID struct {
	Kind   uint8 // a TK_ primitive, a TI_ kind, EKMinimal or EKComplete
	Hash   [HashLen]byte
	Bound  uint32   // strings and sequences (0 unbounded)
	Dims   []uint32 // arrays
	Equiv  uint8    // plain collections: the equivalence kind of the element
	Elem   *TypeID  // plain collections
	eflags uint16
}

// Hashed reports whether id names a TypeObject by its hash.
func (id TypeID) Hashed() bool { return id.Kind == EKMinimal || id.Kind == EKComplete }

// String returns the hash of a hashed id in hex, as Cyclone DDS prints it, or the kind.
func (id TypeID) String() string {
	if id.Hashed() {
		k := "MINIMAL"
		if id.Kind == EKComplete {
			k = "COMPLETE"
		}
		return fmt.Sprintf("%s %x", k, id.Hash)
	}
	return fmt.Sprintf("kind %#02x", id.Kind)
}

// fully reports whether id describes its type completely in itself, so that its minimal
// and complete forms are the same (EK_BOTH for a collection of it).
func (id *TypeID) fully() bool {
	if id.Hashed() {
		return false
	}
	if id.Elem != nil {
		return id.Elem.fully()
	}
	return true
}

// encode appends id in XCDR2 (the TypeIdentifier union is final: no DHEADER).
func (id *TypeID) encode(e *cdr.Encoder) {
	e.Uint8(id.Kind)
	switch id.Kind {
	case EKMinimal, EKComplete:
		e.Octets(id.Hash[:])
	case tiString8S, tiString16S:
		e.Uint8(uint8(id.Bound))
	case tiString8L, tiString16L:
		e.Uint32(id.Bound)
	case tiSeqS, tiSeqL, tiArrayS, tiArrayL:
		e.Uint8(id.Equiv)
		e.Uint16(id.eflags)
		switch id.Kind {
		case tiSeqS:
			e.Uint8(uint8(id.Bound))
		case tiSeqL:
			e.Uint32(id.Bound)
		case tiArrayS:
			e.Uint32(uint32(len(id.Dims)))
			for _, d := range id.Dims {
				e.Uint8(uint8(d))
			}
		default:
			e.Uint32(uint32(len(id.Dims)))
			for _, d := range id.Dims {
				e.Uint32(d)
			}
		}
		id.Elem.encode(e)
	}
}

// errMalformed reports a TypeInformation or TypeIdentifier that does not parse.
var errMalformed = errors.New("xtypes: malformed type information")

// maxDepth bounds the nesting of collection identifiers a decoder follows.
const maxDepth = 16

// decodeID reads a TypeIdentifier; depth bounds nested collection identifiers.
func decodeID(d *cdr.Decoder, depth int) (TypeID, error) {
	var id TypeID
	if depth > maxDepth {
		return id, errMalformed
	}
	id.Kind = d.Uint8()
	switch id.Kind {
	case EKMinimal, EKComplete:
		copy(id.Hash[:], d.Octets(HashLen))
	case tiString8S, tiString16S:
		id.Bound = uint32(d.Uint8())
	case tiString8L, tiString16L:
		id.Bound = d.Uint32()
	case tiSeqS, tiSeqL, tiArrayS, tiArrayL:
		id.Equiv = d.Uint8()
		id.eflags = d.Uint16()
		switch id.Kind {
		case tiSeqS:
			id.Bound = uint32(d.Uint8())
		case tiSeqL:
			id.Bound = d.Uint32()
		default:
			n := d.SeqLen(1)
			for range n {
				if id.Kind == tiArrayS {
					id.Dims = append(id.Dims, uint32(d.Uint8()))
				} else {
					id.Dims = append(id.Dims, d.Uint32())
				}
			}
		}
		elem, err := decodeID(d, depth+1)
		if err != nil {
			return id, err
		}
		id.Elem = &elem
	default:
		if id.Kind > 0x1f { // not a primitive: maps, SCC ids and future kinds are not read
			return id, fmt.Errorf("%w: type identifier kind %#02x not supported", errMalformed, id.Kind)
		}
	}
	return id, d.Err()
}
