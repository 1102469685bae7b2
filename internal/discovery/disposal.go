package discovery

import (
	"fmt"

	"github.com/ddsgo/ddsgo/internal/wire"
)

// Disposal says that a participant, endpoint or topic is gone: its GUID and
// the STATUS_INFO flags (disposed, unregistered) of the DATA that said so.
//
// The peers send it in two forms. Cyclone DDS sends a DATA with the K flag,
// the serialized key as payload (PL_CDR_LE holding PID_PARTICIPANT_GUID or
// PID_ENDPOINT_GUID) and STATUS_INFO 3 inline. Fast DDS sends a DATA
// without payload whose inline QoS holds PID_KEY_HASH (the GUID),
// PID_STATUS_INFO 3 and its vendor parameter 0x800f (a SampleIdentity). This
// package writes both the inline KEY_HASH and the key payload, so each peer
// finds what it looks for: Fast DDS ignores a disposal without an inline
// KEY_HASH.
type Disposal struct {
	GUID   wire.GUID
	Status wire.StatusInfo
}

// Disposal inspects a DATA of a built-in discovery writer and reports
// whether it withdraws an entity. It returns false for an announcement (no
// STATUS_INFO, or one with neither the disposed nor the unregistered flag),
// whose payload is then decoded with [Decoder.ParticipantData] or
// [Decoder.EndpointData]. The GUID comes from the inline KEY_HASH when
// there is one and otherwise from the serialized key; data.InlineQoS is read
// in data's byte order, the key in its own.
func (d *Decoder) Disposal(data *wire.Data) (Disposal, bool, error) {
	x, haveKey, err := d.disposalInlineQoS(data)
	if err != nil {
		return x, false, err
	}
	if x.Status&(wire.StatusInfoDisposed|wire.StatusInfoUnregistered) == 0 {
		return Disposal{}, false, nil
	}
	if haveKey {
		return x, true, nil
	}
	if !data.KeyFlag && !data.DataFlag {
		return x, false, fmt.Errorf("discovery: disposal without KEY_HASH or key: %w", ErrInvalid)
	}
	g, err := d.disposalKey(data.SerializedPayload)
	if err != nil {
		return x, false, err
	}
	x.GUID = g
	return x, true, nil
}

// disposalInlineQoS reads the status info and the key hash of a disposal's inline QoS;
// it reports whether the key hash was there.
func (d *Decoder) disposalInlineQoS(data *wire.Data) (Disposal, bool, error) {
	var x Disposal
	var haveKey bool
	r := wire.NewParameterReader(data.InlineQoS, data.BigEndian, d.Vendor)
	for p, ok := r.Next(); ok; p, ok = r.Next() {
		switch p.ID {
		case wire.PIDStatusInfo:
			s, _, err := wire.ParseStatusInfo(p.Value)
			if err != nil {
				return x, false, fmt.Errorf("discovery: inline QoS: PID_STATUS_INFO: %w", err)
			}
			x.Status = s
		case wire.PIDKeyHash:
			h, _, err := wire.ParseKeyHash(p.Value)
			if err != nil {
				return x, false, fmt.Errorf("discovery: inline QoS: PID_KEY_HASH: %w", err)
			}
			x.GUID, _, _ = wire.ParseGUID(h[:])
			haveKey = true
		default: // other inline QoS says nothing about the disposal
		}
	}
	if err := r.Err(); err != nil {
		return x, false, fmt.Errorf("discovery: inline QoS: %w", err)
	}
	return x, haveKey, nil
}

// disposalKey returns the GUID a disposal's serialized key (or full sample) names. An
// endpoint's key is its ENDPOINT_GUID even when a PARTICIPANT_GUID comes first, as in
// Fast DDS's SEDP data; then PARTICIPANT_GUID, then KEY_HASH.
func (d *Decoder) disposalKey(payload []byte) (wire.GUID, error) {
	l, err := d.open(payload, "disposal key")
	if err != nil {
		return wire.GUID{}, err
	}
	var found [3]*wire.GUID
	for p, ok := l.r.Next(); ok; p, ok = l.r.Next() {
		rank := disposalKeyRank(p.ID)
		if rank < 0 || found[rank] != nil {
			continue
		}
		g, err := l.guid(p)
		if err != nil {
			return wire.GUID{}, err
		}
		found[rank] = &g
	}
	if err := l.done(); err != nil {
		return wire.GUID{}, err
	}
	for _, g := range found {
		if g != nil {
			return *g, nil
		}
	}
	return wire.GUID{}, fmt.Errorf("discovery: disposal key without a GUID: %w", ErrInvalid)
}

// disposalKeyRank is the preference of a parameter as a disposal's key: 0 is best, -1
// not a key.
func disposalKeyRank(id wire.ParameterID) int {
	switch id {
	case wire.PIDEndpointGUID:
		return 0
	case wire.PIDParticipantGUID:
		return 1
	case wire.PIDKeyHash:
		return 2
	default:
		return -1
	}
}

// AppendInlineQoS appends the inline QoS of a DATA that withdraws x.GUID:
// PID_KEY_HASH and PID_STATUS_INFO, little-endian, and the sentinel.
func (x Disposal) AppendInlineQoS(b []byte) []byte {
	w := wire.NewParamWriter(b, false)
	w.PutKeyHash(KeyHash(x.GUID))
	w.PutStatusInfo(x.Status)
	b, _ = finish(&w) // fixed-size values: no error
	return b
}

// AppendKey appends the serialized key of x.GUID, the payload of a DATA with
// the K flag: PL_CDR_LE holding PID_PARTICIPANT_GUID for a participant and
// PID_ENDPOINT_GUID for an endpoint or topic.
func (x Disposal) AppendKey(b []byte) []byte {
	w := newWriter(b)
	id := wire.PIDEndpointGUID
	if x.GUID.Entity == wire.EntityIDParticipant {
		id = wire.PIDParticipantGUID
	}
	w.PutGUID(id, x.GUID)
	b, _ = finish(&w) // fixed-size values: no error
	return b
}
