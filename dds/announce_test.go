package dds

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestAnnouncedDataChanges: a participant's USER_DATA and a topic's TOPIC_DATA may
// change once enabled (DDS 1.4 §2.2.3). SetQos announces them at once, and the other
// participant sees the new values in its discovered data and its built-in
// DCPSParticipant reader.
func TestAnnouncedDataChanges(t *testing.T) {
	add := durableNet(t)
	pa, pb := add(), add()
	tt, err := newTopicType[message]("test::Announced")
	require.NoError(t, err)
	ta, err := createTopic(pa, "Announced", tt)
	require.NoError(t, err)
	_, err = NewWriter(ta)
	require.NoError(t, err)
	_, err = NewReader(ta)
	require.NoError(t, err)
	builtin, err := pb.BuiltinSubscriber()
	require.NoError(t, err)
	parts := builtin.LookupDataReader("DCPSParticipant").(*DataReader[ParticipantBuiltinTopicData])

	var h InstanceHandle
	require.Eventually(t, func() bool {
		hs, err := pb.DiscoveredParticipants()
		if err != nil || len(hs) != 1 {
			return false
		}
		h = hs[0]
		return true
	}, 10*time.Second, time.Millisecond)
	pq := pa.Qos()
	pq.UserData.Value = []byte("v2")
	require.NoError(t, pa.SetQos(pq))
	require.Eventually(t, func() bool {
		d, err := pb.DiscoveredParticipantData(h)
		return err == nil && bytes.Equal(d.UserData, []byte("v2"))
	}, 10*time.Second, time.Millisecond, "the discovered participant data")
	seen := false
	for !seen {
		ds, _, err := parts.Take(bg, NoWait())
		require.NoError(t, err, "the built-in reader has the new value")
		for _, d := range ds {
			seen = seen || d.Key == h && bytes.Equal(d.UserData, []byte("v2"))
		}
	}

	tq := ta.Qos()
	tq.TopicData.Value = []byte("td2")
	require.NoError(t, ta.SetQos(tq))
	require.Eventually(t, func() bool {
		pubs, err := pb.DiscoveredPublications()
		require.NoError(t, err)
		subs, err := pb.DiscoveredSubscriptions()
		require.NoError(t, err)
		n := 0
		for _, d := range append(pubs, subs...) {
			if d.TopicName == "Announced" && (bytes.Equal(d.Offered.TopicData.Value, []byte("td2")) ||
				bytes.Equal(d.Requested.TopicData.Value, []byte("td2"))) {
				n++
			}
		}
		return n == 2
	}, 10*time.Second, time.Millisecond, "the writer and the reader announce the new TOPIC_DATA")
}
