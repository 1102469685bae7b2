package main

import (
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/internal/netns"
	"github.com/ddsgo/ddsgo/ros/std_msgs"
)

// dynPubSample is a type ddsping does not have, described by its TypeObjects (its
// members are named for IDL).
type dynPubSample struct {
	ID     int32     `dds:"key,name=id"`
	Text   string    `dds:"name=text"`
	Values []float64 `dds:"name=values"`
	Seq    uint64    `dds:"name=seq"`
}

func (dynPubSample) DDSTypeName() string { return "ddsgo_test::Sample" }

// pub TOPIC VALUE on a topic whose type ddsping has no Go type for writes it with the
// type the topic's reader announced (XTypes TypeLookup): the reader, with its Go type,
// gets the value; a member the type does not have is a usage error naming it.
func TestPubDynamic(t *testing.T) {
	netns.Require(t)
	p, err := dds.NewParticipant(180)
	require.NoError(t, err)
	defer func() { require.NoError(t, p.Close()) }()
	topic, err := dds.NewTopic[dynPubSample](p, "dyn_pub")
	require.NoError(t, err)
	r, err := dds.NewReader(topic, dds.Reliable(), dds.KeepAll())
	require.NoError(t, err)

	code, stdout, stderr := runCmd(t, context.Background(), "pub", "-domain", "180", "-count", "2", "-json",
		"dyn_pub", `id: 7, text: "hi", values: [0.5, 2], seq: 3`)
	require.Equal(t, exitOK, code, stderr)
	require.JSONEq(t, `{"topic": "dyn_pub", "type": "ddsgo_test::Sample", "published": 2}`, stdout)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	got := 0
	for v, info := range r.Samples(ctx) {
		require.True(t, info.ValidData)
		require.Equal(t, dynPubSample{ID: 7, Text: "hi", Values: []float64{0.5, 2}, Seq: 3}, v)
		if got++; got == 2 {
			break
		}
	}
	require.Equal(t, 2, got)

	code, _, stderr = runCmd(t, context.Background(), "pub", "-domain", "180", "dyn_pub", `id: 7, nope: 1`)
	require.Equal(t, exitUsage, code, stderr)
	require.Contains(t, stderr, `no member "nope"`)

	// A DDS name (no leading /) is that topic, as echo reads it, even of a ROS 2 type
	// ddsping has (the ROS 2 name /plain would be rt/plain).
	st, err := dds.NewTopic[std_msgs.String](p, "plain")
	require.NoError(t, err)
	sr, err := dds.NewReader(st, dds.Reliable())
	require.NoError(t, err)
	code, _, stderr = runCmd(t, context.Background(), "pub", "-domain", "180", "plain", `data: "hi"`)
	require.Equal(t, exitOK, code, stderr)
	vs, _, err := sr.Take(ctx)
	require.NoError(t, err)
	require.Equal(t, "hi", vs[0].Data)
}

// ddsping pub TOPIC VALUE feeds Cyclone DDS's ddsperf sub with ddsperf's own type,
// which ddsping takes from ddsperf's reader.
func TestPubValueDdsperfSub(t *testing.T) {
	out, _ := startDdsperf(t, 183, "-D", "8", "sub")
	code, stdout, stderr := runCmd(t, context.Background(), "pub", "-domain", "183", "-count", "5", "-rate", "20",
		"DDSPerfRDataKS", `seq: 1, keyval: 0, baggage: [1, 2, 3, 4]`)
	require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	require.Contains(t, stdout, "pub: 5 KeyedSeq on DDSPerfRDataKS")
	// "[PID] 2.000  size 16 total 4 lost ..." (ddsperf counts from the first it got).
	seen := regexp.MustCompile(`size 16 total [1-9]`)
	require.Eventually(t, func() bool { return seen.MatchString(out.String()) }, 5*time.Second, 50*time.Millisecond, out.String())
}

// A plain Go type (no name= tags) announces no type information, so pub cannot write
// it by the reader's type: the error says what would make the type known.
func TestPubPlainGoType(t *testing.T) {
	netns.Require(t)
	p, err := dds.NewParticipant(181)
	require.NoError(t, err)
	defer func() { require.NoError(t, p.Close()) }()
	topic, err := dds.NewTopic[mystery](p, "plain_go")
	require.NoError(t, err)
	_, err = dds.NewReader(topic, dds.Reliable())
	require.NoError(t, err)
	code, _, stderr := runCmd(t, context.Background(), "pub", "-domain", "181", "-wait", "2s", "plain_go", `X: 1`)
	require.Equal(t, exitFailed, code, stderr)
	require.Contains(t, stderr, `every member has an IDL name, a dds:"name=..." tag`)
}
