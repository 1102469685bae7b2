package dds

import (
	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/internal/discovery"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/listener"
)

// inconsistentCounter is a topic that counts INCONSISTENT_TOPIC.
type inconsistentCounter interface {
	TypeName() string
	countInconsistent(remote wire.GUID)
}

// onEndpoint checks an endpoint of a remote participant, just discovered, against the
// local topic of its name: another type name makes it an INCONSISTENT_TOPIC (DDS 1.4
// §2.2.4.1). The endpoints stand for their topics, since no peer announces topics.
func (p *DomainParticipant) onEndpoint(d discovery.EndpointData) {
	if p.deleted.Load() || d.GUID.Prefix == p.prefix {
		return
	}
	if d.IsWriter() {
		p.known.add(d.GUID, d.TopicName)
	}
	if t := p.inconsistentTopic(d.TopicName); t != nil && t.TypeName() != d.TypeName {
		t.countInconsistent(d.GUID)
	}
}

// inconsistentTopic returns the local topic named name, or nil.
func (p *DomainParticipant) inconsistentTopic(name string) inconsistentCounter {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range p.m.ChildrenByComponents(p.ent, ecm.Match(kindComp{kindTopic})) {
		if n, _ := ecm.ComponentData[nameComp](p.m, e); n.Topic != name {
			continue
		}
		o, _ := ecm.ComponentData[objComp](p.m, e)
		if t, ok := o.obj.(inconsistentCounter); ok {
			return t
		}
	}
	return nil
}

// checkInconsistent counts, for a topic being enabled, the remote endpoints already
// discovered with its name and another type name; those discovered meanwhile may be
// reported by onEndpoint too, which countInconsistent counts once.
func (t *Topic[T]) checkInconsistent() {
	eng := t.p.eng
	if eng == nil {
		return
	}
	for _, d := range eng.Endpoints() {
		if d.TopicName == t.name && d.TypeName != t.typeName && d.GUID.Prefix != t.p.prefix {
			t.countInconsistent(d.GUID)
		}
	}
}

// countInconsistent counts the remote endpoint g in INCONSISTENT_TOPIC, once.
func (t *Topic[T]) countInconsistent(g wire.GUID) {
	t.status.mu.Lock()
	if _, ok := t.inconsistentSeen[g]; ok {
		t.status.mu.Unlock()
		return
	}
	if t.inconsistentSeen == nil {
		t.inconsistentSeen = map[wire.GUID]struct{}{}
	}
	t.inconsistentSeen[g] = struct{}{}
	t.status.inconsistent.Add(HandleNil, 1)
	t.status.setChanged(listener.InconsistentTopic)
	t.status.mu.Unlock()
	t.raised(listener.InconsistentTopic)
}
