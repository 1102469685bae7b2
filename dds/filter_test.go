package dds

import (
	"context"
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/internal/discovery"
	"github.com/ddsgo/ddsgo/internal/tshark"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/ddsgo/ddsgo/waitset"
	"github.com/stretchr/testify/require"
)

// takeAll takes what the reader has now.
func takeAll[T any](t *testing.T, r *DataReader[T]) []T {
	t.Helper()
	data, _, err := r.Take(bg, NoWait())
	if err != nil {
		require.ErrorIs(t, err, ErrNoData)
	}
	return data
}

func TestContentFilteredTopic(t *testing.T) {
	p := testParticipant(t, nil, nil)
	tp, pub, sub := topicPubSub[message](t, p, "msgs", "test::msgs")
	cft, err := NewContentFilteredTopic("big", tp, "id > %0 AND text LIKE 'a%'", "2")
	require.NoError(t, err)
	require.Equal(t, "big", cft.Name())
	require.Same(t, tp, cft.RelatedTopic())
	require.Equal(t, "id > %0 AND text LIKE 'a%'", cft.FilterExpression())
	require.Equal(t, []string{"2"}, cft.ExpressionParameters())

	w, err := NewWriter(tp, WithPublisher(pub))
	require.NoError(t, err)
	r, err := NewFilteredReader(cft, WithSubscriber(sub), WithQos(*reliableReader()))
	require.NoError(t, err)
	require.Same(t, cft, r.cft)
	all, err := NewReader(tp, WithSubscriber(sub), WithQos(*reliableReader()))
	require.NoError(t, err)
	require.Nil(t, all.cft)

	write := func(id int32, text string) {
		t.Helper()
		require.NoError(t, w.Write(bg, &message{ID: id, Text: text}))
	}
	for i := range int32(6) {
		write(i, "abc")
	}
	write(5, "xyz")
	var ids []int32
	for _, m := range takeAll(t, r) {
		ids = append(ids, m.ID)
	}
	require.Equal(t, []int32{3, 4, 5}, ids)
	require.Len(t, takeAll(t, all), 7) // KEEP_ALL: the unfiltered reader has all

	// New parameters apply to what comes next.
	require.NoError(t, cft.SetExpressionParameters("0"))
	require.Equal(t, []string{"0"}, cft.ExpressionParameters())
	write(1, "a")
	write(0, "a")
	got := takeAll(t, r)
	require.Len(t, got, 1)
	require.Equal(t, int32(1), got[0].ID)

	// Bad values change nothing.
	require.ErrorIs(t, cft.SetExpressionParameters("'x'"), ErrBadParameter)
	require.ErrorIs(t, cft.SetExpressionParameters(), ErrBadParameter)
	require.Equal(t, []string{"0"}, cft.ExpressionParameters())

	// Disposes are not filtered.
	require.NoError(t, w.Dispose(bg, &message{ID: 0}))
	_, infos, err := r.Take(bg, NoWait())
	require.NoError(t, err)
	require.Len(t, infos, 1)
	require.Equal(t, NotAliveDisposedInstanceState, infos[0].InstanceState)

	require.NoError(t, r.Close())
	require.Empty(t, cft.readers)
}

func TestContentFilteredTopicErrors(t *testing.T) {
	p := testParticipant(t, nil, nil)
	tp, err := NewTopic[message](p, "msgs")
	require.NoError(t, err)
	for _, c := range []struct {
		expr   string
		params []string
	}{
		{"id >", nil}, {"nope = 1", nil}, {"text = 5", nil}, {"id = %0", nil}, {"id = %0", []string{"'a'"}},
	} {
		_, err := NewContentFilteredTopic("f", tp, c.expr, c.params...)
		require.ErrorIs(t, err, ErrBadParameter, c.expr)
	}
	_, err = NewContentFilteredTopic("f", tp, "nope = 1")
	require.EqualError(t, err, `dds: bad parameter: content-filtered topic f: filter "nope = 1": at 0: no member nope in dds.message`)
	_, err = NewContentFilteredTopic[message]("f", nil, "id = 1")
	require.ErrorIs(t, err, ErrBadParameter)
	_, err = NewContentFilteredTopic("", tp, "id = 1")
	require.ErrorIs(t, err, ErrBadParameter)
	_, err = NewFilteredReader[message](nil)
	require.ErrorIs(t, err, ErrBadParameter)
}

func TestQueryConditionSQL(t *testing.T) {
	p := testParticipant(t, nil, nil)
	w, r := endpoints[point](t, p, "points", nil, reliableReader())
	_, err := r.CreateQueryConditionSQL(States{}, "z = 1")
	require.ErrorIs(t, err, ErrBadParameter)
	c, err := r.CreateQueryConditionSQL(States{}, "x BETWEEN %0 AND %1", "1", "2")
	require.NoError(t, err)
	require.Equal(t, "x BETWEEN %0 AND %1", c.QueryExpression())
	require.Equal(t, []string{"1", "2"}, c.QueryParameters())
	ws := waitset.New()
	require.NoError(t, ws.AttachCondition(c))

	require.NoError(t, w.Write(bg, &point{ID: 1, X: 5}))
	require.False(t, c.TriggerValue())
	require.NoError(t, w.Write(bg, &point{ID: 2, X: 1.5}))
	require.True(t, c.TriggerValue())
	data, _, err := r.Read(bg, WithCondition(c), NoWait())
	require.NoError(t, err)
	require.Len(t, data, 1)
	require.Equal(t, int32(2), data[0].ID)

	// New parameters judge the samples again.
	require.NoError(t, c.SetQueryParameters("4", "6"))
	require.Equal(t, []string{"4", "6"}, c.QueryParameters())
	data, _, err = r.Read(bg, WithCondition(c), NoWait())
	require.NoError(t, err)
	require.Len(t, data, 1)
	require.Equal(t, int32(1), data[0].ID)
	ctx, cancel := context.WithTimeout(bg, time.Second)
	defer cancel()
	_, err = ws.Wait(ctx)
	require.NoError(t, err)

	require.ErrorIs(t, c.SetQueryParameters("'a'", "2"), ErrBadParameter)
	require.Equal(t, []string{"4", "6"}, c.QueryParameters())

	// A Go-function or read condition has no expression.
	rc, err := r.CreateReadCondition(States{})
	require.NoError(t, err)
	require.Empty(t, rc.QueryExpression())
	require.Nil(t, rc.QueryParameters())
	require.ErrorIs(t, rc.SetQueryParameters("1"), ErrPreconditionNotMet)
}

func TestFilteredDeliverAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful with the race detector")
	}
	p := testParticipant(t, nil, nil)
	tp, pub, sub := topicPubSub[point](t, p, "points", "test::points")
	cft, err := NewContentFilteredTopic("even", tp, "id BETWEEN 0 AND 10 AND x >= %0", "0")
	require.NoError(t, err)
	w, err := NewWriter(tp, WithPublisher(pub))
	require.NoError(t, err)
	r, err := NewFilteredReader(cft, WithSubscriber(sub))
	require.NoError(t, err)
	var got [1]point
	var infos [1]SampleInfo
	in, out := point{ID: 1, X: 1}, point{ID: 1, X: -1}
	for range 3 { // warm up
		require.NoError(t, w.Write(bg, &in))
		_, _ = r.TakeInto(bg, got[:], infos[:], NoWait())
	}
	n := testing.AllocsPerRun(100, func() {
		if err := w.Write(bg, &out); err != nil { // filtered out
			t.Fatal(err)
		}
		if err := w.Write(bg, &in); err != nil {
			t.Fatal(err)
		}
		if k, err := r.TakeInto(bg, got[:], infos[:], NoWait()); err != nil || k != 1 || got[0].X != 1 {
			t.Fatal(k, err, got[0])
		}
	})
	require.Zero(t, n)
}

// remoteFilter returns the content filter the engine of p knows of the remote reader of
// topic, nil when it has none or does not know the reader.
func remoteFilter(p *DomainParticipant, topic string) *wire.ContentFilterProperty {
	for _, e := range p.eng.Endpoints() {
		if !e.IsWriter() && e.TopicName == topic {
			return e.ContentFilter
		}
	}
	return nil
}

func TestContentFilterRTPS(t *testing.T) {
	pa, pb := memPair(t, 3)
	pub, ta, sub, tb := pubSub(t, pa, pb, "interop::Sample", "Sample")
	cft, err := NewContentFilteredTopic("SampleBig", tb, "id >= %0 AND values[0] < 10", "2")
	require.NoError(t, err)
	r, err := NewFilteredReader(cft, WithSubscriber(sub), WithQos(*reliableReader()))
	require.NoError(t, err)
	w, err := NewWriter(ta, WithPublisher(pub), KeepAll())
	require.NoError(t, err)
	waitStatus(t, w, listener.PublicationMatched)

	// The reader announces its filter on the related topic's name.
	require.Eventually(t, func() bool { return remoteFilter(pa, "Sample") != nil }, 10*time.Second, 5*time.Millisecond)
	require.Equal(t, &wire.ContentFilterProperty{
		ContentFilteredTopicName: "SampleBig", RelatedTopicName: "Sample", FilterClassName: "DDSSQL",
		FilterExpression: "id >= %0 AND values[0] < 10", ExpressionParameters: []string{"2"},
	}, remoteFilter(pa, "Sample"))

	for i := range int32(5) {
		require.NoError(t, w.Write(bg, &message{ID: i, Values: []float64{float64(i)}, Seq: 1}))
	}
	require.NoError(t, w.Write(bg, &message{ID: 3, Values: []float64{10}, Seq: 2}))
	require.NoError(t, w.Write(bg, &message{ID: 4, Seq: 3})) // no values[0]: out
	require.NoError(t, w.Write(bg, &message{ID: 4, Values: []float64{-1}, Seq: 4}))
	require.NoError(t, w.WaitForAcknowledgments(bg))
	var got []message
	require.Eventually(t, func() bool {
		got = append(got, takeAll(t, r)...)
		return len(got) >= 4
	}, 10*time.Second, 5*time.Millisecond)
	var ids, seqs []int64
	for _, m := range got {
		ids, seqs = append(ids, int64(m.ID)), append(seqs, int64(m.Seq))
	}
	require.Equal(t, []int64{2, 3, 4, 4}, ids)
	require.Equal(t, []int64{1, 1, 1, 4}, seqs)

	// New parameters are announced.
	require.NoError(t, cft.SetExpressionParameters("4"))
	require.Eventually(t, func() bool {
		f := remoteFilter(pa, "Sample")
		return f != nil && len(f.ExpressionParameters) == 1 && f.ExpressionParameters[0] == "4"
	}, 10*time.Second, 5*time.Millisecond)
}

func TestWriterSideFilter(t *testing.T) {
	pa, pb := memPair(t, 5)
	pub, ta, sub, tb := pubSub(t, pa, pb, "interop::Sample", "Sample")
	w, err := NewWriter(ta, WithPublisher(pub), TransientLocal(), KeepAll())
	require.NoError(t, err)
	for i := range int32(6) { // history for the late joiner
		require.NoError(t, w.Write(bg, &message{ID: i, Seq: 1}))
	}
	cft, err := NewContentFilteredTopic("SampleBig", tb, "id >= 3")
	require.NoError(t, err)
	rq := reliableReader()
	rq.Durability.Kind = qos.TransientLocal
	rf, err := NewFilteredReader(cft, WithSubscriber(sub), WithQos(*rq))
	require.NoError(t, err)
	ra, err := NewReader(tb, WithSubscriber(sub), WithQos(*reliableReader()))
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		ms, err := w.PublicationMatchedStatus()
		return err == nil && ms.CurrentCount == 2
	}, 10*time.Second, 5*time.Millisecond)
	for i := range int32(6) {
		require.NoError(t, w.Write(bg, &message{ID: i, Seq: 2}))
	}
	require.NoError(t, w.WaitForAcknowledgments(bg))

	var got, all []message
	require.Eventually(t, func() bool {
		got = append(got, takeAll(t, rf)...)
		all = append(all, takeAll(t, ra)...)
		return len(got) >= 6 && len(all) >= 6
	}, 10*time.Second, 5*time.Millisecond)
	for _, m := range got {
		require.GreaterOrEqual(t, m.ID, int32(3), "%v", got)
	}
	require.Len(t, got, 6) // 3, 4, 5 of the history and of the new writes
	require.Len(t, all, 6) // the unfiltered volatile reader: the new writes
	// The writer filtered: the filtered reader's engine got only what passes, and
	// GAPs for the rest, which are not losses.
	ew := w.ew.(*discovery.LocalWriter).Writer()
	require.Positive(t, ew.Stats().GapsSent)
	er := rf.er.(*discovery.LocalReader).Reader()
	require.Equal(t, uint64(6), er.Stats().Delivered)
	lost, err := rf.SampleLostStatus()
	require.NoError(t, err)
	require.Zero(t, lost.TotalCount)
	require.Equal(t, uint64(6), ra.er.(*discovery.LocalReader).Reader().Stats().Delivered)

	// New parameters reach the writer, which filters with them.
	require.NoError(t, cft.SetExpressionParameters()) // no parameters: same filter, re-announced
	cft2, err := NewContentFilteredTopic("SampleOne", tb, "id = %0", "1")
	require.NoError(t, err)
	r1, err := NewFilteredReader(cft2, WithSubscriber(sub), WithQos(*reliableReader()))
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		ms, err := w.PublicationMatchedStatus()
		return err == nil && ms.CurrentCount == 3
	}, 10*time.Second, 5*time.Millisecond)
	require.NoError(t, cft2.SetExpressionParameters("2"))
	require.Eventually(t, func() bool {
		for _, e := range pa.eng.Endpoints() {
			if f := e.ContentFilter; f != nil && f.ContentFilteredTopicName == "SampleOne" {
				return f.ExpressionParameters[0] == "2"
			}
		}
		return false
	}, 10*time.Second, 5*time.Millisecond)
	er1 := r1.er.(*discovery.LocalReader).Reader()
	d0 := er1.Stats().Delivered
	for range 5 {
		require.NoError(t, w.Write(bg, &message{ID: 1, Seq: 3}))
		require.NoError(t, w.Write(bg, &message{ID: 2, Seq: 3}))
	}
	require.NoError(t, w.WaitForAcknowledgments(bg))
	require.Eventually(t, func() bool { return er1.Stats().Delivered-d0 >= 5 }, 10*time.Second, 5*time.Millisecond)
	require.Equal(t, uint64(5), er1.Stats().Delivered-d0, "only the writes of id 2 were sent")
	for _, m := range takeAll(t, r1) {
		if m.Seq == 3 {
			require.Equal(t, int32(2), m.ID)
		}
	}
}

// TestWiresharkDecodesFilteredTraffic has Wireshark decode what a filtered reader
// announces (PID_CONTENT_FILTER_PROPERTY) and what a writer sends it (directed DATA
// and GAPs of filtered-out changes): no malformed packet, no expert warning.
func TestWiresharkDecodesFilteredTraffic(t *testing.T) {
	if !tshark.Available() {
		t.Skip("tshark not installed")
	}
	pa, pb, end := tappedPair(t, 4)
	pub, ta, sub, tb := pubSub(t, pa, pb, "interop::Sample", "Sample")
	w, err := NewWriter(ta, WithPublisher(pub), KeepAll())
	require.NoError(t, err)
	cft, err := NewContentFilteredTopic("SampleOdd", tb, "id BETWEEN %0 AND %1 AND text LIKE 'a%'", "1", "3")
	require.NoError(t, err)
	r, err := NewFilteredReader(cft, WithSubscriber(sub), WithQos(*reliableReader()))
	require.NoError(t, err)
	waitStatus(t, w, listener.PublicationMatched)
	require.Eventually(t, func() bool { return remoteFilter(pa, "Sample") != nil }, 10*time.Second, 5*time.Millisecond)
	for i := range int32(5) {
		require.NoError(t, w.Write(bg, &message{ID: i, Text: "abc"}))
	}
	require.NoError(t, w.WaitForAcknowledgments(bg))
	require.Eventually(t, func() bool { return r.er.(*discovery.LocalReader).Reader().Stats().Delivered == 3 },
		10*time.Second, 5*time.Millisecond)
	tshark.CheckDatagrams(t, end())
}
