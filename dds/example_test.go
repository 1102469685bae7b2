package dds_test

import (
	"context"
	"fmt"
	"time"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/ddsgo/ddsgo/rtps"
	"github.com/ddsgo/ddsgo/waitset"
)

// Sample is the type of the example's topic.
type Sample struct {
	ID   int32 `dds:"key"`
	Text string
}

// Two participants on this host's loopback interface: one writes, the other waits for the data
// with a WaitSet and takes it.
func Example() {
	// Loopback only, unicast discovery: the example sends nothing beyond this host.
	loopback := dds.WithRTPS(rtps.Config{Interfaces: []string{"127.0.0.1"}, Peers: []string{"127.0.0.1"}, DisableMulticast: true})
	pa, err := dds.CreateParticipant(0, nil, nil, 0, loopback)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() {
		_ = pa.DeleteContainedEntities()
		_ = dds.Factory().DeleteParticipant(pa)
	}()
	pb, _ := dds.CreateParticipant(0, nil, nil, 0, loopback)
	defer func() {
		_ = pb.DeleteContainedEntities()
		_ = dds.Factory().DeleteParticipant(pb)
	}()

	tt, _ := dds.NewTopicType[Sample]("example::Sample")
	topicA, _ := pa.CreateTopic("Example", tt, nil, nil, 0)
	topicB, _ := pb.CreateTopic("Example", tt, nil, nil, 0)
	pub, _ := pa.CreatePublisher(nil, nil, 0)
	sub, _ := pb.CreateSubscriber(nil, nil, 0)

	w, _ := dds.CreateDataWriter[Sample](pub, topicA, nil, nil, 0) // RELIABLE by default
	rq := qos.DefaultDataReaderQos()
	rq.Reliability.Kind = qos.Reliable
	r, _ := dds.CreateDataReader[Sample](sub, topicB, &rq, nil, 0)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	wait := func(c waitset.Condition) {
		ws := waitset.New()
		_ = ws.AttachCondition(c)
		if _, err := ws.Wait(ctx); err != nil {
			fmt.Println(err)
		}
	}

	// Wait until the writer has matched the reader, then write.
	sc := w.StatusCondition()
	_ = sc.SetEnabledStatuses(listener.StatusMask(listener.PublicationMatched))
	wait(sc)
	_ = w.Write(&Sample{ID: 1, Text: "hello"})

	rc, _ := r.CreateReadCondition(dds.NotReadStates)
	wait(rc)
	data, infos, _ := r.Take(0, dds.States{})
	fmt.Println(data[0].ID, data[0].Text, infos[0].InstanceState)
	_ = r.DeleteReadCondition(rc)
	// Output:
	// 1 hello ALIVE
}
