package main

import (
	"context"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/internal/netns"
	"github.com/ddsgo/ddsgo/qos"
)

// Domains of the coherent-set tests (PRESENTATION, dds/coherent.go).
const (
	coherentToCycloneDomain   = 175
	coherentFromCycloneDomain = 176
)

// coherentSample is the sample seq of the runs of this file: -keys 3, -payload 16.
func coherentSample(seq uint64) Sample {
	s := Sample{ID: int32(1 + (seq-1)%3), Seq: seq, Values: []float64{float64(seq), float64(seq) + 0.125}}
	s.Text = fmt.Sprintf("ddsgo %d %d", s.ID, seq)
	return s
}

// TestCoherentToCyclone: a ddsgo writer of a coherent publisher (TOPIC scope) writes 12
// samples in coherent sets of 4, each sample with PID_COHERENT_SET and each set ended
// by a DATA without payload; a Cyclone DDS 0.10.2 subscriber that requests coherent
// access matches it and gets exactly the 12 samples: nothing of a set lost, no end
// marker taken for a sample. (Cyclone 0.10.2 reads PID_COHERENT_SET but does not hold
// sets back: it delivers each sample as it comes.)
func TestCoherentToCyclone(t *testing.T) {
	netns.Require(t)
	bin := peerBinary(t, "cyclone")
	topic := "ddsgo_coherent_to_cyclone"
	const count, size = 12, 4
	p, err := dds.NewParticipant(coherentToCycloneDomain)
	require.NoError(t, err)
	defer func() { require.NoError(t, p.Close()) }()
	pq := qos.DefaultPublisherQos()
	pq.Presentation = qos.Presentation{AccessScope: qos.TopicScope, CoherentAccess: true}
	pub, err := p.NewPublisher(dds.WithQos(pq))
	require.NoError(t, err)
	tp, err := dds.NewTopic[Sample](p, topic)
	require.NoError(t, err)
	w, err := dds.NewWriter(tp, dds.WithPublisher(pub), dds.Reliable(), dds.KeepAll())
	require.NoError(t, err)

	subArgs := []string{
		"-role", "sub", "-domain", fmt.Sprint(coherentToCycloneDomain), "-topic", topic, "-keys", "3",
		"-count", fmt.Sprint(count), "-coherent", fmt.Sprint(size), "-access-scope", "topic", "-timeout", "15s", "-linger", "1s",
	}
	sp, err := startProcess(t, "cyclone", exec.Command(bin, subArgs...))
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		s, err := w.PublicationMatchedStatus()
		return err == nil && s.CurrentCount == 1
	}, 10*time.Second, 10*time.Millisecond, "the Cyclone subscriber did not match")
	time.Sleep(500 * time.Millisecond) // the reader matches the writer too

	var want strings.Builder
	pr := newTestPeer(&want)
	for seq := uint64(1); seq <= count; seq++ {
		if (seq-1)%size == 0 {
			require.NoError(t, pub.BeginCoherentChanges())
		}
		s := coherentSample(seq)
		require.NoError(t, w.Write(context.Background(), &s))
		pr.printSample(&s)
		if seq%size == 0 {
			require.NoError(t, pub.EndCoherentChanges())
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, w.WaitForAcknowledgments(ctx))
	sr := sp.wait(t, 20*time.Second)
	if t.Failed() || sr.code != exitOK {
		t.Logf("cyclone subscriber %v: exit %d, stderr:\n%s", subArgs, sr.code, sr.stderr)
	}
	require.Equal(t, exitOK, sr.code)
	requireLines(t, "cyclone subscriber", splitLines(want.String()), sr.stdout)
	require.NotContains(t, sr.stderr, "incompatible_qos")
}

// TestCoherentFromCyclone: Cyclone DDS 0.10.2 does not implement coherent sets:
// dds_begin_coherent and dds_end_coherent answer DDS_RETCODE_UNSUPPORTED, and its
// samples carry no PID_COHERENT_SET. A ddsgo reader of a coherent subscriber (TOPIC
// scope) matches its coherent publisher and gets every sample at once, none held back
// waiting for the end of a set that never comes.
func TestCoherentFromCyclone(t *testing.T) {
	netns.Require(t)
	bin := peerBinary(t, "cyclone")
	topic := "ddsgo_coherent_from_cyclone"
	const count = 12
	p, err := dds.NewParticipant(coherentFromCycloneDomain)
	require.NoError(t, err)
	defer func() { require.NoError(t, p.Close()) }()
	sq := qos.DefaultSubscriberQos()
	sq.Presentation = qos.Presentation{AccessScope: qos.TopicScope, CoherentAccess: true}
	sub, err := p.NewSubscriber(dds.WithQos(sq))
	require.NoError(t, err)
	tp, err := dds.NewTopic[Sample](p, topic)
	require.NoError(t, err)
	r, err := dds.NewReader(tp, dds.WithSubscriber(sub), dds.Reliable(), dds.KeepAll())
	require.NoError(t, err)

	pubArgs := []string{
		"-role", "pub", "-domain", fmt.Sprint(coherentFromCycloneDomain), "-topic", topic, "-keys", "3",
		"-count", fmt.Sprint(count), "-coherent", "4", "-access-scope", "topic", "-timeout", "15s",
	}
	pp, err := startProcess(t, "cyclone", exec.Command(bin, pubArgs...))
	require.NoError(t, err)
	var got []Sample
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	for len(got) < count {
		vs, _, err := r.Take(ctx)
		require.NoError(t, err, "got %d of %d samples", len(got), count)
		got = append(got, vs...)
	}
	pr := pp.wait(t, 20*time.Second)
	if t.Failed() || pr.code != exitOK {
		t.Logf("cyclone publisher %v: exit %d, stderr:\n%s", pubArgs, pr.code, pr.stderr)
	}
	require.Equal(t, exitOK, pr.code)
	require.Contains(t, pr.stderr, `{"event":"begin_coherent","result":"Unsupported"}`)
	require.Contains(t, pr.stderr, `{"event":"end_coherent","result":"Unsupported"}`)
	var seqs []uint64 // a take returns them instance by instance
	for _, s := range got {
		seqs = append(seqs, s.Seq)
	}
	slices.Sort(seqs)
	for i, seq := range seqs {
		require.Equal(t, uint64(i+1), seq, "%v", seqs)
	}
}
