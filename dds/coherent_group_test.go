package dds_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/internal/transport/memnet"
	"github.com/ddsgo/ddsgo/qos"
)

// groupRig is a GROUP-coherent publisher with writers of topics A and B in one
// participant, and in another a GROUP-coherent subscriber with readers of both, a
// coherent subscriber with a reader of A only, and a plain reader of B.
type groupRig struct {
	pub        *dds.Publisher
	wa, wb     *dds.DataWriter[csSample]
	sub        *dds.Subscriber
	ra, rb     *dds.DataReader[csSample]
	onlyA      *dds.DataReader[csSample]
	plainB     *dds.DataReader[csSample]
	partASub   *dds.Subscriber
	setA, setB int // samples each writer writes in a set
}

func newGroupRig(t *testing.T, imp memnet.Impairments, rel dds.Option, ordered bool) *groupRig {
	t.Helper()
	add := memnetHosts(t, 21, imp, 3)
	wp, rp := add("w"), add("r")
	g := &groupRig{setA: 3, setB: 2}
	pres := coherentPresentation(qos.GroupScope)
	pres.OrderedAccess = ordered
	pq := qos.DefaultPublisherQos()
	pq.Presentation = pres
	var err error
	g.pub, err = wp.NewPublisher(dds.WithQos(pq))
	require.NoError(t, err)
	sq := qos.DefaultSubscriberQos()
	sq.Presentation = pres
	g.sub, err = rp.NewSubscriber(dds.WithQos(sq))
	require.NoError(t, err)
	g.partASub, err = rp.NewSubscriber(dds.WithQos(sq))
	require.NoError(t, err)
	topics := func(p *dds.DomainParticipant) (*dds.Topic[csSample], *dds.Topic[csSample]) {
		a, err := dds.NewTopic[csSample](p, "groupA")
		require.NoError(t, err)
		b, err := dds.NewTopic[csSample](p, "groupB")
		require.NoError(t, err)
		return a, b
	}
	wta, wtb := topics(wp)
	rta, rtb := topics(rp)
	g.wa, err = dds.NewWriter(wta, dds.WithPublisher(g.pub), rel, dds.KeepAll())
	require.NoError(t, err)
	g.wb, err = dds.NewWriter(wtb, dds.WithPublisher(g.pub), rel, dds.KeepAll())
	require.NoError(t, err)
	g.ra, err = dds.NewReader(rta, dds.WithSubscriber(g.sub), rel, dds.KeepAll())
	require.NoError(t, err)
	g.rb, err = dds.NewReader(rtb, dds.WithSubscriber(g.sub), rel, dds.KeepAll())
	require.NoError(t, err)
	g.onlyA, err = dds.NewReader(rta, dds.WithSubscriber(g.partASub), rel, dds.KeepAll())
	require.NoError(t, err)
	g.plainB, err = dds.NewReader(rtb, rel, dds.KeepAll())
	require.NoError(t, err)
	waitMatched(t, g.wa, 2, g.ra, g.onlyA)
	waitMatched(t, g.wb, 2, g.rb, g.plainB)
	return g
}

// writeSet writes group set k: setA samples with A, then setB with B.
func (g *groupRig) writeSet(t *testing.T, k int) {
	t.Helper()
	require.NoError(t, g.pub.BeginCoherentChanges())
	for i := range g.setA {
		require.NoError(t, g.wa.Write(context.Background(), &csSample{ID: int32(i), Set: int32(k)}))
	}
	for i := range g.setB {
		require.NoError(t, g.wb.Write(context.Background(), &csSample{ID: int32(i), Set: int32(k)}))
	}
	require.NoError(t, g.pub.EndCoherentChanges())
}

// takeAll takes what r has now: the count of samples per set.
func takeAll(t *testing.T, r *dds.DataReader[csSample]) map[int32]int {
	t.Helper()
	got := map[int32]int{}
	for {
		vs, _, err := r.Take(context.Background(), dds.NoWait())
		if err != nil {
			require.ErrorIs(t, err, dds.ErrNoData)
			return got
		}
		for _, v := range vs {
			got[v.Set]++
		}
	}
}

// accessSets takes both readers of the group subscriber in one access, until quiet, and
// checks that each access shows whole group sets only: the sets it returns, in order.
func (g *groupRig) accessSets(t *testing.T, quiet time.Duration) []int32 {
	t.Helper()
	var sets []int32
	last := time.Now()
	for time.Since(last) < quiet {
		require.NoError(t, g.sub.BeginAccess())
		a, b := takeAll(t, g.ra), takeAll(t, g.rb)
		require.NoError(t, g.sub.EndAccess())
		for k, n := range a {
			require.Equalf(t, g.setA, n, "set %d: A's part not whole: %v / %v", k, a, b)
			require.Equalf(t, g.setB, b[k], "set %d: A's part without all of B's: %v / %v", k, a, b)
		}
		for k := range b {
			require.Containsf(t, a, k, "set %d: B's part without A's: %v / %v", k, a, b)
		}
		if len(a) == 0 {
			time.Sleep(5 * time.Millisecond)
			continue
		}
		last = time.Now()
		start := len(sets)
		for k := range a {
			sets = append(sets, k)
		}
		slicesSort(sets[start:])
	}
	return sets
}

func slicesSort(s []int32) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j-1] > s[j]; j-- {
			s[j-1], s[j] = s[j], s[j-1]
		}
	}
}

// TestGroupCoherentSets: with GROUP access scope, a set that two writers of a publisher
// wrote appears in the two readers of a coherent subscriber together, never one part
// without the other, also across a network losing 20 % of the datagrams; a set that
// becomes whole during an access appears at its end; a coherent subscriber that reads
// only one of the topics gets its part of every set.
func TestGroupCoherentSets(t *testing.T) {
	g := newGroupRig(t, memnet.Impairments{Loss: 0.2}, dds.Reliable(), false)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	// A set whole at the subscriber while an access is open shows at its end only.
	require.NoError(t, g.sub.BeginAccess())
	g.writeSet(t, 0)
	require.NoError(t, g.wa.WaitForAcknowledgments(ctx))
	require.NoError(t, g.wb.WaitForAcknowledgments(ctx))
	require.Empty(t, takeAll(t, g.ra), "a set appeared during the access")
	require.Empty(t, takeAll(t, g.rb), "a set appeared during the access")
	require.NoError(t, g.sub.EndAccess())
	require.Equal(t, map[int32]int{0: g.setA}, takeAll(t, g.ra))
	require.Equal(t, map[int32]int{0: g.setB}, takeAll(t, g.rb))

	const sets = 20
	for k := 1; k <= sets; k++ {
		g.writeSet(t, k)
	}
	got := g.accessSets(t, time.Second)
	want := make([]int32, sets)
	for k := range want {
		want[k] = int32(k + 1)
	}
	require.Equal(t, want, got, "every set, whole, in order")

	// The subscriber of A only got A's part of every set.
	a := takeAll(t, g.onlyA)
	require.Len(t, a, sets+1)
	for k, n := range a {
		require.Equal(t, g.setA, n, "set %d", k)
	}
	st, err := g.ra.SampleLostStatus()
	require.NoError(t, err)
	require.Zero(t, st.TotalCount)
}

// TestGroupCoherentSetsUnderLoss: best effort across a network losing 15 % of the
// datagrams, each group set reaches the subscriber whole, both parts, or not at all,
// and the sets dropped are counted lost.
func TestGroupCoherentSetsUnderLoss(t *testing.T) {
	g := newGroupRig(t, memnet.Impairments{Loss: 0.15}, dds.BestEffort(), false)
	const sets = 60
	for k := range sets {
		g.writeSet(t, k)
		time.Sleep(2 * time.Millisecond)
	}
	got := g.accessSets(t, 500*time.Millisecond)
	require.NotEmpty(t, got, "no set came whole")
	require.Less(t, len(got), sets-1, "no set was lost: the loss did not happen")
	for i := 1; i < len(got); i++ {
		require.Less(t, got[i-1], got[i], "sets out of order: %v", got)
	}
	// The plain reader of B got sets whose part of A was lost: B's part alone would
	// have shown without the group.
	b := takeAll(t, g.plainB)
	alone := 0
	for k, n := range b {
		if n == g.setB && !contains(got, k) {
			alone++
		}
	}
	require.Positive(t, alone, "no set lost only in A: the test proves nothing")
	st, err := g.rb.SampleLostStatus()
	require.NoError(t, err)
	require.Positive(t, st.TotalCount)
}

// TestGroupOrderedDataReaders: with GROUP scope and ordered access, a group set that
// two writers wrote interleaved (A A B B A) is stored in that order across the
// subscriber's readers, even across a lossy network where the parts arrive out of step;
// DataReaders lists a reader per sample in that order, and taking one sample from each
// reader of the list in turn reads the set as it was written.
func TestGroupOrderedDataReaders(t *testing.T) {
	g := newGroupRig(t, memnet.Impairments{Loss: 0.2}, dds.Reliable(), true)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	order := []*dds.DataWriter[csSample]{g.wa, g.wa, g.wb, g.wb, g.wa}
	require.NoError(t, g.pub.BeginCoherentChanges())
	for i, w := range order {
		require.NoError(t, w.Write(ctx, &csSample{ID: int32(i), Set: int32(i)}))
	}
	require.NoError(t, g.pub.EndCoherentChanges())
	require.NoError(t, g.wa.WaitForAcknowledgments(ctx))
	require.NoError(t, g.wb.WaitForAcknowledgments(ctx))

	require.NoError(t, g.sub.BeginAccess())
	defer func() { require.NoError(t, g.sub.EndAccess()) }()
	readers, err := g.sub.DataReaders(dds.NotReadStates)
	require.NoError(t, err)
	want := []dds.AnyDataReader{g.ra, g.ra, g.rb, g.rb, g.ra}
	require.Equal(t, want, readers)
	for i, r := range readers {
		vs, _, err := r.(*dds.DataReader[csSample]).Take(ctx, dds.MaxSamples(1))
		require.NoError(t, err)
		require.Equal(t, int32(i), vs[0].Set, "sample %d", i)
	}
	readers, err = g.sub.DataReaders(dds.NotReadStates)
	require.NoError(t, err)
	require.Empty(t, readers)
}
