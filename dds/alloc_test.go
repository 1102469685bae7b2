package dds

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/qos"
)

// writeTakeAllocs returns the allocations of a write on w followed by a take of that
// sample from r, once warm.
func writeTakeAllocs(t *testing.T, w *DataWriter[point], r *DataReader[point]) float64 {
	t.Helper()
	data, infos := make([]point, 8), make([]SampleInfo, 8)
	v := point{ID: 1}
	step := func() {
		v.X++
		if err := w.Write(bg, &v); err != nil {
			t.Fatal(err)
		}
		if n, err := r.TakeInto(bg, data, infos, NoWait()); err != nil || n != 1 {
			t.Fatal(n, err)
		}
	}
	for range 100 {
		step()
	}
	return testing.AllocsPerRun(1000, step)
}

func TestWriteTakeAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful with the race detector")
	}
	p := testParticipant(t, nil, nil)
	w, r := endpoints[point](t, p, "points", nil, reliableReader())
	require.Zero(t, writeTakeAllocs(t, w, r), "write, loopback delivery and take")
	v := point{ID: 1}

	// A KEEP_LAST 1 reader drops the older samples: write alone.
	w2, _ := endpoints[point](t, p, "keep_last", nil, nil)
	require.NoError(t, w2.Write(bg, &v))
	allocs := testing.AllocsPerRun(1000, func() {
		v.X++
		if err := w2.Write(bg, &v); err != nil {
			t.Fatal(err)
		}
	})
	require.Zero(t, allocs, "write and loopback delivery")
}

// blob is a sample with a sequence, like ddsping's.
type blob struct {
	ID      int32 `dds:"key"`
	Payload []byte
}

// Values given back with ReturnLoan are decoded into again, so that taking samples with
// sequences allocates nothing once the loop runs; the samples stay correct whatever the
// sizes of the recycled slices.
func TestReturnLoanReusesSequences(t *testing.T) {
	p := testParticipant(t, nil, nil)
	w, r := endpoints[blob](t, p, "blobs", nil, reliableReader())
	data := make([]blob, 4)
	infos := make([]SampleInfo, 4)
	src := make([]byte, 4096)
	for i := range src {
		src[i] = byte(i)
	}
	for i, n := range []int{4096, 10, 0, 3000, 4096, 1} {
		v := blob{ID: int32(i), Payload: src[:n]}
		require.NoError(t, w.Write(bg, &v))
		k, err := r.TakeInto(bg, data, infos, NoWait())
		require.NoError(t, err)
		require.Equal(t, 1, k)
		require.Equal(t, int32(i), data[0].ID)
		require.Len(t, data[0].Payload, n)
		require.Equal(t, src[:n], data[0].Payload)
		require.NoError(t, r.ReturnLoan(data[:k]))
		require.Zero(t, data[0], "ReturnLoan clears what it takes back")
	}
	if raceEnabled {
		return // allocation counts are not meaningful with the race detector
	}
	v := blob{ID: 1, Payload: src}
	allocs := testing.AllocsPerRun(1000, func() {
		v.Payload[0]++
		if err := w.Write(bg, &v); err != nil {
			t.Fatal(err)
		}
		n, err := r.TakeInto(bg, data, infos, NoWait())
		if err != nil || n != 1 || data[0].Payload[0] != v.Payload[0] {
			t.Fatal(n, err)
		}
		if err := r.ReturnLoan(data[:n]); err != nil {
			t.Fatal(err)
		}
	})
	require.Zero(t, allocs, "write, delivery, take and ReturnLoan of a 4 KiB sequence")
}

// A burst of more samples than a reader or writer keeps by count (64) allocates nothing
// either: the reader keeps as many values as one ReturnLoan gave back, and the writer as
// many payload buffers as fit in poolBytes. A subscriber that takes 256 samples at a time
// allocated a sequence for three in four of them, and a publisher whose flow-control
// window was acknowledged by the hundred allocated and grew a new buffer per write.
func TestBurstTakeAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful with the race detector")
	}
	const burst = 200
	p := testParticipant(t, nil, nil)
	rq := reliableReader()
	rq.History = qos.History{Kind: qos.KeepAll}
	w, r := endpoints[blob](t, p, "burst", nil, rq)
	data, infos := make([]blob, burst), make([]SampleInfo, burst)
	v := blob{ID: 1, Payload: make([]byte, 1024)}
	step := func() {
		for range burst {
			v.Payload[0]++
			if err := w.Write(bg, &v); err != nil {
				t.Fatal(err)
			}
		}
		n, err := r.TakeInto(bg, data, infos, NoWait())
		if err != nil || n != burst || data[n-1].Payload[0] != v.Payload[0] {
			t.Fatal(n, err)
		}
		if err := r.ReturnLoan(data[:n]); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		step()
	}
	require.Zero(t, testing.AllocsPerRun(20, step), "bursts of %d 1 KiB samples written, taken at once and given back", burst)
}

// ReturnLoan takes back at most the values takes returned: values of a read (still in
// the cache) are refused with ErrPreconditionNotMet and not reused, so the cached sample
// keeps its data.
func TestReturnLoanRefusesReadValues(t *testing.T) {
	p := testParticipant(t, nil, nil)
	w, r := endpoints[blob](t, p, "loans", nil, reliableReader())
	require.NoError(t, w.Write(bg, &blob{ID: 1, Payload: []byte{1, 2, 3}}))
	data := make([]blob, 2)
	infos := make([]SampleInfo, 2)
	n, err := r.ReadInto(bg, data, infos, NoWait())
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.ErrorIs(t, r.ReturnLoan(data[:n]), ErrPreconditionNotMet)
	require.Equal(t, []byte{1, 2, 3}, data[0].Payload, "a refused loan is left alone")
	require.NoError(t, r.ReturnLoan(nil))

	require.NoError(t, w.Write(bg, &blob{ID: 2, Payload: []byte{4, 5}}))
	n, err = r.TakeInto(bg, data, infos, NoWait())
	require.NoError(t, err)
	require.Equal(t, 2, n)
	require.NoError(t, r.ReturnLoan(data[:1]))
	require.NoError(t, r.ReturnLoan(data[1:2]))
	require.ErrorIs(t, r.ReturnLoan(data[:1]), ErrPreconditionNotMet, "given back twice")
}

// A KEEP_LAST reader that falls behind decodes each new sample into the unread one it
// replaces, so a stream of samples with sequences allocates nothing even when nobody takes
// them; a sample the application read is never reused, since it may still hold it.
func TestKeepLastRecyclesReplaced(t *testing.T) {
	p := testParticipant(t, nil, nil)
	w, r := endpoints[blob](t, p, "replaced", nil, nil) // KEEP_LAST 1
	src := make([]byte, 4096)
	write := func(id int32, fill byte, n int) {
		t.Helper()
		for i := range n {
			src[i] = fill
		}
		v := blob{ID: id, Payload: src[:n]}
		require.NoError(t, w.Write(bg, &v))
	}
	write(1, 1, 4096)
	read, _, err := r.Read(bg, MaxSamples(1), NoWait())
	require.NoError(t, err)
	require.Len(t, read, 1)
	write(1, 2, 100) // replaces the read sample: not recycled
	write(1, 3, 4096)
	write(1, 4, 10)
	require.Equal(t, bytes.Repeat([]byte{1}, 4096), read[0].Payload, "a value read is never reused")
	got, infos, err := r.Take(bg, NoWait())
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.True(t, infos[0].ValidData)
	require.Equal(t, bytes.Repeat([]byte{4}, 10), got[0].Payload)

	if raceEnabled {
		return
	}
	v := blob{ID: 1, Payload: src}
	allocs := testing.AllocsPerRun(1000, func() {
		v.Payload[0]++
		if err := w.Write(bg, &v); err != nil {
			t.Fatal(err)
		}
	})
	require.Zero(t, allocs, "write and delivery of 4 KiB samples replacing unread ones")
	got, _, err = r.Take(bg, NoWait())
	require.NoError(t, err)
	require.Equal(t, v.Payload, got[0].Payload)
}

// Writing with a MANUAL liveliness renews leases on both sides without allocating: the
// writer's own, the reader's view of the writer and of its participant.
func TestWriteLivelinessAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful with the race detector")
	}
	net := &fakeNet{}
	pa, pb := testParticipant(t, net, nil), testParticipant(t, net, nil)
	for _, kind := range []qos.LivelinessKind{qos.ManualByTopic, qos.ManualByParticipant} {
		name := fmt.Sprintf("live_%d", kind)
		wq, rq := qos.DefaultDataWriterQos(), reliableReader()
		wq.Liveliness = qos.Liveliness{Kind: kind, LeaseDuration: time.Hour}
		rq.Liveliness = wq.Liveliness
		w, _ := endpoints[point](t, pa, name, &wq, nil)
		tb, _, sub := topicPubSub[point](t, pb, name, "test::"+name)
		r, err := NewReader(tb, WithSubscriber(sub), WithQos(*rq))
		require.NoError(t, err)
		require.Zero(t, writeTakeAllocs(t, w, r), "%v: write, delivery and take", kind)
	}
}
