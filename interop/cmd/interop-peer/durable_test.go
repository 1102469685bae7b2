package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/qos"
)

// Domains of the tests of this file.
const (
	transientDomain  = 35
	persistentDomain = 36
	historicalDomain = 39
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

// TestWaitForHistoricalDataFromVendor: a transient-local writer of the other vendor
// (KEEP_ALL, three instances) writes 300 samples and stays, beside a participant of
// the same vendor with no endpoint; once both are discovered, a ddsgo transient-local
// reader is created and calls WaitForHistoricalData
// at once: when it returns, the reader has matched the writer and a take that does not
// wait finds all 300, in order per instance. Neither Cyclone DDS 0.10 nor
// Fast DDS 2.9 implements the wait itself (both return at once); ddsgo needs only the
// writer's HEARTBEATs, which both send.
func TestWaitForHistoricalDataFromVendor(t *testing.T) {
	forEachVendor(t, func(t *testing.T, vendor, bin string) {
		const n = 300
		topic := "ddsgo_historical_" + vendor
		// A participant with no writer at all (its SEDP publications writer is empty)
		// must not hold the wait up.
		bare, err := startProcess(t, vendor, exec.Command(bin, "-role", "watch", "-domain",
			fmt.Sprint(historicalDomain), "-timeout", "30s"))
		require.NoError(t, err)
		defer bare.stop()
		printed := &lineCount{}
		cmd := exec.Command(bin, "-role", "pub", "-domain", fmt.Sprint(historicalDomain), "-topic", topic,
			"-reliable", "-transient-local", "-keep-last", "0", "-keys", "3", "-count", fmt.Sprint(n),
			"-wait-readers", "0", "-linger", "30s", "-timeout", "40s")
		cmd.Stdout = printed
		pp, err := startProcess(t, vendor, cmd)
		require.NoError(t, err)
		defer pp.stop()
		require.Eventually(t, func() bool { return printed.lines() >= n }, 10*time.Second, time.Millisecond,
			"the %s publisher wrote %d samples", vendor, n)

		p, err := dds.NewParticipant(historicalDomain)
		require.NoError(t, err)
		defer func() { require.NoError(t, p.Close()) }()
		tp, err := dds.NewTopic[Sample](p, topic)
		require.NoError(t, err)
		require.Eventually(t, func() bool {
			pubs, err := p.DiscoveredPublications()
			hs, err2 := p.DiscoveredParticipants()
			return err == nil && err2 == nil && len(pubs) == 1 && len(hs) == 2
		}, 10*time.Second, 100*time.Microsecond, "the %s writer and the bare participant discovered", vendor)
		r, err := dds.NewReader(tp, dds.Reliable(), dds.TransientLocal(), dds.KeepAll())
		require.NoError(t, err)
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		start := time.Now()
		require.NoError(t, r.WaitForHistoricalData(ctx))
		t.Logf("%s: historical data in %v after the reader's creation", vendor, time.Since(start).Round(time.Microsecond))
		st, err := r.SubscriptionMatchedStatus()
		require.NoError(t, err)
		require.Equal(t, int32(1), st.CurrentCount, "matched when the wait returns")

		last := map[int32]uint64{}
		got := 0
		for {
			ss, infos, err := r.Take(ctx, dds.NoWait())
			if errors.Is(err, dds.ErrNoData) {
				break
			}
			require.NoError(t, err)
			for i, s := range ss {
				if !infos[i].ValidData {
					continue
				}
				require.Greater(t, s.Seq, last[s.ID], "instance %d in order", s.ID)
				last[s.ID] = s.Seq
				got++
			}
		}
		require.Equal(t, n, got, "the whole history is in the cache when the wait returns")
	})
}

// lineCount is an io.Writer that keeps what a peer prints, and counts its lines.
type lineCount struct {
	mu  sync.Mutex
	n   int
	out bytes.Buffer
}

func (c *lineCount) Write(b []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n += bytes.Count(b, []byte("\n"))
	return c.out.Write(b)
}

func (c *lineCount) lines() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// has reports whether the output so far holds s.
func (c *lineCount) has(s string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return bytes.Contains(c.out.Bytes(), []byte(s))
}
