package main

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds"
)

// Domains of the type information tests (85-88 are theirs).
const (
	xtDomainSame     = 85
	xtDomainRenamed  = 86
	xtDomainCycloneW = 87
	xtDomainUnnamed  = 88
	// TestTypeLookupCyclone runs after TestTypeInformationCyclone has left its domains.
	xtDomainLookup = 85
)

// renamedSample has interop::Sample's name and wire form, but calls its key member
// "ident" where the IDL says "id": its TypeInformation differs from the one Cyclone
// DDS's idlc generates.
type renamedSample struct {
	ID     int32     `dds:"key,name=ident"`
	Text   string    `dds:"name=text"`
	Values []float64 `dds:"name=values"`
	Seq    uint64    `dds:"name=seq"`
}

func (renamedSample) DDSTypeName() string { return "interop::Sample" }

// unnamedSample is renamedSample without IDL names: it announces no TypeInformation.
type unnamedSample struct {
	ID     int32 `dds:"key"`
	Text   string
	Values []float64
	Seq    uint64
}

func (unnamedSample) DDSTypeName() string { return "interop::Sample" }

// TestTypeInformationCyclone shows that Cyclone DDS reads the TypeInformation ddsgo
// announces in SEDP and finds it to be its own type: a ddsgo writer and reader of the
// generated Sample (every member named, internal/xtypes) match the Cyclone DDS peer both
// ways. The control: a writer whose type differs only in one member's name announces
// another hash; Cyclone DDS resolves it through ddsgo's TypeLookup service, finds the
// final type not assignable to its own, and does not match it although topic and type
// name are the same; neither does ddsgo. Without a TypeInformation from ddsgo, Cyclone DDS matches by type
// name alone: the same type without IDL names, which announces none, is delivered.
func TestTypeInformationCyclone(t *testing.T) {
	bin := peerBinary(t, "cyclone")
	t.Run("same_type_go_writer", func(t *testing.T) {
		w, printed := xtWriter[Sample](t, bin, xtDomainSame, &Sample{ID: 1, Seq: 1, Text: "ddsgo 1 1"})
		require.Equal(t, exitOK, printed.code, "the Cyclone DDS reader gets the sample:\n%s", printed.stderr)
		require.Contains(t, printed.stdout, "ddsgo 1 1")
		// A reader that got the sample and left at once was once not counted yet
		// (stress, GOMAXPROCS=8, -race): see waitMatchedTotal.
		waitMatchedTotal(t, w, 1)
	})
	t.Run("renamed_member_go_writer", func(t *testing.T) {
		w, printed := xtWriter[renamedSample](t, bin, xtDomainRenamed, &renamedSample{ID: 1, Seq: 1, Text: "ddsgo 1 1"})
		require.Equal(t, exitTimeout, printed.code, "the Cyclone DDS reader must not match a type with another hash:\n%s", printed.stdout)
		require.Empty(t, strings.TrimSpace(printed.stdout))
		// ddsgo resolves the reader's type too (TypeLookup, typelookup_test.go), finds
		// it not assignable, does not match it and counts INCONSISTENT_TOPIC.
		st, err := w.PublicationMatchedStatus()
		require.NoError(t, err)
		require.Zero(t, st.TotalCount)
		it, err := w.Topic().InconsistentTopicStatus()
		require.NoError(t, err)
		require.NotZero(t, it.TotalCount)
	})
	t.Run("unnamed_go_writer", func(t *testing.T) {
		// The same type without IDL names announces no TypeInformation: Cyclone DDS
		// matches it by type name and takes the sample, as before type information.
		_, printed := xtWriter[unnamedSample](t, bin, xtDomainUnnamed, &unnamedSample{ID: 1, Seq: 1, Text: "ddsgo 1 1"})
		require.Equal(t, exitOK, printed.code, "the Cyclone DDS reader gets the sample:\n%s", printed.stderr)
		require.Contains(t, printed.stdout, "ddsgo 1 1")
	})
	t.Run("same_type_cyclone_writer", func(t *testing.T) {
		p, err := dds.NewParticipant(xtDomainCycloneW)
		require.NoError(t, err)
		defer func() { require.NoError(t, p.Close()) }()
		topic, err := dds.NewTopic[Sample](p, "ddsgo_interop", dds.Reliable())
		require.NoError(t, err)
		r, err := dds.NewReader(topic)
		require.NoError(t, err)
		cmd := exec.Command(bin, "-role", "pub", "-domain", fmt.Sprint(xtDomainCycloneW), "-reliable", "-volatile",
			"-count", "1", "-wait-readers", "1", "-linger", "2s", "-timeout", "10s")
		pr, err := startProcess(t, "cyclone", cmd)
		require.NoError(t, err)
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		ss, _, err := r.Take(ctx)
		require.NoError(t, err, "the ddsgo reader gets Cyclone DDS's sample")
		require.NotEmpty(t, ss)
		require.NotZero(t, ss[0].Seq)
		require.Equal(t, exitOK, pr.wait(t, 15*time.Second).code)
	})
}

// xtWriter writes v from a transient-local ddsgo writer of T on domain and runs the
// Cyclone DDS peer as a transient-local reader of one sample for 4 s; it returns the
// writer (still open) and how the peer ended.
func xtWriter[T any](t *testing.T, bin string, domain int, v *T) (*dds.DataWriter[T], result) {
	t.Helper()
	p, err := dds.NewParticipant(domain)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, p.Close()) })
	topic, err := dds.NewTopic[T](p, "ddsgo_interop", dds.Reliable(), dds.TransientLocal())
	require.NoError(t, err)
	w, err := dds.NewWriter(topic)
	require.NoError(t, err)
	require.NoError(t, w.Write(t.Context(), v))
	cmd := exec.Command(bin, "-role", "sub", "-domain", fmt.Sprint(domain), "-reliable", "-transient-local",
		"-count", "1", "-timeout", "4s")
	pr, err := startProcess(t, "cyclone", cmd)
	require.NoError(t, err)
	return w, pr.wait(t, 10*time.Second)
}

// sampleA2 is interop::SampleA with one member appended: assignable to it (XTypes 1.3
// §7.2.4.4.4.8), with another hash.
type sampleA2 struct {
	ID     int32     `dds:"key,name=id"`
	Text   string    `dds:"name=text"`
	Values []float64 `dds:"name=values"`
	Seq    uint64    `dds:"name=seq"`
	Extra  int32     `dds:"name=extra"`
}

func (sampleA2) DDSTypeName() string                 { return "interop::SampleA" }
func (sampleA2) DDSExtensibility() dds.Extensibility { return dds.Appendable }

// TestTypeLookupCyclone: a ddsgo writer of an appendable type with a member appended to
// the Cyclone DDS peer's interop::SampleA announces a hash Cyclone DDS does not know;
// Cyclone DDS asks ddsgo's TypeLookup service for its TypeObjects, finds the type
// assignable to its own, matches, and reads the sample (without the member it lacks).
func TestTypeLookupCyclone(t *testing.T) {
	bin := peerBinary(t, "cyclone")
	p, err := dds.NewParticipant(xtDomainLookup)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, p.Close()) })
	topic, err := dds.NewTopic[sampleA2](p, "ddsgo_interop", dds.Reliable(), dds.TransientLocal())
	require.NoError(t, err)
	w, err := dds.NewWriter(topic)
	require.NoError(t, err)
	require.NoError(t, w.Write(t.Context(), &sampleA2{ID: 1, Seq: 1, Text: "ddsgo 1 1", Extra: 7}))
	cmd := exec.Command(bin, "-role", "sub", "-domain", fmt.Sprint(xtDomainLookup), "-reliable", "-transient-local",
		"-appendable", "-count", "1", "-timeout", "6s")
	pr, err := startProcess(t, "cyclone", cmd)
	require.NoError(t, err)
	res := pr.wait(t, 12*time.Second)
	require.Equal(t, exitOK, res.code, "the Cyclone DDS reader resolves the type and gets the sample:\n%s", res.stderr)
	require.Contains(t, res.stdout, "ddsgo 1 1")
}
