package cdr

import "testing"

// benchSample is interop::Sample with a typical payload: a short string, 8 doubles.
func benchSample() Sample {
	return Sample{ID: 42, Text: "ddsgo 42 1000", Values: []float64{1, 2, 3, 4, 5, 6, 7, 8}, Seq: 1000}
}

type octets struct {
	ID   int32 `dds:"key"`
	Data []byte
}

// benchEncode measures Marshal of v in XCDR1; size is the byte count per op (0: the
// payload's length).
func benchEncode[T any](b *testing.B, v T, size int64) {
	c := MustCodec[T]()
	buf := make([]byte, 0, 2048)
	if size > 0 {
		b.SetBytes(size)
	}
	b.ReportAllocs()
	for b.Loop() {
		out, _ := c.Marshal(buf[:0], CDRLE, &v)
		buf = out // keeps a buffer grown by a large payload
		if size == 0 {
			b.SetBytes(int64(len(out)))
		}
	}
}

// benchDecode measures Unmarshal of v's XCDR1 payload into a reused value; size as for
// benchEncode.
func benchDecode[T any](b *testing.B, v T, size int64) {
	c := MustCodec[T]()
	payload, _ := c.Marshal(nil, CDRLE, &v)
	var out T
	if size == 0 {
		size = int64(len(payload))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Unmarshal(payload, &out); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCDREncodeSample(b *testing.B) { benchEncode(b, benchSample(), 0) }

func BenchmarkCDRDecodeSample(b *testing.B) { benchDecode(b, benchSample(), 0) }

func BenchmarkCDREncodeOctets1K(b *testing.B) {
	benchEncode(b, octets{ID: 1, Data: make([]byte, 1024)}, 1024)
}

func BenchmarkCDRDecodeOctets1K(b *testing.B) {
	benchDecode(b, octets{ID: 1, Data: make([]byte, 1024)}, 1024)
}

func BenchmarkKeyHash(b *testing.B) {
	c := MustCodec[Sample]()
	v := benchSample()
	b.ReportAllocs()
	for b.Loop() {
		_ = c.KeyHash(&v)
	}
}

type benchTime struct {
	Sec     int32
	Nanosec uint32
}

type benchTransform struct {
	Translation struct{ X, Y, Z float64 }
	Rotation    struct{ X, Y, Z, W float64 }
}

// benchStamped has the layout of geometry_msgs/TransformStamped.
type benchStamped struct {
	Header struct {
		Stamp   benchTime
		FrameID string
	}
	ChildFrameID string
	Transform    benchTransform
}

// BenchmarkCDREncodeTF1K encodes a tf2_msgs/TFMessage of 1,000 transforms, as /tf of a
// simulated world.
func BenchmarkCDREncodeTF1K(b *testing.B) {
	var v struct{ Transforms []benchStamped }
	for i := range 1000 {
		var ts benchStamped
		ts.Header.FrameID, ts.ChildFrameID = "world", "model_"+string(rune('a'+i%26))
		ts.Transform.Rotation.W = 1
		v.Transforms = append(v.Transforms, ts)
	}
	benchEncode(b, v, 0)
}
