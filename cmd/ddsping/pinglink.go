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

// nativeLink pings on ddsping's own topics.
type nativeLink struct {
	ping, pong string
	w          *dds.DataWriter[sample]
	r          *dds.DataReader[sample]
	rc         *dds.ReadCondition[sample]
	data       []sample
	infos      []dds.SampleInfo
}

func newNativeLink(n *node, reliable bool) (*nativeLink, error) {
	l := &nativeLink{data: make([]sample, takeBatch), infos: make([]dds.SampleInfo, takeBatch)}
	l.ping, l.pong = pingTopics(reliable)
	wq, rq := endpointQos(reliable, pingDepth)
	var err error
	if l.w, err = n.writer(l.ping, wq); err != nil {
		return nil, err
	}
	if l.r, err = n.reader(l.pong, rq); err != nil {
		return nil, err
	}
	if l.rc, err = l.r.CreateReadCondition(dds.States{}); err != nil {
		return nil, err
	}
	return l, nil
}

func (l *nativeLink) peer() string   { return "ddsping" }
func (l *nativeLink) topics() string { return l.ping + " + " + l.pong }

func (l *nativeLink) write(ctx context.Context, s *sample) error { return l.w.Write(ctx, s) }

func (l *nativeLink) take(ctx context.Context, each func(*sample, *dds.SampleInfo)) error {
	return drain(ctx, l.r, l.data, l.infos, func(data []sample, infos []dds.SampleInfo) error {
		for i := range data {
			each(&data[i], &infos[i])
		}
		return nil
	})
}

func (l *nativeLink) readCondition() waitset.Condition { return l.rc }

func (l *nativeLink) matched() (int32, int32, error) { return matchedCounts(l.w, l.r) }

func (l *nativeLink) statusConditions() ([]waitset.Condition, error) {
	return matchConditions(l.w, l.r)
}

func (l *nativeLink) close() error {
	if err := l.r.DeleteReadCondition(l.rc); err != nil {
		return err
	}
	if err := l.r.Close(); err != nil {
		return err
	}
	return l.w.Close()
}

// perfLink pings a ddsperf pong (or ddsping's pong serving ddsperf's pingers): KeyedSeq
// pings on DDSPerf?PingKS, pongs read in the partition of the participant's GUID. The
// sample's Stamp travels as the source timestamp, its Payload as the baggage cut to
// ddsperf's size.
type perfLink struct {
	ping, pong string
	id         uint32
	sub        *dds.Subscriber
	w          *dds.DataWriter[keyedSeq]
	r          *dds.DataReader[keyedSeq]
	rc         *dds.ReadCondition[keyedSeq]
	out        keyedSeq
	in         sample
	data       []keyedSeq
	infos      []dds.SampleInfo
}

// newPerfLink creates the ddsperf link of a pinger with id in n; n's participant must
// announce perfUserData, or no ddsperf will answer.
func newPerfLink(n *node, reliable bool, id uint32) (*perfLink, error) {
	l := &perfLink{id: id, data: make([]keyedSeq, takeBatch), infos: make([]dds.SampleInfo, takeBatch)}
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
	if l.w, err = perfWriter(n, nil, l.ping, wq); err != nil {
		return nil, err
	}
	if l.r, err = perfReader(n, l.sub, l.pong, rq); err != nil {
		return nil, err
	}
	if l.rc, err = l.r.CreateReadCondition(dds.States{}); err != nil {
		return nil, err
	}
	return l, nil
}

func (l *perfLink) peer() string   { return "ddsperf" }
func (l *perfLink) topics() string { return l.ping + " + " + l.pong }

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

func (l *perfLink) readCondition() waitset.Condition { return l.rc }

func (l *perfLink) matched() (int32, int32, error) { return matchedCounts(l.w, l.r) }

func (l *perfLink) statusConditions() ([]waitset.Condition, error) {
	return matchConditions(l.w, l.r)
}

func (l *perfLink) close() error {
	if err := l.r.DeleteReadCondition(l.rc); err != nil {
		return err
	}
	if err := l.r.Close(); err != nil {
		return err
	}
	if err := l.w.Close(); err != nil {
		return err
	}
	return l.sub.Close()
}
