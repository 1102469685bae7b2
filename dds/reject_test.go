package dds

import (
	"context"
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/internal/discovery"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/stretchr/testify/require"
)

// TestRejectedSamplesResent: a reliable KEEP_ALL reader whose cache holds 2 samples
// rejects the rest of what a reliable KEEP_ALL writer sends, without acknowledging it;
// each take makes room and asks for it again, so that every sample arrives exactly once
// and in order.
func TestRejectedSamplesResent(t *testing.T) {
	rq := reliableReader()
	rq.ResourceLimits.MaxSamples = 2
	w, r := matchedPair(t, 3, []Option{Reliable(), KeepAll()}, []Option{WithQos(*rq)})

	const total = 10
	for i := range total {
		require.NoError(t, w.Write(bg, &message{ID: 1, Text: "x", Seq: uint64(i)}))
	}
	// The cache fills up before anything is taken.
	waitStatus(t, r, listener.SampleRejected)
	rs, err := r.SampleRejectedStatus()
	require.NoError(t, err)
	require.Positive(t, rs.TotalCount)

	var got []uint64
	data := make([]message, 2)
	infos := make([]SampleInfo, 2)
	deadline := time.Now().Add(20 * time.Second)
	for len(got) < total {
		require.True(t, time.Now().Before(deadline), "got %v", got)
		c, err := r.TakeInto(bg, data, infos, NoWait())
		if err != nil {
			require.ErrorIs(t, err, ErrNoData)
			time.Sleep(2 * time.Millisecond)
			continue
		}
		for i := range c {
			require.True(t, infos[i].ValidData)
			got = append(got, data[i].Seq)
		}
	}
	want := make([]uint64, total)
	for i := range want {
		want[i] = uint64(i)
	}
	require.Equal(t, want, got)
	// Each sample beyond the first two was rejected at most once as far as the status
	// tells, however often it was resent and refused.
	rs, err = r.SampleRejectedStatus()
	require.NoError(t, err)
	require.LessOrEqual(t, rs.TotalCount, int32(total-2))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, w.WaitForAcknowledgments(ctx), "the writer's samples are all acknowledged")
	time.Sleep(50 * time.Millisecond)
	_, err = r.TakeInto(bg, data, infos, NoWait())
	require.ErrorIs(t, err, ErrNoData, "nothing is delivered twice")
	st := r.er.(*discovery.LocalReader).Reader().Stats()
	require.Equal(t, uint64(total), st.Delivered)
	require.Positive(t, st.Refused)
}

// TestRejectedRetry: a take that makes room after a rejection asks the engine reader to
// retry, once.
func TestRejectedRetry(t *testing.T) {
	p := testParticipant(t, nil, nil)
	rq := reliableReader()
	rq.ResourceLimits.MaxSamples = 1
	w, r := endpoints[point](t, p, "retry", nil, rq)
	fr := r.er.(*fakeReader)
	require.NoError(t, w.Write(bg, &point{ID: 1}))
	require.NoError(t, w.Write(bg, &point{ID: 2}))
	require.Zero(t, fr.retries.Load())
	_, _, err := r.Take(bg, NoWait())
	require.NoError(t, err)
	require.Equal(t, int32(1), fr.retries.Load())
	_, _, err = r.Take(bg, NoWait())
	require.ErrorIs(t, err, ErrNoData)
	require.Equal(t, int32(1), fr.retries.Load())
}

// matchedPair returns a writer and a reader of the same topic in two participants with
// the real engine on memnet (seed), created with the options given, once they match.
func matchedPair(t *testing.T, seed uint64, wopts, ropts []Option) (*DataWriter[message], *DataReader[message]) {
	t.Helper()
	pa, pb := memPair(t, seed)
	pub, ta, sub, tb := pubSub(t, pa, pb, "test::Pair", "Pair")
	w, err := NewWriter(ta, append([]Option{WithPublisher(pub)}, wopts...)...)
	require.NoError(t, err)
	r, err := NewReader(tb, append([]Option{WithSubscriber(sub)}, ropts...)...)
	require.NoError(t, err)
	waitStatus(t, w, listener.PublicationMatched)
	waitStatus(t, r, listener.SubscriptionMatched)
	return w, r
}
