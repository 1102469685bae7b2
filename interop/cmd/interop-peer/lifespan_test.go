package main

import (
	"context"
	"fmt"
	"os/exec"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/ddsgo/ddsgo/waitset"
)

// Domains of the tests of this file (transport's socket tests use 220..227, the
// match tests 190..229 but never at the same time as these: neither is parallel).
const (
	lifespanDomain     = 228
	inconsistentDomain = 229
)

// TestLifespanLateJoiner: a ddsgo transient-local writer with a LIFESPAN of a minute
// writes three samples whose source timestamp is two minutes old, then three fresh ones;
// a late-joining transient-local subscriber of the other vendor gets exactly the fresh
// ones. Cyclone DDS 0.10.2 readers time a sample's lifespan from its reception, so had
// the writer kept and sent the expired samples, the Cyclone subscriber would print them.
func TestLifespanLateJoiner(t *testing.T) {
	forEachVendor(t, func(t *testing.T, vendor, bin string) {
		topic := "ddsgo_lifespan_" + vendor
		common := []string{"-domain", fmt.Sprint(lifespanDomain), "-topic", topic, "-keys", "3", "-transient-local"}
		a := mustParseArgs(t, append([]string{"-role", "pub", "-count", "6", "-lifespan", "1m"}, common...)...)
		p, err := dds.NewParticipant(a.domain)
		require.NoError(t, err)
		defer func() { require.NoError(t, p.Close()) }()
		tp, err := dds.NewTopic[Sample](p, topic)
		require.NoError(t, err)
		wq := qos.DefaultDataWriterQos()
		setCommon(a, &wq.Reliability, &wq.Durability, &wq.History, &wq.DataRepresentation, &wq.Liveliness)
		wq.DurabilityService.HistoryKind, wq.DurabilityService.HistoryDepth = wq.History.Kind, wq.History.Depth
		wq.WriterDataLifecycle.AutodisposeUnregisteredInstances = false
		wq.Lifespan.Duration = a.lifespan
		w, err := dds.NewWriter(tp, dds.WithQos(wq))
		require.NoError(t, err)
		writeSeqs(t, w, 1, 3, 3, dds.Timestamp(time.Now().Add(-2*time.Minute)))
		writeSeqs(t, w, 4, 6, 3)
		lateSubscriber(t, vendor, bin, 3, common, expectedLines(a)[3:])
		waitMatchedTotal(t, w, 1)
	})
}

// writeSeqs writes the samples from..to of the peer contract (keys ids, two values) with w.
func writeSeqs(t *testing.T, w *dds.DataWriter[Sample], from, to uint64, keys int, opts ...dds.WriteOption) {
	t.Helper()
	for seq := from; seq <= to; seq++ {
		s := Sample{ID: int32(1 + (seq-1)%uint64(keys)), Seq: seq, Values: []float64{float64(seq), float64(seq) + 0.125}}
		s.Text = fmt.Sprintf("ddsgo %d %d", s.ID, seq)
		require.NoError(t, w.Write(context.Background(), &s, opts...))
	}
}

// lateSubscriber runs a subscriber of vendor (program bin) with args common that waits
// for count samples, and requires it to print want.
func lateSubscriber(t *testing.T, vendor, bin string, count int, common, want []string) {
	t.Helper()
	subArgs := append([]string{"-role", "sub", "-count", fmt.Sprint(count), "-timeout", "10s", "-linger", "1s"}, common...)
	sp, err := startProcess(t, vendor, exec.Command(bin, subArgs...))
	require.NoError(t, err)
	sr := sp.wait(t, 20*time.Second)
	if t.Failed() || sr.code != exitOK {
		t.Logf("subscriber %s %v: exit %d, stderr:\n%s", vendor, subArgs, sr.code, sr.stderr)
	}
	require.Equal(t, exitOK, sr.code)
	requireLines(t, "subscriber "+vendor, want, sr.stdout)
}

// TestInconsistentTopicInterop: a writer of the other vendor registering another type
// name on a ddsgo topic's name raises INCONSISTENT_TOPIC on the ddsgo topic (neither
// Cyclone DDS 0.10.2 nor Fast DDS 2.9.1 raise it themselves), and matches no ddsgo
// reader.
func TestInconsistentTopicInterop(t *testing.T) {
	forEachVendor(t, func(t *testing.T, vendor, bin string) {
		topic := "ddsgo_inconsistent_" + vendor
		p, err := dds.NewParticipant(inconsistentDomain)
		require.NoError(t, err)
		defer func() { require.NoError(t, p.Close()) }()
		tp, err := dds.NewTopic[Sample](p, topic)
		require.NoError(t, err)
		r, err := dds.NewReader(tp, dds.Reliable())
		require.NoError(t, err)
		cond := tp.StatusCondition()
		require.NoError(t, cond.SetEnabledStatuses(listener.StatusMask(listener.InconsistentTopic)))
		ws := waitset.New()
		require.NoError(t, ws.AttachCondition(cond))

		pubArgs := []string{
			"-role", "pub", "-domain", fmt.Sprint(inconsistentDomain), "-topic", topic,
			"-type", "interop::Other", "-count", "1", "-timeout", "3s",
		}
		pp, err := startProcess(t, vendor, exec.Command(bin, pubArgs...))
		require.NoError(t, err)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, err = ws.Wait(ctx)
		require.NoError(t, err, "INCONSISTENT_TOPIC")
		st, err := tp.InconsistentTopicStatus()
		require.NoError(t, err)
		require.Equal(t, int32(1), st.TotalCount, "one remote writer")
		require.Equal(t, int32(1), st.TotalCountChange)
		pr := pp.wait(t, 10*time.Second)
		require.Equal(t, exitTimeout, pr.code, "the %s writer matches nobody:\n%s", vendor, pr.stderr)
		ms, err := r.SubscriptionMatchedStatus()
		require.NoError(t, err)
		require.Zero(t, ms.TotalCount)
	})
}
