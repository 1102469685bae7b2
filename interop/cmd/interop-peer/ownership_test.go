package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/netns"
)

// lineSink collects the lines a peer prints, as they come.
type lineSink struct {
	mu      sync.Mutex
	partial []byte
	lines   []string
	changed chan struct{} // closed and replaced at each new line
}

func newLineSink() *lineSink { return &lineSink{changed: make(chan struct{})} }

func (s *lineSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.partial = append(s.partial, p...)
	for {
		i := bytes.IndexByte(s.partial, '\n')
		if i < 0 {
			break
		}
		s.lines = append(s.lines, string(s.partial[:i]))
		s.partial = s.partial[i+1:]
		close(s.changed)
		s.changed = make(chan struct{})
	}
	return len(p), nil
}

// waitFor waits until ok holds for the lines so far, or ctx ends; it returns the lines.
func (s *lineSink) waitFor(ctx context.Context, ok func([]string) bool) ([]string, bool) {
	for {
		s.mu.Lock()
		lines, ch := append([]string(nil), s.lines...), s.changed
		s.mu.Unlock()
		if ok(lines) {
			return lines, true
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return lines, false
		}
	}
}

// startWatched starts the peer name ("go" or a peer program) with args, its standard
// output going to out.
func startWatched(t *testing.T, name string, args []string, out *lineSink) *proc {
	t.Helper()
	if name == "go" {
		ctx, cancel := context.WithCancel(context.Background())
		p := &proc{name: name, done: make(chan result, 1), stop: cancel}
		go func() {
			defer cancel()
			var stderr bytes.Buffer
			code := run(ctx, args, out, &stderr)
			p.done <- result{code: code, stderr: stderr.String()}
		}()
		t.Cleanup(func() { cancel(); p.wait(t, 20*time.Second) })
		return p
	}
	cmd := exec.Command(peerBinary(t, name), args...)
	cmd.Stdout = out
	p, err := startProcess(t, name, cmd)
	require.NoError(t, err)
	return p
}

// ownershipLine is a sample line of the reader, S for the strong writer's (its
// samples have two values), W for the weak one's (none), "" for other lines.
func ownershipLine(l string) (who string, seq uint64) {
	var s jsonSample
	if json.Unmarshal([]byte(l), &s) != nil || s.Text == "" {
		return "", 0
	}
	if len(s.Values) > 0 {
		return "S", s.Seq
	}
	return "W", s.Seq
}

// ownershipRun is one run of TestOwnershipCyclone.
type ownershipRun struct {
	reader, strong, weak string // "go" or a peer program
	domain               int
	leave                bool // the strong writer leaves instead of unregistering
}

// strongCount is how many samples the strong writer writes.
const strongCount = 10

// summary is the reader's sample lines as S<seq> and W<seq>, for failure messages.
func summary(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		if who, seq := ownershipLine(l); who != "" {
			fmt.Fprintf(&b, "%s%d ", who, seq)
		}
	}
	return b.String()
}

// afterStrong returns the index of the last strong line and the number of weak lines
// after it (-1, 0 without strong lines).
func afterStrong(lines []string) (last, weak int) {
	last = -1
	for i, l := range lines {
		switch who, _ := ownershipLine(l); who {
		case "S":
			last, weak = i, 0
		case "W":
			weak++
		}
	}
	return last, weak
}

// run runs the scenario: the weak writer writes on and on, the reader hears it; the
// strong writer comes, writes strongCount samples, which the reader hears alone, and
// unregisters (or leaves); the reader hears the weak writer again.
func (o ownershipRun) run(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	// A topic of its own: the peers of earlier runs in the domain may linger, killed.
	end := "unregister"
	if o.leave {
		end = "leave"
	}
	topic := fmt.Sprintf("own_%s_%s_%s_%s", o.reader, o.strong, o.weak, end)
	common := []string{"-domain", fmt.Sprint(o.domain), "-topic", topic, "-keys", "1", "-reliable", "-timeout", "40s"}
	rOut, wOut, sOut := newLineSink(), newLineSink(), newLineSink()
	rp := startWatched(t, o.reader, append([]string{"-role", "sub", "-count", "100000", "-ownership-strength", "0"}, common...), rOut)
	wp := startWatched(t, o.weak, append([]string{"-role", "pub", "-count", "800", "-rate", "20", "-payload", "0", "-ownership-strength", "1"}, common...), wOut)
	defer func() {
		rp.stop()
		wp.stop()
	}()
	weakHeard := func(n int) func([]string) bool {
		return func(lines []string) bool {
			c := 0
			for _, l := range lines {
				if who, _ := ownershipLine(l); who == "W" {
					c++
				}
			}
			return c >= n
		}
	}
	lines, ok := rOut.waitFor(ctx, weakHeard(2))
	require.True(t, ok, "the reader does not hear the weak writer: %s", summary(lines))

	sArgs := []string{"-role", "pub", "-count", fmt.Sprint(strongCount), "-rate", "20", "-payload", "16", "-ownership-strength", "5"}
	if !o.leave {
		sArgs = append(sArgs, "-unregister", "-linger", "30s") // still there after the hand-over
	}
	sp := startWatched(t, o.strong, append(sArgs, common...), sOut)
	defer sp.stop()
	lines, ok = rOut.waitFor(ctx, func(lines []string) bool {
		last, weak := afterStrong(lines)
		if last < 0 {
			return false
		}
		who, seq := ownershipLine(lines[last])
		return who == "S" && seq == strongCount && weak >= 3
	})
	require.True(t, ok, "the reader does not hear the strong writer, then the weak one: %s", summary(lines))
	if !o.leave {
		select {
		case r := <-sp.done:
			sp.res = &r
			t.Fatalf("the strong writer left (exit %d) before the hand-over was seen: %s", r.code, r.stderr)
		default:
		}
	}

	// Between the strong writer's first and last samples, only its own, all of them.
	first := -1
	for i, l := range lines {
		if who, _ := ownershipLine(l); who == "S" {
			first = i
			break
		}
	}
	last, _ := afterStrong(lines)
	var got []uint64
	for _, l := range lines[first : last+1] {
		who, seq := ownershipLine(l)
		require.NotEqual(t, "W", who, "a weak sample while the strong writer owns the instance: %s", summary(lines))
		if who == "S" {
			got = append(got, seq)
		}
	}
	want := make([]uint64, strongCount)
	for i := range want {
		want[i] = uint64(i + 1)
	}
	require.Equal(t, want, got, "the strong writer's samples: %s", summary(lines))
}

// OWNERSHIP EXCLUSIVE across vendors: a Cyclone DDS writer and a ddsgo writer of
// different strengths write the same instance; the reader, ddsgo's and Cyclone's, hears
// only the stronger while it is there, and the weaker again once the stronger
// unregisters or leaves. Domains 198-201.
func TestOwnershipCyclone(t *testing.T) {
	netns.Require(t)
	peerBinary(t, "cyclone")
	runs := []ownershipRun{
		{reader: "go", strong: "cyclone", weak: "go", domain: 198},
		{reader: "go", strong: "go", weak: "cyclone", domain: 199},
		{reader: "cyclone", strong: "cyclone", weak: "go", domain: 200},
		{reader: "cyclone", strong: "go", weak: "cyclone", domain: 201},
	}
	for _, o := range runs {
		t.Run(fmt.Sprintf("%s_reader/%s_stronger", o.reader, o.strong), func(t *testing.T) {
			t.Parallel()
			t.Run("unregister", o.run)
			o.leave = true
			t.Run("leave", o.run)
		})
	}
}

// OWNERSHIP EXCLUSIVE with Fast DDS 2.9.1, which implements it (with the same tie rule,
// on strengths compared as unsigned): its reader between two ddsgo writers, and its
// writer as the stronger for a ddsgo reader. Domain 202, one run after the other.
func TestOwnershipFastDDS(t *testing.T) {
	netns.Require(t)
	peerBinary(t, "fastdds")
	for _, o := range []ownershipRun{
		{reader: "fastdds", strong: "go", weak: "go", domain: 202},
		{reader: "go", strong: "fastdds", weak: "go", domain: 202},
	} {
		t.Run(fmt.Sprintf("%s_reader/%s_stronger", o.reader, o.strong), func(t *testing.T) {
			t.Run("unregister", o.run)
			o.leave = true
			t.Run("leave", o.run)
		})
	}
}
