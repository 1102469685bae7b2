package rtps

import (
	"github.com/ddsgo/ddsgo/internal/transport"
	"github.com/ddsgo/ddsgo/internal/wire"
)

// prioritySender is the Sender of a writer with a TRANSPORT_PRIORITY: the
// engine's send path through the transport's send socket of that priority.
type prioritySender struct {
	e *Engine
	c transport.PacketConn
}

// Send implements Sender.
func (s *prioritySender) Send(msg []byte, to []wire.Locator) { s.e.send(msg, to, s.c) }

// SendBatch implements BatchSender.
func (s *prioritySender) SendBatch(msgs [][]byte, to []wire.Locator, scratch []transport.Message) {
	s.e.sendBatch(msgs, to, scratch, s.c)
}

// senderFor returns the Sender of a writer with TRANSPORT_PRIORITY value:
// the engine itself for 0 (or when the socket cannot be opened, logged).
func (e *Engine) senderFor(value int32) Sender {
	tos := transport.PriorityTOS(value)
	if tos == 0 {
		return e
	}
	c, err := e.tr.PriorityConn(tos)
	if err != nil {
		e.log.Warn("rtps: transport priority not applied", "priority", value, "err", err)
		return e
	}
	return &prioritySender{e: e, c: c}
}

// SetTransportPriority makes w, a writer of this engine, send its next
// datagrams with the IP TOS of TRANSPORT_PRIORITY value
// (transport.PriorityTOS; 0: the default socket).
func (e *Engine) SetTransportPriority(w *Writer, value int32) {
	w.setSender(e.senderFor(value))
}

// setSender makes the writer send through out from now on.
func (w *Writer) setSender(out Sender) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.mb.out = out
	w.mb.bs, _ = out.(BatchSender)
}
