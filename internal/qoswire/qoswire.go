// Package qoswire is the discovery codec of the QoS policies (RTPS 2.5 §9.6.3.2): what
// SPDP and SEDP carry of a participant's, writer's, reader's or topic's QoS, one
// parameter per policy. The ParameterList around the values (headers, padding,
// sentinel) is the caller's.
//
// The encodings are rows of package qos's policy table, beside each policy's validity,
// RxO rule and defaults; qos registers them here when it is initialized. So the codec
// stays one table, and only the engine, inside this module, can reach it. The values
// passed as q are *qos.DomainParticipantQos (USER_DATA), *qos.Offered, *qos.Requested
// or *qos.TopicQos; any other is not encoded, and decodes nothing.
package qoswire

import (
	"strconv"

	"github.com/ddsgo/ddsgo/internal/errs"
)

// Limits bounds what Decode accepts from a peer; a zero field means no bound.
type Limits struct {
	// MaxCount bounds the element count of PARTITION and DATA_REPRESENTATION.
	MaxCount int
	// MaxStringLen bounds the length of a partition name.
	MaxStringLen int
	// MaxDataLen bounds USER_DATA, TOPIC_DATA and GROUP_DATA.
	MaxDataLen int
}

// LimitError is the error Decode returns for a value beyond its Limits: the policy's
// name, what is bounded ("string count", "length"), the size met and the bound. It
// unwraps to errs.ErrOutOfResources.
type LimitError struct {
	Policy   string
	What     string
	Got, Max int
}

func (e *LimitError) Error() string {
	return errs.ErrOutOfResources.Error() + ": " + e.Policy + ": " + e.What + " " +
		strconv.Itoa(e.Got) + " above the limit " + strconv.Itoa(e.Max)
}

// Unwrap returns errs.ErrOutOfResources.
func (e *LimitError) Unwrap() error { return errs.ErrOutOfResources }

// Codec is what package qos registers: the functions Append, Decode and PID call.
type Codec struct {
	Append func(q any, be bool, put func(pid uint16, value []byte))
	Decode func(q any, pid uint16, value []byte, be bool, lim Limits) (bool, error)
	PID    func(policy uint32) uint16
}

var codec Codec

// Register sets the codec; package qos calls it once, when it is initialized.
func Register(c Codec) { codec = c }

// Append calls put with the parameter id and value (in the byte order selected by be,
// without padding) of every policy of q that discovery sends: all that have a
// parameter id, but for PARTITION, DATA_REPRESENTATION and the octet sequences when
// empty (Cyclone DDS treats an empty representation list as absent). value is valid
// during the call only.
func Append(q any, be bool, put func(pid uint16, value []byte)) { codec.Append(q, be, put) }

// Decode decodes the parameter pid with value (in the byte order selected by be) into
// q when it is one of q's policies, and reports whether it was. A policy that q does
// not hold (a TIME_BASED_FILTER sent with a writer) is not decoded: false. The error
// is a *qos.PolicyError wrapping errs.ErrBadParameter for a malformed value or a
// *LimitError for one beyond lim; q is then unchanged.
func Decode(q any, pid uint16, value []byte, be bool, lim Limits) (bool, error) {
	return codec.Decode(q, pid, value, be, lim)
}

// PID returns the RTPS parameter id of the policy whose QosPolicyId_t is policy in
// discovery data (RTPS 2.5 Table 9.12, DDS-XTypes 1.3 Table 34), or 0 for the policies
// that are not sent there (ENTITY_FACTORY, WRITER_DATA_LIFECYCLE,
// READER_DATA_LIFECYCLE) and unknown ids.
func PID(policy uint32) uint16 { return codec.PID(policy) }
