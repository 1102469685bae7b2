package dds

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/qos"
)

// strengthWriter creates a reliable KEEP_ALL writer of t with EXCLUSIVE ownership and
// OWNERSHIP_STRENGTH s, and more options.
func strengthWriter(t *testing.T, tp *Topic[message], s int32, opts ...Option) *DataWriter[message] {
	t.Helper()
	q := qos.DefaultDataWriterQos()
	q.Reliability.Kind = qos.Reliable
	q.History.Kind = qos.KeepAll
	q.Ownership.Kind = qos.Exclusive
	q.OwnershipStrength.Value = s
	w, err := NewWriter(tp, append([]Option{WithQos(q)}, opts...)...)
	require.NoError(t, err)
	return w
}

// exclusiveReader creates a reliable KEEP_ALL reader of t with EXCLUSIVE ownership.
func exclusiveReader(t *testing.T, tp *Topic[message], opts ...Option) *DataReader[message] {
	t.Helper()
	r, err := NewReader(tp, append([]Option{Reliable(), KeepAll(), ExclusiveOwnership()}, opts...)...)
	require.NoError(t, err)
	return r
}

// say writes instance id with text from w.
func say(t *testing.T, w *DataWriter[message], id int32, text string) {
	t.Helper()
	require.NoError(t, w.Write(bg, &message{ID: id, Text: text}))
}

// heard takes everything r has and returns the texts of the valid samples of instance
// id, in order.
func heard(t *testing.T, r *DataReader[message], id int32) []string {
	t.Helper()
	vs, infos, err := r.Take(bg, NoWait())
	if err != nil {
		require.ErrorIs(t, err, ErrNoData)
	}
	var out []string
	for i, v := range vs {
		if infos[i].ValidData && v.ID == id {
			out = append(out, v.Text)
		}
	}
	return out
}

// The strongest writer of each instance is the only one heard; of equal strengths, the
// smaller GUID; other writers' samples are dropped, not rejected; a non-owner's
// dispose does not dispose.
func TestOwnershipStrongestWriter(t *testing.T) {
	p := testParticipant(t, nil, nil)
	tp, err := NewTopic[message](p, "own_strongest")
	require.NoError(t, err)
	r := exclusiveReader(t, tp)
	wa := strengthWriter(t, tp, 1)
	wb := strengthWriter(t, tp, 5)
	wc := strengthWriter(t, tp, 5) // created after wb: a greater GUID
	hb, hc := wb.InstanceHandle(), wc.InstanceHandle()
	require.Negative(t, bytes.Compare(hb[:], hc[:]))

	say(t, wa, 1, "a1")
	say(t, wc, 1, "c1") // stronger: takes over
	say(t, wa, 1, "a2")
	say(t, wb, 1, "b1") // as strong, smaller GUID: takes over
	say(t, wc, 1, "c2")
	say(t, wb, 1, "b2")
	require.Equal(t, []string{"a1", "c1", "b1", "b2"}, heard(t, r, 1))

	say(t, wa, 2, "a3") // another instance: its own owner
	say(t, wa, 2, "a4")
	say(t, wc, 2, "c3")
	say(t, wa, 2, "a5")
	require.NoError(t, wa.Dispose(bg, &message{ID: 2})) // not the owner: no effect
	vs, infos, err := r.Take(bg, NoWait())
	require.NoError(t, err)
	var texts []string
	for i, v := range vs {
		require.Equal(t, AliveInstanceState, infos[i].InstanceState)
		if v.ID == 2 {
			texts = append(texts, v.Text)
		}
	}
	require.Equal(t, []string{"a3", "a4", "c3"}, texts)
	rs, err := r.SampleRejectedStatus()
	require.NoError(t, err)
	require.Zero(t, rs.TotalCount, "dropped samples are not rejected")

	require.NoError(t, wc.Dispose(bg, &message{ID: 2})) // the owner's dispose disposes
	_, infos, err = r.Take(bg, NoWait())
	require.NoError(t, err)
	require.Len(t, infos, 1)
	require.Equal(t, NotAliveDisposedInstanceState, infos[0].InstanceState)
}

// The owner's unregister, and its deletion, leave the instance to the next writer.
func TestOwnershipHandOver(t *testing.T) {
	p := testParticipant(t, nil, nil)
	tp, err := NewTopic[message](p, "own_handover")
	require.NoError(t, err)
	r := exclusiveReader(t, tp)
	weak := strengthWriter(t, tp, 1)
	mid := strengthWriter(t, tp, 2)
	strong := strengthWriter(t, tp, 3)

	say(t, strong, 1, "s1")
	say(t, weak, 1, "w1")
	require.NoError(t, strong.Unregister(bg, &message{ID: 1}))
	say(t, weak, 1, "w2") // the first writer after the owner left takes it
	say(t, mid, 1, "m1")  // stronger than weak
	say(t, weak, 1, "w3")
	require.Equal(t, []string{"s1", "w2", "m1"}, heard(t, r, 1))

	require.NoError(t, mid.Close())
	say(t, weak, 1, "w4")
	vs, infos, err := r.Take(bg, NoWait())
	require.NoError(t, err)
	require.Len(t, vs, 1)
	require.Equal(t, "w4", vs[0].Text)
	require.Equal(t, AliveInstanceState, infos[0].InstanceState)
	require.Equal(t, weak.InstanceHandle(), infos[0].PublicationHandle)
}

// An owner that misses the reader's DEADLINE for an instance loses it: the next sample
// of any writer takes it, and a stronger writer takes it back. Samples of non-owners
// do not keep the deadline.
func TestOwnershipDeadline(t *testing.T) {
	clk := newFakeClock()
	p, err := NewParticipant(0, withEngine((&fakeNet{}).factory()), withClock(clk))
	require.NoError(t, err)
	defer func() { require.NoError(t, p.Close()) }()
	tp, err := NewTopic[message](p, "own_deadline")
	require.NoError(t, err)
	const period = 100 * time.Millisecond
	r := exclusiveReader(t, tp, Deadline(period))
	weak := strengthWriter(t, tp, 1, Deadline(period))
	strong := strengthWriter(t, tp, 9, Deadline(period))

	say(t, strong, 1, "s1")
	say(t, strong, 2, "s2") // instance 2 keeps its owner throughout
	clk.Advance(60 * time.Millisecond)
	say(t, weak, 1, "w1") // dropped, and does not keep the deadline
	say(t, strong, 2, "s3")
	clk.Advance(60 * time.Millisecond) // 120 ms: instance 1 missed, 2 not
	say(t, weak, 1, "w2")
	say(t, weak, 2, "w3")
	require.Equal(t, []string{"s1", "w2"}, heard(t, r, 1))
	say(t, strong, 1, "s4") // stronger: takes it back
	say(t, weak, 1, "w4")
	require.Equal(t, []string{"s4"}, heard(t, r, 1))
	st, err := r.RequestedDeadlineMissedStatus()
	require.NoError(t, err)
	require.Equal(t, int32(1), st.TotalCount)
	require.Equal(t, r.LookupInstance(&message{ID: 1}), st.LastInstanceHandle)
}

// A change of OWNERSHIP_STRENGTH with SetQos counts from then on, for the instances
// the writer owns as for the others.
func TestOwnershipStrengthChange(t *testing.T) {
	p := testParticipant(t, nil, nil)
	tp, err := NewTopic[message](p, "own_strength")
	require.NoError(t, err)
	r := exclusiveReader(t, tp)
	a := strengthWriter(t, tp, 5)
	b := strengthWriter(t, tp, 3)
	setStrength := func(w *DataWriter[message], s int32) {
		q := w.Qos()
		q.OwnershipStrength.Value = s
		require.NoError(t, w.SetQos(q))
	}

	say(t, a, 1, "a1")
	say(t, b, 1, "b1")
	setStrength(b, 7) // b stronger than the owner
	say(t, b, 1, "b2")
	say(t, a, 1, "a2")
	setStrength(b, 1) // the owner weakens: a is stronger at once
	say(t, a, 1, "a3")
	say(t, b, 1, "b3")
	require.Equal(t, []string{"a1", "b2", "a3"}, heard(t, r, 1))
}

// SHARED ownership (the default) hears every writer whatever its strength.
func TestOwnershipShared(t *testing.T) {
	p := testParticipant(t, nil, nil)
	tp, err := NewTopic[message](p, "own_shared")
	require.NoError(t, err)
	r, err := NewReader(tp, Reliable(), KeepAll())
	require.NoError(t, err)
	q := qos.DefaultDataWriterQos()
	q.OwnershipStrength.Value = 9
	strong, err := NewWriter(tp, WithQos(q))
	require.NoError(t, err)
	weak, err := NewWriter(tp)
	require.NoError(t, err)
	say(t, strong, 1, "s1")
	say(t, weak, 1, "w1")
	require.Equal(t, []string{"s1", "w1"}, heard(t, r, 1))
}

// Delivery to an EXCLUSIVE reader allocates nothing, for the owner's samples as for the
// dropped ones.
func TestOwnershipAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful with the race detector")
	}
	p := testParticipant(t, nil, nil)
	tp, err := NewTopic[point](p, "own_allocs")
	require.NoError(t, err)
	r, err := NewReader(tp, Reliable(), KeepAll(), ExclusiveOwnership())
	require.NoError(t, err)
	writer := func(s int32) *DataWriter[point] {
		q := qos.DefaultDataWriterQos()
		q.Ownership.Kind = qos.Exclusive
		q.OwnershipStrength.Value = s
		w, err := NewWriter(tp, WithQos(q))
		require.NoError(t, err)
		return w
	}
	strong, weak := writer(2), writer(1)
	data := make([]point, 8)
	infos := make([]SampleInfo, 8)
	v := point{ID: 1}
	require.NoError(t, strong.Write(bg, &v)) // the owner from the start
	_, err = r.TakeInto(bg, data, infos, NoWait())
	require.NoError(t, err)
	step := func() {
		v.X++
		if err := weak.Write(bg, &v); err != nil {
			t.Fatal(err)
		}
		if err := strong.Write(bg, &v); err != nil {
			t.Fatal(err)
		}
		if n, err := r.TakeInto(bg, data, infos, NoWait()); err != nil || n != 1 || infos[0].PublicationHandle != strong.InstanceHandle() {
			t.Fatal(n, err)
		}
	}
	for range 100 {
		step()
	}
	require.Zero(t, testing.AllocsPerRun(1000, step), "two writes, one dropped, and a take")
}
