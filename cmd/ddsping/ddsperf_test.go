package main

import (
	"context"
	"encoding/json"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/internal/cdr"
	"github.com/ddsgo/ddsgo/internal/netns"
	"github.com/ddsgo/ddsgo/internal/testutil"
	"github.com/stretchr/testify/require"
)

// These tests run Cyclone DDS's ddsperf (Debian package cyclonedds-tools) against
// ddsping, in both directions, with no flag telling either side what the other is.

// startDdsperf runs ddsperf on domain with args until it exits or the test ends and
// returns its output and a channel closed when it has exited. It skips the test when
// ddsperf is not installed.
func startDdsperf(t *testing.T, domain int, args ...string) (*testutil.SyncBuffer, <-chan struct{}) {
	t.Helper()
	netns.Require(t)
	path, err := exec.LookPath("ddsperf")
	if err != nil {
		t.Skip("ddsperf not installed (apt-get install cyclonedds-tools)")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, path, append([]string{"-i", strconv.Itoa(domain)}, args...)...)
	var out testutil.SyncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Start())
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(done)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		t.Logf("ddsperf %s:\n%s", strings.Join(args, " "), out.String())
	})
	return &out, done
}

func TestPingDdsperfPong(t *testing.T) {
	startDdsperf(t, 170, "-D", "8", "pong")
	code, stdout, stderr := runCmd(t, context.Background(), "ping", "-domain", "170", "-count", "200", "-size", "16", "-json", "-interval", "0", "-duration", "5s", "-wait", "5s")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	var res pingResult
	require.NoError(t, json.Unmarshal([]byte(stdout), &res), stdout)
	require.Equal(t, "ddsperf", res.Peer)
	require.Equal(t, uint64(200), res.RTT.Count)
	require.Zero(t, res.Lost)
	require.Positive(t, res.RTT.P50)
}

func TestDdsperfPingPong(t *testing.T) {
	pong := background(t, "pong", "-domain", "171")
	// ddsperf's first ping goes out before the pong writer for it matched and is lost;
	// it pings again after 1 s and prints its first statistics at 2 s. 4 s leave a margin
	// for a loaded machine.
	out, done := startDdsperf(t, 171, "-D", "4", "ping")
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("ddsperf ping did not end")
	}
	// ddsperf prints, every second, the latency (half the round trip) of each ponger:
	// "[PID] 2.000  HOST:PID size 12 mean 17.9us min 10.0us 50% 10.8us ... cnt 27803".
	require.Regexp(t, regexp.MustCompile(`size 12 mean [\d.]+us .* cnt [1-9]\d*`), out.String(), "pong:\n%s", pong.String())
}

func TestPubDdsperfSub(t *testing.T) {
	out, _ := startDdsperf(t, 172, "-D", "8", "sub")
	code, stdout, stderr := runCmd(t, context.Background(), "pub", "-domain", "172", "-size", "1024", "-duration", "500ms", "-wait", "5s")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	require.Contains(t, stdout, "matched a ddsperf subscriber on DDSPerfRDataKS")
	// "[PID] 1.001  size 1024 total 173968 lost 0 delta 173968 lost 0 rate ..."
	seen := regexp.MustCompile(`size 1024 total [1-9]\d* lost 0 `)
	require.Eventually(t, func() bool { return seen.MatchString(out.String()) }, 5*time.Second, 50*time.Millisecond, out.String())
	require.NotRegexp(t, `lost [1-9]`, out.String())
}

func TestDdsperfPubSub(t *testing.T) {
	startDdsperf(t, 173, "-D", "8", "pub", "size", "100")
	code, stdout, stderr := runCmd(t, context.Background(), "sub", "-domain", "173", "-count", "1000", "-duration", "5s", "-json")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var sum struct {
		Received   rateLine `json:"received"`
		Publishers int      `json:"publishers"`
	}
	require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &sum), stdout)
	require.Equal(t, 1, sum.Publishers)
	require.GreaterOrEqual(t, sum.Received.Samples, uint64(1000))
	require.Zero(t, sum.Received.Lost)
}

// TestKeyedSeqWire checks keyedSeq against the user data of a ddsperf 0.10.2 pong seen on
// the wire (CDR_LE; seq 0x57, key 0, no baggage), and with baggage.
func TestKeyedSeqWire(t *testing.T) {
	c := cdr.MustCodec[keyedSeq]()
	got, err := c.Marshal(nil, cdr.CDRLE, &keyedSeq{Seq: 0x57})
	require.NoError(t, err)
	require.Equal(t, []byte{0, 1, 0, 0, 0x57, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, got)
	got, err = c.Marshal(nil, cdr.CDRLE, &keyedSeq{Seq: 1, KeyVal: 2, Baggage: []byte{0xee, 0xee, 0xee, 0xee}})
	require.NoError(t, err)
	require.Equal(t, []byte{0, 1, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 0xee, 0xee, 0xee, 0xee}, got)
	require.Equal(t, "KeyedSeq", keyedSeq{}.DDSTypeName())
	require.Equal(t, 16, perfOverhead+perfBaggage(16))
	require.Zero(t, perfBaggage(5))
}

func TestPerfNames(t *testing.T) {
	ping, pong, data := perfTopics(true)
	require.Equal(t, []string{"DDSPerfRPingKS", "DDSPerfRPongKS", "DDSPerfRDataKS"}, []string{ping, pong, data})
	ping, pong, data = perfTopics(false)
	require.Equal(t, []string{"DDSPerfUPingKS", "DDSPerfUPongKS", "DDSPerfUDataKS"}, []string{ping, pong, data})
	// A writer's handle (its GUID) names its participant's partition, as ddsperf 0.10.2
	// put it on the wire.
	h := dds.InstanceHandle{0x01, 0x10, 0x4e, 0x77, 0xda, 0xe5, 0x1e, 0xcd, 0xa2, 0x8a, 0xf8, 0xf4, 0, 0, 0x0b, 0x02}
	require.Equal(t, "01104e77_dae51ecd_a28af8f4_000001c1", perfPartition(h))
	require.Regexp(t, `^DDSPerf:0:\d+:.+$`, string(perfUserData()))
}

func TestPerfStamp(t *testing.T) {
	s := now()
	ts := perfStamp(s)
	require.Equal(t, int64(1), ts.UnixNano()&1, "a ping's timestamp has the ping bit")
	require.InDelta(t, s, stampOf(ts), 1, "the ping bit moves the stamp by at most 1 ns")
	require.Zero(t, dataStamp().UnixNano()&1, "a data sample's timestamp has no ping bit")
}

// TestDdsperfPubPingSub: ddsperf pub marks a share of its samples as pings, and measures
// the round trip through the subscribers that answer them, as ddsping sub does.
func TestDdsperfPubPingSub(t *testing.T) {
	out, _ := startDdsperf(t, 174, "-D", "8", "pub", "5kHz", "20%", "size", "100")
	code, stdout, stderr := runCmd(t, context.Background(), "sub", "-domain", "174", "-count", "2000", "-duration", "5s")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	require.Contains(t, stdout, "from 1 publishers")
	// "[PID] 1.000  5c4b72789664d186 size 100 mean 65.0us min 25.2us 50% 57.8us ... cnt 87"
	seen := regexp.MustCompile(`size 100 mean [\d.]+us .* cnt [1-9]\d*`)
	require.Eventually(t, func() bool { return seen.MatchString(out.String()) }, 3*time.Second, 50*time.Millisecond, out.String())
}
