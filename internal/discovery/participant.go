package discovery

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/qos"
)

// DefaultLeaseDuration is the participant lease duration of a participant
// that announces none (RTPS 2.5 §9.6.2.2, Table 9.14: 100 s). Cyclone DDS
// announces 10 s, Fast DDS 20 s.
const DefaultLeaseDuration = 100 * time.Second

// Property names Cyclone DDS puts in the PROPERTY_LIST of its SPDP data,
// which tools show for a remote participant.
const (
	PropertyProcessName = "__ProcessName"
	PropertyPid         = "__Pid"
	PropertyHostname    = "__Hostname"
)

// ProcessProperties returns the properties that describe this process, as
// Cyclone DDS announces them: __ProcessName (the base name of the
// executable), __Pid and __Hostname. A value the operating system does not
// give is left out.
func ProcessProperties() []wire.Property {
	var ps []wire.Property
	if exe, err := os.Executable(); err == nil {
		ps = append(ps, wire.Property{Name: PropertyProcessName, Value: filepath.Base(exe)})
	}
	ps = append(ps, wire.Property{Name: PropertyPid, Value: strconv.Itoa(os.Getpid())})
	if h, err := os.Hostname(); err == nil {
		ps = append(ps, wire.Property{Name: PropertyHostname, Value: h})
	}
	return ps
}

// ParticipantData is SPDPdiscoveredParticipantData (RTPS 2.5 §8.5.3.2,
// §9.6.2.2): what a participant announces about itself in SPDP. Slices are
// owned by the struct (decoding copies them out of the datagram).
type ParticipantData struct {
	// GUIDPrefix is the prefix of every GUID of the participant; the
	// participant's own GUID is GUIDPrefix + ENTITYID_PARTICIPANT.
	GUIDPrefix      wire.GuidPrefix
	ProtocolVersion wire.ProtocolVersion
	VendorID        wire.VendorID
	// DomainID is meaningful when HasDomainID is set: Fast DDS 2.9 sends no
	// PID_DOMAIN_ID, Cyclone DDS does.
	DomainID    uint32
	HasDomainID bool
	// DomainTag (PID_DOMAIN_TAG, must-understand) is written only when not
	// empty; participants with different tags never match.
	DomainTag        string
	ExpectsInlineQoS bool

	DefaultUnicastLocators       []wire.Locator
	DefaultMulticastLocators     []wire.Locator
	MetatrafficUnicastLocators   []wire.Locator
	MetatrafficMulticastLocators []wire.Locator

	// LeaseDuration is how long the participant is alive without news from
	// it; DefaultLeaseDuration when not announced.
	LeaseDuration         time.Duration
	ManualLivelinessCount int32
	// BuiltinEndpoints is the BuiltinEndpointSet bit set (wire.Builtin...).
	BuiltinEndpoints uint32
	// BuiltinEndpointQoS is PID_BUILTIN_ENDPOINT_QOS (bit 0: best-effort
	// participant message reader); written when not zero.
	BuiltinEndpointQoS uint32
	// Qos is the participant's QoS as announced: USER_DATA (written when not
	// empty); ENTITY_FACTORY is local and decodes as its default.
	Qos        qos.DomainParticipantQos
	EntityName string
	// Properties is PID_PROPERTY_LIST, written when it holds a property or
	// HasBinary is set.
	Properties wire.PropertyList
	// VendorParams are the vendor-specific parameters, kept raw: interpret
	// them only for VendorID (0x8007 is Cyclone DDS's version information
	// but Fast DDS's network configuration).
	VendorParams []Param
}

// GUID returns the GUID of the participant.
func (p *ParticipantData) GUID() wire.GUID {
	return wire.GUID{Prefix: p.GUIDPrefix, Entity: wire.EntityIDParticipant}
}

// CycloneVersion returns Cyclone DDS's PID_CYCLONE_PARTICIPANT_VERSION_INFO
// when the participant is a Cyclone DDS one and sent it.
func (p *ParticipantData) CycloneVersion() (wire.CycloneParticipantVersionInfo, bool) {
	if p.VendorID != wire.VendorCyclone {
		return wire.CycloneParticipantVersionInfo{}, false
	}
	for _, vp := range p.VendorParams {
		if vp.ID == wire.PIDCycloneParticipantVersionInfo {
			v, _, err := wire.ParseCycloneParticipantVersionInfo(vp.Value, vp.BigEndian)
			return v, err == nil
		}
	}
	return wire.CycloneParticipantVersionInfo{}, false
}

// Append appends p as a complete SPDP serialized payload: the PL_CDR_LE
// encapsulation header, the ParameterList and its sentinel. It is always
// little-endian, because Fast DDS reads enum kinds from their first octet.
// A value too long for a parameter (over 65532 octets, which [Limits] never
// let through) is left out.
func (p *ParticipantData) Append(b []byte) []byte {
	b, _ = p.appendList(b)
	return b
}

// Check reports whether p can be announced as it is: every value fits in a
// parameter (65532 octets), and a peer applying limits l accepts it. The
// error wraps [ErrLimit] or [ErrInvalid] or a wire error.
func (p *ParticipantData) Check(l Limits) error {
	return checkAnnounce(p, l, (*Decoder).ParticipantData)
}

func (p *ParticipantData) appendList(b []byte) ([]byte, error) {
	w := newWriter(b)
	w.PutProtocolVersion(p.ProtocolVersion)
	w.PutVendorID(p.VendorID)
	w.PutGUID(wire.PIDParticipantGUID, p.GUID())
	if p.HasDomainID {
		w.PutUint32(wire.PIDDomainID, p.DomainID)
	}
	if p.DomainTag != "" {
		w.PutString(wire.PIDDomainTag, p.DomainTag)
	}
	w.PutUint32(wire.PIDBuiltinEndpointSet, p.BuiltinEndpoints)
	if p.BuiltinEndpointQoS != 0 {
		w.PutUint32(wire.PIDBuiltinEndpointQoS, p.BuiltinEndpointQoS)
	}
	w.PutDuration(wire.PIDParticipantLeaseDuration, wire.DurationFromStd(p.LeaseDuration))
	for _, l := range p.MetatrafficUnicastLocators {
		w.PutLocator(wire.PIDMetatrafficUnicastLocator, l)
	}
	for _, l := range p.MetatrafficMulticastLocators {
		w.PutLocator(wire.PIDMetatrafficMulticastLocator, l)
	}
	for _, l := range p.DefaultUnicastLocators {
		w.PutLocator(wire.PIDDefaultUnicastLocator, l)
	}
	for _, l := range p.DefaultMulticastLocators {
		w.PutLocator(wire.PIDDefaultMulticastLocator, l)
	}
	if p.ExpectsInlineQoS {
		w.PutBool(wire.PIDExpectsInlineQoS, true)
	}
	if p.ManualLivelinessCount != 0 {
		w.PutUint32(wire.PIDParticipantManualLivelinessCount, uint32(p.ManualLivelinessCount))
	}
	putQos(&w, &p.Qos)
	if p.EntityName != "" {
		w.PutString(wire.PIDEntityName, p.EntityName)
	}
	if len(p.Properties.Properties) > 0 || len(p.Properties.Binary) > 0 || p.Properties.HasBinary {
		w.Put(p.Properties)
	}
	putVendorParams(&w, p.VendorParams)
	return finish(&w)
}

// ParseParticipantData decodes an SPDP serialized payload (PL_CDR_LE or
// PL_CDR_BE) with the zero [Decoder]: the vendor is taken from the data's
// PID_VENDORID and [DefaultLimits] apply.
func ParseParticipantData(payload []byte) (ParticipantData, error) {
	var d Decoder
	return d.ParticipantData(payload)
}

// ParticipantData decodes an SPDP serialized payload (PL_CDR_LE or
// PL_CDR_BE). It is lenient like the peers: unknown parameters are skipped
// and a repeated one overrides the earlier; but an unknown must-understand
// parameter fails the whole list (wrapping wire.ErrMustUnderstand), as does
// a value beyond d.Limits (wrapping [ErrLimit]) or a malformed one. The
// participant GUID comes from PID_PARTICIPANT_GUID, or from PID_KEY_HASH
// when that is absent.
func (d *Decoder) ParticipantData(payload []byte) (ParticipantData, error) {
	l, err := d.open(payload, "SPDP")
	if err != nil {
		return ParticipantData{}, err
	}
	p := ParticipantData{LeaseDuration: DefaultLeaseDuration, Qos: qos.DefaultDomainParticipantQos()}
	var haveGUID, haveKey bool
	var key wire.KeyHash
	for par, ok := l.r.Next(); ok; par, ok = l.r.Next() {
		if err := l.participantParam(&p, par, &haveGUID, &haveKey, &key); err != nil {
			return ParticipantData{}, err
		}
	}
	if err := l.done(); err != nil {
		return ParticipantData{}, err
	}
	if !haveGUID {
		if !haveKey {
			return ParticipantData{}, fmt.Errorf("discovery: SPDP: no PID_PARTICIPANT_GUID: %w", ErrInvalid)
		}
		p.GUIDPrefix = wire.GuidPrefix(key[:12])
	}
	return p, nil
}

// participantParam decodes one SPDP parameter into p.
func (l *plist) participantParam(p *ParticipantData, par wire.Parameter, haveGUID, haveKey *bool, key *wire.KeyHash) error {
	if ok, err := l.common(par, &p.ProtocolVersion, &p.VendorID, &p.VendorParams); ok {
		return err
	}
	if ok, err := qosParam(l, &p.Qos, par); ok {
		return err
	}
	var err error
	switch par.ID {
	case wire.PIDParticipantGUID:
		var g wire.GUID
		g, err = l.guid(par)
		p.GUIDPrefix, *haveGUID = g.Prefix, true
	case wire.PIDKeyHash:
		*key, err = l.keyHash(par)
		*haveKey = err == nil
	case wire.PIDDomainID:
		p.DomainID, err = l.u32(par)
		p.HasDomainID = err == nil
	case wire.PIDDomainTag:
		p.DomainTag, err = l.str(par)
	case wire.PIDExpectsInlineQoS:
		p.ExpectsInlineQoS, err = l.boolean(par)
	case wire.PIDDefaultUnicastLocator:
		p.DefaultUnicastLocators, err = l.locator(p.DefaultUnicastLocators, par)
	case wire.PIDDefaultMulticastLocator:
		p.DefaultMulticastLocators, err = l.locator(p.DefaultMulticastLocators, par)
	case wire.PIDMetatrafficUnicastLocator:
		p.MetatrafficUnicastLocators, err = l.locator(p.MetatrafficUnicastLocators, par)
	case wire.PIDMetatrafficMulticastLocator:
		p.MetatrafficMulticastLocators, err = l.locator(p.MetatrafficMulticastLocators, par)
	case wire.PIDParticipantLeaseDuration:
		p.LeaseDuration, err = l.lease(par)
	case wire.PIDParticipantManualLivelinessCount:
		var v uint32
		v, err = l.u32(par)
		p.ManualLivelinessCount = int32(v)
	case wire.PIDBuiltinEndpointSet:
		p.BuiltinEndpoints, err = l.u32(par)
	case wire.PIDBuiltinEndpointQoS:
		p.BuiltinEndpointQoS, err = l.u32(par)
	case wire.PIDEntityName:
		p.EntityName, err = l.str(par)
	case wire.PIDPropertyList:
		p.Properties, err = l.properties(par)
	default: // unknown or not used: skipped
	}
	return err
}

// keyHash decodes PID_KEY_HASH.
func (l *plist) keyHash(par wire.Parameter) (wire.KeyHash, error) {
	k, _, err := wire.ParseKeyHash(par.Value)
	if err != nil {
		return k, l.err(par.ID, err)
	}
	return k, nil
}

// lease decodes PID_PARTICIPANT_LEASE_DURATION.
func (l *plist) lease(par wire.Parameter) (time.Duration, error) {
	v, _, err := wire.ParseDuration(par.Value, par.BigEndian)
	if err == nil {
		var d time.Duration
		if d, err = leaseFromWire(v); err == nil {
			return d, nil
		}
	}
	return 0, l.err(par.ID, err)
}

// properties decodes PID_PROPERTY_LIST within the limits.
func (l *plist) properties(par wire.Parameter) (wire.PropertyList, error) {
	pl, _, err := wire.ParsePropertyList(par.Value, par.BigEndian)
	if err != nil {
		return wire.PropertyList{}, l.err(par.ID, err)
	}
	if err := check("property count", len(pl.Properties)+len(pl.Binary), l.lim.MaxProperties); err != nil {
		return wire.PropertyList{}, l.err(par.ID, err)
	}
	for _, pr := range pl.Properties {
		if err := check("property length", max(len(pr.Name), len(pr.Value)), l.lim.MaxStringLen); err != nil {
			return wire.PropertyList{}, l.err(par.ID, err)
		}
	}
	for _, pr := range pl.Binary {
		if err := check("binary property name length", len(pr.Name), l.lim.MaxStringLen); err != nil {
			return wire.PropertyList{}, l.err(par.ID, err)
		}
		if err := check("binary property length", len(pr.Value), l.lim.MaxDataLen); err != nil {
			return wire.PropertyList{}, l.err(par.ID, err)
		}
	}
	return pl, nil
}

// leaseFromWire converts a lease duration. Negative ones are invalid;
// 2^31-1 seconds and more are infinite, as DurationFromStd writes them.
func leaseFromWire(d wire.Duration) (time.Duration, error) {
	if d.Seconds < 0 {
		return 0, fmt.Errorf("negative duration %ds: %w", d.Seconds, ErrInvalid)
	}
	v := d.Std()
	if d.Seconds == math.MaxInt32 || v >= math.MaxInt32*time.Second {
		return qos.Infinite, nil
	}
	return v, nil
}
