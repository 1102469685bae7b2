package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/stretchr/testify/require"
)

// meshRuns is how many times TestMesh runs each mix: 20 for the figures of
// docs/interop.md; CI runs few.
var meshRuns = flag.Int("mesh.runs", 2, "runs of each TestMesh mix")

// meshDomains counts the runs of TestMesh: they run one after the other, each on a domain
// away from the domains of the other tests (see nextDomain).
var meshDomains = domainCycle{first: 160, n: 10}

// TestMesh runs three ddsgo participants, each writing and reading one topic, with a
// publisher and a subscriber process of another vendor (two participants of it), all on
// one domain: every writer must match every reader, every reader receive every sample of
// every writer, and every process exit 0. Fast DDS 2.9.1 (Debian) aborted in its
// statistics code in about 9 of 10 such runs while ddsgo announced a default multicast
// locator shared by all its participants (docs/interop.md).
func TestMesh(t *testing.T) {
	forEachVendor(t, func(t *testing.T, vendor, bin string) {
		for i := range *meshRuns {
			t.Run(fmt.Sprint(i), func(t *testing.T) { runMesh(t, bin, vendor, 3) })
		}
	})
}

// runMesh runs one mesh of nGo ddsgo participants and a publisher and a subscriber
// process of vendor (program bin).
func runMesh(t *testing.T, bin, vendor string, nGo int) {
	domain := meshDomains.next() // 160..189 in turn
	const count, keys = 20, 2
	writers, readers := nGo+1, nGo+1
	common := []string{"-domain", fmt.Sprint(domain), "-reliable", "-volatile", "-keys", fmt.Sprint(keys), "-timeout", "20s"}
	pubArgs := append([]string{"-role", "pub", "-count", fmt.Sprint(count), "-wait-readers", fmt.Sprint(readers)}, common...)
	// Fast DDS heartbeats rarely: a reader stays so that writers see its last ACKNACK.
	subArgs := append([]string{"-role", "sub", "-count", fmt.Sprint(writers * count), "-linger", "0.5s"}, common...)

	var procs []*proc
	sp, err := startProcess(t, vendor+" sub", exec.Command(bin, subArgs...))
	require.NoError(t, err)
	procs = append(procs, sp)
	for i := range nGo {
		pub, sub := startGoParticipant(pubArgs, subArgs)
		pub.name, sub.name = fmt.Sprintf("go%d pub", i), fmt.Sprintf("go%d sub", i)
		procs = append(procs, pub, sub)
	}
	pp, err := startProcess(t, vendor+" pub", exec.Command(bin, pubArgs...))
	require.NoError(t, err)
	procs = append(procs, pp)

	a := mustParseArgs(t, pubArgs...)
	one := expectedLines(a)
	var all []string
	for range writers {
		all = append(all, one...)
	}
	for _, p := range procs {
		r := p.wait(t, 40*time.Second)
		want := one
		if strings.HasSuffix(p.name, "sub") {
			want = all
		}
		if r.code != exitOK {
			t.Errorf("%s: exit %d (killed or aborted: -1), stderr:\n%s", p.name, r.code, r.stderr)
			continue
		}
		requireLines(t, p.name, want, r.stdout)
	}
}

// startGoParticipant runs, in this process, one ddsgo participant with a writer (the
// peer with pubArgs) and a reader (the peer with subArgs) of one topic.
func startGoParticipant(pubArgs, subArgs []string) (pub, sub *proc) {
	ctx, cancel := context.WithCancel(context.Background())
	pub = &proc{done: make(chan result, 1), stop: cancel}
	sub = &proc{done: make(chan result, 1), stop: cancel}
	go func() {
		defer cancel()
		pa, _, _ := parseArgs(pubArgs, os.Stderr)
		sa, _, _ := parseArgs(subArgs, os.Stderr)
		dctx, dcancel := context.WithTimeout(ctx, pa.timeout)
		defer dcancel()
		var pout, sout, perr, serr bytes.Buffer
		mk := func(a args, out, errw *bytes.Buffer) *peer {
			w := bufio.NewWriter(out)
			return &peer{a: a, ctx: dctx, parent: ctx, out: w, enc: json.NewEncoder(w), stderr: &lockedWriter{w: errw}, started: time.Now()}
		}
		ppr, spr := mk(pa, &pout, &perr), mk(sa, &sout, &serr)
		p, err := dds.NewParticipant(pa.domain)
		if err != nil {
			pub.done <- result{exitFailed, "", err.Error()}
			sub.done <- result{exitFailed, "", err.Error()}
			return
		}
		defer func() { _ = p.Close() }()
		topic, err := dds.NewTopic[Sample](p, pa.topic, dds.TypeName(Sample{}.DDSTypeName()))
		if err != nil {
			pub.done <- result{exitFailed, "", err.Error()}
			sub.done <- result{exitFailed, "", err.Error()}
			return
		}
		id := func(s *Sample) *Sample { return s }
		var wg sync.WaitGroup
		var pcode, scode int
		wg.Go(func() { pcode = runPub(ppr, p, topic, id) })
		wg.Go(func() { scode = runSub(spr, p, topic, id) })
		wg.Wait()
		_, _ = ppr.out.Flush(), spr.out.Flush()
		pub.done <- result{pcode, pout.String(), perr.String()}
		sub.done <- result{scode, sout.String(), serr.String()}
	}()
	return pub, sub
}
