package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/internal/netns"
	"github.com/ddsgo/ddsgo/internal/testutil"
	"github.com/stretchr/testify/require"
)

// peerEnv makes the test binary run as the peer program (with the peer's command line
// instead of the test flags), so that tests can start Go peers as processes, for example
// in other network namespaces.
const peerEnv = "DDSGO_INTEROP_PEER"

func TestMain(m *testing.M) {
	if role := os.Getenv(simRoleEnv); role != "" {
		if err := runSimRole(role, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if os.Getenv(peerEnv) == "1" {
		os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
	}
	// The interop runs mostly wait (discovery, settling, lingering): run more of them at
	// once than the default GOMAXPROCS, unless -parallel says otherwise.
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", "6")
	}
	testutil.Main(m)
}

// peerBinary returns the path of the peer program of the named implementation (cyclone,
// fastdds), built by `make -C interop`, and skips the test when it is not built.
func peerBinary(t testing.TB, name string) string { return builtProgram(t, name+"-peer") }

// builtProgram returns the path of a program that `make -C interop` builds into build/,
// and skips the test when it is not built.
func builtProgram(t testing.TB, name string) string {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("..", "..", "build", name))
	require.NoError(t, err)
	if fi, err := os.Stat(path); err != nil || fi.Mode()&0o111 == 0 {
		t.Skipf("%s is not built: run make -C interop", path)
	}
	return path
}

// forEachVendor runs f as a subtest for each other vendor, with the path of its peer
// program (peerBinary), inside a private network namespace (it skips the test outside).
func forEachVendor(t *testing.T, f func(t *testing.T, vendor, bin string)) {
	t.Helper()
	netns.Require(t)
	for _, vendor := range []string{"fastdds", "cyclone"} {
		t.Run(vendor, func(t *testing.T) { f(t, vendor, peerBinary(t, vendor)) })
	}
}

// domainCycle hands out the domains first .. first+n-1 in turn, to runs that go one after
// the other: a run ends its peers before the next starts, so the domains of a cycle are
// away from those of the other tests (see nextDomain) and are not in use when reused.
type domainCycle struct {
	mu              sync.Mutex
	first, n, count int
}

func (c *domainCycle) next() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	d := c.first + c.count%c.n
	c.count++
	return d
}

// result is how a peer ended.
type result struct {
	code           int // exit status; -1 when killed
	stdout, stderr string
}

// proc is a running peer.
type proc struct {
	name string
	done chan result
	stop func() // ends the peer early (linger)
	res  *result
}

// startGo runs the Go peer in this process.
func startGo(args []string) *proc {
	ctx, cancel := context.WithCancel(context.Background())
	p := &proc{name: "go", done: make(chan result, 1), stop: cancel}
	go func() {
		defer cancel()
		var stdout, stderr bytes.Buffer
		code := run(ctx, args, &stdout, &stderr)
		p.done <- result{code, stdout.String(), stderr.String()}
	}()
	return p
}

// startProcess starts a peer program, cmd, as a process.
func startProcess(t testing.TB, name string, cmd *exec.Cmd) (*proc, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if cmd.Stdout == nil { // else the caller watches it
		cmd.Stdout = &stdout
	}
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &proc{name: name, done: make(chan result, 1), stop: func() { _ = cmd.Process.Kill() }}
	go func() {
		err := cmd.Wait()
		code := 0
		if err != nil {
			code = -1
			if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
				code = ee.ExitCode()
			}
		}
		p.done <- result{code, stdout.String(), stderr.String()}
	}()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return p, nil
}

// wait returns the peer's result, killing it after limit.
func (p *proc) wait(t testing.TB, limit time.Duration) result {
	t.Helper()
	if p.res != nil {
		return *p.res
	}
	select {
	case r := <-p.done:
		p.res = &r
	case <-time.After(limit):
		p.stop()
		r := <-p.done
		p.res = &r
		t.Errorf("%s peer still running after %v: killed", p.name, limit)
	}
	return *p.res
}

// expectedLines returns what the publisher of a prints, and what its subscriber must
// print, one string per line.
func expectedLines(a args) []string {
	var out bytes.Buffer
	pr := newTestPeer(&out)
	n := int(a.payload / 8)
	for seq := uint64(1); seq <= uint64(a.count); seq++ {
		s := Sample{ID: int32(1 + (seq-1)%uint64(a.keys)), Seq: seq, Values: make([]float64, n)}
		s.Text = fmt.Sprintf("ddsgo %d %d", s.ID, seq)
		for i := range s.Values {
			s.Values[i] = float64(seq) + float64(i)/8
		}
		pr.printSample(&s)
	}
	for id := int32(1); id <= int32(a.keys); id++ {
		switch {
		case a.dispose:
			pr.printState(id, "disposed")
		case a.unregister:
			pr.printState(id, "unregistered")
		}
	}
	return splitLines(out.String())
}

func splitLines(s string) []string {
	lines := strings.Split(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// requireLines fails unless got holds exactly the lines of want, in any order, and says
// which are missing and which are extra or duplicated.
func requireLines(t testing.TB, who string, want []string, got string) {
	t.Helper()
	have := splitLines(got)
	count := map[string]int{}
	for _, l := range want {
		count[l]++
	}
	for _, l := range have {
		count[l]--
	}
	var missing, extra []string
	short := func(l string) string {
		if len(l) > 120 {
			return fmt.Sprintf("%s... (%d bytes)", l[:120], len(l))
		}
		return l
	}
	for _, l := range slices.Sorted(func(yield func(string) bool) {
		for l := range count {
			if !yield(l) {
				return
			}
		}
	}) {
		for n := count[l]; n > 0; n-- {
			missing = append(missing, short(l))
		}
		for n := count[l]; n < 0; n++ {
			extra = append(extra, short(l))
		}
	}
	if len(missing) > 0 || len(extra) > 0 {
		t.Errorf("%s: %d lines, want %d; missing %d: %s; extra or duplicated %d: %s", who, len(have), len(want),
			len(missing), strings.Join(first(missing, 10), " "), len(extra), strings.Join(first(extra, 10), " "))
	}
}

func first(s []string, n int) []string { return s[:min(n, len(s))] }

// scenario is one run of the peer contract: the arguments of both peers and what must
// happen.
type scenario struct {
	name     string
	args     string // for both peers
	pub, sub string // for one peer only
	domain   int    // 0: a domain of its own
	// late starts the subscriber a second after the publisher, which writes at once
	// (-wait-readers 0) and lingers until the subscriber is done.
	late bool
	// noMatch: the publisher registers another type name; both must time out and the
	// subscriber receive nothing.
	noMatch bool
	// subWant, if set, returns what the subscriber must print from the publisher's
	// lines; otherwise the same lines.
	subWant func(pub []string) []string
	// only restricts the scenario to pairs of "go" and this peer.
	only string
}

var scenarios = []scenario{
	{name: "late_joiner", args: "-reliable -transient-local -keys 3 -count 12", pub: "-wait-readers 0 -linger 10s", late: true},
	// The best-effort publisher stays a little after its last write: when it leaves at
	// once, its SEDP disposal may overtake its last DATA (another socket), and a reader
	// drops data from a writer it has unmatched.
	{name: "best_effort", args: "-best-effort -volatile -keys 3 -count 20 -rate 200", pub: "-linger 0.5s"},
	{name: "keys3", args: "-reliable -volatile -keys 3 -count 30"},
	{name: "domain7", args: "-keys 3 -count 10", domain: 7},
	{name: "1MiB", args: "-keys 1 -count 3 -payload 1048576 -timeout 20s"},
	// Above twice the window, our writer paces a sample's fragments (internal/rtps
	// pace.go): every peer's reader must still get every sample.
	{name: "4MiB", args: "-keys 1 -count 3 -payload 4194304 -timeout 30s", domain: 4},
	{name: "dispose", args: "-keys 3 -count 6 -dispose"},
	{name: "unregister", args: "-keys 3 -count 6 -unregister"},
	{name: "type_mismatch", args: "-count 1 -timeout 2s", pub: "-type interop::Other", noMatch: true},
	// A late joiner to a KEEP_LAST 1 writer gets the last sample of each key only.
	{
		name: "keep_last1_late", args: "-reliable -transient-local -keep-last 1 -keys 3 -count 30",
		pub: "-wait-readers 0 -linger 10s", sub: "-count 3", late: true,
		subWant: func(pub []string) []string { return pub[len(pub)-3:] },
	},
	// Every peer takes -lifespan; within it a late joiner loses nothing (writer-side
	// expiry: TestLifespanLateJoiner).
	{name: "lifespan_late", args: "-reliable -transient-local -keys 3 -count 12 -lifespan 30s", pub: "-wait-readers 0 -linger 10s", late: true},
	// Fast DDS (fastddsgen 2.3.0, Fast CDR 1.x) has no XCDR2.
	{name: "xcdr2", args: "-keys 3 -count 6 -xcdr2", only: "cyclone"},
	{name: "appendable", args: "-keys 3 -count 6 -appendable", only: "cyclone"},
	// Cyclone DDS takes disposes of an appendable type only with the serialized key under
	// the data's encapsulation id (D_CDR2): it cannot recover the key from the hash.
	{name: "appendable_dispose", args: "-keys 3 -count 6 -appendable -dispose", only: "cyclone"},
}

var (
	domainMu sync.Mutex
	// 100.. for the runs that want a domain of their own (fewer than 60): the tests of
	// this package run in parallel in one network namespace.
	nextDomain = 100
	// lastOwnDomain is the last of them: the mesh cycle starts at 160.
	lastOwnDomain = 159
	sharedMu      = sync.Map{} // domain -> *sync.Mutex, for the runs that share one
)

// domainFor returns the domain of a run and locks it when runs share it.
func domainFor(t testing.TB, sc scenario) int {
	if sc.domain == 0 {
		domainMu.Lock()
		defer domainMu.Unlock()
		d := nextDomain
		if d > lastOwnDomain {
			t.Fatalf("more than %d runs want a domain of their own: give the scenarios more domains", lastOwnDomain-99)
		}
		nextDomain++
		return d
	}
	mu, _ := sharedMu.LoadOrStore(sc.domain, &sync.Mutex{})
	mu.(*sync.Mutex).Lock()
	t.Cleanup(mu.(*sync.Mutex).Unlock)
	return sc.domain
}

// startSync returns the arguments that make the publisher write only once the
// subscriber's reader has matched its writer: the subscriber makes a file then
// (-ready-file), and the publisher waits for it (-start-file). The writer's own side of
// the match says nothing of the reader's, and a best-effort or volatile reader gets
// nothing written before it matched: a publisher that only settled a while after its
// own match lost every sample when the reader's side took longer (under load, or when a
// lost SEDP message waited for a HEARTBEAT).
func startSync(t *testing.T) (pubArgs, subArgs []string) {
	f := filepath.Join(t.TempDir(), "ready")
	return []string{"-start-file", f}, []string{"-ready-file", f}
}

// runScenario runs sc between the publisher pub and the subscriber sub ("go" or the
// name of a peer program) and checks both outputs.
func runScenario(t *testing.T, sc scenario, pub, sub string) {
	bins := map[string]string{}
	for _, name := range []string{pub, sub} {
		if name != "go" {
			bins[name] = peerBinary(t, name)
		}
	}
	t.Parallel()
	domain := domainFor(t, sc)
	common := append(strings.Fields(sc.args), "-domain", fmt.Sprint(domain))
	pubArgs := append(append([]string{"-role", "pub"}, common...), strings.Fields(sc.pub)...)
	subArgs := append(append([]string{"-role", "sub"}, common...), strings.Fields(sc.sub)...)
	// A reader acknowledges only when a heartbeat asks, and Fast DDS sends none right
	// after data: keep the reader a little so that the writer sees its last ACKNACK.
	if pub != "cyclone" {
		subArgs = append(subArgs, "-linger", "0.5s")
	}
	if !sc.late && !sc.noMatch {
		ps, ss := startSync(t)
		pubArgs, subArgs = append(pubArgs, ps...), append(subArgs, ss...)
	}
	a := mustParseArgs(t, pubArgs...)

	start := func(name string, args []string) *proc {
		if name == "go" {
			return startGo(args)
		}
		p, err := startProcess(t, name, exec.Command(bins[name], args...))
		require.NoError(t, err)
		return p
	}
	var ps, ss *proc
	if sc.late {
		ps = start(pub, pubArgs)
		time.Sleep(time.Second)
		ss = start(sub, subArgs)
	} else {
		ss = start(sub, subArgs)
		ps = start(pub, pubArgs)
	}
	limit := a.timeout + 10*time.Second
	sr := ss.wait(t, limit)
	if sc.late {
		ps.stop() // end the linger
	}
	pr := ps.wait(t, limit)
	defer func() {
		if t.Failed() {
			t.Logf("publisher %s %v: exit %d, stderr:\n%s", pub, pubArgs, pr.code, pr.stderr)
			t.Logf("subscriber %s %v: exit %d, stderr:\n%s", sub, subArgs, sr.code, sr.stderr)
		}
	}()

	if sc.noMatch {
		require.Equal(t, exitTimeout, pr.code, "publisher exit status")
		require.Equal(t, exitTimeout, sr.code, "subscriber exit status")
		require.Empty(t, sr.stdout, "subscriber output")
		return
	}
	want := expectedLines(a)
	requireLines(t, "publisher "+pub, want, pr.stdout)
	if sc.subWant != nil {
		want = sc.subWant(want)
	}
	requireLines(t, "subscriber "+sub, want, sr.stdout)
	if !sc.late || pub == "go" {
		require.Equal(t, exitOK, pr.code, "publisher exit status")
	}
	require.Equal(t, exitOK, sr.code, "subscriber exit status")
}

// TestInterop runs every scenario between the Go peer (in this process) and each of the
// Cyclone DDS and Fast DDS peer programs, both ways.
func TestInterop(t *testing.T) {
	netns.Require(t)
	for _, peer := range []string{"cyclone", "fastdds"} {
		t.Run(peer, func(t *testing.T) {
			for _, sc := range scenarios {
				if sc.only != "" && sc.only != peer {
					continue
				}
				t.Run(sc.name+"/go_to_"+peer, func(t *testing.T) { runScenario(t, sc, "go", peer) })
				t.Run(sc.name+"/"+peer+"_to_go", func(t *testing.T) { runScenario(t, sc, peer, "go") })
			}
		})
	}
}

// TestGoToGo runs the scenarios between two Go peers in this process.
func TestGoToGo(t *testing.T) {
	netns.Require(t)
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) { runScenario(t, sc, "go", "go") })
	}
}
