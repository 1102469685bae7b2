package listener

import (
	"encoding/hex"
	"math/bits"
	"strconv"
	"strings"

	"github.com/ddsgo/ddsgo/qos"
)

// StatusKind is one communication status of DDS 1.4 §2.2.4.1, a single bit with the
// value of the spec's StatusKind constant.
type StatusKind uint32

// The status kinds. Bits 3 and 4 are not used by DDS 1.4.
const (
	InconsistentTopic        StatusKind = 1 << 0
	OfferedDeadlineMissed    StatusKind = 1 << 1
	RequestedDeadlineMissed  StatusKind = 1 << 2
	OfferedIncompatibleQos   StatusKind = 1 << 5
	RequestedIncompatibleQos StatusKind = 1 << 6
	SampleLost               StatusKind = 1 << 7
	SampleRejected           StatusKind = 1 << 8
	DataOnReaders            StatusKind = 1 << 9
	DataAvailable            StatusKind = 1 << 10
	LivelinessLost           StatusKind = 1 << 11
	LivelinessChanged        StatusKind = 1 << 12
	PublicationMatched       StatusKind = 1 << 13
	SubscriptionMatched      StatusKind = 1 << 14
)

var statusNames = [...]string{
	0:  "INCONSISTENT_TOPIC",
	1:  "OFFERED_DEADLINE_MISSED",
	2:  "REQUESTED_DEADLINE_MISSED",
	5:  "OFFERED_INCOMPATIBLE_QOS",
	6:  "REQUESTED_INCOMPATIBLE_QOS",
	7:  "SAMPLE_LOST",
	8:  "SAMPLE_REJECTED",
	9:  "DATA_ON_READERS",
	10: "DATA_AVAILABLE",
	11: "LIVELINESS_LOST",
	12: "LIVELINESS_CHANGED",
	13: "PUBLICATION_MATCHED",
	14: "SUBSCRIPTION_MATCHED",
}

// String returns the spec name, e.g. "DATA_AVAILABLE", or the mask notation for a value
// that is not a single known kind.
func (k StatusKind) String() string {
	if bits.OnesCount32(uint32(k)) == 1 {
		if i := bits.TrailingZeros32(uint32(k)); i < len(statusNames) && statusNames[i] != "" {
			return statusNames[i]
		}
	}
	return StatusMask(k).String()
}

// StatusMask is a set of status kinds (StatusMask of DDS 1.4 §2.2.4.2): it selects the
// statuses a listener handles and a StatusCondition watches. Build one by converting
// kinds: StatusMask(DataAvailable | SubscriptionMatched); add and remove kinds with
// | and &^ (m &^ StatusMask(DataAvailable)).
type StatusMask uint32

// The empty and the full masks.
const (
	MaskNone StatusMask = 0
	MaskAll  StatusMask = StatusMask(InconsistentTopic | OfferedDeadlineMissed | RequestedDeadlineMissed |
		OfferedIncompatibleQos | RequestedIncompatibleQos | SampleLost | SampleRejected |
		DataOnReaders | DataAvailable | LivelinessLost | LivelinessChanged |
		PublicationMatched | SubscriptionMatched)
)

// Has reports whether the mask contains every bit of k.
func (m StatusMask) Has(k StatusKind) bool { return StatusKind(m)&k == k && k != 0 }

// String returns the kinds joined by '|' in bit order, e.g.
// "DATA_AVAILABLE|SUBSCRIPTION_MATCHED", "NONE" for the empty mask, and unknown bits in
// hexadecimal.
func (m StatusMask) String() string {
	if m == 0 {
		return "NONE"
	}
	var b strings.Builder
	unknown := uint32(m) &^ uint32(MaskAll)
	for rest := uint32(m) & uint32(MaskAll); rest != 0; rest &= rest - 1 {
		if b.Len() > 0 {
			b.WriteByte('|')
		}
		b.WriteString(statusNames[bits.TrailingZeros32(rest)])
	}
	if unknown != 0 {
		if b.Len() > 0 {
			b.WriteByte('|')
		}
		b.WriteString("0x")
		b.WriteString(strconv.FormatUint(uint64(unknown), 16))
	}
	return b.String()
}

// InstanceHandle identifies an entity or an instance locally (InstanceHandle_t of DDS
// 1.4 §2.3.3). The handle of an entity, local or discovered, is its 16-byte RTPS GUID
// (its 16 bytes), so that the handles in statuses and sample infos are those of the
// built-in topics; the handle of an instance is derived from its key hash. The zero
// value is HandleNil.
type InstanceHandle [16]byte

// HandleNil is HANDLE_NIL, no entity or instance.
var HandleNil InstanceHandle

// IsNil reports whether h is HandleNil.
func (h InstanceHandle) IsNil() bool { return h == HandleNil }

// String returns the handle as 32 hexadecimal digits.
func (h InstanceHandle) String() string { return hex.EncodeToString(h[:]) }

// The status structures of DDS 1.4 §2.2.4.1. The *Change fields count the changes since
// the status was last read, by a get_*_status call or a listener invocation; the
// Counter types below keep them.

// InconsistentTopicStatus counts the remote topics with the same name and another type
// or inconsistent QoS.
type InconsistentTopicStatus struct {
	TotalCount       int32
	TotalCountChange int32
}

// SampleLostStatus counts the samples lost before reaching the reader's cache.
type SampleLostStatus struct {
	TotalCount       int32
	TotalCountChange int32
}

// SampleRejectedStatusKind is the reason a sample was rejected.
type SampleRejectedStatusKind int32

// The rejection reasons.
const (
	NotRejected SampleRejectedStatusKind = iota
	RejectedByInstancesLimit
	RejectedBySamplesLimit
	RejectedBySamplesPerInstanceLimit
)

// String returns the spec name, e.g. "REJECTED_BY_SAMPLES_LIMIT".
func (k SampleRejectedStatusKind) String() string {
	switch k {
	case NotRejected:
		return "NOT_REJECTED"
	case RejectedByInstancesLimit:
		return "REJECTED_BY_INSTANCES_LIMIT"
	case RejectedBySamplesLimit:
		return "REJECTED_BY_SAMPLES_LIMIT"
	case RejectedBySamplesPerInstanceLimit:
		return "REJECTED_BY_SAMPLES_PER_INSTANCE_LIMIT"
	}
	return "SampleRejectedStatusKind(" + strconv.Itoa(int(k)) + ")"
}

// SampleRejectedStatus counts the samples the reader rejected for lack of resources.
type SampleRejectedStatus struct {
	TotalCount         int32
	TotalCountChange   int32
	LastReason         SampleRejectedStatusKind
	LastInstanceHandle InstanceHandle
}

// LivelinessLostStatus counts the times a writer failed to assert its liveliness in
// time.
type LivelinessLostStatus struct {
	TotalCount       int32
	TotalCountChange int32
}

// LivelinessChangedStatus counts the matched writers that are alive and not alive.
type LivelinessChangedStatus struct {
	AliveCount            int32
	NotAliveCount         int32
	AliveCountChange      int32
	NotAliveCountChange   int32
	LastPublicationHandle InstanceHandle
}

// OfferedDeadlineMissedStatus counts the deadlines a writer missed.
type OfferedDeadlineMissedStatus struct {
	TotalCount         int32
	TotalCountChange   int32
	LastInstanceHandle InstanceHandle
}

// RequestedDeadlineMissedStatus counts the deadlines a reader saw missed.
type RequestedDeadlineMissedStatus struct {
	TotalCount         int32
	TotalCountChange   int32
	LastInstanceHandle InstanceHandle
}

// QosPolicyCount counts the incompatibilities found for one policy.
type QosPolicyCount struct {
	PolicyID qos.PolicyID
	Count    int32
}

// OfferedIncompatibleQosStatus counts the readers a writer found with incompatible
// requested QoS.
type OfferedIncompatibleQosStatus struct {
	TotalCount       int32
	TotalCountChange int32
	LastPolicyID     qos.PolicyID
	Policies         []QosPolicyCount
}

// RequestedIncompatibleQosStatus counts the writers a reader found with incompatible
// offered QoS.
type RequestedIncompatibleQosStatus struct {
	TotalCount       int32
	TotalCountChange int32
	LastPolicyID     qos.PolicyID
	Policies         []QosPolicyCount
}

// PublicationMatchedStatus counts the readers matched with a writer.
type PublicationMatchedStatus struct {
	TotalCount             int32
	TotalCountChange       int32
	CurrentCount           int32
	CurrentCountChange     int32
	LastSubscriptionHandle InstanceHandle
}

// SubscriptionMatchedStatus counts the writers matched with a reader.
type SubscriptionMatchedStatus struct {
	TotalCount            int32
	TotalCountChange      int32
	CurrentCount          int32
	CurrentCountChange    int32
	LastPublicationHandle InstanceHandle
}
