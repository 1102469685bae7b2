package dds

import (
	"github.com/ddsgo/ddsgo/internal/cdr"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/ddsgo/ddsgo/sim/ecm"
)

// TypeSupport describes the data type of a topic: its IDL name, whether it has a key and
// its extensibility. Make one with NewTopicType.
type TypeSupport interface {
	// TypeName returns the type's name as the peers know it, e.g. "interop::Sample".
	TypeName() string
	// Keyed reports whether the type has key members.
	Keyed() bool
	// Extensibility returns the type's XTypes extensibility.
	Extensibility() cdr.Extensibility
	typeSupport()
}

// TopicType is the TypeSupport of the Go struct type T: the writers and readers of its
// topics are DataWriter[T] and DataReader[T].
type TopicType[T any] struct {
	name  string
	codec *cdr.Codec[T]
}

// NewTopicType returns the type support of T under the IDL type name name (as in
// "interop::Sample"). T's members, keys (`dds:"key"` tags) and extensibility
// (a DDSExtensibility method, see Extensibility) are those of package cdr; an error matching ErrBadParameter reports a
// type cdr cannot encode.
func NewTopicType[T any](name string) (*TopicType[T], error) {
	if name == "" {
		return nil, errorf(ErrBadParameter, "empty type name")
	}
	c, err := cdr.NewCodec[T]()
	if err != nil {
		return nil, wrapErr(ErrBadParameter, err, "type "+name)
	}
	return &TopicType[T]{name: name, codec: c}, nil
}

// TypeName returns the IDL type name.
func (t *TopicType[T]) TypeName() string { return t.name }

// Keyed reports whether T has key members.
func (t *TopicType[T]) Keyed() bool { return t.codec.Keyed() }

// Extensibility returns T's extensibility.
func (t *TopicType[T]) Extensibility() cdr.Extensibility { return t.codec.Extensibility() }

// Codec returns T's CDR codec.
func (t *TopicType[T]) Codec() *cdr.Codec[T] { return t.codec }

func (t *TopicType[T]) typeSupport() {}

// TopicDescription is what readers read from (TopicDescription of DDS 1.4 §2.2.2.3.1):
// a Topic.
type TopicDescription interface {
	Name() string
	TypeName() string
	Participant() *DomainParticipant
}

// Topic is a topic (Topic of DDS 1.4 §2.2.2.3.2): a name, a type and QoS that writers
// and readers share. Make one with DomainParticipant.CreateTopic.
type Topic struct {
	entity
	name string
	ts   TypeSupport
}

// Name returns the topic's name.
func (t *Topic) Name() string { return t.name }

// TypeName returns the name of the topic's type.
func (t *Topic) TypeName() string { return t.ts.TypeName() }

// TypeSupport returns the topic's type support.
func (t *Topic) TypeSupport() TypeSupport { return t.ts }

// Participant returns the participant that created the topic.
func (t *Topic) Participant() *DomainParticipant { return t.p }

// Enable enables the topic (enable).
func (t *Topic) Enable() error {
	t.p.opMu.Lock()
	defer t.p.opMu.Unlock()
	return t.p.enable(t)
}

func (t *Topic) enableSelf() error {
	t.p.mu.Lock()
	defer t.p.mu.Unlock()
	ecm.SetComponentData(t.p.m, t.ent, handleComp{t.p.localHandle(topicEntityKind)})
	return nil
}

func (t *Topic) teardown() {}

// Qos returns the topic's QoS (get_qos).
func (t *Topic) Qos() qos.TopicQos { return getQos[qos.TopicQos](&t.entity) }

// SetQos changes the topic's QoS (set_qos). Writers and readers created later copy it
// with CopyFromTopicQos; existing ones keep theirs.
func (t *Topic) SetQos(q qos.TopicQos) error { return setQos(&t.entity, q) }

// Listener returns the topic's listener (get_listener).
func (t *Topic) Listener() listener.TopicListener {
	l, _ := t.listener().(listener.TopicListener)
	return l
}

// SetListener sets the topic's listener and the statuses it handles (set_listener).
func (t *Topic) SetListener(l listener.TopicListener, mask listener.StatusMask) error {
	return t.setListener(listenerOf(l), mask)
}

// InconsistentTopicStatus returns and resets the INCONSISTENT_TOPIC status
// (get_inconsistent_topic_status). Discovery does not report remote topics yet, so it
// stays zero.
func (t *Topic) InconsistentTopicStatus() (listener.InconsistentTopicStatus, error) {
	if err := t.alive(); err != nil {
		return listener.InconsistentTopicStatus{}, err
	}
	return t.status.takeInconsistentTopic(), nil
}
