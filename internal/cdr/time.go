package cdr

import (
	"fmt"
	"math"
	"time"
)

// time.Time and time.Duration travel as the DDS Time_t and Duration_t of DDS 1.4 §2.3.2:
// struct { int32 sec; uint32 nanosec; }, a final struct (nanosec counts nanoseconds, not
// the 2^-32 s fractions of the RTPS header's Time_t). The special values are the IDL
// constants of the DCPS PSM.
const (
	timeInvalidSec       = -1         // TIME_INVALID_SEC
	timeInvalidNsec      = 0xffffffff // TIME_INVALID_NSEC
	durationInfiniteSec  = 0x7fffffff // DURATION_INFINITE_SEC
	durationInfiniteNsec = 0x7fffffff // DURATION_INFINITE_NSEC
	rtpsInfiniteNsec     = 0xffffffff // the RTPS Duration_t infinite, also read as infinite
)

// encTime writes v as a Time_t. The zero time.Time (Go's "no time") is TIME_INVALID;
// other times are seconds since 1970 (floored, so times before 1970 have a negative sec)
// and nanoseconds in [0, 1e9). A time whose seconds do not fit in int32 (before
// 1901-12-13T20:45:52Z or after 2038-01-19T03:14:07Z) is an ErrRange error: the codec
// never changes a value silently.
func encTime(e *Encoder, v time.Time) {
	if v.IsZero() {
		encSecNsec(e, timeInvalidSec, timeInvalidNsec)
		return
	}
	if !encSecNsec(e, v.Unix(), uint32(v.Nanosecond())) {
		e.SetErr(fmt.Errorf("%w: time %v is beyond the int32 seconds of Time_t", ErrRange, v))
	}
}

// decTime reads a Time_t: TIME_INVALID is the zero time.Time, anything else a UTC time (a
// nanosec of 1e9 or more carries into the seconds, as in time.Unix).
func decTime(d *Decoder) time.Time {
	sec, nsec := int32(d.Uint32()), d.Uint32()
	if d.err != nil || sec == timeInvalidSec && nsec == timeInvalidNsec {
		return time.Time{}
	}
	return time.Unix(int64(sec), int64(nsec)).UTC()
}

// encDuration writes v as a Duration_t. math.MaxInt64, the "forever" of Go APIs, is
// DURATION_INFINITE, as Cyclone DDS maps DDS_INFINITY (INT64_MAX). Other durations are
// floored seconds and nanoseconds in [0, 1e9); one whose seconds do not fit in int32
// (about 68 years either way) is an ErrRange error.
func encDuration(e *Encoder, v time.Duration) {
	if v == math.MaxInt64 {
		encSecNsec(e, durationInfiniteSec, durationInfiniteNsec)
		return
	}
	sec, ns := int64(v/time.Second), v%time.Second
	if ns < 0 {
		sec, ns = sec-1, ns+time.Second
	}
	if !encSecNsec(e, sec, uint32(ns)) {
		e.SetErr(fmt.Errorf("%w: duration %v is beyond the int32 seconds of Duration_t", ErrRange, v))
	}
}

// encSecNsec writes {int32 sec; uint32 nanosec} and reports whether sec fits in int32
// (when it does not, it writes it truncated, so that the stream stays consistent).
func encSecNsec(e *Encoder, sec int64, nsec uint32) bool {
	e.Uint32(uint32(int32(sec)))
	e.Uint32(nsec)
	return sec >= math.MinInt32 && sec <= math.MaxInt32
}

// decDuration reads a Duration_t: DURATION_INFINITE (and the RTPS infinite, nanosec
// 0xffffffff) is math.MaxInt64, anything else sec·1e9 + nanosec, which always fits.
func decDuration(d *Decoder) time.Duration {
	sec, nsec := int32(d.Uint32()), d.Uint32()
	if sec == durationInfiniteSec && (nsec == durationInfiniteNsec || nsec == rtpsInfiniteNsec) {
		return math.MaxInt64
	}
	return time.Duration(sec)*time.Second + time.Duration(nsec)
}
