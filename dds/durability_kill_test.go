package dds

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/netip"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/netns"
	"github.com/ddsgo/ddsgo/internal/transport/memnet"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/ddsgo/ddsgo/rtps"
)

// The child process of TestPersistentKill: what it does ("write" or "check") and its
// store's directory.
const (
	childEnv    = "DDSGO_DURABLE_CHILD"
	childDirEnv = "DDSGO_DURABLE_CHILD_DIR"
	childUDPEnv = "DDSGO_DURABLE_CHILD_UDP" // set: real sockets, durableDomain
)

// durableDomain is the domain of TestPersistentKillUDP.
const durableDomain = 34

// restartMark is the Seq of the sample the "serve" child writes after its restart.
const restartMark = 1 << 40

// killResult is what the "check" child reports.
type killResult struct {
	Seqs []uint64 // the Seq of the samples its late-joining reader got, in order
	SN   int64    // the sequence number of the sample it wrote
}

// TestPersistentKill kills (SIGKILL) a process that writes PERSISTENT samples as fast as
// it can, right after it reports that the N-th write returned, restarts it on the same
// store, and checks that the restarted writer has every sample written before the kill
// (at least N, none missing), serves them to a late-joining reader, and continues the
// sequence numbers after them.
func TestPersistentKill(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes")
	}
	const n = 25
	dir := t.TempDir()
	writeAndKill(t, dir, n, false)

	cmd := childCommand(t, "check", dir, false)
	b, err := cmd.Output()
	require.NoError(t, err, "check child: %s", b)
	var res killResult
	for line := range strings.Lines(string(b)) {
		if s, ok := strings.CutPrefix(line, "result "); ok {
			require.NoError(t, json.Unmarshal([]byte(s), &res))
		}
	}
	require.GreaterOrEqual(t, len(res.Seqs), n+1, "every acknowledged write survived, and the new one")
	for i, s := range res.Seqs {
		require.Equal(t, uint64(i), s, "no sample missing")
	}
	require.Equal(t, int64(len(res.Seqs)), res.SN, "the restarted writer continues the sequence numbers")
}

// writeAndKill runs a "write" child on the store in dir and kills it with SIGKILL as
// soon as it reports its n-th write.
func writeAndKill(t *testing.T, dir string, n int, udp bool) {
	t.Helper()
	cmd := childCommand(t, "write", dir, udp)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	sc := bufio.NewScanner(out)
	written := 0
	for written < n && sc.Scan() {
		_, _ = fmt.Sscanf(sc.Text(), "written %d", &written)
	}
	require.Equal(t, n, written, "the child reports its writes")
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	err = cmd.Wait()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee)
	require.Equal(t, syscall.SIGKILL, ee.Sys().(syscall.WaitStatus).Signal())
}

// childCommand runs this test binary as the child of TestPersistentKill or
// TestPersistentKillUDP.
func childCommand(t *testing.T, mode, dir string, udp bool) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestPersistentKillChild$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), childEnv+"="+mode, childDirEnv+"="+dir)
	if udp {
		cmd.Env = append(cmd.Env, childUDPEnv+"=1")
	}
	cmd.Stderr = os.Stderr
	return cmd
}

// TestPersistentKillUDP is TestPersistentKill across processes on real sockets: the
// writer process is killed, restarted on its store, writes one more sample and stays;
// a reader in this process, joining late, gets every sample written before the kill
// and the new one from the restarted writer, whose sequence numbers continue.
func TestPersistentKillUDP(t *testing.T) {
	netns.Require(t)
	if testing.Short() {
		t.Skip("runs child processes")
	}
	const n = 25
	dir := t.TempDir()
	writeAndKill(t, dir, n, true)

	cmd := childCommand(t, "serve", dir, true)
	in, err := cmd.StdinPipe()
	require.NoError(t, err)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer func() {
		_ = in.Close() // the child ends at EOF
		require.NoError(t, cmd.Wait())
	}()
	sc := bufio.NewScanner(out)
	var sn int64
	for sn == 0 && sc.Scan() {
		_, _ = fmt.Sscanf(sc.Text(), "serving %d", &sn)
	}
	require.Positive(t, sn, "the restarted child reports its write")

	p, err := NewParticipant(durableDomain, WithRTPS(rtps.Config{
		Interfaces: []string{"127.0.0.1"}, Peers: []string{"127.0.0.1"}, DisableMulticast: true,
	}))
	require.NoError(t, err)
	defer func() { require.NoError(t, p.Close()) }()
	tp, err := NewTopic[message](p, "Killed", TypeName("test::Durable"))
	require.NoError(t, err)
	got, infos := lateReader(t, tp, qos.Persistent, int(sn), 20*time.Second)
	require.Len(t, got, int(sn), "every stored sample and the new one")
	for i, m := range got[:len(got)-1] {
		require.Equal(t, uint64(i), m.Seq, "no sample missing")
		require.Equal(t, int64(i+1), infos[i].Identity.SN)
		require.Equal(t, infos[0].Identity.Writer, infos[i].Identity.Writer, "one writer serves them all")
	}
	require.GreaterOrEqual(t, len(got)-1, n)
	t.Logf("%d samples from %v, the last one SN %d", len(got), infos[0].Identity.Writer, sn)
	require.Equal(t, uint64(restartMark), got[len(got)-1].Seq)
	require.Equal(t, sn, infos[len(got)-1].Identity.SN, "the sequence numbers continue")
}

// TestPersistentKillChild is TestPersistentKill's child process; it does nothing
// otherwise.
func TestPersistentKillChild(t *testing.T) {
	mode, dir := os.Getenv(childEnv), os.Getenv(childDirEnv)
	if mode == "" {
		t.Skip("the child of TestPersistentKill")
	}
	p := childParticipant(t, dir)
	tp, err := NewTopic[message](p, "Killed", TypeName("test::Durable"))
	require.NoError(t, err)
	wq := durableWriterQos(qos.Persistent, 1)
	wq.History.Kind = qos.KeepAll
	wq.DurabilityService.HistoryKind = qos.KeepAll
	w, err := NewWriter(tp, WithQos(wq))
	require.NoError(t, err)
	switch mode {
	case "write":
		for i := range 100_000 {
			require.NoError(t, w.Write(bg, &message{ID: 1, Seq: uint64(i)}))
			fmt.Printf("written %d\n", i+1)
		}
		t.Fatal("not killed")
	case "check":
		var res killResult
		got, _ := lateReader(t, tp, qos.Persistent, 1<<30, 3*time.Second)
		for _, m := range got {
			res.Seqs = append(res.Seqs, m.Seq)
		}
		var id SampleIdentity
		require.NoError(t, w.Write(bg, &message{ID: 1, Seq: uint64(len(got))}, WrittenAs(&id)))
		res.SN = id.SN
		got, _ = lateReader(t, tp, qos.Persistent, len(got)+1, 10*time.Second)
		res.Seqs = res.Seqs[:0]
		for _, m := range got {
			res.Seqs = append(res.Seqs, m.Seq)
		}
		b, err := json.Marshal(res)
		require.NoError(t, err)
		fmt.Printf("result %s\n", b)
	case "serve":
		var id SampleIdentity
		require.NoError(t, w.Write(bg, &message{ID: 1, Seq: restartMark}, WrittenAs(&id)))
		fmt.Printf("serving %d\n", id.SN)
		done := make(chan struct{})
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(60 * time.Second):
			t.Fatal("the parent did not end the child")
		}
	}
}

// childParticipant is the participant of a child process, on an in-memory network or,
// with DDSGO_DURABLE_CHILD_UDP set, on real sockets in durableDomain. A child that is not
// killed closes it (and the network) when its test ends, like any other test.
func childParticipant(t *testing.T, dir string) *DomainParticipant {
	t.Helper()
	if os.Getenv(childUDPEnv) != "" {
		p, err := NewParticipant(durableDomain, PersistenceDir(dir), WithRTPS(rtps.Config{
			Interfaces: []string{"127.0.0.1"}, Peers: []string{"127.0.0.1"}, DisableMulticast: true,
		}))
		require.NoError(t, err)
		t.Cleanup(func() { require.NoError(t, p.Close()) })
		return p
	}
	n, err := memnet.New(memnet.Config{Seed: 1})
	require.NoError(t, err)
	t.Cleanup(n.Close)
	h, err := n.AddHost("child", netip.MustParseAddr("10.0.0.1"))
	require.NoError(t, err)
	p, err := NewParticipant(7, withNet(h), PersistenceDir(dir))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, p.Close()) })
	return p
}
