package wire

// Constants of the DDSI-RTPS 2.5 specification (OMG formal/22-04-01). Section
// numbers refer to that document unless noted.

// Well-known ports (§9.6.1.1): port = PB + DG·domainId + offset, where the
// offset is d0 (SPDP multicast), d1 + PG·participantId (metatraffic
// unicast), d2 (user multicast) or d3 + PG·participantId (user unicast).
const (
	PortBase                = 7400 // PB
	PortDomainGain          = 250  // DG
	PortParticipantGain     = 2    // PG
	PortOffsetMetaMulticast = 0    // d0
	PortOffsetMetaUnicast   = 10   // d1
	PortOffsetUserMulticast = 1    // d2
	PortOffsetUserUnicast   = 11   // d3
)

// DefaultMulticastIPv4 is the default SPDP multicast group for UDPv4
// (§9.6.1.4.1), 239.255.0.1.
var DefaultMulticastIPv4 = [4]byte{239, 255, 0, 1}

// Message header (§8.3.3, §9.4.4).
const (
	// HeaderLen is the size of the RTPS message header.
	HeaderLen = 20
	// SubmessageHeaderLen is the size of a submessage header.
	SubmessageHeaderLen = 4
)

// ProtocolRTPS is the protocol id that starts every RTPS message (§9.4.4).
var ProtocolRTPS = [4]byte{'R', 'T', 'P', 'S'}

// SubmessageKind is a submessage id (§9.4.5.1.1). Ids 0x80 to 0xff are
// vendor-specific and are interpreted according to the message's vendor id.
type SubmessageKind uint8

// Submessage ids of RTPS 2.5 (§9.4.5.1.1) and of DDS-Security 1.1 (§7.3.6,
// recognized but not decoded by this package).
const (
	KindPad           SubmessageKind = 0x01
	KindAckNack       SubmessageKind = 0x06
	KindHeartbeat     SubmessageKind = 0x07
	KindGap           SubmessageKind = 0x08
	KindInfoTS        SubmessageKind = 0x09
	KindInfoSrc       SubmessageKind = 0x0c
	KindInfoReplyIP4  SubmessageKind = 0x0d
	KindInfoDst       SubmessageKind = 0x0e
	KindInfoReply     SubmessageKind = 0x0f
	KindNackFrag      SubmessageKind = 0x12
	KindHeartbeatFrag SubmessageKind = 0x13
	KindData          SubmessageKind = 0x15
	KindDataFrag      SubmessageKind = 0x16
	KindSecBody       SubmessageKind = 0x30
	KindSecPrefix     SubmessageKind = 0x31
	KindSecPostfix    SubmessageKind = 0x32
	KindSRTPSPrefix   SubmessageKind = 0x33
	KindSRTPSPostfix  SubmessageKind = 0x34
)

// KindVendorMin is the first vendor-specific submessage id (§9.4.5.1.1).
const KindVendorMin = 0x80

// IsVendorSpecific reports whether k is in the vendor-specific range.
func (k SubmessageKind) IsVendorSpecific() bool { return k >= KindVendorMin }

// String returns the specification name of k, or "0xNN" for other ids.
func (k SubmessageKind) String() string {
	switch k {
	case KindPad:
		return "PAD"
	case KindAckNack:
		return "ACKNACK"
	case KindHeartbeat:
		return "HEARTBEAT"
	case KindGap:
		return "GAP"
	case KindInfoTS:
		return "INFO_TS"
	case KindInfoSrc:
		return "INFO_SRC"
	case KindInfoReplyIP4:
		return "INFO_REPLY_IP4"
	case KindInfoDst:
		return "INFO_DST"
	case KindInfoReply:
		return "INFO_REPLY"
	case KindNackFrag:
		return "NACK_FRAG"
	case KindHeartbeatFrag:
		return "HEARTBEAT_FRAG"
	case KindData:
		return "DATA"
	case KindDataFrag:
		return "DATA_FRAG"
	case KindSecBody:
		return "SEC_BODY"
	case KindSecPrefix:
		return "SEC_PREFIX"
	case KindSecPostfix:
		return "SEC_POSTFIX"
	case KindSRTPSPrefix:
		return "SRTPS_PREFIX"
	case KindSRTPSPostfix:
		return "SRTPS_POSTFIX"
	}
	const hexdig = "0123456789abcdef"
	return string([]byte{'0', 'x', hexdig[k>>4], hexdig[k&0xf]})
}

// Submessage flags (§9.4.5.1.2 and the per-submessage sections of §9.4.5).
// Bit 0 of every submessage is the endianness flag; the others depend on the
// submessage kind.
const (
	FlagEndianness = 0x01 // E: little-endian when set, all submessages

	FlagAckNackFinal = 0x02 // F, ACKNACK (§9.4.5.3)

	FlagDataInlineQoS   = 0x02 // Q, DATA (§9.4.5.4)
	FlagDataData        = 0x04 // D, DATA
	FlagDataKey         = 0x08 // K, DATA
	FlagDataNonStandard = 0x10 // N, DATA (RTPS 2.3+)

	FlagDataFragInlineQoS   = 0x02 // Q, DATA_FRAG (§9.4.5.5)
	FlagDataFragKey         = 0x04 // K, DATA_FRAG
	FlagDataFragNonStandard = 0x08 // N, DATA_FRAG (RTPS 2.3+)

	FlagHeartbeatFinal      = 0x02 // F, HEARTBEAT (§9.4.5.7)
	FlagHeartbeatLiveliness = 0x04 // L, HEARTBEAT

	FlagInfoTSInvalidate = 0x02 // I, INFO_TS (§9.4.5.12)

	FlagInfoReplyMulticast = 0x02 // M, INFO_REPLY and INFO_REPLY_IP4 (§9.4.5.11, §9.4.5.14)
)

// Entity kinds: the last octet of an EntityID (§9.3.1.2). The two top bits
// say who defined the entity: 00 user, 11 built-in, 01 vendor-specific.
const (
	EntityKindUnknown       = 0x00
	EntityKindParticipant   = 0x01 // with the built-in flag: 0xc1
	EntityKindWriterWithKey = 0x02
	EntityKindWriterNoKey   = 0x03
	EntityKindReaderNoKey   = 0x04
	EntityKindReaderWithKey = 0x07
	EntityKindWriterGroup   = 0x08
	EntityKindReaderGroup   = 0x09

	EntityKindBuiltinFlag = 0xc0
	EntityKindVendorFlag  = 0x40
)

// Well-known entity ids (§9.3.1.2 Table 9.2, DDS-XTypes 1.3 §7.6.3.3.4 for
// TypeLookup).
var (
	EntityIDUnknown     = EntityIDFromUint32(0x00000000) // ENTITYID_UNKNOWN
	EntityIDParticipant = EntityIDFromUint32(0x000001c1) // ENTITYID_PARTICIPANT

	EntityIDSEDPTopicsWriter        = EntityIDFromUint32(0x000002c2)
	EntityIDSEDPTopicsReader        = EntityIDFromUint32(0x000002c7)
	EntityIDSEDPPublicationsWriter  = EntityIDFromUint32(0x000003c2)
	EntityIDSEDPPublicationsReader  = EntityIDFromUint32(0x000003c7)
	EntityIDSEDPSubscriptionsWriter = EntityIDFromUint32(0x000004c2)
	EntityIDSEDPSubscriptionsReader = EntityIDFromUint32(0x000004c7)

	EntityIDSPDPWriter = EntityIDFromUint32(0x000100c2)
	EntityIDSPDPReader = EntityIDFromUint32(0x000100c7)

	EntityIDParticipantMessageWriter = EntityIDFromUint32(0x000200c2)
	EntityIDParticipantMessageReader = EntityIDFromUint32(0x000200c7)

	EntityIDTypeLookupRequestWriter = EntityIDFromUint32(0x000300c3)
	EntityIDTypeLookupRequestReader = EntityIDFromUint32(0x000300c4)
	EntityIDTypeLookupReplyWriter   = EntityIDFromUint32(0x000301c3)
	EntityIDTypeLookupReplyReader   = EntityIDFromUint32(0x000301c4)
)

// BuiltinEndpointSet bits of PID_BUILTIN_ENDPOINT_SET (§8.5.4.3, §9.3.2;
// DDS-Security 1.1 §7.4.1.4 for bits 16-27; DDS-XTypes 1.3 §7.6.3.3.4 for
// bits 12-15).
const (
	BuiltinParticipantAnnouncer            uint32 = 1 << 0
	BuiltinParticipantDetector             uint32 = 1 << 1
	BuiltinPublicationsAnnouncer           uint32 = 1 << 2
	BuiltinPublicationsDetector            uint32 = 1 << 3
	BuiltinSubscriptionsAnnouncer          uint32 = 1 << 4
	BuiltinSubscriptionsDetector           uint32 = 1 << 5
	BuiltinParticipantProxyAnnouncer       uint32 = 1 << 6
	BuiltinParticipantProxyDetector        uint32 = 1 << 7
	BuiltinParticipantStateAnnouncer       uint32 = 1 << 8
	BuiltinParticipantStateDetector        uint32 = 1 << 9
	BuiltinParticipantMessageWriter        uint32 = 1 << 10
	BuiltinParticipantMessageReader        uint32 = 1 << 11
	BuiltinTypeLookupRequestWriter         uint32 = 1 << 12
	BuiltinTypeLookupRequestReader         uint32 = 1 << 13
	BuiltinTypeLookupReplyWriter           uint32 = 1 << 14
	BuiltinTypeLookupReplyReader           uint32 = 1 << 15
	BuiltinPublicationsSecureWriter        uint32 = 1 << 16
	BuiltinPublicationsSecureReader        uint32 = 1 << 17
	BuiltinSubscriptionsSecureWriter       uint32 = 1 << 18
	BuiltinSubscriptionsSecureReader       uint32 = 1 << 19
	BuiltinParticipantMessageSecureWriter  uint32 = 1 << 20
	BuiltinParticipantMessageSecureReader  uint32 = 1 << 21
	BuiltinParticipantStatelessWriter      uint32 = 1 << 22
	BuiltinParticipantStatelessReader      uint32 = 1 << 23
	BuiltinParticipantVolatileSecureWriter uint32 = 1 << 24
	BuiltinParticipantVolatileSecureReader uint32 = 1 << 25
	BuiltinParticipantSecureWriter         uint32 = 1 << 26
	BuiltinParticipantSecureReader         uint32 = 1 << 27
	BuiltinTopicsAnnouncer                 uint32 = 1 << 28 // RTPS 2.4+
	BuiltinTopicsDetector                  uint32 = 1 << 29 // RTPS 2.4+
)

// Vendor ids (§9.3.1.3; the registry is kept by the OMG / DDS Foundation,
// "DDS-RTPS Vendor and Product IDs").
var (
	VendorUnknown    = VendorID{0x00, 0x00} // VENDORID_UNKNOWN
	VendorRTI        = VendorID{0x01, 0x01} // RTI Connext DDS
	VendorOpenSplice = VendorID{0x01, 0x02} // ADLINK OpenSplice
	VendorOpenDDS    = VendorID{0x01, 0x03} // OCI OpenDDS
	VendorCoreDX     = VendorID{0x01, 0x06} // Twin Oaks CoreDX
	VendorRTIMicro   = VendorID{0x01, 0x0a} // RTI Connext Micro
	VendorFastDDS    = VendorID{0x01, 0x0f} // eProsima Fast DDS
	VendorCyclone    = VendorID{0x01, 0x10} // Eclipse Cyclone DDS
	VendorGurumDDS   = VendorID{0x01, 0x11} // GurumNetworks GurumDDS
	VendorRustDDS    = VendorID{0x01, 0x12} // Atostek RustDDS
	VendorDustDDS    = VendorID{0x01, 0x14} // S2E Dust DDS

	// VendorDDSGo is the vendor id this implementation sends. ddsgo has no
	// OMG-assigned id. The registry assigns 01.xx sequentially from 01.01;
	// the ids in use stop well below 01.30 (01.20 is the highest known, ADLINK
	// Cloud). 01.dd lies far above that range, so it collides with no
	// registered vendor; peers treat it as an unknown vendor, which means
	// they ignore our vendor-specific PIDs and submessages, as intended. It
	// must be replaced by an assigned id before a release.
	VendorDDSGo = VendorID{0x01, 0xdd}
)

// Locator kinds (§9.3.2 Locator_t).
const (
	LocatorKindInvalid  int32 = -1
	LocatorKindReserved int32 = 0
	LocatorKindUDPv4    int32 = 1
	LocatorKindUDPv6    int32 = 2
)

// LocatorPortInvalid is LOCATOR_PORT_INVALID.
const LocatorPortInvalid uint32 = 0
