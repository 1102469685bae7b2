package rtps_test

import (
	"fmt"
	"time"

	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/wire"
)

// queue is a Sender that keeps datagrams until route delivers them: a
// Sender must not deliver synchronously.
type queue struct{ msgs [][]byte }

func (q *queue) Send(msg []byte, _ []wire.Locator) {
	q.msgs = append(q.msgs, append([]byte(nil), msg...))
}

// route plays the participant's receiver for one writer and one reader.
func route(q *queue, w *rtps.Writer, r *rtps.Reader, now time.Time) {
	for len(q.msgs) > 0 {
		msg := q.msgs[0]
		q.msgs = q.msgs[1:]
		var (
			rd wire.Reader
			ts wire.InfoTS
			d  wire.Data
			hb wire.Heartbeat
			a  wire.AckNack
		)
		if rd.Reset(msg) != nil {
			continue
		}
		src := rd.Header.Prefix
		for rd.Next() {
			switch rd.Kind() {
			case wire.KindInfoTS:
				_ = rd.InfoTS(&ts)
			case wire.KindData:
				if rd.Data(&d) == nil {
					r.HandleData(src, &d, ts.Timestamp, now)
				}
			case wire.KindHeartbeat:
				if rd.Heartbeat(&hb) == nil {
					r.HandleHeartbeat(src, &hb, now)
				}
			case wire.KindAckNack:
				if rd.AckNack(&a) == nil {
					w.HandleAckNack(src, &a, now)
				}
			default: // not needed in this example
			}
		}
	}
}

// A reliable writer and reader exchanging a sample; the acknowledgment,
// asked for by the periodic HEARTBEAT, frees the writer's history.
func Example() {
	now := time.Unix(1_700_000_000, 0)
	loc := []wire.Locator{{Kind: wire.LocatorKindUDPv4, Port: 7411}}
	wg := wire.GUID{Prefix: wire.GuidPrefix{1}, Entity: wire.EntityIDFromUint32(0x103)}
	rg := wire.GUID{Prefix: wire.GuidPrefix{2}, Entity: wire.EntityIDFromUint32(0x104)}
	var q queue

	w := rtps.NewWriter(rtps.WriterConfig{GUID: wg, Reliable: true, History: rtps.HistoryConfig{KeepAll: true}}, &q)
	r := rtps.NewReader(rtps.ReaderConfig{GUID: rg, Reliable: true}, func(s *rtps.Sample) bool {
		fmt.Printf("sample %d from %v: % x\n", s.SN, s.Writer.Entity, s.Payload)
		return true // false would refuse it: the reader would ask for it again
	}, &q)
	w.AddReader(rtps.ReaderProxyInfo{GUID: rg, Reliable: true, Unicast: loc}, now)
	r.AddWriter(rtps.WriterProxyInfo{GUID: wg, Reliable: true, Unicast: loc}, now)
	// The reader's pre-emptive ACKNACK and the writer's HEARTBEAT in answer.
	route(&q, w, r, now)

	sn, _ := w.Write(rtps.Change{Payload: []byte{0, 1, 0, 0, 42, 0, 0, 0}, Timestamp: wire.TimeFromTime(now)}, now)
	route(&q, w, r, now)
	fmt.Println("acknowledged:", w.AckedByAll(sn), "history:", w.HistoryLen())

	// The HEARTBEAT that went with the sample was final: the reader, missing nothing,
	// stayed quiet. The periodic HEARTBEAT asks for the acknowledgment.
	now = now.Add(100 * time.Millisecond)
	w.Tick(now)
	route(&q, w, r, now)
	fmt.Println("acknowledged:", w.AckedByAll(sn), "history:", w.HistoryLen())
	// Output:
	// sample 1 from 00000103: 00 01 00 00 2a 00 00 00
	// acknowledged: false history: 1
	// acknowledged: true history: 0
}
