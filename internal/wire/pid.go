package wire

import "strconv"

// ParameterID identifies a parameter of a ParameterList (RTPS 2.5 §9.4.2.11,
// §9.6.2.2). Bit 15 marks a vendor-specific id, to be interpreted according
// to the vendor id of the message; bit 14 marks an id the receiver must
// understand: a ParameterList holding such an id that the receiver does not
// recognize must be rejected as a whole (§9.6.2.2.1).
type ParameterID uint16

// Flag bits of a ParameterID (§9.6.2.2.1).
const (
	PIDVendorSpecificFlag ParameterID = 0x8000
	PIDMustUnderstandFlag ParameterID = 0x4000
)

// IsVendorSpecific reports whether id is in the vendor-specific range.
func (id ParameterID) IsVendorSpecific() bool { return id&PIDVendorSpecificFlag != 0 }

// MustUnderstand reports whether a receiver that does not recognize id must
// reject the ParameterList that holds it.
func (id ParameterID) MustUnderstand() bool { return id&PIDMustUnderstandFlag != 0 }

// Parameter ids of RTPS 2.5 Tables 9.13 (participant and endpoint discovery
// data), 9.14 (inline QoS) and 9.18, of DDS-XTypes 1.3 §7.6.3 and of
// DDS-Security 1.1 §7.4.1.
const (
	PIDPad      ParameterID = 0x0000 // PID_PAD: skipped by receivers
	PIDSentinel ParameterID = 0x0001 // PID_SENTINEL: ends the list, length ignored

	// QoS policies (RTPS 2.5 Table 9.12).
	PIDUserData          ParameterID = 0x002c
	PIDTopicName         ParameterID = 0x0005
	PIDTypeName          ParameterID = 0x0007
	PIDGroupData         ParameterID = 0x002d
	PIDTopicData         ParameterID = 0x002e
	PIDDurability        ParameterID = 0x001d
	PIDDurabilityService ParameterID = 0x001e
	PIDDeadline          ParameterID = 0x0023
	PIDLatencyBudget     ParameterID = 0x0027
	PIDLiveliness        ParameterID = 0x001b
	PIDReliability       ParameterID = 0x001a
	PIDLifespan          ParameterID = 0x002b
	PIDDestinationOrder  ParameterID = 0x0025
	PIDHistory           ParameterID = 0x0040
	PIDResourceLimits    ParameterID = 0x0041
	PIDOwnership         ParameterID = 0x001f
	PIDOwnershipStrength ParameterID = 0x0006
	PIDPresentation      ParameterID = 0x0021
	PIDPartition         ParameterID = 0x0029
	PIDTimeBasedFilter   ParameterID = 0x0004
	PIDTransportPriority ParameterID = 0x0049

	// Discovery data (RTPS 2.5 Table 9.13).
	PIDDomainID                         ParameterID = 0x000f
	PIDDomainTag                        ParameterID = 0x4014
	PIDProtocolVersion                  ParameterID = 0x0015
	PIDVendorID                         ParameterID = 0x0016
	PIDUnicastLocator                   ParameterID = 0x002f
	PIDMulticastLocator                 ParameterID = 0x0030
	PIDDefaultUnicastLocator            ParameterID = 0x0031
	PIDDefaultMulticastLocator          ParameterID = 0x0048
	PIDMetatrafficUnicastLocator        ParameterID = 0x0032
	PIDMetatrafficMulticastLocator      ParameterID = 0x0033
	PIDExpectsInlineQoS                 ParameterID = 0x0043
	PIDParticipantManualLivelinessCount ParameterID = 0x0034
	PIDParticipantLeaseDuration         ParameterID = 0x0002
	PIDContentFilterProperty            ParameterID = 0x0035
	PIDParticipantGUID                  ParameterID = 0x0050
	PIDGroupGUID                        ParameterID = 0x0052
	PIDGroupEntityID                    ParameterID = 0x0053
	PIDBuiltinEndpointSet               ParameterID = 0x0058
	PIDBuiltinEndpointQoS               ParameterID = 0x0077
	PIDPropertyList                     ParameterID = 0x0059
	PIDTypeMaxSizeSerialized            ParameterID = 0x0060
	PIDEntityName                       ParameterID = 0x0062
	PIDEndpointGUID                     ParameterID = 0x005a

	// Inline QoS only (RTPS 2.5 Table 9.14).
	PIDContentFilterInfo     ParameterID = 0x0055
	PIDCoherentSet           ParameterID = 0x0056
	PIDDirectedWrite         ParameterID = 0x0057
	PIDOriginalWriterInfo    ParameterID = 0x0061
	PIDGroupCoherentSet      ParameterID = 0x0063
	PIDGroupSeqNum           ParameterID = 0x0064
	PIDWriterGroupInfo       ParameterID = 0x0065
	PIDSecureWriterGroupInfo ParameterID = 0x0066
	PIDKeyHash               ParameterID = 0x0070
	PIDStatusInfo            ParameterID = 0x0071

	// DDS-XTypes 1.3 §7.6.3.1 and Table 34. TYPE_IDV1 and TYPE_OBJECTV1 are
	// the pre-1.2 forms Fast DDS still sends with -typeobject.
	PIDTypeIDV1                   ParameterID = 0x0069
	PIDTypeObjectV1               ParameterID = 0x0072
	PIDDataRepresentation         ParameterID = 0x0073
	PIDTypeConsistencyEnforcement ParameterID = 0x0074
	PIDTypeInformation            ParameterID = 0x0075

	// DDS-Security 1.1 Tables 10 to 14 (recognized, kept raw).
	PIDIdentityToken           ParameterID = 0x1001
	PIDPermissionsToken        ParameterID = 0x1002
	PIDDataTags                ParameterID = 0x1003
	PIDEndpointSecurityInfo    ParameterID = 0x1004
	PIDParticipantSecurityInfo ParameterID = 0x1005
	PIDIdentityStatusToken     ParameterID = 0x1006

	// DDS-RPC 1.0 §7.6.2 (recognized, kept raw except the sample identity).
	PIDServiceInstanceName   ParameterID = 0x0080
	PIDRelatedEntityGUID     ParameterID = 0x0081
	PIDTopicAliases          ParameterID = 0x0082
	PIDRelatedSampleIdentity ParameterID = 0x0083

	// Reserved ids of the XCDR1 parameter-list encoding (DDS-XTypes 1.3
	// §7.4.1.2.1), accepted in RTPS ParameterLists too: PID_EXTENDED carries a
	// 32-bit member id and length, PID_LIST_END ends a list like
	// PID_SENTINEL, PID_IGNORE is skipped like PID_PAD.
	PIDExtended ParameterID = 0x3f01
	PIDListEnd  ParameterID = 0x3f02
	PIDIgnore   ParameterID = 0x3f03
)

// Vendor-specific parameter ids of Cyclone DDS (vendor 01.10), read from its
// ddsi protocol header. They mean something else from another vendor.
const (
	PIDCycloneParticipantVersionInfo ParameterID = 0x8007 // ADLINK_PARTICIPANT_VERSION_INFO, in SPDP
	PIDCycloneEntityFactory          ParameterID = 0x800c // ADLINK_ENTITY_FACTORY (autoenable flag), in SEDP
	PIDCycloneTypeInformation        ParameterID = 0x801a // CYCLONE_TYPE_INFORMATION
	PIDCycloneReceiveBufferSize      ParameterID = 0x8019 // CYCLONE_RECEIVE_BUFFER_SIZE, in SPDP
	PIDCycloneTopicGUID              ParameterID = 0x801b // CYCLONE_TOPIC_GUID
	PIDCycloneRequestsKeyHash        ParameterID = 0x801c // CYCLONE_REQUESTS_KEYHASH
	PIDCycloneRedundantNetworking    ParameterID = 0x801d // CYCLONE_REDUNDANT_NETWORKING
)

// Vendor-specific parameter ids of Fast DDS (vendor 01.0f), read from its
// ParameterTypes.hpp.
const (
	PIDFastDDSPersistenceGUID             ParameterID = 0x8002
	PIDFastDDSDisablePositiveAcks         ParameterID = 0x8005
	PIDFastDDSDataSharing                 ParameterID = 0x8006
	PIDFastDDSNetworkConfigurationSet     ParameterID = 0x8007
	PIDFastDDSCustomRelatedSampleIdentity ParameterID = 0x800f // a SampleIdentity, in inline QoS
)

// pidNames names the standard ids.
var pidNames = map[ParameterID]string{
	PIDPad: "PAD", PIDSentinel: "SENTINEL",
	PIDUserData: "USER_DATA", PIDTopicName: "TOPIC_NAME", PIDTypeName: "TYPE_NAME",
	PIDGroupData: "GROUP_DATA", PIDTopicData: "TOPIC_DATA", PIDDurability: "DURABILITY",
	PIDDurabilityService: "DURABILITY_SERVICE", PIDDeadline: "DEADLINE",
	PIDLatencyBudget: "LATENCY_BUDGET", PIDLiveliness: "LIVELINESS", PIDReliability: "RELIABILITY",
	PIDLifespan: "LIFESPAN", PIDDestinationOrder: "DESTINATION_ORDER", PIDHistory: "HISTORY",
	PIDResourceLimits: "RESOURCE_LIMITS", PIDOwnership: "OWNERSHIP",
	PIDOwnershipStrength: "OWNERSHIP_STRENGTH", PIDPresentation: "PRESENTATION",
	PIDPartition: "PARTITION", PIDTimeBasedFilter: "TIME_BASED_FILTER",
	PIDTransportPriority: "TRANSPORT_PRIORITY",
	PIDDomainID:          "DOMAIN_ID", PIDDomainTag: "DOMAIN_TAG", PIDProtocolVersion: "PROTOCOL_VERSION",
	PIDVendorID: "VENDORID", PIDUnicastLocator: "UNICAST_LOCATOR",
	PIDMulticastLocator: "MULTICAST_LOCATOR", PIDDefaultUnicastLocator: "DEFAULT_UNICAST_LOCATOR",
	PIDDefaultMulticastLocator:          "DEFAULT_MULTICAST_LOCATOR",
	PIDMetatrafficUnicastLocator:        "METATRAFFIC_UNICAST_LOCATOR",
	PIDMetatrafficMulticastLocator:      "METATRAFFIC_MULTICAST_LOCATOR",
	PIDExpectsInlineQoS:                 "EXPECTS_INLINE_QOS",
	PIDParticipantManualLivelinessCount: "PARTICIPANT_MANUAL_LIVELINESS_COUNT",
	PIDParticipantLeaseDuration:         "PARTICIPANT_LEASE_DURATION",
	PIDContentFilterProperty:            "CONTENT_FILTER_PROPERTY",
	PIDParticipantGUID:                  "PARTICIPANT_GUID", PIDGroupGUID: "GROUP_GUID",
	PIDGroupEntityID: "GROUP_ENTITYID", PIDBuiltinEndpointSet: "BUILTIN_ENDPOINT_SET",
	PIDBuiltinEndpointQoS: "BUILTIN_ENDPOINT_QOS", PIDPropertyList: "PROPERTY_LIST",
	PIDTypeMaxSizeSerialized: "TYPE_MAX_SIZE_SERIALIZED", PIDEntityName: "ENTITY_NAME",
	PIDEndpointGUID: "ENDPOINT_GUID", PIDContentFilterInfo: "CONTENT_FILTER_INFO",
	PIDCoherentSet: "COHERENT_SET", PIDDirectedWrite: "DIRECTED_WRITE",
	PIDOriginalWriterInfo: "ORIGINAL_WRITER_INFO", PIDGroupCoherentSet: "GROUP_COHERENT_SET",
	PIDGroupSeqNum: "GROUP_SEQ_NUM", PIDWriterGroupInfo: "WRITER_GROUP_INFO",
	PIDSecureWriterGroupInfo: "SECURE_WRITER_GROUP_INFO", PIDKeyHash: "KEY_HASH",
	PIDStatusInfo: "STATUS_INFO", PIDTypeIDV1: "TYPE_IDV1", PIDTypeObjectV1: "TYPE_OBJECTV1",
	PIDDataRepresentation:         "DATA_REPRESENTATION",
	PIDTypeConsistencyEnforcement: "TYPE_CONSISTENCY_ENFORCEMENT",
	PIDTypeInformation:            "TYPE_INFORMATION",
	PIDIdentityToken:              "IDENTITY_TOKEN", PIDPermissionsToken: "PERMISSIONS_TOKEN",
	PIDDataTags: "DATA_TAGS", PIDEndpointSecurityInfo: "ENDPOINT_SECURITY_INFO",
	PIDParticipantSecurityInfo: "PARTICIPANT_SECURITY_INFO",
	PIDIdentityStatusToken:     "IDENTITY_STATUS_TOKEN",
	PIDServiceInstanceName:     "SERVICE_INSTANCE_NAME", PIDRelatedEntityGUID: "RELATED_ENTITY_GUID",
	PIDTopicAliases: "TOPIC_ALIASES", PIDRelatedSampleIdentity: "RELATED_SAMPLE_IDENTITY",
	PIDExtended: "EXTENDED", PIDListEnd: "LIST_END", PIDIgnore: "IGNORE",
}

var cyclonePIDNames = map[ParameterID]string{
	PIDCycloneParticipantVersionInfo: "CYCLONE_PARTICIPANT_VERSION_INFO",
	PIDCycloneEntityFactory:          "CYCLONE_ENTITY_FACTORY",
	PIDCycloneTypeInformation:        "CYCLONE_TYPE_INFORMATION",
	PIDCycloneReceiveBufferSize:      "CYCLONE_RECEIVE_BUFFER_SIZE",
	PIDCycloneTopicGUID:              "CYCLONE_TOPIC_GUID",
	PIDCycloneRequestsKeyHash:        "CYCLONE_REQUESTS_KEYHASH",
	PIDCycloneRedundantNetworking:    "CYCLONE_REDUNDANT_NETWORKING",
}

var fastDDSPIDNames = map[ParameterID]string{
	PIDFastDDSPersistenceGUID:             "FASTDDS_PERSISTENCE_GUID",
	PIDFastDDSDisablePositiveAcks:         "FASTDDS_DISABLE_POSITIVE_ACKS",
	PIDFastDDSDataSharing:                 "FASTDDS_DATASHARING",
	PIDFastDDSNetworkConfigurationSet:     "FASTDDS_NETWORK_CONFIGURATION_SET",
	PIDFastDDSCustomRelatedSampleIdentity: "FASTDDS_CUSTOM_RELATED_SAMPLE_IDENTITY",
}

// Name returns the specification name of id without the PID_ prefix, as
// interpreted in a message from vendor, and ok false for ids this package
// does not know (including every vendor-specific id of other vendors).
func (id ParameterID) Name(vendor VendorID) (name string, ok bool) {
	return lookupPID(id, vendor, pidNames, cyclonePIDNames, fastDDSPIDNames)
}

// lookupPID looks id up in the table for its meaning in a message from
// vendor: std for the standard ids, cyclone or fastDDS for the
// vendor-specific ids of those vendors (other vendors' are unknown).
func lookupPID[V any](id ParameterID, vendor VendorID, std, cyclone, fastDDS map[ParameterID]V) (V, bool) {
	var m map[ParameterID]V
	switch {
	case !id.IsVendorSpecific():
		m = std
	case vendor == VendorCyclone:
		m = cyclone
	case vendor == VendorFastDDS:
		m = fastDDS
	}
	v, ok := m[id]
	return v, ok
}

// Known reports whether this package recognizes id in a message from
// vendor. Vendor-specific ids are recognized only for the vendors that
// define them.
func (id ParameterID) Known(vendor VendorID) bool {
	_, ok := id.Name(vendor)
	return ok
}

// String returns the standard name of id, or its hex value for
// vendor-specific and unknown ids.
func (id ParameterID) String() string {
	if name, ok := id.Name(VendorUnknown); ok {
		return "PID_" + name
	}
	return "PID(0x" + strconv.FormatUint(uint64(id), 16) + ")"
}
