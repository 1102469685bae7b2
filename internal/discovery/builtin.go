package discovery

import (
	"bytes"
	"slices"

	"github.com/ddsgo/ddsgo/internal/wire"
)

// BuiltinListener is told what the built-in topics of DDS 1.4 §2.2.5 show: every
// participant and endpoint, ours and the remote ones (as Cyclone DDS shows them), when
// it appears, when its announcement changes (alive true) and when it goes (alive
// false: deleted, disposed, its participant's lease expired, or ignored). Its
// functions run on the participant's serial dispatcher goroutine in the order of the
// events; either may be nil.
type BuiltinListener struct {
	Participant func(d ParticipantData, alive bool)
	Endpoint    func(d *EndpointData, alive bool)
}

// ignored holds what IgnoreParticipant, IgnoreEndpoint and IgnoreTopic named; it
// only grows, by the user's calls (ignoring is irreversible, DDS 1.4 §2.2.2.2.1.14).
type ignored struct {
	prefixes map[wire.GuidPrefix]struct{}
	guids    map[wire.GUID]struct{}
	topics   map[string]struct{}
}

// endpoint reports whether the endpoint ed is ignored, itself, by its participant or
// by its topic.
func (ig *ignored) endpoint(ed *EndpointData) bool {
	if _, ok := ig.prefixes[ed.GUID.Prefix]; ok {
		return true
	}
	if _, ok := ig.guids[ed.GUID]; ok {
		return true
	}
	_, ok := ig.topics[ed.TopicName]
	return ok
}

// participant reports whether the participant prefix is ignored.
func (ig *ignored) participant(prefix wire.GuidPrefix) bool {
	_, ok := ig.prefixes[prefix]
	return ok
}

// OnBuiltin registers l. What is known already, our own participant and endpoints
// first, is reported to l first, so that nothing known before the call is missed.
func (p *Participant) OnBuiltin(l BuiltinListener) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.builtin = append(p.builtin, l)
	var fns []func()
	for _, rp := range append([]*remoteParticipant{p.self}, mapValues(p.remotes)...) {
		if l.Participant != nil {
			pd, rp := rp.data, rp
			fns = append(fns, func() {
				if rp.tell() {
					l.Participant(pd, true)
				}
			})
		}
		if l.Endpoint == nil {
			continue
		}
		for _, re := range rp.endpoints {
			ed := re.data
			fns = append(fns, func() { l.Endpoint(ed, true) })
		}
	}
	p.disp.post(fns...) // under p.mu, like every event: l sees them in order
}

func mapValues[K comparable, V any](m map[K]V) []V {
	out := make([]V, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// participantEventLocked appends to fns the calls for the participant d of the
// OnParticipant functions, then of the built-in listeners. The caller holds p.mu.
func (p *Participant) participantEventLocked(fns []func(), d ParticipantData, alive bool) []func() {
	for _, fn := range p.onPart {
		fns = append(fns, func() { fn(d, alive) })
	}
	for _, l := range p.builtin {
		if fn := l.Participant; fn != nil {
			fns = append(fns, func() { fn(d, alive) })
		}
	}
	return fns
}

// What the listeners know of a remote participant (remoteParticipant.heard).
const (
	heardPending int32 = iota
	heardTold
	heardWithheld
)

// remoteEventLocked appends to fns the calls for the remote participant rp alive,
// with the data d: they run only if rp has not gone before the first of them ran
// (forgetLocked then withholds its going). The caller holds p.mu.
func (p *Participant) remoteEventLocked(fns []func(), rp *remoteParticipant, d ParticipantData) []func() {
	fns = append(fns, func() { rp.tell() }) // told even with no listener yet: a later one gets the replay
	first := len(fns)
	fns = p.participantEventLocked(fns, d, true)
	unlessWithheld(rp, fns[first:])
	return fns
}

// unlessWithheld makes each of fns, calls about rp or its endpoints, do nothing
// once rp went unheard.
func unlessWithheld(rp *remoteParticipant, fns []func()) {
	for i, fn := range fns {
		fns[i] = func() {
			if rp.heard.Load() != heardWithheld {
				fn()
			}
		}
	}
}

// tell reports whether the listeners may hear of rp alive, marking them told
// when they had not been: false once rp went unheard (heardWithheld).
func (rp *remoteParticipant) tell() bool {
	return rp.heard.CompareAndSwap(heardPending, heardTold) || rp.heard.Load() == heardTold
}

// endpointEventLocked appends the calls of the built-in listeners for the endpoint d
// to fns. The caller holds p.mu.
func (p *Participant) endpointEventLocked(fns []func(), d *EndpointData, alive bool) []func() {
	for _, l := range p.builtin {
		if fn := l.Endpoint; fn != nil {
			fns = append(fns, func() { fn(d, alive) })
		}
	}
	return fns
}

// participantChangedLocked reports a new announcement of the known participant rp
// to the OnParticipant functions and the built-in listeners when its payload differs
// from the last one. The caller holds p.mu.
func (p *Participant) participantChangedLocked(rp *remoteParticipant, payload []byte) {
	if bytes.Equal(rp.raw, payload) {
		return
	}
	rp.raw = slices.Clone(payload)
	p.disp.post(p.remoteEventLocked(nil, rp, rp.data)...)
}

// IgnoreParticipant ignores the remote participant prefix (ignore_participant): it is
// forgotten now, as if its lease had expired (its endpoints are unmatched), and its
// announcements are dropped from now on. Ignoring ourselves does nothing.
func (p *Participant) IgnoreParticipant(prefix wire.GuidPrefix) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if prefix == p.prefix {
		return
	}
	if p.ign.prefixes == nil {
		p.ign.prefixes = map[wire.GuidPrefix]struct{}{}
	}
	p.ign.prefixes[prefix] = struct{}{}
	if rp := p.remotes[prefix]; rp != nil {
		p.disp.post(p.forgetLocked(rp, nil)...)
	}
}

// IgnoreEndpoint ignores the remote writer or reader g (ignore_publication,
// ignore_subscription): it is unmatched now and its announcements are dropped from now
// on. Our own endpoints cannot be ignored.
func (p *Participant) IgnoreEndpoint(g wire.GUID) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if g.Prefix == p.prefix {
		return
	}
	if p.ign.guids == nil {
		p.ign.guids = map[wire.GUID]struct{}{}
	}
	p.ign.guids[g] = struct{}{}
	p.dropIgnoredLocked()
}

// IgnoreTopic ignores the remote endpoints of the topic name (ignore_topic): they are
// unmatched now and their announcements are dropped from now on.
func (p *Participant) IgnoreTopic(name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ign.topics == nil {
		p.ign.topics = map[string]struct{}{}
	}
	p.ign.topics[name] = struct{}{}
	p.dropIgnoredLocked()
}

// dropIgnoredLocked forgets the remote endpoints known that are ignored now. The
// caller holds p.mu.
func (p *Participant) dropIgnoredLocked() {
	var fns []func()
	for _, rp := range p.remotes {
		for g, re := range rp.endpoints {
			if p.ign.endpoint(re.data) {
				fns = p.forgetEndpointLocked(rp, g, fns)
			}
		}
	}
	p.disp.post(fns...)
}

// forgetEndpointLocked removes the endpoint g of rp: it is unmatched and the built-in
// listeners hear it go. The caller holds p.mu.
func (p *Participant) forgetEndpointLocked(rp *remoteParticipant, g wire.GUID, fns []func()) []func() {
	re := rp.endpoints[g]
	p.epBytes -= re.size
	delete(rp.endpoints, g)
	p.nEndpoints--
	p.unmatchAll(g)
	return p.endpointEventLocked(fns, re.data, false)
}
