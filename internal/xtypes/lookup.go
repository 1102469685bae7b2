package xtypes

import (
	"crypto/md5" //nolint:gosec // @hashid member ids are MD5-based (DDS-XTypes 1.3 §7.3.1.2.1.1)
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/ddsgo/ddsgo/internal/cdr"
)

// The operations of the TypeLookup service (DDS-XTypes 1.3 §7.6.3.3.4): the
// discriminators of TypeLookup_Call and TypeLookup_Return.
// Cyclone DDS 0.10.2's header defines getTypes as 25318099 (0x018256d3,
// DDS_Builtin_TypeLookup_getTypes_HashId) where the specification has 0x018252d3, but
// puts the latter on the wire; a request with either is getTypes, and the reply repeats
// the request's.
const (
	opGetTypes        = 0x018252d3
	opGetTypesCyclone = 25318099
)

// HashID is the member id @hashid gives a member called name: the first four bytes of
// the MD5 of the name, little-endian, in 28 bits.
func HashID(name string) uint32 {
	sum := md5.Sum([]byte(name)) //nolint:gosec // specified by DDS-XTypes
	return binary.LittleEndian.Uint32(sum[:4]) & 0x0fffffff
}

// Member ids of the mutable TypeLookup structs (all @hashid).
var (
	idTypeIDs           = HashID("type_ids")
	idTypes             = HashID("types")
	idCompleteToMinimal = HashID("complete_to_minimal")
)

// maxRequestIDs bounds the type identifiers one request may ask for.
const maxRequestIDs = 256

// Request is a TypeLookup_Request of the getTypes operation.
type Request struct {
	// ID is the request's SampleIdentity (writer GUID, sequence number high and low) as
	// the request header carries it: the reply names it.
	ID  [24]byte
	IDs []TypeID
	op  uint32 // the discriminator of the call: opGetTypes or opGetTypesCyclone
}

// errNotGetTypes reports a request for another operation than getTypes.
var errNotGetTypes = errors.New("xtypes: TypeLookup request is not getTypes")

// ParseRequest decodes a serialized TypeLookup_Request (encapsulation header first).
// Only getTypes is served; another operation is errNotGetTypes.
func ParseRequest(payload []byte) (Request, error) {
	var r Request
	var d cdr.Decoder
	if err := d.Reset(payload); err != nil {
		return r, err
	}
	copy(r.ID[:], d.Octets(16))                                 // writer GUID
	binary.LittleEndian.PutUint32(r.ID[16:], uint32(d.Int32())) // sequence number high
	binary.LittleEndian.PutUint32(r.ID[20:], d.Uint32())        // low
	d.StringBytes()                                             // instance name
	// TypeLookup_Call is an appendable union (Cyclone DDS 0.10.2 writes a DHEADER).
	callEnd := d.DHeader()
	r.op = d.Uint32()
	if err := d.Err(); err != nil {
		return r, err
	}
	if r.op != opGetTypes && r.op != opGetTypesCyclone {
		return r, fmt.Errorf("%w: operation %#08x", errNotGetTypes, r.op)
	}
	end := d.DHeader() // TypeLookup_getTypes_In is mutable
	for {
		id, _, mend, ok := d.Member(end)
		if !ok {
			break
		}
		if id == idTypeIDs {
			send := d.DHeader()
			n := d.SeqLen(1)
			if n > maxRequestIDs {
				return r, fmt.Errorf("%w: %d type ids", errMalformed, n)
			}
			for range n {
				tid, err := decodeID(&d, 0)
				if err != nil {
					return r, err
				}
				r.IDs = append(r.IDs, tid)
			}
			d.SkipTo(send)
		}
		d.SkipTo(mend)
	}
	d.SkipTo(end)
	d.SkipTo(callEnd)
	return r, d.Err()
}

// Registry holds the TypeObjects of the types a process describes, by hash, to answer
// peers' TypeLookup requests. The zero Registry is empty and ready.
type Registry struct {
	mu      sync.Mutex
	objects map[[HashLen]byte]Object
	minimal map[[HashLen]byte]TypeID // complete hash -> minimal identifier
	// parsedObjs are the objects parsed for a Cache's Resolve.
	parsedObjs map[[HashLen]byte]*Type
}

// Add registers the TypeObjects of t.
func (g *Registry) Add(t *Types) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.objects == nil {
		g.objects = map[[HashLen]byte]Object{}
		g.minimal = map[[HashLen]byte]TypeID{}
	}
	for _, objs := range [...][]Object{t.MinimalObjects, t.CompleteObjects} {
		for _, o := range objs {
			g.objects[o.ID.Hash] = o
		}
	}
	for _, p := range t.Pairs {
		g.minimal[p[0].Hash] = p[1]
	}
}

// Serve answers a serialized TypeLookup_Request with a serialized TypeLookup_Reply
// (XCDR2 little-endian, encapsulation header first): the TypeObjects of the requested
// identifiers it has, and the minimal identifier of each complete one. ok is false for
// a request it does not answer (not getTypes, malformed, or for no type it has).
func (g *Registry) Serve(request []byte) (reply []byte, ok bool) {
	r, err := ParseRequest(request)
	if err != nil {
		return nil, false
	}
	var found []Object
	var pairs [][2]TypeID
	g.mu.Lock()
	for _, id := range r.IDs {
		if !id.Hashed() {
			continue
		}
		o, known := g.objects[id.Hash]
		if !known || o.ID.Kind != id.Kind {
			continue
		}
		found = append(found, o)
		if m, has := g.minimal[id.Hash]; has && id.Kind == EKComplete {
			pairs = append(pairs, [2]TypeID{o.ID, m})
		}
	}
	g.mu.Unlock()
	if len(found) == 0 {
		return nil, false
	}
	return appendReply(nil, &r, found, pairs), true
}

// appendReply appends a TypeLookup_Reply to request r with the getTypes result.
func appendReply(b []byte, r *Request, objs []Object, pairs [][2]TypeID) []byte {
	id := r.ID
	var e cdr.Encoder
	e.Reset(b, cdr.CDR2LE)
	e.Octets(id[:16])
	e.Int32(int32(binary.LittleEndian.Uint32(id[16:])))
	e.Uint32(binary.LittleEndian.Uint32(id[20:]))
	e.Int32(0)              // REMOTE_EX_OK
	ret := e.BeginDHeader() // TypeLookup_Return and TypeLookup_getTypes_Result are appendable unions
	e.Uint32(r.op)
	res := e.BeginDHeader()
	e.Int32(0) // DDS_RETCODE_OK
	out := e.BeginDHeader()
	m := e.BeginMember(idTypes, false)
	encodeObjects(&e, objs)
	e.EndMember(m)
	m = e.BeginMember(idCompleteToMinimal, false)
	seq := e.BeginDHeader()
	e.SeqLen(len(pairs))
	for _, p := range pairs {
		p[0].encode(&e)
		p[1].encode(&e)
	}
	e.EndDHeader(seq)
	e.EndMember(m)
	e.EndDHeader(out)
	e.EndDHeader(res)
	e.EndDHeader(ret)
	return e.Finish()
}
