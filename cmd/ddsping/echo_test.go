package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/internal/netns"
	"github.com/ddsgo/ddsgo/ros/builtin_interfaces"
	"github.com/ddsgo/ddsgo/ros/rosgraph_msgs"
	"github.com/ddsgo/ddsgo/ros/std_msgs"
)

// mystery is a type ddsping does not know.
type mystery struct{ X int32 }

func (mystery) DDSTypeName() string { return "acme::Mystery" }

// publishFor writes v on topic name of a participant of domain 48 every 10 ms until the
// test ends (next gives each sample).
func publishFor[T any](t *testing.T, name string, next func(i int) T, opts ...dds.Option) {
	t.Helper()
	p, err := dds.NewParticipant(48)
	require.NoError(t, err)
	topic, err := dds.NewTopic[T](p, name)
	require.NoError(t, err)
	w, err := dds.NewWriter(topic, opts...)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for i := 0; ctx.Err() == nil; i++ {
			v := next(i)
			_ = w.Write(ctx, &v)
			select {
			case <-ctx.Done():
			case <-tick.C:
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		require.NoError(t, p.Close())
	})
}

// echo prints a ROS 2 topic's samples as JSON with the type its writer announces; hz
// reports its rate; a type ddsping cannot decode is refused with what it knows.
func TestEchoAndHz(t *testing.T) {
	netns.Require(t)
	publishFor(t, "rt/clock", func(i int) rosgraph_msgs.Clock {
		return rosgraph_msgs.Clock{Clock: builtin_interfaces.Time{Sec: 7, Nanosec: uint32(i)}}
	})
	code, stdout, stderr := runCmd(t, context.Background(), "echo", "-domain", "48", "-count", "3", "/clock")
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	require.Len(t, lines, 3, stdout)
	for _, l := range lines {
		var c rosgraph_msgs.Clock
		require.NoError(t, json.Unmarshal([]byte(l), &c), l)
		require.Equal(t, int32(7), c.Clock.Sec)
	}

	code, stdout, stderr = runCmd(t, context.Background(), "hz", "-domain", "48", "-duration", "1500ms", "-json", "/clock")
	require.Equal(t, 0, code, stderr)
	var r rate
	last := strings.Split(strings.TrimSpace(stdout), "\n")
	require.NoError(t, json.Unmarshal([]byte(last[len(last)-1]), &r), stdout)
	require.Equal(t, "rt/clock", r.Topic)
	require.Equal(t, "rosgraph_msgs::msg::dds_::Clock_", r.Type)
	require.InDelta(t, 100, r.Rate, 60, "written every 10 ms: %+v", r) // a loose bound: a loaded machine
	require.GreaterOrEqual(t, r.Samples, 2)

	// A topic written once, before echo started, shows: the reader is TRANSIENT_LOCAL like
	// its writer.
	publishFor(t, "rt/once", func(int) std_msgs.String { return std_msgs.String{Data: "kept"} },
		dds.Reliable(), dds.TransientLocal(), dds.KeepLast(1))
	code, stdout, stderr = runCmd(t, context.Background(), "echo", "-domain", "48", "-count", "1", "/once")
	require.Equal(t, 0, code, stderr)
	require.JSONEq(t, `{"Data":"kept"}`, strings.TrimSpace(stdout))

	publishFor(t, "mystery", func(int) mystery { return mystery{} })
	code, _, stderr = runCmd(t, context.Background(), "echo", "-domain", "48", "mystery")
	require.Equal(t, exitFailed, code)
	require.Contains(t, stderr, `"mystery" has type acme::Mystery, which ddsping cannot decode`)

	code, _, stderr = runCmd(t, context.Background(), "echo", "-domain", "48", "-wait", "300ms", "/nobody")
	require.Equal(t, exitFailed, code)
	require.Contains(t, stderr, `no writer of "rt/nobody"`)
}
