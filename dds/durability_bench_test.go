package dds

import (
	"os"
	"testing"

	"github.com/ddsgo/ddsgo/qos"
)

// BenchmarkDurableWrite is the cost of a write by durability kind, on the in-process
// fake engine with no reader: TRANSIENT_LOCAL (the reference), TRANSIENT (the durability
// service's model), PERSISTENT (a copy and an fsync'd bbolt transaction per write, in
// DDSGO_BENCH_DIR or else a temporary directory).
func BenchmarkDurableWrite(b *testing.B) {
	for _, k := range []qos.DurabilityKind{qos.TransientLocal, qos.Transient, qos.Persistent} {
		b.Run(k.String(), func(b *testing.B) {
			dir := b.TempDir()
			if d := os.Getenv("DDSGO_BENCH_DIR"); d != "" {
				var err error
				if dir, err = os.MkdirTemp(d, "bench"); err != nil {
					b.Fatal(err)
				}
				defer func() { _ = os.RemoveAll(dir) }()
			}
			p, err := NewParticipant(0, withEngine((&fakeNet{}).factory()), PersistenceDir(dir))
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close()
			tp, err := NewTopic[point](p, "durable")
			if err != nil {
				b.Fatal(err)
			}
			wq := durableWriterQos(k, 1)
			w, err := NewWriter(tp, WithQos(wq))
			if err != nil {
				b.Fatal(err)
			}
			v := point{ID: 1}
			b.ReportAllocs()
			for b.Loop() {
				v.X++
				if err := w.Write(bg, &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
