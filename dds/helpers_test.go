package dds

import (
	"testing"

	"github.com/ddsgo/ddsgo/internal/cdr"
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

func (appendable) DDSExtensibility() cdr.Extensibility { return cdr.Appendable }

// testParticipant creates an enabled participant on net (a new net when nil) and deletes
// it with everything it contains at the end of the test.
func testParticipant(t *testing.T, net *fakeNet, q *qos.DomainParticipantQos) *DomainParticipant {
	t.Helper()
	if net == nil {
		net = &fakeNet{}
	}
	p, err := CreateParticipant(0, q, nil, 0, withEngine(net.factory()))
	require.NoError(t, err)
	t.Cleanup(func() {
		if !p.deleted.Load() {
			require.NoError(t, p.DeleteContainedEntities())
			require.NoError(t, Factory().DeleteParticipant(p))
		}
	})
	return p
}

// endpoints creates a topic of T, a writer and a reader with the given QoS in p.
func endpoints[T any](t *testing.T, p *DomainParticipant, topic string, wq *qos.DataWriterQos, rq *qos.DataReaderQos) (*DataWriter[T], *DataReader[T]) {
	t.Helper()
	tt, err := NewTopicType[T]("test::" + topic)
	require.NoError(t, err)
	tp, err := p.CreateTopic(topic, tt, nil, nil, 0)
	require.NoError(t, err)
	pub, err := p.CreatePublisher(nil, nil, 0)
	require.NoError(t, err)
	sub, err := p.CreateSubscriber(nil, nil, 0)
	require.NoError(t, err)
	w, err := CreateDataWriter[T](pub, tp, wq, nil, 0)
	require.NoError(t, err)
	r, err := CreateDataReader[T](sub, tp, rq, nil, 0)
	require.NoError(t, err)
	return w, r
}

// reliableReader returns a reliable KEEP_ALL reader QoS.
func reliableReader() *qos.DataReaderQos {
	q := qos.DefaultDataReaderQos()
	q.Reliability.Kind = qos.Reliable
	q.History = qos.History{Kind: qos.KeepAll}
	return &q
}
