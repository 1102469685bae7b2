package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/internal/netns"
	"github.com/ddsgo/ddsgo/internal/testutil"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) { testutil.Main(m) }

// runCmd runs ddsping with args and returns its exit status and output.
func runCmd(t *testing.T, ctx context.Context, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut testutil.SyncBuffer
	code := run(ctx, args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// background runs ddsping with args until the test ends.
func background(t *testing.T, args ...string) *testutil.SyncBuffer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var out testutil.SyncBuffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		run(ctx, args, &out, &out)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return &out
}

// Bad arguments exit 3, help and -version 0; every -h says what the exit statuses are.
func TestUsage(t *testing.T) {
	code, _, stderr := runCmd(t, context.Background())
	require.Equal(t, exitUsage, code)
	require.Contains(t, stderr, "selftest")
	code, _, stderr = runCmd(t, context.Background(), "nonsense")
	require.Equal(t, exitUsage, code)
	require.Contains(t, stderr, `unknown command "nonsense"`)
	code, _, _ = runCmd(t, context.Background(), "ping", "-size", "-1")
	require.Equal(t, exitUsage, code)
	code, _, _ = runCmd(t, context.Background(), "ping", "-nonsense")
	require.Equal(t, exitUsage, code)
	code, stdout, _ := runCmd(t, context.Background(), "help")
	require.Equal(t, exitOK, code)
	require.Contains(t, stdout, "watch")
	require.Contains(t, stdout, "exit status: 0 ok, 1 no peer or samples lost, 2 middleware error, 3 usage")
	code, _, stderr = runCmd(t, context.Background(), "ping", "-h")
	require.Equal(t, exitOK, code)
	require.Contains(t, stderr, "-size")
	require.Contains(t, stderr, "exit status: 0 ok")
	// The command's own flags and -domain come first, the tuning flags under their heading.
	heading := strings.Index(stderr, "\ntuning flags")
	require.Positive(t, heading, stderr)
	for _, f := range []string{"-size", "-domain", "-json"} {
		require.Less(t, strings.Index(stderr, "  "+f+" "), heading, f)
	}
	for _, f := range []string{"-interface", "-peer", "-no-multicast", "-busy-poll", "-v", "-procs", "-cpuprofile", "-memprofile"} {
		require.Greater(t, strings.Index(stderr, "  "+f), heading, f)
	}
	code, stdout, _ = runCmd(t, context.Background(), "-version")
	require.Equal(t, exitOK, code)
	require.True(t, strings.HasPrefix(stdout, "ddsping "), stdout)
	code, _, stderr = runCmd(t, context.Background(), "list", "-cpuprofile", "/nonexistent/dir/cpu.prof")
	require.Equal(t, exitMiddleware, code, stderr)
}

func TestSelftest(t *testing.T) {
	netns.Require(t)
	start := time.Now()
	code, stdout, stderr := runCmd(t, context.Background(), "selftest", "-domain", "41")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	require.Less(t, time.Since(start), 10*time.Second)
	for _, want := range []string{
		`ddsping selftest pong  saw "ddsping selftest ping"`,
		`ddsping selftest ping  saw "ddsping selftest pong"`,
		"matched pong's on ddsping_ping + ddsping_pong",
		"matched pong's on ddsping_ping_be + ddsping_pong_be",
		"selftest: OK",
	} {
		require.Contains(t, stdout, want)
	}
	// Each phase stops after its count or 1 s (the race detector is slow).
	require.Regexp(t, `round trip, 16 B payload, reliable: [1-9]\d* in .*, 0 lost`, stdout)
	require.Regexp(t, `round trip, 16 B payload, best-effort: [1-9]\d* in`, stdout)
	require.Regexp(t, `round trip, 64 KiB payload, reliable: [1-9]\d* in .*, 0 lost`, stdout)
	require.Regexp(t, `50% [\d.]+us 90% [\d.]+us 99% [\d.]+us max [\d.]+us cnt [1-9]`, stdout)
	t.Log("\n" + stdout)
}

func TestSelftestMulticastJSON(t *testing.T) {
	netns.Require(t)
	code, stdout, stderr := runCmd(t, context.Background(), "selftest", "-domain", "42", "-multicast", "-json", "-size", "100")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	var rep selftestReport
	require.NoError(t, json.Unmarshal([]byte(stdout), &rep))
	require.True(t, rep.OK)
	require.Len(t, rep.Seen, 2)
	require.Equal(t, "ddsgo", rep.Seen[0].Participant.Vendor)
	require.NotEmpty(t, rep.Seen[0].Participant.PID)
	require.Len(t, rep.Matches, 2)
	require.Len(t, rep.RoundTrip, 3)
	require.Equal(t, 100, rep.RoundTrip[0].Size)
	require.Positive(t, rep.RoundTrip[0].RTT.Count)
	require.LessOrEqual(t, rep.RoundTrip[0].RTT.Count, uint64(2000))
	require.Positive(t, rep.RoundTrip[0].RTT.P50)
	require.LessOrEqual(t, rep.RoundTrip[0].RTT.Min, rep.RoundTrip[0].RTT.P50)
	require.LessOrEqual(t, rep.RoundTrip[0].RTT.P99, rep.RoundTrip[0].RTT.Max)
}

func TestPingPong(t *testing.T) {
	netns.Require(t)
	pong := background(t, "pong", "-domain", "43")
	for _, mode := range [][]string{nil, {"-best-effort"}, {"-rate", "500"}} {
		args := append([]string{"ping", "-domain", "43", "-count", "200", "-size", "1000", "-json", "-interval", "0"}, mode...)
		code, stdout, stderr := runCmd(t, context.Background(), args...)
		require.Equal(t, 0, code, "%v\nstdout:\n%s\nstderr:\n%s", mode, stdout, stderr)
		var res pingResult
		require.NoError(t, json.Unmarshal([]byte(stdout), &res), stdout)
		require.Equal(t, "ddsping", res.Peer, "%v: pong serves ddsperf's topics too, ping must prefer its own", mode)
		require.Equal(t, uint64(200), res.RTT.Count, "%v", mode)
		require.Equal(t, 1000, res.Size)
		require.Equal(t, mode == nil || mode[0] == "-rate", res.Reliable)
		require.Zero(t, res.Lost, "%v", mode)
	}
	require.Eventually(t, func() bool { return strings.Contains(pong.String(), "answering") }, time.Second, 10*time.Millisecond)

	// -svg plots the histogram: a well-formed SVG with a bar per occupied bucket and the
	// percentiles marked.
	plot := filepath.Join(t.TempDir(), "rtt.svg")
	code, stdout, stderr := runCmd(t, context.Background(), "ping", "-domain", "43", "-count", "300", "-interval", "0", "-svg", plot)
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	svg, err := os.ReadFile(plot)
	require.NoError(t, err)
	rects := 0
	dec := xml.NewDecoder(bytes.NewReader(svg))
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err, "well-formed XML")
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "rect" {
			rects++
		}
	}
	require.Greater(t, rects, 1, "the background and at least one bar")
	require.Contains(t, string(svg), "300 round trips, 16 B payload, reliable, against ddsping pong")
	for _, p := range []string{">50% ", ">90% ", ">99% "} {
		require.Contains(t, string(svg), p)
	}
}

func TestPingNoPong(t *testing.T) {
	netns.Require(t)
	code, stdout, stderr := runCmd(t, context.Background(), "ping", "-domain", "44", "-wait", "300ms")
	require.Equal(t, exitFailed, code, stdout)
	require.Contains(t, stderr, "ddsping ping: failed: no match within")
	require.Equal(t, 1, strings.Count(stderr, "ddsping ping:"), "no doubled prefix: %s", stderr)
	require.NotContains(t, stderr, "ddsping: ")
}

func TestPubSub(t *testing.T) {
	netns.Require(t)
	sub := background(t, "sub", "-domain", "45")
	code, stdout, stderr := runCmd(t, context.Background(), "pub", "-domain", "45", "-size", "2000", "-duration", "500ms")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	require.Contains(t, stdout, "pub: written")
	require.Eventually(t, func() bool {
		return strings.Contains(sub.String(), "received")
	}, 3*time.Second, 20*time.Millisecond, sub.String())
	require.NotContains(t, sub.String(), "lost on a reliable topic")
}

func TestList(t *testing.T) {
	netns.Require(t)
	// list's window starts when list starts: pong must be up by then. Under a load of 8
	// on two CPUs pong's start once took longer than the whole window.
	pong := background(t, "pong", "-domain", "46")
	require.Eventually(t, func() bool { return strings.Contains(pong.String(), "pong: domain 46") },
		10*time.Second, 10*time.Millisecond)
	code, stdout, stderr := runCmd(t, context.Background(), "list", "-domain", "46", "-wait", "500ms")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "domain 46: 1 participants")
	require.Contains(t, stdout, `"ddsping pong" ddsgo, `)
	// pong's endpoints, and how its writers and readers pair up among themselves.
	require.Contains(t, stdout, `topic "ddsping_pong" type "ddsping::Sample"`)
	require.Contains(t, stdout, "matching:")
	require.Contains(t, stdout, "this participant: received ")
	require.Contains(t, stdout, "1 remote participants (0 unconfirmed)")

	code, stdout, stderr = runCmd(t, context.Background(), "list", "-domain", "46", "-wait", "500ms", "-json")
	require.Equal(t, 0, code, stderr)
	var got struct {
		Participants []partRow         `json:"participants"`
		Writers      []endpointRow     `json:"writers"`
		Readers      []endpointRow     `json:"readers"`
		Pairs        []pairReport      `json:"pairs"`
		Stats        map[string]uint64 `json:"stats"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &got))
	require.Len(t, got.Participants, 1)
	require.Equal(t, uint64(1), got.Stats["participants"])
	require.Contains(t, got.Stats, "malformed")
	require.Contains(t, got.Stats, "queue_full")
	require.Equal(t, "ddsping pong", got.Participants[0].Name)
	require.NotEmpty(t, got.Participants[0].Host)
	// The endpoints, with their policies as fields, and the pairs.
	i := slices.IndexFunc(got.Writers, func(e endpointRow) bool { return e.Topic == "ddsping_pong" })
	require.GreaterOrEqual(t, i, 0, stdout)
	w := got.Writers[i]
	require.Equal(t, "ddsping::Sample", w.Type)
	require.Equal(t, "ddsping pong", w.Participant)
	require.Equal(t, got.Participants[0].Handle, w.ParticipantGUID)
	require.Len(t, w.GUID, 32)
	require.Equal(t, "RELIABLE", w.Reliability)
	require.NotEmpty(t, w.History)
	require.True(t, slices.ContainsFunc(got.Readers, func(e endpointRow) bool { return e.Topic == "ddsping_ping" }), stdout)
	require.NotNil(t, got.Pairs, stdout)
}

func TestWatch(t *testing.T) {
	netns.Require(t)
	out := background(t, "watch", "-domain", "47")
	js := background(t, "watch", "-domain", "47", "-json")
	time.Sleep(100 * time.Millisecond)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		var sink testutil.SyncBuffer
		run(ctx, []string{"pong", "-domain", "47"}, &sink, &sink)
	}()
	seen := func(s string) func() bool { return func() bool { return strings.Contains(out.String(), s) } }
	// The JSON watcher prints the same events as objects.
	type event struct {
		Event    string       `json:"event"`
		Endpoint *endpointRow `json:"endpoint"`
		Pair     *pairReport  `json:"pair"`
	}
	jsonSeen := func(ok func(e event) bool) func() bool {
		return func() bool {
			for line := range strings.Lines(js.String()) {
				var e event
				if json.Unmarshal([]byte(line), &e) == nil && ok(e) {
					return true
				}
			}
			return false
		}
	}
	pingPair := func(what string) func() bool {
		return jsonSeen(func(e event) bool {
			return e.Event == what && e.Pair != nil && e.Pair.Topic == "ddsping_ping" && e.Pair.Match && e.Pair.WriterGUID != ""
		})
	}
	require.Eventually(t, seen(`participant new  "ddsping pong"`), 5*time.Second, 20*time.Millisecond, out.String())
	require.Eventually(t, seen(`endpoint new  writer topic "ddsping_pong"`), 5*time.Second, 20*time.Millisecond, out.String())
	require.Eventually(t, seen(`endpoint new  reader topic "ddsping_ping"`), 5*time.Second, 20*time.Millisecond, out.String())
	require.Eventually(t, seen("stats: received "), 5*time.Second, 20*time.Millisecond, out.String())
	require.Eventually(t, jsonSeen(func(e event) bool {
		return e.Event == "new" && e.Endpoint != nil && e.Endpoint.Kind == "writer" && e.Endpoint.Topic == "ddsping_pong" &&
			e.Endpoint.Participant == "ddsping pong" && e.Endpoint.Reliability == "RELIABLE"
	}), 5*time.Second, 20*time.Millisecond, js.String())
	// A pinger: its pairs with pong appear, in both watchers, and go with it.
	pinger, err := dds.NewParticipant(47)
	require.NoError(t, err)
	pt, err := dds.NewTopic[sample](pinger, topicPing, dds.TypeName(typeName))
	require.NoError(t, err)
	_, err = dds.NewWriter(pt, dds.Reliable())
	require.NoError(t, err)
	require.Eventually(t, seen(`pair new  "ddsping_ping": writer of`), 5*time.Second, 20*time.Millisecond, out.String())
	require.Eventually(t, pingPair("new"), 5*time.Second, 20*time.Millisecond, js.String())
	require.NoError(t, pinger.Close())
	require.Eventually(t, seen(`pair gone "ddsping_ping": writer of`), 5*time.Second, 20*time.Millisecond, out.String())
	require.Eventually(t, pingPair("gone"), 5*time.Second, 20*time.Millisecond, js.String())
	cancel()
	<-done
	require.Eventually(t, seen(`participant gone "ddsping pong"`), 5*time.Second, 20*time.Millisecond, out.String())
	require.Eventually(t, seen(`endpoint gone writer topic "ddsping_pong"`), 5*time.Second, 20*time.Millisecond, out.String())
}

func TestHist(t *testing.T) {
	var h hist
	require.Equal(t, rttStats{}, h.stats())
	for i := 1; i <= 1000; i++ {
		h.add(time.Duration(i) * time.Microsecond)
	}
	s := h.stats()
	require.Equal(t, uint64(1000), s.Count)
	require.Equal(t, time.Microsecond, s.Min)
	require.Equal(t, time.Millisecond, s.Max)
	require.InDelta(t, 500500, float64(s.Mean), 1)
	for _, c := range []struct {
		got  time.Duration
		want float64
	}{{s.P50, 500e3}, {s.P90, 900e3}, {s.P99, 990e3}} {
		require.InEpsilon(t, c.want, float64(c.got), 0.01)
	}
	var o hist
	o.add(2 * time.Second)
	o.add(-time.Second) // clamped to 0
	h.merge(&o)
	require.Equal(t, uint64(1002), h.stats().Count)
	require.Equal(t, 2*time.Second, h.stats().Max)
	require.Equal(t, time.Duration(0), h.stats().Min)
	for v := range uint64(1 << 20) {
		if v%997 == 0 || v < 300 {
			require.InEpsilon(t, float64(v+1), float64(bucketValue(bucket(v))+1), 0.01, "%d", v)
		}
	}
	require.Equal(t, histBuckets-1, bucket(1<<62))
	require.Equal(t, "mean 500.5us min 1.0us 50% 500.0us 90% 900.0us 99% 990.0us max 1000.0us cnt 1000", fmtRounded(s))
}

// fmtRounded formats s with the percentiles rounded to whole microseconds, as the
// buckets place them within 1 %.
func fmtRounded(s rttStats) string {
	r := func(d time.Duration) time.Duration { return d.Round(10 * time.Microsecond) }
	s.P50, s.P90, s.P99 = r(s.P50), r(s.P90), r(s.P99)
	return s.String()
}

func TestBytesString(t *testing.T) {
	require.Equal(t, "16 B", bytesString(16))
	require.Equal(t, "1 KiB", bytesString(1024))
	require.Equal(t, "64 KiB", bytesString(64<<10))
	require.Equal(t, "1 MiB", bytesString(1<<20))
	require.Equal(t, "1500 B", bytesString(1500))
}

func TestWhyNot(t *testing.T) {
	w := dds.EndpointBuiltinTopicData{TopicName: "t", TypeName: "a::T", Keyed: true}
	w.Offered.Writer.Reliability.Kind = qos.BestEffort
	r := w
	r.Requested.Reader.Reliability.Kind = qos.Reliable
	require.Contains(t, whyNot(w, r), "incompatible QoS: Reliability: offered BEST_EFFORT, requested RELIABLE")
	r.Requested.Reader.Reliability.Kind = qos.BestEffort
	require.Empty(t, whyNot(w, r))
	r.TypeName = "b::T"
	r.Keyed = false
	r.Requested.Subscriber.Partition.Name = []string{"x"}
	why := whyNot(w, r)
	require.Contains(t, why, "type names differ")
	require.Contains(t, why, "one side has a key")
	require.Contains(t, why, "partitions do not match")
}
