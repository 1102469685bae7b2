package main

import (
	"bufio"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/netns"
)

// rosLine is one line of a ROS 2 client's output (interop/ros): a sample of a topic or
// the reply of a service call.
type rosLine struct {
	Topic      string `json:"topic"`
	Sec        *int32 `json:"sec"`
	Transforms int    `json:"transforms"`
	Frames     []struct {
		Parent string `json:"parent"`
		Child  string `json:"child"`
	} `json:"frames"`
	Call     string   `json:"call"`
	Result   int      `json:"result"`
	State    int      `json:"state"`
	Entities []string `json:"entities"`
}

// TestROSClients runs ddsim, ddsgo's simulator, with the ROS 2 clients of interop/ros:
// a node as rmw_cyclonedds puts it on the wire (Cyclone DDS, the 16-byte request header)
// and one as rmw_fastrtps does (Fast DDS, the related sample identity), both built from
// the IDL that ddsgen makes of the .msg/.srv files. Each reads /clock and /tf and calls
// get_entities, get_simulation_state, set_simulation_state (pause) and
// get_simulation_state again; every reply must arrive and carry the world's real values.
func TestROSClients(t *testing.T) {
	netns.Require(t)
	ddsim := builtProgram(t, "ddsim")
	for i, client := range []string{"cyclone-rosclient", "fastdds-rosclient"} {
		t.Run(client, func(t *testing.T) {
			t.Parallel()
			bin := builtProgram(t, client)
			domain := []string{"-domain", []string{"230", "231"}[i]}
			sim, err := startProcess(t, "ddsim", exec.Command(ddsim, domain...))
			require.NoError(t, err)
			p, err := startProcess(t, client, exec.Command(bin, append(domain, "-filter", "shelf_.*", "-timeout", "30")...))
			require.NoError(t, err)
			res := p.wait(t, 40*time.Second)
			sim.stop()
			simRes := sim.wait(t, 10*time.Second)
			require.Equal(t, 0, res.code, "%s: %s\nddsim: %s", client, res.stderr, simRes.stderr)
			checkROSLines(t, res.stdout)
		})
	}
}

// checkROSLines checks what a ROS 2 client printed against the built-in world of ddsim.
func checkROSLines(t *testing.T, out string) {
	t.Helper()
	var lines []rosLine
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var l rosLine
		require.NoError(t, json.Unmarshal(sc.Bytes(), &l), sc.Text())
		lines = append(lines, l)
	}
	require.Len(t, lines, 6, out)
	clock, tf, ents, playing, paused, nowPaused := lines[0], lines[1], lines[2], lines[3], lines[4], lines[5]
	require.Equal(t, "/clock", clock.Topic)
	require.NotNil(t, clock.Sec)
	require.Equal(t, "/tf", tf.Topic)
	require.Equal(t, len(tf.Frames), tf.Transforms)
	frames := map[string]string{}
	for _, f := range tf.Frames {
		frames[f.Child] = f.Parent
	}
	require.Equal(t, "world", frames["robot"], out)
	require.Equal(t, "robot", frames["robot::left_wheel"], out)
	require.Equal(t, "world", frames["shelf_a"], out)

	require.Equal(t, rosLine{Call: "get_entities", Result: 1, Entities: []string{"shelf_a", "shelf_b"}}, ents)
	require.Equal(t, rosLine{Call: "get_simulation_state", Result: 1, State: 1}, playing, "STATE_PLAYING")
	require.Equal(t, rosLine{Call: "set_simulation_state", Result: 1}, paused)
	require.Equal(t, rosLine{Call: "get_simulation_state", Result: 1, State: 2}, nowPaused, "STATE_PAUSED")
}
