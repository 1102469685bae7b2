package dds

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/qos"
)

// TestTransientCoherentLateJoiner: the data a deleted TRANSIENT writer of a coherent
// publisher leaves with the durability service keeps its sets whole for late joiners:
// the end of each set is a change of the history the service keeps (not only of the
// writer's), so a coherent late joiner gets every set the service still holds, whole.
func TestTransientCoherentLateJoiner(t *testing.T) {
	for _, tc := range []struct {
		name  string
		depth int32
		want  map[uint64]int // set -> samples
	}{
		{"all sets kept", 3, map[uint64]int{0: 3, 1: 3, 2: 3}},
		{"last set kept", 1, map[uint64]int{2: 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			add := durableNet(t)
			pa, pb := add(), add()
			tt, err := newTopicType[message]("test::Durable")
			require.NoError(t, err)
			ta, err := createTopic(pa, "TransientCoherent", tt)
			require.NoError(t, err)
			tb, err := createTopic(pb, "TransientCoherent", tt)
			require.NoError(t, err)
			pq := qos.DefaultPublisherQos()
			pq.Presentation = qos.Presentation{AccessScope: qos.TopicScope, CoherentAccess: true}
			pub, err := pa.NewPublisher(WithQos(pq))
			require.NoError(t, err)
			wq := durableWriterQos(qos.Transient, tc.depth)
			wq.History = qos.History{Kind: qos.KeepAll}
			w, err := NewWriter(ta, WithPublisher(pub), WithQos(wq))
			require.NoError(t, err)
			for set := range uint64(3) {
				require.NoError(t, pub.BeginCoherentChanges())
				for id := range int32(3) {
					require.NoError(t, w.Write(bg, &message{ID: id, Seq: set}))
				}
				require.NoError(t, pub.EndCoherentChanges())
			}
			require.NoError(t, w.Close())

			sq := qos.DefaultSubscriberQos()
			sq.Presentation = pq.Presentation
			sub, err := pb.NewSubscriber(WithQos(sq))
			require.NoError(t, err)
			rq := reliableReader()
			rq.Durability.Kind = qos.Transient
			r, err := NewReader(tb, WithSubscriber(sub), WithQos(*rq))
			require.NoError(t, err)
			got := map[uint64]int{}
			ctx, cancel := context.WithTimeout(bg, 10*time.Second)
			defer cancel()
			total := 0
			for _, n := range tc.want {
				total += n
			}
			for n := 0; n < total; {
				data, infos, err := r.Take(ctx)
				require.NoError(t, err, "got %v of %v", got, tc.want)
				for i := range data {
					if infos[i].ValidData {
						got[data[i].Seq]++
						n++
					}
				}
			}
			require.Equal(t, tc.want, got)
			st, err := r.SampleLostStatus()
			require.NoError(t, err)
			require.Zero(t, st.TotalCount, "no set was dropped")
		})
	}
}
