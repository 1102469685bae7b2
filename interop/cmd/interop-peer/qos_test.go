package main

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/netns"
)

// The domains of the QoS tests of this file (8..20), one per test, vendor and direction:
// the runs of a domain differ in their topics.
const (
	incompatibleDomain = 8  // 8..11
	deadlineDomain     = 12 // 12..15
	partitionDomain    = 16 // 16..19
	timeFilterDomain   = 20
)

// qosEvent is a deadline or incompatible-QoS event line of a peer's stderr.
type qosEvent struct {
	Event            string `json:"event"`
	TotalCount       int32  `json:"total_count"`
	TotalCountChange int32  `json:"total_count_change"`
	Policy           string `json:"policy"`
}

// qosEvents returns the event lines named name of a peer's stderr.
func qosEvents(stderr, name string) []qosEvent {
	var out []qosEvent
	for _, line := range splitLines(stderr) {
		var e qosEvent
		if json.Unmarshal([]byte(line), &e) == nil && e.Event == name {
			out = append(out, e)
		}
	}
	return out
}

// qosPair is a publisher and a subscriber of one QoS run: "go" or a vendor's peer, in
// this order.
type qosPair struct {
	name     string // for the subtest: "go_to_cyclone", ...
	pub, sub string
	domain   int
}

// qosPairs returns the runs between ddsgo and each vendor, both ways, with the domains
// first, first+1, ..., and between two ddsgo peers in domain first (inside a private
// network namespace; it skips the test outside).
func qosPairs(t *testing.T, first int) []qosPair {
	t.Helper()
	netns.Require(t)
	ps := []qosPair{{"go_to_go", "go", "go", first}}
	for _, vendor := range []string{"fastdds", "cyclone"} {
		ps = append(ps,
			qosPair{vendor + "_to_go", vendor, "go", first + len(ps) - 1},
			qosPair{"go_to_" + vendor, "go", vendor, first + len(ps)})
	}
	return ps
}

// runQos runs the subscriber sub and the publisher pub (in this order) with their
// command lines and returns how they ended; their stderr goes to the log on failure.
func runQos(t *testing.T, pub, sub string, pubArgs, subArgs []string) (pr, sr result) {
	t.Helper()
	start := func(name string, args []string) *proc {
		if name == "go" {
			return startGo(args)
		}
		p, err := startProcess(t, name, exec.Command(peerBinary(t, name), args...))
		require.NoError(t, err)
		return p
	}
	ss := start(sub, subArgs)
	ps := start(pub, pubArgs)
	sr, pr = ss.wait(t, 30*time.Second), ps.wait(t, 30*time.Second)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("publisher %s %v: exit %d, stderr:\n%s", pub, pubArgs, pr.code, pr.stderr)
			t.Logf("subscriber %s %v: exit %d, stdout:\n%s\nstderr:\n%s", sub, subArgs, sr.code, sr.stdout, sr.stderr)
		}
	})
	return pr, sr
}

// peerArgs is the command line of role with the common flags, then those of the role;
// the topic's name ends in the pair's.
func peerArgs(role string, pair qosPair, topic, common, own string) []string {
	a := []string{"-role", role, "-domain", fmt.Sprint(pair.domain), "-topic", topic + "_" + pair.name}
	return append(append(a, strings.Fields(common)...), strings.Fields(own)...)
}

// TestIncompatibleQosInterop: a writer and a reader of ddsgo and another vendor, both
// ways, whose QoS differ in one policy so that the writer does not offer what the reader
// requests: both print their incompatible-QoS event naming that policy, neither matches
// (both time out) and no sample arrives. The ddsgo side counts the one remote endpoint
// once (total_count 1 and a single event), though Cyclone DDS's type information has it
// evaluate the pair again when the type lookup completes.
func TestIncompatibleQosInterop(t *testing.T) {
	cases := []struct{ name, policy, pub, sub string }{
		{"RELIABILITY", "RELIABILITY", "-best-effort", "-reliable"},
		{"DURABILITY", "DURABILITY", "-volatile", "-durability transient-local"},
		// The kinds above TRANSIENT_LOCAL go on the wire and are compared too.
		{"DURABILITY_TRANSIENT", "DURABILITY", "-transient-local", "-durability transient"},
		{"DEADLINE", "DEADLINE", "-deadline 1s", "-deadline 100ms"},
	}
	for _, pair := range qosPairs(t, incompatibleDomain) {
		for _, c := range cases {
			t.Run(pair.name+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				topic := "incompatible_" + strings.ToLower(c.name)
				common := "-count 3 -timeout 3s"
				pr, sr := runQos(t, pair.pub, pair.sub,
					peerArgs("pub", pair, topic, common, c.pub), peerArgs("sub", pair, topic, common, c.sub))
				require.Equal(t, exitTimeout, pr.code, "publisher: no reader matched")
				require.Equal(t, exitTimeout, sr.code, "subscriber: no sample")
				require.Empty(t, sr.stdout, "subscriber output")
				for who, r := range map[string]struct {
					res   result
					event string
					ddsgo bool
				}{"publisher": {pr, "offered_incompatible_qos", pair.pub == "go"}, "subscriber": {sr, "requested_incompatible_qos", pair.sub == "go"}} {
					evs := qosEvents(r.res.stderr, r.event)
					require.NotEmpty(t, evs, "%s: no %s event", who, r.event)
					require.Equal(t, qosEvent{Event: r.event, TotalCount: 1, TotalCountChange: 1, Policy: c.policy}, evs[0], who)
					for _, e := range evs {
						require.Equal(t, c.policy, e.Policy, who)
					}
					if r.ddsgo {
						require.Len(t, evs, 1, "%s: one incompatible endpoint, counted once: %+v", who, evs)
					}
				}
			})
		}
	}
}

// requireDeadlineMissed checks that a peer printed at least min events named name,
// their totals counting up by their changes from 0.
func requireDeadlineMissed(t *testing.T, who string, r result, name string, least int32) {
	t.Helper()
	evs := qosEvents(r.stderr, name)
	var total int32
	for _, e := range evs {
		require.Positive(t, e.TotalCountChange, "%s: %+v", who, e)
		require.Equal(t, total+e.TotalCountChange, e.TotalCount, "%s: totals count up: %+v", who, evs)
		total = e.TotalCount
	}
	require.GreaterOrEqual(t, total, least, "%s: %s total: %+v", who, name, evs)
}

// TestDeadlineInterop: a writer and a reader of the other implementation (both ways)
// with one DEADLINE period, the writer writing one instance at 20 Hz.
//
// missed: with 200 ms, the writer writes 3 samples and then nothing for 1.2 s, and the
// reader lingers too: the reader gets the samples, and both sides count the deadlines
// missed after the last one, the writer in offered_deadline_missed, the reader in
// requested_deadline_missed (six each at most in 1.2 s; at least three are required).
//
// kept: with 500 ms, the writer writes 40 samples in 2 s and leaves once they are
// acknowledged, the reader 0.2 s after the last: neither side misses a deadline.
func TestDeadlineInterop(t *testing.T) {
	for _, pair := range qosPairs(t, deadlineDomain) {
		t.Run(pair.name+"/missed", func(t *testing.T) {
			t.Parallel()
			common := "-count 3 -keys 1 -deadline 200ms -timeout 10s -linger 1.2s"
			pubArgs := peerArgs("pub", pair, "deadline_missed", common, "-rate 20")
			pr, sr := runQos(t, pair.pub, pair.sub, pubArgs, peerArgs("sub", pair, "deadline_missed", common, ""))
			require.Equal(t, exitOK, pr.code, "publisher")
			require.Equal(t, exitOK, sr.code, "subscriber")
			requireLines(t, "subscriber", expectedLines(mustParseArgs(t, pubArgs...)), sr.stdout)
			requireDeadlineMissed(t, "publisher", pr, "offered_deadline_missed", 3)
			requireDeadlineMissed(t, "subscriber", sr, "requested_deadline_missed", 3)
		})
		t.Run(pair.name+"/kept", func(t *testing.T) {
			t.Parallel()
			common := "-count 40 -keys 1 -deadline 500ms -timeout 10s"
			pubArgs := peerArgs("pub", pair, "deadline_kept", common, "-rate 20")
			pr, sr := runQos(t, pair.pub, pair.sub, pubArgs, peerArgs("sub", pair, "deadline_kept", common, "-linger 0.2s"))
			require.Equal(t, exitOK, pr.code, "publisher")
			require.Equal(t, exitOK, sr.code, "subscriber")
			requireLines(t, "subscriber", expectedLines(mustParseArgs(t, pubArgs...)), sr.stdout)
			require.Empty(t, qosEvents(pr.stderr, "offered_deadline_missed"), "publisher")
			require.Empty(t, qosEvents(sr.stderr, "requested_deadline_missed"), "subscriber")
		})
	}
}

// TestPartitionInterop: a publisher and a subscriber of ddsgo and another vendor, both
// ways, on one topic in partitions that do not match (A and B: neither matches, both time
// out, no sample, and the ddsgo side counts no incompatible QoS) and that match (A and the list B,A; a writer's name and a reader's
// pattern, sensors and X,sens*; a writer's pattern and a reader's name, sens?rs and
// sensors: every sample arrives).
func TestPartitionInterop(t *testing.T) {
	cases := []struct {
		name, pub, sub string
		match          bool
	}{
		{"isolated", "A", "B", false},
		{"list", "A", "B,A", true},
		{"reader_pattern", "sensors", "X,sens*", true},
		{"writer_pattern", "sens?rs", "sensors", true},
	}
	for _, pair := range qosPairs(t, partitionDomain) {
		for _, c := range cases {
			t.Run(pair.name+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				topic, common := "partition_"+c.name, "-count 5 -keys 2 -timeout 10s"
				if !c.match {
					common = "-count 5 -keys 2 -timeout 3s"
				}
				pubArgs := peerArgs("pub", pair, topic, common, "-partition "+c.pub)
				pr, sr := runQos(t, pair.pub, pair.sub, pubArgs, peerArgs("sub", pair, topic, common, "-partition "+c.sub+" -linger 0.5s"))
				if !c.match {
					require.Equal(t, exitTimeout, pr.code, "publisher: no reader matched")
					require.Equal(t, exitTimeout, sr.code, "subscriber: no sample")
					require.Empty(t, sr.stdout, "subscriber output")
					// Partitions that do not match are no incompatible QoS (DDS 1.4
					// §2.2.3.13); Cyclone DDS counts them as one all the same.
					for _, side := range []struct {
						name string
						res  result
					}{{pair.pub, pr}, {pair.sub, sr}} {
						if side.name == "go" {
							require.NotContains(t, side.res.stderr, "incompatible_qos", "ddsgo side")
						}
					}
					return
				}
				require.Equal(t, exitOK, pr.code, "publisher")
				require.Equal(t, exitOK, sr.code, "subscriber")
				requireLines(t, "subscriber", expectedLines(mustParseArgs(t, pubArgs...)), sr.stdout)
			})
		}
	}
}

// TestTimeFilterInterop: a writer of each implementation writes at 100 Hz, best effort,
// to a ddsgo reader with a TIME_BASED_FILTER of 100 ms, which takes 15 samples: about
// one in ten. Between two samples it takes there must be at least 5 written (the filter
// drops samples) and on average at most 20 (it does not drop too many). The Cyclone DDS
// and Fast DDS readers do not filter (interop/README.md), so only ddsgo reads here.
func TestTimeFilterInterop(t *testing.T) {
	netns.Require(t)
	for _, pub := range []string{"fastdds", "cyclone", "go"} {
		t.Run(pub+"_to_go", func(t *testing.T) {
			t.Parallel()
			pair := qosPair{pub + "_to_go", pub, "go", timeFilterDomain}
			topic, common := "time_filter", "-best-effort -keys 1 -timeout 10s"
			pr, sr := runQos(t, pub, "go", peerArgs("pub", pair, topic, common, "-count 300 -rate 100"),
				peerArgs("sub", pair, topic, common, "-count 15 -time-filter 100ms"))
			require.Equal(t, exitOK, pr.code, "publisher")
			require.Equal(t, exitOK, sr.code, "subscriber")
			var seqs []int64
			for _, l := range splitLines(sr.stdout) {
				var s jsonSample
				require.NoError(t, json.Unmarshal([]byte(l), &s), l)
				seqs = append(seqs, int64(s.Seq))
			}
			require.Len(t, seqs, 15)
			for i := 1; i < len(seqs); i++ {
				require.GreaterOrEqual(t, seqs[i]-seqs[i-1], int64(5), "samples taken: %v", seqs)
			}
			require.LessOrEqual(t, (seqs[len(seqs)-1]-seqs[0])/int64(len(seqs)-1), int64(20), "samples taken: %v", seqs)
		})
	}
}

// TestTransientInterop: a TRANSIENT writer offers what a TRANSIENT_LOCAL reader requests,
// between ddsgo and each vendor both ways (the Fast DDS peer gives its TRANSIENT writer
// and reader the persistence service Fast DDS requires): they match and every sample
// arrives.
func TestTransientInterop(t *testing.T) {
	for _, pair := range qosPairs(t, incompatibleDomain) {
		t.Run(pair.name, func(t *testing.T) {
			t.Parallel()
			common := "-count 6 -keys 2 -timeout 10s"
			pubArgs := peerArgs("pub", pair, "transient", common, "-durability transient")
			pr, sr := runQos(t, pair.pub, pair.sub, pubArgs, peerArgs("sub", pair, "transient", common, "-durability transient-local -linger 0.5s"))
			require.Equal(t, exitOK, pr.code, "publisher")
			require.Equal(t, exitOK, sr.code, "subscriber")
			requireLines(t, "subscriber", expectedLines(mustParseArgs(t, pubArgs...)), sr.stdout)
		})
	}
}

// TestPersistentFastDDSRefuses: Fast DDS 2.9 refuses PERSISTENT endpoints; its peer
// says so and exits 2 rather than failing to create one.
func TestPersistentFastDDSRefuses(t *testing.T) {
	netns.Require(t)
	bin := peerBinary(t, "fastdds")
	for _, role := range []string{"pub", "sub"} {
		sp, err := startProcess(t, "fastdds", exec.Command(bin, "-role", role, "-domain", fmt.Sprint(incompatibleDomain),
			"-durability", "persistent", "-timeout", "2s"))
		require.NoError(t, err)
		res := sp.wait(t, 10*time.Second)
		require.Equal(t, exitUsage, res.code, role)
		require.Contains(t, res.stderr, "refuses PERSISTENT", role)
	}
}
