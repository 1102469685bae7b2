package xtypes

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"sync"
	"time"

	"github.com/ddsgo/ddsgo/internal/cdr"
	"github.com/ddsgo/ddsgo/internal/wake"
)

// The client side of the TypeLookup service (DDS-XTypes 1.3 §7.6.3.3): getTypes requests
// for the types peers announce and this process lacks, and a bounded cache of the
// TypeObjects the replies bring.

// AppendRequest appends a serialized getTypes TypeLookup_Request (encapsulation header
// first, XCDR2 little-endian, Cyclone DDS 0.10.2's form) from the request writer
// writer (a GUID) with sequence number sn, to the participant target (a GUID prefix:
// the instance name "dds.builtin.TOS.<target participant GUID>"), for ids.
func AppendRequest(b []byte, writer [16]byte, sn int64, target [12]byte, ids []TypeID) []byte {
	var e cdr.Encoder
	e.Reset(b, cdr.CDR2LE)
	e.Octets(writer[:])
	e.Int32(int32(sn >> 32))
	e.Uint32(uint32(sn))
	e.String("dds.builtin.TOS." + hex.EncodeToString(target[:]) + "000001c1")
	call := e.BeginDHeader()
	e.Uint32(opGetTypes)
	in := e.BeginDHeader()
	m := e.BeginMember(idTypeIDs, false)
	seq := e.BeginDHeader()
	e.SeqLen(len(ids))
	for i := range ids {
		ids[i].encode(&e)
	}
	e.EndDHeader(seq)
	e.EndMember(m)
	e.EndDHeader(in)
	e.EndDHeader(call)
	return e.Finish()
}

// ParseReply decodes a serialized getTypes TypeLookup_Reply: the request it answers (its
// SampleIdentity, as Request.ID) and the (identifier, TypeObject) pairs, at most
// maxRequestIDs. The objects are not checked against their hashes here (Cache does).
func ParseReply(payload []byte) (related [24]byte, objs []Object, err error) {
	var d cdr.Decoder
	if err := d.Reset(payload); err != nil {
		return related, nil, err
	}
	copy(related[:16], d.Octets(16))
	binary.LittleEndian.PutUint32(related[16:], uint32(d.Int32()))
	binary.LittleEndian.PutUint32(related[20:], d.Uint32())
	if ex := d.Int32(); ex != 0 || d.Err() != nil {
		return related, nil, fmt.Errorf("%w: remote exception %d", errMalformed, ex)
	}
	ret := d.DHeader()
	op := d.Uint32()
	if op != opGetTypes && op != opGetTypesCyclone {
		return related, nil, fmt.Errorf("%w: operation %#08x", errNotGetTypes, op)
	}
	res := d.DHeader()
	if rc := d.Int32(); rc != 0 || d.Err() != nil {
		return related, nil, fmt.Errorf("%w: getTypes return code %d", errMalformed, rc)
	}
	out := d.DHeader()
	for {
		id, _, mend, ok := d.Member(out)
		if !ok {
			break
		}
		if id == idTypes {
			if objs, err = decodeObjects(&d); err != nil {
				return related, nil, err
			}
		}
		d.SkipTo(mend)
	}
	d.SkipTo(out)
	d.SkipTo(res)
	d.SkipTo(ret)
	return related, objs, d.Err()
}

// decodeObjects reads a sequence of TypeIdentifierTypeObjectPair (encodeObjects' form).
func decodeObjects(d *cdr.Decoder) ([]Object, error) {
	seq := d.DHeader()
	n := d.SeqLen(1 + HashLen + 4)
	if n > maxRequestIDs {
		return nil, fmt.Errorf("%w: %d type objects", errMalformed, n)
	}
	objs := make([]Object, 0, n)
	for range n {
		id, err := decodeID(d, 0)
		if err != nil {
			return nil, err
		}
		d.Align(4)
		size := d.Uint32()
		body := d.Octets(int(min(size, maxObject+1)))
		if d.Err() != nil {
			return nil, d.Err()
		}
		raw := binary.LittleEndian.AppendUint32(make([]byte, 0, 4+len(body)), size)
		objs = append(objs, Object{ID: id, Bytes: append(raw, body...)})
	}
	d.SkipTo(seq)
	return objs, d.Err()
}

// Bounds of a Cache: what peers can make a participant hold.
const (
	// MaxCachedTypes is the number of TypeObjects a Cache keeps, and MaxCachedBytes
	// their serialized size.
	MaxCachedTypes = 1024
	MaxCachedBytes = 4 << 20
	// MaxAttempts is how many times a type is asked for before it is given up (until
	// announced again), RetryAfter the time between attempts.
	MaxAttempts = 3
	RetryAfter  = time.Second
)

// want is a type asked for.
type want struct {
	id       TypeID
	from     [12]byte // the participant that announced it
	attempts int
	last     time.Time
}

// Cache holds the TypeObjects received from peers (parsed, checked against their
// hashes) and the types asked for, bounded in count and size. Local, when set, holds the
// process's own types, which are never asked for. The zero Cache is empty and ready.
type Cache struct {
	Local *Registry

	mu     sync.Mutex
	types  map[[HashLen]byte]*Type
	bytes  int
	wanted map[[HashLen]byte]*want
	failed map[[HashLen]byte]bool
	// changed is notified when types are stored or given up (Changed).
	changed wake.Signal
}

// Changed returns a channel closed at the next change of the cache: types stored
// (AddReply) or given up (Retry). Take it before looking at the cache, so that a change
// between the look and the wait is not missed.
func (c *Cache) Changed() <-chan struct{} { return c.changed.Wait() }

// Want returns the hashed types of info (the complete ones when it has them, with their
// dependencies) that neither the cache nor Local has and that are not asked for
// already, and marks them asked for from participant from at now. A type that was given
// up is asked for again.
func (c *Cache) Want(info *Info, from [12]byte, now time.Time) []TypeID {
	w := &info.Complete
	if !w.Type.ID.Hashed() {
		w = &info.Minimal
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.wanted == nil {
		c.types = map[[HashLen]byte]*Type{}
		c.wanted = map[[HashLen]byte]*want{}
		c.failed = map[[HashLen]byte]bool{}
	}
	var ids []TypeID
	add := func(id TypeID) {
		if !id.Hashed() || c.types[id.Hash] != nil || c.wanted[id.Hash] != nil || len(c.wanted) >= MaxCachedTypes {
			return
		}
		if c.Local != nil && c.Local.has(id) {
			return
		}
		delete(c.failed, id.Hash)
		c.wanted[id.Hash] = &want{id: id, from: from, attempts: 1, last: now}
		ids = append(ids, id)
	}
	add(w.Type.ID)
	for _, dep := range w.Dependent {
		add(dep.ID)
	}
	return ids
}

// Retry returns, by participant, the types asked for more than RetryAfter before now,
// counting an attempt; a type asked for MaxAttempts times is given up (Pending reports
// it no more).
func (c *Cache) Retry(now time.Time) map[[12]byte][]TypeID {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out map[[12]byte][]TypeID
	for h, w := range c.wanted {
		if now.Sub(w.last) < RetryAfter {
			continue
		}
		if w.attempts >= MaxAttempts {
			delete(c.wanted, h)
			if len(c.failed) >= MaxCachedTypes { // bounded: forget the older ones
				clear(c.failed)
			}
			c.failed[h] = true
			c.changed.Notify()
			continue
		}
		w.attempts++
		w.last = now
		if out == nil {
			out = map[[12]byte][]TypeID{}
		}
		out[w.from] = append(out[w.from], w.id)
	}
	return out
}

// Pending reports whether types are asked for and not yet received or given up.
func (c *Cache) Pending() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.wanted) > 0
}

// AddReply stores the TypeObjects of a serialized TypeLookup reply that were asked for
// and match their hashes; it returns how many it stored. Others are ignored: a reply
// to another participant's request, or a hostile one.
func (c *Cache) AddReply(reply []byte) int {
	_, objs, err := ParseReply(reply)
	if err != nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, o := range objs {
		w := c.wanted[o.ID.Hash]
		if w == nil || w.id.Kind != o.ID.Kind || len(c.types) >= MaxCachedTypes || c.bytes+len(o.Bytes) > MaxCachedBytes {
			continue
		}
		t, err := ParseObject(o.ID, o.Bytes)
		if err != nil {
			continue
		}
		delete(c.wanted, o.ID.Hash)
		c.types[o.ID.Hash] = t
		c.bytes += len(o.Bytes)
		n++
	}
	if n > 0 {
		c.changed.Notify()
	}
	return n
}

// Resolve returns the parsed TypeObject id names, from the cache or Local.
func (c *Cache) Resolve(id TypeID) (*Type, bool) {
	if !id.Hashed() {
		return nil, false
	}
	c.mu.Lock()
	t := c.types[id.Hash]
	c.mu.Unlock()
	if t != nil {
		return t, t.ID.Kind == id.Kind
	}
	if c.Local != nil {
		return c.Local.parsed(id)
	}
	return nil, false
}

// Failed reports whether the type id was given up.
func (c *Cache) Failed(id TypeID) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.failed[id.Hash]
}

// has reports whether the registry holds id's TypeObject.
func (g *Registry) has(id TypeID) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	o, ok := g.objects[id.Hash]
	return ok && o.ID.Kind == id.Kind
}

// parsed returns id's TypeObject parsed, keeping it for the next time.
func (g *Registry) parsed(id TypeID) (*Type, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if t := g.parsedObjs[id.Hash]; t != nil {
		return t, true
	}
	o, ok := g.objects[id.Hash]
	if !ok || o.ID.Kind != id.Kind {
		return nil, false
	}
	t, err := ParseObject(o.ID, o.Bytes)
	if err != nil {
		return nil, false
	}
	if g.parsedObjs == nil {
		g.parsedObjs = map[[HashLen]byte]*Type{}
	}
	g.parsedObjs[id.Hash] = t
	return t, true
}
