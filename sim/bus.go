package sim

import (
	"errors"
	"slices"
	"sync"
)

// Message is a typed message on a Bus.
type Message struct {
	// Type names the message type (for example "gz.msgs.Boolean").
	Type string
	// Data is the content.
	Data Msg
}

// Bus is a publish-subscribe transport by topic name, used by systems such as
// TriggeredPublisher. MemBus is an in-process Bus, simdds.Bus one over DDS.
type Bus interface {
	// Publish delivers m to the subscribers of topic.
	Publish(topic string, m Message) error
	// Subscribe calls fn for every message of type typ published on topic until
	// cancel is called. fn may be called on any goroutine, one message at a time
	// per publisher.
	Subscribe(topic, typ string, fn func(Message)) (cancel func(), err error)
}

// MemBus is an in-process Bus: Publish calls the subscribers of the topic on the
// publishing goroutine, in subscription order, outside any lock (a subscriber may
// publish). The zero MemBus is ready to use and safe for concurrent use.
type MemBus struct {
	mu   sync.Mutex
	subs map[string][]*memSub
}

type memSub struct {
	typ string
	fn  func(Message)
}

// Publish calls the subscribers of topic to m's type with m.
func (b *MemBus) Publish(topic string, m Message) error {
	b.mu.Lock()
	subs := b.subs[topic] // never modified in place: see Subscribe and cancel
	b.mu.Unlock()
	for _, s := range subs {
		if s.typ == m.Type {
			s.fn(m)
		}
	}
	return nil
}

// Subscribe calls fn for each message of type typ published on topic until cancel is
// called.
func (b *MemBus) Subscribe(topic, typ string, fn func(Message)) (func(), error) {
	if fn == nil {
		return nil, errors.New("sim: nil subscriber")
	}
	s := &memSub{typ: typ, fn: fn}
	b.mu.Lock()
	if b.subs == nil {
		b.subs = make(map[string][]*memSub)
	}
	b.subs[topic] = append(slices.Clip(b.subs[topic]), s)
	b.mu.Unlock()
	return func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		l := b.subs[topic]
		if i := slices.Index(l, s); i >= 0 {
			b.subs[topic] = slices.Concat(l[:i], l[i+1:])
			if len(b.subs[topic]) == 0 {
				delete(b.subs, topic)
			}
		}
	}, nil
}
