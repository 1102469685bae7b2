package wire

import "fmt"

// paramCodec decodes a parameter value with the typed parser of its id and
// writes the decoded value back through w, so that tests can compare the
// result with the original parameter. It returns the decoded value.
type paramCodec func(w *ParamWriter, id ParameterID, v []byte, be bool) (any, error)

// codec builds a paramCodec from a parser and a writer method.
func codec[T any](parse func([]byte, bool) (T, int, error), put func(w *ParamWriter, id ParameterID, x T)) paramCodec {
	return func(w *ParamWriter, id ParameterID, v []byte, be bool) (any, error) {
		x, n, err := parse(v, be)
		if err != nil {
			return nil, err
		}
		if n > len(v) {
			return nil, fmt.Errorf("parser consumed %d of %d octets", n, len(v))
		}
		put(w, id, x)
		return x, nil
	}
}

// noOrder adapts an endianness-independent parser.
func noOrder[T any](parse func([]byte) (T, int, error)) func([]byte, bool) (T, int, error) {
	return func(b []byte, _ bool) (T, int, error) { return parse(b) }
}

func putValue[T ParamValue](w *ParamWriter, _ ParameterID, x T) { w.Put(x) }

func putAs[T ValueAppender](w *ParamWriter, id ParameterID, x T) { w.PutAs(id, x) }

func rawValue(b []byte, _ bool) ([]byte, int, error) { return b, len(b), nil }

var (
	guidCodec     = codec(noOrder(ParseGUID), (*ParamWriter).PutGUID)
	u32Codec      = codec(ParseUint32, (*ParamWriter).PutUint32)
	stringCodec   = codec(ParseString, (*ParamWriter).PutString)
	locatorCodec  = codec(ParseLocator, (*ParamWriter).PutLocator)
	octetsCodec   = codec(ParseOctetSeq, (*ParamWriter).PutOctets)
	snCodec       = codec(ParseSequenceNumber, (*ParamWriter).PutSequenceNumber)
	rawCodec      = codec(rawValue, (*ParamWriter).PutRaw)
	boolCodec     = codec(noOrder(ParseBool), (*ParamWriter).PutBool)
	sampleIDCodec = codec(ParseSampleIdentity, putAs[SampleIdentity])
)

// stdCodecs covers every standard id this package decodes.
var stdCodecs = map[ParameterID]paramCodec{
	PIDParticipantGUID:   guidCodec,
	PIDEndpointGUID:      guidCodec,
	PIDGroupGUID:         guidCodec,
	PIDDirectedWrite:     guidCodec,
	PIDRelatedEntityGUID: guidCodec,
	PIDGroupEntityID:     codec(noOrder(ParseEntityID), (*ParamWriter).PutEntityID),
	PIDProtocolVersion: codec(noOrder(ParseProtocolVersion), func(w *ParamWriter, _ ParameterID, v ProtocolVersion) {
		w.PutProtocolVersion(v)
	}),
	PIDVendorID: codec(noOrder(ParseVendorID), func(w *ParamWriter, _ ParameterID, v VendorID) { w.PutVendorID(v) }),

	PIDDomainID:                         u32Codec,
	PIDBuiltinEndpointSet:               u32Codec,
	PIDBuiltinEndpointQoS:               u32Codec,
	PIDTypeMaxSizeSerialized:            u32Codec,
	PIDParticipantManualLivelinessCount: u32Codec,

	PIDDomainTag:  stringCodec,
	PIDTopicName:  stringCodec,
	PIDTypeName:   stringCodec,
	PIDEntityName: stringCodec,

	PIDParticipantLeaseDuration: codec(ParseDuration, (*ParamWriter).PutDuration),

	PIDUnicastLocator:              locatorCodec,
	PIDMulticastLocator:            locatorCodec,
	PIDDefaultUnicastLocator:       locatorCodec,
	PIDDefaultMulticastLocator:     locatorCodec,
	PIDMetatrafficUnicastLocator:   locatorCodec,
	PIDMetatrafficMulticastLocator: locatorCodec,

	PIDExpectsInlineQoS: boolCodec,
	PIDPropertyList:     codec(ParsePropertyList, putValue[PropertyList]),
	PIDUserData:         octetsCodec,
	PIDTopicData:        octetsCodec,
	PIDGroupData:        octetsCodec,

	// The QoS policies are the qos package's: see qos_test.go.

	PIDTypeInformation: rawCodec,
	PIDTypeIDV1:        rawCodec,
	PIDTypeObjectV1:    rawCodec,

	PIDKeyHash:    codec(noOrder(ParseKeyHash), func(w *ParamWriter, _ ParameterID, h KeyHash) { w.PutKeyHash(h) }),
	PIDStatusInfo: codec(noOrder(ParseStatusInfo), func(w *ParamWriter, _ ParameterID, s StatusInfo) { w.PutStatusInfo(s) }),

	PIDContentFilterProperty: codec(ParseContentFilterProperty, putValue[ContentFilterProperty]),
	PIDContentFilterInfo:     codec(ParseContentFilterInfo, putValue[ContentFilterInfo]),
	PIDCoherentSet:           snCodec,
	PIDGroupCoherentSet:      snCodec,
	PIDGroupSeqNum:           snCodec,
	PIDOriginalWriterInfo:    codec(ParseOriginalWriterInfo, putValue[OriginalWriterInfo]),
	PIDRelatedSampleIdentity: sampleIDCodec,
}

var cycloneCodecs = map[ParameterID]paramCodec{
	PIDCycloneParticipantVersionInfo: codec(ParseCycloneParticipantVersionInfo, putAs[CycloneParticipantVersionInfo]),
	PIDCycloneEntityFactory:          u32Codec,
	PIDCycloneReceiveBufferSize:      u32Codec,
	PIDCycloneTopicGUID:              guidCodec,
	PIDCycloneTypeInformation:        rawCodec,
}

var fastDDSCodecs = map[ParameterID]paramCodec{
	PIDFastDDSPersistenceGUID:             guidCodec,
	PIDFastDDSCustomRelatedSampleIdentity: sampleIDCodec,
}

// codecFor returns the codec of id in a message from vendor.
func codecFor(id ParameterID, vendor VendorID) (paramCodec, bool) {
	return lookupPID(id, vendor, stdCodecs, cycloneCodecs, fastDDSCodecs)
}
