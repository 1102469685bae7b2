package dds

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestReaderPolicyChanges: TIME_BASED_FILTER and READER_DATA_LIFECYCLE may change on an
// enabled reader (DDS 1.4 §2.2.3), and SetQos applies them at once, on a virtual clock:
// a filter set holds from the next sample and one cleared lets every sample through; an
// autopurge delay set purges a disposed instance that was already waiting.
func TestReaderPolicyChanges(t *testing.T) {
	clk := newFakeClock()
	p, err := NewParticipant(0, withEngine((&fakeNet{}).factory()), withClock(clk))
	require.NoError(t, err)
	defer func() { require.NoError(t, p.Close()) }()
	topic, err := NewTopic[message](p, "changes")
	require.NoError(t, err)
	w, err := NewWriter(topic, Reliable(), KeepAll())
	require.NoError(t, err)
	r, err := NewReader(topic, Reliable(), KeepAll())
	require.NoError(t, err)
	write := func(seqs ...uint64) {
		for _, s := range seqs {
			require.NoError(t, w.Write(bg, &message{ID: 1, Seq: s}))
		}
	}
	take := func() (seqs []uint64) {
		data, infos, err := r.Take(bg, NoWait())
		require.NoError(t, err)
		for i := range data {
			if infos[i].ValidData {
				seqs = append(seqs, data[i].Seq)
			}
		}
		return seqs
	}

	write(1)
	require.Equal(t, []uint64{1}, take())
	q := r.Qos()
	q.TimeBasedFilter.MinimumSeparation = time.Second
	require.NoError(t, r.SetQos(q))
	write(2)
	clk.Advance(time.Second)
	write(3, 4)
	require.Equal(t, []uint64{3}, take(), "a second apart")
	q.TimeBasedFilter.MinimumSeparation = 0
	require.NoError(t, r.SetQos(q))
	write(5, 6)
	require.Equal(t, []uint64{5, 6}, take())

	require.NoError(t, w.Dispose(bg, &message{ID: 1}))
	_, infos, err := r.Read(bg, NoWait())
	require.NoError(t, err)
	require.Len(t, infos, 1)
	require.Equal(t, NotAliveDisposedInstanceState, infos[0].InstanceState)
	clk.Advance(time.Minute) // INFINITE: nothing is purged
	_, _, err = r.Read(bg, NoWait())
	require.NoError(t, err)
	q.ReaderDataLifecycle.AutopurgeDisposedSamplesDelay = 100 * time.Millisecond
	require.NoError(t, r.SetQos(q))
	_, _, err = r.Read(bg, NoWait())
	require.ErrorIs(t, err, ErrNoData, "disposed a minute ago: purged at the change")
}
