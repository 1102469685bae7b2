package discovery

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/qos"
)

// EndpointQos is the QoS an endpoint announces in SEDP, as values of the qos
// package: the writer's or reader's own policies, those of its publisher or
// subscriber (PRESENTATION, PARTITION, GROUP_DATA) and its topic's
// TOPIC_DATA. A policy absent from the wire has the DDS default for the kind
// of endpoint ([DefaultWriterQos], [DefaultReaderQos]).
//
// OwnershipStrength and TransportPriority are written for writers (and for
// readers only when not the default), TimeBasedFilter and TypeConsistency
// for readers (and for writers only when not the default); the other
// policies are written for both, the way Fast DDS does, so that no peer has
// to guess a default. Partition, the octet sequences and DataRepresentation are
// written only when not empty: Cyclone DDS treats an empty representation
// list as absent.
type EndpointQos struct {
	Durability         qos.Durability
	DurabilityService  qos.DurabilityService
	Deadline           qos.Deadline
	LatencyBudget      qos.LatencyBudget
	Liveliness         qos.Liveliness
	Reliability        qos.Reliability
	Lifespan           qos.Lifespan
	DestinationOrder   qos.DestinationOrder
	History            qos.History
	ResourceLimits     qos.ResourceLimits
	Ownership          qos.Ownership
	OwnershipStrength  qos.OwnershipStrength
	Presentation       qos.Presentation
	Partition          qos.Partition
	TimeBasedFilter    qos.TimeBasedFilter
	UserData           qos.UserData
	TopicData          qos.TopicData
	GroupData          qos.GroupData
	TransportPriority  qos.TransportPriority
	DataRepresentation qos.DataRepresentation
	TypeConsistency    qos.TypeConsistencyEnforcement
}

// WriterQos returns the QoS a writer announces: its own, its publisher's and
// its topic's TOPIC_DATA.
func WriterQos(w qos.DataWriterQos, p qos.PublisherQos, t qos.TopicData) EndpointQos {
	return EndpointQos{
		Durability:         w.Durability,
		DurabilityService:  w.DurabilityService,
		Deadline:           w.Deadline,
		LatencyBudget:      w.LatencyBudget,
		Liveliness:         w.Liveliness,
		Reliability:        w.Reliability,
		Lifespan:           w.Lifespan,
		DestinationOrder:   w.DestinationOrder,
		History:            w.History,
		ResourceLimits:     w.ResourceLimits,
		Ownership:          w.Ownership,
		OwnershipStrength:  w.OwnershipStrength,
		Presentation:       p.Presentation,
		Partition:          p.Partition,
		UserData:           w.UserData,
		TopicData:          t,
		GroupData:          p.GroupData,
		TransportPriority:  w.TransportPriority,
		DataRepresentation: w.DataRepresentation,
		TypeConsistency:    qos.DefaultDataReaderQos().TypeConsistencyEnforcement,
	}
}

// ReaderQos returns the QoS a reader announces: its own, its subscriber's and
// its topic's TOPIC_DATA.
func ReaderQos(r qos.DataReaderQos, s qos.SubscriberQos, t qos.TopicData) EndpointQos {
	dw := qos.DefaultDataWriterQos()
	return EndpointQos{
		Durability:         r.Durability,
		DurabilityService:  dw.DurabilityService,
		Deadline:           r.Deadline,
		LatencyBudget:      r.LatencyBudget,
		Liveliness:         r.Liveliness,
		Reliability:        r.Reliability,
		Lifespan:           dw.Lifespan,
		DestinationOrder:   r.DestinationOrder,
		History:            r.History,
		ResourceLimits:     r.ResourceLimits,
		Ownership:          r.Ownership,
		OwnershipStrength:  dw.OwnershipStrength,
		Presentation:       s.Presentation,
		Partition:          s.Partition,
		TimeBasedFilter:    r.TimeBasedFilter,
		UserData:           r.UserData,
		TopicData:          t,
		GroupData:          s.GroupData,
		TransportPriority:  dw.TransportPriority,
		DataRepresentation: r.DataRepresentation,
		TypeConsistency:    r.TypeConsistencyEnforcement,
	}
}

// DefaultWriterQos returns the QoS of a remote writer that announces no
// policy: the DDS defaults of a writer and its publisher (RELIABLE with a
// max_blocking_time of 100 ms, VOLATILE, KEEP_LAST 1, ...).
func DefaultWriterQos() EndpointQos {
	return WriterQos(qos.DefaultDataWriterQos(), qos.DefaultPublisherQos(), qos.TopicData{})
}

// DefaultReaderQos returns the QoS of a remote reader that announces no
// policy: the DDS defaults of a reader and its subscriber (BEST_EFFORT,
// VOLATILE, KEEP_LAST 1, ...).
func DefaultReaderQos() EndpointQos {
	return ReaderQos(qos.DefaultDataReaderQos(), qos.DefaultSubscriberQos(), qos.TopicData{})
}

// Offered returns what a writer with QoS q offers to RxO matching.
func (q *EndpointQos) Offered() qos.Offered {
	w := qos.DefaultDataWriterQos()
	w.Durability = q.Durability
	w.DurabilityService = q.DurabilityService
	w.Deadline = q.Deadline
	w.LatencyBudget = q.LatencyBudget
	w.Liveliness = q.Liveliness
	w.Reliability = q.Reliability
	w.DestinationOrder = q.DestinationOrder
	w.History = q.History
	w.ResourceLimits = q.ResourceLimits
	w.TransportPriority = q.TransportPriority
	w.Lifespan = q.Lifespan
	w.UserData = q.UserData
	w.Ownership = q.Ownership
	w.OwnershipStrength = q.OwnershipStrength
	w.DataRepresentation = q.DataRepresentation
	p := qos.DefaultPublisherQos()
	p.Presentation = q.Presentation
	p.Partition = q.Partition
	p.GroupData = q.GroupData
	return qos.Offered{Writer: w, Publisher: p}
}

// Requested returns what a reader with QoS q requests in RxO matching.
func (q *EndpointQos) Requested() qos.Requested {
	r := qos.DefaultDataReaderQos()
	r.Durability = q.Durability
	r.Deadline = q.Deadline
	r.LatencyBudget = q.LatencyBudget
	r.Liveliness = q.Liveliness
	r.Reliability = q.Reliability
	r.DestinationOrder = q.DestinationOrder
	r.History = q.History
	r.ResourceLimits = q.ResourceLimits
	r.UserData = q.UserData
	r.Ownership = q.Ownership
	r.TimeBasedFilter = q.TimeBasedFilter
	r.DataRepresentation = q.DataRepresentation
	r.TypeConsistencyEnforcement = q.TypeConsistency
	s := qos.DefaultSubscriberQos()
	s.Presentation = q.Presentation
	s.Partition = q.Partition
	s.GroupData = q.GroupData
	return qos.Requested{Reader: r, Subscriber: s}
}

// topicQos converts the policies a topic has.
func (q *EndpointQos) topicQos() qos.TopicQos {
	return qos.TopicQos{
		TopicData:          q.TopicData,
		Durability:         q.Durability,
		DurabilityService:  q.DurabilityService,
		Deadline:           q.Deadline,
		LatencyBudget:      q.LatencyBudget,
		Liveliness:         q.Liveliness,
		Reliability:        q.Reliability,
		DestinationOrder:   q.DestinationOrder,
		History:            q.History,
		ResourceLimits:     q.ResourceLimits,
		TransportPriority:  q.TransportPriority,
		Lifespan:           q.Lifespan,
		Ownership:          q.Ownership,
		DataRepresentation: q.DataRepresentation,
	}
}

// endpointQosFromTopic is the inverse of topicQos; the policies a topic does
// not have get the writer defaults.
func endpointQosFromTopic(t *qos.TopicQos) EndpointQos {
	q := DefaultWriterQos()
	q.TopicData = t.TopicData
	q.Durability = t.Durability
	q.DurabilityService = t.DurabilityService
	q.Deadline = t.Deadline
	q.LatencyBudget = t.LatencyBudget
	q.Liveliness = t.Liveliness
	q.Reliability = t.Reliability
	q.DestinationOrder = t.DestinationOrder
	q.History = t.History
	q.ResourceLimits = t.ResourceLimits
	q.TransportPriority = t.TransportPriority
	q.Lifespan = t.Lifespan
	q.Ownership = t.Ownership
	q.DataRepresentation = t.DataRepresentation
	return q
}

// qosSet selects the policies written for a kind of entity, one bit per
// qos.PolicyID.
type qosSet uint32

func setOf(ids ...qos.PolicyID) qosSet {
	var s qosSet
	for _, id := range ids {
		s |= 1 << id
	}
	return s
}

func (s qosSet) has(id qos.PolicyID) bool { return s&(1<<id) != 0 }

var (
	commonSet = setOf(qos.DurabilityPolicyID, qos.DurabilityServicePolicyID, qos.DeadlinePolicyID,
		qos.LatencyBudgetPolicyID, qos.LivelinessPolicyID, qos.ReliabilityPolicyID, qos.LifespanPolicyID,
		qos.DestinationOrderPolicyID, qos.HistoryPolicyID, qos.ResourceLimitsPolicyID, qos.OwnershipPolicyID,
		qos.PresentationPolicyID, qos.PartitionPolicyID, qos.UserDataPolicyID, qos.TopicDataPolicyID,
		qos.GroupDataPolicyID, qos.DataRepresentationPolicyID)
	writerSet = commonSet | setOf(qos.OwnershipStrengthPolicyID, qos.TransportPriorityPolicyID)
	readerSet = commonSet | setOf(qos.TimeBasedFilterPolicyID, qos.TypeConsistencyEnforcementPolicyID)
	topicSet  = setOf(qos.TopicDataPolicyID, qos.DurabilityPolicyID, qos.DurabilityServicePolicyID,
		qos.DeadlinePolicyID, qos.LatencyBudgetPolicyID, qos.LivelinessPolicyID, qos.ReliabilityPolicyID,
		qos.DestinationOrderPolicyID, qos.HistoryPolicyID, qos.ResourceLimitsPolicyID,
		qos.TransportPriorityPolicyID, qos.LifespanPolicyID, qos.OwnershipPolicyID,
		qos.DataRepresentationPolicyID)
)

// dur converts a duration for the wire.
func dur(d time.Duration) wire.Duration { return wire.DurationFromStd(d) }

// writerSetFor returns the policies written for a writer with QoS q: the
// writer's, plus the reader-only ones that differ from their defaults (so
// that decoding gives q back).
func (q *EndpointQos) writerSetFor() qosSet {
	s := writerSet
	def := DefaultReaderQos()
	if q.TimeBasedFilter != def.TimeBasedFilter {
		s |= setOf(qos.TimeBasedFilterPolicyID)
	}
	if q.TypeConsistency != def.TypeConsistency {
		s |= setOf(qos.TypeConsistencyEnforcementPolicyID)
	}
	return s
}

// readerSetFor is writerSetFor for a reader.
func (q *EndpointQos) readerSetFor() qosSet {
	s := readerSet
	def := DefaultWriterQos()
	if q.OwnershipStrength != def.OwnershipStrength {
		s |= setOf(qos.OwnershipStrengthPolicyID)
	}
	if q.TransportPriority != def.TransportPriority {
		s |= setOf(qos.TransportPriorityPolicyID)
	}
	return s
}

// put writes the policies of q that set selects.
func (q *EndpointQos) put(w *wire.ParamWriter, set qosSet) {
	if set.has(qos.DurabilityPolicyID) {
		w.Put(wire.Durability{Kind: wire.DurabilityKind(q.Durability.Kind)})
	}
	if set.has(qos.DurabilityServicePolicyID) {
		d := &q.DurabilityService
		w.Put(wire.DurabilityService{
			ServiceCleanupDelay:   dur(d.ServiceCleanupDelay),
			HistoryKind:           wire.HistoryKind(d.HistoryKind),
			HistoryDepth:          d.HistoryDepth,
			MaxSamples:            d.MaxSamples,
			MaxInstances:          d.MaxInstances,
			MaxSamplesPerInstance: d.MaxSamplesPerInstance,
		})
	}
	if set.has(qos.DeadlinePolicyID) {
		w.Put(wire.Deadline{Period: dur(q.Deadline.Period)})
	}
	if set.has(qos.LatencyBudgetPolicyID) {
		w.Put(wire.LatencyBudget{Duration: dur(q.LatencyBudget.Duration)})
	}
	if set.has(qos.LivelinessPolicyID) {
		w.Put(wire.Liveliness{Kind: wire.LivelinessKind(q.Liveliness.Kind), LeaseDuration: dur(q.Liveliness.LeaseDuration)})
	}
	if set.has(qos.ReliabilityPolicyID) {
		k := wire.ReliabilityBestEffort
		if q.Reliability.Kind == qos.Reliable {
			k = wire.ReliabilityReliable
		}
		w.Put(wire.Reliability{Kind: k, MaxBlockingTime: dur(q.Reliability.MaxBlockingTime)})
	}
	if set.has(qos.LifespanPolicyID) {
		w.Put(wire.Lifespan{Duration: dur(q.Lifespan.Duration)})
	}
	if set.has(qos.DestinationOrderPolicyID) {
		w.Put(wire.DestinationOrder{Kind: wire.DestinationOrderKind(q.DestinationOrder.Kind)})
	}
	if set.has(qos.HistoryPolicyID) {
		w.Put(wire.History{Kind: wire.HistoryKind(q.History.Kind), Depth: q.History.Depth})
	}
	if set.has(qos.ResourceLimitsPolicyID) {
		r := &q.ResourceLimits
		w.Put(wire.ResourceLimits{MaxSamples: r.MaxSamples, MaxInstances: r.MaxInstances, MaxSamplesPerInstance: r.MaxSamplesPerInstance})
	}
	if set.has(qos.OwnershipPolicyID) {
		w.Put(wire.Ownership{Kind: wire.OwnershipKind(q.Ownership.Kind)})
	}
	if set.has(qos.OwnershipStrengthPolicyID) {
		w.Put(wire.OwnershipStrength{Value: q.OwnershipStrength.Value})
	}
	if set.has(qos.PresentationPolicyID) {
		p := &q.Presentation
		w.Put(wire.Presentation{AccessScope: wire.PresentationAccessScope(p.AccessScope), CoherentAccess: p.CoherentAccess, OrderedAccess: p.OrderedAccess})
	}
	if set.has(qos.PartitionPolicyID) && len(q.Partition.Name) > 0 {
		w.Put(wire.Partition{Names: q.Partition.Name})
	}
	if set.has(qos.TimeBasedFilterPolicyID) {
		w.Put(wire.TimeBasedFilter{MinimumSeparation: dur(q.TimeBasedFilter.MinimumSeparation)})
	}
	if set.has(qos.UserDataPolicyID) && len(q.UserData.Value) > 0 {
		w.PutOctets(wire.PIDUserData, q.UserData.Value)
	}
	if set.has(qos.TopicDataPolicyID) && len(q.TopicData.Value) > 0 {
		w.PutOctets(wire.PIDTopicData, q.TopicData.Value)
	}
	if set.has(qos.GroupDataPolicyID) && len(q.GroupData.Value) > 0 {
		w.PutOctets(wire.PIDGroupData, q.GroupData.Value)
	}
	if set.has(qos.TransportPriorityPolicyID) {
		w.Put(wire.TransportPriority{Value: q.TransportPriority.Value})
	}
	if set.has(qos.DataRepresentationPolicyID) && len(q.DataRepresentation.Value) > 0 {
		ids := make([]wire.DataRepresentationID, len(q.DataRepresentation.Value))
		for i, v := range q.DataRepresentation.Value {
			ids[i] = wire.DataRepresentationID(v)
		}
		w.Put(wire.DataRepresentation{Values: ids})
	}
	if set.has(qos.TypeConsistencyEnforcementPolicyID) {
		t := &q.TypeConsistency
		w.Put(wire.TypeConsistencyEnforcement{
			Kind:                 wire.TypeConsistencyKind(t.Kind),
			IgnoreSequenceBounds: t.IgnoreSequenceBounds,
			IgnoreStringBounds:   t.IgnoreStringBounds,
			IgnoreMemberNames:    t.IgnoreMemberNames,
			PreventTypeWidening:  t.PreventTypeWidening,
			ForceTypeValidation:  t.ForceTypeValidation,
		})
	}
}

// errKind reports an enum value out of range.
func errKind(v, maxV uint32) error {
	return fmt.Errorf("kind %d out of range 0..%d: %w", v, maxV, ErrInvalid)
}

// kind checks an enum value read off the wire.
func kind[T ~int32](v, maxV uint32) (T, error) {
	if v > maxV {
		return 0, errKind(v, maxV)
	}
	return T(v), nil
}

// fromWire converts a wire duration. Negative ones are invalid (Cyclone DDS
// also accepts DURATION_INVALID, {-1, 0xffffffff}, which nobody sends);
// 2^31-1 seconds and more are infinite, as DurationFromStd writes them.
func fromWire(d wire.Duration) (time.Duration, error) {
	if d.Seconds < 0 {
		return 0, fmt.Errorf("negative duration %ds: %w", d.Seconds, ErrInvalid)
	}
	// Durations that round to 2^31-1 s or more re-encode as the infinite
	// duration, so they are infinite here too.
	v := d.Std()
	if d.Seconds == math.MaxInt32 || v >= math.MaxInt32*time.Second {
		return qos.Infinite, nil
	}
	return v, nil
}

// qosParam decodes p into q if it is a QoS policy. It returns false for
// other parameters.
func (l *plist) qosParam(q *EndpointQos, p wire.Parameter) (bool, error) {
	err := l.qosValue(q, p)
	if errors.Is(err, errNotQoS) {
		return false, nil
	}
	if err != nil {
		return true, l.err(p.ID, err)
	}
	return true, nil
}

var errNotQoS = errors.New("not a QoS policy")

// qosValue decodes the value of a QoS parameter, or returns errNotQoS.
func (l *plist) qosValue(q *EndpointQos, p wire.Parameter) error {
	b, be := p.Value, p.BigEndian
	var err error
	switch p.ID {
	case wire.PIDDurability:
		var v wire.Durability
		if v, _, err = wire.ParseDurability(b, be); err == nil {
			q.Durability.Kind, err = kind[qos.DurabilityKind](uint32(v.Kind), uint32(qos.Persistent))
		}
	case wire.PIDDurabilityService:
		var v wire.DurabilityService
		if v, _, err = wire.ParseDurabilityService(b, be); err != nil {
			return err
		}
		d := &q.DurabilityService
		if d.ServiceCleanupDelay, err = fromWire(v.ServiceCleanupDelay); err != nil {
			return err
		}
		if d.HistoryKind, err = kind[qos.HistoryKind](uint32(v.HistoryKind), uint32(qos.KeepAll)); err != nil {
			return err
		}
		d.HistoryDepth, d.MaxSamples, d.MaxInstances, d.MaxSamplesPerInstance = v.HistoryDepth, v.MaxSamples, v.MaxInstances, v.MaxSamplesPerInstance
	case wire.PIDDeadline:
		var v wire.Deadline
		if v, _, err = wire.ParseDeadline(b, be); err == nil {
			q.Deadline.Period, err = fromWire(v.Period)
		}
	case wire.PIDLatencyBudget:
		var v wire.LatencyBudget
		if v, _, err = wire.ParseLatencyBudget(b, be); err == nil {
			q.LatencyBudget.Duration, err = fromWire(v.Duration)
		}
	case wire.PIDLiveliness:
		var v wire.Liveliness
		if v, _, err = wire.ParseLiveliness(b, be); err != nil {
			return err
		}
		if q.Liveliness.Kind, err = kind[qos.LivelinessKind](uint32(v.Kind), uint32(qos.ManualByTopic)); err != nil {
			return err
		}
		q.Liveliness.LeaseDuration, err = fromWire(v.LeaseDuration)
	case wire.PIDReliability:
		var v wire.Reliability
		if v, _, err = wire.ParseReliability(b, be); err != nil {
			return err
		}
		switch v.Kind {
		case wire.ReliabilityBestEffort:
			q.Reliability.Kind = qos.BestEffort
		case wire.ReliabilityReliable:
			q.Reliability.Kind = qos.Reliable
		default:
			return fmt.Errorf("kind %d is neither 1 (best effort) nor 2 (reliable): %w", v.Kind, ErrInvalid)
		}
		q.Reliability.MaxBlockingTime, err = fromWire(v.MaxBlockingTime)
	case wire.PIDLifespan:
		var v wire.Lifespan
		if v, _, err = wire.ParseLifespan(b, be); err == nil {
			q.Lifespan.Duration, err = fromWire(v.Duration)
		}
	case wire.PIDDestinationOrder:
		var v wire.DestinationOrder
		if v, _, err = wire.ParseDestinationOrder(b, be); err == nil {
			q.DestinationOrder.Kind, err = kind[qos.DestinationOrderKind](uint32(v.Kind), uint32(qos.BySourceTimestamp))
		}
	case wire.PIDHistory:
		var v wire.History
		if v, _, err = wire.ParseHistory(b, be); err != nil {
			return err
		}
		q.History.Depth = v.Depth
		q.History.Kind, err = kind[qos.HistoryKind](uint32(v.Kind), uint32(qos.KeepAll))
	case wire.PIDResourceLimits:
		var v wire.ResourceLimits
		if v, _, err = wire.ParseResourceLimits(b, be); err == nil {
			q.ResourceLimits = qos.ResourceLimits{MaxSamples: v.MaxSamples, MaxInstances: v.MaxInstances, MaxSamplesPerInstance: v.MaxSamplesPerInstance}
		}
	case wire.PIDOwnership:
		var v wire.Ownership
		if v, _, err = wire.ParseOwnership(b, be); err == nil {
			q.Ownership.Kind, err = kind[qos.OwnershipKind](uint32(v.Kind), uint32(qos.Exclusive))
		}
	case wire.PIDOwnershipStrength:
		var v wire.OwnershipStrength
		if v, _, err = wire.ParseOwnershipStrength(b, be); err == nil {
			q.OwnershipStrength.Value = v.Value
		}
	case wire.PIDPresentation:
		var v wire.Presentation
		if v, _, err = wire.ParsePresentation(b, be); err != nil {
			return err
		}
		q.Presentation.CoherentAccess, q.Presentation.OrderedAccess = v.CoherentAccess, v.OrderedAccess
		q.Presentation.AccessScope, err = kind[qos.AccessScopeKind](uint32(v.AccessScope), uint32(qos.GroupScope))
	case wire.PIDPartition:
		var v wire.Partition
		if v, _, err = wire.ParsePartition(b, be); err != nil {
			return err
		}
		if err = check("partition count", len(v.Names), l.lim.MaxPartitions); err != nil {
			return err
		}
		for _, n := range v.Names {
			if err = check("partition name length", len(n), l.lim.MaxStringLen); err != nil {
				return err
			}
		}
		q.Partition.Name = v.Names
	case wire.PIDTimeBasedFilter:
		var v wire.TimeBasedFilter
		if v, _, err = wire.ParseTimeBasedFilter(b, be); err == nil {
			q.TimeBasedFilter.MinimumSeparation, err = fromWire(v.MinimumSeparation)
		}
	case wire.PIDUserData:
		q.UserData.Value, err = l.octetsValue(p)
	case wire.PIDTopicData:
		q.TopicData.Value, err = l.octetsValue(p)
	case wire.PIDGroupData:
		q.GroupData.Value, err = l.octetsValue(p)
	case wire.PIDTransportPriority:
		var v wire.TransportPriority
		if v, _, err = wire.ParseTransportPriority(b, be); err == nil {
			q.TransportPriority.Value = v.Value
		}
	case wire.PIDDataRepresentation:
		var v wire.DataRepresentation
		if v, _, err = wire.ParseDataRepresentation(b, be); err != nil {
			return err
		}
		if err = check("DATA_REPRESENTATION count", len(v.Values), l.lim.MaxPartitions); err != nil {
			return err
		}
		q.DataRepresentation.Value = nil
		if len(v.Values) > 0 {
			q.DataRepresentation.Value = make([]qos.DataRepresentationID, len(v.Values))
			for i, id := range v.Values {
				q.DataRepresentation.Value[i] = qos.DataRepresentationID(id)
			}
		}
	case wire.PIDTypeConsistencyEnforcement:
		var v wire.TypeConsistencyEnforcement
		if v, _, err = wire.ParseTypeConsistencyEnforcement(b, be); err != nil {
			return err
		}
		t := &q.TypeConsistency
		t.IgnoreSequenceBounds, t.IgnoreStringBounds, t.IgnoreMemberNames = v.IgnoreSequenceBounds, v.IgnoreStringBounds, v.IgnoreMemberNames
		t.PreventTypeWidening, t.ForceTypeValidation = v.PreventTypeWidening, v.ForceTypeValidation
		t.Kind, err = kind[qos.TypeConsistencyKind](uint32(v.Kind), uint32(qos.AllowTypeCoercion))
	default:
		return errNotQoS
	}
	return err
}

// octetsValue is octets without the parameter-name wrapping, for qosValue.
func (l *plist) octetsValue(p wire.Parameter) ([]byte, error) {
	v, _, err := wire.ParseOctetSeq(p.Value, p.BigEndian)
	if err != nil {
		return nil, err
	}
	if err := check(p.ID.String()+" length", len(v), l.lim.MaxDataLen); err != nil {
		return nil, err
	}
	if len(v) == 0 {
		return nil, nil
	}
	return append([]byte(nil), v...), nil
}
