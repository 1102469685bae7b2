package dds

import (
	"bytes"
	"context"
	"reflect"
	"sync"

	"github.com/ddsgo/ddsgo/internal/cdr"
	"github.com/ddsgo/ddsgo/internal/discovery"
	"github.com/ddsgo/ddsgo/internal/errs"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/internal/xtypes"
	"github.com/ddsgo/ddsgo/qos"
)

// DynamicSample is a sample of a topic whose Go type the process does not have: its
// serialized form. Read such a topic with a DataReader[DynamicSample] of a topic made
// with NewTopic[DynamicSample](p, name, TypeName(typeName)), and decode the samples with
// the type a writer announced (LookupType), or print its Payload.
//
// Such a reader announces no type information, so it matches writers of the type name
// by name alone; it is keyed when a writer of the topic and type name discovered before
// it was created is (the key decides the match, as peers do), or when the topic was made
// WithType a keyed type.
//
// To write such a topic, make it WithType the type a reader (or writer) of it announced,
// and write the samples the type's Sample method makes, or samples of the type a reader
// took.
type DynamicSample struct {
	// Payload is the sample as it came: its encapsulation header (XCDR1 or XCDR2, byte
	// order) and its serialized data.
	Payload []byte

	// value is the value Sample made the sample of, with typ.
	value any
	typ   *DynamicType
}

// The codec keeps a DynamicSample's serialized data as it came.
func init() { cdr.RegisterUnmarshal(keepPayload) }

// keepPayload keeps the serialized sample in s.
func keepPayload(d *cdr.Decoder, s *DynamicSample) {
	id := d.Encapsulation()
	s.Payload = append(s.Payload[:0], byte(id>>8), byte(id), 0, 0)
	s.Payload = append(s.Payload, d.Octets(d.Remaining())...)
}

// dynamicKeyed reports whether a reader of t reads DynamicSample and a writer of t's
// topic and type name, discovered already, is keyed.
func dynamicKeyed[T any](t *Topic[T]) bool {
	if !isDynamic[T]() || t.p.eng == nil {
		return false
	}
	for _, d := range t.p.eng.Endpoints() {
		if d.IsWriter() && d.TopicName == t.name && d.TypeName == t.typeName && d.Keyed() {
			return true
		}
	}
	return false
}

// DynamicType is a type a remote endpoint described with DDS-XTypes TypeObjects,
// resolved with the TypeLookup service: it decodes DynamicSamples of its topic.
type DynamicType struct {
	id       xtypes.TypeID
	name     string
	typeName string // the type name the endpoint announced
	resolve  xtypes.Resolver
	ext      cdr.Extensibility
	keyed    bool
	keyFits  bool // the key hash holds the key itself (xtypes.KeyFits)
}

// Name returns the type's name (its IDL name, as "pkg::Type").
func (t *DynamicType) Name() string { return t.name }

// TypeName returns the type name the endpoint announced with the type, which a topic of
// the type takes (WithType).
func (t *DynamicType) TypeName() string { return t.typeName }

// Keyed reports whether the type has key members.
func (t *DynamicType) Keyed() bool { return t.keyed }

// Sample returns a sample of the type holding v, for a writer of a topic made WithType
// the type. v has the form Decode returns, and more: a struct may also be a
// map[string]any of its members by name, a number any Go integer or float (integral and
// in range where the type is an integer: encoding/json gives float64), an enum its
// enumerator's name or value. Members left out are zero (absent when optional). A value
// the type cannot hold is ErrBadParameter, naming the member at fault. The sample's
// Payload is serialized as the peers serialize the type (XCDR1 for a final type, XCDR2
// for the others, little-endian); a writer serializes v with its own data
// representation.
func (t *DynamicType) Sample(v any) (DynamicSample, error) {
	enc, _ := representation(t.ext, qos.DataRepresentation{})
	var e cdr.Encoder
	e.Reset(nil, enc)
	if err := xtypes.Encode(&e, t.id, v, t.resolve); err != nil {
		return DynamicSample{}, wrapErr(ErrBadParameter, err, "sample of "+t.name)
	}
	return DynamicSample{Payload: e.Finish(), value: v, typ: t}, nil
}

// WithType makes NewTopic[DynamicSample] create a topic of the type t, which
// LookupType returned: its type name is t's (unless TypeName gives another), its readers
// are keyed when t is, and its writers write samples of t.
func WithType(t *DynamicType) Option {
	return onlyFor("WithType", isTopic, func(s *settings) { s.dyn = t })
}

// dynCodec serializes the samples of a writer of a topic made WithType.
type dynCodec struct {
	t *DynamicType

	// A write asks for a sample's value up to three times (key hash, serialized key,
	// data): the last payload decoded and its value spare the second and third decode.
	mu      sync.Mutex
	payload []byte
	decoded any
}

// value returns what s holds: the value Sample made it of, or its payload decoded.
func (c *dynCodec) value(s *DynamicSample) (any, error) {
	if s.typ == c.t && s.value != nil {
		return s.value, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.decoded != nil && bytes.Equal(c.payload, s.Payload) {
		return c.decoded, nil
	}
	v, err := c.t.Decode(s)
	if err != nil {
		return nil, err
	}
	c.payload, c.decoded = append(c.payload[:0], s.Payload...), v
	return v, nil
}

// marshal serializes s in enc after buf.
func (c *dynCodec) marshal(buf []byte, enc cdr.EncapsulationID, s *DynamicSample) ([]byte, error) {
	v, err := c.value(s)
	if err != nil {
		return buf, err
	}
	var e cdr.Encoder
	e.Reset(buf, enc)
	if err := xtypes.Encode(&e, c.t.id, v, c.t.resolve); err != nil {
		return buf, err
	}
	return e.Finish(), nil
}

// keyHash returns the key hash of s, zero when it has none or is not of the type (as
// the writer finds out when it serializes s).
func (c *dynCodec) keyHash(s *DynamicSample) cdr.KeyHash {
	v, err := c.value(s)
	if err != nil {
		return cdr.KeyHash{}
	}
	h, _ := xtypes.KeyHash(c.t.id, v, c.t.resolve)
	return h
}

// encodeKey writes the serialized key of s.
func (c *dynCodec) encodeKey(e *cdr.Encoder, s *DynamicSample) error {
	v, err := c.value(s)
	if err != nil {
		return err
	}
	return xtypes.EncodeKey(e, c.t.id, v, c.t.resolve)
}

// keyValue returns a sample of the type that holds the serialized key key: its key
// members, the others zero.
func (c *dynCodec) keyValue(key []byte) (DynamicSample, error) {
	kv, err := xtypes.DecodeKey(c.t.id, key, c.t.resolve)
	if err != nil {
		return DynamicSample{}, wrapErr(ErrError, err, "key")
	}
	return c.t.Sample(kv)
}

// isDynamic reports whether T is DynamicSample.
func isDynamic[T any]() bool { return reflect.TypeFor[T]() == reflect.TypeFor[DynamicSample]() }

// Decode decodes a sample of the type into a generic value that encoding/json prints
// with the type's member names, in declaration order: a struct or union is an ordered
// object (a union has its "discriminator" and the selected member), a sequence or array
// a []any, an enum its enumerator's name; primitives are Go numbers, strings and bools.
// A malformed sample is ErrBadParameter.
func (t *DynamicType) Decode(s *DynamicSample) (any, error) {
	v, err := xtypes.Decode(t.id, s.Payload, t.resolve)
	if err != nil {
		return nil, wrapErr(ErrBadParameter, err, "dynamic sample of "+t.name)
	}
	return v, nil
}

// typeResolver is the engine's TypeLookup client.
type typeResolver interface {
	Types() *xtypes.Cache
	ResolveTypes(ed *discovery.EndpointData)
}

// LookupType returns the type the discovered writer or reader w announced (its
// DDS-XTypes TypeInformation), asking w's participant for its TypeObjects with the
// TypeLookup service if the process does not have them, and waiting for them until ctx
// is done. A remote endpoint that announced no type information (or one in a form not
// understood, as Fast DDS 2.9's) is ErrUnsupported; w not discovered (any more) is
// ErrBadParameter; ctx done first is its error, wrapped.
func (p *DomainParticipant) LookupType(ctx context.Context, w EndpointBuiltinTopicData) (*DynamicType, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	tr, ok := p.eng.(typeResolver)
	if !ok || tr.Types() == nil {
		return nil, errorf(ErrUnsupported, "the participant does not resolve types")
	}
	ed, ok := p.discoveredEndpoint(w.Key)
	if !ok {
		return nil, errorf(ErrBadParameter, "endpoint %v not discovered", w.Key)
	}
	if len(ed.TypeInformation) == 0 {
		return nil, errorf(ErrUnsupported, "%s announced no type information", ed.TypeName)
	}
	info, err := xtypes.ParseInfo(ed.TypeInformation)
	if err != nil || !info.Complete.Type.ID.Hashed() {
		return nil, errorf(ErrUnsupported, "%s: type information not understood", ed.TypeName)
	}
	cache := tr.Types()
	tr.ResolveTypes(&ed)
	for {
		changed := cache.Changed() // before the look: a reply meanwhile is not missed
		if top, ok := resolvedAll(cache, &info.Complete); ok {
			t := &DynamicType{id: info.Complete.Type.ID, name: top.Name, typeName: ed.TypeName, resolve: cache.Resolve}
			t.ext, t.keyed, t.keyFits = extensibility(top.Ext), xtypes.Keyed(t.id, t.resolve), xtypes.KeyFits(t.id, t.resolve)
			return t, nil
		}
		select {
		case <-ctx.Done():
			return nil, errs.Context(ctx.Err(), "type "+ed.TypeName+" not resolved")
		case <-changed:
			if !cache.Pending() { // given up (after its retries): once more
				tr.ResolveTypes(&ed)
			}
		}
	}
}

// extensibility is the codec's form of a TypeObject's extensibility.
func extensibility(ext uint16) cdr.Extensibility {
	switch ext {
	case xtypes.ExtMutable:
		return cdr.Mutable
	case xtypes.ExtAppendable:
		return cdr.Appendable
	}
	return cdr.Final
}

// resolvedAll returns the top type of w when it and all its dependencies are resolved.
func resolvedAll(c *xtypes.Cache, w *xtypes.IDWithDeps) (*xtypes.Type, bool) {
	top, ok := c.Resolve(w.Type.ID)
	if !ok {
		return nil, false
	}
	for _, d := range w.Dependent {
		if _, ok := c.Resolve(d.ID); !ok {
			return nil, false
		}
	}
	return top, true
}

// discoveredEndpoint returns what the remote endpoint h announced.
func (p *DomainParticipant) discoveredEndpoint(h InstanceHandle) (discovery.EndpointData, bool) {
	for _, d := range p.eng.Endpoints() {
		if endpointData(&d).Key == h {
			return d, true
		}
	}
	return discovery.EndpointData{}, false
}

// OnInconsistentType counts, in the endpoint's topic, a remote endpoint whose type is not
// assignable to or from the topic's (INCONSISTENT_TOPIC, DDS-XTypes 1.3 §7.6.3.4).
func (m *matcher) OnInconsistentType(_ wire.GUID, remote *discovery.EndpointData) {
	p := m.e.p
	if m.e.deleted.Load() || p.deleted.Load() {
		return
	}
	if t := p.inconsistentTopic(remote.TopicName); t != nil {
		t.countInconsistent(remote.GUID)
	}
}
