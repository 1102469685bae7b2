package dds

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// discoveredReader waits until p discovers a reader of topic and returns it.
func discoveredReader(t *testing.T, p *DomainParticipant, topic string) EndpointBuiltinTopicData {
	t.Helper()
	var sub EndpointBuiltinTopicData
	require.Eventually(t, func() bool {
		subs, err := p.DiscoveredSubscriptions()
		require.NoError(t, err)
		for _, d := range subs {
			if d.TopicName == topic {
				sub = d
				return true
			}
		}
		return false
	}, 5*time.Second, 10*time.Millisecond)
	return sub
}

// TestDynamicWriter writes a topic without its Go type: the type a reader announced
// (LookupType), a topic made WithType it, and samples made by the type from a map, as
// ddsping pub does. The reader, with its Go type, gets the values and the instances
// (key hashes) its own writers would give, in XCDR1 (a final type) and XCDR2 (an
// appendable one), and a dispose of the instance.
func TestDynamicWriter(t *testing.T) {
	pa, pb := memPair(t, 12)
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	defer cancel()
	dynamicWriterCase(t, pa, pb, ctx, "DynFinal", func(v namedSample) namedSample { return v })
	dynamicWriterCase(t, pa, pb, ctx, "DynAppendable", func(v namedSample) namedSampleA { return namedSampleA(v) })

	// What is not of the type is a bad parameter; a writer of DynamicSample needs a
	// type, and only a topic of DynamicSample takes one.
	sub := discoveredReader(t, pb, "DynFinal")
	typ, err := pb.LookupType(ctx, sub)
	require.NoError(t, err)
	_, err = typ.Sample(map[string]any{"nope": 1})
	require.ErrorIs(t, err, ErrBadParameter)
	require.ErrorContains(t, err, `no member "nope"`)
	_, err = typ.Sample(map[string]any{"id": 1.5})
	require.ErrorIs(t, err, ErrBadParameter)
	tp, err := NewTopic[DynamicSample](pb, "DynPlain", TypeName("interop::Sample"))
	require.NoError(t, err)
	_, err = NewWriter(tp)
	require.ErrorIs(t, err, ErrPreconditionNotMet)
	_, err = NewTopic[namedSample](pb, "DynWrong", WithType(typ))
	require.ErrorIs(t, err, ErrBadParameter)
}

func dynamicWriterCase[T any](t *testing.T, pa, pb *DomainParticipant, ctx context.Context, topic string, as func(namedSample) T) {
	ta, err := NewTopic[T](pa, topic)
	require.NoError(t, err)
	r, err := NewReader(ta, Reliable(), KeepAll())
	require.NoError(t, err)

	typ, err := pb.LookupType(ctx, discoveredReader(t, pb, topic))
	require.NoError(t, err)
	require.True(t, typ.Keyed())
	tb, err := NewTopic[DynamicSample](pb, topic, WithType(typ))
	require.NoError(t, err)
	require.Equal(t, ta.TypeName(), tb.TypeName())
	w, err := NewWriter(tb, Reliable(), KeepAll())
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		st, err := w.PublicationMatchedStatus()
		return err == nil && st.CurrentCount == 1
	}, 5*time.Second, 10*time.Millisecond)

	s, err := typ.Sample(map[string]any{"id": 5.0, "text": "x", "values": []any{1.5, 2.0}, "seq": 7.0})
	require.NoError(t, err)
	require.NoError(t, w.Write(ctx, &s))
	s2, err := typ.Sample(map[string]any{"id": 6, "seq": uint64(8)}) // text and values left out
	require.NoError(t, err)
	require.NoError(t, w.Write(ctx, &s2))

	want := []T{as(namedSample{ID: 5, Text: "x", Values: []float64{1.5, 2}, Seq: 7}), as(namedSample{ID: 6, Seq: 8})}
	got, infos := take(t, ctx, r, 2)
	for i := range 2 {
		require.True(t, infos[i].ValidData, topic)
		require.Equal(t, want[i], got[i], topic)
		require.Equal(t, r.LookupInstance(&want[i]), infos[i].InstanceHandle, "%s: the instance of sample %d", topic, i)
	}
	// get_key_value: the key members of the instance, the others zero.
	kv, err := w.KeyValue(w.LookupInstance(&s))
	require.NoError(t, err)
	gotKey, err := typ.Decode(&kv)
	require.NoError(t, err)
	onlyKey, err := typ.Sample(map[string]any{"id": 5})
	require.NoError(t, err)
	wantKey, err := typ.Decode(&onlyKey)
	require.NoError(t, err)
	require.Equal(t, wantKey, gotKey, topic)

	// Samples of the type that hold only their payload (as a reader takes them), one
	// buffer rewritten between writes: each is decoded as it is then.
	var ds DynamicSample
	for _, p := range [][]byte{s.Payload, s2.Payload, s2.Payload, s.Payload} {
		ds.Payload = append(ds.Payload[:0], p...)
		require.NoError(t, w.Write(ctx, &ds))
	}
	again, againInfos := take(t, ctx, r, 4)
	byInstance := map[InstanceHandle][]T{} // a take returns them instance by instance
	for i := range again {
		byInstance[againInfos[i].InstanceHandle] = append(byInstance[againInfos[i].InstanceHandle], again[i])
	}
	for j := range 2 {
		require.Equal(t, []T{want[j], want[j]}, byInstance[infos[j].InstanceHandle], topic)
	}

	require.NoError(t, w.Dispose(ctx, &s))
	_, disposed := take(t, ctx, r, 1)
	require.False(t, disposed[0].ValidData, topic)
	require.Equal(t, NotAliveDisposedInstanceState, disposed[0].InstanceState, topic)
	require.Equal(t, infos[0].InstanceHandle, disposed[0].InstanceHandle, "%s: the disposed instance", topic)
}

// take takes n samples from r.
func take[T any](t *testing.T, ctx context.Context, r *DataReader[T], n int) ([]T, []SampleInfo) {
	var got []T
	var infos []SampleInfo
	for len(infos) < n {
		vs, is, err := r.Take(ctx)
		require.NoError(t, err, "got %v %+v", got, infos)
		got, infos = append(got, vs...), append(infos, is...)
	}
	require.Len(t, infos, n)
	return got, infos
}
