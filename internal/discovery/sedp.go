package discovery

import (
	"errors"

	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/qos"
)

// onPublication is the deliver callback of the SEDP publications reader.
func (p *Participant) onPublication(s *rtps.Sample) bool {
	p.onSEDP(s, true)
	return true
}

// onSubscription is the deliver callback of the SEDP subscriptions reader.
func (p *Participant) onSubscription(s *rtps.Sample) bool {
	p.onSEDP(s, false)
	return true
}

// onSEDP decodes an SEDP change (the payload is only valid now, and the
// reader's lock is held) and posts its processing to the event loop.
func (p *Participant) onSEDP(s *rtps.Sample, writers bool) {
	vendor, ok := p.vendorOf(s.Writer.Prefix)
	if !ok {
		p.ctr.foreign.Add(1)
		return
	}
	dec := Decoder{Vendor: vendor, Limits: p.limits}
	if s.Kind != rtps.Alive {
		g, err := disposedGUID(&dec, s)
		if err != nil {
			p.ctr.sedpInvalid.Add(1)
			return
		}
		if g.Prefix != s.Writer.Prefix {
			p.ctr.foreign.Add(1)
			return
		}
		p.eng.Post(func() { p.removeRemoteEndpoint(g) })
		return
	}
	if s.KeyOnly || len(s.Payload) == 0 {
		return
	}
	ed, err := dec.EndpointData(s.Payload)
	if err != nil {
		p.ctr.sedpInvalid.Add(1)
		if errors.Is(err, ErrLimit) {
			p.ctr.epLimited.Add(1)
		}
		return
	}
	if ed.GUID.Prefix != s.Writer.Prefix || ed.IsWriter() != writers {
		p.ctr.foreign.Add(1)
		return
	}
	size := len(s.Payload)
	p.eng.Post(func() { p.addRemoteEndpoint(ed, size) })
}

// disposedGUID returns the GUID of the endpoint a not-alive SEDP change
// withdraws: the inline KEY_HASH, or the GUID in the serialized key.
func disposedGUID(dec *Decoder, s *rtps.Sample) (wire.GUID, error) {
	if s.HasKeyHash {
		g, _, err := wire.ParseGUID(s.KeyHash[:])
		return g, err
	}
	w := wire.NewParamWriter(nil, false)
	w.PutStatusInfo(wire.StatusInfoDisposed | wire.StatusInfoUnregistered)
	inline, err := w.Finish()
	if err != nil {
		return wire.GUID{}, err
	}
	d := wire.Data{KeyFlag: s.KeyOnly, DataFlag: !s.KeyOnly, InlineQoS: inline, SerializedPayload: s.Payload}
	x, gone, err := dec.Disposal(&d)
	if err != nil {
		return wire.GUID{}, err
	}
	if !gone {
		return wire.GUID{}, ErrInvalid
	}
	return x.GUID, nil
}

// addRemoteEndpoint records an endpoint announced by SEDP (new or updated)
// in size octets of serialized data and matches it with the local
// endpoints.
func (p *Participant) addRemoteEndpoint(ed EndpointData, size int) {
	p.mu.Lock()
	rp := p.remotes[ed.GUID.Prefix]
	if rp == nil || p.closed {
		p.mu.Unlock()
		p.ctr.foreign.Add(1)
		return
	}
	if p.ign.endpoint(&ed) {
		p.mu.Unlock()
		return
	}
	re := rp.endpoints[ed.GUID]
	p.logEndpoint(&ed, re == nil)
	if !p.endpointRoomLocked(rp, re, size) {
		p.mu.Unlock()
		p.ctr.epLimited.Add(1)
		return
	}
	var fns []func()
	if re == nil {
		re = &remoteEndpoint{}
		rp.endpoints[ed.GUID] = re
		p.nEndpoints++
		for _, fn := range p.onEndpoint {
			fns = append(fns, func() { fn(ed) })
		}
	}
	p.epBytes += size - re.size
	re.data, re.size = &ed, size
	types := p.wantTypes(&ed) // before evaluate: the match waits for them
	for _, l := range p.locals {
		fns = p.evaluate(l, rp, re, fns)
	}
	fns = p.endpointEventLocked(fns, re.data, true)
	unlessWithheld(rp, fns)
	p.mu.Unlock()
	p.requestTypes(ed.GUID.Prefix, types)
	p.disp.post(fns...)
}

// removeRemoteEndpoint forgets an endpoint withdrawn by SEDP.
func (p *Participant) removeRemoteEndpoint(g wire.GUID) {
	p.mu.Lock()
	rp := p.remotes[g.Prefix]
	if rp == nil || rp.endpoints[g] == nil {
		p.mu.Unlock()
		return
	}
	fns := p.forgetEndpointLocked(rp, g, nil)
	p.mu.Unlock()
	p.disp.post(fns...)
}

// unmatchAll unmatches the endpoint g from every local endpoint matched
// with it. The caller holds p.mu.
func (p *Participant) unmatchAll(g wire.GUID) {
	for _, l := range p.locals {
		delete(l.incompatible, g)
		if _, ok := l.matched[g]; ok {
			p.logGone(&l.data, g)
			p.disconnect(l, g, true)
		}
	}
}

// evaluate (re)decides whether the local endpoint l and the endpoint re of
// rp communicate, connects or disconnects them and tells l's MatchListener,
// appending the TypeListener's call to fns. The caller holds p.mu.
func (p *Participant) evaluate(l *localEndpoint, rp *remoteParticipant, re *remoteEndpoint, fns []func()) []func() {
	if l.data.IsWriter() == re.data.IsWriter() || l.data.GUID == re.data.GUID {
		return fns
	}
	var res MatchResult
	if l.data.IsWriter() {
		res = Match(&l.data, re.data)
	} else {
		res = Match(re.data, &l.data)
	}
	res = p.checkTypes(l, re, res)
	_, was := l.matched[re.data.GUID]
	p.logDecision(&l.data, re.data, res, was)
	switch {
	case res.Matched() && !was:
		p.writerAnnounced(l, re)
		uni, multi := re.data.Locators(&rp.data)
		l.matched[re.data.GUID] = struct{}{}
		// The listener knows of the match as soon as the engine does: a
		// writer's after its engine match (a write that follows a
		// PUBLICATION_MATCHED reaches the reader), a reader's before (no
		// sample arrives from a writer it does not list).
		if l.w != nil {
			p.eng.MatchReader(l.w, rtps.ReaderProxyInfo{
				GUID: re.data.GUID, Reliable: re.data.Requested.Reader.Reliability.Kind == qos.Reliable,
				Volatile:         re.data.Requested.Reader.Durability.Kind == qos.Volatile,
				ExpectsInlineQoS: re.data.ExpectsInlineQoS, Unicast: uni, Multicast: multi,
				Filter: l.filterFor(re.data),
			})
			if l.listener != nil {
				l.listener.OnMatch(l.data.GUID, re.data)
			}
		} else {
			if l.listener != nil {
				l.listener.OnMatch(l.data.GUID, re.data)
			}
			p.eng.MatchWriter(l.r, rtps.WriterProxyInfo{
				GUID: re.data.GUID, Reliable: re.data.Offered.Writer.Reliability.Kind == qos.Reliable,
				Vendor: rp.vendor, Unicast: uni, Multicast: multi,
			})
		}
	case res.Matched():
		p.writerAnnounced(l, re)
		if l.w != nil {
			l.w.SetReaderFilter(re.data.GUID, l.filterFor(re.data)) // new parameters
		}
	case was:
		p.disconnect(l, re.data.GUID, true)
	}
	if tl, ok := l.listener.(TypeListener); ok && res.Reason == MismatchTypeAssignability {
		local, remote := l.data.GUID, re.data
		fns = append(fns, func() { tl.OnInconsistentType(local, remote) })
	}
	if !res.Matched() && len(res.Incompatible) > 0 {
		if _, told := l.incompatible[re.data.GUID]; !told {
			if l.incompatible == nil {
				l.incompatible = make(map[wire.GUID]struct{})
			}
			l.incompatible[re.data.GUID] = struct{}{}
			if l.listener != nil {
				l.listener.OnIncompatible(l.data.GUID, re.data, res.Incompatible)
			}
		}
	} else {
		delete(l.incompatible, re.data.GUID)
	}
	return fns
}

// writerAnnounced passes the announcement of the writer re to the reader l's
// WriterInfoListener, if it has one. The caller holds p.mu.
func (p *Participant) writerAnnounced(l *localEndpoint, re *remoteEndpoint) {
	if l.r == nil {
		return
	}
	if wl, ok := l.listener.(WriterInfoListener); ok {
		wl.WriterAnnounced(l.data.GUID, re.data)
	}
}

// disconnect unmatches the remote endpoint g from l, telling l's listener
// if tell is set. The caller holds p.mu.
func (p *Participant) disconnect(l *localEndpoint, g wire.GUID, tell bool) {
	delete(l.matched, g)
	if l.w != nil {
		p.eng.UnmatchReader(l.w, g)
	} else {
		p.eng.UnmatchWriter(l.r, g)
	}
	if tell && l.listener != nil {
		l.listener.OnUnmatch(l.data.GUID, g)
	}
}

// filterFor returns the writer l's filter for the reader re, nil for none.
func (l *localEndpoint) filterFor(re *EndpointData) rtps.ReaderFilter {
	if l.readerFilter == nil || re.ContentFilter == nil {
		return nil
	}
	return l.readerFilter(re.ContentFilter)
}
