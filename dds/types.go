package dds

import (
	"net/netip"
	"slices"
	"time"

	"github.com/ddsgo/ddsgo/internal/wire"

	"github.com/ddsgo/ddsgo/dds/internal/status"

	"github.com/ddsgo/ddsgo/dds/internal/rhc"
	"github.com/ddsgo/ddsgo/internal/discovery"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
)

// InstanceHandle identifies an entity (local or discovered: its GUID) or an instance of a
// topic (from its key hash). It is listener.InstanceHandle.
type InstanceHandle = listener.InstanceHandle

// HandleNil is HANDLE_NIL, no entity or instance.
var HandleNil = listener.HandleNil

// SampleState is SampleStateKind of DDS 1.4 §2.2.2.5.4 as a bit mask: whether a sample
// was read before. As a mask the zero value selects every sample.
type SampleState uint8

// The sample states and their union.
const (
	ReadSampleState    = SampleState(rhc.ReadSampleState)
	NotReadSampleState = SampleState(rhc.NotReadSampleState)
	AnySampleState     = ReadSampleState | NotReadSampleState
)

// String returns the spec names joined with "|", e.g. "NOT_READ".
func (s SampleState) String() string { return rhc.SampleState(s).String() }

// ViewState is ViewStateKind as a bit mask: whether the current generation of an instance
// was seen before. As a mask the zero value selects every instance.
type ViewState uint8

// The view states and their union.
const (
	NewViewState    = ViewState(rhc.NewViewState)
	NotNewViewState = ViewState(rhc.NotNewViewState)
	AnyViewState    = NewViewState | NotNewViewState
)

// String returns the spec names joined with "|", e.g. "NEW".
func (s ViewState) String() string { return rhc.ViewState(s).String() }

// InstanceState is InstanceStateKind as a bit mask: whether an instance is alive,
// disposed, or without live writers. As a mask the zero value selects every instance.
type InstanceState uint8

// The instance states and the usual unions.
const (
	AliveInstanceState             = InstanceState(rhc.AliveInstanceState)
	NotAliveDisposedInstanceState  = InstanceState(rhc.NotAliveDisposedInstanceState)
	NotAliveNoWritersInstanceState = InstanceState(rhc.NotAliveNoWritersInstanceState)
	NotAliveInstanceState          = NotAliveDisposedInstanceState | NotAliveNoWritersInstanceState
	AnyInstanceState               = AliveInstanceState | NotAliveInstanceState
)

// String returns the spec names joined with "|", e.g. "NOT_ALIVE_DISPOSED".
func (s InstanceState) String() string { return rhc.InstanceState(s).String() }

// States selects samples by their sample, view and instance states, the masks of read and
// take and of a ReadCondition. A zero field selects every state: the zero States selects
// every sample.
type States struct {
	Sample   SampleState
	View     ViewState
	Instance InstanceState
}

// NotReadStates selects the samples not read before, of any instance.
var NotReadStates = States{Sample: NotReadSampleState}

// SampleInfo is the SampleInfo of DDS 1.4 §2.2.2.5.5 that comes with every sample read or
// taken.
type SampleInfo struct {
	SampleState   SampleState
	ViewState     ViewState
	InstanceState InstanceState
	// ValidData is false for a sample that only reports a change of the instance state
	// (a dispose, an unregister, the loss of the writers); its value then holds only
	// the key fields, if those were received.
	ValidData bool
	// SourceTimestamp is the writer's timestamp, or the reception time when the writer
	// sent none.
	SourceTimestamp time.Time
	// InstanceHandle identifies the instance (the same handle the DataWriter and
	// DataReader LookupInstance return for its key).
	InstanceHandle InstanceHandle
	// PublicationHandle identifies the writer: its GUID.
	PublicationHandle        InstanceHandle
	DisposedGenerationCount  int32
	NoWritersGenerationCount int32
	SampleRank               int32
	GenerationRank           int32
	AbsoluteGenerationRank   int32
	// Identity names the sample: its writer (PublicationHandle) and the sequence number
	// the writer gave it; zero for an invalid sample.
	Identity SampleIdentity
	// RelatedIdentity is the identity of the sample this one answers, when its writer
	// said so (RelatedTo, or rmw_fastrtps's replies); zero otherwise.
	RelatedIdentity SampleIdentity
	// SerializedSize is the length in octets of the sample as it arrived serialized
	// (encapsulation header included, as ROS 2's topic bw counts); 0 for an invalid
	// sample.
	SerializedSize int
}

// SampleIdentity names one sample: its writer's GUID (the PublicationHandle readers see)
// and the sequence number the writer gave it (DDS-RPC's SampleIdentity).
type SampleIdentity struct {
	Writer InstanceHandle
	SN     int64
}

func (s *SampleInfo) from(r *rhc.SampleInfo) {
	*s = SampleInfo{
		SampleState:              SampleState(r.SampleState),
		ViewState:                ViewState(r.ViewState),
		InstanceState:            InstanceState(r.InstanceState),
		ValidData:                r.ValidData,
		SourceTimestamp:          r.SourceTimestamp,
		InstanceHandle:           status.KeyHandle(r.KeyHash),
		PublicationHandle:        status.GUIDHandle(r.PublicationHandle),
		DisposedGenerationCount:  r.DisposedGenerationCount,
		NoWritersGenerationCount: r.NoWritersGenerationCount,
		SampleRank:               r.SampleRank,
		GenerationRank:           r.GenerationRank,
		AbsoluteGenerationRank:   r.AbsoluteGenerationRank,
	}
	if r.ValidData {
		s.Identity = SampleIdentity{Writer: s.PublicationHandle, SN: r.SN}
		s.SerializedSize = int(r.Size)
	}
	if r.Related.Writer != (rhc.GUID{}) {
		s.RelatedIdentity = SampleIdentity{Writer: status.GUIDHandle(r.Related.Writer), SN: r.Related.SN}
	}
}

// handleMask is HandleFromKeyHash of the zero key hash: the mask that turns a key hash
// into an instance handle and back.
var handleMask = status.KeyHandle([16]byte{})

// keyHashOf returns the key hash of the instance with handle h.
func keyHashOf(h InstanceHandle) [16]byte {
	var k [16]byte
	for i := range k {
		k[i] = h[i] ^ handleMask[i]
	}
	return k
}

// ParticipantBuiltinTopicData describes a discovered participant: the
// ParticipantBuiltinTopicData of DDS 1.4 §2.2.5 (Key, UserData) and what its SPDP
// announcement says besides (RTPS 2.5 §8.5.3.2).
type ParticipantBuiltinTopicData struct {
	// Key is the participant's handle, made from its GUID.
	Key      InstanceHandle
	UserData []byte
	// Name is the participant's ENTITY_NAME, empty when it announces none.
	Name string
	// VendorID is the vendor of its DDS (RTPS 2.5 §8.3.3.1.3: 01.10 Cyclone DDS,
	// 01.0f Fast DDS, 01.dd ddsgo), and ProtocolVersion its RTPS version.
	VendorID        [2]byte
	ProtocolVersion [2]byte
	// DomainID is the domain it announces, -1 when it announces none (Fast DDS).
	DomainID  int
	DomainTag string
	// LeaseDuration is how long it stays alive without news from it.
	LeaseDuration time.Duration
	// The locators of its user traffic and of its discovery traffic (UDP ones).
	UnicastLocators, MulticastLocators                       []netip.AddrPort
	MetatrafficUnicastLocators, MetatrafficMulticastLocators []netip.AddrPort
	// Properties are its PROPERTY_LIST, such as Cyclone DDS's and ddsgo's __Hostname,
	// __Pid and __ProcessName.
	Properties map[string]string
}

// participantData converts what discovery decoded.
func participantData(h InstanceHandle, d *discovery.ParticipantData) ParticipantBuiltinTopicData {
	out := ParticipantBuiltinTopicData{
		Key:                          h,
		UserData:                     slices.Clone(d.Qos.UserData.Value),
		Name:                         d.EntityName,
		VendorID:                     d.VendorID,
		ProtocolVersion:              [2]byte{d.ProtocolVersion.Major, d.ProtocolVersion.Minor},
		DomainID:                     -1,
		DomainTag:                    d.DomainTag,
		LeaseDuration:                d.LeaseDuration,
		UnicastLocators:              addrPorts(d.DefaultUnicastLocators),
		MulticastLocators:            addrPorts(d.DefaultMulticastLocators),
		MetatrafficUnicastLocators:   addrPorts(d.MetatrafficUnicastLocators),
		MetatrafficMulticastLocators: addrPorts(d.MetatrafficMulticastLocators),
	}
	if d.HasDomainID {
		out.DomainID = int(d.DomainID)
	}
	if len(d.Properties.Properties) > 0 {
		out.Properties = make(map[string]string, len(d.Properties.Properties))
		for _, p := range d.Properties.Properties {
			out.Properties[p.Name] = p.Value
		}
	}
	return out
}

// addrPorts returns the UDP locators of ls as addresses.
func addrPorts(ls []wire.Locator) []netip.AddrPort {
	var out []netip.AddrPort
	for _, l := range ls {
		if ap, ok := l.AddrPort(); ok {
			out = append(out, ap)
		}
	}
	return out
}

// EndpointBuiltinTopicData describes a writer (PublicationBuiltinTopicData) or a reader
// (SubscriptionBuiltinTopicData) discovered in SEDP.
type EndpointBuiltinTopicData struct {
	// Key is the endpoint's handle and ParticipantKey its participant's, made from
	// their GUIDs.
	Key            InstanceHandle
	ParticipantKey InstanceHandle
	TopicName      string
	TypeName       string
	// Keyed says the topic has a key (from the endpoint's entity kind, as peers match).
	Keyed bool
	// Offered is the QoS a writer announced (zero for a reader), Requested a
	// reader's (zero for a writer).
	Offered   qos.Offered
	Requested qos.Requested
}
