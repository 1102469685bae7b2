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

func BenchmarkCDREncodeSample(b *testing.B) {
	c := MustCodec[Sample]()
	v := benchSample()
	buf := make([]byte, 0, 1024)
	b.ReportAllocs()
	for b.Loop() {
		out, _ := c.Marshal(buf[:0], CDRLE, &v)
		b.SetBytes(int64(len(out)))
	}
}

func BenchmarkCDRDecodeSample(b *testing.B) {
	c := MustCodec[Sample]()
	v := benchSample()
	payload, _ := c.Marshal(nil, CDRLE, &v)
	var out Sample
	b.SetBytes(int64(len(payload)))
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Unmarshal(payload, &out); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCDREncodeOctets1K(b *testing.B) {
	c := MustCodec[octets]()
	v := octets{ID: 1, Data: make([]byte, 1024)}
	buf := make([]byte, 0, 2048)
	b.SetBytes(1024)
	b.ReportAllocs()
	for b.Loop() {
		_, _ = c.Marshal(buf[:0], CDRLE, &v)
	}
}

func BenchmarkCDRDecodeOctets1K(b *testing.B) {
	c := MustCodec[octets]()
	payload, _ := c.Marshal(nil, CDRLE, &octets{ID: 1, Data: make([]byte, 1024)})
	var out octets
	b.SetBytes(1024)
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Unmarshal(payload, &out); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkKeyHash(b *testing.B) {
	c := MustCodec[Sample]()
	v := benchSample()
	b.ReportAllocs()
	for b.Loop() {
		_ = c.KeyHash(&v)
	}
}
