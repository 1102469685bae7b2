package wire

import (
	"errors"
	"fmt"
)

// The preallocated errors of the parsers and writers, by what they read: returning one
// never allocates. Each wraps ErrTruncated or ErrInvalid (types.go).
var (
	// Parameter lists.
	errParamHeader     = fmt.Errorf("wire: ParameterList: partial parameter header: %w", ErrTruncated)
	errParamLength     = fmt.Errorf("wire: ParameterList: parameter longer than the list: %w", ErrTruncated)
	errParamExtended   = fmt.Errorf("wire: ParameterList: PID_EXTENDED with length other than 8: %w", ErrInvalid)
	errParamTooLong    = fmt.Errorf("wire: ParameterList: value longer than 65532 octets: %w", ErrInvalid)
	errParamReserved   = fmt.Errorf("wire: ParameterList: PAD, SENTINEL or reserved id written as a parameter: %w", ErrInvalid)
	errParamAfterClose = errors.New("wire: ParameterList: parameter written after Finish")

	// Parameter values.
	errShortUint32     = fmt.Errorf("wire: 32-bit parameter value: %w", ErrTruncated)
	errShortBool       = fmt.Errorf("wire: boolean parameter value: %w", ErrTruncated)
	errShortString     = fmt.Errorf("wire: string: %w", ErrTruncated)
	errStringNUL       = fmt.Errorf("wire: string: missing terminating NUL: %w", ErrInvalid)
	errShortSeq        = fmt.Errorf("wire: sequence: %w", ErrTruncated)
	errShortKeyHash    = fmt.Errorf("wire: KEY_HASH: %w", ErrTruncated)
	errShortStatusInfo = fmt.Errorf("wire: STATUS_INFO: %w", ErrTruncated)
	errShortOWI        = fmt.Errorf("wire: ORIGINAL_WRITER_INFO: %w", ErrTruncated)
	errShortSampleID   = fmt.Errorf("wire: SampleIdentity: %w", ErrTruncated)
	errShortFilterInfo = fmt.Errorf("wire: CONTENT_FILTER_INFO: %w", ErrTruncated)

	// Messages and submessage headers.
	errShortSubHeader = fmt.Errorf("wire: submessage header: %w", ErrTruncated)
	errSubLength      = fmt.Errorf("wire: submessage octetsToNextHeader beyond end of message: %w", ErrTruncated)
	errWrongKind      = fmt.Errorf("wire: submessage of another kind: %w", ErrInvalid)

	// DATA and DATA_FRAG.
	errShortData        = fmt.Errorf("wire: DATA: %w", ErrTruncated)
	errDataKeyAndData   = fmt.Errorf("wire: DATA: both D and K flags set: %w", ErrInvalid)
	errDataOctetsToQoS  = fmt.Errorf("wire: DATA: octetsToInlineQos not a multiple of 4 or below 16: %w", ErrInvalid)
	errDataSN           = fmt.Errorf("wire: DATA: writerSN < 1: %w", ErrInvalid)
	errDataPayload      = fmt.Errorf("wire: DATA: serialized payload shorter than its 4-byte header: %w", ErrTruncated)
	errShortDataFrag    = fmt.Errorf("wire: DATA_FRAG: %w", ErrTruncated)
	errFragOctetsToQoS  = fmt.Errorf("wire: DATA_FRAG: octetsToInlineQos not a multiple of 4 or below 28: %w", ErrInvalid)
	errFragSN           = fmt.Errorf("wire: DATA_FRAG: writerSN < 1: %w", ErrInvalid)
	errFragZero         = fmt.Errorf("wire: DATA_FRAG: zero fragmentStartingNum, fragmentsInSubmessage or fragmentSize: %w", ErrInvalid)
	errFragBeyondSample = fmt.Errorf("wire: DATA_FRAG: fragments beyond sampleSize: %w", ErrInvalid)
	errFragPayload      = fmt.Errorf("wire: DATA_FRAG: payload shorter than its fragments: %w", ErrTruncated)
	errShortInlineQoS   = fmt.Errorf("wire: inline QoS: ParameterList without sentinel: %w", ErrTruncated)

	// INFO_DST, INFO_SRC, INFO_TS, INFO_REPLY.
	errShortInfoDst      = fmt.Errorf("wire: INFO_DST: %w", ErrTruncated)
	errShortInfoSrc      = fmt.Errorf("wire: INFO_SRC: %w", ErrTruncated)
	errShortInfoTS       = fmt.Errorf("wire: INFO_TS: %w", ErrTruncated)
	errShortInfoReply    = fmt.Errorf("wire: INFO_REPLY: %w", ErrTruncated)
	errShortInfoReplyIP4 = fmt.Errorf("wire: INFO_REPLY_IP4: %w", ErrTruncated)

	// HEARTBEAT, ACKNACK, GAP, NACK_FRAG, HEARTBEAT_FRAG.
	errShortAckNack       = fmt.Errorf("wire: ACKNACK: %w", ErrTruncated)
	errAckNackBase        = fmt.Errorf("wire: ACKNACK: readerSNState base < 1: %w", ErrInvalid)
	errShortNackFrag      = fmt.Errorf("wire: NACK_FRAG: %w", ErrTruncated)
	errNackFragSN         = fmt.Errorf("wire: NACK_FRAG: writerSN < 1: %w", ErrInvalid)
	errNackFragBase       = fmt.Errorf("wire: NACK_FRAG: fragmentNumberState base < 1: %w", ErrInvalid)
	errShortHeartbeat     = fmt.Errorf("wire: HEARTBEAT: %w", ErrTruncated)
	errHeartbeatSN        = fmt.Errorf("wire: HEARTBEAT: firstSN < 1 or lastSN < firstSN-1: %w", ErrInvalid)
	errShortHeartbeatFrag = fmt.Errorf("wire: HEARTBEAT_FRAG: %w", ErrTruncated)
	errHeartbeatFragSN    = fmt.Errorf("wire: HEARTBEAT_FRAG: writerSN < 1 or lastFragmentNum < 1: %w", ErrInvalid)
	errShortGap           = fmt.Errorf("wire: GAP: %w", ErrTruncated)
	errGapSN              = fmt.Errorf("wire: GAP: gapStart < 1 or gapList base < 1: %w", ErrInvalid)

	// Element types.
	errShortGuidPrefix = fmt.Errorf("wire: GuidPrefix: %w", ErrTruncated)
	errShortEntityID   = fmt.Errorf("wire: EntityId: %w", ErrTruncated)
	errShortGUID       = fmt.Errorf("wire: GUID: %w", ErrTruncated)
	errShortLocator    = fmt.Errorf("wire: Locator: %w", ErrTruncated)
	errShortSN         = fmt.Errorf("wire: SequenceNumber: %w", ErrTruncated)
	errShortSNSet      = fmt.Errorf("wire: SequenceNumberSet: %w", ErrTruncated)
	errSNSetBits       = fmt.Errorf("wire: SequenceNumberSet: numBits > 256: %w", ErrInvalid)
	errShortFNSet      = fmt.Errorf("wire: FragmentNumberSet: %w", ErrTruncated)
	errFNSetBits       = fmt.Errorf("wire: FragmentNumberSet: numBits > 256: %w", ErrInvalid)
	errShortFN         = fmt.Errorf("wire: FragmentNumber: %w", ErrTruncated)
	errShortTime       = fmt.Errorf("wire: Time: %w", ErrTruncated)
	errShortDuration   = fmt.Errorf("wire: Duration: %w", ErrTruncated)
	errShortVersion    = fmt.Errorf("wire: ProtocolVersion: %w", ErrTruncated)
	errShortVendor     = fmt.Errorf("wire: VendorId: %w", ErrTruncated)
	errShortCount      = fmt.Errorf("wire: Count: %w", ErrTruncated)
)
