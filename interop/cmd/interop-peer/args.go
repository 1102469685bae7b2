package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/ddsgo/ddsgo/qos"
)

// Exit codes of the peer contract (interop/README.md).
const (
	exitOK      = 0 // success
	exitTimeout = 1 // not everything happened before -timeout
	exitUsage   = 2 // bad command line
	exitFailed  = 3 // a DDS call failed
)

// args is the command line of the peer contract.
type args struct {
	pub            bool               // -role pub|sub
	domain         int                // -domain N
	topic          string             // -topic T
	count          int64              // -count N: samples written / expected
	rate           float64            // -rate HZ: writes per second, 0 = no pause
	reliable       bool               // -reliable | -best-effort
	durability     qos.DurabilityKind // -durability KIND | -transient-local | -volatile
	keepLast       int                // -keep-last N, 0 = KEEP_ALL
	keys           int                // -keys N: ids 1..N
	payload        int64              // -payload BYTES: values has payload/8 doubles
	timeout        time.Duration      // -timeout DUR: the whole run
	dispose        bool               // -dispose: dispose every key after writing, then unregister
	unregister     bool               // -unregister: unregister every key after writing
	xcdr2          bool               // -xcdr2: XCDR2 data representation for the final type
	appendable     bool               // -appendable: the appendable type interop::SampleA
	typeName       string             // -type NAME: register the type under NAME
	waitReaders    int                // -wait-readers N: the publisher waits for N matched readers
	settle         time.Duration      // -settle DUR: pause between matching and the first write
	startFile      string             // -start-file PATH: after matching, wait for PATH to exist before writing
	readyFile      string             // -ready-file PATH: the subscriber makes PATH once its reader has matched a writer
	linger         time.Duration      // -linger DUR: stay after the last write or sample
	quiet          bool               // -quiet: do not print samples
	maxMessageSize int                // -max-message-size BYTES: datagram bound, 0 = ddsgo's default
	liveliness     qos.LivelinessKind // -liveliness automatic|participant|topic
	lease          time.Duration      // -lease DUR: LIVELINESS lease_duration, 0 = infinite
	lifespan       time.Duration      // -lifespan DUR: the writer's LIFESPAN, 0 = infinite
	exclusive      bool               // -ownership-strength given: OWNERSHIP EXCLUSIVE
	strength       int32              // -ownership-strength N: the writer's OWNERSHIP_STRENGTH
	filter         string             // -filter SQL: the subscriber reads a content-filtered topic
	filterParams   []string           // -filter-params a,b: the filter's %0, %1, ...
	deadline       time.Duration      // -deadline DUR: DEADLINE period, 0 = infinite
	latencyBudget  time.Duration      // -latency-budget DUR: LATENCY_BUDGET of the writer or reader
	partition      []string           // -partition A,B: the publisher's or subscriber's PARTITION
	timeFilter     time.Duration      // -time-filter DUR: the reader's TIME_BASED_FILTER
	// ddsgo only, for best effort under loss:
	idle       time.Duration // -idle DUR: the subscriber also ends, successfully, DUR after its last sample
	sampleLost bool          // -sample-lost: the subscriber prints its SAMPLE_LOST total last
	stats      time.Duration // -stats DUR: runtime figures every DUR (ddsgo peer only)
	statsFile  string        // -stats-file PATH: where -stats writes, default stderr
	counters   bool          // -counters: print the participant's Statistics last, on stderr
}

// setFlag is a boolean flag that stores value into *dst when given, so that a pair of
// flags (-reliable, -best-effort) share one variable and the last one wins.
type setFlag struct {
	dst   *bool
	value bool
}

func (f setFlag) IsBoolFlag() bool { return true }

func (f setFlag) String() string { return "" }

func (f setFlag) Set(s string) error {
	if s != "true" {
		return errors.New("takes no value")
	}
	*f.dst = f.value
	return nil
}

// intFlag is an integer flag limited to [lo, hi].
type intFlag struct {
	dst    *int64
	lo, hi int64
}

func (f intFlag) String() string { return "" }

func (f intFlag) Set(s string) error {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < f.lo || v > f.hi {
		return fmt.Errorf("want an integer in %d..%d", f.lo, f.hi)
	}
	*f.dst = v
	return nil
}

// durFlag is a duration: seconds ("2", "0.5") or Go syntax ("500ms", "1m30s").
type durFlag struct{ dst *time.Duration }

func (f durFlag) String() string { return "" }

func (f durFlag) Set(s string) error {
	d, err := parseDuration(s)
	if err != nil {
		return err
	}
	*f.dst = d
	return nil
}

// parseDuration parses a non-negative duration in seconds or in Go syntax.
func parseDuration(s string) (time.Duration, error) {
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		if v < 0 || math.IsNaN(v) || v > float64(math.MaxInt64)/1e9 {
			return 0, errors.New("bad duration")
		}
		return time.Duration(v * 1e9), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, errors.New("bad duration")
	}
	return d, nil
}

// rateFlag is a non-negative finite number.
type rateFlag struct{ dst *float64 }

func (f rateFlag) String() string { return "" }

func (f rateFlag) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return errors.New("want a non-negative number")
	}
	*f.dst = v
	return nil
}

// livelinessFlag is -liveliness automatic|participant|topic.
type livelinessFlag struct{ dst *qos.LivelinessKind }

func (f livelinessFlag) String() string { return "" }

func (f livelinessFlag) Set(s string) error {
	switch s {
	case "automatic":
		*f.dst = qos.Automatic
	case "participant":
		*f.dst = qos.ManualByParticipant
	case "topic":
		*f.dst = qos.ManualByTopic
	default:
		return errors.New("want automatic, participant or topic")
	}
	return nil
}

// durabilityFlag is -durability volatile|transient-local|transient|persistent, or with
// alias set one of its kinds as a flag of its own (-transient-local, -volatile).
type durabilityFlag struct {
	dst   *qos.DurabilityKind
	kind  qos.DurabilityKind
	alias bool
}

func (f durabilityFlag) IsBoolFlag() bool { return f.alias }

func (f durabilityFlag) String() string { return "" }

func (f durabilityFlag) Set(s string) error {
	if f.alias {
		if s != "true" {
			return errors.New("takes no value")
		}
		*f.dst = f.kind
		return nil
	}
	switch s {
	case "volatile":
		*f.dst = qos.Volatile
	case "transient-local":
		*f.dst = qos.TransientLocal
	case "transient":
		*f.dst = qos.Transient
	case "persistent":
		*f.dst = qos.Persistent
	default:
		return errors.New("want volatile, transient-local, transient or persistent")
	}
	return nil
}

// roleFlag is -role pub|sub.
type roleFlag struct {
	pub, set *bool
}

func (f roleFlag) String() string { return "" }

func (f roleFlag) Set(s string) error {
	switch s {
	case "pub":
		*f.pub = true
	case "sub":
		*f.pub = false
	default:
		return errors.New("want pub or sub")
	}
	*f.set = true
	return nil
}

const usage = `usage: interop-peer -role pub|sub [-domain N] [-topic T] [-count N] [-rate HZ]
  [-reliable|-best-effort] [-transient-local|-volatile] [-keep-last N (0 = keep all)]
  [-keys N] [-payload BYTES] [-timeout DUR] [-dispose] [-unregister] [-xcdr2]
  [-appendable] [-type NAME] [-wait-readers N] [-settle DUR] [-linger DUR]
  [-start-file PATH] [-ready-file PATH]
  [-quiet] [-max-message-size BYTES] [-idle DUR] [-sample-lost] [-stats DUR]
  [-stats-file PATH] [-counters] [-lifespan DUR] [-ownership-strength N]
  [-liveliness automatic|participant|topic] [-lease DUR]
  [-filter SQL [-filter-params a,b]] [-deadline DUR] [-partition A,B]
  [-time-filter DUR] [-durability volatile|transient-local|transient|persistent]
  [-latency-budget DUR]
DUR is seconds ("2.5") or Go form ("500ms", "5s", "1m").
`

// parseArgs parses the command line; on failure it returns the exit status (exitOK for
// -h) after writing why to stderr.
func parseArgs(argv []string, stderr io.Writer) (args, int, bool) {
	a := args{
		topic:       "ddsgo_interop",
		count:       10,
		reliable:    true,
		keys:        1,
		payload:     16,
		timeout:     10 * time.Second,
		waitReaders: 1,
		settle:      500 * time.Millisecond,
	}
	var domain, keepLast, keys, waitReaders, maxMsg, strength int64 = 0, 0, 1, 1, 0, 0
	var role bool
	fs := flag.NewFlagSet("interop-peer", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	fs.Var(roleFlag{&a.pub, &role}, "role", "pub or sub")
	fs.Var(intFlag{&domain, 0, 232}, "domain", "domain id")
	fs.StringVar(&a.topic, "topic", a.topic, "topic name")
	fs.Var(intFlag{&a.count, 0, 100000000}, "count", "samples")
	fs.Var(rateFlag{&a.rate}, "rate", "writes per second")
	fs.Var(setFlag{&a.reliable, true}, "reliable", "reliable")
	fs.Var(setFlag{&a.reliable, false}, "best-effort", "best effort")
	fs.Var(durabilityFlag{&a.durability, qos.TransientLocal, true}, "transient-local", "transient local")
	fs.Var(durabilityFlag{&a.durability, qos.Volatile, true}, "volatile", "volatile")
	fs.Var(durabilityFlag{dst: &a.durability}, "durability", "volatile, transient-local, transient or persistent")
	fs.Var(intFlag{&keepLast, 0, 1000000}, "keep-last", "KEEP_LAST depth, 0 = KEEP_ALL")
	fs.Var(intFlag{&keys, 1, 1000000}, "keys", "instances")
	fs.Var(intFlag{&a.payload, 0, 64 << 20}, "payload", "bytes of values")
	fs.Var(durFlag{&a.timeout}, "timeout", "time limit")
	fs.Var(setFlag{&a.dispose, true}, "dispose", "dispose after writing")
	fs.Var(setFlag{&a.unregister, true}, "unregister", "unregister after writing")
	fs.Var(setFlag{&a.xcdr2, true}, "xcdr2", "XCDR2")
	fs.Var(setFlag{&a.appendable, true}, "appendable", "appendable type")
	fs.StringVar(&a.typeName, "type", "", "type name")
	fs.Var(intFlag{&waitReaders, 0, 1000000}, "wait-readers", "readers to wait for")
	fs.Var(durFlag{&a.settle}, "settle", "pause before the first write")
	fs.StringVar(&a.startFile, "start-file", "", "publisher: wait for this file to exist before writing")
	fs.StringVar(&a.readyFile, "ready-file", "", "subscriber: make this file once the reader has matched a writer")
	fs.Var(durFlag{&a.linger}, "linger", "stay after the end")
	fs.Var(setFlag{&a.quiet, true}, "quiet", "print no samples")
	fs.Var(intFlag{&maxMsg, 0, 65500}, "max-message-size", "datagram bound")
	fs.Var(durFlag{&a.idle}, "idle", "subscriber: end this long after the last sample")
	fs.Var(setFlag{&a.sampleLost, true}, "sample-lost", "subscriber: print the SAMPLE_LOST total")
	fs.Var(durFlag{&a.stats}, "stats", "print runtime figures every DUR")
	fs.StringVar(&a.statsFile, "stats-file", "", "file for -stats lines")
	fs.Var(setFlag{&a.counters, true}, "counters", "print the participant's counters at the end")
	fs.Var(durFlag{&a.lifespan}, "lifespan", "writer LIFESPAN, 0 = infinite")
	fs.Var(intFlag{&strength, math.MinInt32, math.MaxInt32}, "ownership-strength", "EXCLUSIVE ownership, the writer's strength")
	fs.Var(livelinessFlag{&a.liveliness}, "liveliness", "LIVELINESS kind")
	fs.Var(durFlag{&a.lease}, "lease", "LIVELINESS lease_duration, 0 = infinite")
	fs.StringVar(&a.filter, "filter", "", "subscriber: DDS-SQL content filter")
	var filterParams, partition string
	fs.StringVar(&filterParams, "filter-params", "", "comma-separated filter parameters")
	fs.Var(durFlag{&a.deadline}, "deadline", "DEADLINE period, 0 = infinite")
	fs.Var(durFlag{&a.latencyBudget}, "latency-budget", "LATENCY_BUDGET duration")
	fs.StringVar(&partition, "partition", "", "comma-separated PARTITION names")
	fs.Var(durFlag{&a.timeFilter}, "time-filter", "subscriber: TIME_BASED_FILTER minimum_separation")
	if err := fs.Parse(argv); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return a, exitOK, false
		}
		return a, exitUsage, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "interop-peer: unexpected argument %q\n%s", fs.Arg(0), usage)
		return a, exitUsage, false
	}
	if !role {
		fmt.Fprintf(stderr, "interop-peer: -role pub|sub is required\n%s", usage)
		return a, exitUsage, false
	}
	if a.dispose && a.unregister {
		fmt.Fprintln(stderr, "interop-peer: -dispose and -unregister are exclusive")
		return a, exitUsage, false
	}
	if strings.TrimSpace(a.topic) == "" {
		fmt.Fprintln(stderr, "interop-peer: empty -topic")
		return a, exitUsage, false
	}
	a.domain, a.keepLast, a.keys, a.waitReaders = int(domain), int(keepLast), int(keys), int(waitReaders)
	a.maxMessageSize = int(maxMsg)
	fs.Visit(func(f *flag.Flag) { a.exclusive = a.exclusive || f.Name == "ownership-strength" })
	a.strength = int32(strength)
	if filterParams != "" {
		a.filterParams = strings.Split(filterParams, ",")
	}
	if partition != "" {
		a.partition = strings.Split(partition, ",")
	}
	return a, exitOK, true
}
