package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// statsLine is one line of -stats: the process's runtime figures at one moment, for
// soak runs (interop/soak.sh) that check they stay flat. Counts that cannot be read on
// this platform (no /proc) are -1.
type statsLine struct {
	T          float64 `json:"t"`          // seconds since the peer started
	Samples    int64   `json:"samples"`    // samples written (pub) or taken (sub) so far
	Goroutines int     `json:"goroutines"` // runtime.NumGoroutine
	HeapInuse  uint64  `json:"heap_inuse"` // bytes in in-use heap spans (MemStats.HeapInuse)
	HeapAlloc  uint64  `json:"heap_alloc"` // bytes of allocated heap objects (MemStats.HeapAlloc)
	RSS        int64   `json:"rss"`        // resident set size, bytes (/proc/self/statm)
	FDs        int     `json:"fds"`        // open file descriptors (/proc/self/fd, its own included)
	Sockets    int     `json:"sockets"`    // of which sockets
}

// takeStats returns the figures of this process now.
func takeStats(started time.Time, samples int64) statsLine {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fds, socks := countFDs()
	return statsLine{
		T:          time.Since(started).Seconds(),
		Samples:    samples,
		Goroutines: runtime.NumGoroutine(),
		HeapInuse:  ms.HeapInuse,
		HeapAlloc:  ms.HeapAlloc,
		RSS:        rss(),
		FDs:        fds,
		Sockets:    socks,
	}
}

// countFDs counts the open file descriptors and, of those, the sockets (Linux: the
// links in /proc/self/fd that read "socket:[inode]"). The descriptor of the directory
// being read is among them.
func countFDs() (fds, sockets int) {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1, -1
	}
	for _, e := range ents {
		if l, err := os.Readlink("/proc/self/fd/" + e.Name()); err == nil && strings.HasPrefix(l, "socket:") {
			sockets++
		}
	}
	return len(ents), sockets
}

// rss returns the resident set size from /proc/self/statm (pages), or -1.
func rss() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return -1
	}
	f := bytes.Fields(b)
	if len(f) < 2 {
		return -1
	}
	pages, err := strconv.ParseInt(string(f[1]), 10, 64)
	if err != nil {
		return -1
	}
	return pages * int64(os.Getpagesize())
}

// startStats writes a statsLine to w every period, the first at once, until the
// returned function is called; that writes a last line and returns when the writer is
// done. samples reads the peer's sample count.
func startStats(w io.Writer, period time.Duration, started time.Time, samples func() int64) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	enc := json.NewEncoder(w)
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			_ = enc.Encode(takeStats(started, samples()))
			select {
			case <-t.C:
			case <-ctx.Done():
				_ = enc.Encode(takeStats(started, samples()))
				return
			}
		}
	}()
	return func() {
		cancel()
		wg.Wait()
	}
}
