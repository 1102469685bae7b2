package rtps

import (
	"errors"
	"time"

	"github.com/ddsgo/ddsgo/internal/wire"
)

// receiver is the interpreter state and the reused submessage structs of
// one goroutine's receive path (the event loop's, or a socket's), so that
// routing a datagram allocates nothing.
type receiver struct {
	rd      wire.Reader
	dst     wire.InfoDst
	src     wire.InfoSrc
	its     wire.InfoTS
	data    wire.Data
	frag    wire.DataFrag
	hb      wire.Heartbeat
	hbf     wire.HeartbeatFrag
	gap     wire.Gap
	ack     wire.AckNack
	nack    wire.NackFrag
	targets []*Reader
}

func (rx *receiver) init() { rx.targets = make([]*Reader, 0, 8) }

// route returns the local readers a reader-bound submessage of the writer
// (src, writer) goes to: all those matched with it for readerId UNKNOWN,
// else the one named if it is matched. The slice is reused.
func (e *Engine) route(rx *receiver, src wire.GuidPrefix, writer, reader wire.EntityID) []*Reader {
	ts := rx.targets[:0]
	e.regMu.RLock()
	for _, r := range e.matches[wire.GUID{Prefix: src, Entity: writer}] {
		if reader == wire.EntityIDUnknown || r.cfg.GUID.Entity == reader {
			ts = append(ts, r)
		}
	}
	e.regMu.RUnlock()
	if len(ts) == 0 {
		e.stats.unknownWriter.Add(1)
	}
	rx.targets = ts
	return ts
}

// release clears the routing scratch so that it pins no reader.
func (e *Engine) release(ts []*Reader) {
	clear(ts)
}

// writerFor returns the local writer an ACKNACK or NACK_FRAG names.
func (e *Engine) writerFor(id wire.EntityID) *Writer {
	e.regMu.RLock()
	w := e.writers[id]
	e.regMu.RUnlock()
	if w == nil {
		e.stats.unknownReader.Add(1)
	}
	return w
}

// rawFor returns the raw handler of DATA from writer id, if any.
func (e *Engine) rawFor(id wire.EntityID) RawDataHandler {
	if !id.IsBuiltin() {
		return nil
	}
	e.regMu.RLock()
	h := e.raw[id]
	e.regMu.RUnlock()
	return h
}

// receive parses one datagram and routes its submessages (RTPS 2.5
// §8.3.4) with the scratch state rx of the calling goroutine. local says
// it was sent by this participant to itself.
func (e *Engine) receive(rx *receiver, b []byte, local bool) {
	e.stats.datagrams.Add(1)
	if local {
		e.stats.local.Add(1)
	}
	if err := rx.rd.Reset(b); err != nil {
		if errors.Is(err, wire.ErrNotRTPS) {
			e.stats.notRTPS.Add(1)
		} else {
			e.stats.malformed.Add(1)
		}
		return
	}
	src := rx.rd.Header.Prefix
	vendor := rx.rd.Header.Vendor
	if src == e.prefix && !local {
		e.stats.ownEcho.Add(1)
		return
	}
	now := e.now()
	if src != e.prefix && e.cfg.OnTraffic != nil {
		e.cfg.OnTraffic(src, now)
	}
	forMe := true
	ts := wire.TimeInvalid
	for rx.rd.Next() {
		var err error
		kind := rx.rd.Kind()
		switch kind {
		case wire.KindInfoDst:
			if err = rx.rd.InfoDst(&rx.dst); err == nil {
				forMe = rx.dst.GuidPrefix == wire.GuidPrefixUnknown || rx.dst.GuidPrefix == e.prefix
			}
		case wire.KindInfoSrc:
			if err = rx.rd.InfoSrc(&rx.src); err == nil {
				src, vendor = rx.src.GuidPrefix, rx.src.Vendor
				forMe, ts = true, wire.TimeInvalid
			}
		case wire.KindInfoTS:
			if err = rx.rd.InfoTS(&rx.its); err == nil {
				ts = rx.its.Timestamp
				if rx.its.Invalidate {
					ts = wire.TimeInvalid
				}
			}
		case wire.KindData, wire.KindDataFrag, wire.KindHeartbeat, wire.KindHeartbeatFrag,
			wire.KindGap, wire.KindAckNack, wire.KindNackFrag:
			if !forMe {
				e.stats.otherDst.Add(1)
				continue
			}
			err = e.entity(rx, kind, src, vendor, ts, now)
		default: // INFO_REPLY, PAD, vendor-specific and unknown kinds
			e.stats.unknownKind.Add(1)
		}
		if err != nil {
			e.stats.malformed.Add(1)
			return // RTPS 2.5 §8.3.4.1: drop the rest of the message
		}
	}
	if rx.rd.Err() != nil {
		e.stats.malformed.Add(1)
	}
}

// entity decodes and routes the current entity submessage.
func (e *Engine) entity(rx *receiver, kind wire.SubmessageKind, src wire.GuidPrefix, vendor wire.VendorID, ts wire.Time, now time.Time) error {
	switch kind {
	case wire.KindData:
		d := &rx.data
		if err := rx.rd.Data(d); err != nil {
			return err
		}
		if h := e.rawFor(d.WriterID); h != nil {
			h(src, vendor, d, ts, now)
			return nil
		}
		rs := e.route(rx, src, d.WriterID, d.ReaderID)
		for _, r := range rs {
			r.HandleData(src, d, ts, now)
		}
		e.release(rs)
	case wire.KindDataFrag:
		d := &rx.frag
		if err := rx.rd.DataFrag(d); err != nil {
			return err
		}
		rs := e.route(rx, src, d.WriterID, d.ReaderID)
		for _, r := range rs {
			r.HandleDataFrag(src, d, ts, now)
		}
		e.release(rs)
	case wire.KindHeartbeat:
		h := &rx.hb
		if err := rx.rd.Heartbeat(h); err != nil {
			return err
		}
		rs := e.route(rx, src, h.WriterID, h.ReaderID)
		for _, r := range rs {
			r.HandleHeartbeat(src, h, now)
		}
		e.release(rs)
	case wire.KindHeartbeatFrag:
		h := &rx.hbf
		if err := rx.rd.HeartbeatFrag(h); err != nil {
			return err
		}
		rs := e.route(rx, src, h.WriterID, h.ReaderID)
		for _, r := range rs {
			r.HandleHeartbeatFrag(src, h, now)
		}
		e.release(rs)
	case wire.KindGap:
		g := &rx.gap
		if err := rx.rd.Gap(g); err != nil {
			return err
		}
		rs := e.route(rx, src, g.WriterID, g.ReaderID)
		for _, r := range rs {
			r.HandleGap(src, g, now)
		}
		e.release(rs)
	case wire.KindAckNack:
		a := &rx.ack
		if err := rx.rd.AckNack(a); err != nil {
			return err
		}
		if w := e.writerFor(a.WriterID); w != nil {
			w.HandleAckNack(src, a, now)
		}
	case wire.KindNackFrag:
		n := &rx.nack
		if err := rx.rd.NackFrag(n); err != nil {
			return err
		}
		if w := e.writerFor(n.WriterID); w != nil {
			w.HandleNackFrag(src, n, now)
		}
	default:
	}
	return nil
}
