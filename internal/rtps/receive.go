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
	// route is a copy of the readers matched with the writer routeOf, as
	// Engine.matches had them at its change count routeGen: the submessages
	// of a datagram, and datagrams in a row, mostly come from one writer, and
	// the map hashes a 16-octet key under a lock every receiver shares. A
	// reader deleted stays in the copy until the next submessage routed.
	route    []*Reader
	routeOf  wire.GUID
	routeGen uint64
	// heard says that a submessage of the datagram being routed, from the
	// participant of its header, reached a local endpoint matched with the
	// sender's endpoint (see EngineConfig.OnTraffic).
	heard bool
}

func (rx *receiver) init() {
	rx.targets = make([]*Reader, 0, 8)
	rx.route = make([]*Reader, 0, 8)
}

// route returns the local readers a reader-bound submessage of the writer
// (src, writer) goes to: all those matched with it for readerId UNKNOWN,
// else the one named if it is matched. The slice is reused.
func (e *Engine) route(rx *receiver, src wire.GuidPrefix, writer, reader wire.EntityID) []*Reader {
	g := wire.GUID{Prefix: src, Entity: writer}
	if rx.routeOf != g || rx.routeGen != e.matchGen.Load() || rx.routeGen == 0 {
		e.regMu.RLock()
		rx.route = append(rx.route[:0], e.matches[g]...)
		rx.routeOf, rx.routeGen = g, e.matchGen.Load()
		e.regMu.RUnlock()
	}
	ts := rx.targets[:0]
	for _, r := range rx.route {
		if reader == wire.EntityIDUnknown || r.cfg.GUID.Entity == reader {
			ts = append(ts, r)
		}
	}
	if len(ts) == 0 {
		e.stats.unknownWriter.Add(1)
	} else if src == rx.rd.Header.Prefix {
		rx.heard = true
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
// it was sent by this participant to itself. The receiver state (src,
// vendor, forMe, ts) stays in locals: this is the hot path of every
// datagram.
func (e *Engine) receive(rx *receiver, b []byte, local bool) {
	e.stats.datagrams.Add(1)
	if local {
		e.stats.local.Add(1)
	}
	if err := rx.rd.Reset(b); err != nil {
		e.countUnreadable(err)
		return
	}
	src := rx.rd.Header.Prefix
	vendor := rx.rd.Header.Vendor
	if src == e.prefix && !local {
		e.stats.ownEcho.Add(1)
		return
	}
	now := e.now()
	rx.heard = false
	e.walk(rx, src, vendor, now)
	if src != e.prefix && e.cfg.OnTraffic != nil {
		e.cfg.OnTraffic(src, rx.heard, now)
	}
}

// walk routes the submessages of the datagram rx.rd was reset to, from
// the participant src of vendor (the header's), and counts a malformed one
// (RTPS 2.5 §8.3.4.1: the rest of the message is dropped).
func (e *Engine) walk(rx *receiver, src wire.GuidPrefix, vendor wire.VendorID, now time.Time) {
	forMe := true
	ts := wire.TimeInvalid
	for rx.rd.Next() {
		var err error
		switch kind := rx.rd.Kind(); kind {
		case wire.KindInfoDst:
			if err = rx.rd.InfoDst(&rx.dst); err == nil {
				forMe = addressedTo(&rx.dst, e.prefix)
			}
		case wire.KindInfoSrc:
			if err = rx.rd.InfoSrc(&rx.src); err == nil {
				src, vendor = rx.src.GuidPrefix, rx.src.Vendor
				forMe, ts = true, wire.TimeInvalid
			}
		case wire.KindInfoTS:
			if err = rx.rd.InfoTS(&rx.its); err == nil {
				ts = infoTime(&rx.its)
			}
		case wire.KindData, wire.KindDataFrag, wire.KindHeartbeat, wire.KindHeartbeatFrag,
			wire.KindGap, wire.KindAckNack, wire.KindNackFrag:
			if !forMe {
				e.stats.otherDst.Add(1)
				continue
			}
			err = e.entity(rx, kind, rxState{src: src, vendor: vendor, forMe: true, ts: ts}, now)
		default: // INFO_REPLY, PAD, vendor-specific and unknown kinds
			e.stats.unknownKind.Add(1)
		}
		if err != nil {
			e.stats.malformed.Add(1)
			return
		}
	}
	if rx.rd.Err() != nil {
		e.stats.malformed.Add(1)
	}
}

// countUnreadable counts a datagram whose header Reset refused with err.
func (e *Engine) countUnreadable(err error) {
	if errors.Is(err, wire.ErrNotRTPS) {
		e.stats.notRTPS.Add(1)
	} else {
		e.stats.malformed.Add(1)
	}
}

// rxState is what the INFO_* submessages of a message set for those after
// them (RTPS 2.5 §8.3.4, the receiver's state).
type rxState struct {
	src    wire.GuidPrefix
	vendor wire.VendorID
	forMe  bool      // no INFO_DST, or one naming this participant
	ts     wire.Time // of the last INFO_TS, or TimeInvalid
}

// entity routes the current entity submessage of kind, from st.src, to
// the local endpoints it is for.
func (e *Engine) entity(rx *receiver, kind wire.SubmessageKind, st rxState, now time.Time) error {
	switch kind {
	case wire.KindData: // the most frequent: without toReaders' dispatches on the kind
		d := &rx.data
		if err := rx.rd.Data(d); err != nil {
			return err
		}
		if h := e.rawFor(d.WriterID); h != nil {
			h(st.src, st.vendor, d, st.ts, now)
			return nil
		}
		rs := e.route(rx, st.src, d.WriterID, d.ReaderID)
		for _, r := range rs {
			r.HandleData(st.src, d, st.ts, now)
		}
		e.release(rs)
		return nil
	case wire.KindAckNack, wire.KindNackFrag:
		return e.toWriter(rx, kind, &st, now)
	default:
		return e.toReaders(rx, kind, &st, now)
	}
}

// addressedTo reports whether an INFO_DST names the participant self, or
// any participant.
func addressedTo(dst *wire.InfoDst, self wire.GuidPrefix) bool {
	return dst.GuidPrefix == wire.GuidPrefixUnknown || dst.GuidPrefix == self
}

// infoTime returns the source timestamp an INFO_TS gives, TimeInvalid when
// it invalidates it.
func infoTime(its *wire.InfoTS) wire.Time {
	if its.Invalidate {
		return wire.TimeInvalid
	}
	return its.Timestamp
}

// toWriter decodes an ACKNACK or NACK_FRAG and hands it to the local
// writer it names, if any.
func (e *Engine) toWriter(rx *receiver, kind wire.SubmessageKind, st *rxState, now time.Time) error {
	id, err := rx.decodeToWriter(kind)
	if err != nil {
		return err
	}
	if w := e.writerFor(id); w != nil && rx.deliverToWriter(w, kind, st, now) && st.src == rx.rd.Header.Prefix {
		rx.heard = true
	}
	return nil
}

// toReaders decodes a DATA_FRAG, HEARTBEAT, HEARTBEAT_FRAG or GAP and hands
// it to the local readers of its writer.
func (e *Engine) toReaders(rx *receiver, kind wire.SubmessageKind, st *rxState, now time.Time) error {
	writer, reader, err := rx.decodeToReader(kind)
	if err != nil {
		return err
	}
	rs := e.route(rx, st.src, writer, reader)
	for _, r := range rs {
		rx.deliver(r, kind, st, now)
	}
	e.release(rs)
	return nil
}

// decodeToWriter decodes the current ACKNACK or NACK_FRAG into its struct
// in rx and returns the writer id it names.
func (rx *receiver) decodeToWriter(kind wire.SubmessageKind) (wire.EntityID, error) {
	if kind == wire.KindNackFrag {
		err := rx.rd.NackFrag(&rx.nack)
		return rx.nack.WriterID, err
	}
	err := rx.rd.AckNack(&rx.ack)
	return rx.ack.WriterID, err
}

// deliverToWriter hands the ACKNACK or NACK_FRAG rx decoded to w and
// reports whether w is matched with the reader that sent it.
func (rx *receiver) deliverToWriter(w *Writer, kind wire.SubmessageKind, st *rxState, now time.Time) bool {
	if kind == wire.KindNackFrag {
		return w.HandleNackFrag(st.src, &rx.nack, now)
	}
	return w.HandleAckNack(st.src, &rx.ack, now)
}

// deliver hands the reader-bound submessage of kind rx decoded to r.
func (rx *receiver) deliver(r *Reader, kind wire.SubmessageKind, st *rxState, now time.Time) {
	switch kind {
	case wire.KindData:
		r.HandleData(st.src, &rx.data, st.ts, now)
	case wire.KindDataFrag:
		r.HandleDataFrag(st.src, &rx.frag, st.ts, now)
	case wire.KindHeartbeat:
		r.HandleHeartbeat(st.src, &rx.hb, now)
	case wire.KindHeartbeatFrag:
		r.HandleHeartbeatFrag(st.src, &rx.hbf, now)
	case wire.KindGap:
		r.HandleGap(st.src, &rx.gap, now)
	default:
	}
}

// decodeToReader decodes the current reader-bound submessage of kind into
// its struct in rx and returns the writer and reader ids it names.
func (rx *receiver) decodeToReader(kind wire.SubmessageKind) (writer, reader wire.EntityID, err error) {
	switch kind {
	case wire.KindData:
		err = rx.rd.Data(&rx.data)
		return rx.data.WriterID, rx.data.ReaderID, err
	case wire.KindDataFrag:
		err = rx.rd.DataFrag(&rx.frag)
		return rx.frag.WriterID, rx.frag.ReaderID, err
	case wire.KindHeartbeat:
		err = rx.rd.Heartbeat(&rx.hb)
		return rx.hb.WriterID, rx.hb.ReaderID, err
	case wire.KindHeartbeatFrag:
		err = rx.rd.HeartbeatFrag(&rx.hbf)
		return rx.hbf.WriterID, rx.hbf.ReaderID, err
	case wire.KindGap:
		err = rx.rd.Gap(&rx.gap)
		return rx.gap.WriterID, rx.gap.ReaderID, err
	default:
		return wire.EntityID{}, wire.EntityID{}, nil
	}
}
