package qos

import "github.com/ddsgo/ddsgo/internal/qoswire"

// The discovery codec of the policies (RTPS 2.5 §9.6.3.2), each value encoded and
// decoded by its row of the policy table, is registered with internal/qoswire: only the
// engine uses it.
func init() {
	qoswire.Register(qoswire.Codec{
		Append: func(q any, be bool, put func(uint16, []byte)) {
			switch q := q.(type) {
			case *DomainParticipantQos:
				appendAnnounced(q, be, put)
			case *Offered:
				appendAnnounced(q, be, put)
			case *Requested:
				appendAnnounced(q, be, put)
			case *TopicQos:
				appendAnnounced(q, be, put)
			}
		},
		Decode: func(q any, pid uint16, value []byte, be bool, lim qoswire.Limits) (bool, error) {
			switch q := q.(type) {
			case *DomainParticipantQos:
				return decodeAnnounced(q, pid, value, be, lim)
			case *Offered:
				return decodeAnnounced(q, pid, value, be, lim)
			case *Requested:
				return decodeAnnounced(q, pid, value, be, lim)
			case *TopicQos:
				return decodeAnnounced(q, pid, value, be, lim)
			}
			return false, nil
		},
		PID: func(id uint32) uint16 { return PolicyID(id).pid() },
	})
}

// announced is the QoS discovery announces of an entity: a participant's
// (*DomainParticipantQos: USER_DATA), a writer's (*Offered), a reader's (*Requested) or
// a topic's (*TopicQos).
type announced interface {
	*DomainParticipantQos | *Offered | *Requested | *TopicQos
}

// appendAnnounced is qoswire.Append for q.
func appendAnnounced[Q announced](q Q, be bool, put func(pid uint16, value []byte)) {
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

// decodeAnnounced is qoswire.Decode for q.
func decodeAnnounced[Q announced](q Q, pid uint16, value []byte, be bool, lim qoswire.Limits) (bool, error) {
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

func decodePolicy[Q any](s *policySet[Q], q *Q, pid uint16, value []byte, be bool, lim qoswire.Limits) (bool, error) {
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
