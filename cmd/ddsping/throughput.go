package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/ddsgo/ddsgo/waitset"
)

// dataQos returns the QoS of the throughput topic: KEEP_ALL, with the writer's
// history bounded to about budget bytes of samples (at least 16 samples) so that a
// slow reader makes the writer block instead of the history grow.
func dataQos(reliable bool, size, budget int) (qos.DataWriterQos, qos.DataReaderQos) {
	wq, rq := endpointQos(reliable, 1)
	wq.History = qos.History{Kind: qos.KeepAll}
	rq.History = wq.History
	limit := int32(min(max(budget/max(size+overhead, 1), 16), 1<<16))
	wq.ResourceLimits.MaxSamples = limit
	wq.ResourceLimits.MaxSamplesPerInstance = limit
	wq.Reliability.MaxBlockingTime = time.Second
	return wq, rq
}

// rateLine is the throughput of one interval or of a whole run.
type rateLine struct {
	Seconds       float64 `json:"seconds"`
	Samples       uint64  `json:"samples"`
	Lost          uint64  `json:"lost"`
	SamplesPerSec float64 `json:"samples_per_s"`
	MBPerSec      float64 `json:"mb_per_s"`
}

func newRateLine(samples, lost, bytes uint64, d time.Duration) rateLine {
	r := rateLine{Seconds: d.Seconds(), Samples: samples, Lost: lost}
	if d > 0 {
		r.SamplesPerSec = float64(samples) / d.Seconds()
		r.MBPerSec = float64(bytes) / d.Seconds() / 1e6
	}
	return r
}

func (r rateLine) String() string {
	return fmt.Sprintf("%9.0f samples/s %9.2f MB/s (%7.0f Mbit/s) %d samples, %d lost",
		r.SamplesPerSec, r.MBPerSec, r.MBPerSec*8, r.Samples, r.Lost)
}

func setupPub(fs *flag.FlagSet, o *options) func(context.Context) error {
	bestEffort := fs.Bool("best-effort", false, "best-effort instead of reliable")
	fs.Bool("reliable", true, "reliable (the default)")
	size := fs.Int("size", 1024, "payload `bytes` per sample (against ddsperf: its size, 12 bytes of seq, key and length included)")
	rate := fs.Float64("rate", 0, "samples per second (0: as fast as possible)")
	dur := fs.Duration("duration", 10*time.Second, "stop after this long (0: until interrupted)")
	wait := fs.Duration("wait", 10*time.Second, "how long to wait for a subscriber to match")
	budget := fs.Int("history-bytes", 4<<20, "bound the writer's unacknowledged samples to about this many `bytes` (at least 16 samples)")
	typ := fs.String("type", "", "with TOPIC VALUE: the ROS 2 type, such as std_msgs/msg/String, of std_msgs, geometry_msgs, builtin_interfaces, rosgraph_msgs or tf2_msgs (default: the topic's, from its readers or writers)")
	count := fs.Int("count", 1, "with TOPIC VALUE: how many messages")
	latency := fs.Duration("latency-budget", 0, "the writer's LATENCY_BUDGET: it may hold samples this long to pack them into fewer datagrams (the subscriber needs at least as much)")
	return func(ctx context.Context) error {
		if fs.NArg() > 0 { // pub TOPIC VALUE: messages, not throughput
			return pubMessages(ctx, fs, o, *typ, *count, *rate, *wait)
		}
		if err := checkPubFlags(*size, *rate, *budget, *latency); err != nil {
			return err
		}
		reliable := !*bestEffort
		n, err := newNode(o, "ddsping pub")
		if err != nil {
			return err
		}
		defer n.close()
		wq, _ := dataQos(reliable, *size, *budget)
		wq.LatencyBudget.Duration = *latency
		if !o.json {
			fmt.Fprintf(o.out, "pub: domain %d, %s, %s payload, waiting for a subscriber\n", o.domain, reliability(reliable), bytesString(*size))
		}
		wctx, cancel := context.WithTimeout(ctx, *wait)
		w, err := openPubTarget(wctx, n, reliable, wq)
		cancel()
		if err != nil {
			return err
		}
		if w == nil {
			return fmt.Errorf("%w: no subscriber matched within %v", errFailed, *wait)
		}
		if !o.json {
			fmt.Fprintf(o.out, "pub: matched a %s subscriber on %s\n", w.peer, w.topic)
		}
		ctx, cancel = durationUntil(ctx, *dur)
		defer cancel()
		s := sample{ID: rand.Uint32(), Payload: make([]byte, *size)}
		var period time.Duration
		if *rate > 0 {
			period = time.Duration(float64(time.Second) / *rate)
		}
		start := time.Now()
		next, last := start, start
		var written, ivWritten, timeouts uint64
		for ctx.Err() == nil {
			if period > 0 {
				next = next.Add(period)
				if d := time.Until(next); d > 0 {
					time.Sleep(d)
				}
			}
			s.Seq++
			s.Stamp = now()
			if err := w.write(ctx, &s); err != nil {
				if ctx.Err() != nil {
					break // the run is over
				}
				if errors.Is(err, dds.ErrTimeout) {
					timeouts++
					s.Seq--
					continue
				}
				return err
			}
			written++
			ivWritten++
			if written&255 == 0 {
				if t := time.Now(); t.Sub(last) >= time.Second {
					printWritten(o, t.Sub(start), newRateLine(ivWritten, 0, ivWritten*uint64(*size), t.Sub(last)))
					last, ivWritten = t, 0
				}
			}
		}
		el := time.Since(start)
		actx, acancel := context.WithTimeout(context.Background(), 2*time.Second)
		_ = w.waitAcks(actx)
		acancel()
		r := newRateLine(written, 0, written*uint64(*size), el)
		if o.json {
			return json.NewEncoder(o.out).Encode(map[string]any{"written": r, "blocked_timeouts": timeouts})
		}
		fmt.Fprintf(o.out, "pub: written %v, %d write timeouts\n", r, timeouts)
		return nil
	}
}

// checkPubFlags checks pub's numeric flags.
func checkPubFlags(size int, rate float64, history int, latency time.Duration) error {
	if size < 0 || rate < 0 || history <= 0 || latency < 0 {
		return fmt.Errorf("%w: -size, -rate and -latency-budget may not be negative, -history-bytes must be positive", errUsage)
	}
	return nil
}

// printWritten prints pub's progress line: at seconds into the run, what the last
// interval wrote.
func printWritten(o *options, at time.Duration, r rateLine) {
	if o.json {
		_ = json.NewEncoder(o.out).Encode(map[string]any{"t": at.Seconds(), "written": r})
		return
	}
	fmt.Fprintf(o.out, "%8.3f  written %v\n", at.Seconds(), r)
}

// pubTarget is the writer pub writes with: on ddsping_data, or on ddsperf's data topic
// when a ddsperf subscriber is what matched.
type pubTarget struct {
	peer, topic string
	write       func(ctx context.Context, s *sample) error
	waitAcks    func(ctx context.Context) error
}

// openPubTarget creates a writer on ddsping's data topic and one on ddsperf's, waits
// until one matches a reader, deletes the other and returns the one kept; nil when
// none matched before ctx ended. A ddsperf sample carries s.Seq, key 0 (ddsperf's
// subscriber expects keys below its -n, 1 by default), the payload cut to ddsperf's
// size (perfBaggage) and a source timestamp with the ping bit clear (ddsperf answers
// a data sample with the bit set with a pong).
func openPubTarget(ctx context.Context, n *node, reliable bool, wq qos.DataWriterQos) (*pubTarget, error) {
	nw, err := n.writer(topicData, wq)
	if err != nil {
		return nil, err
	}
	_, _, perfData := perfTopics(reliable)
	pw, err := perfWriter(n, nil, perfData, wq)
	if err != nil {
		return nil, err
	}
	var conds []waitset.Condition
	for _, c := range []*dds.StatusCondition{nw.StatusCondition(), pw.StatusCondition()} {
		if err := c.SetEnabledStatuses(listener.StatusMask(listener.PublicationMatched)); err != nil {
			return nil, err
		}
		conds = append(conds, c)
	}
	i, err := waitFirstMatch(ctx, conds, func() (int, error) {
		for i, st := range []func() (listener.PublicationMatchedStatus, error){nw.PublicationMatchedStatus, pw.PublicationMatchedStatus} {
			if s, err := st(); err != nil || s.CurrentCount > 0 {
				return i, err
			}
		}
		return -1, nil
	})
	if err != nil || i < 0 {
		return nil, err
	}
	if i == 0 {
		return &pubTarget{
			peer: "ddsping", topic: topicData,
			write:    func(ctx context.Context, s *sample) error { return nw.Write(ctx, s) },
			waitAcks: nw.WaitForAcknowledgments,
		}, pw.Close()
	}
	var out keyedSeq
	return &pubTarget{
		peer: "ddsperf", topic: perfData,
		write: func(ctx context.Context, s *sample) error {
			out.Seq = uint32(s.Seq)
			out.Baggage = s.Payload[:perfBaggage(len(s.Payload))]
			return pw.Write(ctx, &out, dds.Timestamp(dataStamp()))
		},
		waitAcks: pw.WaitForAcknowledgments,
	}, nw.Close()
}

// subscriber counts the samples of the throughput topic.
type subscriber struct {
	r  *dds.DataReader[sample]
	ws *waitset.WaitSet
	// perf reads ddsperf's data topic, with its buffers; pongs answer the samples
	// with the ping bit (ddsperf pub's "ping N%").
	pongs    *perfPongWriters
	reliable bool
	// perf reads ddsperf's data topic, with its buffers.
	perf      *dds.DataReader[keyedSeq]
	perfData  []keyedSeq
	perfInfos []dds.SampleInfo
	// last is the last sequence number of each publisher.
	last              map[pubKey]uint64
	samples, lost     uint64
	bytes             uint64
	first, lastSample time.Time
}

// pubKey identifies a publisher: its writer and the key it writes (ddsping's publishers
// write one key each; ddsperf's are counted by writer, key 0, as their sequence numbers
// run across their keys).
type pubKey struct {
	writer dds.InstanceHandle
	id     uint32
}

// tickEvery sets tick every period until ctx ends.
func tickEvery(ctx context.Context, period time.Duration, tick *waitset.GuardCondition) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			tick.SetTriggerValue(true)
		}
	}
}

// interval is what the subscriber had counted at its last progress line.
type interval struct {
	start, last             time.Time
	samples, lost, bytesSum uint64
}

// report prints the progress line of the interval that ends now.
func (iv *interval) report(o *options, s *subscriber) {
	t := time.Now()
	if iv.samples > 0 || s.samples > 0 {
		rl := newRateLine(s.samples-iv.samples, s.lost-iv.lost, s.bytes-iv.bytesSum, t.Sub(iv.last))
		if o.json {
			_ = json.NewEncoder(o.out).Encode(map[string]any{"t": t.Sub(iv.start).Seconds(), "received": rl})
		} else {
			fmt.Fprintf(o.out, "%8.3f  received %v\n", t.Sub(iv.start).Seconds(), rl)
		}
	}
	iv.last, iv.samples, iv.lost, iv.bytesSum = t, s.samples, s.lost, s.bytes
}

// takeAll takes and counts the samples there are.
func (s *subscriber) takeAll(ctx context.Context, data []sample, infos []dds.SampleInfo) error {
	err := drain(ctx, s.r, data, infos, func(data []sample, infos []dds.SampleInfo) error {
		s.count(data, infos)
		return nil
	})
	if err != nil {
		return err
	}
	if err := s.pongs.follow(s.perf, s.reliable); err != nil {
		return err
	}
	return drain(ctx, s.perf, s.perfData, s.perfInfos, func(data []keyedSeq, infos []dds.SampleInfo) error {
		s.countPerf(data, infos)
		return s.answerPings(ctx, data, infos)
	})
}

// answerPings answers the ddsperf samples whose source timestamp has the ping bit, as
// ddsperf's subscriber does: the sample back to its publisher's participant, with the
// timestamp less the bit (a data pong, which does not ask for another ping).
func (s *subscriber) answerPings(ctx context.Context, data []keyedSeq, infos []dds.SampleInfo) error {
	for i := range data {
		ts := infos[i].SourceTimestamp.UnixNano()
		if !infos[i].ValidData || ts&1 == 0 {
			continue
		}
		w, err := s.pongs.get(s.reliable, infos[i].PublicationHandle)
		if err != nil {
			return err
		}
		if err := w.Write(ctx, &data[i], dds.Timestamp(time.Unix(0, ts-1))); err != nil && ctx.Err() == nil && !errors.Is(err, dds.ErrTimeout) {
			return fmt.Errorf("sub: answering a ping: %w", err)
		}
	}
	return nil
}

// newSubscriber creates the readers of sub in n: on ddsping's data topic and on
// ddsperf's.
func newSubscriber(n *node, reliable bool, latency time.Duration) (*subscriber, error) {
	_, rq := dataQos(reliable, 0, 0)
	rq.LatencyBudget.Duration = latency
	s := &subscriber{ws: waitset.New(), last: map[pubKey]uint64{}, pongs: newPerfPongWriters(n), reliable: reliable}
	var err error
	if s.r, err = n.reader(topicData, rq); err != nil {
		return nil, err
	}
	_, _, perfData := perfTopics(reliable)
	if s.perf, err = perfReader(n, nil, perfData, rq); err != nil {
		return nil, err
	}
	sc := s.perf.StatusCondition()
	if err := sc.SetEnabledStatuses(listener.StatusMask(listener.SubscriptionMatched)); err != nil {
		return nil, err
	}
	if err := s.ws.AttachCondition(sc); err != nil {
		return nil, err
	}
	s.perfData, s.perfInfos = make([]keyedSeq, 256), make([]dds.SampleInfo, 256)
	rc, err := s.r.CreateReadCondition(dds.States{})
	if err != nil {
		return nil, err
	}
	prc, err := s.perf.CreateReadCondition(dds.States{})
	if err != nil {
		return nil, err
	}
	if err := s.ws.AttachCondition(rc); err != nil {
		return nil, err
	}
	return s, s.ws.AttachCondition(prc)
}

func setupSub(fs *flag.FlagSet, o *options) func(context.Context) error {
	bestEffort := fs.Bool("best-effort", false, "best-effort instead of reliable")
	fs.Bool("reliable", true, "reliable (the default)")
	dur := fs.Duration("duration", 0, "stop after this long (0: until interrupted)")
	count := fs.Uint64("count", 0, "stop after N samples (0: no limit)")
	latency := fs.Duration("latency-budget", 0, "the reader's LATENCY_BUDGET: it matches writers with at most this budget")
	return onNode(o, "ddsping sub", func(ctx context.Context, n *node) error {
		reliable := !*bestEffort
		s, err := newSubscriber(n, reliable, *latency)
		if err != nil {
			return err
		}
		var tick waitset.GuardCondition
		if err := s.ws.AttachCondition(&tick); err != nil {
			return err
		}
		if !o.json {
			_, _, perfData := perfTopics(reliable)
			fmt.Fprintf(o.out, "sub: domain %d, %s, waiting for publishers on %s (ddsping) and %s (ddsperf)\n", o.domain, reliability(reliable), topicData, perfData)
		}
		ctx, cancel := durationUntil(ctx, *dur)
		defer cancel()
		go tickEvery(ctx, time.Second, &tick)
		iv := interval{start: time.Now()}
		iv.last = iv.start
		data := make([]sample, 256)
		infos := make([]dds.SampleInfo, 256)
		conds := make([]waitset.Condition, 0, 4)
		for *count == 0 || s.samples < *count {
			conds, err = s.ws.WaitInto(ctx, conds)
			if err != nil {
				break
			}
			if tick.TriggerValue() {
				tick.SetTriggerValue(false)
				iv.report(o, s)
			}
			if err := s.takeAll(ctx, data, infos); err != nil {
				return err
			}
		}
		rl := newRateLine(s.samples, s.lost, s.bytes, s.lastSample.Sub(s.first))
		if o.json {
			_ = json.NewEncoder(o.out).Encode(map[string]any{"received": rl, "publishers": len(s.last)})
		} else {
			fmt.Fprintf(o.out, "sub: received %v from %d publishers\n", rl, len(s.last))
		}
		if reliable && s.lost > 0 {
			return fmt.Errorf("%w: %d samples lost on a reliable topic", errFailed, s.lost)
		}
		return nil
	})
}

// count records the samples taken.
func (s *subscriber) count(data []sample, infos []dds.SampleInfo) {
	t := time.Now()
	for i := range data {
		if infos[i].ValidData {
			s.record(t, pubKey{infos[i].PublicationHandle, data[i].ID}, data[i].Seq, len(data[i].Payload))
		}
	}
}

// countPerf records the ddsperf samples taken, of ddsperf's size (perfOverhead included).
func (s *subscriber) countPerf(data []keyedSeq, infos []dds.SampleInfo) {
	t := time.Now()
	for i := range data {
		if infos[i].ValidData {
			s.record(t, pubKey{writer: infos[i].PublicationHandle}, uint64(data[i].Seq), perfOverhead+len(data[i].Baggage))
		}
	}
}

// record counts the sample seq of size bytes from k taken at t.
func (s *subscriber) record(t time.Time, k pubKey, seq uint64, size int) {
	if prev, ok := s.last[k]; ok && seq > prev+1 {
		s.lost += seq - prev - 1
	}
	s.last[k] = seq
	if s.samples == 0 {
		s.first = t
	}
	s.samples++
	s.bytes += uint64(size)
	s.lastSample = t
}
