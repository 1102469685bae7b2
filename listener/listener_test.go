package listener

import (
	"testing"

	"github.com/stretchr/testify/require"
)

type entity struct{ h InstanceHandle }

func (e entity) InstanceHandle() InstanceHandle { return e.h }

// recorder returns functions for every callback that record the kind they handle.
type recorder struct{ got []StatusKind }

func (r *recorder) note(k StatusKind) { r.got = append(r.got, k) }

func (r *recorder) writerFuncs() DataWriterFuncs {
	return DataWriterFuncs{
		OfferedDeadlineMissed:  func(Entity, OfferedDeadlineMissedStatus) { r.note(OfferedDeadlineMissed) },
		OfferedIncompatibleQos: func(Entity, OfferedIncompatibleQosStatus) { r.note(OfferedIncompatibleQos) },
		LivelinessLost:         func(Entity, LivelinessLostStatus) { r.note(LivelinessLost) },
		PublicationMatched:     func(Entity, PublicationMatchedStatus) { r.note(PublicationMatched) },
	}
}

func (r *recorder) readerFuncs() DataReaderFuncs {
	return DataReaderFuncs{
		RequestedDeadlineMissed:  func(Entity, RequestedDeadlineMissedStatus) { r.note(RequestedDeadlineMissed) },
		RequestedIncompatibleQos: func(Entity, RequestedIncompatibleQosStatus) { r.note(RequestedIncompatibleQos) },
		SampleRejected:           func(Entity, SampleRejectedStatus) { r.note(SampleRejected) },
		LivelinessChanged:        func(Entity, LivelinessChangedStatus) { r.note(LivelinessChanged) },
		DataAvailable:            func(Entity) { r.note(DataAvailable) },
		SubscriptionMatched:      func(Entity, SubscriptionMatchedStatus) { r.note(SubscriptionMatched) },
		SampleLost:               func(Entity, SampleLostStatus) { r.note(SampleLost) },
	}
}

// callAll invokes every callback of a participant listener once, in bit order.
func callAll(l DomainParticipantListener, e Entity) {
	l.OnInconsistentTopic(e, InconsistentTopicStatus{})
	l.OnOfferedDeadlineMissed(e, OfferedDeadlineMissedStatus{})
	l.OnRequestedDeadlineMissed(e, RequestedDeadlineMissedStatus{})
	l.OnOfferedIncompatibleQos(e, OfferedIncompatibleQosStatus{})
	l.OnRequestedIncompatibleQos(e, RequestedIncompatibleQosStatus{})
	l.OnSampleLost(e, SampleLostStatus{})
	l.OnSampleRejected(e, SampleRejectedStatus{})
	l.OnDataOnReaders(e)
	l.OnDataAvailable(e)
	l.OnLivelinessLost(e, LivelinessLostStatus{})
	l.OnLivelinessChanged(e, LivelinessChangedStatus{})
	l.OnPublicationMatched(e, PublicationMatchedStatus{})
	l.OnSubscriptionMatched(e, SubscriptionMatchedStatus{})
}

func TestFuncs(t *testing.T) {
	e := entity{h: HandleFromGUID([16]byte{1})}
	all := []StatusKind{
		InconsistentTopic, OfferedDeadlineMissed, RequestedDeadlineMissed, OfferedIncompatibleQos,
		RequestedIncompatibleQos, SampleLost, SampleRejected, DataOnReaders, DataAvailable,
		LivelinessLost, LivelinessChanged, PublicationMatched, SubscriptionMatched,
	}
	tests := []struct {
		name string
		make func(r *recorder) DomainParticipantFuncs
		want []StatusKind
	}{
		{"empty does nothing", func(*recorder) DomainParticipantFuncs { return DomainParticipantFuncs{} }, nil},
		{"everything", func(r *recorder) DomainParticipantFuncs {
			return DomainParticipantFuncs{
				TopicFuncs:      TopicFuncs{InconsistentTopic: func(Entity, InconsistentTopicStatus) { r.note(InconsistentTopic) }},
				DataWriterFuncs: r.writerFuncs(),
				SubscriberFuncs: SubscriberFuncs{DataReaderFuncs: r.readerFuncs(), DataOnReaders: func(Entity) { r.note(DataOnReaders) }},
			}
		}, all},
		{"writer only", func(r *recorder) DomainParticipantFuncs {
			return DomainParticipantFuncs{DataWriterFuncs: r.writerFuncs()}
		}, []StatusKind{OfferedDeadlineMissed, OfferedIncompatibleQos, LivelinessLost, PublicationMatched}},
		{"data available only", func(r *recorder) DomainParticipantFuncs {
			return DomainParticipantFuncs{SubscriberFuncs: SubscriberFuncs{DataReaderFuncs: DataReaderFuncs{DataAvailable: func(got Entity) {
				require.Equal(t, e, got)
				r.note(DataAvailable)
			}}}}
		}, []StatusKind{DataAvailable}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r recorder
			f := tt.make(&r)
			callAll(f, e)
			require.Equal(t, tt.want, r.got)
			var mask StatusMask
			for _, k := range tt.want {
				mask |= StatusMask(k)
			}
			require.Equal(t, mask, f.Mask())
		})
	}
}

func TestFuncsMasks(t *testing.T) {
	var r recorder
	require.Equal(t, StatusMask(OfferedDeadlineMissed|OfferedIncompatibleQos|LivelinessLost|PublicationMatched), r.writerFuncs().Mask())
	require.Equal(t, r.writerFuncs().Mask(), PublisherFuncs{DataWriterFuncs: r.writerFuncs()}.Mask())
	require.Equal(t, StatusMask(RequestedDeadlineMissed|RequestedIncompatibleQos|SampleRejected|LivelinessChanged|DataAvailable|SubscriptionMatched|SampleLost), r.readerFuncs().Mask())
	require.Equal(t, StatusMask(DataOnReaders), SubscriberFuncs{DataOnReaders: func(Entity) {}}.Mask())
	require.Equal(t, StatusMask(InconsistentTopic), TopicFuncs{InconsistentTopic: func(Entity, InconsistentTopicStatus) {}}.Mask())
	require.Equal(t, MaskNone, TopicFuncs{}.Mask())
	require.Equal(t, MaskNone, DataWriterFuncs{}.Mask())
	require.Equal(t, MaskNone, DataReaderFuncs{}.Mask())
	require.Equal(t, MaskNone, SubscriberFuncs{}.Mask())
}
