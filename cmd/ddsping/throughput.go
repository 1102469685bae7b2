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
	size := fs.Int("size", 1024, "payload `bytes` per sample")
	rate := fs.Float64("rate", 0, "samples per second (0: as fast as possible)")
	dur := fs.Duration("duration", 10*time.Second, "stop after this long (0: until interrupted)")
	wait := fs.Duration("wait", 10*time.Second, "how long to wait for a subscriber to match")
	budget := fs.Int("history-bytes", 4<<20, "bound the writer's unacknowledged samples to about this many `bytes` (at least 16 samples)")
	return func(ctx context.Context) error {
		if *size < 0 || *rate < 0 || *budget <= 0 {
			return fmt.Errorf("%w: -size and -rate may not be negative, -history-bytes must be positive", errUsage)
		}
		reliable := !*bestEffort
		n, err := newNode(o, "ddsping pub")
		if err != nil {
			return err
		}
		defer n.close()
		wq, _ := dataQos(reliable, *size, *budget)
		w, err := n.writer(topicData, wq)
		if err != nil {
			return err
		}
		if !o.json {
			fmt.Fprintf(o.out, "pub: domain %d, %s, %s payload, waiting for a subscriber\n", o.domain, reliability(reliable), bytesString(*size))
		}
		wctx, cancel := context.WithTimeout(ctx, *wait)
		err = waitStatus(wctx, w.StatusCondition(), listener.PublicationMatched, func() (bool, error) {
			s, err := w.PublicationMatchedStatus()
			return s.CurrentCount > 0, err
		})
		cancel()
		if err != nil {
			return fmt.Errorf("%w: no subscriber matched within %v", errFailed, *wait)
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
			if err := w.Write(ctx, &s); err != nil {
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
					r := newRateLine(ivWritten, 0, ivWritten*uint64(*size), t.Sub(last))
					if o.json {
						_ = json.NewEncoder(o.out).Encode(map[string]any{"t": t.Sub(start).Seconds(), "written": r})
					} else {
						fmt.Fprintf(o.out, "%8.3f  written %v\n", t.Sub(start).Seconds(), r)
					}
					last, ivWritten = t, 0
				}
			}
		}
		el := time.Since(start)
		actx, acancel := context.WithTimeout(context.Background(), 2*time.Second)
		_ = w.WaitForAcknowledgments(actx)
		acancel()
		r := newRateLine(written, 0, written*uint64(*size), el)
		if o.json {
			return json.NewEncoder(o.out).Encode(map[string]any{"written": r, "blocked_timeouts": timeouts})
		}
		fmt.Fprintf(o.out, "pub: written %v, %d write timeouts\n", r, timeouts)
		return nil
	}
}

// waitStatus waits until ok reports true, looking again each time the entity's status
// k changes.
func waitStatus(ctx context.Context, c *dds.StatusCondition, k listener.StatusKind, ok func() (bool, error)) error {
	if err := c.SetEnabledStatuses(listener.StatusMask(k)); err != nil {
		return err
	}
	ws := waitset.New()
	if err := ws.AttachCondition(c); err != nil {
		return err
	}
	for {
		done, err := ok()
		if err != nil || done {
			return err
		}
		if _, err := ws.Wait(ctx); err != nil {
			return err
		}
	}
}

// subscriber counts the samples of the throughput topic.
type subscriber struct {
	r  *dds.DataReader[sample]
	ws *waitset.WaitSet
	// last is the last sequence number of each publisher.
	last              map[uint32]uint64
	samples, lost     uint64
	bytes             uint64
	first, lastSample time.Time
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
	return drain(ctx, s.r, data, infos, func(data []sample, infos []dds.SampleInfo) error {
		s.count(data, infos)
		return nil
	})
}

func setupSub(fs *flag.FlagSet, o *options) func(context.Context) error {
	bestEffort := fs.Bool("best-effort", false, "best-effort instead of reliable")
	fs.Bool("reliable", true, "reliable (the default)")
	dur := fs.Duration("duration", 0, "stop after this long (0: until interrupted)")
	count := fs.Uint64("count", 0, "stop after N samples (0: no limit)")
	return onNode(o, "ddsping sub", func(ctx context.Context, n *node) error {
		reliable := !*bestEffort
		_, rq := dataQos(reliable, 0, 0)
		r, err := n.reader(topicData, rq)
		if err != nil {
			return err
		}
		rc, err := r.CreateReadCondition(dds.States{})
		if err != nil {
			return err
		}
		s := &subscriber{r: r, ws: waitset.New(), last: map[uint32]uint64{}}
		if err := s.ws.AttachCondition(rc); err != nil {
			return err
		}
		var tick waitset.GuardCondition
		if err := s.ws.AttachCondition(&tick); err != nil {
			return err
		}
		if !o.json {
			fmt.Fprintf(o.out, "sub: domain %d, %s, waiting for publishers on %s\n", o.domain, reliability(reliable), topicData)
		}
		ctx, cancel := durationUntil(ctx, *dur)
		defer cancel()
		go tickEvery(ctx, time.Second, &tick)
		iv := interval{start: time.Now()}
		iv.last = iv.start
		data := make([]sample, 256)
		infos := make([]dds.SampleInfo, 256)
		conds := make([]waitset.Condition, 0, 2)
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
		if !infos[i].ValidData {
			continue
		}
		d := &data[i]
		if prev, ok := s.last[d.ID]; ok && d.Seq > prev+1 {
			s.lost += d.Seq - prev - 1
		}
		s.last[d.ID] = d.Seq
		if s.samples == 0 {
			s.first = t
		}
		s.samples++
		s.bytes += uint64(len(d.Payload))
		s.lastSample = t
	}
}
