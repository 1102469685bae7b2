package discovery

import (
	"time"

	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/internal/xtypes"
)

// The client side of the XTypes TypeLookup service (DDS-XTypes 1.3 §7.6.3.3): when a
// remote endpoint announces TypeInformation whose types Config.Types lacks, a getTypes
// request goes to its participant's request reader (Cyclone DDS 0.10.2's form), asked
// again a bounded number of times; the replies fill Config.Types, and every match is
// decided again with them. Matching applies the XTypes assignability rules when both
// endpoints announce TypeInformation (typeVerdict).

// TypeListener is implemented by the MatchListener of a local endpoint that wants to
// know of a remote endpoint of its topic whose type is not assignable to or from its own
// (INCONSISTENT_TOPIC). It runs on the dispatcher, as the other listener calls.
type TypeListener interface {
	OnInconsistentType(local wire.GUID, remote *EndpointData)
}

// startTypeClient creates the client's endpoints, when the configuration has a cache.
func (p *Participant) startTypeClient() {
	if p.cfg.Types == nil {
		return
	}
	p.tl.reqW = p.eng.NewWriter(rtps.WriterConfig{
		GUID: wire.GUID{Prefix: p.prefix, Entity: wire.EntityIDTypeLookupRequestWriter}, Reliable: true,
		History: rtps.HistoryConfig{Depth: typeLookupDepth},
	})
	p.tl.repR = p.eng.NewReader(rtps.ReaderConfig{
		GUID: wire.GUID{Prefix: p.prefix, Entity: wire.EntityIDTypeLookupReplyReader}, Reliable: true,
	}, p.onTypeLookupReply)
	p.tl.retry = p.eng.NewTimer(p.retryTypes)
}

// connectTypeClient matches the client's endpoints with the peer's request reader and
// reply writer.
func (p *Participant) connectTypeClient(rp *remoteParticipant) {
	if p.tl.reqW == nil {
		return
	}
	uni, multi := rp.data.MetatrafficUnicastLocators, rp.data.MetatrafficMulticastLocators
	if rp.data.BuiltinEndpoints&wire.BuiltinTypeLookupRequestReader != 0 {
		g := wire.GUID{Prefix: rp.data.GUIDPrefix, Entity: wire.EntityIDTypeLookupRequestReader}
		p.eng.MatchReader(p.tl.reqW, rtps.ReaderProxyInfo{GUID: g, Reliable: true, Volatile: true, Unicast: uni, Multicast: multi})
	}
	if rp.data.BuiltinEndpoints&wire.BuiltinTypeLookupReplyWriter != 0 {
		g := wire.GUID{Prefix: rp.data.GUIDPrefix, Entity: wire.EntityIDTypeLookupReplyWriter}
		p.eng.MatchWriter(p.tl.repR, rtps.WriterProxyInfo{GUID: g, Reliable: true, Vendor: rp.vendor, Unicast: uni, Multicast: multi})
	}
}

// disconnectTypeClient undoes connectTypeClient.
func (p *Participant) disconnectTypeClient(rp *remoteParticipant) {
	if p.tl.reqW == nil {
		return
	}
	p.eng.UnmatchReader(p.tl.reqW, wire.GUID{Prefix: rp.data.GUIDPrefix, Entity: wire.EntityIDTypeLookupRequestReader})
	p.eng.UnmatchWriter(p.tl.repR, wire.GUID{Prefix: rp.data.GUIDPrefix, Entity: wire.EntityIDTypeLookupReplyWriter})
}

// wantTypes returns the types of ed's TypeInformation the cache lacks, marked asked
// for: requestTypes asks for them.
func (p *Participant) wantTypes(ed *EndpointData) []xtypes.TypeID {
	if p.tl.reqW == nil || len(ed.TypeInformation) == 0 {
		return nil
	}
	info, err := xtypes.ParseInfo(ed.TypeInformation)
	if err != nil {
		return nil
	}
	return p.cfg.Types.Want(&info, ed.GUID.Prefix, p.eng.Now())
}

// requestTypes asks participant target for ids and schedules the retries. It runs on
// the event loop, without p.mu.
func (p *Participant) requestTypes(target wire.GuidPrefix, ids []xtypes.TypeID) {
	if len(ids) == 0 {
		return
	}
	now := p.eng.Now()
	p.writeRequests(target, ids, now)
	p.tl.retry.Schedule(now.Add(xtypes.RetryAfter))
}

// writeRequests writes getTypes requests for ids, addressed to participant target
// (every matched request reader receives them; the others have no such type and do not
// answer).
func (p *Participant) writeRequests(target wire.GuidPrefix, ids []xtypes.TypeID, now time.Time) {
	for len(ids) > 0 {
		n := min(len(ids), 64)
		p.tl.sn++
		g := wire.GUID{Prefix: p.prefix, Entity: wire.EntityIDTypeLookupRequestWriter}
		writer := [16]byte(g.Append(make([]byte, 0, 16)))
		req := xtypes.AppendRequest(nil, writer, p.tl.sn, target, ids[:n])
		_, _ = p.tl.reqW.Write(rtps.Change{Kind: rtps.Alive, Timestamp: wire.TimeFromTime(now), Payload: req}, now)
		ids = ids[n:]
	}
}

// retryTypes asks again for the types not received yet; a timer of the event loop.
func (p *Participant) retryTypes(now time.Time) time.Time {
	for target, ids := range p.cfg.Types.Retry(now) {
		p.writeRequests(target, ids, now)
	}
	if p.cfg.Types.Pending() {
		return now.Add(xtypes.RetryAfter)
	}
	p.reevaluate() // types given up: matched by name now
	return time.Time{}
}

// onTypeLookupReply stores the TypeObjects of a reply, off the receive path, and decides
// the matches again when it brought some.
func (p *Participant) onTypeLookupReply(s *rtps.Sample) bool {
	if s.Kind != rtps.Alive || len(s.Payload) == 0 {
		return true
	}
	reply := append([]byte(nil), s.Payload...)
	p.eng.Post(func() {
		if p.cfg.Types.AddReply(reply) > 0 {
			p.reevaluate()
		}
	})
	return true
}

// reevaluate decides again every pair of a local endpoint and a remote one.
func (p *Participant) reevaluate() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	var fns []func()
	for _, l := range p.locals {
		for _, rp := range p.remotes {
			for _, re := range rp.endpoints {
				fns = p.evaluate(l, rp, re, fns)
			}
		}
	}
	p.mu.Unlock()
	p.disp.post(fns...)
}

// typeVerdict applies the assignability rules to writer w and reader r when both
// announce TypeInformation and the participant resolves types: xtypes.Unknown when it
// cannot decide (no type information, no cache, or a type not received), in which case
// pending says whether the types are still asked for.
func (p *Participant) typeVerdict(w, r *EndpointData) (v xtypes.Verdict, pending bool) {
	if p.cfg.Types == nil || len(w.TypeInformation) == 0 || len(r.TypeInformation) == 0 {
		return xtypes.Unknown, false
	}
	wi, err := xtypes.ParseInfo(w.TypeInformation)
	if err != nil {
		return xtypes.Unknown, false
	}
	ri, err := xtypes.ParseInfo(r.TypeInformation)
	if err != nil {
		return xtypes.Unknown, false
	}
	v = xtypes.Assignable(&wi, &ri, p.cfg.Types.Resolve)
	if v != xtypes.Unknown {
		return v, false
	}
	return v, p.cfg.Types.Pending() && !p.cfg.Types.Failed(wi.Complete.Type.ID) && !p.cfg.Types.Failed(ri.Complete.Type.ID)
}

// checkTypes refines a match of l and re by type assignability: not assignable is
// MismatchTypeAssignability; undecided while the types are asked for is
// MismatchTypeUnresolved (decided again when they come); undecided otherwise keeps the
// match by type name.
func (p *Participant) checkTypes(l *localEndpoint, re *remoteEndpoint, res MatchResult) MatchResult {
	if !res.Matched() {
		return res
	}
	w, r := &l.data, re.data
	if !w.IsWriter() {
		w, r = r, w
	}
	switch v, pending := p.typeVerdict(w, r); {
	case v == xtypes.NotAssignable:
		res.Reason = MismatchTypeAssignability
	case v == xtypes.Unknown && pending:
		res.Reason = MismatchTypeUnresolved
	}
	return res
}

// Types returns Config.Types: the types the participant resolved (nil without one).
func (p *Participant) Types() *xtypes.Cache { return p.cfg.Types }

// ResolveTypes asks, if need be, for the types ed announces (again, if they were given
// up): Types resolves them when the reply comes.
func (p *Participant) ResolveTypes(ed *EndpointData) {
	if p.tl.reqW == nil {
		return
	}
	e := *ed
	p.eng.Post(func() { p.requestTypes(e.GUID.Prefix, p.wantTypes(&e)) })
}
