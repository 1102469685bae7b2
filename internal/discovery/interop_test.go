package discovery

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	rtpsconfig "github.com/ddsgo/ddsgo/rtps"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/cdr"
	"github.com/ddsgo/ddsgo/internal/netns"
	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/qos"
)

// interopSample is interop::Sample of interop/idl/Sample.idl (final).
type interopSample struct {
	ID     int32 `dds:"key"`
	Text   string
	Values []float64
	Seq    uint64
}

// jsonLine formats s as the interop peers print it.
func (s *interopSample) jsonLine() string {
	v := struct {
		ID     int32     `json:"id"`
		Text   string    `json:"text"`
		Values []float64 `json:"values"`
		Seq    uint64    `json:"seq"`
	}{s.ID, s.Text, s.Values, s.Seq}
	if v.Values == nil {
		v.Values = []float64{}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// contractSample returns sample seq of the interop contract.
func contractSample(seq, keys, payload int) interopSample {
	id := 1 + (seq-1)%keys
	s := interopSample{ID: int32(id), Text: fmt.Sprintf("ddsgo %d %d", id, seq), Seq: uint64(seq)}
	for i := range payload / 8 {
		s.Values = append(s.Values, float64(seq)+float64(i)/8)
	}
	return s
}

var sampleCodec = cdr.MustCodec[interopSample]()

// peerBinary returns the path of an interop peer, skipping the test when it
// is not built (make -C interop).
func peerBinary(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "interop", "build", name))
	require.NoError(t, err)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s not built (make -C interop)", name)
	}
	return p
}

// matchWaiter is a MatchListener that signals the first match.
type matchWaiter struct {
	once sync.Once
	ch   chan struct{}
}

func newMatchWaiter() *matchWaiter { return &matchWaiter{ch: make(chan struct{})} }

func (m *matchWaiter) OnMatch(wire.GUID, *EndpointData) { m.once.Do(func() { close(m.ch) }) }
func (m *matchWaiter) OnUnmatch(wire.GUID, wire.GUID)   {}
func (m *matchWaiter) OnIncompatible(wire.GUID, *EndpointData, []qos.PolicyID) {
}

func interopWriter() qos.Offered {
	q := qos.DefaultOffered()
	q.Writer.Reliability = qos.Reliability{Kind: qos.Reliable, MaxBlockingTime: 10 * time.Second}
	q.Writer.History = qos.History{Kind: qos.KeepAll}
	return q
}

func interopReader() qos.Requested {
	q := qos.DefaultRequested()
	q.Reader.Reliability = qos.Reliability{Kind: qos.Reliable, MaxBlockingTime: 10 * time.Second}
	q.Reader.History = qos.History{Kind: qos.KeepAll}
	return q
}

// runPeer starts an interop peer and returns its stdout lines when it
// exits.
func runPeer(t *testing.T, ctx context.Context, bin string, args ...string) func() ([]string, error) {
	t.Helper()
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	require.NoError(t, cmd.Start())
	return func() ([]string, error) {
		err := cmd.Wait()
		if err != nil {
			t.Logf("%s stderr:\n%s", filepath.Base(bin), errb.String())
		}
		return strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n"), err
	}
}

// testInterop runs both directions between a ddsgo participant and an
// interop peer: count samples over keys instances with payload octets of
// values, reliable and volatile.
func testInterop(t *testing.T, peer string, domain, count, keys, payload int) {
	bin := peerBinary(t, peer)
	netns.Require(t)
	want := make([]string, 0, count)
	for seq := 1; seq <= count; seq++ {
		s := contractSample(seq, keys, payload)
		want = append(want, s.jsonLine())
	}
	slices.Sort(want)
	common := []string{
		"-domain", "", "-count", strconv.Itoa(count), "-keys", strconv.Itoa(keys),
		"-payload", strconv.Itoa(payload), "-timeout", "20s",
	}

	t.Run("ddsgo-to-"+peer, func(t *testing.T) {
		args := slices.Clone(common)
		args[1] = strconv.Itoa(domain)
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		defer cancel()
		wait := runPeer(t, ctx, bin, append([]string{"-role", "sub", "-linger", "0.5s"}, args...)...)
		p, err := NewParticipant(Config{Domain: domain, Config: rtpsconfig.Config{Name: "ddsgo-interop"}})
		require.NoError(t, err)
		defer func() { require.NoError(t, p.Close()) }()
		mw := newMatchWaiter()
		start := time.Now()
		w, err := p.NewWriter(EndpointConfig{
			Topic: "ddsgo_interop", Type: "interop::Sample", Keyed: true,
			Offered: interopWriter(), Listener: mw,
		})
		require.NoError(t, err)
		select {
		case <-mw.ch:
			t.Logf("writer matched the %s reader after %v", peer, time.Since(start))
		case <-ctx.Done():
			t.Fatalf("no match with %s: %+v", peer, p.Stats())
		}
		time.Sleep(time.Second) // let the reader match the writer too (interop/README.md)
		for seq := 1; seq <= count; seq++ {
			s := contractSample(seq, keys, payload)
			b, err := sampleCodec.Marshal(nil, cdr.CDRLE, &s)
			require.NoError(t, err)
			_, err = w.Write(context.Background(), rtps.Change{Kind: rtps.Alive, KeyHash: wire.KeyHash(sampleCodec.KeyHash(&s)), Payload: b})
			require.NoError(t, err)
		}
		require.NoError(t, w.WaitForAcknowledgments(ctx))
		lines, err := wait()
		require.NoError(t, err)
		slices.Sort(lines)
		requireLines(t, want, lines)
	})

	t.Run(peer+"-to-ddsgo", func(t *testing.T) {
		args := slices.Clone(common)
		args[1] = strconv.Itoa(domain + 1)
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		defer cancel()
		p, err := NewParticipant(Config{Domain: domain + 1, Config: rtpsconfig.Config{Name: "ddsgo-interop"}})
		require.NoError(t, err)
		defer func() { require.NoError(t, p.Close()) }()
		var mu sync.Mutex
		var got []string
		var bad error
		done := make(chan struct{})
		_, err = p.NewReader(EndpointConfig{
			Topic: "ddsgo_interop", Type: "interop::Sample", Keyed: true,
			Requested: interopReader(),
		}, func(s *rtps.Sample) bool {
			if s.Kind != rtps.Alive || s.KeyOnly {
				return true
			}
			var v interopSample
			mu.Lock()
			defer mu.Unlock()
			if err := sampleCodec.Unmarshal(s.Payload, &v); err != nil {
				bad = err
				return true
			}
			got = append(got, v.jsonLine())
			if len(got) == count {
				close(done)
			}
			return true
		})
		require.NoError(t, err)
		wait := runPeer(t, ctx, bin, append([]string{"-role", "pub", "-settle", "1s"}, args...)...)
		select {
		case <-done:
		case <-ctx.Done():
			mu.Lock()
			t.Fatalf("got %d of %d samples from %s: %+v", len(got), count, peer, p.Stats())
		}
		lines, err := wait()
		require.NoError(t, err)
		mu.Lock()
		defer mu.Unlock()
		require.NoError(t, bad)
		slices.Sort(lines)
		slices.Sort(got)
		requireLines(t, want, lines)
		requireLines(t, want, got)
	})
}

// requireLines compares sorted JSON lines, showing only their beginnings
// on failure (1 MiB samples make long lines).
func requireLines(t *testing.T, want, got []string) {
	t.Helper()
	if slices.Equal(want, got) {
		return
	}
	short := func(ls []string) []string {
		out := make([]string, len(ls))
		for i, l := range ls {
			out[i] = l[:min(len(l), 80)]
		}
		return out
	}
	for i := range min(len(want), len(got)) {
		if want[i] != got[i] {
			j := 0
			for j < len(want[i]) && j < len(got[i]) && want[i][j] == got[i][j] {
				j++
			}
			lo := max(0, j-40)
			t.Fatalf("line %d differs at octet %d (lengths %d, %d): want ...%q, got ...%q", i, j,
				len(want[i]), len(got[i]), want[i][lo:min(len(want[i]), j+40)], got[i][lo:min(len(got[i]), j+40)])
		}
	}
	t.Fatalf("lines differ: want %d %q, got %d %q", len(want), short(want), len(got), short(got))
}

func TestInteropCyclone(t *testing.T) { testInterop(t, "cyclone-peer", 11, 30, 3, 16) }

func TestInteropFastDDS(t *testing.T) { testInterop(t, "fastdds-peer", 13, 30, 3, 16) }

// TestInteropFragments: three 1 MiB samples each way (DATA_FRAG,
// HEARTBEAT_FRAG, NACK_FRAG).
func TestInteropFragments(t *testing.T) {
	t.Run("cyclone", func(t *testing.T) { testInterop(t, "cyclone-peer", 15, 3, 1, 1<<20) })
	t.Run("fastdds", func(t *testing.T) { testInterop(t, "fastdds-peer", 17, 3, 1, 1<<20) })
}

// TestUDPLoopback: two participants of one process discover each other by
// multicast on the loopback interface and exchange samples over UDP.
func TestUDPLoopback(t *testing.T) {
	netns.Require(t)
	a, err := NewParticipant(Config{Domain: 21, Config: rtpsconfig.Config{Name: "a"}})
	require.NoError(t, err)
	defer func() { require.NoError(t, a.Close()) }()
	b, err := NewParticipant(Config{Domain: 21, Config: rtpsconfig.Config{Name: "b"}})
	require.NoError(t, err)
	defer func() { require.NoError(t, b.Close()) }()
	mw := newMatchWaiter()
	w, err := a.NewWriter(EndpointConfig{Topic: "loop", Type: "T", Offered: interopWriter(), Listener: mw})
	require.NoError(t, err)
	var got sink
	_, err = b.NewReader(EndpointConfig{Topic: "loop", Type: "T", Requested: interopReader()}, got.deliver)
	require.NoError(t, err)
	select {
	case <-mw.ch:
	case <-time.After(5 * time.Second):
		t.Fatal("no match over UDP")
	}
	// The reader may match a moment after the writer: transient-local is
	// not needed because the reader's pre-emptive ACKNACK is what makes
	// the writer count it, but the writer's match can come first.
	require.Eventually(t, func() bool { return len(b.Participants()) == 1 }, 5*time.Second, 10*time.Millisecond)
	time.Sleep(200 * time.Millisecond)
	const count = 1000
	for i := range count {
		_, err := w.Write(context.Background(), rtps.Change{Payload: testPayload(uint64(i + 1))})
		require.NoError(t, err)
	}
	require.Eventually(t, func() bool { return len(got.got()) == count }, 10*time.Second, 10*time.Millisecond)
	for i, s := range got.got() {
		require.Equal(t, uint64(i+1), s)
	}
}
