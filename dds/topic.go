package dds

import (
	"bytes"
	"reflect"
	"strings"

	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/internal/cdr"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
)

// Extensibility is a type's XTypes extensibility (XTypes 1.3 §7.2.2.4.4): Final,
// Appendable or Mutable. A type is Final unless it has a method
//
//	func (T) DDSExtensibility() dds.Extensibility
//
// Final types are written in XCDR1 and the others in XCDR2, as Cyclone DDS and Fast DDS
// do, unless DATA_REPRESENTATION says otherwise.
type Extensibility = cdr.Extensibility

// The extensibility kinds.
const (
	Final      = cdr.Final
	Appendable = cdr.Appendable
	Mutable    = cdr.Mutable
)

// TopicDescription is what readers read from (TopicDescription of DDS 1.4
// §2.2.2.3.1): a Topic[T] of any T.
type TopicDescription interface {
	Entity
	Name() string
	TypeName() string
	Participant() *DomainParticipant
}

// Topic is a topic whose samples are of type T (Topic of DDS 1.4 §2.2.2.3.2): a name, a
// type and QoS that writers and readers share. Make one with NewTopic.
//
// T is a Go struct. Its exported fields are its members in order; `dds:"key"` tags mark
// the key members (docs/types.md has the whole mapping). The type name peers know it by
// is what T's DDSTypeName method returns, the TypeName option, or else "pkg::Type".
type Topic[T any] struct {
	entity
	name     string
	typeName string
	codec    *cdr.Codec[T]
	// dyn is the type of a topic of DynamicSample made WithType.
	dyn *DynamicType
	// inherit are the QoS options the topic was made with, which its writers and
	// readers apply first.
	inherit []Option
	// inconsistentSeen are the remote endpoints counted in INCONSISTENT_TOPIC; guarded
	// by status.mu.
	inconsistentSeen map[wire.GUID]struct{}
}

// typeNamer is implemented by types that know their IDL name.
type typeNamer interface{ DDSTypeName() string }

// NewTopic creates the topic name of type T in participant p (create_topic). Options:
// WithQos(qos.TopicQos), the endpoint QoS options (Reliable, KeepLast, TransientLocal,
// ...) that its writers and readers inherit, TypeName and WithListener with a
// TopicListener[T]. A type the codec cannot map is ErrBadParameter, naming the field; a
// topic of the same name and another type in p is ErrPreconditionNotMet.
func NewTopic[T any](p *DomainParticipant, name string, opts ...Option) (*Topic[T], error) {
	if p == nil {
		return nil, errorf(ErrBadParameter, "nil participant")
	}
	if err := p.alive(); err != nil {
		return nil, err
	}
	if name == "" {
		return nil, errorf(ErrBadParameter, "a topic needs a name")
	}
	tq := p.defaults().Topic
	s := settings{what: "topic", topic: &tq}
	if err := s.apply(opts); err != nil {
		return nil, err
	}
	if err := tq.Validate(); err != nil {
		return nil, qosErr(err)
	}
	codec, err := cdr.NewCodec[T]()
	if err != nil {
		return nil, wrapErr(ErrBadParameter, err, "topic "+name)
	}
	typeName := s.typeName
	if s.dyn != nil {
		if !isDynamic[T]() {
			var zero T
			return nil, errorf(ErrBadParameter, "topic %s: WithType is for a topic of DynamicSample, not %T", name, zero)
		}
		if typeName == "" {
			typeName = s.dyn.typeName
		}
	}
	if typeName == "" {
		typeName = defaultTypeName[T]()
	}
	if typeName == "" {
		var zero T
		return nil, errorf(ErrBadParameter, "topic %s: %T has no type name: give it a DDSTypeName method or use the TypeName option", name, zero)
	}
	l, err := listenerFor[TopicListener[T]](s.listener, "topic")
	if err != nil {
		return nil, err
	}
	p.opMu.Lock()
	defer p.opMu.Unlock()
	if other := p.lookupTopic(name); other != nil && other.TypeName() != typeName {
		return nil, errorf(ErrPreconditionNotMet, "topic %q has type %q, not %q", name, other.TypeName(), typeName)
	}
	t := &Topic[T]{name: name, typeName: typeName, codec: codec, dyn: s.dyn, inherit: s.inherit}
	err = p.create(t, &p.entity, func() {
		t.init(p, &p.entity, kindTopic, t, l, s.mask)
		ecm.CreateComponent(p.m, t.ent, tq)
		ecm.CreateComponent(p.m, t.ent, nameComp{Topic: name, Type: typeName})
	})
	if err != nil {
		return nil, err
	}
	p.topicMade.Notify()
	return t, nil
}

// defaultTypeName returns T's DDSTypeName, or "pkg::Type" from its Go names, or "" for
// an unnamed type.
func defaultTypeName[T any]() string {
	var zero T
	if n, ok := any(zero).(typeNamer); ok {
		return n.DDSTypeName()
	}
	if n, ok := any(&zero).(typeNamer); ok {
		return n.DDSTypeName()
	}
	rt := reflect.TypeFor[T]()
	if rt.Name() == "" || strings.ContainsAny(rt.Name(), "[]") {
		return ""
	}
	pkg := rt.PkgPath()
	if i := strings.LastIndexByte(pkg, '/'); i >= 0 {
		pkg = pkg[i+1:]
	}
	return pkg + "::" + rt.Name()
}

// listenerFor checks that l, the listener given with WithListener, is an L (or nil) and
// returns it.
func listenerFor[L Listener](l Listener, what string) (Listener, error) {
	if l == nil {
		return nil, nil
	}
	if _, ok := l.(L); !ok {
		var want L
		return nil, errorf(ErrBadParameter, "a %s's listener is a %T, not a %T", what, want, l)
	}
	return l, nil
}

// Name returns the topic's name.
func (t *Topic[T]) Name() string { return t.name }

// TypeName returns the name of the topic's type.
func (t *Topic[T]) TypeName() string { return t.typeName }

// Participant returns the participant that created the topic.
func (t *Topic[T]) Participant() *DomainParticipant { return t.p }

// Enable enables the topic (enable).
func (t *Topic[T]) Enable() error {
	t.p.opMu.Lock()
	defer t.p.opMu.Unlock()
	return t.p.enable(t)
}

func (t *Topic[T]) enableSelf() error {
	t.p.mu.Lock()
	ecm.SetComponentData(t.p.m, t.ent, handleComp{t.p.localHandle(topicEntityKind)})
	t.p.mu.Unlock()
	t.checkInconsistent()
	if t.codec != nil { // a built-in topic is not shown in DCPSTopic
		t.p.bt.useTopic(t.name, t.typeName, 1)
	}
	return nil
}

func (t *Topic[T]) teardown() {
	if t.codec != nil && t.enabled.Load() {
		t.p.bt.useTopic(t.name, t.typeName, -1)
	}
}

// Close deletes the topic (delete_topic); it fails with ErrPreconditionNotMet while a
// writer or reader uses it. Closing a closed topic does nothing.
func (t *Topic[T]) Close() error { return t.p.closeEntity(t, false) }

// Qos returns the topic's QoS (get_qos).
func (t *Topic[T]) Qos() qos.TopicQos { return getQos[qos.TopicQos](&t.entity) }

// SetQos changes the topic's QoS (set_qos). Writers and readers created later start
// from the options the topic was created with; existing ones keep their QoS. A new
// TOPIC_DATA is announced at once: the topic's enabled writers and readers carry it in
// their SEDP data, and are announced again.
func (t *Topic[T]) SetQos(q qos.TopicQos) error {
	t.p.opMu.Lock()
	defer t.p.opMu.Unlock()
	old := t.Qos()
	if err := setQos(&t.entity, q); err != nil {
		return err
	}
	if !t.enabled.Load() || bytes.Equal(old.TopicData.Value, q.TopicData.Value) {
		return nil
	}
	return t.p.reannounceUsers(t.ent)
}

// Listener returns the topic's listener (get_listener).
func (t *Topic[T]) Listener() TopicListener[T] {
	l, _ := t.listener().(TopicListener[T])
	return l
}

// SetListener sets the topic's listener and the statuses it handles (set_listener):
// with no mask, those it has functions for; WithListener tells the rules.
func (t *Topic[T]) SetListener(l TopicListener[T], mask ...listener.StatusMask) error {
	return t.setListener(l, mask)
}

// InconsistentTopicStatus returns and resets the INCONSISTENT_TOPIC status
// (get_inconsistent_topic_status): the endpoints of other participants discovered with
// the topic's name and another type name, each counted once.
func (t *Topic[T]) InconsistentTopicStatus() (listener.InconsistentTopicStatus, error) {
	return readStatus(&t.entity, (*statusBlock).takeInconsistentTopic)
}
