package discovery

import (
	"fmt"

	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/qos"
)

// EndpointData is DiscoveredWriterData or DiscoveredReaderData (RTPS 2.5
// §8.5.4.2, §9.6.2.2): what SEDP says about a writer (on the publications
// topic) or a reader (on the subscriptions topic). Which one it is, and
// whether its topic is keyed, follows from the entity kind of GUID (0x02 /
// 0x03 writer with / without key, 0x07 / 0x04 reader with / without key),
// which is how Fast DDS decides it too. Slices are owned by the struct.
type EndpointData struct {
	// GUID is the endpoint's GUID (PID_ENDPOINT_GUID).
	GUID wire.GUID
	// ParticipantGUID is the GUID of its participant; when the data holds
	// no PID_PARTICIPANT_GUID (Cyclone DDS sends none) it is GUID's prefix
	// with ENTITYID_PARTICIPANT.
	ParticipantGUID wire.GUID
	ProtocolVersion wire.ProtocolVersion
	VendorID        wire.VendorID
	TopicName       string
	TypeName        string
	// Offered is a writer's QoS (its own, its publisher's and its topic's
	// TOPIC_DATA), zero for a reader; Requested is a reader's, zero for a
	// writer. Policies absent from the data have the DDS defaults.
	Offered   qos.Offered
	Requested qos.Requested
	// UnicastLocators and MulticastLocators are the endpoint's own
	// locators; when both are empty the participant's default locators
	// apply (see [EndpointData.Locators]). Cyclone DDS sends none, Fast DDS
	// its unicast locator.
	UnicastLocators   []wire.Locator
	MulticastLocators []wire.Locator
	// ExpectsInlineQoS is a reader's PID_EXPECTS_INLINE_QOS.
	ExpectsInlineQoS bool
	// TypeInformation is the raw value of PID_TYPE_INFORMATION (DDS-XTypes
	// 1.3 §7.6.3.2.2, XCDR2 in the list's byte order, padding included), nil
	// when absent. Cyclone DDS sends it; matching does not use it yet.
	TypeInformation []byte
	// TypeMaxSizeSerialized is a writer's PID_TYPE_MAX_SIZE_SERIALIZED, the
	// largest serialized sample (Fast DDS sends it), 0 when absent.
	TypeMaxSizeSerialized uint32
	// ContentFilter is a reader's PID_CONTENT_FILTER_PROPERTY, nil when the
	// reader has no content filter.
	ContentFilter *wire.ContentFilterProperty
	EntityName    string
	// VendorParams are the vendor-specific parameters, kept raw: interpret
	// them only for VendorID.
	VendorParams []Param
}

// IsWriter reports whether e describes a writer.
func (e *EndpointData) IsWriter() bool { return e.GUID.Entity.IsWriter() }

// IsReader reports whether e describes a reader.
func (e *EndpointData) IsReader() bool { return e.GUID.Entity.IsReader() }

// Keyed reports whether e's topic is keyed, from the entity kind of its GUID
// (writer 0x02, reader 0x07).
func (e *EndpointData) Keyed() bool { return keyedKind(e.GUID.Entity) }

func keyedKind(id wire.EntityID) bool {
	k := id.Kind & 0x3f
	return k == wire.EntityKindWriterWithKey || k == wire.EntityKindReaderWithKey
}

// Locators returns the locators to reach the endpoint: its own when it
// announced any, otherwise those of its participant p (nil p gives nil).
func (e *EndpointData) Locators(p *ParticipantData) (unicast, multicast []wire.Locator) {
	if len(e.UnicastLocators) > 0 || len(e.MulticastLocators) > 0 || p == nil {
		return e.UnicastLocators, e.MulticastLocators
	}
	return p.DefaultUnicastLocators, p.DefaultMulticastLocators
}

// KeyHash returns the key hash of the discovery data of the entity with GUID
// g: the 16 octets of g, which is how both peers compute the key hash of a
// BuiltinTopicKey_t.
func KeyHash(g wire.GUID) wire.KeyHash {
	var h wire.KeyHash
	g.Append(h[:0])
	return h
}

// Append appends e as a complete SEDP serialized payload (PL_CDR_LE, always
// little-endian): the GUIDs, a KEY_HASH with the endpoint GUID as Fast DDS
// writes it, names, the QoS (the policies qoswire.Append sends), the
// locators and the optional parameters that are set.
func (e *EndpointData) Append(b []byte) []byte {
	b, _ = e.appendList(b)
	return b
}

// Check reports whether e can be announced as it is: every value fits in a
// parameter (65532 octets), e is a writer or reader with topic and type
// names, and a peer applying limits l accepts it. The error wraps
// [ErrLimit] or [ErrInvalid] or a wire error.
func (e *EndpointData) Check(l Limits) error {
	return checkAnnounce(e, l, (*Decoder).EndpointData)
}

func (e *EndpointData) appendList(b []byte) ([]byte, error) {
	w := newWriter(b)
	w.PutGUID(wire.PIDEndpointGUID, e.GUID)
	w.PutGUID(wire.PIDParticipantGUID, e.participantGUID())
	w.PutKeyHash(KeyHash(e.GUID))
	w.PutProtocolVersion(e.ProtocolVersion)
	w.PutVendorID(e.VendorID)
	w.PutString(wire.PIDTopicName, e.TopicName)
	w.PutString(wire.PIDTypeName, e.TypeName)
	if e.IsWriter() {
		putQos(&w, &e.Offered)
	} else {
		putQos(&w, &e.Requested)
	}
	for _, l := range e.UnicastLocators {
		w.PutLocator(wire.PIDUnicastLocator, l)
	}
	for _, l := range e.MulticastLocators {
		w.PutLocator(wire.PIDMulticastLocator, l)
	}
	if e.IsReader() || e.ExpectsInlineQoS {
		w.PutBool(wire.PIDExpectsInlineQoS, e.ExpectsInlineQoS)
	}
	if e.TypeInformation != nil {
		w.PutRaw(wire.PIDTypeInformation, e.TypeInformation)
	}
	if e.TypeMaxSizeSerialized != 0 {
		w.PutUint32(wire.PIDTypeMaxSizeSerialized, e.TypeMaxSizeSerialized)
	}
	if e.ContentFilter != nil {
		w.Put(*e.ContentFilter)
	}
	if e.EntityName != "" {
		w.PutString(wire.PIDEntityName, e.EntityName)
	}
	putVendorParams(&w, e.VendorParams)
	return finish(&w)
}

func (e *EndpointData) participantGUID() wire.GUID {
	if e.ParticipantGUID == wire.GUIDUnknown {
		return wire.GUID{Prefix: e.GUID.Prefix, Entity: wire.EntityIDParticipant}
	}
	return e.ParticipantGUID
}

// ParseEndpointData decodes an SEDP serialized payload with the zero
// [Decoder].
func ParseEndpointData(payload []byte) (EndpointData, error) {
	var d Decoder
	return d.EndpointData(payload)
}

// EndpointData decodes an SEDP serialized payload (PL_CDR_LE or PL_CDR_BE)
// of a writer or a reader, leniently as [Decoder.ParticipantData] does. The
// endpoint GUID comes from PID_ENDPOINT_GUID, or from PID_KEY_HASH when
// that is absent; it must be of a writer or reader kind. The topic and type
// names must be present. QoS policies absent from the data take the defaults
// of the kind of endpoint.
func (d *Decoder) EndpointData(payload []byte) (EndpointData, error) {
	l, err := d.open(payload, "SEDP")
	if err != nil {
		return EndpointData{}, err
	}
	g, ok := l.findKey()
	if !ok {
		return EndpointData{}, fmt.Errorf("discovery: SEDP: no PID_ENDPOINT_GUID: %w", ErrInvalid)
	}
	e := EndpointData{GUID: g}
	switch {
	case g.Entity.IsWriter():
		e.Offered = qos.DefaultOffered()
	case g.Entity.IsReader():
		e.Requested = qos.DefaultRequested()
	default:
		return EndpointData{}, fmt.Errorf("discovery: SEDP: endpoint %s is neither a writer nor a reader: %w", g, ErrInvalid)
	}
	var haveTopic, haveType bool
	for par, ok := l.r.Next(); ok; par, ok = l.r.Next() {
		if err := l.endpointParam(&e, par, &haveTopic, &haveType); err != nil {
			return EndpointData{}, err
		}
	}
	if err := l.done(); err != nil {
		return EndpointData{}, err
	}
	if !haveTopic || !haveType {
		return EndpointData{}, fmt.Errorf("discovery: SEDP: endpoint %s without topic or type name: %w", g, ErrInvalid)
	}
	if e.ParticipantGUID == wire.GUIDUnknown {
		e.ParticipantGUID = e.participantGUID()
	}
	return e, nil
}

// findKey returns the GUID in PID_ENDPOINT_GUID or else in PID_KEY_HASH
// without consuming l's reader.
func (l *plist) findKey() (wire.GUID, bool) {
	r := l.r // a copy: the iteration below does not advance l.r
	var key wire.GUID
	var haveKey bool
	for p, ok := r.Next(); ok; p, ok = r.Next() {
		switch p.ID {
		case wire.PIDEndpointGUID:
			if g, _, err := wire.ParseGUID(p.Value); err == nil {
				return g, true
			}
		case wire.PIDKeyHash:
			if !haveKey {
				key, _, _ = wire.ParseGUID(p.Value)
				haveKey = len(p.Value) >= wire.GUIDLen
			}
		default:
		}
	}
	return key, haveKey
}

// endpointParam decodes one SEDP parameter into e.
func (l *plist) endpointParam(e *EndpointData, par wire.Parameter, haveTopic, haveType *bool) error {
	if ok, err := l.common(par, &e.ProtocolVersion, &e.VendorID, &e.VendorParams); ok {
		return err
	}
	if ok, err := l.endpointQos(e, par); ok {
		return err
	}
	var err error
	switch par.ID {
	case wire.PIDEndpointGUID:
		// Read by findKey; a repetition must still be well-formed.
		_, err = l.guid(par)
	case wire.PIDParticipantGUID:
		e.ParticipantGUID, err = l.guid(par)
	case wire.PIDTopicName:
		e.TopicName, err = l.str(par)
		*haveTopic = err == nil
	case wire.PIDTypeName:
		e.TypeName, err = l.str(par)
		*haveType = err == nil
	case wire.PIDUnicastLocator:
		e.UnicastLocators, err = l.locator(e.UnicastLocators, par)
	case wire.PIDMulticastLocator:
		e.MulticastLocators, err = l.locator(e.MulticastLocators, par)
	case wire.PIDExpectsInlineQoS:
		e.ExpectsInlineQoS, err = l.boolean(par)
	case wire.PIDTypeInformation:
		e.TypeInformation, err = l.copyData(par.ID, par.Value)
		if err == nil && e.TypeInformation == nil {
			e.TypeInformation = []byte{}
		}
	case wire.PIDTypeMaxSizeSerialized:
		e.TypeMaxSizeSerialized, err = l.u32(par)
	case wire.PIDContentFilterProperty:
		e.ContentFilter, err = l.contentFilter(par)
	case wire.PIDEntityName:
		e.EntityName, err = l.str(par)
	default: // unknown or not used: skipped
	}
	return err
}

// endpointQos decodes a policy of e's kind of endpoint.
func (l *plist) endpointQos(e *EndpointData, par wire.Parameter) (bool, error) {
	if e.IsWriter() {
		return qosParam(l, &e.Offered, par)
	}
	return qosParam(l, &e.Requested, par)
}

// contentFilter decodes PID_CONTENT_FILTER_PROPERTY within the limits.
func (l *plist) contentFilter(par wire.Parameter) (*wire.ContentFilterProperty, error) {
	c, _, err := wire.ParseContentFilterProperty(par.Value, par.BigEndian)
	if err != nil {
		return nil, l.err(par.ID, err)
	}
	if err := check("content filter expression parameter count", len(c.ExpressionParameters), l.lim.MaxPartitions); err != nil {
		return nil, l.err(par.ID, err)
	}
	n := max(len(c.ContentFilteredTopicName), len(c.RelatedTopicName), len(c.FilterClassName))
	for _, s := range c.ExpressionParameters {
		n = max(n, len(s))
	}
	if err := check("content filter string length", n, l.lim.MaxStringLen); err != nil {
		return nil, l.err(par.ID, err)
	}
	if err := check("content filter expression length", len(c.FilterExpression), l.lim.MaxDataLen); err != nil {
		return nil, l.err(par.ID, err)
	}
	return &c, nil
}

// TopicData is DiscoveredTopicData (RTPS 2.5 §8.5.4.2; DDS 1.4 §2.2.5
// TopicBuiltinTopicData), sent on the SEDP topics writer. Cyclone DDS 0.10.2
// sends it only when configured to, Fast DDS 2.9 never; it is decoded when
// it comes.
type TopicData struct {
	// Key is the topic's BuiltinTopicKey (PID_ENDPOINT_GUID, or PID_KEY_HASH
	// when that is absent).
	Key             wire.GUID
	ProtocolVersion wire.ProtocolVersion
	VendorID        wire.VendorID
	TopicName       string
	TypeName        string
	// Qos holds the topic's policies; absent ones take the DDS defaults.
	Qos qos.TopicQos
	// TypeInformation is the raw PID_TYPE_INFORMATION, nil when absent.
	TypeInformation []byte
	// VendorParams are the vendor-specific parameters, kept raw.
	VendorParams []Param
}

// Append appends t as a complete serialized payload (PL_CDR_LE).
func (t *TopicData) Append(b []byte) []byte {
	w := newWriter(b)
	w.PutGUID(wire.PIDEndpointGUID, t.Key)
	w.PutKeyHash(KeyHash(t.Key))
	w.PutProtocolVersion(t.ProtocolVersion)
	w.PutVendorID(t.VendorID)
	w.PutString(wire.PIDTopicName, t.TopicName)
	w.PutString(wire.PIDTypeName, t.TypeName)
	putQos(&w, &t.Qos)
	if t.TypeInformation != nil {
		w.PutRaw(wire.PIDTypeInformation, t.TypeInformation)
	}
	putVendorParams(&w, t.VendorParams)
	b, _ = finish(&w)
	return b
}

// ParseTopicData decodes a DiscoveredTopicData payload with the zero
// [Decoder].
func ParseTopicData(payload []byte) (TopicData, error) {
	var d Decoder
	return d.TopicData(payload)
}

// TopicData decodes a DiscoveredTopicData serialized payload (PL_CDR_LE or
// PL_CDR_BE), leniently as [Decoder.ParticipantData] does. The topic and
// type names must be present.
func (d *Decoder) TopicData(payload []byte) (TopicData, error) {
	l, err := d.open(payload, "topic")
	if err != nil {
		return TopicData{}, err
	}
	key, _ := l.findKey()
	t := TopicData{Key: key, Qos: qos.DefaultTopicQos()}
	var haveTopic, haveType bool
	for par, ok := l.r.Next(); ok; par, ok = l.r.Next() {
		if ok, err := l.common(par, &t.ProtocolVersion, &t.VendorID, &t.VendorParams); ok {
			if err != nil {
				return TopicData{}, err
			}
			continue
		}
		if ok, err := qosParam(l, &t.Qos, par); ok {
			if err != nil {
				return TopicData{}, err
			}
			continue
		}
		switch par.ID {
		case wire.PIDTopicName:
			t.TopicName, err = l.str(par)
			haveTopic = err == nil
		case wire.PIDTypeName:
			t.TypeName, err = l.str(par)
			haveType = err == nil
		case wire.PIDTypeInformation:
			t.TypeInformation, err = l.copyData(par.ID, par.Value)
			if err == nil && t.TypeInformation == nil {
				t.TypeInformation = []byte{}
			}
		default: // unknown or not used: skipped
		}
		if err != nil {
			return TopicData{}, err
		}
	}
	if err := l.done(); err != nil {
		return TopicData{}, err
	}
	if !haveTopic || !haveType {
		return TopicData{}, fmt.Errorf("discovery: topic: no topic or type name: %w", ErrInvalid)
	}
	return t, nil
}
