package dds

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/discovery"
	"github.com/ddsgo/ddsgo/internal/netns"
	irtps "github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/ddsgo/ddsgo/rtps"
)

// Same-process delivery (internal/rtps/local.go) between participants of one process
// on real sockets. Each test has its domain: participants of one domain meet.
const (
	localDomain      = 206
	localBlockDomain = 207
	localLateDomain  = 208
)

func localParticipant(t *testing.T, domain int) *DomainParticipant {
	t.Helper()
	p, err := NewParticipant(domain, WithRTPS(rtps.Config{
		Interfaces: []string{"127.0.0.1"}, Peers: []string{"127.0.0.1"}, DisableMulticast: true,
	}))
	require.NoError(t, err)
	t.Cleanup(func() { _ = p.Close() })
	return p
}

// localPairOn makes a writer with wq in one participant and a reader with rq in
// another of the same process, on topic "local", and waits until both matched.
func localPairOn(ctx context.Context, t *testing.T, domain int, wq qos.DataWriterQos, rq qos.DataReaderQos) (*DataWriter[message], *DataReader[message], *DomainParticipant) {
	t.Helper()
	pw, pr := localParticipant(t, domain), localParticipant(t, domain)
	tw, err := NewTopic[message](pw, "local")
	require.NoError(t, err)
	tr, err := NewTopic[message](pr, "local")
	require.NoError(t, err)
	w, err := NewWriter(tw, WithQos(wq))
	require.NoError(t, err)
	r, err := NewReader(tr, WithQos(rq))
	require.NoError(t, err)
	waitPairMatched(ctx, t, w, r)
	return w, r, pw
}

func rtpsWriterOf(w *DataWriter[message]) *irtps.Writer {
	return w.ew.(*discovery.LocalWriter).Writer()
}

// takeValid takes n valid samples from r (in order), failing at ctx's end.
func takeValid(ctx context.Context, t *testing.T, r *DataReader[message], n int) []message {
	t.Helper()
	var got []message
	for len(got) < n {
		data, info, err := r.Take(ctx)
		require.NoError(t, err, "%d of %d samples", len(got), n)
		for i := range data {
			if info[i].ValidData {
				got = append(got, data[i])
			}
		}
	}
	return got
}

// requireInOrder requires that got holds seqs 0 to n-1, each instance's in order (a
// take returns instance by instance).
func requireInOrder(t *testing.T, got []message, n int) {
	t.Helper()
	require.Len(t, got, n)
	last := map[int32]uint64{}
	seen := map[uint64]bool{}
	for _, m := range got {
		if l, ok := last[m.ID]; ok {
			require.Greater(t, m.Seq, l, "instance %d", m.ID)
		}
		last[m.ID] = m.Seq
		seen[m.Seq] = true
	}
	for i := range n {
		require.True(t, seen[uint64(i)], "seq %d", i)
	}
}

// TestSameProcessDelivery: two participants of one process exchange 1000 keyed
// reliable samples and a dispose with no user DATA on the wire; the statuses are
// those of the wire path (matched, nothing lost or rejected).
func TestSameProcessDelivery(t *testing.T) {
	netns.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	wq := qos.DefaultDataWriterQos()
	wq.History = qos.History{Kind: qos.KeepAll}
	rq := reliableReader()
	rq.History = qos.History{Kind: qos.KeepAll}
	w, r, pw := localPairOn(ctx, t, localDomain, wq, *rq)
	ew := rtpsWriterOf(w)
	sentBefore := pw.Statistics().Sent
	const n = 1000
	for i := range n {
		require.NoError(t, w.Write(ctx, &message{ID: int32(i % 10), Seq: uint64(i)}))
	}
	requireInOrder(t, takeValid(ctx, t, r, n), n)
	require.NoError(t, w.Dispose(ctx, &message{ID: 3}))
	for disposed := false; !disposed; {
		_, info, err := r.Take(ctx)
		require.NoError(t, err)
		for _, in := range info {
			disposed = disposed || in.InstanceState == NotAliveDisposedInstanceState
		}
	}
	require.NoError(t, w.WaitForAcknowledgments(ctx))

	st := ew.Stats()
	require.Zero(t, st.DataSent+st.DataFragSent+st.Retransmits, "user DATA on the wire")
	sent := pw.Statistics().Sent - sentBefore
	t.Logf("writer's participant sent %d datagrams during %d samples", sent, n+1)
	require.Less(t, sent, uint64(100), "datagrams: discovery's only")

	pm, err := w.PublicationMatchedStatus()
	require.NoError(t, err)
	require.Equal(t, int32(1), pm.TotalCount)
	sm, err := r.SubscriptionMatchedStatus()
	require.NoError(t, err)
	require.Equal(t, int32(1), sm.TotalCount)
	lost, err := r.SampleLostStatus()
	require.NoError(t, err)
	require.Zero(t, lost.TotalCount)
	rej, err := r.SampleRejectedStatus()
	require.NoError(t, err)
	require.Zero(t, rej.TotalCount)
}

// TestSameProcessKeepAllBlocks: a KEEP_ALL writer whose same-process reader has no
// room blocks up to max_blocking_time and then fails with ErrTimeout, as on the wire;
// once the reader takes, the samples it refused come (by the wire path) and writes
// go on.
func TestSameProcessKeepAllBlocks(t *testing.T) {
	netns.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	wq := qos.DefaultDataWriterQos()
	wq.History = qos.History{Kind: qos.KeepAll}
	wq.ResourceLimits.MaxSamples = 4
	wq.Reliability.MaxBlockingTime = 50 * time.Millisecond
	rq := reliableReader()
	rq.History = qos.History{Kind: qos.KeepAll}
	rq.ResourceLimits.MaxSamples = 4
	w, r, _ := localPairOn(ctx, t, localBlockDomain, wq, *rq)
	seq := uint64(0)
	var err error
	for ; seq < 100; seq++ {
		if err = w.Write(ctx, &message{ID: 1, Seq: seq}); err != nil {
			break
		}
	}
	require.ErrorIs(t, err, ErrTimeout)
	require.Equal(t, uint64(8), seq, "4 in the reader, 4 in the writer's history")
	got := takeValid(ctx, t, r, int(seq))
	for ; seq < 20; seq++ {
		require.NoError(t, w.Write(ctx, &message{ID: 1, Seq: seq}))
		got = append(got, takeValid(ctx, t, r, 1)...)
	}
	for i, m := range got {
		require.Equal(t, uint64(i), m.Seq)
	}
	rej, err := r.SampleRejectedStatus()
	require.NoError(t, err)
	require.Positive(t, rej.TotalCount, "the reader refused for lack of room")
	lost, err := r.SampleLostStatus()
	require.NoError(t, err)
	require.Zero(t, lost.TotalCount)
}

// TestSameProcessLateJoiner: a transient-local writer's history reaches a reader of
// another participant of the process created after the writes; later writes follow.
func TestSameProcessLateJoiner(t *testing.T) {
	netns.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	pw, pr := localParticipant(t, localLateDomain), localParticipant(t, localLateDomain)
	tw, err := NewTopic[message](pw, "late")
	require.NoError(t, err)
	tr, err := NewTopic[message](pr, "late")
	require.NoError(t, err)
	wq := durableWriterQos(qos.TransientLocal, 5)
	wq.History = qos.History{Kind: qos.KeepLast, Depth: 5}
	w, err := NewWriter(tw, WithQos(wq))
	require.NoError(t, err)
	for i := range 8 {
		require.NoError(t, w.Write(ctx, &message{ID: int32(i % 2), Seq: uint64(i)}))
	}
	rq := reliableReader()
	rq.Durability.Kind = qos.TransientLocal
	rq.History = qos.History{Kind: qos.KeepAll}
	r, err := NewReader(tr, WithQos(*rq))
	require.NoError(t, err)
	got := takeValid(ctx, t, r, 8) // KEEP_LAST 5 per instance: all 8 kept
	require.NoError(t, w.Write(ctx, &message{ID: 1, Seq: 8}))
	got = append(got, takeValid(ctx, t, r, 1)...)
	requireInOrder(t, got, 9)
}
