package wire

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// typicalDataMessage is a user-data message as Cyclone DDS sends it:
// header, INFO_TS, DATA with a 64-byte serialized payload (4-byte
// encapsulation header + 60 bytes) and a piggy-backed HEARTBEAT.
func typicalDataMessage() (Header, InfoTS, Data, Heartbeat) {
	hdr := Header{Version: ProtocolVersion25, Vendor: VendorDDSGo, Prefix: testPrefix}
	ts := InfoTS{Timestamp: Time{Seconds: 1_700_000_000, Fraction: 12345}}
	payload := make([]byte, 64)
	payload[1] = 0x01 // CDR_LE
	for i := 4; i < len(payload); i++ {
		payload[i] = byte(i)
	}
	d := Data{DataFlag: true, ReaderID: EntityIDUnknown, WriterID: testWriter, WriterSN: 42, SerializedPayload: payload}
	hb := Heartbeat{WriterID: testWriter, FirstSN: 1, LastSN: 42, Count: 7}
	return hdr, ts, d, hb
}

func appendTypical(b []byte, hdr *Header, ts *InfoTS, d *Data, hb *Heartbeat) []byte {
	b = hdr.Append(b)
	b = ts.Append(b)
	b = d.Append(b)
	return hb.Append(b)
}

// readTypical parses every submessage of msg into the reused structs.
func readTypical(r *Reader, msg []byte, ts *InfoTS, d *Data, hb *Heartbeat) error {
	if err := r.Reset(msg); err != nil {
		return err
	}
	for r.Next() {
		var err error
		switch r.Kind() {
		case KindInfoTS:
			err = r.InfoTS(ts)
		case KindData:
			err = r.Data(d)
		case KindHeartbeat:
			err = r.Heartbeat(hb)
		default:
		}
		if err != nil {
			return err
		}
	}
	return r.Err()
}

func TestTypicalMessageRoundTrip(t *testing.T) {
	hdr, ts, d, hb := typicalDataMessage()
	msg := appendTypical(nil, &hdr, &ts, &d, &hb)
	require.Len(t, msg, HeaderLen+ts.Len()+d.Len()+hb.Len())
	var r Reader
	var ts2 InfoTS
	var d2 Data
	var hb2 Heartbeat
	require.NoError(t, readTypical(&r, msg, &ts2, &d2, &hb2))
	require.Equal(t, hdr, r.Header)
	require.Equal(t, ts, ts2)
	require.Equal(t, d, d2)
	require.Equal(t, hb, hb2)
}

func TestParseAllocs(t *testing.T) {
	hdr, ts, d, hb := typicalDataMessage()
	msg := appendTypical(nil, &hdr, &ts, &d, &hb)
	var r Reader
	var ts2 InfoTS
	var d2 Data
	var hb2 Heartbeat
	allocs := testing.AllocsPerRun(100, func() {
		if err := readTypical(&r, msg, &ts2, &d2, &hb2); err != nil {
			t.Fatal(err)
		}
	})
	require.Zero(t, allocs)

	// Every other kind, into reused structs, also without allocating (an
	// INFO_REPLY reuses its locator slices once they have grown).
	var all []byte
	all = Header{}.Append(all)
	all[4] = 2
	for _, c := range submessageCases {
		all = c.sm.Append(all)
	}
	var s subs
	allocs = testing.AllocsPerRun(100, func() {
		if err := r.Reset(all); err != nil {
			t.Fatal(err)
		}
		for r.Next() {
			if _, err := s.decodeCurrent(&r); err != nil {
				t.Fatal(err)
			}
		}
	})
	require.Zero(t, allocs)

	// The error path does not allocate either.
	bad := wireHex("07 01 1c00 | 00000407 00000402 | 00000000 00000000 | 00000000 05000000 | 03000000")
	allocs = testing.AllocsPerRun(100, func() {
		if _, _, err := ParseHeartbeat(bad); err == nil {
			t.Fatal("no error")
		}
	})
	require.Zero(t, allocs)
}

func TestAppendAllocs(t *testing.T) {
	hdr, ts, d, hb := typicalDataMessage()
	buf := make([]byte, 0, 1500)
	allocs := testing.AllocsPerRun(100, func() {
		buf = appendTypical(buf[:0], &hdr, &ts, &d, &hb)
	})
	require.Zero(t, allocs)

	w := Builder{Buf: make([]byte, 0, 1500)}
	allocs = testing.AllocsPerRun(100, func() {
		w.Reset(hdr)
		w.Buf = ts.Append(w.Buf)
		w.Buf = d.Append(w.Buf)
		w.Buf = hb.Append(w.Buf)
	})
	require.Zero(t, allocs)
	require.Equal(t, buf, w.Bytes())
}

// dataMessageN is typicalDataMessage with a serialized payload of n bytes.
func dataMessageN(n int) (Header, InfoTS, Data, Heartbeat) {
	hdr, ts, d, hb := typicalDataMessage()
	payload := make([]byte, n)
	payload[1] = 0x01
	d.SerializedPayload = payload
	return hdr, ts, d, hb
}

// BenchmarkParseDataMessage parses header + INFO_TS + DATA + HEARTBEAT into reused
// structs, with a 64-byte payload (interop::Sample size) and a 1 KiB octet sequence.
func BenchmarkParseDataMessage(b *testing.B) {
	for _, n := range []int{64, 4 + 4 + 1024} {
		b.Run(payloadName(n), func(b *testing.B) {
			hdr, ts, d, hb := dataMessageN(n)
			msg := appendTypical(nil, &hdr, &ts, &d, &hb)
			var r Reader
			var ts2 InfoTS
			var d2 Data
			var hb2 Heartbeat
			b.ReportAllocs()
			b.SetBytes(int64(len(msg)))
			for b.Loop() {
				if err := readTypical(&r, msg, &ts2, &d2, &hb2); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAppendDataMessage appends the same message into a reused buffer.
func BenchmarkAppendDataMessage(b *testing.B) {
	for _, n := range []int{64, 4 + 4 + 1024} {
		b.Run(payloadName(n), func(b *testing.B) {
			hdr, ts, d, hb := dataMessageN(n)
			buf := make([]byte, 0, 2048)
			b.ReportAllocs()
			b.SetBytes(int64(HeaderLen + ts.Len() + d.Len() + hb.Len()))
			for b.Loop() {
				buf = appendTypical(buf[:0], &hdr, &ts, &d, &hb)
			}
		})
	}
}

func payloadName(n int) string {
	if n == 64 {
		return "sample64B"
	}
	return "octets1KiB"
}
