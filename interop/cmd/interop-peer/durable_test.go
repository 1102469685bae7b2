package main

import (
	"context"
	"fmt"
	"os/exec"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/qos"
)

// transientDomain is the domain of TestTransientLateJoiner.
const transientDomain = 35

// TestTransientLateJoiner: a ddsgo TRANSIENT writer (HISTORY KEEP_LAST 1,
// DURABILITY_SERVICE KEEP_LAST 2, instances not disposed on deletion) writes two samples
// of each of three instances and is deleted; a transient-local subscriber of the other
// vendor started afterwards gets all six from the participant's durability service. A
// TRANSIENT_LOCAL writer's history would have gone with it, and KEEP_LAST 1 would have
// kept three.
func TestTransientLateJoiner(t *testing.T) {
	forEachVendor(t, func(t *testing.T, vendor, bin string) {
		topic := "ddsgo_transient_" + vendor
		common := []string{"-domain", fmt.Sprint(transientDomain), "-topic", topic, "-keys", "3", "-transient-local", "-reliable"}
		a := mustParseArgs(t, append([]string{"-role", "pub", "-count", "6"}, common...)...)
		p, err := dds.NewParticipant(a.domain)
		require.NoError(t, err)
		defer func() { require.NoError(t, p.Close()) }()
		tp, err := dds.NewTopic[Sample](p, topic)
		require.NoError(t, err)
		wq := qos.DefaultDataWriterQos()
		setCommon(a, &wq.Reliability, &wq.Durability, &wq.History, &wq.DataRepresentation, &wq.Liveliness)
		wq.Durability.Kind = qos.Transient
		wq.History = qos.History{Kind: qos.KeepLast, Depth: 1}
		wq.DurabilityService.HistoryKind, wq.DurabilityService.HistoryDepth = qos.KeepLast, 2
		wq.WriterDataLifecycle.AutodisposeUnregisteredInstances = false
		w, err := dds.NewWriter(tp, dds.WithQos(wq))
		require.NoError(t, err)
		for seq := uint64(1); seq <= 6; seq++ {
			s := Sample{ID: int32(1 + (seq-1)%3), Seq: seq, Values: []float64{float64(seq), float64(seq) + 0.125}}
			s.Text = fmt.Sprintf("ddsgo %d %d", s.ID, seq)
			require.NoError(t, w.Write(context.Background(), &s))
		}
		require.NoError(t, w.Close())

		subArgs := append([]string{"-role", "sub", "-count", "6", "-timeout", "10s", "-linger", "1s"}, common...)
		sp, err := startProcess(t, vendor, exec.Command(bin, subArgs...))
		require.NoError(t, err)
		sr := sp.wait(t, 20*time.Second)
		if t.Failed() || sr.code != exitOK {
			t.Logf("subscriber %s %v: exit %d, stderr:\n%s", vendor, subArgs, sr.code, sr.stderr)
		}
		require.Equal(t, exitOK, sr.code)
		requireLines(t, "subscriber "+vendor, expectedLines(a), sr.stdout)
	})
}
