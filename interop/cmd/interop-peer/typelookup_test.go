package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/internal/netns"
)

// Domains of the TypeLookup client tests (54-60 are theirs).
const (
	tlDomainEchoFinal      = 54
	tlDomainEchoAppendable = 55
	tlDomainDynamic        = 56
	tlDomainAssignable     = 57
	tlDomainNotAssignable  = 58
	tlDomainIncompatible   = 59
)

// retypedSampleA is interop::SampleA with its text member of another type: not
// assignable from (nor to) the Cyclone DDS peer's type.
type retypedSampleA struct {
	ID     int32     `dds:"key,name=id"`
	Text   int64     `dds:"name=text"`
	Values []float64 `dds:"name=values"`
	Seq    uint64    `dds:"name=seq"`
}

func (retypedSampleA) DDSTypeName() string                 { return "interop::SampleA" }
func (retypedSampleA) DDSExtensibility() dds.Extensibility { return dds.Appendable }

// cyclonePub runs the Cyclone DDS peer as a reliable writer of count samples on domain,
// 20 a second once a reader matched (extra: more flags), and returns it.
func cyclonePub(t *testing.T, domain int, count int, extra ...string) *proc {
	t.Helper()
	bin := peerBinary(t, "cyclone")
	args := append([]string{
		"-role", "pub", "-domain", fmt.Sprint(domain), "-reliable", "-volatile", "-count", fmt.Sprint(count),
		"-rate", "20", "-wait-readers", "1", "-linger", "1s", "-timeout", "20s",
	}, extra...)
	pr, err := startProcess(t, "cyclone", exec.Command(bin, args...))
	require.NoError(t, err)
	return pr
}

// ddspingBinary builds cmd/ddsping: a process of its own, with no Go type of interop's.
func ddspingBinary(t *testing.T) string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build ddsping")
	}
	bin := filepath.Join(t.TempDir(), "ddsping")
	out, err := exec.Command(gobin, "build", "-o", bin, "../../../cmd/ddsping").CombinedOutput()
	require.NoError(t, err, "%s", out)
	return bin
}

// TestEchoCyclone: ddsping, which has no Go type of interop::Sample or SampleA, echoes
// the Cyclone DDS peer's samples as JSON with their member names: it asks Cyclone DDS
// for the TypeObjects with TypeLookup and decodes XCDR1 (final) and XCDR2 (appendable).
func TestEchoCyclone(t *testing.T) {
	netns.Require(t)
	ddsping := ddspingBinary(t)
	for _, c := range []struct {
		name   string
		domain int
		extra  []string
	}{
		{"final", tlDomainEchoFinal, nil},
		{"appendable", tlDomainEchoAppendable, []string{"-appendable"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			pr := cyclonePub(t, c.domain, 100, c.extra...)
			ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
			defer cancel()
			out, err := exec.CommandContext(ctx, ddsping, "echo", "-domain", fmt.Sprint(c.domain), "-wait", "10s",
				"-count", "2", "ddsgo_interop").Output()
			require.NoError(t, err, "%s", out)
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			require.Len(t, lines, 2, "%s", out)
			for _, l := range lines {
				require.True(t, strings.HasPrefix(l, `{"id":`), l)
				var s struct {
					ID     int32     `json:"id"`
					Text   string    `json:"text"`
					Values []float64 `json:"values"`
					Seq    uint64    `json:"seq"`
				}
				require.NoError(t, json.Unmarshal([]byte(l), &s))
				require.NotZero(t, s.Seq, l)
				require.Equal(t, fmt.Sprintf("ddsgo %d %d", s.ID, s.Seq), s.Text, l)
			}
			_ = pr
		})
	}
}

// TestTypeLookupClientCyclone: a ddsgo reader of dynamic samples resolves the type of the
// Cyclone DDS peer's writer (LookupType) and decodes its samples.
func TestTypeLookupClientCyclone(t *testing.T) {
	netns.Require(t)
	p, err := dds.NewParticipant(tlDomainDynamic)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, p.Close()) })
	cyclonePub(t, tlDomainDynamic, 100, "-appendable")
	var w dds.EndpointBuiltinTopicData
	require.Eventually(t, func() bool {
		pubs, err := p.DiscoveredPublications()
		require.NoError(t, err)
		for _, d := range pubs {
			if d.TopicName == "ddsgo_interop" {
				w = d
				return true
			}
		}
		return false
	}, 10*time.Second, 20*time.Millisecond)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	typ, err := p.LookupType(ctx, w)
	require.NoError(t, err)
	require.Equal(t, "interop::SampleA", typ.Name())
	topic, err := dds.NewTopic[dds.DynamicSample](p, "ddsgo_interop", dds.TypeName(w.TypeName))
	require.NoError(t, err)
	r, err := dds.NewReader(topic, dds.Reliable())
	require.NoError(t, err)
	for s, info := range r.Samples(ctx) {
		if !info.ValidData {
			continue
		}
		v, err := typ.Decode(&s)
		require.NoError(t, err)
		b, err := json.Marshal(v)
		require.NoError(t, err)
		var got struct {
			ID   int32  `json:"id"`
			Text string `json:"text"`
			Seq  uint64 `json:"seq"`
		}
		require.NoError(t, json.Unmarshal(b, &got))
		require.Equal(t, fmt.Sprintf("ddsgo %d %d", got.ID, got.Seq), got.Text, "%s", b)
		return
	}
	t.Fatal("no sample:", ctx.Err())
}

// TestAssignabilityCyclone: with type information on both sides, ddsgo matches the
// Cyclone DDS peer's writer of interop::SampleA with a reader of the same type with a
// member appended (assignable) and reads its samples; a reader whose text member is an
// integer is not matched and its topic counts INCONSISTENT_TOPIC. Cyclone DDS refuses
// that reader too: its writer, waiting for one reader, times out.
func TestAssignabilityCyclone(t *testing.T) {
	netns.Require(t)
	t.Run("member_appended", func(t *testing.T) {
		p, err := dds.NewParticipant(tlDomainAssignable)
		require.NoError(t, err)
		t.Cleanup(func() { require.NoError(t, p.Close()) })
		topic, err := dds.NewTopic[sampleA2](p, "ddsgo_interop", dds.Reliable())
		require.NoError(t, err)
		r, err := dds.NewReader(topic)
		require.NoError(t, err)
		pr := cyclonePub(t, tlDomainAssignable, 5, "-appendable")
		ctx, cancel := context.WithTimeout(t.Context(), 15*time.Second)
		defer cancel()
		ss, _, err := r.Take(ctx)
		require.NoError(t, err, "the ddsgo reader gets Cyclone DDS's sample")
		require.NotEmpty(t, ss)
		require.Equal(t, fmt.Sprintf("ddsgo %d %d", ss[0].ID, ss[0].Seq), ss[0].Text)
		require.Zero(t, ss[0].Extra, "the member the writer's type lacks")
		require.Equal(t, exitOK, pr.wait(t, 20*time.Second).code)
		st, err := topic.InconsistentTopicStatus()
		require.NoError(t, err)
		require.Zero(t, st.TotalCount)
	})
	t.Run("member_retyped", func(t *testing.T) {
		topic, r := reliableReader[retypedSampleA](t, tlDomainNotAssignable)
		pr := cycloneWriterOfOne(t, tlDomainNotAssignable, "-reliable", "5s")
		require.Eventually(t, func() bool {
			st, err := topic.InconsistentTopicStatus()
			require.NoError(t, err)
			return st.TotalCount > 0
		}, 10*time.Second, 20*time.Millisecond, "INCONSISTENT_TOPIC on ddsgo's side")
		res := pr.wait(t, 10*time.Second)
		require.Equal(t, exitTimeout, res.code, "Cyclone DDS does not match the reader either:\n%s", res.stderr)
		st, err := r.SubscriptionMatchedStatus()
		require.NoError(t, err)
		require.Zero(t, st.TotalCount)
	})
}

// TestIncompatibleAfterTypeLookupCyclone: a reliable ddsgo reader of interop::SampleA
// with a member appended and the Cyclone DDS peer's best-effort writer of SampleA: the
// type hashes differ, so ddsgo asks Cyclone DDS for its type and decides every pair again
// when the reply comes; the one incompatible writer still counts once in
// REQUESTED_INCOMPATIBLE_QOS.
func TestIncompatibleAfterTypeLookupCyclone(t *testing.T) {
	netns.Require(t)
	_, r := reliableReader[sampleA2](t, tlDomainIncompatible)
	cycloneWriterOfOne(t, tlDomainIncompatible, "-best-effort", "10s")
	require.Eventually(t, func() bool {
		st, err := r.RequestedIncompatibleQosStatus()
		require.NoError(t, err)
		return st.TotalCount > 0
	}, 10*time.Second, 20*time.Millisecond)
	// The type lookup's reply, and SEDP's re-announcements, decide the pair again
	// meanwhile.
	time.Sleep(2 * time.Second)
	st, err := r.RequestedIncompatibleQosStatus()
	require.NoError(t, err)
	require.Equal(t, int32(1), st.TotalCount, "one incompatible writer: %+v", st)
}

// reliableReader makes a participant on domain (closed when the test ends) with a
// reliable reader of T on the interop topic.
func reliableReader[T any](t *testing.T, domain int) (*dds.Topic[T], *dds.DataReader[T]) {
	t.Helper()
	p, err := dds.NewParticipant(domain)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, p.Close()) })
	topic, err := dds.NewTopic[T](p, "ddsgo_interop", dds.Reliable())
	require.NoError(t, err)
	r, err := dds.NewReader(topic)
	require.NoError(t, err)
	return topic, r
}

// cycloneWriterOfOne starts the Cyclone DDS peer as a writer of interop::SampleA with
// reliability ("-reliable" or "-best-effort") that writes one sample once a reader
// matched, and gives up after timeout.
func cycloneWriterOfOne(t *testing.T, domain int, reliability, timeout string) *proc {
	t.Helper()
	pr, err := startProcess(t, "cyclone", exec.Command(peerBinary(t, "cyclone"), "-role", "pub", "-domain", fmt.Sprint(domain),
		reliability, "-volatile", "-appendable", "-count", "1", "-wait-readers", "1", "-timeout", timeout))
	require.NoError(t, err)
	return pr
}
