package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/internal/netns"
	"github.com/ddsgo/ddsgo/qos"
)

// Domains of the content filter tests.
const (
	filterToFastDDSDomain   = 77
	filterFromFastDDSDomain = 78
	filterGoDomain          = 79
	filterCycloneDomain     = 80
)

// samplesIn returns the samples a subscriber printed.
func samplesIn(t *testing.T, stdout string) []jsonSample {
	t.Helper()
	var out []jsonSample
	for l := range strings.SplitSeq(strings.TrimSpace(stdout), "\n") {
		var s jsonSample
		if json.Unmarshal([]byte(l), &s) == nil && s.Seq != 0 {
			out = append(out, s)
		}
	}
	return out
}

// writeKeyed writes count samples of ids 1..keys in turn (seq 1..count), as the peers'
// publishers do.
func writeKeyed(t *testing.T, w *dds.DataWriter[Sample], keys, count int) {
	t.Helper()
	for seq := 1; seq <= count; seq++ {
		s := Sample{ID: int32(1 + (seq-1)%keys), Seq: uint64(seq), Values: []float64{float64(seq)}}
		s.Text = fmt.Sprintf("ddsgo %d %d", s.ID, seq)
		require.NoError(t, w.Write(context.Background(), &s))
	}
}

// waitFilterMatched waits until the writer has n matched readers.
func waitFilterMatched(t *testing.T, w *dds.DataWriter[Sample], n int32) {
	t.Helper()
	require.Eventually(t, func() bool {
		ms, err := w.PublicationMatchedStatus()
		return err == nil && ms.CurrentCount == n
	}, 15*time.Second, 10*time.Millisecond)
}

// waitMatchedTotal waits until the writer has matched n readers in all (TotalCount: a
// reader that has left still counts). The status follows the engine's match on
// discovery's dispatcher goroutine, so it may lag a sample that already crossed.
func waitMatchedTotal(t *testing.T, w *dds.DataWriter[Sample], n int32) {
	t.Helper()
	require.Eventually(t, func() bool {
		ms, err := w.PublicationMatchedStatus()
		return err == nil && ms.TotalCount == n
	}, 5*time.Second, 5*time.Millisecond, "PUBLICATION_MATCHED's total count")
}

// TestFilterToFastDDS: a Fast DDS reader of a content-filtered topic (DDSSQL with a
// parameter) gets from a ddsgo writer exactly the samples its filter accepts. The
// writer filters for it from the PID_CONTENT_FILTER_PROPERTY it announced (Fast DDS
// filters again on its side).
func TestFilterToFastDDS(t *testing.T) {
	netns.Require(t)
	bin := peerBinary(t, "fastdds")
	topic := "ddsgo_filter_to_fastdds"
	p, err := dds.NewParticipant(filterToFastDDSDomain)
	require.NoError(t, err)
	defer func() { require.NoError(t, p.Close()) }()
	tp, err := dds.NewTopic[Sample](p, topic)
	require.NoError(t, err)
	w, err := dds.NewWriter(tp, dds.Reliable(), dds.KeepAll())
	require.NoError(t, err)

	subArgs := []string{
		"-role", "sub", "-domain", fmt.Sprint(filterToFastDDSDomain), "-topic", topic, "-keys", "6",
		"-count", "6", "-timeout", "15s", "-linger", "1s", "-filter", "id > %0 AND text LIKE 'ddsgo%'", "-filter-params", "3",
	}
	sp, err := startProcess(t, "fastdds", exec.Command(bin, subArgs...))
	require.NoError(t, err)
	waitFilterMatched(t, w, 1)
	time.Sleep(500 * time.Millisecond) // the reader's SEDP data reaches the writer with the match
	writeKeyed(t, w, 6, 12)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, w.WaitForAcknowledgments(ctx))
	sr := sp.wait(t, 20*time.Second)
	if sr.code != exitOK {
		t.Logf("fastdds subscriber: exit %d, stderr:\n%s", sr.code, sr.stderr)
	}
	require.Equal(t, exitOK, sr.code)
	var seqs []uint64
	for _, s := range samplesIn(t, sr.stdout) {
		require.Greater(t, s.ID, int32(3), "%+v", s)
		seqs = append(seqs, s.Seq)
	}
	slices.Sort(seqs) // taken instance by instance
	require.Equal(t, []uint64{4, 5, 6, 10, 11, 12}, seqs)
}

// TestFilterFromFastDDS: a ddsgo reader of a content-filtered topic gets from a Fast
// DDS writer exactly the samples its filter accepts. Fast DDS 2.9.1 filters on the
// writer side from what the ddsgo reader announces; the ddsgo reader filters too.
func TestFilterFromFastDDS(t *testing.T) {
	netns.Require(t)
	bin := peerBinary(t, "fastdds")
	topic := "ddsgo_filter_from_fastdds"
	p, err := dds.NewParticipant(filterFromFastDDSDomain)
	require.NoError(t, err)
	defer func() { require.NoError(t, p.Close()) }()
	tp, err := dds.NewTopic[Sample](p, topic)
	require.NoError(t, err)
	cft, err := dds.NewContentFilteredTopic(topic+"_filtered", tp, "id BETWEEN %0 AND %1", "2", "3")
	require.NoError(t, err)
	rq := qos.DefaultDataReaderQos()
	rq.Reliability.Kind = qos.Reliable
	rq.History = qos.History{Kind: qos.KeepAll}
	r, err := dds.NewFilteredReader(cft, dds.WithQos(rq))
	require.NoError(t, err)

	pubArgs := []string{
		"-role", "pub", "-domain", fmt.Sprint(filterFromFastDDSDomain), "-topic", topic, "-keys", "6",
		"-count", "12", "-timeout", "15s", "-linger", "2s",
	}
	pp, err := startProcess(t, "fastdds", exec.Command(bin, pubArgs...))
	require.NoError(t, err)
	pr := pp.wait(t, 20*time.Second)
	if pr.code != exitOK {
		t.Logf("fastdds publisher: exit %d, stderr:\n%s", pr.code, pr.stderr)
	}
	require.Equal(t, exitOK, pr.code)
	var got []Sample
	require.Eventually(t, func() bool {
		data, _, err := r.Take(context.Background(), dds.NoWait())
		if err == nil {
			got = append(got, data...)
		}
		return len(got) >= 4
	}, 10*time.Second, 10*time.Millisecond)
	var seqs []uint64
	for _, s := range got {
		require.Contains(t, []int32{2, 3}, s.ID, "%+v", s)
		seqs = append(seqs, s.Seq)
	}
	slices.Sort(seqs) // taken instance by instance
	require.Equal(t, []uint64{2, 3, 8, 9}, seqs)
	lost, err := r.SampleLostStatus()
	require.NoError(t, err)
	require.Zero(t, lost.TotalCount, "what the writer filtered out is not lost")
}

// TestFilterGo: the ddsgo peer's -filter and -filter-params, between two ddsgo peers
// over RTPS on UDP: the subscriber prints only the samples its filter accepts.
func TestFilterGo(t *testing.T) {
	netns.Require(t)
	common := []string{"-domain", fmt.Sprint(filterGoDomain), "-topic", "ddsgo_filter_go", "-keys", "6", "-timeout", "15s"}
	sub := startGo(append([]string{
		"-role", "sub", "-count", "4", "-linger", "1s",
		"-filter", "id BETWEEN %0 AND %1 AND text <> 'x'", "-filter-params", "2,3",
	}, common...))
	pub := startGo(append([]string{"-role", "pub", "-count", "12", "-linger", "2s"}, common...))
	sr := sub.wait(t, 20*time.Second)
	require.Equal(t, exitOK, sr.code, sr.stderr)
	pr := pub.wait(t, 20*time.Second)
	require.Equal(t, exitOK, pr.code, pr.stderr)
	var seqs []uint64
	for _, s := range samplesIn(t, sr.stdout) {
		require.Contains(t, []int32{2, 3}, s.ID, "%+v", s)
		seqs = append(seqs, s.Seq)
	}
	slices.Sort(seqs) // taken instance by instance
	require.Equal(t, []uint64{2, 3, 8, 9}, seqs)

	// A filter that does not compile is a usage error.
	bad := startGo(append([]string{"-role", "sub", "-count", "1", "-filter", "nope = 1"}, common...))
	require.Equal(t, exitFailed, bad.wait(t, 10*time.Second).code)
}

// TestFilterCycloneRefuses: Cyclone DDS 0.10 has function filters only, no DDS-SQL:
// its peer refuses -filter rather than ignoring it.
func TestFilterCycloneRefuses(t *testing.T) {
	netns.Require(t)
	bin := peerBinary(t, "cyclone")
	sp, err := startProcess(t, "cyclone", exec.Command(bin, "-role", "sub", "-domain", fmt.Sprint(filterCycloneDomain),
		"-filter", "id > 1", "-timeout", "2s"))
	require.NoError(t, err)
	res := sp.wait(t, 10*time.Second)
	require.Equal(t, exitUsage, res.code)
	require.Contains(t, res.stderr, "no SQL content filters")
}

func TestFilterArgs(t *testing.T) {
	a := mustParseArgs(t, "-role", "sub", "-filter", "id = %0 OR text = %1", "-filter-params", "1,'a b'")
	require.Equal(t, "id = %0 OR text = %1", a.filter)
	require.Equal(t, []string{"1", "'a b'"}, a.filterParams)
	a = mustParseArgs(t, "-role", "sub")
	require.Empty(t, a.filter)
	require.Nil(t, a.filterParams)
}
