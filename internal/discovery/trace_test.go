package discovery

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/transport/memnet"
	"github.com/ddsgo/ddsgo/qos"
)

// recorder is a slog.Handler that keeps the records, their attributes
// flattened to "group.key" -> value text.
type recorder struct {
	mu   sync.Mutex
	recs []record
}

type record struct {
	level slog.Level
	msg   string
	attrs map[string]string
}

func (h *recorder) Enabled(context.Context, slog.Level) bool { return true }

func (h *recorder) Handle(_ context.Context, r slog.Record) error {
	rec := record{level: r.Level, msg: r.Message, attrs: map[string]string{}}
	var add func(prefix string, a slog.Attr)
	add = func(prefix string, a slog.Attr) {
		if a.Value.Kind() == slog.KindGroup {
			for _, g := range a.Value.Group() {
				add(prefix+a.Key+".", g)
			}
			return
		}
		rec.attrs[prefix+a.Key] = a.Value.String()
	}
	r.Attrs(func(a slog.Attr) bool { add("", a); return true })
	h.mu.Lock()
	h.recs = append(h.recs, rec)
	h.mu.Unlock()
	return nil
}

func (h *recorder) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *recorder) WithGroup(string) slog.Handler      { return h }

// find returns the records with message msg whose attributes include want.
func (h *recorder) find(msg string, want map[string]string) []record {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []record
next:
	for _, r := range h.recs {
		if r.msg != msg {
			continue
		}
		for k, v := range want {
			if r.attrs[k] != v {
				continue next
			}
		}
		out = append(out, r)
	}
	return out
}

func (h *recorder) above(level slog.Level) []record {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []record
	for _, r := range h.recs {
		if r.level > level {
			out = append(out, r)
		}
	}
	return out
}

// TestDebugLog: every discovery and matching decision is in the Debug log,
// with the reason of a non-match; nothing is logged above Debug.
func TestDebugLog(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := memNet(t, memnet.Config{Seed: 6})
		var log recorder
		a, _ := memParticipant(t, n, "a", "10.0.0.1", func(c *Config) { c.Logger = slog.New(&log) })
		b, hb := memParticipant(t, n, "b", "10.0.0.2", func(c *Config) { c.LeaseDuration = 2 * time.Second })
		waitFor(t, 2*time.Second, func() bool { return len(a.Participants()) == 1 })
		bp := b.GUIDPrefix().String()
		require.Len(t, log.find("discovery: participant discovered", map[string]string{"participant": bp}), 1)

		accept := func(*rtps.Sample) bool { return true }
		// Matched: a reliable writer and a reliable reader.
		w, err := a.NewWriter(EndpointConfig{Topic: "ok", Type: "T", Offered: reliableWriter()})
		require.NoError(t, err)
		r, err := b.NewReader(EndpointConfig{Topic: "ok", Type: "T", Requested: reliableReader()}, accept)
		require.NoError(t, err)
		// Not matched: best effort offered, reliable and transient-local
		// requested; another type name; another partition.
		bw := qos.DefaultOffered()
		bw.Writer.Reliability.Kind = qos.BestEffort
		w2, err := a.NewWriter(EndpointConfig{Topic: "qos", Type: "T", Offered: bw})
		require.NoError(t, err)
		rq := reliableReader()
		rq.Reader.Durability.Kind = qos.TransientLocal
		_, err = b.NewReader(EndpointConfig{Topic: "qos", Type: "T", Requested: rq}, accept)
		require.NoError(t, err)
		_, err = b.NewReader(EndpointConfig{Topic: "ok", Type: "U", Requested: reliableReader()}, accept)
		require.NoError(t, err)
		pq := reliableReader()
		pq.Subscriber.Partition.Name = []string{"p"}
		_, err = b.NewReader(EndpointConfig{Topic: "ok", Type: "T", Requested: pq}, accept)
		require.NoError(t, err)
		waitFor(t, 2*time.Second, func() bool { return len(log.find("discovery: endpoint discovered", nil)) == 4 })

		wg, rg := w.GUID().String(), r.GUID().String()
		require.Len(t, log.find("discovery: endpoint discovered", map[string]string{
			"endpoint": rg, "kind": "reader", "topic": "ok", "type": "T", "keyed": "false",
		}), 1)
		require.Len(t, log.find("discovery: matched", map[string]string{"local": wg, "remote": rg, "topic": "ok"}), 1)
		require.Len(t, log.find("discovery: not matched", map[string]string{
			"local": w2.GUID().String(), "topic": "qos", "reason": "incompatible QoS",
			"Durability.offered": "VOLATILE", "Durability.requested": "TRANSIENT_LOCAL",
			"Reliability.offered": "BEST_EFFORT", "Reliability.requested": "RELIABLE",
		}), 1)
		require.Len(t, log.find("discovery: not matched", map[string]string{
			"local": wg, "reason": "type name", "writer_type": "T", "reader_type": "U",
		}), 1)
		require.Len(t, log.find("discovery: not matched", map[string]string{
			"local": wg, "reason": "partition", "writer_partitions": "[]", "reader_partitions": "[p]",
		}), 1)

		// b's reader goes: unmatched; then b's lease runs out: lost.
		require.NoError(t, r.Close())
		waitFor(t, 2*time.Second, func() bool {
			return len(log.find("discovery: unmatched", map[string]string{"local": wg, "remote": rg, "reason": "endpoint gone"})) == 1
		})
		hb.SetDown(true)
		waitFor(t, 5*time.Second, func() bool {
			return len(log.find("discovery: participant lost", map[string]string{"participant": bp, "reason": "lease"})) == 1
		})
		// b comes back, then leaves for good: it disposes itself.
		hb.SetDown(false)
		waitFor(t, 10*time.Second, func() bool {
			return len(log.find("discovery: participant discovered", map[string]string{"participant": bp})) == 2
		})
		require.NoError(t, b.Close())
		waitFor(t, 2*time.Second, func() bool {
			return len(log.find("discovery: participant lost", map[string]string{"participant": bp, "reason": "dispose"})) == 1
		})
		require.Empty(t, log.above(slog.LevelDebug))
	})
}
