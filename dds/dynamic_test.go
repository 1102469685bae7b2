package dds

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/transport/memnet"
)

// appendedSample is interop::SampleA with a member appended, retypedSample with a member
// of another type: the first is assignable from namedSampleA, the second not.
type (
	namedSampleA  namedSample
	appendedSampl struct {
		ID     int32     `dds:"key,name=id"`
		Text   string    `dds:"name=text"`
		Values []float64 `dds:"name=values"`
		Seq    uint64    `dds:"name=seq"`
		Extra  int32     `dds:"name=extra"`
	}
	retypedSample struct {
		ID     int32     `dds:"key,name=id"`
		Text   int64     `dds:"name=text"`
		Values []float64 `dds:"name=values"`
		Seq    uint64    `dds:"name=seq"`
	}
)

func (namedSampleA) DDSTypeName() string              { return "interop::SampleA" }
func (namedSampleA) DDSExtensibility() Extensibility  { return Appendable }
func (appendedSampl) DDSTypeName() string             { return "interop::SampleA" }
func (appendedSampl) DDSExtensibility() Extensibility { return Appendable }
func (retypedSample) DDSTypeName() string             { return "interop::SampleA" }
func (retypedSample) DDSExtensibility() Extensibility { return Appendable }

// TestDynamicSample reads a topic without its Go type: a DataReader[DynamicSample]
// matches the keyed writer, and the type LookupType gives decodes its samples.
func TestDynamicSample(t *testing.T) {
	pa, pb := memPair(t, 11)
	ta, err := NewTopic[namedSampleA](pa, "Dyn")
	require.NoError(t, err)
	w, err := NewWriter(ta, Reliable(), TransientLocal())
	require.NoError(t, err)
	require.NoError(t, w.Write(bg, &namedSampleA{ID: 3, Text: "hi", Values: []float64{0.5, 2}, Seq: 42}))

	var pub EndpointBuiltinTopicData
	require.Eventually(t, func() bool {
		pubs, err := pb.DiscoveredPublications()
		require.NoError(t, err)
		for _, d := range pubs {
			if d.TopicName == "Dyn" {
				pub = d
				return true
			}
		}
		return false
	}, 5*time.Second, 10*time.Millisecond)
	require.True(t, pub.Keyed)
	ctx, cancel := context.WithTimeout(bg, 5*time.Second)
	defer cancel()
	typ, err := pb.LookupType(ctx, pub)
	require.NoError(t, err)
	require.Equal(t, "interop::SampleA", typ.Name())

	tb, err := NewTopic[DynamicSample](pb, "Dyn", TypeName(pub.TypeName))
	require.NoError(t, err)
	r, err := NewReader(tb, Reliable(), TransientLocal())
	require.NoError(t, err)
	for s, info := range r.Samples(ctx) {
		if !info.ValidData {
			continue
		}
		require.Equal(t, byte(0x09), s.Payload[1], "XCDR2 little-endian, delimited")
		v, err := typ.Decode(&s)
		require.NoError(t, err)
		b, err := json.Marshal(v)
		require.NoError(t, err)
		require.Equal(t, `{"id":3,"text":"hi","values":[0.5,2],"seq":42}`, string(b))
		break
	}
	require.NoError(t, ctx.Err())

	// Garbage is a bad parameter, not a panic.
	_, err = typ.Decode(&DynamicSample{Payload: []byte{0, 9, 0, 0, 1}})
	require.ErrorIs(t, err, ErrBadParameter)
	// A type announcing no type information cannot be looked up.
	tm, err := NewTopic[message](pa, "Plain", TypeName("interop::Sample"))
	require.NoError(t, err)
	_, err = NewWriter(tm)
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		pubs, _ := pb.DiscoveredPublications()
		for _, d := range pubs {
			if d.TopicName == "Plain" {
				pub = d
				return true
			}
		}
		return false
	}, 5*time.Second, 10*time.Millisecond)
	_, err = pb.LookupType(ctx, pub)
	require.ErrorIs(t, err, ErrUnsupported)
}

// TestAssignability: with type information on both sides, a reader whose type has a
// member appended matches; one whose member has another type does not, and both
// topics count INCONSISTENT_TOPIC.
func TestAssignability(t *testing.T) {
	n, err := memnet.New(memnet.Config{Seed: 12})
	require.NoError(t, err)
	t.Cleanup(n.Close)
	pa, pb, pc := memParticipant(t, n, "a", "10.0.0.1"), memParticipant(t, n, "b", "10.0.0.2"), memParticipant(t, n, "c", "10.0.0.3")
	ta, err := NewTopic[namedSampleA](pa, "Assign")
	require.NoError(t, err)
	w, err := NewWriter(ta, Reliable())
	require.NoError(t, err)
	tGood, err := NewTopic[appendedSampl](pb, "Assign")
	require.NoError(t, err)
	good, err := NewReader(tGood, Reliable())
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		st, err := good.SubscriptionMatchedStatus()
		require.NoError(t, err)
		return st.CurrentCount == 1
	}, 5*time.Second, 10*time.Millisecond)

	tBad, err := NewTopic[retypedSample](pc, "Assign")
	require.NoError(t, err)
	bad, err := NewReader(tBad, Reliable())
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		st, err := tBad.InconsistentTopicStatus()
		require.NoError(t, err)
		return st.TotalCount > 0
	}, 5*time.Second, 10*time.Millisecond)
	require.Eventually(t, func() bool {
		st, err := ta.InconsistentTopicStatus()
		require.NoError(t, err)
		return st.TotalCount > 0
	}, 5*time.Second, 10*time.Millisecond)
	time.Sleep(200 * time.Millisecond)
	st, err := bad.SubscriptionMatchedStatus()
	require.NoError(t, err)
	require.Zero(t, st.TotalCount)
	ws, err := w.PublicationMatchedStatus()
	require.NoError(t, err)
	require.Equal(t, int32(1), ws.CurrentCount, "the good reader only")
}
