package dds

import (
	"slices"

	"github.com/ddsgo/ddsgo/dds/internal/status"

	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/internal/discovery"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
)

// matchHooks is implemented by endpoints that do more on a match than count it.
type matchHooks interface {
	matched(remote *discovery.EndpointData)
	unmatched(remote wire.GUID)
}

// updateHook is implemented by endpoints that use the QoS of the endpoints they are
// matched with: updated gets a matched endpoint's announcement, when the match is
// made and when it changes, before the endpoint's samples can arrive.
type updateHook interface {
	updated(remote *discovery.EndpointData)
}

// matcher is the engine's match listener of one local endpoint: it keeps the matched
// endpoints in the ECM and the matched and incompatible statuses. Discovery calls it
// under its lock, in the step that matches the endpoints in the engine (a reader's
// before its first sample can arrive): it takes p.mu, the entity's status lock and,
// through the hooks, the reader's dmu, the liveliness monitor and the cache, none of
// which is ever held while calling discovery (docs/locking.md).
type matcher struct {
	e     *entity
	hooks matchHooks
}

func (m *matcher) kinds() (matched, incompatible listener.StatusKind) {
	if m.e.kind == kindWriter {
		return listener.PublicationMatched, listener.OfferedIncompatibleQos
	}
	return listener.SubscriptionMatched, listener.RequestedIncompatibleQos
}

// OnMatch records a match with remote.
func (m *matcher) OnMatch(_ wire.GUID, remote *discovery.EndpointData) {
	e, p := m.e, m.e.p
	h := status.GUIDHandle(guidBytes(remote.GUID))
	p.mu.Lock()
	if e.deleted.Load() {
		p.mu.Unlock()
		return
	}
	mc, _ := ecm.ComponentData[matchesComp](p.m, e.ent)
	if slices.Contains(mc.Handles, h) {
		p.mu.Unlock()
		return
	}
	ecm.SetComponentData(p.m, e.ent, matchesComp{append(slices.Clip(mc.Handles), h)})
	if remote.GUID.Prefix != p.prefix {
		p.addRemoteEndpoint(remote, h)
	}
	p.mu.Unlock()
	if m.hooks != nil {
		m.hooks.matched(remote)
	}
	k, _ := m.kinds()
	e.event(k, func(s *statusBlock) { s.matched.Add(h) })
}

// OnUnmatch records the end of the match with remote.
func (m *matcher) OnUnmatch(_ wire.GUID, remote wire.GUID) {
	e, p := m.e, m.e.p
	h := status.GUIDHandle(guidBytes(remote))
	p.mu.Lock()
	if e.deleted.Load() {
		p.mu.Unlock()
		return
	}
	mc, _ := ecm.ComponentData[matchesComp](p.m, e.ent)
	i := slices.Index(mc.Handles, h)
	if i < 0 {
		p.mu.Unlock()
		return
	}
	ecm.SetComponentData(p.m, e.ent, matchesComp{slices.Delete(slices.Clone(mc.Handles), i, i+1)})
	p.releaseRemoteEndpoint(h)
	p.mu.Unlock()
	if m.hooks != nil {
		m.hooks.unmatched(remote)
	}
	k, _ := m.kinds()
	e.event(k, func(s *statusBlock) { s.matched.Remove(h) })
}

// WriterAnnounced passes what a matched writer announced to the hooks, before its
// samples can arrive: discovery calls it under its lock, so the hook must be quick.
func (m *matcher) WriterAnnounced(_ wire.GUID, remote *discovery.EndpointData) {
	if m.e.deleted.Load() {
		return
	}
	if u, ok := m.hooks.(updateHook); ok {
		u.updated(remote)
	}
}

// OnIncompatible counts a remote endpoint whose QoS is incompatible.
func (m *matcher) OnIncompatible(_ wire.GUID, _ *discovery.EndpointData, policies []qos.PolicyID) {
	if m.e.deleted.Load() || len(policies) == 0 {
		return
	}
	_, k := m.kinds()
	m.e.event(k, func(s *statusBlock) { s.incompatible.Add(policies) })
}

// addRemoteEndpoint creates or references the entity of a remote endpoint, a child of
// its participant's; the caller holds p.mu.
func (p *DomainParticipant) addRemoteEndpoint(d *discovery.EndpointData, h InstanceHandle) {
	kind := kindRemoteReader
	if d.IsWriter() {
		kind = kindRemoteWriter
	}
	e := p.m.EntityByComponents(ecm.Match(kindComp{kind}), ecm.Match(handleComp{h}))
	if e != ecm.Null {
		if rc, ok := ecm.Get[remoteEndpointComp](p.m, e); ok {
			rc.Refs++
		}
		return
	}
	e = p.m.CreateEntity()
	ecm.CreateComponent(p.m, e, kindComp{kind})
	ecm.CreateComponent(p.m, e, handleComp{h})
	ecm.CreateComponent(p.m, e, nameComp{Topic: d.TopicName, Type: d.TypeName})
	ecm.CreateComponent(p.m, e, remoteEndpointComp{Refs: 1, Data: endpointData(d)})
	p.m.SetParentEntity(e, p.remoteParticipant(d.GUID.Prefix))
}

// releaseRemoteEndpoint drops a reference to the remote endpoint h, removing it with
// the last; the caller holds p.mu.
func (p *DomainParticipant) releaseRemoteEndpoint(h InstanceHandle) {
	for _, e := range p.m.EntitiesByComponents(ecm.Match(handleComp{h})) {
		rc, ok := ecm.Get[remoteEndpointComp](p.m, e)
		if !ok {
			continue
		}
		if rc.Refs--; rc.Refs <= 0 {
			p.m.RequestRemoveEntity(e, true)
			p.m.ProcessRemoveEntityRequests()
		}
	}
}

// matchedHandles returns the handles of the endpoints matched with e.
func (e *entity) matchedHandles() ([]InstanceHandle, error) {
	if err := e.check(); err != nil {
		return nil, err
	}
	e.p.mu.Lock()
	defer e.p.mu.Unlock()
	mc, _ := ecm.ComponentData[matchesComp](e.p.m, e.ent)
	return slices.Clone(mc.Handles), nil
}

// matchedData returns what the endpoint h matched with e announced.
func (e *entity) matchedData(h InstanceHandle) (EndpointBuiltinTopicData, error) {
	if err := e.check(); err != nil {
		return EndpointBuiltinTopicData{}, err
	}
	p := e.p
	p.mu.Lock()
	defer p.mu.Unlock()
	mc, _ := ecm.ComponentData[matchesComp](p.m, e.ent)
	if !slices.Contains(mc.Handles, h) {
		return EndpointBuiltinTopicData{}, errorf(ErrBadParameter, "%v is not matched", h)
	}
	for _, x := range p.m.EntitiesByComponents(ecm.Match(handleComp{h})) {
		if rc, ok := ecm.ComponentData[remoteEndpointComp](p.m, x); ok {
			return rc.Data, nil
		}
		if oc, ok := ecm.ComponentData[objComp](p.m, x); ok {
			if d, ok := oc.obj.(interface {
				builtinDataLocked() EndpointBuiltinTopicData
			}); ok {
				return d.builtinDataLocked(), nil
			}
		}
	}
	return EndpointBuiltinTopicData{}, errorf(ErrBadParameter, "%v is not known", h)
}

// endpointData is the builtin-topic form of what discovery reported of an endpoint.
func endpointData(d *discovery.EndpointData) EndpointBuiltinTopicData {
	return EndpointBuiltinTopicData{
		Key:            status.GUIDHandle(guidBytes(d.GUID)),
		ParticipantKey: status.GUIDHandle(guidBytes(d.ParticipantGUID)),
		TopicName:      d.TopicName,
		TypeName:       d.TypeName,
		Keyed:          d.Keyed(),
		Offered:        d.Offered,
		Requested:      d.Requested,
	}
}
