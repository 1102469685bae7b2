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
			g := goldenReplay{t: t, readers: map[wire.GUID]*Reader{}, last: map[wire.GUID]wire.SequenceNumber{}, now: time.Unix(1_700_000_000, 0)}
			for _, m := range msgs {
				g.message(m.Payload)
			}
			for w, r := range g.readers {
				s := r.Stats()
				require.Zero(t, s.BadFragments+s.Oversize+s.BadInlineQoS+s.ReassemblyDropped, "%v: %+v", w, s)
				require.Zero(t, r.MemoryInUse(), "%v: incomplete samples left", w)
			}
			t.Logf("%d writers, %d samples delivered, %d not alive", len(g.readers), g.delivered, g.notAlive)
			require.NotZero(t, g.delivered)
			if strings.Contains(name, "dispose") || strings.Contains(name, "unregister") {
				require.NotZero(t, g.notAlive)
			}
		})
	}
}

// goldenReplay hands the reader-bound submessages of captured messages to a
// reader for each user writer, which checks the samples it gets.
type goldenReplay struct {
	t         *testing.T
	rx        receiver
	readers   map[wire.GUID]*Reader // by writer
	last      map[wire.GUID]wire.SequenceNumber
	notAlive  int
	delivered int
	now       time.Time
}

// message replays one captured message.
func (g *goldenReplay) message(b []byte) {
	rx := &g.rx
	require.NoError(g.t, rx.rd.Reset(b))
	st := rxState{src: rx.rd.Header.Prefix, vendor: rx.rd.Header.Vendor, ts: wire.TimeInvalid}
	for rx.rd.Next() {
		switch kind := rx.rd.Kind(); kind {
		case wire.KindInfoTS:
			require.NoError(g.t, rx.info(kind, &st, localPrefix))
		case wire.KindData, wire.KindDataFrag, wire.KindHeartbeat, wire.KindHeartbeatFrag, wire.KindGap:
			writer, _, err := rx.decodeToReader(kind)
			require.NoError(g.t, err)
			if r := g.reader(st.src, writer); r != nil {
				g.unaddress(kind) // the capture's reader ids are not ours
				rx.deliver(r, kind, &st, g.now)
			}
		default:
		}
	}
}

// unaddress sets the reader id of the reader-bound submessage of kind in rx
// to UNKNOWN.
func (g *goldenReplay) unaddress(kind wire.SubmessageKind) {
	switch kind {
	case wire.KindData:
		g.rx.data.ReaderID = wire.EntityIDUnknown
	case wire.KindDataFrag:
		g.rx.frag.ReaderID = wire.EntityIDUnknown
	case wire.KindHeartbeat:
		g.rx.hb.ReaderID = wire.EntityIDUnknown
	case wire.KindHeartbeatFrag:
		g.rx.hbf.ReaderID = wire.EntityIDUnknown
	case wire.KindGap:
		g.rx.gap.ReaderID = wire.EntityIDUnknown
	default:
	}
}

// reader returns the reader of the user writer (src, writer), nil for
// builtin ones.
func (g *goldenReplay) reader(src wire.GuidPrefix, writer wire.EntityID) *Reader {
	if writer.IsBuiltin() || !writer.IsWriter() {
		return nil
	}
	w := wire.GUID{Prefix: src, Entity: writer}
	if r := g.readers[w]; r != nil {
		return r
	}
	r := NewReader(ReaderConfig{GUID: wire.GUID{Prefix: localPrefix, Entity: wire.EntityIDFromUint32(testReaderID)}, Reliable: true},
		func(s *Sample) bool {
			require.Greater(g.t, s.SN, g.last[w], "%v out of order", w)
			g.last[w] = s.SN
			g.delivered++
			if s.Kind != Alive {
				g.notAlive++
				require.True(g.t, s.HasKeyHash || len(s.Payload) > 0, "not-alive change without key")
			}
			return true
		}, &discard{})
	r.AddWriter(WriterProxyInfo{GUID: w, Reliable: true, Unicast: []wire.Locator{testLoc}}, g.now)
	g.readers[w] = r
	return r
}
