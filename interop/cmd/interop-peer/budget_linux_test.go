package main

import (
	"fmt"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/testutil"
	"github.com/ddsgo/ddsgo/internal/wire"
)

// Domains of TestLatencyBudgetInterop and TestLatencyBudgetFromVendor.
const (
	budgetDomain     = 94
	budgetFromDomain = 96
)

// budgetRun runs a publisher pub and a subscriber sub ("go" or a vendor's program)
// with the peer contract's args and requires the subscriber to print every sample.
func budgetRun(t *testing.T, pub, sub string, bins map[string]string, args string) {
	t.Helper()
	start := func(name string, args []string) *proc {
		if name == "go" {
			return startGo(args)
		}
		p, err := startProcess(t, name, exec.Command(bins[name], args...))
		require.NoError(t, err)
		return p
	}
	common := strings.Fields(args)
	pubArgs := append([]string{"-role", "pub", "-linger", "0.5s"}, common...)
	subArgs := append([]string{"-role", "sub", "-linger", "0.5s"}, common...)
	a := mustParseArgs(t, pubArgs...)
	ss := start(sub, subArgs)
	ps := start(pub, pubArgs)
	sr := ss.wait(t, a.timeout+10*time.Second)
	pr := ps.wait(t, a.timeout+10*time.Second)
	defer func() {
		if t.Failed() {
			t.Logf("publisher %s %v: exit %d, stderr:\n%s", pub, pubArgs, pr.code, pr.stderr)
			t.Logf("subscriber %s %v: exit %d, stderr:\n%s", sub, subArgs, sr.code, sr.stderr)
		}
	}()
	want := expectedLines(a)
	requireLines(t, "publisher "+pub, want, pr.stdout)
	requireLines(t, "subscriber "+sub, want, sr.stdout)
	require.Equal(t, exitOK, pr.code)
	require.Equal(t, exitOK, sr.code)
}

// TestLatencyBudgetInterop: a ddsgo writer with a LATENCY_BUDGET of 20 ms packs the
// samples of its bursts (no pause between writes) into shared datagrams, and a Cyclone
// DDS or Fast DDS reader, reliable and best-effort, gets every sample in order. The
// readers request the same budget: LATENCY_BUDGET is RxO (a reader whose budget is
// shorter than the writer's does not match).
func TestLatencyBudgetInterop(t *testing.T) {
	forEachVendor(t, func(t *testing.T, vendor, bin string) {
		for _, rel := range []string{"-reliable", "-best-effort"} {
			t.Run(rel[1:], func(t *testing.T) {
				const count = 300
				c := countUserData(t)
				args := fmt.Sprintf("%s -volatile -keys 3 -count %d -rate 0 -latency-budget 20ms -domain %d -topic ddsgo_budget_%s", rel, count, budgetDomain, vendor)
				budgetRun(t, "go", vendor, map[string]string{vendor: bin}, args)
				datagrams, datas := c.stop()
				t.Logf("%d DATA in %d datagrams", datas, datagrams)
				require.GreaterOrEqual(t, datas, count, "every sample seen on the wire")
				require.Less(t, 2*datagrams, datas, "samples share datagrams")
			})
		}
	})
}

// dataCounter counts, on loopback, the datagrams the ddsgo peer sends from the ports of
// budgetDomain that hold DATA of user writers, and those DATA.
type dataCounter struct {
	datagrams, datas atomic.Int64
	done             atomic.Bool
	finished         chan struct{}
}

// countUserData starts a dataCounter.
func countUserData(t *testing.T) *dataCounter {
	t.Helper()
	capture, err := testutil.NewCapture()
	require.NoError(t, err)
	c := &dataCounter{finished: make(chan struct{})}
	first := uint16(7400 + 250*budgetDomain + 10) // metatraffic unicast, participant index 0
	go func() {
		defer close(c.finished)
		defer func() { _ = capture.Close() }()
		for !c.done.Load() {
			_, _, _ = capture.Next(time.Now().Add(100*time.Millisecond), func(src uint16, b []byte) bool {
				if src >= first && src < first+240 {
					c.add(b)
				}
				return false
			})
		}
	}()
	t.Cleanup(func() { c.stop() }) // also when the test fails before it stops the count
	return c
}

// add counts b if it is an RTPS message of ddsgo with DATA of a user writer.
func (c *dataCounter) add(b []byte) {
	var rd wire.Reader
	if rd.Reset(b) != nil || rd.Header.Vendor != wire.VendorDDSGo {
		return
	}
	n := int64(0)
	for rd.Next() {
		var d wire.Data
		if rd.Kind() == wire.KindData && rd.Data(&d) == nil && d.WriterID.Kind&0xc0 == 0 {
			n++
		}
	}
	if n > 0 {
		c.datagrams.Add(1)
		c.datas.Add(n)
	}
}

// stop ends the count and returns it.
func (c *dataCounter) stop() (datagrams, datas int) {
	c.done.Store(true)
	<-c.finished
	return int(c.datagrams.Load()), int(c.datas.Load())
}

// TestLatencyBudgetFromVendor: the other way, a Cyclone DDS or Fast DDS writer with a
// latency budget feeds a ddsgo reader with the same budget (what those writers do with
// it is theirs; the match and every sample are what is checked).
func TestLatencyBudgetFromVendor(t *testing.T) {
	forEachVendor(t, func(t *testing.T, vendor, bin string) {
		args := fmt.Sprintf("-reliable -volatile -keys 3 -count 100 -latency-budget 20ms -domain %d -topic ddsgo_budget_from_%s", budgetFromDomain, vendor)
		budgetRun(t, vendor, "go", map[string]string{vendor: bin}, args)
	})
}
