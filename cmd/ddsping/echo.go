package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/ddsgo/ddsgo/ros/action_msgs"
	"github.com/ddsgo/ddsgo/ros/builtin_interfaces"
	"github.com/ddsgo/ddsgo/ros/geometry_msgs"
	"github.com/ddsgo/ddsgo/ros/rosgraph_msgs"
	si "github.com/ddsgo/ddsgo/ros/simulation_interfaces"
	"github.com/ddsgo/ddsgo/ros/std_msgs"
	"github.com/ddsgo/ddsgo/ros/tf2_msgs"
	"github.com/ddsgo/ddsgo/sim/simdds"
)

// follower reads a topic with a Go type and hands each sample, as a JSON-able value, to
// fn with its serialized size.
type follower func(ctx context.Context, p *dds.DomainParticipant, topic, typeName string, opts []dds.Option, fn func(v any, size int)) error

// follow returns the follower of T.
func follow[T any]() follower {
	return func(ctx context.Context, p *dds.DomainParticipant, topic, typeName string, opts []dds.Option, fn func(v any, size int)) error {
		t, err := dds.NewTopic[T](p, topic, dds.TypeName(typeName))
		if err != nil {
			return err
		}
		r, err := dds.NewReader(t, opts...)
		if err != nil {
			return err
		}
		defer func() { _ = r.Close() }()
		for v, info := range r.Samples(ctx) {
			if ctx.Err() != nil { // fn ended the run: not the rest of the batch
				break
			}
			if info.ValidData {
				fn(&v, info.SerializedSize)
			}
		}
		return nil
	}
}

// typeName returns the DDS type name of T (its DDSTypeName method).
func typeNameOf[T interface{ DDSTypeName() string }]() string {
	var zero T
	return zero.DDSTypeName()
}

// entry is a known type: its DDS name and its follower.
func entry[T interface{ DDSTypeName() string }]() (string, follower) {
	return typeNameOf[T](), follow[T]()
}

// echoTypes are the types echo and hz read with a Go type, by DDS type name: the ROS 2
// messages of the packages under ros/ (what ddsim publishes and more), ddsgo's world
// entities and ddsping's own samples. Others are read as dynamic samples (dynamic.go).
var echoTypes = func() map[string]follower {
	m := map[string]follower{
		typeName:           follow[sample](),
		"sim::WorldEntity": follow[simdds.WorldEntity](), // its name is the default, from the Go type
	}
	for _, add := range []func() (string, follower){
		entry[rosgraph_msgs.Clock], entry[tf2_msgs.TFMessage],
		entry[geometry_msgs.Twist], entry[geometry_msgs.Pose], entry[geometry_msgs.PoseStamped],
		entry[geometry_msgs.Transform], entry[geometry_msgs.TransformStamped], entry[geometry_msgs.Accel],
		entry[geometry_msgs.Vector3], entry[geometry_msgs.Point], entry[geometry_msgs.Quaternion],
		entry[std_msgs.Bool], entry[std_msgs.Empty], entry[std_msgs.Float64], entry[std_msgs.Header],
		entry[std_msgs.Int32], entry[std_msgs.String],
		entry[builtin_interfaces.Time], entry[builtin_interfaces.Duration],
		entry[action_msgs.GoalStatusArray], entry[si.SimulateStepsFeedbackMessage],
		entry[si.EntityState], entry[si.SimulationState],
	} {
		n, f := add()
		m[n] = f
	}
	return m
}()

// ddsTopic returns the DDS topic of name: a ROS 2 name (/clock) is rt/clock.
func ddsTopic(name string) string {
	if strings.HasPrefix(name, "/") {
		return "rt" + name
	}
	return name
}

// findWriter waits until a writer of topic is discovered and returns what it announced.
func findWriter(ctx context.Context, p *dds.DomainParticipant, topic string) (dds.EndpointBuiltinTopicData, error) {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		pubs, err := p.DiscoveredPublications()
		if err != nil {
			return dds.EndpointBuiltinTopicData{}, err
		}
		for _, w := range pubs {
			if w.TopicName == topic {
				return w, nil
			}
		}
		select {
		case <-ctx.Done():
			return dds.EndpointBuiltinTopicData{}, fmt.Errorf("%w: no writer of %q on the domain", errFailed, topic)
		case <-tick.C:
		}
	}
}

// readerFor returns the options of a reader that gets what w offers, as `ros2 topic
// echo` adapts to its publisher: w's reliability, TRANSIENT_LOCAL when w keeps data for
// late joiners (so that a topic written once, such as the world's entities, shows), and
// w's partitions.
func readerFor(w dds.EndpointBuiltinTopicData) []dds.Option {
	opts := []dds.Option{dds.BestEffort()}
	if w.Offered.Writer.Reliability.Kind == qos.Reliable {
		opts = []dds.Option{dds.Reliable()}
		if w.Offered.Writer.Durability.Kind >= qos.TransientLocal {
			opts = append(opts, dds.TransientLocal())
		}
	}
	if ps := w.Offered.Publisher.Partition.Name; len(ps) > 0 {
		opts = append(opts, dds.Partition(ps...))
	}
	return opts
}

// typedWriter finds a writer of topic and the follower of its type: a Go type ddsping
// has, or else the type the writer announced, resolved with TypeLookup (dynamic.go).
func typedWriter(ctx context.Context, n *node, topic string, wait time.Duration) (dds.EndpointBuiltinTopicData, follower, error) {
	wctx, cancel := context.WithTimeout(ctx, wait)
	w, err := findWriter(wctx, n.p, topic)
	cancel()
	if err != nil {
		return w, nil, err
	}
	f, ok := echoTypes[w.TypeName]
	if !ok {
		return w, followDynamic(w, wait), nil
	}
	return w, f, nil
}

func setupEcho(fs *flag.FlagSet, o *options) func(context.Context) error {
	wait := fs.Duration("wait", 5*time.Second, "how long to wait for a writer of the topic, and for its type (TypeLookup)")
	count := fs.Int("count", 0, "stop after this many samples (0: until interrupted)")
	dur := fs.Duration("duration", 0, "stop after this long (0: until interrupted)")
	return func(ctx context.Context) error {
		if fs.NArg() != 1 {
			return fmt.Errorf("%w: echo TOPIC, as in: echo /clock", errUsage)
		}
		topic := ddsTopic(fs.Arg(0))
		return onNode(o, "ddsping echo", func(ctx context.Context, n *node) error {
			ctx, cancel := durationUntil(ctx, *dur)
			defer cancel()
			ctx, stop := context.WithCancel(ctx)
			defer stop()
			w, f, err := typedWriter(ctx, n, topic, *wait)
			if err != nil {
				return err
			}
			got := 0
			err = f(ctx, n.p, topic, w.TypeName, readerFor(w), func(v any, _ int) {
				b, err := marshalMsg(printable(v))
				if err != nil {
					b = []byte(fmt.Sprintf("%q", err.Error()))
				}
				fmt.Fprintf(o.out, "%s\n", b)
				got++
				if *count > 0 && got >= *count {
					stop()
				}
			})
			if err != nil {
				return err
			}
			if got == 0 {
				return fmt.Errorf("%w: no sample on %q", errFailed, topic)
			}
			return nil
		})(ctx)
	}
}

// printable returns what echo prints of a sample a follower handed on: a Go value (a
// pointer to it) in ddsping's JSON scheme (msgjson.go); a dynamic one is already.
func printable(v any) any {
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer {
		return msgJSON(rv)
	}
	return v
}

// rate is what hz prints for one window: samples per second and the intervals; bw
// prints the octets per second and the sample sizes.
type rate struct {
	Topic   string  `json:"topic"`
	Type    string  `json:"type"`
	Rate    float64 `json:"rate_hz"`
	Min     float64 `json:"min_s"`
	Max     float64 `json:"max_s"`
	StdDev  float64 `json:"std_dev_s"`
	Samples int     `json:"samples"`

	Bandwidth float64 `json:"bytes_per_s,omitempty"`
	MeanSize  float64 `json:"mean_bytes,omitempty"`
	MinSize   int     `json:"min_bytes,omitempty"`
	MaxSize   int     `json:"max_bytes,omitempty"`
}

// arrival is one sample's arrival: when, and its serialized size.
type arrival struct {
	at   time.Time
	size int
}

// rateOf computes the rate of the arrivals (at least two), and their bandwidth: the
// octets of all but the first over the time from the first to the last.
func rateOf(at []arrival) rate {
	iv := make([]float64, 0, len(at)-1)
	total, minSize, maxSize := 0, at[0].size, at[0].size
	for i := 1; i < len(at); i++ {
		iv = append(iv, at[i].at.Sub(at[i-1].at).Seconds())
		total += at[i].size
		minSize, maxSize = min(minSize, at[i].size), max(maxSize, at[i].size)
	}
	span := at[len(at)-1].at.Sub(at[0].at).Seconds()
	mean := span / float64(len(iv))
	var sq float64
	for _, d := range iv {
		sq += (d - mean) * (d - mean)
	}
	r := rate{
		Min: slices.Min(iv), Max: slices.Max(iv), StdDev: math.Sqrt(sq / float64(len(iv))), Samples: len(at),
		MeanSize: float64(total+at[0].size) / float64(len(at)), MinSize: minSize, MaxSize: maxSize,
	}
	if mean > 0 {
		r.Rate = 1 / mean
		r.Bandwidth = float64(total) / span
	}
	return r
}

func setupHz(fs *flag.FlagSet, o *options) func(context.Context) error {
	return setupRate(fs, o, "hz", printRate)
}

func setupBw(fs *flag.FlagSet, o *options) func(context.Context) error {
	return setupRate(fs, o, "bw", printBandwidth)
}

// setupRate sets up hz and bw, which differ in what they print.
func setupRate(fs *flag.FlagSet, o *options, cmd string, print func(*options, rate)) func(context.Context) error {
	wait := fs.Duration("wait", 5*time.Second, "how long to wait for a writer of the topic")
	window := fs.Int("window", 1000, "over at most this many last samples")
	dur := fs.Duration("duration", 0, "stop after this long (0: until interrupted)")
	return func(ctx context.Context) error {
		if fs.NArg() != 1 || *window < 2 {
			return fmt.Errorf("%w: %s [-window N >= 2] TOPIC, as in: %s /tf", errUsage, cmd, cmd)
		}
		topic := ddsTopic(fs.Arg(0))
		return onNode(o, "ddsping "+cmd, func(ctx context.Context, n *node) error {
			ctx, cancel := durationUntil(ctx, *dur)
			defer cancel()
			w, f, err := typedWriter(ctx, n, topic, *wait)
			if err != nil {
				return err
			}
			var at []arrival
			printed := time.Now()
			show := func() {
				r := rateOf(at)
				r.Topic, r.Type = topic, w.TypeName
				print(o, r)
			}
			err = f(ctx, n.p, topic, w.TypeName, readerFor(w), func(_ any, size int) {
				now := time.Now()
				if at = append(at, arrival{now, size}); len(at) > *window {
					at = at[len(at)-*window:]
				}
				if now.Sub(printed) >= time.Second && len(at) >= 2 {
					printed = now
					show()
				}
			})
			if err != nil {
				return err
			}
			if len(at) < 2 {
				return fmt.Errorf("%w: fewer than two samples on %q", errFailed, topic)
			}
			show() // the last window
			return nil
		})(ctx)
	}
}

// printRate prints one rate line.
func printRate(o *options, r rate) {
	if o.json {
		r.Bandwidth, r.MeanSize, r.MinSize, r.MaxSize = 0, 0, 0, 0
		b, _ := json.Marshal(r)
		fmt.Fprintf(o.out, "%s\n", b)
		return
	}
	fmt.Fprintf(o.out, "%s: average rate %.3f Hz, min %.4fs max %.4fs std dev %.5fs, window %d\n",
		r.Topic, r.Rate, r.Min, r.Max, r.StdDev, r.Samples)
}

// printBandwidth prints one bandwidth line, as `ros2 topic bw` does: octets per second
// and the sizes of the serialized samples.
func printBandwidth(o *options, r rate) {
	if o.json {
		b, _ := json.Marshal(map[string]any{
			"topic": r.Topic, "type": r.Type, "bytes_per_s": r.Bandwidth, "mean_bytes": r.MeanSize,
			"min_bytes": r.MinSize, "max_bytes": r.MaxSize, "samples": r.Samples,
		})
		fmt.Fprintf(o.out, "%s\n", b)
		return
	}
	fmt.Fprintf(o.out, "%s: %s/s from %d messages, mean %s, min %s, max %s\n", r.Topic,
		bytesString(int(r.Bandwidth)), r.Samples, bytesString(int(r.MeanSize)), bytesString(r.MinSize), bytesString(r.MaxSize))
}
