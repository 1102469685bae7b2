package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/ddsgo/ddsgo/dds"
)

// selftestPhase is one round-trip measurement of the selftest.
type selftestPhase struct {
	reliable bool
	size     int
	count    int
}

// selftestReport is what selftest found, printed as text or JSON.
type selftestReport struct {
	Domain    int               `json:"domain"`
	Discovery string            `json:"discovery"`
	Seen      []seenParticipant `json:"participants"`
	Matches   []selftestMatch   `json:"matches"`
	RoundTrip []pingResult      `json:"round_trips"`
	Failures  []string          `json:"failures,omitempty"`
	Seconds   float64           `json:"seconds"`
	OK        bool              `json:"ok"`
}

type seenParticipant struct {
	By          string  `json:"seen_by"`
	Participant partRow `json:"participant"`
	AfterMs     float64 `json:"after_ms"`
}

type selftestMatch struct {
	Topics  string  `json:"topics"`
	AfterMs float64 `json:"after_ms"`
}

func setupSelftest(fs *flag.FlagSet, o *options) func(context.Context) error {
	multicast := fs.Bool("multicast", false, "discover by SPDP multicast on loopback instead of unicast to 127.0.0.1")
	size := fs.Int("size", 16, "payload `bytes` of the small-sample round trips")
	return func(ctx context.Context) error {
		if *size < 0 {
			return fmt.Errorf("%w: -size may not be negative", errUsage)
		}
		if len(o.interfaces) == 0 {
			o.interfaces = []string{"127.0.0.1"}
		}
		how := "multicast 239.255.0.1"
		if !*multicast {
			if len(o.peers) == 0 {
				o.peers = []string{"127.0.0.1"}
			}
			o.noMulticast = true
			how = "unicast to " + fmt.Sprint(o.peers)
		}
		rep, err := selftest(ctx, o, how, []selftestPhase{
			{reliable: true, size: *size, count: 2000},
			{reliable: false, size: *size, count: 2000},
			{reliable: true, size: 64 << 10, count: 300},
		})
		if o.json {
			_ = json.NewEncoder(o.out).Encode(rep)
		} else {
			printSelftest(o, rep)
		}
		if err != nil {
			return err
		}
		if !rep.OK {
			return fmt.Errorf("%w: %d problems", errFailed, len(rep.Failures))
		}
		return nil
	}
}

// selftest runs pong and ping in this process.
func selftest(ctx context.Context, o *options, how string, phases []selftestPhase) (*selftestReport, error) {
	start := time.Now()
	rep := &selftestReport{Domain: o.domain, Discovery: how}
	fail := func(format string, args ...any) {
		rep.Failures = append(rep.Failures, fmt.Sprintf(format, args...))
	}
	defer func() {
		rep.Seconds = time.Since(start).Seconds()
		rep.OK = len(rep.Failures) == 0
	}()

	pongNode, err := newNode(o, "ddsping selftest pong")
	if err != nil {
		return rep, err
	}
	defer pongNode.close()
	pingNode, err := newNode(o, "ddsping selftest ping")
	if err != nil {
		return rep, err
	}
	defer pingNode.close()
	created := time.Now()

	pong, err := newPonger(pongNode, false)
	if err != nil {
		return rep, err
	}
	pctx, pcancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	var pongErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		pongErr = pong.run(pctx)
	}()
	defer func() {
		pcancel()
		wg.Wait()
	}()

	// Discovery: each participant sees the other.
	dctx, dcancel := context.WithTimeout(ctx, 5*time.Second)
	defer dcancel()
	for _, pair := range [][2]*node{{pongNode, pingNode}, {pingNode, pongNode}} {
		by, want := pair[0], pair[1]
		seen, err := waitParticipant(dctx, by.p, want.p.InstanceHandle())
		if err != nil {
			fail("%s did not discover %s within 5 s", by.name(), want.name())
			continue
		}
		row, err := participantRow(by.p, want.p.InstanceHandle())
		if err != nil {
			return rep, err
		}
		rep.Seen = append(rep.Seen, seenParticipant{By: by.name(), Participant: row, AfterMs: ms(seen.Sub(created))})
	}

	// Matching and round trips, one pinger per phase.
	matched := map[bool]bool{}
	for _, ph := range phases {
		cfg := pingConfig{size: ph.size, count: ph.count, duration: time.Second, reliable: ph.reliable, warmup: 10}
		p, err := newPinger(pingNode, cfg)
		if err != nil {
			return rep, err
		}
		what := reliability(ph.reliable) + " " + bytesString(ph.size)
		mctx, mcancel := context.WithTimeout(ctx, 5*time.Second)
		d, err := p.waitMatch(mctx)
		mcancel()
		switch {
		case err != nil:
			fail("%s: %v", what, err)
		case !matched[ph.reliable]:
			matched[ph.reliable] = true
			pingT, pongT := pingTopics(ph.reliable)
			rep.Matches = append(rep.Matches, selftestMatch{Topics: pingT + " + " + pongT, AfterMs: ms(d)})
		}
		if err == nil {
			res, err := p.run(ctx, nil)
			rep.RoundTrip = append(rep.RoundTrip, res)
			switch {
			case err != nil:
				fail("%s: %v", what, err)
			case ph.reliable && res.Lost > 0:
				fail("%s: %d pongs lost", what, res.Lost)
			}
		}
		if err := p.close(pingNode); err != nil {
			return rep, err
		}
		if ctx.Err() != nil {
			return rep, ctx.Err()
		}
	}
	pcancel()
	wg.Wait()
	if pongErr != nil {
		fail("pong: %v", pongErr)
	}
	return rep, nil
}

// waitParticipant waits until p has discovered the participant h and returns when.
func waitParticipant(ctx context.Context, p *dds.DomainParticipant, h dds.InstanceHandle) (time.Time, error) {
	for {
		hs, err := p.DiscoveredParticipants()
		if err != nil {
			return time.Time{}, err
		}
		if slices.Contains(hs, h) {
			return time.Now(), nil
		}
		select {
		case <-ctx.Done():
			return time.Time{}, ctx.Err()
		case <-time.After(200 * time.Microsecond):
		}
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 }

func printSelftest(o *options, r *selftestReport) {
	w := o.out
	fmt.Fprintf(w, "ddsping selftest: two participants in this process, domain %d, loopback, discovery by %s\n", r.Domain, r.Discovery)
	fmt.Fprintln(w, "discovery")
	for _, s := range r.Seen {
		fmt.Fprintf(w, "  %-22s saw %q after %.1f ms: %s\n", s.By, s.Participant.Name, s.AfterMs, s.Participant.describe())
	}
	for _, m := range r.Matches {
		fmt.Fprintf(w, "  ping's writer and reader matched pong's on %s %.1f ms after their creation\n", m.Topics, m.AfterMs)
	}
	if len(r.RoundTrip) > 0 {
		fmt.Fprintln(w, "round trips")
		for _, rt := range r.RoundTrip {
			writePingResult(w, "  ", rt)
		}
	}
	for _, f := range r.Failures {
		fmt.Fprintf(w, "FAIL %s\n", f)
	}
	verdict := "OK"
	if !r.OK {
		verdict = "FAILED"
	}
	fmt.Fprintf(w, "selftest: %s in %.1f s\n", verdict, r.Seconds)
}
