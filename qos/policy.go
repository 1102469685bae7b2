package qos

import "strconv"

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

// policyInfo is one row of the policy tables of DDS 1.4 §2.2.3 and DDS-XTypes 1.3 §7.6.3:
// the *_QOS_POLICY_NAME string, "RxO" and "Changeable".
type policyInfo struct {
	name       string
	rxo        bool
	changeable bool
}

var policyTable = [NumPolicyIDs]policyInfo{
	InvalidPolicyID:                    {"Invalid", false, false},
	UserDataPolicyID:                   {"UserData", false, true},
	DurabilityPolicyID:                 {"Durability", true, false},
	PresentationPolicyID:               {"Presentation", true, false},
	DeadlinePolicyID:                   {"Deadline", true, true},
	LatencyBudgetPolicyID:              {"LatencyBudget", true, true},
	OwnershipPolicyID:                  {"Ownership", true, false},
	OwnershipStrengthPolicyID:          {"OwnershipStrength", false, true},
	LivelinessPolicyID:                 {"Liveliness", true, false},
	TimeBasedFilterPolicyID:            {"TimeBasedFilter", false, true},
	PartitionPolicyID:                  {"Partition", false, true},
	ReliabilityPolicyID:                {"Reliability", true, false},
	DestinationOrderPolicyID:           {"DestinationOrder", true, false},
	HistoryPolicyID:                    {"History", false, false},
	ResourceLimitsPolicyID:             {"ResourceLimits", false, false},
	EntityFactoryPolicyID:              {"EntityFactory", false, true},
	WriterDataLifecyclePolicyID:        {"WriterDataLifecycle", false, true},
	ReaderDataLifecyclePolicyID:        {"ReaderDataLifecycle", false, true},
	TopicDataPolicyID:                  {"TopicData", false, true},
	GroupDataPolicyID:                  {"GroupData", false, true},
	TransportPriorityPolicyID:          {"TransportPriority", false, true},
	LifespanPolicyID:                   {"Lifespan", false, true},
	DurabilityServicePolicyID:          {"DurabilityService", false, false},
	DataRepresentationPolicyID:         {"DataRepresentation", true, false},
	TypeConsistencyEnforcementPolicyID: {"TypeConsistencyEnforcement", false, false},
}

func (id PolicyID) known() bool { return id > InvalidPolicyID && id < NumPolicyIDs }

// String returns the policy name of the spec's *_QOS_POLICY_NAME constant, e.g.
// "Reliability", or "PolicyID(n)" for an unknown id.
func (id PolicyID) String() string {
	if id < 0 || id >= NumPolicyIDs {
		return "PolicyID(" + strconv.Itoa(int(id)) + ")"
	}
	return policyTable[id].name
}

// RxO reports whether the policy takes part in the requested/offered matching of
// writers and readers (the "RxO" column of DDS 1.4 §2.2.3: YES).
func (id PolicyID) RxO() bool { return id.known() && policyTable[id].rxo }

// Changeable reports whether the policy may be changed on an enabled entity (the
// "Changeable" column of DDS 1.4 §2.2.3).
func (id PolicyID) Changeable() bool { return id.known() && policyTable[id].changeable }
