package cdr

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// FuzzDecode decodes arbitrary payloads into several types. It must never panic, never
// allocate more than the input allows, and whatever decodes must re-encode and decode to
// the same value.
func FuzzDecode(f *testing.F) {
	f.Add(unhex(f, cycloneSample))
	f.Add(unhex(f, `0009 0000 18000000 07000000 02000000 6100 0000 00000000 0200000000000000`))
	f.Add(unhex(f, `000b 0000 28000000 0a000050 02000000 7900 0000 00400030 0000000000000840 63000020 07000000 00000020 09000000`))
	f.Add(unhex(f, `0001 0000 02000000 0100 0200`))
	f.Add(unhex(f, `0001 0003 04030201 08070605 01000000 0065cd1d 09 000000`))
	f.Add(unhex(f, `0000 0000 ffffffff ffffffff 7fffffff ffffffff 00`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 1<<16 {
			return
		}
		fuzzOne[Sample](t, b)
		fuzzOne[SampleA](t, b)
		fuzzOne[mut](t, b)
		fuzzOne[shape](t, b)
		fuzzOne[nested](t, b)
		fuzzOne[node](t, b)
		fuzzOne[stamped](t, b)
		fuzzOne[list](t, b)
	})
}

func fuzzOne[T any](t *testing.T, b []byte) {
	c := MustCodec[T]()
	var v T
	if err := c.Unmarshal(b, &v); err != nil {
		return
	}
	var d Decoder
	_ = d.Reset(b)
	out, err := c.Marshal(nil, d.Encapsulation(), &v)
	if err != nil {
		return // e.g. a union whose discriminator selects nothing still encodes; bounds can't fail here
	}
	var back T
	if err := c.Unmarshal(out, &back); err != nil {
		t.Fatalf("re-encoded value does not decode: %v\n% x", err, out)
	}
	out2, err := c.Marshal(nil, d.Encapsulation(), &back)
	if err != nil || string(out) != string(out2) {
		t.Fatalf("round trip differs:\n% x\n% x", out, out2)
	}
}

// FuzzTimeRoundTrip encodes arbitrary times and durations: each either fails with ErrRange,
// exactly when its seconds do not fit in int32, or decodes to the same instant and
// duration.
func FuzzTimeRoundTrip(f *testing.F) {
	f.Add(int64(0), int64(0), int64(0))
	f.Add(int64(math.MaxInt32), int64(999_999_999), int64(math.MaxInt64))
	f.Add(int64(-1), int64(500_000_000), int64(-1_500_000_000))
	f.Add(int64(math.MinInt32), int64(-1), int64(math.MinInt64))
	type times struct {
		T time.Time
		D time.Duration
	}
	c := MustCodec[times]()
	f.Fuzz(func(t *testing.T, sec, nsec, dur int64) {
		v := times{T: time.Unix(sec, nsec), D: time.Duration(dur)}
		dsec := dur / 1e9
		if dur%1e9 < 0 {
			dsec--
		}
		fits := func(s int64) bool { return s >= math.MinInt32 && s <= math.MaxInt32 }
		ok := (v.T.IsZero() || fits(v.T.Unix())) && (dur == math.MaxInt64 || fits(dsec))
		for _, id := range []EncapsulationID{CDRLE, CDR2BE} {
			b, err := c.Marshal(nil, id, &v)
			if !ok {
				require.ErrorIs(t, err, ErrRange)
				continue
			}
			require.NoError(t, err)
			var back times
			require.NoError(t, c.Unmarshal(b, &back))
			require.True(t, v.T.Equal(back.T), "%v != %v", v.T, back.T)
			require.Equal(t, v.D, back.D)
		}
	})
}
