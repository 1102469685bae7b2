package qos

import (
	"fmt"
	"strconv"
)

// PolicyID identifies a QoS policy, with the values of the QosPolicyId_t constants of
// DDS 1.4 §2.3.3 (IDL) and DDS-XTypes 1.3 §7.6.3 (DATA_REPRESENTATION and
// TYPE_CONSISTENCY_ENFORCEMENT). It is what the incompatible-QoS statuses count.
type PolicyID int32

// The policy ids.
const (
	InvalidPolicyID                    PolicyID = 0
	UserDataPolicyID                   PolicyID = 1
	DurabilityPolicyID                 PolicyID = 2
	PresentationPolicyID               PolicyID = 3
	DeadlinePolicyID                   PolicyID = 4
	LatencyBudgetPolicyID              PolicyID = 5
	OwnershipPolicyID                  PolicyID = 6
	OwnershipStrengthPolicyID          PolicyID = 7
	LivelinessPolicyID                 PolicyID = 8
	TimeBasedFilterPolicyID            PolicyID = 9
	PartitionPolicyID                  PolicyID = 10
	ReliabilityPolicyID                PolicyID = 11
	DestinationOrderPolicyID           PolicyID = 12
	HistoryPolicyID                    PolicyID = 13
	ResourceLimitsPolicyID             PolicyID = 14
	EntityFactoryPolicyID              PolicyID = 15
	WriterDataLifecyclePolicyID        PolicyID = 16
	ReaderDataLifecyclePolicyID        PolicyID = 17
	TopicDataPolicyID                  PolicyID = 18
	GroupDataPolicyID                  PolicyID = 19
	TransportPriorityPolicyID          PolicyID = 20
	LifespanPolicyID                   PolicyID = 21
	DurabilityServicePolicyID          PolicyID = 22
	DataRepresentationPolicyID         PolicyID = 23
	TypeConsistencyEnforcementPolicyID PolicyID = 24

	// NumPolicyIDs is one more than the largest policy id, for arrays indexed by PolicyID.
	NumPolicyIDs = 25
)

// policy is the one declaration of a QoS policy: a row of the policy tables of DDS 1.4
// §2.2.3 and DDS-XTypes 1.3 §7.6.3 (the *_QOS_POLICY_NAME string, "RxO", "Changeable")
// with the parameter id of RTPS 2.5 Table 9.12 and the functions every other rule of
// the module goes through: wire encoding, validity, RxO comparison, equality, cloning.
// The rows are declared in table.go, each once.
type policy struct {
	id         PolicyID
	name       string
	pid        uint16 // 0: not sent in discovery
	rxo        bool
	changeable bool
	ops        policyOps
}

// policyOps are a row's functions on a policy value, given as a pointer (*Durability,
// ...) in an any; def[P] implements them for policy type P.
type policyOps interface {
	encode(e *encoder, p any)
	decode(d *decoder, p any)
	validate(p any) error
	compatible(offered, requested any) bool
	equal(a, b any) bool
	omit(p any) bool
	assign(dst, src any)
	format(p any) string
}

// policies is the table, indexed by PolicyID; declare fills it.
var policies [NumPolicyIDs]policy

func (id PolicyID) known() bool { return id > InvalidPolicyID && id < NumPolicyIDs }

// String returns the policy name of the spec's *_QOS_POLICY_NAME constant, e.g.
// "Reliability", or "PolicyID(n)" for an unknown id.
func (id PolicyID) String() string {
	switch {
	case id == InvalidPolicyID:
		return "Invalid"
	case id.known():
		return policies[id].name
	}
	return "PolicyID(" + strconv.Itoa(int(id)) + ")"
}

// isRxO reports whether the policy takes part in the requested/offered matching of
// writers and readers (the "RxO" column of DDS 1.4 §2.2.3: YES).
func (id PolicyID) isRxO() bool { return id.known() && policies[id].rxo }

// changeable reports whether the policy may be changed on an enabled entity (the
// "Changeable" column of DDS 1.4 §2.2.3).
func (id PolicyID) changeable() bool { return id.known() && policies[id].changeable }

// pid returns the RTPS parameter id of the policy in discovery data (RTPS 2.5 Table
// 9.12, DDS-XTypes 1.3 Table 34), or 0 for the policies that are not sent there
// (ENTITY_FACTORY, WRITER_DATA_LIFECYCLE, READER_DATA_LIFECYCLE) and unknown ids.
func (id PolicyID) pid() uint16 {
	if !id.known() {
		return 0
	}
	return policies[id].pid
}

// def holds the functions of one policy type P; a nil optional one means: every value is
// valid (check), always compatible (compat), always sent (skip), no slices to copy
// (clone), fmt's %+v (show).
type def[P any] struct {
	enc    func(e *encoder, p *P)
	dec    func(d *decoder, p *P)
	eq     func(a, b *P) bool
	check  func(p *P) error                 // validity
	compat func(offered, requested *P) bool // RxO
	skip   func(p *P) bool                  // not sent (empty)
	clone  func(p *P)                       // unshare slices
	show   func(p *P) string
}

// declare adds a row to the table and returns its typed handle, which entity QoS
// structs bind to their fields (see has).
func declare[P any](id PolicyID, name string, pid uint16, rxo, changeable bool, d def[P]) decl[P] {
	policies[id] = policy{id: id, name: name, pid: pid, rxo: rxo, changeable: changeable, ops: d}
	return decl[P]{&policies[id]}
}

// decl is the handle of a declared policy of type P.
type decl[P any] struct{ p *policy }

func (d def[P]) encode(e *encoder, p any) { d.enc(e, p.(*P)) }

func (d def[P]) decode(dec *decoder, p any) {
	var v P
	d.dec(dec, &v)
	if dec.err == nil {
		*p.(*P) = v
	}
}

func (d def[P]) validate(p any) error {
	if d.check == nil {
		return nil
	}
	return d.check(p.(*P))
}

func (d def[P]) compatible(o, r any) bool {
	return d.compat == nil || d.compat(o.(*P), r.(*P))
}

func (d def[P]) equal(a, b any) bool { return d.eq(a.(*P), b.(*P)) }

func (d def[P]) omit(p any) bool { return d.skip != nil && d.skip(p.(*P)) }

func (d def[P]) assign(dst, src any) {
	v := dst.(*P)
	*v = *src.(*P)
	if d.clone != nil {
		d.clone(v)
	}
}

func (d def[P]) format(p any) string {
	if d.show != nil {
		return d.show(p.(*P))
	}
	return fmt.Sprintf("%+v", *p.(*P))
}

// same is the equality of policies without slices.
func same[P comparable](a, b *P) bool { return *a == *b }
