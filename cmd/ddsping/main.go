// Command ddsping is the diagnostic tool to reach for when DDS "doesn't work": who is on
// the domain, what matches and why not, round-trip latency and throughput.
//
// Usage:
//
//	ddsping selftest [-size N] [-multicast]   pong and ping in one process on loopback
//	ddsping pong                              echo the pings of every pinger
//	ddsping ping [-size N] [-rate HZ] [-count N | -duration D] [-best-effort] [-svg FILE]
//	ddsping sub                               count the samples of every publisher
//	ddsping pub [-size N] [-rate HZ] [-duration D] [-best-effort]
//	ddsping pub [-type T] [-count N] TOPIC VALUE  publish VALUE (text form: "id: 1, name: \"x\"")
//	ddsping list (or ls)                      participants and endpoints of the domain
//	ddsping why [TOPIC]                       why writers and readers match or not
//	ddsping watch                             list, then every change as it happens
//	ddsping call SERVICE [REQUEST]            call a ROS 2 service, print the reply
//	ddsping echo TOPIC                        print the samples of a topic as JSON
//	ddsping hz TOPIC                          the rate of a topic's samples
//
// list ends with the statistics of its own participant (dds.DomainParticipant.Statistics):
// datagrams received and sent, the remote participants (unconfirmed ones: only
// announced, not yet heard from in discovery) and endpoints it holds, and what it
// dropped by reason: queue-full, not-rtps, malformed, unknown-writer, unknown-reader,
// bad-discovery, participants-evicted, participants-refused, endpoints-refused,
// duplicates, out-of-window, oversize, bad-fragments. watch prints them every second
// in which they changed ("stats" events with -json). A flood of hostile input on the
// domain shows there.
//
// With -json, list prints one object: participants, writers and readers (each with its
// GUID, topic, type, participant and policies as fields), pairs (writer and reader
// GUIDs, match, why not), the introspected entities, ROS 2 names and the statistics
// (keys as above, with _ for -). watch prints one object per event: "participant",
// "endpoint" or "pair" with the same fields, or "stats".
//
// Every subcommand takes -domain N (0), -interface NAME and -peer HOST (repeatable),
// -no-multicast, -busy-poll DURATION, -json, -v (log to stderr), -procs N and
// -cpuprofile / -memprofile FILE. Its -h lists the subcommand's own flags with -domain
// and -json first, and the eight that tune the network and the process (-interface,
// -peer, -no-multicast, -busy-poll, -v, -procs, -cpuprofile, -memprofile) after them under
// a heading of their own.
//
// # Busy poll
//
// By default (rtps.Config.BusyPoll zero) each user-traffic socket's receive goroutine
// keeps reading its socket for up to 100 µs after a datagram, instead of sleeping at
// once, while the participant is in a request/reply exchange whose replies come that
// soon, as ping and pong are at full rate: no netpoller wake-up per datagram. -busy-poll
// 500us polls that long after every datagram whatever the traffic; -busy-poll -1 never
// polls. The statistics line shows the datagrams the polls received.
//
// # Processors
//
// ddsping runs with GOMAXPROCS=1 unless -procs or the GOMAXPROCS environment variable
// says otherwise. Each of its roles is one application goroutine plus the library's
// receive goroutines, and on a machine where the peer process shares the CPUs (two
// processes on a 2-CPU machine), an idle second P makes the Go scheduler wake and spin
// threads on every hand-off, which take the CPU from the peer: round trips measured here
// are about 1.2x longer at 16 B with GOMAXPROCS=2, and a hand-off alone 3-4x slower
// (docs/benchmarks.md, "Round trips" and "The busy poll"). Applications in the same
// situation can do the same.
//
// # Round trip
//
// ping writes samples of type ddsping::Sample (a key, a sequence number, a timestamp and
// a payload of -size bytes) on topic ddsping_ping and pong writes each back on
// ddsping_pong; best-effort pingers use ddsping_ping_be and ddsping_pong_be, which pong
// serves too. With -rate 0 (the default) ping keeps one sample outstanding and sends
// the next as soon as the answer arrives, like Cyclone DDS's ddsperf ping. Every second,
// and at the end, it prints the round-trip statistics: mean, min, 50 %, 90 %, 99 %,
// max and count, plus the pongs lost and the memory allocated per round trip. -svg FILE
// also writes the histogram of the round trips as an SVG plot (a logarithmic time axis,
// the 50, 90 and 99 % percentiles marked).
//
// # Throughput
//
// pub writes as fast as it can (reliable, KEEP_ALL, blocking when the readers fall
// behind) on ddsping_data, sub takes and prints every second the samples/s, MB/s of
// payload and the samples lost (gaps in the sequence numbers).
//
// # Against Cyclone DDS's ddsperf
//
// ddsping also speaks the protocol of Cyclone DDS's ddsperf (its default topic type KS),
// with no flag: pong answers ddsperf's pingers as well as its own, ping and pub also open
// ddsperf's topics and keep whichever matches first (their own when both do, as against
// a ddsping pong), and sub counts the samples of both kinds of publisher. So `ddsping
// ping` measures against `ddsperf pong`, `ddsperf ping` against `ddsping pong`, `ddsping
// pub` feeds `ddsperf sub` and `ddsping sub` counts what `ddsperf pub` sends (and
// answers the samples `ddsperf pub R X%` marks as pings, as ddsperf's sub does); with
// -best-effort ddsping uses the topics of `ddsperf -u`. What that takes is written in
// ddsperf.go: the topics DDSPerfRPingKS, DDSPerfRPongKS and DDSPerfRDataKS of type
// KeyedSeq, pongs in a partition per pinger named after its participant GUID, the
// participant's USER_DATA "DDSPerf:0:PID:HOST" (ping and pong announce it), and the ping's
// source timestamp echoed by the pong. Against ddsperf, -size is ddsperf's size (12 bytes
// of sequence number, key and length included), and pongs lost do not fail a reliable
// run: ddsperf keeps only the last ping and pong (KEEP_LAST 1), so a paced ping may be
// overwritten by the next. ddsperf prints half the round trip as its latency; ddsping
// prints whole round trips.
//
// # Calling services
//
// call calls a ROS 2 service as a ROS 2 client does (rq/NAMERequest, rr/NAMEReply,
// either rmw's request identity) and prints the reply as JSON. It knows the services of
// simulation_interfaces, which ddsim serves: the type comes from the last element of the
// name (/gzserver/get_entities is simulation_interfaces/srv/GetEntities) or from -type.
// The request is written in the text format of Gazebo's plugin configurations:
//
//	ddsping call /gzserver/get_entities 'filters: {filter: "robot.*"}'
//	ddsping call /gzserver/set_simulation_state 'state: {state: STATE_PLAYING}'
//
// The request takes a constant's name (STATE_PLAYING) or its number (1) where the
// reply prints {"name":"STATE_PLAYING","value":1}.
//
// # Why nothing arrives
//
// list shows each participant with its vendor, RTPS version, host, pid and process (where
// it announces them, as Cyclone DDS and ddsgo do), lease, domain tag and locators, and
// each writer and reader with its topic, type, key and the QoS that decides matching.
// why [TOPIC] says for each writer and reader of a topic whether they match and, if not,
// exactly why: type names, keyed or not, each incompatible QoS policy (offered against
// requested), partitions, domain tags; which endpoints have no counterpart; and for a
// named topic nobody uses, the names that differ only in case or in ROS 2's rt/ prefix.
// When no participant answers at all, it says what to check: each interface, whether a
// multicast datagram sent on it comes back, the unicast peers, the domain's ports, TTL.
// It exits 1 when the named topic has no matching pair or nobody answered.
//
// # Reading any topic
//
// echo prints each sample of TOPIC as one JSON line, hz its rate every second (mean rate,
// min, max and standard deviation of the intervals over the last -window samples, as
// `ros2 topic hz` does). A name starting with / is a ROS 2 topic (/clock is rt/clock).
// The type comes from what the topic's writer announces: ddsping decodes the ROS 2
// messages of the packages under ros/ (rosgraph_msgs/Clock, tf2_msgs/TFMessage,
// geometry_msgs, std_msgs, ...), ddsgo's world entities and its own samples with their Go
// types, printed as `ros2 topic echo` names the members: a ROS 2 type's by its .msg
// names (frame_id), any other's by its IDL names, a plain Go type's by its Go names, in
// declaration order, and an IDL enum or an integer member its message defines constants
// for as {"name":"STATE_PLAYING","value":1} (call prints its replies the same way). Any
// other type is resolved from the XTypes TypeObjects the writer announces
// (asked for with the TypeLookup service, for at most -wait) and each sample is printed as
// a JSON object with the type's member names in declaration order (enums by name, unions
// as their discriminator and selected member); when the writer announced no type
// information (as Fast DDS 2.9 and types without IDL names), or it did not come, each
// sample prints as {"hex":"..."}: the serialized sample, encapsulation header first.
// docs/types.md, "Dynamic samples", says what is decoded. The reader takes the writer's
// reliability, durability up to
// TRANSIENT_LOCAL (a topic written once shows its history) and partitions, as `ros2
// topic echo` adapts to its publisher.
//
// # Writing any topic
//
// pub TOPIC VALUE publishes VALUE, written in the text format of call, -count times at
// -rate once a reader matched. A ROS 2 topic of the message types under ros/ (std_msgs,
// geometry_msgs, builtin_interfaces, rosgraph_msgs, tf2_msgs) is written with its Go
// type; any other is written with the type its reader (or else its writer) announces in
// XTypes TypeObjects, by a writer whose QoS meets the reader's, so that a topic of
// another vendor's tool can be fed without its type compiled in:
//
//	ddsping pub /chatter 'data: "hi"'
//	ddsping pub DDSPerfRDataKS 'seq: 1, keyval: 0, baggage: [1, 2, 3]'
//
// `ddsping -version` prints the version ddsping was built from.
//
// # Exit status
//
// 0 when the run worked; 1 when no peer matched in time, a reliable run lost samples
// or the selftest failed; 2 when the middleware failed (a participant or an endpoint
// could not be made, a profile not written); 3 for bad arguments.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// errFailed reports a run that worked as a program but failed its purpose (exit 1).
var errFailed = errors.New("failed")

// Exit statuses.
const (
	exitOK         = 0
	exitFailed     = 1 // no peer, losses, a failed selftest
	exitMiddleware = 2
	exitUsage      = 3
)

// options are the flags every subcommand has.
type options struct {
	domain      int
	interfaces  []string
	peers       []string
	noMulticast bool
	busyPoll    time.Duration
	json        bool
	verbose     bool
	procs       int
	cpuProfile  string
	memProfile  string
	logger      *slog.Logger
	out         io.Writer
}

// listFlag is a repeatable string flag that also splits on commas.
type listFlag struct{ v *[]string }

func (l listFlag) String() string {
	if l.v == nil {
		return ""
	}
	return strings.Join(*l.v, ",")
}

func (l listFlag) Set(s string) error {
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			*l.v = append(*l.v, f)
		}
	}
	return nil
}

// register adds the common flags to fs.
func (o *options) register(fs *flag.FlagSet) {
	fs.IntVar(&o.domain, "domain", 0, "DDS domain id")
	fs.Var(listFlag{&o.interfaces}, "interface", "network interface to use, by name or address (repeatable; default: all)")
	fs.Var(listFlag{&o.peers}, "peer", "static unicast peer, host or host:port (repeatable)")
	fs.BoolVar(&o.noMulticast, "no-multicast", false, "no multicast discovery: only -peer")
	fs.DurationVar(&o.busyPoll, "busy-poll", 0, "after each datagram, keep reading the socket this long before sleeping (rtps.Config.BusyPoll; 0: adaptive, only while replies come within 100us; negative: never)")
	fs.BoolVar(&o.json, "json", false, "print results as JSON lines")
	fs.BoolVar(&o.verbose, "v", false, "log the participant's records to stderr")
	fs.IntVar(&o.procs, "procs", 0, "GOMAXPROCS for the run (0: 1, or the GOMAXPROCS environment variable when set)")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile to `file`")
	fs.StringVar(&o.memProfile, "memprofile", "", "write an allocation profile to `file` at the end")
}

// tuningFlags are the common flags that tune the participant or the process rather
// than say what to do: -h lists them after the others, under a heading of their own.
var tuningFlags = map[string]bool{
	"interface": true, "peer": true, "no-multicast": true, "busy-poll": true,
	"v": true, "procs": true, "cpuprofile": true, "memprofile": true,
}

// printUsage prints the -h of cmd: its own flags with -domain and -json first, then the
// tuning flags under their heading, then the exit statuses.
func printUsage(w io.Writer, fs *flag.FlagSet, cmd *command) {
	fmt.Fprintf(w, "usage: ddsping %s [flags] %s: %s\n", cmd.name, cmd.args, cmd.summary)
	common := flag.NewFlagSet("", flag.ContinueOnError)
	tuning := flag.NewFlagSet("", flag.ContinueOnError)
	fs.VisitAll(func(f *flag.Flag) {
		into := common
		if tuningFlags[f.Name] {
			into = tuning
		}
		into.Var(f.Value, f.Name, f.Usage)
		into.Lookup(f.Name).DefValue = f.DefValue // not what a parse may have set
	})
	for _, s := range []*flag.FlagSet{common, tuning} {
		s.SetOutput(w)
	}
	common.PrintDefaults()
	fmt.Fprintln(w, "\ntuning flags (the network, the process, profiles):")
	tuning.PrintDefaults()
	fmt.Fprintln(w)
	fmt.Fprintln(w, exitHelp)
}

// command is a subcommand: its flags are registered on fs, then run runs it. args
// names its arguments after the flags; "" means it takes none.
type command struct {
	name, summary string
	setup         func(fs *flag.FlagSet, o *options) func(ctx context.Context) error
	args          string
}

var commands = []command{
	{"selftest", "run pong and ping in this process on loopback and report discovery and round trips", setupSelftest, ""},
	{"ping", "send timestamped samples to pong and report round-trip times", setupPing, ""},
	{"pong", "echo the samples of every pinger", setupPong, ""},
	{"pub", "publish samples as fast as possible (throughput); with TOPIC VALUE, publish that message", setupPub, "[TOPIC VALUE]"},
	{"sub", "receive samples and report throughput and losses", setupSub, ""},
	{"list", "list the participants and endpoints of the domain and why they match or not", setupList, ""},
	{"ls", "the same as list", setupList, ""},
	{"why", "for each writer and reader (of TOPIC), why they match or not; with nobody there, what to check", setupWhy, "[TOPIC]"},
	{"watch", "list, then report participants and endpoints as they come and go", setupWatch, ""},
	{"call", "call a ROS 2 service (simulation_interfaces' by name) and print the reply", setupCall, "SERVICE [REQUEST]"},
	{"echo", "print the samples of a topic (ROS 2 names: /clock) as JSON, typed by what its writer announces (XTypes TypeObjects; hex without)", setupEcho, "TOPIC"},
	{"hz", "report the rate of a topic's samples every second", setupHz, "TOPIC"},
	{"bw", "report the bandwidth of a topic's samples (serialized octets per second) every second", setupBw, "TOPIC"},
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: ddsping COMMAND [flags]   (ddsping COMMAND -h for its flags)")
	fmt.Fprintln(w, "       ddsping -version")
	fmt.Fprintln(w)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, exitHelp)
}

// exitHelp documents the exit statuses in every -h.
const exitHelp = "exit status: 0 ok, 1 no peer or samples lost, 2 middleware error, 3 usage"

// version is the module version ddsping was built from ("(devel)" in a checkout).
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		return bi.Main.Version
	}
	return "(unknown)"
}

// run runs the subcommand args[0] and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	cmd := findCommand(args[0])
	if cmd == nil {
		switch args[0] {
		case "help", "-h", "--help":
			usage(stdout)
			return exitOK
		case "version", "-version", "--version":
			fmt.Fprintln(stdout, "ddsping", version())
			return exitOK
		}
		fmt.Fprintf(stderr, "ddsping: unknown command %q\n", args[0])
		usage(stderr)
		return exitUsage
	}
	fs := flag.NewFlagSet("ddsping "+cmd.name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { printUsage(stderr, fs, cmd) }
	o := &options{out: stdout}
	o.register(fs)
	body := cmd.setup(fs, o)
	if code, ok := parseArgs(fs, cmd, o, args[1:], stderr); !ok {
		return code
	}
	if o.procs > 0 || os.Getenv("GOMAXPROCS") == "" {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(o.procs, 1)))
	}
	if o.verbose {
		o.logger = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	if o.cpuProfile != "" {
		stop, err := startCPUProfile(o.cpuProfile)
		if err != nil {
			fmt.Fprintln(stderr, "ddsping:", err)
			return exitMiddleware
		}
		defer stop()
	}
	err := body(ctx)
	if o.memProfile != "" {
		if perr := writeMemProfile(o.memProfile); perr != nil {
			fmt.Fprintln(stderr, "ddsping:", perr)
		}
	}
	if err == nil {
		return exitOK
	}
	fmt.Fprintf(stderr, "ddsping %s: %v\n", cmd.name, err)
	switch {
	case errors.Is(err, errUsage):
		return exitUsage
	case errors.Is(err, errFailed):
		return exitFailed
	}
	return exitMiddleware
}

// findCommand returns the command named name, or nil.
func findCommand(name string) *command {
	for i := range commands {
		if commands[i].name == name {
			return &commands[i]
		}
	}
	return nil
}

// parseArgs parses the command's flags; when the run must stop it reports false and
// the exit code.
func parseArgs(fs *flag.FlagSet, cmd *command, o *options, args []string, stderr io.Writer) (int, bool) {
	name := cmd.name
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, false
		}
		return exitUsage, false
	}
	if fs.NArg() > 0 && cmd.args == "" {
		fmt.Fprintf(stderr, "ddsping %s: unexpected argument %q\n", name, fs.Arg(0))
		return exitUsage, false
	}
	if o.procs < 0 {
		fmt.Fprintf(stderr, "ddsping %s: -procs %d: must not be negative\n", name, o.procs)
		return exitUsage, false
	}
	return exitOK, true
}

// startCPUProfile starts profiling into file path and returns what stops it.
func startCPUProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}, nil
}

// errUsage reports a bad combination of flags (exit 3).
var errUsage = errors.New("bad arguments")

func writeMemProfile(name string) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	runtime.GC()
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

// mallocs returns the number of heap allocations so far.
func mallocs() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.Mallocs
}

// durationUntil returns a context that ends after d (never when d is 0) or with ctx.
func durationUntil(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, d)
}
