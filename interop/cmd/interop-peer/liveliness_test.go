package main

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// livelinessEvent is a status event line of a peer's stderr.
type livelinessEvent struct {
	Event         string `json:"event"`
	AliveCount    int32  `json:"alive_count"`
	NotAliveCount int32  `json:"not_alive_count"`
	TotalCount    int32  `json:"total_count"`
}

// events returns the status event lines of a peer's stderr.
func events(stderr string) []livelinessEvent {
	var out []livelinessEvent
	for _, line := range splitLines(stderr) {
		var e livelinessEvent
		if json.Unmarshal([]byte(line), &e) == nil && e.Event != "" {
			out = append(out, e)
		}
	}
	return out
}

// requireLostThenNotAlive checks the writer's LIVELINESS_LOST and the reader's
// LIVELINESS_CHANGED to not alive.
func requireLostThenNotAlive(t *testing.T, pub, sub result) {
	t.Helper()
	require.Equal(t, 0, pub.code, "publisher: %s", pub.stderr)
	require.Equal(t, 0, sub.code, "subscriber: %s", sub.stderr)
	require.Contains(t, events(pub.stderr), livelinessEvent{Event: "liveliness_lost", TotalCount: 1}, "publisher: %s", pub.stderr)
	require.Contains(t, events(sub.stderr), livelinessEvent{Event: "liveliness_changed", AliveCount: 1}, "subscriber: %s", sub.stderr)
	require.Contains(t, events(sub.stderr), livelinessEvent{Event: "liveliness_changed", NotAliveCount: 1}, "subscriber: %s", sub.stderr)
}

// A MANUAL_BY_TOPIC writer that writes three samples and then stops asserting its
// liveliness: its reader of the other implementation sees it alive, then not alive
// after the lease, and the writer counts LIVELINESS_LOST. Both ways with Cyclone DDS
// and Fast DDS.
func TestLivelinessInterop(t *testing.T) {
	forEachVendor(t, func(t *testing.T, vendor, bin string) {
		base := 215
		if vendor == "fastdds" {
			base = 217
		}
		for i, goPub := range []bool{false, true} {
			name := vendor + " writer"
			if goPub {
				name = "ddsgo writer"
			}
			t.Run(name, func(t *testing.T) {
				common := []string{
					"-domain", strconv.Itoa(base + i), "-topic", "liveliness_" + strconv.Itoa(i), "-count", "3",
					"-liveliness", "topic", "-lease", "0.4", "-timeout", "20",
				}
				subArgs := append([]string{"-role", "sub", "-linger", "2.5"}, common...)
				pubArgs := append([]string{"-role", "pub", "-linger", "3"}, common...)
				var pub, sub *proc
				var err error
				if goPub {
					sub, err = startProcess(t, vendor, exec.Command(bin, subArgs...))
					require.NoError(t, err)
					pub = startGo(pubArgs)
				} else {
					sub = startGo(subArgs)
					pub, err = startProcess(t, vendor, exec.Command(bin, pubArgs...))
					require.NoError(t, err)
				}
				sr, pr := sub.wait(t, 30*time.Second), pub.wait(t, 30*time.Second)
				requireLostThenNotAlive(t, pr, sr)
				fmt.Fprint(testWriter{t}, "publisher events: ", events(pr.stderr), "\nsubscriber events: ", events(sr.stderr), "\n")
			})
		}
	})
}

// testWriter logs what is written to it.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(b []byte) (int, error) {
	w.t.Log(string(b))
	return len(b), nil
}
