package rtps

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/golden"
	"github.com/ddsgo/ddsgo/internal/wire"
)

// TestGoldenReplay replays the user traffic of every capture of Cyclone DDS
// and Fast DDS into readers matched with each user writer seen: the samples
// (fragmented ones included) come out in order, nothing is reported
// malformed, and the dispose captures yield not-alive changes with a key.
func TestGoldenReplay(t *testing.T) {
	for _, name := range golden.Files() {
		t.Run(name, func(t *testing.T) {
			msgs, err := golden.RTPS(name)
			require.NoError(t, err)
			type key = wire.GUID
			readers := map[key]*Reader{}
			last := map[key]wire.SequenceNumber{}
			notAlive := 0
			delivered := 0
			now := time.Unix(1_700_000_000, 0)
			reader := func(src wire.GuidPrefix, writer wire.EntityID) *Reader {
				if writer.IsBuiltin() || !writer.IsWriter() {
					return nil
				}
				g := wire.GUID{Prefix: src, Entity: writer}
				if r := readers[g]; r != nil {
					return r
				}
				r := NewReader(ReaderConfig{GUID: wire.GUID{Prefix: localPrefix, Entity: wire.EntityIDFromUint32(testReaderID)}, Reliable: true},
					func(s *Sample) bool {
						require.Greater(t, s.SN, last[g], "%v out of order", g)
						last[g] = s.SN
						delivered++
						if s.Kind != Alive {
							notAlive++
							require.True(t, s.HasKeyHash || len(s.Payload) > 0, "not-alive change without key")
						}
						return true
					}, &discard{})
				r.AddWriter(WriterProxyInfo{GUID: g, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
				readers[g] = r
				return r
			}
			var (
				rd wire.Reader
				ts wire.InfoTS
				d  wire.Data
				df wire.DataFrag
				hb wire.Heartbeat
				hf wire.HeartbeatFrag
				g  wire.Gap
			)
			for _, m := range msgs {
				require.NoError(t, rd.Reset(m.Payload))
				src := rd.Header.Prefix
				stamp := wire.TimeInvalid
				for rd.Next() {
					switch rd.Kind() {
					case wire.KindInfoTS:
						require.NoError(t, rd.InfoTS(&ts))
						stamp = ts.Timestamp
					case wire.KindData:
						require.NoError(t, rd.Data(&d))
						d.ReaderID = wire.EntityIDUnknown // the capture's reader ids are not ours
						if r := reader(src, d.WriterID); r != nil {
							r.HandleData(src, &d, stamp, now)
						}
					case wire.KindDataFrag:
						require.NoError(t, rd.DataFrag(&df))
						df.ReaderID = wire.EntityIDUnknown
						if r := reader(src, df.WriterID); r != nil {
							r.HandleDataFrag(src, &df, stamp, now)
						}
					case wire.KindHeartbeat:
						require.NoError(t, rd.Heartbeat(&hb))
						hb.ReaderID = wire.EntityIDUnknown
						if r := reader(src, hb.WriterID); r != nil {
							r.HandleHeartbeat(src, &hb, now)
						}
					case wire.KindHeartbeatFrag:
						require.NoError(t, rd.HeartbeatFrag(&hf))
						hf.ReaderID = wire.EntityIDUnknown
						if r := reader(src, hf.WriterID); r != nil {
							r.HandleHeartbeatFrag(src, &hf, now)
						}
					case wire.KindGap:
						require.NoError(t, rd.Gap(&g))
						g.ReaderID = wire.EntityIDUnknown
						if r := reader(src, g.WriterID); r != nil {
							r.HandleGap(src, &g, now)
						}
					default:
					}
				}
			}
			for g, r := range readers {
				s := r.Stats()
				require.Zero(t, s.BadFragments+s.Oversize+s.BadInlineQoS+s.ReassemblyDropped, "%v: %+v", g, s)
				require.Zero(t, r.MemoryInUse(), "%v: incomplete samples left", g)
			}
			t.Logf("%d writers, %d samples delivered, %d not alive", len(readers), delivered, notAlive)
			require.NotZero(t, delivered)
			if strings.Contains(name, "dispose") || strings.Contains(name, "unregister") {
				require.NotZero(t, notAlive)
			}
		})
	}
}
