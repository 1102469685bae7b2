package qos

import "sync"

// Offered is what a writer offers to the requested/offered (RxO) matching of DDS 1.4
// §2.2.3, and what discovery announces of it: its own QoS, its publisher's
// (PRESENTATION, PARTITION, GROUP_DATA) and its topic's TOPIC_DATA. The topic's other
// policies take part only through DataWriterQos.FromTopic.
type Offered struct {
	Writer    DataWriterQos
	Publisher PublisherQos
	// TopicData is the topic's TOPIC_DATA, announced with the writer; no rule reads it.
	TopicData TopicData
}

// Requested is what a reader requests in the RxO matching, and what discovery
// announces of it: its own QoS, its subscriber's and its topic's TOPIC_DATA.
type Requested struct {
	Reader     DataReaderQos
	Subscriber SubscriberQos
	// TopicData is the topic's TOPIC_DATA, announced with the reader; no rule reads it.
	TopicData TopicData
}

// DefaultOffered returns the defaults of a writer and its publisher: what a remote writer
// that announces no policy offers.
func DefaultOffered() Offered {
	return Offered{Writer: DefaultDataWriterQos(), Publisher: DefaultPublisherQos()}
}

// DefaultRequested returns the defaults of a reader and its subscriber.
func DefaultRequested() Requested {
	return Requested{Reader: DefaultDataReaderQos(), Subscriber: DefaultSubscriberQos()}
}

// Compatible returns the policies whose offered value does not satisfy the requested one,
// in PolicyID order, or nil when the writer and reader are compatible. The rules (DDS 1.4
// §2.2.3, DDS-XTypes 1.3 §7.6.3.1.2), each held by its policy's row of the table:
//
//	DURABILITY          offered kind >= requested kind
//	PRESENTATION        offered access scope >= requested; requested coherent_access
//	                    and ordered_access need the offered ones
//	DEADLINE            offered period <= requested period
//	LATENCY_BUDGET      offered duration <= requested duration
//	OWNERSHIP           offered kind == requested kind
//	LIVELINESS          offered kind >= requested kind; offered lease <= requested lease
//	RELIABILITY         offered kind >= requested kind
//	DESTINATION_ORDER   offered kind >= requested kind
//	DATA_REPRESENTATION the writer's first representation (XCDR1 when empty) is in the
//	                    reader's list (XCDR1 only when empty)
//
// Partitions are not part of it (a partition mismatch means no match, not an incompatible
// QoS): see PartitionsMatch. Type consistency is decided with the types, not here.
func Compatible(o Offered, r Requested) []PolicyID {
	return appendIncompatible(nil, o, r)
}

// appendIncompatible appends the policies Compatible would return to dst and returns the
// extended slice; it allocates nothing when dst has room.
func appendIncompatible(dst []PolicyID, o Offered, r Requested) []PolicyID {
	// The table's accessors make their argument escape; a pooled pair keeps o and r
	// off the heap.
	p := pairs.Get().(*pair)
	p.o, p.r = o, r
	for id := range PolicyID(NumPolicyIDs) {
		if !compatible(id, &p.o, &p.r) {
			dst = append(dst, id)
		}
	}
	*p = pair{}
	pairs.Put(p)
	return dst
}

type pair struct {
	o Offered
	r Requested
}

var pairs = sync.Pool{New: func() any { return new(pair) }}

func compatible(id PolicyID, o *Offered, r *Requested) bool {
	oa, ra := offeredPolicies.byID[id], requestedPolicies.byID[id]
	return !policies[id].rxo || oa == nil || ra == nil || policies[id].ops.compatible(oa(o), ra(r))
}

// Incompatibility is one policy whose offered value does not satisfy the requested one,
// with both values as text, e.g. Reliability: offered BEST_EFFORT, requested RELIABLE.
type Incompatibility struct {
	Policy    PolicyID
	Offered   string
	Requested string
}

// String returns e.g. "Reliability: offered BEST_EFFORT, requested RELIABLE".
func (i Incompatibility) String() string {
	return i.Policy.String() + ": offered " + i.Offered + ", requested " + i.Requested
}

// Explain returns the policies Compatible returns, each with the offered and requested
// values: the reason strings of a failed match.
func Explain(o Offered, r Requested) []Incompatibility {
	var out []Incompatibility
	for id := range PolicyID(NumPolicyIDs) {
		if compatible(id, &o, &r) {
			continue
		}
		ops := policies[id].ops
		out = append(out, Incompatibility{
			Policy:    id,
			Offered:   ops.format(offeredPolicies.byID[id](&o)),
			Requested: ops.format(requestedPolicies.byID[id](&r)),
		})
	}
	return out
}
