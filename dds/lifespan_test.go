package dds

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/discovery"
	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
)

// TestWriterLifespan: on the real engine, a transient-local writer drops from its
// history the samples whose source timestamp plus LIFESPAN has passed: a late-joining
// transient-local reliable reader receives only the others, the expired ones never
// reach it (its engine delivers one sample), and it counts none of them lost.
func TestWriterLifespan(t *testing.T) {
	pa, pb := memPair(t, 3)
	pub, ta, sub, tb := pubSub(t, pa, pb, "interop::Sample", "Lifespan")
	w, err := NewWriter(ta, WithPublisher(pub), TransientLocal(), KeepLast(10), Lifespan(time.Hour))
	require.NoError(t, err)
	old := time.Now().Add(-2 * time.Hour)
	for i := range 2 {
		require.NoError(t, w.Write(bg, &message{ID: int32(i), Text: "expired"}, Timestamp(old)))
	}
	require.NoError(t, w.Write(bg, &message{ID: 2, Text: "alive"}))
	ew := w.ew.(*discovery.LocalWriter).Writer()
	require.Eventually(t, func() bool { return ew.HistoryLen() == 1 }, 10*time.Second, time.Millisecond,
		"the engine's timer expires the samples")
	require.Equal(t, uint64(2), ew.Stats().Expired)

	rq := reliableReader()
	rq.Durability.Kind = qos.TransientLocal
	r, err := NewReader(tb, WithSubscriber(sub), WithQos(*rq))
	require.NoError(t, err)
	waitStatus(t, w, listener.PublicationMatched)
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	defer cancel()
	var got []message
	for len(got) == 0 {
		data, _, err := r.Take(ctx)
		require.NoError(t, err)
		got = append(got, data...)
	}
	require.Equal(t, []message{{ID: 2, Text: "alive"}}, got)
	require.NoError(t, w.WaitForAcknowledgments(ctx))
	er := r.er.(*discovery.LocalReader).Reader()
	require.Equal(t, uint64(1), er.Stats().Delivered, "the expired samples were not sent")
	lost, err := r.SampleLostStatus()
	require.NoError(t, err)
	require.Zero(t, lost.TotalCount, "a late joiner has lost nothing that expired before it joined")

	// SetQos: the samples written from then on have the new lifespan, infinite here.
	wq := w.Qos()
	wq.Lifespan.Duration = qos.Infinite
	require.NoError(t, w.SetQos(wq))
	require.NoError(t, w.Write(bg, &message{ID: 3, Text: "kept"}, Timestamp(old)))
	require.NoError(t, w.Write(bg, &message{ID: 4, Text: "kept"})) // expiry runs before a write
	require.Equal(t, 3, ew.HistoryLen())
	require.Equal(t, uint64(2), ew.Stats().Expired)
}

// TestSampleLostAlone: losses the engine reports without a sample (a GAP or HEARTBEAT
// after the writer's last sample) count in SAMPLE_LOST and deliver nothing.
func TestSampleLostAlone(t *testing.T) {
	p := testParticipant(t, nil, nil)
	w, r := endpoints[message](t, p, "lost", nil, reliableReader())
	require.True(t, r.deliver(&rtps.Sample{Writer: w.ew.GUID(), Lost: 3, LostOnly: true}))
	st, err := r.SampleLostStatus()
	require.NoError(t, err)
	require.Equal(t, listener.SampleLostStatus{TotalCount: 3, TotalCountChange: 3}, st)
	_, _, err = r.Take(bg, NoWait())
	require.ErrorIs(t, err, ErrNoData)
}

// TestLifespanChangeReachesReader: a writer's new LIFESPAN reaches the readers already
// matched with its SEDP re-announcement. Under a lifespan of an hour, a sample stamped
// two hours ago is dropped by the reader (it still goes out once: it was written to a
// matched reader); once the reader has the writer's new announcement (infinite), the
// same sample is kept.
func TestLifespanChangeReachesReader(t *testing.T) {
	pa, pb := memPair(t, 5)
	pub, ta, sub, tb := pubSub(t, pa, pb, "interop::Sample", "LifespanChange")
	w, err := NewWriter(ta, WithPublisher(pub), Reliable(), KeepAll(), Lifespan(time.Hour))
	require.NoError(t, err)
	r, err := NewReader(tb, WithSubscriber(sub), WithQos(*reliableReader()))
	require.NoError(t, err)
	waitStatus(t, w, listener.PublicationMatched)
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	defer cancel()
	old := time.Now().Add(-2 * time.Hour)
	require.NoError(t, w.Write(bg, &message{ID: 1, Text: "expired"}, Timestamp(old)))
	require.NoError(t, w.Write(bg, &message{ID: 2, Text: "fresh"}))
	data, _, err := r.Take(ctx)
	require.NoError(t, err)
	require.Equal(t, []message{{ID: 2, Text: "fresh"}}, data)

	wq := w.Qos()
	wq.Lifespan.Duration = qos.Infinite
	require.NoError(t, w.SetQos(wq))
	require.Eventually(t, func() bool {
		pubs, err := pb.DiscoveredPublications()
		return err == nil && len(pubs) == 1 && pubs[0].Offered.Writer.Lifespan.Duration == qos.Infinite
	}, 10*time.Second, time.Millisecond, "the reader's participant has the new announcement")
	require.NoError(t, w.Write(bg, &message{ID: 3, Text: "kept"}, Timestamp(old)))
	data, _, err = r.Take(ctx)
	require.NoError(t, err)
	require.Equal(t, []message{{ID: 3, Text: "kept"}}, data)
}
