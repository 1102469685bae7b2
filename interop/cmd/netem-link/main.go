//go:build linux

// Command netem-link joins two network namespaces with a lossy link, for scripts: it
// creates a TAP interface in the network namespace of each of two processes and relays
// the Ethernet frames between them with seeded loss, reordering, duplication and delay
// (package internal/netem, a user-space netem for kernels without sch_netem), until it
// is interrupted; then it prints what the link did.
//
//	netem-link -a PID_A -b PID_B [-ifa ddsgota] [-ifb ddsgotb] [-loss 0.1] [-reorder 0.05]
//	           [-dup 0.01] [-delay 2ms] [-seed N]
//
// It never creates an interface in its own namespace. Configure the interfaces from
// inside their namespaces (they start down), for example:
//
//	nsenter -t PID_A -n ip addr add 198.18.1.1/24 dev ddsgota
//	nsenter -t PID_A -n ip link set ddsgota up
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/ddsgo/ddsgo/internal/netem"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr, interrupted()))
}

// interrupted returns a channel closed on SIGINT or SIGTERM.
func interrupted() <-chan struct{} {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() { <-ch; close(done) }()
	return done
}

// options is the command line.
type options struct {
	pidA, pidB int
	ifA, ifB   string
	cfg        netem.Config
}

func parse(argv []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("netem-link", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&o.pidA, "a", 0, "a process in the first namespace")
	fs.IntVar(&o.pidB, "b", 0, "a process in the second namespace")
	fs.StringVar(&o.ifA, "ifa", "ddsgota", "interface name in the first namespace")
	fs.StringVar(&o.ifB, "ifb", "ddsgotb", "interface name in the second namespace")
	fs.Float64Var(&o.cfg.Loss, "loss", 0.10, "loss probability")
	fs.Float64Var(&o.cfg.Reorder, "reorder", 0.05, "probability that a frame skips the delay")
	fs.Float64Var(&o.cfg.Duplicate, "dup", 0.01, "duplication probability")
	fs.DurationVar(&o.cfg.Delay, "delay", 2*time.Millisecond, "delay")
	fs.Uint64Var(&o.cfg.Seed, "seed", uint64(time.Now().UnixNano()), "seed of the random decisions")
	if err := fs.Parse(argv); err != nil {
		return o, err
	}
	if o.pidA <= 0 || o.pidB <= 0 || fs.NArg() > 0 {
		return o, fmt.Errorf("want -a PID and -b PID and no other argument")
	}
	for _, p := range []float64{o.cfg.Loss, o.cfg.Reorder, o.cfg.Duplicate} {
		if p < 0 || p > 1 {
			return o, fmt.Errorf("probabilities are within 0..1")
		}
	}
	o.cfg.Exempt = netem.IsARP
	return o, nil
}

func run(argv []string, stderr io.Writer, stop <-chan struct{}) int {
	o, err := parse(argv, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "netem-link:", err)
		return 2
	}
	a, err := netem.OpenTAP(o.pidA, o.ifA)
	if err != nil {
		fmt.Fprintln(stderr, "netem-link:", err)
		return 1
	}
	b, err := netem.OpenTAP(o.pidB, o.ifB)
	if err != nil {
		_ = a.Close()
		fmt.Fprintln(stderr, "netem-link:", err)
		return 1
	}
	l := netem.Start(a, b, o.cfg)
	fmt.Fprintf(stderr, "netem-link: %s (pid %d) <-> %s (pid %d), seed %d\n", o.ifA, o.pidA, o.ifB, o.pidB, o.cfg.Seed)
	<-stop
	_ = a.Close()
	_ = b.Close()
	l.Wait()
	ab, ba := l.Stats()
	fmt.Fprintf(stderr, "netem-link: a->b %+v\nnetem-link: b->a %+v\n", ab, ba)
	return 0
}
