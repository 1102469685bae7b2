package qos

import (
	"strconv"

	"github.com/ddsgo/ddsgo/internal/errs"
)

// The discovery codec of the policies (RTPS 2.5 §9.6.3.2): what SPDP and SEDP carry of a
// writer's, reader's or topic's QoS, one parameter per policy, each value encoded and
// decoded by its row of the policy table. The ParameterList around the values (headers,
// padding, sentinel) is the caller's. Most programs need none of this.

// WireLimits bounds what DecodePolicy accepts from a peer; a zero field means no bound.
type WireLimits struct {
	// MaxCount bounds the element count of PARTITION and DATA_REPRESENTATION.
	MaxCount int
	// MaxStringLen bounds the length of a partition name.
	MaxStringLen int
	// MaxDataLen bounds USER_DATA, TOPIC_DATA and GROUP_DATA.
	MaxDataLen int
}

// LimitError is the error DecodePolicy returns for a value beyond its WireLimits: the
// policy, what is bounded ("string count", "length"), the size met and the bound. It
// unwraps to dds.ErrOutOfResources.
type LimitError struct {
	Policy   PolicyID
	What     string
	Got, Max int
}

func (e *LimitError) Error() string {
	return errs.ErrOutOfResources.Error() + ": " + e.Policy.String() + ": " + e.What + " " +
		strconv.Itoa(e.Got) + " above the limit " + strconv.Itoa(e.Max)
}

// Unwrap returns errs.ErrOutOfResources.
func (e *LimitError) Unwrap() error { return errs.ErrOutOfResources }

// Announced is the QoS discovery announces of an entity: a participant's
// (*DomainParticipantQos: USER_DATA), a writer's (*Offered), a reader's (*Requested) or
// a topic's (*TopicQos).
type Announced interface {
	*DomainParticipantQos | *Offered | *Requested | *TopicQos
}

// AppendPolicies calls put with the parameter id and value (in the byte order selected
// by be, without padding) of every policy of q that discovery sends: all that have a
// parameter id, but for PARTITION, DATA_REPRESENTATION and the octet sequences when
// empty (Cyclone DDS treats an empty representation list as absent). value is valid
// during the call only.
func AppendPolicies[Q Announced](q Q, be bool, put func(pid uint16, value []byte)) {
	switch q := any(q).(type) {
	case *DomainParticipantQos:
		appendPolicies(participantPolicies, q, be, put)
	case *Offered:
		appendPolicies(offeredPolicies, q, be, put)
	case *Requested:
		appendPolicies(requestedPolicies, q, be, put)
	case *TopicQos:
		appendPolicies(topicPolicies, q, be, put)
	}
}

func appendPolicies[Q any](s *policySet[Q], q *Q, be bool, put func(uint16, []byte)) {
	e := encoder{be: be}
	for _, f := range s.fields {
		v := f.at(q)
		if f.p.pid == 0 || f.p.ops.omit(v) {
			continue
		}
		e.b = e.b[:0]
		f.p.ops.encode(&e, v)
		put(f.p.pid, e.b)
	}
}

// DecodePolicy decodes the parameter pid with value (in the byte order selected by be)
// into q when it is one of q's policies, and reports whether it was. A policy that q
// does not hold (a TIME_BASED_FILTER sent with a writer) is not decoded: false. The
// error is a *PolicyError wrapping dds.ErrBadParameter for a malformed value or a
// *LimitError for one beyond lim; q is then unchanged.
func DecodePolicy[Q Announced](q Q, pid uint16, value []byte, be bool, lim WireLimits) (bool, error) {
	switch q := any(q).(type) {
	case *DomainParticipantQos:
		return decodePolicy(participantPolicies, q, pid, value, be, lim)
	case *Offered:
		return decodePolicy(offeredPolicies, q, pid, value, be, lim)
	case *Requested:
		return decodePolicy(requestedPolicies, q, pid, value, be, lim)
	case *TopicQos:
		return decodePolicy(topicPolicies, q, pid, value, be, lim)
	}
	return false, nil
}

func decodePolicy[Q any](s *policySet[Q], q *Q, pid uint16, value []byte, be bool, lim WireLimits) (bool, error) {
	id, ok := byPID(pid)
	if !ok || s.byID[id] == nil {
		return false, nil
	}
	d := decoder{b: value, be: be, id: id, lim: lim}
	policies[id].ops.decode(&d, s.byID[id](q))
	return true, d.err
}

// byPID returns the policy with parameter id pid. (A loop over the table rather than a
// map built at initialization, which could run before the rows are declared.)
func byPID(pid uint16) (PolicyID, bool) {
	for i := range policies {
		if pid != 0 && policies[i].pid == pid {
			return policies[i].id, true
		}
	}
	return InvalidPolicyID, false
}
