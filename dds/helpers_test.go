package dds

import (
	"context"
	"testing"

	"github.com/ddsgo/ddsgo/qos"
	"github.com/stretchr/testify/require"
)

// point is a keyed type of fixed size.
type point struct {
	ID int32 `dds:"key"`
	X  float64
	Y  float64
}

// message is a keyed type with strings and sequences.
type message struct {
	ID     int32 `dds:"key"`
	Text   string
	Values []float64
	Seq    uint64
}

// appendable is an appendable type.
type appendable struct {
	ID int32 `dds:"key"`
	V  int32
}

func (appendable) DDSExtensibility() Extensibility { return Appendable }

// testParticipant creates an enabled participant on net (a new net when nil) and closes
// it at the end of the test.
func testParticipant(t *testing.T, net *fakeNet, q *qos.DomainParticipantQos) *DomainParticipant {
	t.Helper()
	if net == nil {
		net = &fakeNet{}
	}
	opts := []Option{withEngine(net.factory())}
	if q != nil {
		opts = append(opts, WithQos(*q))
	}
	p, err := NewParticipant(0, opts...)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, p.Close()) })
	return p
}

// endpoints creates a topic of T, a writer and a reader with the given QoS (nil: the
// defaults) in p, in a publisher and a subscriber of their own.
func endpoints[T any](t *testing.T, p *DomainParticipant, topic string, wq *qos.DataWriterQos, rq *qos.DataReaderQos) (*DataWriter[T], *DataReader[T]) {
	t.Helper()
	tp, pub, sub := topicPubSub[T](t, p, topic, "test::"+topic)
	wopts := []Option{WithPublisher(pub)}
	if wq != nil {
		wopts = append(wopts, WithQos(*wq))
	}
	w, err := NewWriter(tp, wopts...)
	require.NoError(t, err)
	ropts := []Option{WithSubscriber(sub)}
	if rq != nil {
		ropts = append(ropts, WithQos(*rq))
	}
	r, err := NewReader(tp, ropts...)
	require.NoError(t, err)
	return w, r
}

// topicPubSub creates the topic name of T, of IDL type typeName, and a publisher and a
// subscriber in p.
func topicPubSub[T any](t *testing.T, p *DomainParticipant, name, typeName string) (*Topic[T], *Publisher, *Subscriber) {
	t.Helper()
	tp, err := NewTopic[T](p, name, TypeName(typeName))
	require.NoError(t, err)
	pub, err := p.NewPublisher()
	require.NoError(t, err)
	sub, err := p.NewSubscriber()
	require.NoError(t, err)
	return tp, pub, sub
}

// reliableReader returns a reliable KEEP_ALL reader QoS.
func reliableReader() *qos.DataReaderQos {
	q := qos.DefaultDataReaderQos()
	q.Reliability.Kind = qos.Reliable
	q.History = qos.History{Kind: qos.KeepAll}
	return &q
}

// bg is the context of the operations the tests do not bound.
var bg = context.Background()

// typeOf names T with an IDL type name, for the tests that make topics of one type in
// several participants.
type typeOf[T any] struct{ name string }

func newTopicType[T any](name string) (typeOf[T], error) { return typeOf[T]{name}, nil }

// createTopic creates the topic name of tt's type in p.
func createTopic[T any](p *DomainParticipant, name string, tt typeOf[T], opts ...Option) (*Topic[T], error) {
	return NewTopic[T](p, name, append([]Option{TypeName(tt.name)}, opts...)...)
}
