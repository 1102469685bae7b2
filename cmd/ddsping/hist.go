package main

import (
	"fmt"
	"math/bits"
	"time"
)

// histSub is the number of sub-buckets per power of two: a recorded value is known to
// within 1/histSub (under 1 %).
const (
	histSubBits = 7
	histSub     = 1 << histSubBits
	// histBuckets covers values up to 2^40 ns (about 18 minutes).
	histBuckets = histSub + (40-histSubBits)*histSub
)

// hist is a log-linear histogram of durations in nanoseconds: fixed memory, no
// allocation when recording, percentiles within 1 %, exact count, mean, min and max.
type hist struct {
	counts   [histBuckets]uint32
	n        uint64
	sum      uint64
	min, max uint64
}

// bucket returns the bucket of v.
func bucket(v uint64) int {
	if v < histSub {
		return int(v)
	}
	shift := bits.Len64(v) - histSubBits - 1
	i := histSub + shift*histSub + int(v>>shift) - histSub
	return min(i, histBuckets-1)
}

// bucketValue returns the middle of bucket i.
func bucketValue(i int) uint64 {
	if i < histSub {
		return uint64(i)
	}
	shift := (i - histSub) / histSub
	lo := uint64(histSub+(i-histSub)%histSub) << shift
	return lo + (uint64(1)<<shift)/2
}

// add records d.
func (h *hist) add(d time.Duration) {
	v := uint64(max(d, 0))
	h.counts[bucket(v)]++
	if h.n == 0 || v < h.min {
		h.min = v
	}
	h.max = max(h.max, v)
	h.n++
	h.sum += v
}

// merge adds the values recorded in o.
func (h *hist) merge(o *hist) {
	if o.n == 0 {
		return
	}
	for i, c := range o.counts {
		h.counts[i] += c
	}
	if h.n == 0 || o.min < h.min {
		h.min = o.min
	}
	h.max = max(h.max, o.max)
	h.n += o.n
	h.sum += o.sum
}

// reset forgets every value.
func (h *hist) reset() { *h = hist{} }

// percentile returns the value below which the fraction p of the values lie.
func (h *hist) percentile(p float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	rank := uint64(p*float64(h.n-1)) + 1
	var seen uint64
	for i, c := range h.counts {
		if seen += uint64(c); seen >= rank {
			v := bucketValue(i)
			return time.Duration(min(max(v, h.min), h.max))
		}
	}
	return time.Duration(h.max)
}

// rttStats is the summary of a hist that ping prints.
type rttStats struct {
	Count uint64        `json:"count"`
	Mean  time.Duration `json:"mean_ns"`
	Min   time.Duration `json:"min_ns"`
	P50   time.Duration `json:"p50_ns"`
	P90   time.Duration `json:"p90_ns"`
	P99   time.Duration `json:"p99_ns"`
	Max   time.Duration `json:"max_ns"`
}

// stats summarizes h.
func (h *hist) stats() rttStats {
	if h.n == 0 {
		return rttStats{}
	}
	return rttStats{
		Count: h.n,
		Mean:  time.Duration(h.sum / h.n),
		Min:   time.Duration(h.min),
		P50:   h.percentile(0.50),
		P90:   h.percentile(0.90),
		P99:   h.percentile(0.99),
		Max:   time.Duration(h.max),
	}
}

// String formats the statistics in microseconds, like ddsperf.
func (s rttStats) String() string {
	us := func(d time.Duration) string { return fmt.Sprintf("%.1fus", float64(d)/1e3) }
	return fmt.Sprintf("mean %s min %s 50%% %s 90%% %s 99%% %s max %s cnt %d",
		us(s.Mean), us(s.Min), us(s.P50), us(s.P90), us(s.P99), us(s.Max), s.Count)
}
