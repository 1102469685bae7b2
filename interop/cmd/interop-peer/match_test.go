package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/stretchr/testify/require"
)

// matchRuns is how many times TestTimeToMatch measures each case. docs/benchmarks.md
// records 50; CI measures once and checks only that nothing stalls.
var matchRuns = flag.Int("match.runs", 1, "runs of each TestTimeToMatch case")

// matchStall is the time-to-match TestTimeToMatch fails on: a lost SPDP reply that waits
// for the next periodic announcement (2.8 s before directed SPDP follow-ups) is a stall,
// one repeat period is not. 2 s, not 1: once in CI, with the machine's load average above
// 8 (the suite beside two other workers' tests), Cyclone DDS as reader and ddsgo as a
// late writer took 1.004 s, against p100 14 ms in 40 quiet runs; the cause is not
// established (Cyclone's AutoReschedNackDelay is 1 s, a lost ACKNACK or repair under load
// would fit) and is left open in the issue, not hidden: slow runs are logged.
const matchStall = 2 * time.Second

// matchDomains are the domains of the TestTimeToMatch runs.
var matchDomains = domainCycle{first: 190, n: 8}

// TestTimeToMatch measures how long a ddsgo endpoint and an endpoint of another vendor
// take to match, for each vendor as writer and as reader, in both start orders:
//
//   - go_first: the ddsgo endpoint waits; the clock starts when the other participant's
//     first SPDP announcement reaches ddsgo (its process start-up is not ours to count);
//   - go_last: the other peer runs; the clock starts when the ddsgo participant is created.
//
// The clock stops when both sides have matched and a first sample went through:
//
//   - a ddsgo reader takes the first sample of the other writer, which writes it as soon
//     as it matched the reader (volatile, -wait-readers 1 -settle 0): whichever side
//     matches last, the sample shows it;
//   - the other reader prints the sample that the ddsgo writer (transient local) wrote
//     when it was created, which that reader (transient local) asks for once it matched.
func TestTimeToMatch(t *testing.T) {
	forEachVendor(t, func(t *testing.T, vendor, bin string) {
		for _, goRole := range []string{"reader", "writer"} {
			for _, order := range []string{"go_first", "go_last"} {
				t.Run(goRole+"/"+order, func(t *testing.T) {
					var ds []time.Duration
					for range *matchRuns {
						ds = append(ds, timeToMatch(t, bin, goRole == "writer", order == "go_first"))
					}
					slices.Sort(ds)
					t.Logf("%s go %s %s: %d runs, p50 %v, p90 %v, p100 %v", vendor, goRole, order, len(ds),
						ds[len(ds)/2].Round(100*time.Microsecond), ds[len(ds)*9/10].Round(100*time.Microsecond),
						ds[len(ds)-1].Round(100*time.Microsecond))
					require.Less(t, ds[len(ds)-1], matchStall, "time to match")
				})
			}
		}
	})
}

// timeToMatch runs one measurement; see TestTimeToMatch.
func timeToMatch(t *testing.T, bin string, goWriter, goFirst bool) time.Duration {
	domain := matchDomains.next() // 190..229 in turn
	common := []string{"-domain", fmt.Sprint(domain), "-reliable", "-count", "1", "-timeout", "10s"}
	var other []string
	if goWriter {
		other = append([]string{"-role", "sub", "-transient-local", "-linger", "10s"}, common...)
	} else {
		other = append([]string{"-role", "pub", "-volatile", "-wait-readers", "1", "-settle", "0", "-linger", "10s"}, common...)
	}
	// The other peer's first line of output (the sample it wrote or received).
	printed := &firstLine{at: make(chan time.Time, 1)}
	startOther := func() *proc {
		cmd := exec.Command(bin, other...)
		cmd.Stdout = printed
		p, err := startProcess(t, "other", cmd)
		require.NoError(t, err)
		return p
	}
	var op *proc
	if !goFirst {
		op = startOther()
		time.Sleep(time.Second)
	}
	start := time.Now()
	p, err := dds.NewParticipant(domain)
	require.NoError(t, err)
	defer func() { require.NoError(t, p.Close()) }()
	opts := []dds.Option{dds.TypeName(Sample{}.DDSTypeName()), dds.Reliable()}
	if goWriter {
		opts = append(opts, dds.TransientLocal())
	}
	topic, err := dds.NewTopic[Sample](p, "ddsgo_interop", opts...)
	require.NoError(t, err)
	// Both have matched when the reader has the sample the writer wrote at once: the
	// ddsgo reader takes it, or the other reader prints it.
	var done func() bool
	if goWriter {
		w, err := dds.NewWriter(topic)
		require.NoError(t, err)
		require.NoError(t, w.Write(t.Context(), &Sample{ID: 1, Seq: 1, Text: "ddsgo 1 1"}))
		done = func() bool { return len(printed.at) > 0 }
	} else {
		r, err := dds.NewReader(topic)
		require.NoError(t, err)
		done = func() bool {
			ss, _, err := r.Take(t.Context(), dds.NoWait())
			if errors.Is(err, dds.ErrNoData) {
				return false
			}
			require.NoError(t, err)
			return len(ss) > 0
		}
	}
	if goFirst {
		// Past the initial burst of SPDP announcements (5, 100 ms apart): the
		// periodic ones are seconds apart.
		time.Sleep(time.Second)
		op = startOther()
		for {
			hs, err := p.DiscoveredParticipants()
			require.NoError(t, err)
			if len(hs) > 0 {
				start = time.Now()
				break
			}
			require.Less(t, time.Since(start), 10*time.Second, "other participant not discovered")
			time.Sleep(200 * time.Microsecond)
		}
	}
	for !done() {
		require.Less(t, time.Since(start), 10*time.Second, "not matched")
		time.Sleep(200 * time.Microsecond)
	}
	d := time.Since(start)
	if goWriter {
		d = (<-printed.at).Sub(start)
	}
	op.stop()
	op.wait(t, 10*time.Second)
	if d > 100*time.Millisecond {
		t.Logf("slow run (domain %d, start %s): %v", domain, start.Format("15:04:05.000000"), d)
	}
	return d
}

// firstLine is a process's stdout that notes when the first line ends.
type firstLine struct {
	at   chan time.Time
	seen bool
}

func (f *firstLine) Write(b []byte) (int, error) {
	if !f.seen && bytes.IndexByte(b, '\n') >= 0 {
		f.seen = true
		f.at <- time.Now()
	}
	return len(b), nil
}
