package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/ddsgo/ddsgo/qos"
)

// Exit codes of shape_main.
const (
	exitOK      = 0
	exitParsing = 1 // bad command line
	exitInit    = 2 // creating an entity failed
	exitRunning = 3 // writing or reading failed
)

// options is the command line of the interoperability suite's shape_main.
type options struct {
	debug         bool               // -v d
	publish       bool               // -P
	subscribe     bool               // -S
	domain        int                // -d
	reliable      bool               // -r (default) | -b
	durability    qos.DurabilityKind // -D v|l|t|p
	xcdr2         bool               // -x 2
	historyDepth  int                // -k: -1 default (KEEP_LAST 1), 0 KEEP_ALL
	strength      int                // -s: -1 SHARED
	topic         string             // -t
	color         string             // -c: published color, or the subscriber's filter
	partition     string             // -p
	printWritten  bool               // -w
	shapesize     int                // -z: 0 grows by one per sample
	useRead       bool               // -R
	timeFilter    time.Duration      // --time-filter ms
	deadline      time.Duration      // -f ms
	lifespan      time.Duration      // --lifespan ms
	writePeriod   time.Duration      // --write-period ms
	readPeriod    time.Duration      // --read-period ms
	iterations    int                // --num-iterations, 0 = until interrupted
	instances     int                // --num-instances
	topics        int                // --num-topics
	unregister    bool               // --final-instance-state u
	dispose       bool               // --final-instance-state d
	accessScope   qos.AccessScopeKind
	scopeSet      bool          // --access-scope given
	coherent      bool          // --coherent
	ordered       bool          // --ordered
	coherentCount int           // --coherent-sample-count
	payloadSize   int           // --additional-payload-size
	takeRead      bool          // --take-read: take()/read() instead of the _next_instance forms
	announce      time.Duration // --periodic-announcement ms
	fragSize      int           // --datafrag-size bytes, 0 = ddsgo's
	cft           string        // --cft: the subscriber's DDS-SQL content filter
	sizeModulo    int           // --size-modulo: with -z 0, sizes cycle through 1..N
}

const usage = `usage: shape-main -P|-S -t TOPIC [options]
   --help, -h      : print this menu
   -v [e|d]        : log verbosity [e: ERROR, d: DEBUG]
   -P              : publish samples
   -S              : subscribe samples
   -d <int>        : domain id (default: 0)
   -b              : BEST_EFFORT reliability
   -r              : RELIABLE reliability
   -k <depth>      : keep history depth [0: KEEP_ALL]
   -f <interval>   : DEADLINE period in ms [0: OFF]
   -s <strength>   : ownership strength [-1: SHARED]
   -t <topic_name> : topic name
   -c <color>      : color to publish (filter if subscriber)
   -p <partition>  : partition
   -D [v|l|t|p]    : durability [v: VOLATILE, l: TRANSIENT_LOCAL, t: TRANSIENT, p: PERSISTENT]
   -x [1|2]        : data representation [1: XCDR, 2: XCDR2]
   -w              : print the publisher's samples
   -z <int>        : shapesize (0: grows by one per sample)
   -R              : read() instead of take()
   --write-period <ms>       : pause between writes (default 33)
   --read-period <ms>        : pause between reads or takes (default 100)
   --time-filter <ms>        : TIME_BASED_FILTER minimum separation [0: OFF]
   --lifespan <ms>           : LIFESPAN of the samples written
   --num-iterations <int>    : iterations of the main loop (default: until interrupted)
   --num-instances <int>     : instances written: COLOR, COLOR1, COLOR2, ...
   --num-topics <int>        : topics: TOPIC, TOPIC1, TOPIC2, ... (a writer or reader each)
   --final-instance-state [u|d] : unregister or dispose the instances at the end
   --access-scope [i|t|g]    : PRESENTATION access scope INSTANCE, TOPIC or GROUP
   --coherent                : PRESENTATION coherent_access
   --ordered                 : PRESENTATION ordered_access
   --coherent-sample-count <int> : samples per writer and instance in a coherent set
   --additional-payload-size <bytes> : bytes added to every sample
   --take-read               : take()/read() instead of take/read_next_instance()
   --periodic-announcement <ms> : participant announcement period [0: default]
   --datafrag-size <bytes>   : DATA_FRAG fragment size [0: default]
   --cft <expression>        : subscriber's content filter (DDS-SQL), not with -c
   --size-modulo <int>       : with -z 0, shapesize cycles through 1..N
Exit status: 0 ok, 1 bad command line, 2 an entity could not be created, 3 a write or read failed.
`

// choice is a flag whose value is one of a few letters.
type choice struct {
	letters string
	set     func(c byte)
}

func (c choice) String() string { return "" }

func (c choice) Set(s string) error {
	for i := 0; i < len(c.letters); i++ {
		if s != "" && s[0] == c.letters[i] {
			c.set(s[0])
			return nil
		}
	}
	return fmt.Errorf("want one of %q", c.letters)
}

// millis is a non-negative number of milliseconds.
type millis struct{ dst *time.Duration }

func (m millis) String() string { return "" }

func (m millis) Set(s string) error {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 || v > int64(time.Duration(1<<62)/time.Millisecond) {
		return errors.New("want milliseconds >= 0")
	}
	*m.dst = time.Duration(v) * time.Millisecond
	return nil
}

// count is an integer of at least min.
type count struct {
	dst *int
	min int
}

func (c count) String() string { return "" }

func (c count) Set(s string) error {
	v, err := strconv.Atoi(s)
	if err != nil || v < c.min {
		return fmt.Errorf("want an integer >= %d", c.min)
	}
	*c.dst = v
	return nil
}

// parse reads the command line. ok is false when the program must exit with code.
func parse(argv []string, out io.Writer) (o options, code int, ok bool) {
	o = options{
		reliable:     true,
		historyDepth: -1,
		strength:     -1,
		shapesize:    20,
		writePeriod:  33 * time.Millisecond,
		readPeriod:   100 * time.Millisecond,
		instances:    1,
		topics:       1,
	}
	fs := flag.NewFlagSet("shape-main", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() { fmt.Fprint(out, usage) }
	fs.Var(choice{"ed", func(c byte) { o.debug = c == 'd' }}, "v", "")
	fs.BoolVar(&o.publish, "P", false, "")
	fs.BoolVar(&o.subscribe, "S", false, "")
	fs.Var(count{&o.domain, 0}, "d", "")
	fs.BoolFunc("b", "", func(string) error { o.reliable = false; return nil })
	fs.BoolFunc("r", "", func(string) error { o.reliable = true; return nil })
	fs.Var(count{&o.historyDepth, 0}, "k", "")
	fs.Var(millis{&o.deadline}, "f", "")
	fs.Var(count{&o.strength, -1}, "s", "")
	fs.StringVar(&o.topic, "t", "", "")
	fs.StringVar(&o.color, "c", "", "")
	fs.StringVar(&o.partition, "p", "", "")
	fs.Var(choice{"vltp", func(c byte) {
		o.durability = map[byte]qos.DurabilityKind{'v': qos.Volatile, 'l': qos.TransientLocal, 't': qos.Transient, 'p': qos.Persistent}[c]
	}}, "D", "")
	fs.Var(choice{"12", func(c byte) { o.xcdr2 = c == '2' }}, "x", "")
	fs.BoolVar(&o.printWritten, "w", false, "")
	fs.Var(count{&o.shapesize, 0}, "z", "")
	fs.BoolVar(&o.useRead, "R", false, "")
	fs.Var(millis{&o.writePeriod}, "write-period", "")
	fs.Var(millis{&o.readPeriod}, "read-period", "")
	fs.Var(millis{&o.timeFilter}, "time-filter", "")
	fs.Var(millis{&o.lifespan}, "lifespan", "")
	fs.Var(count{&o.iterations, 1}, "num-iterations", "")
	fs.Var(count{&o.instances, 1}, "num-instances", "")
	fs.Var(count{&o.topics, 1}, "num-topics", "")
	fs.Var(choice{"ud", func(c byte) { o.unregister, o.dispose = c == 'u', c == 'd' }}, "final-instance-state", "")
	fs.Var(choice{"itg", func(c byte) {
		o.scopeSet = true
		o.accessScope = map[byte]qos.AccessScopeKind{'i': qos.InstanceScope, 't': qos.TopicScope, 'g': qos.GroupScope}[c]
	}}, "access-scope", "")
	fs.BoolVar(&o.coherent, "coherent", false, "")
	fs.BoolVar(&o.ordered, "ordered", false, "")
	fs.Var(count{&o.coherentCount, 2}, "coherent-sample-count", "")
	fs.Var(count{&o.payloadSize, 1}, "additional-payload-size", "")
	fs.BoolVar(&o.takeRead, "take-read", false, "")
	fs.Var(millis{&o.announce}, "periodic-announcement", "")
	fs.Var(count{&o.fragSize, 0}, "datafrag-size", "")
	fs.StringVar(&o.cft, "cft", "", "")
	fs.Var(count{&o.sizeModulo, 1}, "size-modulo", "")
	if err := fs.Parse(argv); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, exitOK, false
		}
		return o, exitParsing, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(out, "unexpected argument %q\n%s", fs.Arg(0), usage)
		return o, exitParsing, false
	}
	if msg := o.validate(out); msg != "" {
		fmt.Fprintf(out, "%s\n%s", msg, usage)
		return o, exitParsing, false
	}
	return o, exitOK, true
}

// validate reports what makes the options unusable, and warns of those that the role
// ignores.
func (o *options) validate(out io.Writer) string {
	switch {
	case o.topic == "":
		return "please specify topic name [-t]"
	case !o.publish && !o.subscribe:
		return "please specify publish [-P] or subscribe [-S]"
	case o.publish && o.subscribe:
		return "please specify only one of: publish [-P] or subscribe [-S]"
	case o.subscribe && o.color != "" && o.cft != "":
		return "error: cannot specify both --cft and -c for subscriber applications"
	}
	if o.publish && o.color == "" {
		o.color = "BLUE"
		fmt.Fprintln(out, `warning: color was not specified, defaulting to "BLUE"`)
	}
	o.warnIgnored(out)
	return ""
}

// warnIgnored warns of the options that the role ignores.
func (o *options) warnIgnored(out io.Writer) {
	warn := func(cond bool, what string) {
		if cond {
			fmt.Fprintf(out, "warning: %s ignored on %s applications\n", what, map[bool]string{true: "publisher", false: "subscriber"}[o.publish])
		}
	}
	warn(o.publish && o.timeFilter > 0, "time based filter [--time-filter]")
	warn(o.publish && o.useRead, "use read [-R]")
	warn(o.publish && o.takeRead, "--take-read")
	warn(o.publish && o.cft != "", "--cft")
	warn(o.subscribe && o.shapesize != 20, "shapesize [-z]")
	warn(o.subscribe && o.lifespan > 0, "--lifespan")
	warn(o.subscribe && o.instances > 1, "--num-instances")
	warn(o.subscribe && (o.unregister || o.dispose), "--final-instance-state")
	warn(o.subscribe && o.coherentCount > 0, "--coherent-sample-count")
	if !o.coherent && !o.ordered && o.scopeSet {
		fmt.Fprintln(out, "warning: --access-scope ignored because neither coherent nor ordered access is enabled")
	}
	if o.sizeModulo > 0 && o.shapesize != 0 {
		fmt.Fprintln(out, "warning: --size-modulo has no effect unless shapesize (-z) is set to 0")
	}
}
