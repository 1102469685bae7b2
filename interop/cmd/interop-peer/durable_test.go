package main

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/qos"
)

// Domains of the tests of this file.
const (
	transientDomain  = 35
	persistentDomain = 36
)

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
		writeSeqs(t, w, 1, 6, 3)
		require.NoError(t, w.Close())
		lateSubscriber(t, vendor, bin, 6, common, expectedLines(a))
	})
}

// TestPersistentLateJoiner: a ddsgo PERSISTENT writer writes three samples and its
// participant closes without disposing them (the process ends); a participant started
// on the same store gets them back in its writer of the topic, which writes three more;
// a transient-local subscriber of the other vendor joining then gets all six, in one
// sequence from the restarted writer.
func TestPersistentLateJoiner(t *testing.T) {
	forEachVendor(t, func(t *testing.T, vendor, bin string) {
		topic := "ddsgo_persistent_" + vendor
		dir := t.TempDir()
		common := []string{"-domain", fmt.Sprint(persistentDomain), "-topic", topic, "-keys", "3", "-transient-local", "-reliable"}
		a := mustParseArgs(t, append([]string{"-role", "pub", "-count", "6"}, common...)...)
		wq := qos.DefaultDataWriterQos()
		setCommon(a, &wq.Reliability, &wq.Durability, &wq.History, &wq.DataRepresentation, &wq.Liveliness)
		wq.Durability.Kind = qos.Persistent
		wq.History = qos.History{Kind: qos.KeepLast, Depth: 2}
		wq.DurabilityService.HistoryKind, wq.DurabilityService.HistoryDepth = qos.KeepLast, 2
		wq.WriterDataLifecycle.AutodisposeUnregisteredInstances = false
		run := func(from, to uint64) *dds.DomainParticipant {
			p, err := dds.NewParticipant(a.domain, dds.PersistenceDir(dir))
			require.NoError(t, err)
			tp, err := dds.NewTopic[Sample](p, topic)
			require.NoError(t, err)
			w, err := dds.NewWriter(tp, dds.WithQos(wq))
			require.NoError(t, err)
			writeSeqs(t, w, from, to, 3)
			return p
		}
		require.NoError(t, run(1, 3).Close())
		p := run(4, 6)
		defer func() { require.NoError(t, p.Close()) }()
		lateSubscriber(t, vendor, bin, 6, common, expectedLines(a))
	})
}
