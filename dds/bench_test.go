package dds

import (
	"net/netip"
	"testing"

	"github.com/ddsgo/ddsgo/internal/transport/memnet"
	"github.com/ddsgo/ddsgo/rtps"
)

// BenchmarkWriteTake is the API's share of a sample's way: write (serialize, hand to
// the engine), delivery into the reader's cache and take, on the in-process fake
// engine, so that no network is timed.
func BenchmarkWriteTake(b *testing.B) {
	p, err := NewParticipant(0, withEngine((&fakeNet{}).factory()))
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	w, r := benchEndpoints(b, p, p, "points")
	data := make([]point, 8)
	infos := make([]SampleInfo, 8)
	v := point{ID: 1}
	b.ReportAllocs()
	for b.Loop() {
		v.X++
		if err := w.Write(bg, &v); err != nil {
			b.Fatal(err)
		}
		if n, err := r.TakeInto(bg, data, infos, NoWait()); err != nil || n != 1 {
			b.Fatal(n, err)
		}
	}
}

// BenchmarkWriteTakeRTPS is BenchmarkWriteTake through the real engine on the
// in-memory network: RTPS messages, reliable protocol, two participants.
func BenchmarkWriteTakeRTPS(b *testing.B) {
	n, err := memnet.New(memnet.Config{Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer n.Close()
	var ps [2]*DomainParticipant
	for i, addr := range []string{"10.0.0.1", "10.0.0.2"} {
		h, err := n.AddHost(addr, netip.MustParseAddr(addr))
		if err != nil {
			b.Fatal(err)
		}
		if ps[i], err = NewParticipant(7, withNet(h), WithRTPS(rtps.Config{Name: addr})); err != nil {
			b.Fatal(err)
		}
		defer ps[i].Close()
	}
	w, r := benchEndpoints(b, ps[0], ps[1], "bench", TransientLocal())
	var v, got [1]point
	var infos [1]SampleInfo
	// Wait for the match: the first sample, kept for late joiners, arrives.
	if err := w.Write(bg, &v[0]); err != nil {
		b.Fatal(err)
	}
	if _, err := r.TakeInto(bg, got[:], infos[:]); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		v[0].X++
		if err := w.Write(bg, &v[0]); err != nil {
			b.Fatal(err)
		}
		if _, err := r.TakeInto(bg, got[:], infos[:]); err != nil {
			b.Fatal(err)
		}
	}
}

// benchEndpoints makes a reader of the topic name on pr and a writer of it on pw (one
// participant or two), reliable, KEEP_ALL and opts.
func benchEndpoints(b testing.TB, pw, pr *DomainParticipant, name string, opts ...Option) (*DataWriter[point], *DataReader[point]) {
	opts = append([]Option{Reliable(), KeepAll()}, opts...)
	tw, err := NewTopic[point](pw, name, opts...)
	if err != nil {
		b.Fatal(err)
	}
	tr := tw
	if pr != pw {
		if tr, err = NewTopic[point](pr, name, opts...); err != nil {
			b.Fatal(err)
		}
	}
	r, err := NewReader(tr)
	if err != nil {
		b.Fatal(err)
	}
	w, err := NewWriter(tw)
	if err != nil {
		b.Fatal(err)
	}
	return w, r
}
