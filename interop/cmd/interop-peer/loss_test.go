//go:build linux

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/internal/netem"
	"github.com/ddsgo/ddsgo/internal/netns"
	"github.com/stretchr/testify/require"
)

// lossLink is what the lossy link between the two hosts does (netem 10 % loss, 5 % reorder, 1 % duplication, 2 ms delay), applied to every IP
// packet in both directions (ARP crosses unimpaired).
var lossLink = netem.Config{Loss: 0.10, Reorder: 0.05, Duplicate: 0.01, Delay: 2 * time.Millisecond, Exempt: netem.IsARP}

// lossCount is the number of samples of each lossy run: DDSGO_LOSS_COUNT, else 500 (a
// CI-sized run; the issue asks for 10 000).
func lossCount(t *testing.T) int {
	if s := os.Getenv("DDSGO_LOSS_COUNT"); s != "" {
		n, err := strconv.Atoi(s)
		require.NoError(t, err, "DDSGO_LOSS_COUNT")
		return n
	}
	return 500
}

// lossSeed seeds the link: DDSGO_LOSS_SEED, else the time (logged, to replay a run).
func lossSeed(t *testing.T) uint64 {
	if s := os.Getenv("DDSGO_LOSS_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		require.NoError(t, err, "DDSGO_LOSS_SEED")
		return n
	}
	return uint64(time.Now().UnixNano())
}

// lossyHosts runs pub and sub (command lines without the peer arguments) in two network
// namespaces joined by two TAP interfaces and a netem.Link with cfg between them, with
// the peer arguments common (both), pubArgs and subArgs. It returns both results.
func lossyHosts(t *testing.T, n int, cfg netem.Config, pubCmd, subCmd, common, pubArgs, subArgs []string) (pr, sr result) {
	t.Helper()
	ifA, ifB := fmt.Sprintf("ddsgota%d", n), fmt.Sprintf("ddsgotb%d", n)
	sub := newHost(t, "sub", ifB, fmt.Sprintf("198.18.%d.2/24", n), concat(subCmd, []string{"-role", "sub"}, common, subArgs))
	pub := newHost(t, "pub", ifA, fmt.Sprintf("198.18.%d.1/24", n), concat(pubCmd, []string{"-role", "pub"}, common, pubArgs))
	tapA, err := netem.OpenTAP(pub.pid, ifA)
	require.NoError(t, err)
	tapB, err := netem.OpenTAP(sub.pid, ifB)
	require.NoError(t, err)
	var portB netem.Port = tapB
	// DDSGO_LOSS_PCAP=DIR records what the subscriber's host sent and received.
	if dir := os.Getenv("DDSGO_LOSS_PCAP"); dir != "" {
		pp, err := newPcapPort(tapB, filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_")+".pcap"))
		require.NoError(t, err)
		defer func() { _ = pp.Close() }()
		portB = pp
	}
	link := netem.Start(tapA, portB, cfg)
	start := time.Now()
	sub.release()
	pub.release()

	a := mustParseArgs(t, concat([]string{"-role", "pub"}, common)...)
	sr = sub.p.wait(t, a.timeout+20*time.Second)
	pr = pub.p.wait(t, a.timeout+20*time.Second)
	took := time.Since(start)
	// The interfaces go when their files close: only after both peers have ended.
	_ = tapA.Close()
	_ = tapB.Close()
	link.Wait()
	ab, ba := link.Stats()
	t.Logf("%v (seed %d); pub->sub %+v; sub->pub %+v", took.Round(time.Millisecond), cfg.Seed, ab, ba)
	if t.Failed() || pr.code != exitOK || sr.code != exitOK {
		t.Logf("publisher: exit %d, stderr:\n%s", pr.code, pr.stderr)
		t.Logf("subscriber: exit %d, stderr:\n%s", sr.code, sr.stderr)
	}
	return pr, sr
}

func concat(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// lossPeers are the pairs of TestLoss: publisher, subscriber.
var lossPeers = [][2]string{
	{"go", "cyclone"}, {"cyclone", "go"}, {"go", "fastdds"}, {"fastdds", "go"}, {"go", "go"},
}

// baselinePeers are the vendors among themselves, the yardstick for the figures of
// lossPeers: TestLoss runs them too with DDSGO_LOSS_BASELINE=1.
var baselinePeers = [][2]string{{"cyclone", "cyclone"}, {"fastdds", "fastdds"}}

func lossPairs() [][2]string {
	if os.Getenv("DDSGO_LOSS_BASELINE") == "1" {
		return append(append([][2]string(nil), lossPeers...), baselinePeers...)
	}
	return lossPeers
}

// lossSizes are the payloads of TestLoss: small samples and fragmented ones (4 KiB: every
// peer fragments them, and each datagram is several IP packets, each of them subject to
// the loss).
var lossSizes = []struct {
	name    string
	payload int
}{{"small", 16}, {"frag", 4096}}

// peerCmd is the command line of a peer program: the test binary itself for "go".
func peerCmd(t *testing.T, name string) []string {
	if name == "go" {
		self, err := os.Executable()
		require.NoError(t, err)
		return []string{self}
	}
	return []string{peerBinary(t, name)}
}

// lossyRuns runs a parallel subtest, SIZE/PUB_to_SUB, for each payload size and each
// [publisher, subscriber] of pairs: the two peers talk across a lossy link of their own
// (numbered from first+1 on: seed and addresses), alone in their namespaces (the domain
// is theirs), with samples of 10 keys in turn (Fast DDS's resource limits follow -count
// and -keys), reliability (-reliable or -best-effort), VOLATILE, and the arguments
// peerArgs gives each. check gets the publisher's arguments and both results.
func lossyRuns(t *testing.T, first int, pairs [][2]string, reliability string,
	peerArgs func(pub, sub string) (pubArgs, subArgs []string), check func(t *testing.T, a args, pr, sr result),
) {
	netns.Require(t)
	if _, err := exec.LookPath("ip"); err != nil {
		t.Skip("no ip command (iproute2)")
	}
	count := lossCount(t)
	seed := lossSeed(t)
	n := first
	for _, size := range lossSizes {
		for _, pair := range pairs {
			n++
			n := n // this run's link: seed and addresses (the subtests run later, in parallel)
			t.Run(size.name+"/"+pair[0]+"_to_"+pair[1], func(t *testing.T) {
				pubCmd, subCmd := peerCmd(t, pair[0]), peerCmd(t, pair[1])
				t.Parallel()
				cfg := lossLink
				cfg.Seed = seed + uint64(n)*1000
				common := []string{
					"-keys", "10", "-count", fmt.Sprint(count), "-payload", fmt.Sprint(size.payload),
					reliability, "-volatile", "-timeout", fmt.Sprint(lossTimeout(count)),
				}
				pubArgs, subArgs := peerArgs(pair[0], pair[1])
				ps, ss := startSync(t)
				pubArgs, subArgs = append(pubArgs, ps...), append(subArgs, ss...)
				pr, sr := lossyHosts(t, n, cfg, pubCmd, subCmd, common, pubArgs, subArgs)
				check(t, mustParseArgs(t, concat([]string{"-role", "pub"}, common)...), pr, sr)
			})
		}
	}
}

// TestLoss: reliable KEEP_ALL across a link that loses, reorders, duplicates and delays
// packets, between each vendor and ddsgo both ways and between two ddsgo peers: every
// sample arrives exactly once, in order per instance (one writer).
func TestLoss(t *testing.T) {
	lossyRuns(t, 10, lossPairs(), "-reliable", func(pub, sub string) (pubArgs, subArgs []string) {
		// The publisher writes once the subscriber's reader has matched it (startSync: a
		// VOLATILE reader gets nothing written before it matched the writer; once in CI,
		// Cyclone DDS had not matched the ddsgo writer 2 s into the lossy SEDP exchange
		// and took the first 32 samples for history), settling a little more, and stays
		// until the subscriber is done (its namespace, and with it the link, goes when it
		// exits).
		return append([]string{"-settle", "1s", "-linger", "2s"}, linkArgs(pub)...),
			append([]string{"-linger", "0.5s"}, linkArgs(sub)...)
	}, func(t *testing.T, a args, pr, sr result) {
		want := expectedLines(a)
		requireLines(t, "publisher", want, pr.stdout)
		requireLines(t, "subscriber", want, sr.stdout)
		requireInstanceOrder(t, sr.stdout)
		require.Equal(t, exitOK, pr.code, "publisher exit status")
		require.Equal(t, exitOK, sr.code, "subscriber exit status")
	})
}

// linkMTU is the MTU of the lossy link's interfaces (TAP devices: Ethernet's).
const linkMTU = 1500

// linkArgs are the arguments that fit peer name to the lossy link. Vendor peers get
// their datagrams bounded by the MTU, as their vendors advise for lossy networks:
// otherwise Fast DDS packs up to 65500 bytes per datagram (45 IP fragments, which a link
// losing 10 % of packets delivers whole 0.9 % of the time) and Cyclone DDS up to 14720
// (10 fragments), and the receiving kernel, which keeps the fragments of incomplete
// datagrams for 30 s, soon drops every fragment (docs/interop.md). ddsgo bounds its
// datagrams by the interfaces' MTU by itself: it gets nothing.
func linkArgs(name string) []string {
	if name == "go" {
		return nil
	}
	return []string{"-max-message-size", fmt.Sprint(linkMTU - 28)}
}

// lossTimeout is the -timeout of a lossy run of count samples. Cyclone DDS moves
// fragmented samples slowly under loss, on either side (75 samples/s: 10 000 took 130 s
// from ddsgo, did not finish in 130 s from Cyclone DDS itself): 30 ms a sample.
func lossTimeout(count int) time.Duration {
	return 30*time.Second + time.Duration(count)*30*time.Millisecond
}

// requireInstanceOrder fails unless the samples of each instance in out come in
// increasing seq order (one writer writes them in that order).
func requireInstanceOrder(t *testing.T, out string) {
	t.Helper()
	last := map[int32]uint64{}
	bad := 0
	for _, l := range splitLines(out) {
		var s jsonSample
		if json.Unmarshal([]byte(l), &s) != nil || s.Seq == 0 {
			continue
		}
		if s.Seq <= last[s.ID] {
			if bad < 10 {
				t.Errorf("instance %d: seq %d after %d", s.ID, s.Seq, last[s.ID])
			}
			bad++
		}
		last[s.ID] = s.Seq
	}
	require.Zero(t, bad, "samples out of order")
}

// TestLossBestEffort: best effort across the lossy link, a ddsgo subscriber of each
// vendor's writer and of a ddsgo one: what arrives arrives once and in order, and the
// reader's SAMPLE_LOST total equals the number of samples that never arrived between the
// first and the last one that did (a best-effort reader cannot know of the others: no
// HEARTBEAT tells it what the writer wrote before or after).
func TestLossBestEffort(t *testing.T) {
	pairs := [][2]string{{"go", "go"}, {"cyclone", "go"}, {"fastdds", "go"}}
	lossyRuns(t, 30, pairs, "-best-effort", func(pub, _ string) (pubArgs, subArgs []string) {
		// The publisher writes at 1 kHz (a burst would overflow queues and measure
		// those), once the subscriber has matched it (startSync: 2 s of settling were
		// not always enough, CI lost every sample of a run whose SEDP DATA(w) and two
		// repairs were lost), and stays until the subscriber, idle for 3 s after the
		// last sample, is done.
		return append([]string{"-rate", "1000", "-settle", "2s", "-linger", "6s"}, linkArgs(pub)...),
			[]string{"-idle", "3s", "-sample-lost"}
	}, func(t *testing.T, a args, pr, sr result) {
		require.Equal(t, exitOK, pr.code, "publisher exit status")
		require.Equal(t, exitOK, sr.code, "subscriber exit status")
		requireLines(t, "publisher", expectedLines(a), pr.stdout)
		checkBestEffort(t, a, sr.stdout)
	})
}

// checkBestEffort checks a best-effort subscriber's output (samples, then the
// SAMPLE_LOST line) against what the publisher of a wrote.
func checkBestEffort(t *testing.T, a args, out string) {
	t.Helper()
	lines := splitLines(out)
	require.NotEmpty(t, lines)
	var lost jsonLost
	require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &lost), "last line: %s", lines[len(lines)-1])
	samples := lines[:len(lines)-1]
	want := map[string]bool{}
	for _, l := range expectedLines(a) {
		want[l] = true
	}
	seen := map[string]bool{}
	var lo, hi uint64
	for _, l := range samples {
		require.True(t, want[l], "not written: %.120s", l)
		require.False(t, seen[l], "received twice: %.120s", l)
		seen[l] = true
		var s jsonSample
		require.NoError(t, json.Unmarshal([]byte(l), &s))
		if lo == 0 || s.Seq < lo {
			lo = s.Seq
		}
		hi = max(hi, s.Seq)
	}
	requireInstanceOrder(t, out)
	received := uint64(len(samples))
	require.NotZero(t, received)
	never := hi - lo + 1 - received
	t.Logf("received %d of %d (seq %d..%d), %d never arrived in between; SAMPLE_LOST %d",
		received, a.count, lo, hi, never, lost.SampleLost)
	require.Equal(t, int64(never), int64(lost.SampleLost), "SAMPLE_LOST total")
}

// lossDefaultsCases are the runs of TestLossDefaults: a vendor's writer and a ddsgo
// reader and the other way round, small samples (three doubles) and 100 KiB ones, each
// within a bound (the peers' -timeout; a run here takes 3.5-7 s, on a quiet machine).
//
// Fast DDS's writer of 100 KiB samples and a ddsgo reader are not among them: with Fast
// DDS's default transport, each sample goes as two DATA_FRAGs of 64 and 36 KiB, UDP
// datagrams of 45 and 26 IP packets, and at 10 % loss the receiving host's kernel
// reassembled none of 332,590 fragments in a run (its 4 MiB of reassembly memory full of
// incomplete datagrams): no reader can help there, Fast DDS's own gets nothing either.
//
// The Fast DDS peer's writer sends a HEARTBEAT every 100 ms; "hb3s" runs it with Fast
// DDS's default period, 3 s, which paces every repair (a reader asks only when a
// HEARTBEAT asks it).
var lossDefaultsCases = []lossDefaultsCase{
	{"fastdds", "go", 24, 2000, 20 * time.Second, ""},
	{"fastdds", "go", 24, 2000, 60 * time.Second, "3s"},
	{"go", "fastdds", 24, 2000, 20 * time.Second, ""},
	{"cyclone", "go", 24, 2000, 20 * time.Second, ""},
	{"go", "cyclone", 24, 2000, 20 * time.Second, ""},
	{"go", "fastdds", 100 << 10, 30, 30 * time.Second, ""},
	{"cyclone", "go", 100 << 10, 30, 30 * time.Second, ""},
	{"go", "cyclone", 100 << 10, 30, 30 * time.Second, ""},
}

type lossDefaultsCase struct {
	pub, sub       string
	payload, count int
	timeout        time.Duration
	hb             string // the Fast DDS writer's -heartbeat-period, "" for the peer's 100 ms
}

// lossDefaultsBaseline are the vendors among themselves, run with DDSGO_LOSS_BASELINE=1:
// the yardstick of the ddsgo runs (docs/interop.md has the figures).
var lossDefaultsBaseline = []lossDefaultsCase{
	{"fastdds", "fastdds", 24, 2000, 30 * time.Second, ""},
	{"fastdds", "fastdds", 24, 2000, 60 * time.Second, "3s"},
	{"cyclone", "cyclone", 24, 2000, 30 * time.Second, ""},
	{"cyclone", "cyclone", 100 << 10, 30, 30 * time.Second, ""},
}

// TestLossDefaults: across the lossy link, each vendor with its default transport (no
// datagram bound: Fast DDS packs up to 64 KiB in a datagram, Cyclone DDS 14 KiB), as a
// user's program would be; reliable, VOLATILE, 3 keys, written at full speed, KEEP_ALL
// and KEEP_LAST (a depth that keeps every sample: the KEEP_LAST paths, nothing
// replaced). Every sample arrives exactly once, in order per instance, before the
// bound. The Fast DDS writer sends its whole history at once without waiting for
// acknowledgements: a ddsgo reader keeps all that arrives past a loss (out of its
// window, none) and asks for the rest.
func TestLossDefaults(t *testing.T) {
	netns.Require(t)
	if _, err := exec.LookPath("ip"); err != nil {
		t.Skip("no ip command (iproute2)")
	}
	runs := lossDefaultsCases
	if os.Getenv("DDSGO_LOSS_BASELINE") == "1" {
		runs = append(append([]lossDefaultsCase(nil), runs...), lossDefaultsBaseline...)
	}
	seed := lossSeed(t)
	n := 70
	for _, history := range []string{"keep_all", "keep_last"} {
		for _, c := range runs {
			n++
			n := n
			size := "small"
			if c.payload > 1000 {
				size = "100KiB"
			}
			if c.hb != "" {
				size += "_hb" + c.hb
			}
			t.Run(history+"/"+size+"/"+c.pub+"_to_"+c.sub, func(t *testing.T) {
				pubCmd, subCmd := peerCmd(t, c.pub), peerCmd(t, c.sub)
				t.Parallel()
				cfg := lossLink
				cfg.Seed = seed + uint64(n)*1000
				common := []string{
					"-keys", "3", "-count", fmt.Sprint(c.count), "-payload", fmt.Sprint(c.payload),
					"-reliable", "-volatile", "-timeout", fmt.Sprint(c.timeout.Seconds()),
				}
				if history == "keep_last" {
					common = append(common, "-keep-last", fmt.Sprint(c.count))
				}
				ps, ss := startSync(t)
				pubArgs := append([]string{"-settle", "1s", "-linger", "2s"}, ps...)
				if c.hb != "" {
					pubArgs = append(pubArgs, "-heartbeat-period", c.hb)
				}
				subArgs := append([]string{"-linger", "0.5s"}, ss...)
				if c.sub == "go" {
					subArgs = append(subArgs, "-counters")
				}
				start := time.Now()
				pr, sr := lossyHosts(t, n, cfg, pubCmd, subCmd, common, pubArgs, subArgs)
				a := mustParseArgs(t, concat([]string{"-role", "pub"}, common)...)
				want := expectedLines(a)
				requireLines(t, "subscriber", want, sr.stdout)
				requireInstanceOrder(t, sr.stdout)
				require.Equal(t, exitOK, sr.code, "subscriber exit status")
				require.Equal(t, exitOK, pr.code, "publisher exit status")
				if c.sub == "go" {
					var ctr jsonCounters
					for _, l := range splitLines(sr.stderr) {
						if strings.Contains(l, `"event":"counters"`) {
							require.NoError(t, json.Unmarshal([]byte(l), &ctr))
						}
					}
					require.Equal(t, "counters", ctr.Event, "the subscriber's counters")
					require.Zero(t, ctr.OutOfWindow, "changes dropped out of the reader's window: %+v", ctr.Statistics)
				}
				t.Logf("%d samples of %d B in %v", c.count, c.payload, time.Since(start).Round(time.Millisecond))
			})
		}
	}
}
