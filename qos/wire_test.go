package qos

import (
	"encoding/binary"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/errs"
	"github.com/ddsgo/ddsgo/internal/qoswire"
)

// nonDefault sets every policy a writer, a reader and a topic announce to a
// value other than its default, one policy per entry.
var nonDefault = []struct {
	id PolicyID
	w  func(*Offered)
	r  func(*Requested)
	t  func(*TopicQos)
}{
	{UserDataPolicyID, func(o *Offered) { o.Writer.UserData.Value = []byte{1, 2, 3} }, func(r *Requested) { r.Reader.UserData.Value = []byte{4} }, nil},
	{DurabilityPolicyID, func(o *Offered) { o.Writer.Durability.Kind = Persistent }, func(r *Requested) { r.Reader.Durability.Kind = TransientLocal }, func(t *TopicQos) { t.Durability.Kind = Transient }},
	{PresentationPolicyID, func(o *Offered) { o.Publisher.Presentation = Presentation{GroupScope, true, true} }, func(r *Requested) { r.Subscriber.Presentation = Presentation{TopicScope, false, true} }, nil},
	{DeadlinePolicyID, func(o *Offered) { o.Writer.Deadline.Period = 1500 * time.Millisecond }, func(r *Requested) { r.Reader.Deadline.Period = 3 * time.Second }, func(t *TopicQos) { t.Deadline.Period = time.Nanosecond }},
	{LatencyBudgetPolicyID, func(o *Offered) { o.Writer.LatencyBudget.Duration = time.Millisecond }, func(r *Requested) { r.Reader.LatencyBudget.Duration = 7 * time.Microsecond }, func(t *TopicQos) { t.LatencyBudget.Duration = time.Second }},
	{OwnershipPolicyID, func(o *Offered) { o.Writer.Ownership.Kind = Exclusive }, func(r *Requested) { r.Reader.Ownership.Kind = Exclusive }, func(t *TopicQos) { t.Ownership.Kind = Exclusive }},
	{OwnershipStrengthPolicyID, func(o *Offered) { o.Writer.OwnershipStrength.Value = -5 }, nil, nil},
	{LivelinessPolicyID, func(o *Offered) { o.Writer.Liveliness = Liveliness{ManualByTopic, 2 * time.Second} }, func(r *Requested) { r.Reader.Liveliness = Liveliness{ManualByParticipant, time.Minute} }, func(t *TopicQos) { t.Liveliness.Kind = ManualByTopic }},
	{TimeBasedFilterPolicyID, nil, func(r *Requested) { r.Reader.TimeBasedFilter.MinimumSeparation = 10 * time.Millisecond }, nil},
	{PartitionPolicyID, func(o *Offered) { o.Publisher.Partition.Name = []string{"a", "bcdef", "", "x*"} }, func(r *Requested) { r.Subscriber.Partition.Name = []string{"a?"} }, nil},
	{ReliabilityPolicyID, func(o *Offered) { o.Writer.Reliability = Reliability{BestEffort, time.Second} }, func(r *Requested) { r.Reader.Reliability = Reliability{Reliable, 0} }, func(t *TopicQos) { t.Reliability.Kind = Reliable }},
	{DestinationOrderPolicyID, func(o *Offered) { o.Writer.DestinationOrder.Kind = BySourceTimestamp }, func(r *Requested) { r.Reader.DestinationOrder.Kind = BySourceTimestamp }, func(t *TopicQos) { t.DestinationOrder.Kind = BySourceTimestamp }},
	{HistoryPolicyID, func(o *Offered) { o.Writer.History = History{KeepAll, -1} }, func(r *Requested) { r.Reader.History.Depth = 5 }, func(t *TopicQos) { t.History.Depth = 3 }},
	{ResourceLimitsPolicyID, func(o *Offered) { o.Writer.ResourceLimits = ResourceLimits{400, 10, -1} }, func(r *Requested) { r.Reader.ResourceLimits.MaxInstances = 2 }, func(t *TopicQos) { t.ResourceLimits.MaxSamples = 9 }},
	{TopicDataPolicyID, func(o *Offered) { o.TopicData.Value = []byte("td") }, func(r *Requested) { r.TopicData.Value = []byte("x") }, func(t *TopicQos) { t.TopicData.Value = []byte("topic") }},
	{GroupDataPolicyID, func(o *Offered) { o.Publisher.GroupData.Value = []byte("group") }, func(r *Requested) { r.Subscriber.GroupData.Value = []byte{0} }, nil},
	{TransportPriorityPolicyID, func(o *Offered) { o.Writer.TransportPriority.Value = 9 }, nil, func(t *TopicQos) { t.TransportPriority.Value = -1 }},
	{LifespanPolicyID, func(o *Offered) { o.Writer.Lifespan.Duration = time.Minute }, nil, func(t *TopicQos) { t.Lifespan.Duration = 0 }},
	{DurabilityServicePolicyID, func(o *Offered) {
		o.Writer.DurabilityService = DurabilityService{time.Second, KeepAll, 5, -1, 2, 3}
	}, nil, func(t *TopicQos) { t.DurabilityService.HistoryDepth = 4 }},
	{DataRepresentationPolicyID, func(o *Offered) { o.Writer.DataRepresentation.Value = []DataRepresentationID{XCDR2} }, func(r *Requested) {
		r.Reader.DataRepresentation.Value = []DataRepresentationID{XCDR1, XCDR2}
	}, func(t *TopicQos) { t.DataRepresentation.Value = []DataRepresentationID{XML} }},
	{TypeConsistencyEnforcementPolicyID, nil, func(r *Requested) {
		r.Reader.TypeConsistencyEnforcement = TypeConsistencyEnforcement{DisallowTypeCoercion, false, true, true, false, true}
	}, nil},
}

// roundTrip encodes q with appendAnnounced and decodes it into fresh, which
// starts from the defaults.
func roundTrip[Q announced](t *testing.T, q, fresh Q, be bool) {
	t.Helper()
	type param struct {
		pid uint16
		v   []byte
	}
	var ps []param
	appendAnnounced(q, be, func(pid uint16, v []byte) { ps = append(ps, param{pid, append([]byte(nil), v...)}) })
	for _, p := range ps {
		ok, err := decodeAnnounced(fresh, p.pid, p.v, be, qoswire.Limits{})
		require.True(t, ok, "pid %#04x", p.pid)
		require.NoError(t, err)
	}
}

// checkRoundTrip applies mod (if any) to the defaults and round-trips them.
func checkRoundTrip[Q any](t *testing.T, id PolicyID, be bool, mod func(*Q), def func() Q) {
	t.Helper()
	if mod == nil {
		return
	}
	q := def()
	mod(&q)
	require.NotEqual(t, def(), q, id)
	back := def()
	switch p := any(&q).(type) {
	case *Offered:
		roundTrip(t, p, any(&back).(*Offered), be)
	case *Requested:
		roundTrip(t, p, any(&back).(*Requested), be)
	case *TopicQos:
		roundTrip(t, p, any(&back).(*TopicQos), be)
	}
	require.Equal(t, q, back, "%s be=%v", id, be)
}

func TestWireRoundTrip(t *testing.T) {
	covered := map[PolicyID]bool{}
	for _, tc := range nonDefault {
		for _, be := range []bool{false, true} {
			checkRoundTrip(t, tc.id, be, tc.w, DefaultOffered)
			checkRoundTrip(t, tc.id, be, tc.r, DefaultRequested)
			checkRoundTrip(t, tc.id, be, tc.t, DefaultTopicQos)
		}
		covered[tc.id] = true
	}
	// Every policy with a parameter id is covered; the local ones have none.
	for id := PolicyID(1); id < NumPolicyIDs; id++ {
		require.Equal(t, id.pid() != 0, covered[id], id)
	}
}

func TestWireBytes(t *testing.T) {
	value := func(q *Offered, be bool, pid uint16) []byte {
		var out []byte
		appendAnnounced(q, be, func(p uint16, v []byte) {
			if p == pid {
				out = append([]byte(nil), v...)
			}
		})
		return out
	}
	o := DefaultOffered()
	o.Writer.Reliability = Reliability{Reliable, 100 * time.Millisecond}
	o.Publisher.Presentation = Presentation{AccessScope: TopicScope, CoherentAccess: true}
	o.Publisher.Partition.Name = []string{"a", "bcdef"}
	// RELIABLE is 2 on the wire; 100 ms is 0x1999999a 2^-32 s, rounded.
	require.Equal(t, []byte{0, 0, 0, 2, 0, 0, 0, 0, 0x19, 0x99, 0x99, 0x9a}, value(&o, true, ReliabilityPolicyID.pid()))
	require.Equal(t, []byte{0, 0, 0, 1, 1, 0}, value(&o, true, PresentationPolicyID.pid()))
	require.Equal(t, []byte{
		2, 0, 0, 0,
		2, 0, 0, 0, 'a', 0, 0, 0,
		6, 0, 0, 0, 'b', 'c', 'd', 'e', 'f', 0,
	}, value(&o, false, PartitionPolicyID.pid()))
	require.Equal(t, []byte{0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0xff}, value(&o, false, DeadlinePolicyID.pid()), "DURATION_INFINITE")
	o.Publisher.Partition.Name = nil
	require.Nil(t, value(&o, false, PartitionPolicyID.pid()), "an empty partition is not sent")
}

func TestWireDecodeLenient(t *testing.T) {
	// A kind-only RELIABILITY (old implementations) and a TYPE_CONSISTENCY cut
	// after the first flag (Fast DDS sends 8 octets) are accepted.
	o := DefaultOffered()
	ok, err := decodeAnnounced(&o, ReliabilityPolicyID.pid(), []byte{1, 0, 0, 0}, false, qoswire.Limits{})
	require.True(t, ok)
	require.NoError(t, err)
	require.Equal(t, Reliability{Kind: BestEffort}, o.Writer.Reliability)
	r := DefaultRequested()
	_, err = decodeAnnounced(&r, TypeConsistencyEnforcementPolicyID.pid(), []byte{1, 0, 1}, false, qoswire.Limits{})
	require.NoError(t, err)
	require.Equal(t, TypeConsistencyEnforcement{Kind: AllowTypeCoercion, IgnoreSequenceBounds: true}, r.Reader.TypeConsistencyEnforcement)
	// A policy of the other kind of endpoint is not decoded.
	ok, err = decodeAnnounced(&o, TimeBasedFilterPolicyID.pid(), []byte{1, 0, 0, 0, 0, 0, 0, 0}, false, qoswire.Limits{})
	require.False(t, ok)
	require.NoError(t, err)
	ok, _ = decodeAnnounced(&o, 0x0005, []byte{1, 0, 0, 0}, false, qoswire.Limits{})
	require.False(t, ok, "TOPIC_NAME is no policy")
}

func TestWireDecodeErrors(t *testing.T) {
	for name, tc := range map[string]struct {
		id   PolicyID
		v    []byte
		lim  qoswire.Limits
		code error
	}{
		"reliability kind 0":      {ReliabilityPolicyID, []byte{0, 0, 0, 0}, qoswire.Limits{}, errs.ErrBadParameter},
		"reliability kind 3":      {ReliabilityPolicyID, []byte{3, 0, 0, 0}, qoswire.Limits{}, errs.ErrBadParameter},
		"durability kind 4":       {DurabilityPolicyID, []byte{4, 0, 0, 0}, qoswire.Limits{}, errs.ErrBadParameter},
		"negative duration":       {DeadlinePolicyID, []byte{0xfb, 0xff, 0xff, 0xff, 0, 0, 0, 0}, qoswire.Limits{}, errs.ErrBadParameter},
		"short history":           {HistoryPolicyID, []byte{1, 0, 0, 0}, qoswire.Limits{}, errs.ErrBadParameter},
		"partition count":         {PartitionPolicyID, []byte{9, 0, 0, 0}, qoswire.Limits{}, errs.ErrBadParameter},
		"partition without NUL":   {PartitionPolicyID, []byte{1, 0, 0, 0, 1, 0, 0, 0, 'a'}, qoswire.Limits{}, errs.ErrBadParameter},
		"partitions over limit":   {PartitionPolicyID, []byte{2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0}, qoswire.Limits{MaxCount: 1}, errs.ErrOutOfResources},
		"partition name too long": {PartitionPolicyID, []byte{1, 0, 0, 0, 3, 0, 0, 0, 'a', 'b', 0}, qoswire.Limits{MaxStringLen: 1}, errs.ErrOutOfResources},
		"group data too long":     {GroupDataPolicyID, []byte{2, 0, 0, 0, 1, 2}, qoswire.Limits{MaxDataLen: 1}, errs.ErrOutOfResources},
		"type consistency kind":   {TypeConsistencyEnforcementPolicyID, []byte{2, 0}, qoswire.Limits{}, errs.ErrBadParameter},
	} {
		o, r := DefaultOffered(), DefaultRequested()
		okW, errW := decodeAnnounced(&o, tc.id.pid(), tc.v, false, tc.lim)
		okR, errR := decodeAnnounced(&r, tc.id.pid(), tc.v, false, tc.lim)
		require.True(t, okW || okR, name)
		err := errW
		if !okW {
			err = errR
		}
		require.ErrorIs(t, err, tc.code, name)
		var pe *PolicyError
		var le *qoswire.LimitError
		switch {
		case errors.As(err, &pe):
			require.Equal(t, tc.id, pe.Policy, name)
		case errors.As(err, &le):
			require.Equal(t, tc.id.String(), le.Policy, name)
			require.Positive(t, le.Max, name)
			require.Greater(t, le.Got, le.Max, name)
		default:
			t.Fatalf("%s: %T", name, err)
		}
		require.Equal(t, DefaultOffered(), o, "%s: a failed decode leaves the value alone", name)
	}
}

// FuzzDecodePolicy: no value makes a decoder panic, and what decodes
// encodes to something that decodes to the same.
func FuzzDecodePolicy(f *testing.F) {
	for id := PolicyID(1); id < NumPolicyIDs; id++ {
		f.Add(id.pid(), []byte{1, 0, 0, 0, 2, 0, 0, 0, 'a', 0, 0, 0}, false)
	}
	f.Fuzz(func(t *testing.T, pid uint16, v []byte, be bool) {
		o, r := DefaultOffered(), DefaultRequested()
		if ok, err := decodeAnnounced(&o, pid, v, be, qoswire.Limits{}); ok && err == nil {
			back := DefaultOffered()
			roundTrip(t, &o, &back, be)
			require.Equal(t, o, back)
		}
		if ok, err := decodeAnnounced(&r, pid, v, be, qoswire.Limits{}); ok && err == nil {
			back := DefaultRequested()
			roundTrip(t, &r, &back, be)
			require.Equal(t, r, back)
		}
	})
}

// A duration's fraction is rounded up, so that a peer that truncates it to nanoseconds
// (Fast DDS 2.9) reads the same duration and equal leases stay compatible; the decoder
// (rounding to nearest) still gets the duration back.
func TestWireDurationRoundsUp(t *testing.T) {
	for _, d := range []time.Duration{400 * time.Millisecond, time.Nanosecond, 999_999_999, 1500 * time.Millisecond, 0} {
		var e encoder
		e.duration(d)
		require.Len(t, e.b, 8)
		sec := int64(int32(binary.LittleEndian.Uint32(e.b[0:4])))
		frac := uint64(binary.LittleEndian.Uint32(e.b[4:8]))
		truncated := time.Duration(sec)*time.Second + time.Duration(frac*1e9>>32)
		require.Equal(t, d, truncated, "a truncating peer reads %v", d)
	}
}
