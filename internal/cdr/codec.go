package cdr

import (
	"crypto/md5" //nolint:gosec // the key hash is MD5 by specification, not for security
	"encoding/binary"
	"fmt"
	"reflect"
	"sync"
	"unsafe"
)

// Marshaler is implemented by types that write their own CDR body (everything after the
// encapsulation header), a reflection-free fast path. It must produce exactly what the
// reflection codec would for the same type.
type Marshaler interface {
	MarshalCDR(e *Encoder)
}

// Unmarshaler is implemented by pointer types that read their own CDR body. Reading into
// a reused value should reuse its slices. Errors go to the Decoder (d.SetErr).
type Unmarshaler interface {
	UnmarshalCDR(d *Decoder)
}

// unmarshalers holds the functions RegisterUnmarshal gave, by the reflect.Type of T.
var unmarshalers sync.Map

// RegisterUnmarshal makes fn the decoder of the body of every value of the type T, in
// the codecs made after the call: a reflection-free path as Unmarshaler is, for a type
// of another package that should not show an UnmarshalCDR method in its API. Register
// it when the package that owns T is initialized.
func RegisterUnmarshal[T any](fn func(d *Decoder, v *T)) {
	unmarshalers.Store(reflect.TypeFor[T](), fn)
}

// KeyHash is the 16-byte instance key hash of RTPS 2.5 §9.6.4.8 and XTypes 1.3 §7.6.8.
type KeyHash [16]byte

// Codec encodes and decodes values of the struct type T. It is built once per type with
// NewCodec, which compiles a plan from T's fields by reflection, and is safe for
// concurrent use.
type Codec[T any] struct {
	t       *typ
	marshal bool                   // *T implements Marshaler
	unmarsh bool                   // *T implements Unmarshaler
	decode  func(d *Decoder, v *T) // RegisterUnmarshal's, or nil
	keyMax  int                    // largest serialized key in bytes, -1 when unbounded: MD5 when -1 or > 16
	keyFlat []keyLeaf              // the key as primitives at fixed offsets, when it is only that and fits 16 bytes
}

// NewCodec compiles the codec of T, a struct (or union) type. Members are T's exported
// fields in declaration order, configured by `dds:"..."` struct tags (see the package
// documentation); the extensibility is Final unless T implements Extensible.
func NewCodec[T any]() (*Codec[T], error) {
	rt := reflect.TypeFor[T]()
	if rt.Kind() != reflect.Struct {
		return nil, fmt.Errorf("cdr: %v is not a struct type", rt)
	}
	t, err := planOf(rt)
	if err != nil {
		return nil, err
	}
	c := &Codec[T]{t: t}
	_, c.marshal = any((*T)(nil)).(Marshaler)
	_, c.unmarsh = any((*T)(nil)).(Unmarshaler)
	if fn, ok := unmarshalers.Load(rt); ok {
		c.decode = fn.(func(*Decoder, *T))
	}
	c.keyMax = -1
	if t.kind == kStruct && len(t.keys) > 0 {
		c.keyMax = t.maxKeySize(0, 0)
		if c.keyMax >= 0 && c.keyMax <= 16 {
			c.keyFlat, _ = t.keyLeaves(0, 0, nil)
		}
	}
	return c, nil
}

// MustCodec is NewCodec for types known to be valid; it panics on error.
func MustCodec[T any]() *Codec[T] {
	c, err := NewCodec[T]()
	if err != nil {
		panic(err)
	}
	return c
}

// Extensibility returns T's extensibility kind.
func (c *Codec[T]) Extensibility() Extensibility { return c.t.ext }

// Keyed reports whether T has key members.
func (c *Codec[T]) Keyed() bool { return len(c.t.keys) > 0 }

// DefaultEncapsulation returns the encapsulation the peers use for T: XCDR1 for final
// types, XCDR2 for appendable and mutable ones, little-endian.
func (c *Codec[T]) DefaultEncapsulation() EncapsulationID {
	return Encapsulation(c.t.ext, c.t.ext != Final, false)
}

// Encode writes v's body to e.
func (c *Codec[T]) Encode(e *Encoder, v *T) {
	if c.marshal {
		any(v).(Marshaler).MarshalCDR(e)
		return
	}
	c.t.enc(e, unsafe.Pointer(v))
}

// Decode reads v's body from d, reusing v's slices where their capacity allows.
func (c *Codec[T]) Decode(d *Decoder, v *T) {
	switch {
	case c.decode != nil:
		c.decode(d, v)
	case c.unmarsh:
		any(v).(Unmarshaler).UnmarshalCDR(d)
	default:
		c.t.dec(d, unsafe.Pointer(v))
	}
}

// Marshal appends to buf a complete serialized payload of v: encapsulation header id,
// body, and padding to a multiple of 4.
func (c *Codec[T]) Marshal(buf []byte, id EncapsulationID, v *T) ([]byte, error) {
	if !id.Valid() {
		return buf, fmt.Errorf("cdr: unknown encapsulation %v", id)
	}
	if !c.marshal { // the plan's code keeps e to itself: it can live on the stack
		var e Encoder
		e.Reset(buf, id)
		c.t.enc(&e, unsafe.Pointer(v))
		if err := e.Err(); err != nil {
			return e.Finish(), c.t.nameBound(unsafe.Pointer(v), err)
		}
		return e.Finish(), nil
	}
	e := encoderPool.Get().(*Encoder)
	e.Reset(buf, id)
	c.Encode(e, v)
	out, err := e.Finish(), e.Err()
	*e = Encoder{}
	encoderPool.Put(e)
	return out, err
}

// Unmarshal decodes the serialized payload b (with its encapsulation header) into v.
func (c *Codec[T]) Unmarshal(b []byte, v *T) error {
	if !c.unmarsh && c.decode == nil { // as in Marshal
		var d Decoder
		if err := d.Reset(b); err != nil {
			return err
		}
		c.t.dec(&d, unsafe.Pointer(v))
		return d.Err()
	}
	d := decoderPool.Get().(*Decoder)
	defer decoderPool.Put(d)
	if err := d.Reset(b); err != nil {
		return err
	}
	c.Decode(d, v)
	err := d.Err()
	*d = Decoder{}
	return err
}

// Pools for Marshal and Unmarshal of types with their own Marshaler or Unmarshaler: a
// Decoder or Encoder handed to one escapes, so a local one would be allocated on every
// call.
var (
	encoderPool = sync.Pool{New: func() any { return new(Encoder) }}
	decoderPool = sync.Pool{New: func() any { return new(Decoder) }}
	keyPool     = sync.Pool{New: func() any { return new(Encoder) }} // keep their buffers
)

// EncodeKey writes the key members of v, in declaration order, flat: no delimiter or member
// headers (the form of a serialized key payload in DATA with the K flag, and of the key
// hash input).
func (c *Codec[T]) EncodeKey(e *Encoder, v *T) {
	c.t.encStruct(e, unsafe.Pointer(v), true)
}

// DecodeKey reads the key members of v written by EncodeKey; other members are untouched.
func (c *Codec[T]) DecodeKey(d *Decoder, v *T) {
	c.t.decStruct(d, unsafe.Pointer(v), true)
}

// KeyHashIsKey reports whether T's key hash holds the key itself (the key can never
// serialize to more than 16 bytes) rather than an MD5 digest of it. Then a reader can
// recover the key from the hash alone (DecodeKeyHash), and a dispose needs no payload.
func (c *Codec[T]) KeyHashIsKey() bool {
	return len(c.t.keys) > 0 && c.keyMax >= 0 && c.keyMax <= 16
}

// DecodeKeyHash sets the key members of v from a key hash that holds the key itself
// (KeyHashIsKey); other members are untouched. It fails for a digest.
func (c *Codec[T]) DecodeKeyHash(h KeyHash, v *T) error {
	if !c.KeyHashIsKey() {
		return fmt.Errorf("cdr: the key hash of %v is a digest, not the key", c.t.rt)
	}
	var d Decoder
	d.ResetBody(h[:], true, true)
	c.t.decStruct(&d, unsafe.Pointer(v), true)
	return d.Err()
}

// KeyHash computes v's key hash: the key members serialized in big-endian XCDR2, zero-padded
// to 16 bytes when the key can never exceed 16 bytes, otherwise the MD5 digest of that
// serialization. A type without key members has the zero key hash.
func (c *Codec[T]) KeyHash(v *T) KeyHash {
	var h KeyHash
	if len(c.t.keys) == 0 {
		return h
	}
	if c.keyFlat != nil {
		putKey(&h, c.keyFlat, unsafe.Pointer(v))
		return h
	}
	return c.keyHashEncoded(v)
}

// keyHashEncoded is KeyHash through the encoder, for every key.
func (c *Codec[T]) keyHashEncoded(v *T) KeyHash {
	var h KeyHash
	e := keyPool.Get().(*Encoder)
	defer keyPool.Put(e)
	e.ResetBody(e.buf[:0], true, true)
	e.keyHolder = true
	c.t.encStruct(e, unsafe.Pointer(v), true)
	if c.keyMax >= 0 && c.keyMax <= 16 {
		copy(h[:], e.buf)
		return h
	}
	return md5.Sum(e.buf)
}

// putKey writes the key members ls of the value at p into h as a key hash holds them:
// big-endian XCDR2, aligned to at most 4 (XTypes 1.3 §7.6.8). The caller checked that
// they fit.
func putKey(h *KeyHash, ls []keyLeaf, p unsafe.Pointer) {
	pos := 0
	for _, l := range ls {
		q := unsafe.Add(p, l.off)
		switch l.size {
		case 1:
			h[pos] = *(*uint8)(q)
		case 2:
			pos += pos & 1
			binary.BigEndian.PutUint16(h[pos:], *(*uint16)(q))
		case 4:
			pos += -pos & 3
			binary.BigEndian.PutUint32(h[pos:], *(*uint32)(q))
		default:
			pos += -pos & 3
			binary.BigEndian.PutUint64(h[pos:], *(*uint64)(q))
		}
		pos += l.size
	}
}
