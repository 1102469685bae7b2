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
	"github.com/ddsgo/ddsgo/internal/netns"
	"github.com/ddsgo/ddsgo/qos"
)

// Domains of the group coherent set tests (dds/coherent_group.go).
const (
	groupToCycloneDomain = 178
	groupToFastDDSDomain = 179
)

// TestGroupCoherentToPeers: a ddsgo publisher with GROUP coherent access and two
// writers writes 12 samples of one topic and 6 of another in three group coherent sets;
// every change carries PID_GROUP_SEQ_NUM and PID_GROUP_COHERENT_SET, each end marker
// PID_WRITER_GROUP_INFO. A Cyclone DDS 0.10.2 subscriber requesting GROUP coherent
// access and a Fast DDS 2.9.1 subscriber (without: it does not implement coherent
// access) of the first topic ignore those parameters and get exactly its 12 samples.
func TestGroupCoherentToPeers(t *testing.T) {
	netns.Require(t)
	for _, tc := range []struct {
		vendor string
		domain int
		args   []string
	}{
		{"cyclone", groupToCycloneDomain, []string{"-coherent", "4", "-access-scope", "group"}},
		{"fastdds", groupToFastDDSDomain, nil},
	} {
		t.Run(tc.vendor, func(t *testing.T) {
			groupToPeer(t, tc.vendor, tc.domain, tc.args)
		})
	}
}

func groupToPeer(t *testing.T, vendor string, domain int, extra []string) {
	bin := peerBinary(t, vendor)
	topic := "ddsgo_group_to_" + vendor
	const count, size = 12, 4
	p, err := dds.NewParticipant(domain)
	require.NoError(t, err)
	defer func() { require.NoError(t, p.Close()) }()
	pq := qos.DefaultPublisherQos()
	pq.Presentation = qos.Presentation{AccessScope: qos.GroupScope, CoherentAccess: true}
	pub, err := p.NewPublisher(dds.WithQos(pq))
	require.NoError(t, err)
	tp, err := dds.NewTopic[Sample](p, topic)
	require.NoError(t, err)
	other, err := dds.NewTopic[Sample](p, topic+"_other")
	require.NoError(t, err)
	w, err := dds.NewWriter(tp, dds.WithPublisher(pub), dds.Reliable(), dds.KeepAll())
	require.NoError(t, err)
	w2, err := dds.NewWriter(other, dds.WithPublisher(pub), dds.Reliable(), dds.KeepAll())
	require.NoError(t, err)

	subArgs := append([]string{
		"-role", "sub", "-domain", fmt.Sprint(domain), "-topic", topic, "-keys", "3",
		"-count", fmt.Sprint(count), "-timeout", "15s", "-linger", "1s",
	}, extra...)
	sp, err := startProcess(t, vendor, exec.Command(bin, subArgs...))
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		s, err := w.PublicationMatchedStatus()
		return err == nil && s.CurrentCount == 1
	}, 10*time.Second, 10*time.Millisecond, "the %s subscriber did not match", vendor)
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
		if seq%2 == 0 {
			require.NoError(t, w2.Write(context.Background(), &s)) // the other part of the set
		}
		if seq%size == 0 {
			require.NoError(t, pub.EndCoherentChanges())
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, w.WaitForAcknowledgments(ctx))
	sr := sp.wait(t, 20*time.Second)
	if t.Failed() || sr.code != exitOK {
		t.Logf("%s subscriber %v: exit %d, stderr:\n%s", vendor, subArgs, sr.code, sr.stderr)
	}
	require.Equal(t, exitOK, sr.code)
	requireLines(t, vendor+" subscriber", splitLines(want.String()), sr.stdout)
	require.NotContains(t, sr.stderr, "incompatible_qos")
}
