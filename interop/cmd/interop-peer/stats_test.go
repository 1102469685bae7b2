package main

import (
	"bufio"
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/internal/testutil"
	"github.com/stretchr/testify/require"
)

func TestParseStatsArgs(t *testing.T) {
	a := mustParseArgs(t, strings.Fields("-role sub -stats 2.5 -stats-file /tmp/x.stats")...)
	require.Equal(t, 2500*time.Millisecond, a.stats)
	require.Equal(t, "/tmp/x.stats", a.statsFile)
}

// The stats writer writes a line at once, one per period and one when stopped, and
// leaves no goroutine behind.
func TestStats(t *testing.T) {
	var out testutil.SyncBuffer
	before := runtime.NumGoroutine()
	n := int64(0)
	stop := startStats(&out, 10*time.Millisecond, time.Now(), func() int64 { n++; return n })
	require.Eventually(t, func() bool { return strings.Count(out.String(), "\n") >= 3 }, 5*time.Second, time.Millisecond)
	stop()
	// (not require.Eventually: it calls the condition on a goroutine of its own)
	for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > before && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	require.LessOrEqual(t, runtime.NumGoroutine(), before)

	var lines []statsLine
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	for sc.Scan() {
		var l statsLine
		require.NoError(t, json.Unmarshal(sc.Bytes(), &l), sc.Text())
		lines = append(lines, l)
	}
	require.GreaterOrEqual(t, len(lines), 4)
	for i, l := range lines {
		require.Equal(t, int64(i+1), l.Samples)
		require.Positive(t, l.Goroutines)
		require.Positive(t, l.HeapInuse)
		if runtime.GOOS == "linux" {
			require.Positive(t, l.RSS)
			require.Positive(t, l.FDs)
			require.GreaterOrEqual(t, l.FDs, l.Sockets)
		}
	}
}
