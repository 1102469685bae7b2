package main

import (
	"context"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/waitset"
)

// pingLink is a ping writer with its pong reader: on ddsping's own topics (nativeLink)
// or on ddsperf's (perfLink). A pinger opens both and keeps the first that matches a
// pong, so that it needs no flag to say which kind of pong is there.
type pingLink interface {
	// peer names the kind of pong: "ddsping" or "ddsperf".
	peer() string
	// topics names the ping and pong topics.
	topics() string
	// write sends the ping s.
	write(ctx context.Context, s *sample) error
	// take takes the pongs there are and calls each with every one, as a sample.
	take(ctx context.Context, each func(*sample, *dds.SampleInfo)) error
	// readCondition triggers when pongs are there.
	readCondition() waitset.Condition
	// onData makes the pong reader call fn when pongs arrive (its DATA_AVAILABLE
	// listener), or no longer, fn nil.
	onData(fn func()) error
	// matched returns how many readers the ping writer and how many writers the pong
	// reader have matched.
	matched() (readers, writers int32, err error)
	// statusConditions returns the status conditions of the writer and the reader,
	// enabled for their matched statuses.
	statusConditions() ([]waitset.Condition, error)
	// close deletes the writer and the reader.
	close() error
}

// endpoints is the writer and reader of a link, whatever their sample type.
type endpoints interface {
	PublicationMatchedStatus() (listener.PublicationMatchedStatus, error)
	StatusCondition() *dds.StatusCondition
}

// readerEndpoint is what a link needs of its reader.
type readerEndpoint interface {
	SubscriptionMatchedStatus() (listener.SubscriptionMatchedStatus, error)
	StatusCondition() *dds.StatusCondition
}

// matchedCounts returns the current matched counts of w and r.
func matchedCounts(w endpoints, r readerEndpoint) (int32, int32, error) {
	ws, err := w.PublicationMatchedStatus()
	if err != nil {
		return 0, 0, err
	}
	rs, err := r.SubscriptionMatchedStatus()
	return ws.CurrentCount, rs.CurrentCount, err
}

// matchConditions enables the matched statuses of w and r on their status conditions.
func matchConditions(w endpoints, r readerEndpoint) ([]waitset.Condition, error) {
	wc, rc := w.StatusCondition(), r.StatusCondition()
	if err := wc.SetEnabledStatuses(listener.StatusMask(listener.PublicationMatched)); err != nil {
		return nil, err
	}
	if err := rc.SetEnabledStatuses(listener.StatusMask(listener.SubscriptionMatched)); err != nil {
		return nil, err
	}
	return []waitset.Condition{wc, rc}, nil
}

// linkEnds are the ping and pong topic names, the ping writer, the pong reader with a
// read condition of all its samples, and the take buffers of a link of samples T.
type linkEnds[T any] struct {
	ping, pong string
	w          *dds.DataWriter[T]
	r          *dds.DataReader[T]
	rc         *dds.ReadCondition[T]
	data       []T
	infos      []dds.SampleInfo
}

// open makes the take buffers, the writer and the reader with newW and newR, and the
// read condition.
func (e *linkEnds[T]) open(newW func() (*dds.DataWriter[T], error), newR func() (*dds.DataReader[T], error)) error {
	e.data, e.infos = make([]T, takeBatch), make([]dds.SampleInfo, takeBatch)
	var err error
	if e.w, err = newW(); err != nil {
		return err
	}
	if e.r, err = newR(); err != nil {
		return err
	}
	e.rc, err = e.r.CreateReadCondition(dds.States{})
	return err
}

func (e *linkEnds[T]) topics() string { return e.ping + " + " + e.pong }

func (e *linkEnds[T]) readCondition() waitset.Condition { return e.rc }

func (e *linkEnds[T]) onData(fn func()) error {
	if fn == nil {
		return e.r.SetListener(dds.ReaderListener[T]{}, 0)
	}
	l := dds.ReaderListener[T]{OnDataAvailable: func(*dds.DataReader[T]) { fn() }}
	return e.r.SetListener(l, listener.StatusMask(listener.DataAvailable))
}

func (e *linkEnds[T]) matched() (int32, int32, error) { return matchedCounts(e.w, e.r) }

func (e *linkEnds[T]) statusConditions() ([]waitset.Condition, error) {
	return matchConditions(e.w, e.r)
}

// close deletes the read condition, the reader and the writer.
func (e *linkEnds[T]) close() error {
	if err := e.r.DeleteReadCondition(e.rc); err != nil {
		return err
	}
	if err := e.r.Close(); err != nil {
		return err
	}
	return e.w.Close()
}

// nativeLink pings on ddsping's own topics.
type nativeLink struct {
	linkEnds[sample]
}

func newNativeLink(n *node, reliable bool) (*nativeLink, error) {
	l := &nativeLink{}
	l.ping, l.pong = pingTopics(reliable)
	wq, rq := endpointQos(reliable, pingDepth)
	err := l.open(func() (*dds.DataWriter[sample], error) { return n.writer(l.ping, wq) },
		func() (*dds.DataReader[sample], error) { return n.reader(l.pong, rq) })
	if err != nil {
		return nil, err
	}
	return l, nil
}

func (l *nativeLink) peer() string { return "ddsping" }

func (l *nativeLink) write(ctx context.Context, s *sample) error { return l.w.Write(ctx, s) }

func (l *nativeLink) take(ctx context.Context, each func(*sample, *dds.SampleInfo)) error {
	return drain(ctx, l.r, l.data, l.infos, func(data []sample, infos []dds.SampleInfo) error {
		for i := range data {
			each(&data[i], &infos[i])
		}
		return nil
	})
}

// perfLink pings a ddsperf pong (or ddsping's pong serving ddsperf's pingers): KeyedSeq
// pings on DDSPerf?PingKS, pongs read in the partition of the participant's GUID. The
// sample's Stamp travels as the source timestamp, its Payload as the baggage cut to
// ddsperf's size.
type perfLink struct {
	linkEnds[keyedSeq]
	id  uint32
	sub *dds.Subscriber
	out keyedSeq
	in  sample
}

// newPerfLink creates the ddsperf link of a pinger with id in n; n's participant must
// announce perfUserData, or no ddsperf will answer.
func newPerfLink(n *node, reliable bool, id uint32) (*perfLink, error) {
	l := &perfLink{id: id}
	l.ping, l.pong, _ = perfTopics(reliable)
	// ddsperf keeps the last ping and pong only; history takes no part in matching, and
	// the pinger keeps pingDepth, so that a paced pinger's pongs arriving together are
	// not overwritten before it takes them.
	wq, rq := perfPingQos(reliable)
	wq.History.Depth, rq.History.Depth = pingDepth, pingDepth
	var err error
	if l.sub, err = n.p.NewSubscriber(dds.Partition(perfPartition(n.p.InstanceHandle()))); err != nil {
		return nil, err
	}
	err = l.open(func() (*dds.DataWriter[keyedSeq], error) { return perfWriter(n, nil, l.ping, wq) },
		func() (*dds.DataReader[keyedSeq], error) { return perfReader(n, l.sub, l.pong, rq) })
	if err != nil {
		return nil, err
	}
	return l, nil
}

func (l *perfLink) peer() string { return "ddsperf" }

func (l *perfLink) write(ctx context.Context, s *sample) error {
	l.out.Seq = uint32(s.Seq)
	l.out.Baggage = s.Payload[:perfBaggage(len(s.Payload))]
	return l.w.Write(ctx, &l.out, dds.Timestamp(perfStamp(s.Stamp)))
}

func (l *perfLink) take(ctx context.Context, each func(*sample, *dds.SampleInfo)) error {
	return drain(ctx, l.r, l.data, l.infos, func(data []keyedSeq, infos []dds.SampleInfo) error {
		for i := range data {
			// Only the answers to this participant's pings arrive in its partition.
			l.in = sample{ID: l.id, Seq: uint64(data[i].Seq), Stamp: stampOf(infos[i].SourceTimestamp)}
			each(&l.in, &infos[i])
		}
		return nil
	})
}

func (l *perfLink) close() error {
	if err := l.linkEnds.close(); err != nil {
		return err
	}
	return l.sub.Close()
}
