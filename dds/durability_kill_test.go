package dds

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/transport/memnet"
	"github.com/ddsgo/ddsgo/qos"
)

// The child process of TestPersistentKill: what it does ("write" or "check") and its
// store's directory.
const (
	childEnv    = "DDSGO_DURABLE_CHILD"
	childDirEnv = "DDSGO_DURABLE_CHILD_DIR"
)

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

	cmd := childCommand(t, "write", dir)
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

	cmd = childCommand(t, "check", dir)
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

// childCommand runs this test binary as the child of TestPersistentKill.
func childCommand(t *testing.T, mode, dir string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestPersistentKillChild$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), childEnv+"="+mode, childDirEnv+"="+dir)
	cmd.Stderr = os.Stderr
	return cmd
}

// TestPersistentKillChild is TestPersistentKill's child process; it does nothing
// otherwise.
func TestPersistentKillChild(t *testing.T) {
	mode, dir := os.Getenv(childEnv), os.Getenv(childDirEnv)
	if mode == "" {
		t.Skip("the child of TestPersistentKill")
	}
	n, err := memnet.New(memnet.Config{Seed: 1})
	require.NoError(t, err)
	h, err := n.AddHost("child", netip.MustParseAddr("10.0.0.1"))
	require.NoError(t, err)
	p, err := NewParticipant(7, withNet(h), PersistenceDir(dir))
	require.NoError(t, err)
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
	}
}
