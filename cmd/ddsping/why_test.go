package main

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/internal/netns"
	"github.com/ddsgo/ddsgo/ros/std_msgs"
)

// endpointsOn creates a writer and a reader of std_msgs/String on topic name in two
// participants of domain 49, with the options of each (none: no reader), the reader in
// the partitions part; they live until the test ends.
func endpointsOn(t *testing.T, name string, wopts, ropts []dds.Option, part ...string) {
	t.Helper()
	for i, opts := range [][]dds.Option{wopts, ropts} {
		if opts == nil {
			continue
		}
		p, err := dds.NewParticipant(49)
		require.NoError(t, err)
		t.Cleanup(func() { require.NoError(t, p.Close()) })
		topic, err := dds.NewTopic[std_msgs.String](p, name)
		require.NoError(t, err)
		if i == 0 {
			_, err = dds.NewWriter(topic, opts...)
		} else {
			var sub *dds.Subscriber
			sub, err = p.NewSubscriber(dds.Partition(part...))
			require.NoError(t, err)
			_, err = dds.NewReader(topic, append(opts, dds.WithSubscriber(sub))...)
		}
		require.NoError(t, err)
	}
}

// why says what to check when nobody answers, why a pair of endpoints does not match,
// which endpoints are alone, and which names were probably meant.
func TestWhy(t *testing.T) {
	netns.Require(t)
	code, stdout, _ := runCmd(t, context.Background(), "why", "-domain", "49", "-wait", "200ms")
	require.Equal(t, exitFailed, code)
	require.Contains(t, stdout, "no participant on domain 49 answered")
	require.Contains(t, stdout, "interface lo: 127.0.0.1/8")
	require.Contains(t, stdout, "multicast works", "the namespace routes multicast on lo")

	endpointsOn(t, "T", []dds.Option{dds.BestEffort()}, []dds.Option{dds.Reliable()})
	endpointsOn(t, "rt/chatter", []dds.Option{dds.Reliable()}, []dds.Option{dds.Reliable()}, "p")
	endpointsOn(t, "ok", []dds.Option{dds.Reliable()}, []dds.Option{dds.BestEffort()})
	endpointsOn(t, "lonely", []dds.Option{dds.Reliable()}, nil)

	code, stdout, stderr := runCmd(t, context.Background(), "why", "-domain", "49", "-wait", "1s", "T")
	require.Equal(t, exitFailed, code, stderr)
	require.Contains(t, stdout, `"T": writer of`)
	require.Contains(t, stdout, "NO MATCH: incompatible QoS: Reliability: offered BEST_EFFORT, requested RELIABLE")

	code, stdout, stderr = runCmd(t, context.Background(), "why", "-domain", "49", "-wait", "1s", "-json", "/chatter")
	require.Equal(t, exitFailed, code, stderr)
	var rep struct {
		Pairs []pairReport `json:"pairs"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &rep), stdout)
	require.Len(t, rep.Pairs, 1)
	require.False(t, rep.Pairs[0].Match)
	require.Equal(t, []string{`partitions do not match ([] vs ["p"])`}, rep.Pairs[0].Why)

	code, stdout, stderr = runCmd(t, context.Background(), "why", "-domain", "49", "-wait", "1s", "ok")
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, stdout, ": match")

	code, stdout, _ = runCmd(t, context.Background(), "why", "-domain", "49", "-wait", "1s", "/Chatter")
	require.Equal(t, exitFailed, code)
	require.Contains(t, stdout, `"rt/Chatter": no writer or reader on the domain; did you mean rt/chatter?`)

	code, stdout, stderr = runCmd(t, context.Background(), "why", "-domain", "49", "-wait", "1s")
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, stdout, `"lonely": writer of`)
	require.Contains(t, stdout, "has no reader on the domain")

	code, stdout, stderr = runCmd(t, context.Background(), "ls", "-domain", "49", "-wait", "1s")
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, stdout, "locators: data 127.0.0.1:")
	require.Contains(t, stdout, "RTPS 2.")
	require.Contains(t, stdout, "KEEP_LAST 1")
}

// ls shows the entities of the ddsgo participants that publish their graph
// (DDSGO_INTROSPECTION=1): the tree of publishers, writers and their statuses.
func TestListIntrospection(t *testing.T) {
	netns.Require(t)
	t.Setenv("DDSGO_INTROSPECTION", "1")
	p, err := dds.NewParticipant(53)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, p.Close()) })
	topic, err := dds.NewTopic[std_msgs.String](p, "graphed")
	require.NoError(t, err)
	_, err = dds.NewWriter(topic, dds.Reliable())
	require.NoError(t, err)
	t.Setenv("DDSGO_INTROSPECTION", "") // ddsping itself does not publish its graph
	code, stdout, stderr := runCmd(t, context.Background(), "ls", "-domain", "53", "-wait", "1500ms")
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, stdout, "    entities (introspection):\n")
	require.Regexp(t, `\n        publisher \[[0-9a-f]{8}\]\n          writer "graphed" type "std_msgs::msg::dds_::String_" RELIABLE VOLATILE KEEP_LAST 1, publication_matched 0/0 \[`, stdout)

	code, stdout, stderr = runCmd(t, context.Background(), "ls", "-domain", "53", "-wait", "1500ms", "-json")
	require.Equal(t, exitOK, code, stderr)
	var got struct {
		Entities map[string][]dcpsEntity `json:"entities"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &got), stdout)
	require.Len(t, got.Entities, 1)
}
