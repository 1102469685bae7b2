package main

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/internal/netns"
	"github.com/stretchr/testify/require"
)

// The domains of these tests: the cases share one, each with a topic of its own, and
// the domain test puts its subscriber in the other.
const (
	shapeDomain = 91
	otherDomain = 92
	// disposeDomain is final_dispose's own: its publisher ends after its iterations,
	// and must match its subscriber before then, not after the discovery of every
	// participant of the parallel cases (TestShapes failed so in a stress pass).
	disposeDomain = 89
)

// output collects what a run prints, line by line, for tests that wait for lines.
type output struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	lines []string
	more  chan struct{} // closed and replaced on every new line
}

func newOutput() *output { return &output{more: make(chan struct{})} }

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.buf.Write(p)
	for {
		i := bytes.IndexByte(o.buf.Bytes(), '\n')
		if i < 0 {
			break
		}
		o.lines = append(o.lines, string(o.buf.Next(i + 1)[:i]))
		close(o.more)
		o.more = make(chan struct{})
	}
	return len(p), nil
}

// wait returns the first line matching re, or fails the test after d.
func (o *output) wait(t *testing.T, re string, d time.Duration) string {
	t.Helper()
	if l, ok := o.find(re, d); ok {
		return l
	}
	t.Fatalf("no line matching %q within %v in:\n%s", re, d, strings.Join(o.snapshot(), "\n"))
	return ""
}

// find waits up to d for a line matching re.
func (o *output) find(re string, d time.Duration) (string, bool) {
	rx := regexp.MustCompile(re)
	end := time.After(d)
	for seen := 0; ; {
		o.mu.Lock()
		lines, more := o.lines, o.more
		o.mu.Unlock()
		for ; seen < len(lines); seen++ {
			if rx.MatchString(lines[seen]) {
				return lines[seen], true
			}
		}
		select {
		case <-more:
		case <-end:
			return "", false
		}
	}
}

func (o *output) snapshot() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.lines...)
}

// start runs shape-main with args (and extra, arguments with spaces) until the test
// ends; the returned channel gives its exit code.
func start(t *testing.T, args string, extra ...string) (*output, <-chan int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out := newOutput()
	done, ended := make(chan int, 1), make(chan struct{})
	go func() {
		done <- run(ctx, append(strings.Fields(args), extra...), out)
		close(ended)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-ended:
		case <-time.After(10 * time.Second):
			t.Errorf("shape-main %s did not end", args)
		}
	})
	return out, done
}

// sample is a sample line: topic, color, x, y, [size].
var sampleLine = regexp.MustCompile(`^(\S+)\s+(\S+)\s+(\d{3}) (\d{3}) \[(\d+)\]`)

// sizes returns the sizes of the sample lines of color.
func sizes(lines []string, color string) []int {
	var out []int
	for _, l := range lines {
		if m := sampleLine.FindStringSubmatch(l); m != nil && m[2] == color {
			n, _ := strconv.Atoi(m[5])
			out = append(out, n)
		}
	}
	return out
}

func TestOptions(t *testing.T) {
	var out bytes.Buffer
	_, code, ok := parse([]string{"-t", "Square"}, &out)
	require.False(t, ok)
	require.Equal(t, exitParsing, code)
	require.Contains(t, out.String(), "please specify publish [-P] or subscribe [-S]")

	out.Reset()
	o, _, ok := parse(strings.Fields("-P -t Square -b -k 0 -s -1 -D l -x 2 -f 100 --write-period 10 --final-instance-state d -z 0"), &out)
	require.True(t, ok)
	require.Equal(t, "BLUE", o.color) // the default, with a warning
	require.Contains(t, out.String(), `defaulting to "BLUE"`)
	require.False(t, o.reliable)
	require.Equal(t, 0, o.historyDepth)
	require.Equal(t, -1, o.strength)
	require.True(t, o.xcdr2)
	require.Equal(t, 100*time.Millisecond, o.deadline)
	require.Equal(t, 10*time.Millisecond, o.writePeriod)
	require.True(t, o.dispose)
	require.Equal(t, 0, o.shapesize)

	for _, bad := range []string{"-P -S -t T", "-P -t T -D x", "-S -t T -s -2", "-P -t T --num-iterations 0", "-P -t T extra"} {
		out.Reset()
		_, code, ok := parse(strings.Fields(bad), &out)
		require.False(t, ok, bad)
		require.Equal(t, exitParsing, code, bad)
	}
	require.Equal(t, "DATA_REPRESENTATION", policyName(23))
	require.Equal(t, "OWNERSHIP_STRENGTH", policyName(7))
}

// TestShapes runs the cases of the interoperability suite (test_suite.py there) between
// two ddsgo shape-mains, waiting for the lines the suite waits for.
func TestShapes(t *testing.T) {
	netns.Require(t)
	d := func(topic string) string { return fmt.Sprintf("-d %d -t %s", shapeDomain, topic) }
	const wait = 10 * time.Second

	t.Run("domain", func(t *testing.T) {
		t.Parallel()
		pub, _ := start(t, "-P "+d("Dom")+" --write-period 20")
		sub, _ := start(t, "-S "+d("Dom")+" -b")
		other, _ := start(t, fmt.Sprintf("-S -d %d -t Dom", otherDomain))
		pub.wait(t, `^on_publication_matched\(\) topic: 'Dom'  type: 'ShapeType' : matched readers 1 \(change = 1\)`, wait)
		sub.wait(t, `^Dom\s+BLUE\s+\d{3} \d{3} \[20\]$`, wait)
		if l, ok := other.find(`\[\d+\]`, time.Second); ok {
			t.Fatalf("a subscriber in another domain got %q", l)
		}
	})

	// Each side reports the policy that keeps the two from matching, and no sample
	// arrives.
	for _, c := range []struct{ name, pub, sub, policy string }{
		{"data_representation", "-x 1", "-x 2", "DATA_REPRESENTATION"},
		{"reliability", "-b", "-r", "RELIABILITY"},
		{"ownership", "-s -1", "-s 1", "OWNERSHIP"},
		{"durability", "-D v", "-D l", "DURABILITY"},
		{"deadline", "-f 200", "-f 100", "DEADLINE"},
	} {
		t.Run("incompatible_"+c.name, func(t *testing.T) {
			t.Parallel()
			topic := "Inc_" + c.name
			pub, _ := start(t, "-P "+d(topic)+" --write-period 20 "+c.pub)
			sub, _ := start(t, "-S "+d(topic)+" "+c.sub)
			pub.wait(t, `^on_offered_incompatible_qos\(\) topic: '`+topic+`'  type: 'ShapeType' : \d+ \(`+c.policy+`\)`, wait)
			sub.wait(t, `^on_requested_incompatible_qos\(\) topic: '`+topic+`'  type: 'ShapeType' : \d+ \(`+c.policy+`\)`, wait)
			if l, ok := sub.find(`\[\d+\]`, 300*time.Millisecond); ok {
				t.Fatalf("an incompatible subscriber got %q", l)
			}
		})
	}

	t.Run("partition", func(t *testing.T) {
		t.Parallel()
		pub, _ := start(t, "-P "+d("Part")+" -p A --write-period 20")
		sub, _ := start(t, "-S "+d("Part")+" -p B")
		same, _ := start(t, "-S "+d("Part")+" -p A")
		same.wait(t, `^Part\s+BLUE`, wait)
		pub.wait(t, `matched readers 1 \(change = 1\)`, wait)
		if l, ok := sub.find(`\[\d+\]|matched`, time.Second); ok {
			t.Fatalf("a subscriber of another partition got %q", l)
		}
	})

	// -c on a subscriber is a content filter on the color.
	t.Run("content_filter", func(t *testing.T) {
		t.Parallel()
		start(t, "-P "+d("Filt")+" -c RED --write-period 20")
		start(t, "-P "+d("Filt")+" -c BLUE --write-period 20")
		sub, _ := start(t, "-S "+d("Filt")+" -c BLUE")
		sub.wait(t, `^Create reader for topic: Filt_filtered color: BLUE$`, wait)
		sub.wait(t, `^Filt\s+BLUE`, wait)
		time.Sleep(500 * time.Millisecond)
		require.Empty(t, sizes(sub.snapshot(), "RED"))
	})

	// Test_Cft_1: --cft filters on a member that is not the key; --size-modulo keeps the
	// growing sizes in 1..50.
	t.Run("cft", func(t *testing.T) {
		t.Parallel()
		start(t, "-P "+d("Cft")+" -r -k 0 -z 0 --size-modulo 50 --write-period 2")
		sub, _ := start(t, "-S "+d("Cft")+" -r -k 0 --read-period 20 --cft", "shapesize <= 20")
		sub.wait(t, `^Cft\s+BLUE`, wait)
		var got []int
		deadline := time.Now().Add(wait)
		for len(got) < 40 && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
			got = sizes(sub.snapshot(), "BLUE")
		}
		require.GreaterOrEqual(t, len(got), 40, "the sizes wrap around 50 and come back under 20")
		for _, n := range got {
			require.True(t, n >= 1 && n <= 20, "size %d passed the filter: %v", n, got)
		}
	})

	// Test_Reliability_4: reliable KEEP_ALL, sizes growing by one, nothing lost or
	// repeated after the first sample.
	t.Run("reliable_order", func(t *testing.T) {
		t.Parallel()
		sub, _ := start(t, "-S "+d("Rel")+" -r -k 0 --read-period 20")
		pub, _ := start(t, "-P "+d("Rel")+" -r -k 0 -z 0 -w --write-period 5")
		pub.wait(t, `matched readers 1`, wait)
		sub.wait(t, `^Rel\s+BLUE\s+\d{3} \d{3} \[\d+\]`, wait)
		var got []int
		deadline := time.Now().Add(wait)
		for len(got) < 100 && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
			got = sizes(sub.snapshot(), "BLUE")
		}
		require.GreaterOrEqual(t, len(got), 100)
		for i := 1; i < len(got); i++ {
			require.Equal(t, got[i-1]+1, got[i], "sample %d of %v", i, got)
		}
	})

	// Test_CoherentSets_10: coherent sets of 3 samples of 4 instances in 3 topics, with
	// INSTANCE scope; the subscriber takes all three readers in one access every read
	// period and must see every set whole: 36 samples, 3 per topic and instance. ddsgo
	// shows a set of several writers at once whatever the scope (group coherent sets).
	t.Run("coherent_sets_topics", func(t *testing.T) {
		t.Parallel()
		sub, _ := start(t, "-S "+d("CohT")+" -r -k 0 --coherent --access-scope i --num-topics 3 --take-read --read-period 30")
		pub, _ := start(t, "-P "+d("CohT")+" -r -k 0 --coherent --access-scope i --num-topics 3 --num-instances 4 --coherent-sample-count 3 --write-period 10 -z 0")
		pub.wait(t, `matched readers 1`, wait)
		deadline := time.Now().Add(wait)
		for len(coherentReads(sub.snapshot())) < 8 && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		reads := coherentReads(sub.snapshot())
		require.GreaterOrEqual(t, len(reads), 8, "too few sets came")
		for i, r := range reads {
			require.Len(t, r, 12, "read %d: not all topics and instances: %v", i, r)
			n := -1
			for k, c := range r {
				require.Zerof(t, c%3, "read %d: %s has %d samples: %v", i, k, c, r)
				require.Truef(t, n < 0 || c == n, "read %d: parts of different sets: %v", i, r)
				n = c
			}
		}
	})

	t.Run("deadline_missed", func(t *testing.T) {
		t.Parallel()
		pub, _ := start(t, "-P "+d("Dl")+" -f 20 --write-period 100")
		sub, _ := start(t, "-S "+d("Dl")+" -f 20")
		pub.wait(t, `^on_offered_deadline_missed\(\) topic: 'Dl'  type: 'ShapeType' : \(total = \d+, change = \d+\)`, wait)
		sub.wait(t, `^on_requested_deadline_missed\(\) topic: 'Dl'  type: 'ShapeType' : \(total = \d+, change = \d+\)`, wait)
	})

	t.Run("final_dispose", func(t *testing.T) {
		t.Parallel()
		d := func(topic string) string { return fmt.Sprintf("-d %d -t %s", disposeDomain, topic) }
		sub, _ := start(t, "-S "+d("Disp")+" -r --read-period 20")
		pub, done := start(t, "-P "+d("Disp")+" -r -c GREEN --num-instances 2 --num-iterations 50 --write-period 20 --final-instance-state d")
		pub.wait(t, `matched readers 1`, wait)
		select {
		case code := <-done:
			require.Equal(t, exitOK, code)
		case <-time.After(wait):
			t.Fatal("the publisher did not end after its iterations")
		}
		sub.wait(t, `^Disp\s+GREEN1\s+\d{3}`, wait)
		sub.wait(t, `^Disp\s+GREEN\s+NOT_ALIVE_DISPOSED_INSTANCE_STATE$`, wait)
		sub.wait(t, `^Disp\s+GREEN1\s+NOT_ALIVE_DISPOSED_INSTANCE_STATE$`, wait)
	})
}

// coherentReads returns, for each "Reading coherent sets" block of a subscriber's
// output that shows samples, the number of samples of each topic and color.
func coherentReads(lines []string) []map[string]int {
	var reads []map[string]int
	var cur map[string]int
	for _, l := range lines {
		if strings.HasPrefix(l, "Reading coherent sets") {
			if len(cur) > 0 {
				reads = append(reads, cur)
			}
			cur = map[string]int{}
			continue
		}
		f := strings.Fields(l)
		if cur != nil && len(f) >= 5 && strings.HasPrefix(f[4], "[") {
			cur[f[0]+" "+f[1]]++
		}
	}
	return reads
}
