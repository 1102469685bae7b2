// Command ddsim runs a simulation world and serves it over DDS with ROS 2's names and
// types, so that ROS 2 nodes and tools on the LAN see it as they see Gazebo through its
// bridge, with no bridge:
//
//	ddsim [flags] [WORLD.sdf]
//
// Without WORLD.sdf it runs the small warehouse world built into it (world.sdf here).
// While it runs it publishes
//
//   - /clock (rosgraph_msgs/Clock) after every step, for nodes with use_sim_time;
//   - /tf (tf2_msgs/TFMessage): the pose of every model and link relative to its parent,
//     -tf-rate times per second of simulation time;
//   - ddsgo's world state streams (the full state, transient-local, and the changes of
//     every step), which a simdds.Replica in another process follows (-state=false: off);
//
// and serves the services of ROS 2 simulation_interfaces and its SimulateSteps action
// under NS/gzserver/... (get_entities, spawn_entity, set_simulation_state, ...: see
// simdds.Services), so that for example
//
//	ros2 service call /gzserver/get_entities simulation_interfaces/srv/GetEntities
//
// lists the world's models. -ns puts the services under a namespace (/robot1 gives
// /robot1/gzserver/...); /clock and /tf stay global, as ROS 2 expects them.
//
// The world's <plugin> elements add their systems: TriggeredPublisher, Gazebo's, is
// known and runs over DDS (simdds.Bus) with the ROS 2 types of ddsgo's ros/ packages
// (std_msgs Bool, Empty, Int32, Float64, String, Header; geometry_msgs Twist, Pose,
// Point, Vector3, ...; builtin_interfaces; rosgraph_msgs; tf2_msgs), named the ROS 2
// way: <input type="std_msgs/msg/Bool" topic="/start">; other plugins are skipped
// with a warning. The built-in world has one: a true on /start publishes a Twist on
// /cmd_vel.
//
// Flags:
//
//	-domain N       DDS domain (default $ROS_DOMAIN_ID, else 0)
//	-ns NAME        namespace of the services
//	-step D         simulation time of a step (default 1ms)
//	-rtf F          real-time factor: simulated seconds per wall-clock second (default 1;
//	                0 runs as fast as it can)
//	-paused         start paused (STOPPED: set_simulation_state or step_simulation
//	                start it)
//	-iterations N   stop after N unpaused steps (default 0: run until interrupted)
//	-tf-rate HZ     /tf messages per second of simulation time (default 50; 0: no /tf)
//	-state          publish the world state streams (default true)
//	-resources DIR  where the services find models and worlds by uri (model://NAME,
//	                relative paths) and what get_spawnables and get_available_worlds
//	                list (repeatable; after the directories of $GZ_SIM_RESOURCE_PATH and
//	                the directory of WORLD.sdf)
//	-interface NAME, -peer HOST (repeatable), -no-multicast: the network (rtps.Config)
//	-v              log to stderr at debug level
//	-version        print the version and exit
//
// # Exit status
//
// 0 when the run ended (interrupted, or -iterations reached); 2 when the world or the
// middleware failed; 3 for bad arguments.
package main

import (
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/ddsgo/ddsgo/rtps"
	"github.com/ddsgo/ddsgo/sim"
	"github.com/ddsgo/ddsgo/sim/simdds"
)

//go:embed world.sdf
var defaultWorld string

// Exit statuses.
const (
	exitOK         = 0
	exitMiddleware = 2
	exitUsage      = 3
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// stringList is a repeatable flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// options are ddsim's flags.
type options struct {
	domain      int
	ns          string
	step        time.Duration
	rtf         float64
	paused      bool
	iterations  uint64
	tfRate      float64
	state       bool
	resources   stringList
	interfaces  stringList
	peers       stringList
	noMulticast bool
	verbose     bool
	version     bool
	world       string // file name; "" for the built-in world
}

// resourcePath is where the services look for models and worlds after Gazebo's
// $GZ_SIM_RESOURCE_PATH: the world file's directory, then -resources.
func (o *options) resourcePath() []string {
	var dirs []string
	if o.world != "" {
		dirs = append(dirs, filepath.Dir(o.world))
	}
	return append(dirs, o.resources...)
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("ddsim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&o.domain, "domain", defaultDomain(), "DDS domain (default $ROS_DOMAIN_ID, else 0)")
	fs.StringVar(&o.ns, "ns", "", "namespace of the services (/robot1 gives /robot1/gzserver/...)")
	fs.DurationVar(&o.step, "step", sim.DefaultStepSize, "simulation time of a step")
	fs.Float64Var(&o.rtf, "rtf", 1, "real-time factor; 0 runs as fast as it can")
	fs.BoolVar(&o.paused, "paused", false, "start paused")
	fs.Uint64Var(&o.iterations, "iterations", 0, "stop after this many unpaused steps; 0 runs until interrupted")
	fs.Float64Var(&o.tfRate, "tf-rate", 50, "/tf messages per second of simulation time; 0 publishes no /tf")
	fs.BoolVar(&o.state, "state", true, "publish the world state streams for replicas")
	fs.Var(&o.resources, "resources", "`dir`ectory of models and worlds for the services (repeatable; after $GZ_SIM_RESOURCE_PATH and WORLD.sdf's directory)")
	fs.Var(&o.interfaces, "interface", "network interface to use (repeatable; default all)")
	fs.Var(&o.peers, "peer", "unicast peer HOST or HOST:PORT (repeatable)")
	fs.BoolVar(&o.noMulticast, "no-multicast", false, "no multicast: discovery through -peer only")
	fs.BoolVar(&o.verbose, "v", false, "log to stderr at debug level")
	fs.BoolVar(&o.version, "version", false, "print the version and exit")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: ddsim [flags] [WORLD.sdf]\n\nRuns WORLD.sdf (default: a built-in warehouse) and serves it over DDS with ROS 2 names.")
		fs.PrintDefaults()
		fmt.Fprintln(stderr, "\nexit status: 0 ended, 2 world or middleware error, 3 usage")
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	switch {
	case fs.NArg() > 1:
		return nil, fmt.Errorf("one world file at most, got %d arguments", fs.NArg())
	case o.step <= 0:
		return nil, fmt.Errorf("-step %v: must be positive", o.step)
	case o.rtf < 0:
		return nil, fmt.Errorf("-rtf %v: must not be negative", o.rtf)
	case o.tfRate < 0:
		return nil, fmt.Errorf("-tf-rate %v: must not be negative", o.tfRate)
	case o.domain < 0 || o.domain > dds.MaxDomainID:
		return nil, fmt.Errorf("-domain %d: must be 0 to %d", o.domain, dds.MaxDomainID)
	case o.ns != "" && (!strings.HasPrefix(o.ns, "/") || strings.HasSuffix(o.ns, "/")):
		return nil, fmt.Errorf("-ns %q: a namespace starts with / and does not end with one", o.ns)
	}
	o.world = fs.Arg(0)
	return o, nil
}

// defaultDomain is $ROS_DOMAIN_ID, as ROS 2 nodes read it, else 0.
func defaultDomain() int {
	if d, err := strconv.Atoi(os.Getenv("ROS_DOMAIN_ID")); err == nil {
		return d
	}
	return 0
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintln(stderr, "ddsim:", err)
		return exitUsage
	}
	if o.version {
		fmt.Fprintln(stdout, "ddsim", version())
		return exitOK
	}
	level := slog.LevelWarn
	if o.verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	if err := simulate(ctx, o, logger, stdout); err != nil {
		fmt.Fprintln(stderr, "ddsim:", err)
		return exitMiddleware
	}
	return exitOK
}

// version is the module version ddsim was built from ("(devel)" in a checkout).
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		return bi.Main.Version
	}
	return "(unknown)"
}

// simulate loads the world, serves it and runs it until ctx ends or the iterations are
// done.
func simulate(ctx context.Context, o *options, logger *slog.Logger, stdout io.Writer) error {
	src, file, err := worldSource(o)
	if err != nil {
		return err
	}
	p, err := newParticipant(o, logger)
	if err != nil {
		return err
	}
	bus, err := newBus(p)
	if err != nil {
		return errors.Join(err, p.Close())
	}
	r, name, err := loadWorld(o, src, file, bus, logger)
	if err != nil {
		return errors.Join(err, bus.Close(), p.Close())
	}
	what := describe(r.Manager(), o) // before the services can touch the world
	closers, err := serve(p, r, o)
	if err != nil {
		return errors.Join(err, bus.Close(), p.Close())
	}
	closers = append([]io.Closer{bus}, closers...)
	fmt.Fprintf(stdout, "ddsim: world %q on domain %d: %s; services %s/gzserver/*\n", name, o.domain, what, o.ns)
	err = r.Run(ctx, o.iterations)
	if errors.Is(err, context.Canceled) {
		err = nil
	}
	info := r.Info()
	fmt.Fprintf(stdout, "ddsim: stopped at %v simulation time, %d steps\n", info.SimTime, info.Iterations)
	for i := len(closers) - 1; i >= 0; i-- {
		err = errors.Join(err, closers[i].Close())
	}
	return errors.Join(err, p.Close())
}

// worldSource returns the world file's text and name.
func worldSource(o *options) (src, file string, err error) {
	if o.world == "" {
		return defaultWorld, "built-in world.sdf", nil
	}
	b, err := os.ReadFile(o.world)
	return string(b), o.world, err
}

// newBus returns the DDS bus of the world's TriggeredPublishers, with the ROS 2 types
// of ros/.
func newBus(p *dds.DomainParticipant) (*simdds.Bus, error) {
	b := simdds.NewBus(p)
	return b, simdds.AddROSTypes(b)
}

func loadWorld(o *options, src, file string, bus sim.Bus, logger *slog.Logger) (*sim.Runner, string, error) {
	r, err := sim.NewRunner(ecm.New(), sim.Config{StepSize: o.step, RealTimeFactor: o.rtf, Paused: o.paused, Logger: logger})
	if err != nil {
		return nil, "", err
	}
	reg := sim.Registry{}
	sim.RegisterTriggeredPublisher(reg, bus)
	w, err := sim.LoadWorld(r, strings.NewReader(src), sim.LoadOptions{File: file, Registry: reg, SkipUnknownPlugins: true})
	if err != nil {
		return nil, "", err
	}
	name, _ := ecm.ComponentData[sim.Name](r.Manager(), w)
	return r, string(name), nil
}

func newParticipant(o *options, logger *slog.Logger) (*dds.DomainParticipant, error) {
	pq := qos.DefaultDomainParticipantQos()
	pq.UserData.Value = []byte("enclave=/;") // what rmw announces: ROS 2 tools list the node's participant
	return dds.NewParticipant(o.domain, dds.WithQos(pq), dds.WithRTPS(rtps.Config{
		Interfaces:       o.interfaces,
		Peers:            o.peers,
		DisableMulticast: o.noMulticast,
		Name:             "ddsim",
		Logger:           logger,
	}))
}

// serve adds the publishing systems to r and serves its services in p; the closers
// undo it, in reverse order.
func serve(p *dds.DomainParticipant, r *sim.Runner, o *options) ([]io.Closer, error) {
	var closers []io.Closer
	add := func(s interface {
		sim.PostUpdater
		io.Closer
	}, err error,
	) error {
		if err != nil {
			return err
		}
		closers = append(closers, s)
		return r.AddSystem(s, sim.SystemConfig{})
	}
	err := add(simdds.NewClockPublisher(p))
	if err == nil && o.tfRate > 0 {
		err = add(simdds.NewTfPublisher(p, time.Duration(float64(time.Second)/o.tfRate)))
	}
	if err == nil && o.state {
		err = add(simdds.NewStatePublisher(p))
	}
	if err == nil {
		var s *simdds.Services
		if s, err = simdds.NewServices(p, r, o.ns+"/gzserver", o.resourcePath()...); err == nil {
			closers = append(closers, s)
		}
	}
	if err != nil {
		for i := len(closers) - 1; i >= 0; i-- {
			err = errors.Join(err, closers[i].Close())
		}
		return nil, err
	}
	return closers, nil
}

// describe says what the world holds and what is published.
func describe(m *ecm.Manager, o *options) string {
	models, links := 0, 0
	ecm.EachRO1(m, func(ecm.Entity, sim.Model) bool { models++; return true })
	ecm.EachRO1(m, func(ecm.Entity, sim.Link) bool { links++; return true })
	s := fmt.Sprintf("%d models, %d links; /clock", models, links)
	if o.tfRate > 0 {
		s += fmt.Sprintf(", /tf at %g Hz", o.tfRate)
	}
	if o.state {
		s += ", world state"
	}
	if o.paused {
		s += "; paused"
	}
	return s
}
