package qos_test

import (
	"errors"
	"fmt"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/qos"
)

func Example() {
	wq := qos.DefaultDataWriterQos()
	wq.Durability.Kind = qos.TransientLocal
	wq.History = qos.History{Kind: qos.KeepLast, Depth: 10}

	rq := qos.DefaultDataReaderQos()
	rq.Reliability.Kind = qos.Reliable
	rq.Durability.Kind = qos.Persistent

	incompatible := qos.Compatible(
		qos.Offered{Writer: wq, Publisher: qos.DefaultPublisherQos()},
		qos.Requested{Reader: rq, Subscriber: qos.DefaultSubscriberQos()},
	)
	fmt.Println(incompatible)
	// Output:
	// [Durability]
}

func ExampleDataReaderQos_Validate() {
	q := qos.DefaultDataReaderQos()
	q.History.Depth = 5
	q.ResourceLimits.MaxSamplesPerInstance = 2
	err := q.Validate()
	fmt.Println(err)
	fmt.Println(errors.Is(err, dds.ErrInconsistentPolicy))
	// Output:
	// dds: inconsistent policy: History: KEEP_LAST depth 5 > max_samples_per_instance 2
	// true
}

func ExampleDataWriterQos_CheckChange() {
	old := qos.DefaultDataWriterQos()
	next := old
	next.Deadline.Period = 100_000_000 // changeable
	fmt.Println(old.CheckChange(next))
	next.Reliability.Kind = qos.BestEffort // not changeable
	fmt.Println(old.CheckChange(next))
	// Output:
	// <nil>
	// dds: immutable policy: Reliability: not changeable after the entity is enabled
}

func ExamplePartitionsMatch() {
	fmt.Println(qos.PartitionsMatch([]string{"sensors/*"}, []string{"sensors/lidar"}))
	fmt.Println(qos.PartitionsMatch([]string{"sensors/*"}, []string{"sensors/?idar"}))
	fmt.Println(qos.PartitionsMatch(nil, []string{""}))
	fmt.Println(qos.PartitionsMatch(nil, []string{"a"}))
	// Output:
	// true
	// false
	// true
	// false
}

func ExampleDataWriterQos_FromTopic() {
	tq := qos.DefaultTopicQos()
	tq.Durability.Kind = qos.TransientLocal
	wq := qos.DefaultDataWriterQos().FromTopic(tq)
	fmt.Println(wq.Durability.Kind, wq.Reliability.Kind)
	// Output:
	// TRANSIENT_LOCAL BEST_EFFORT
}
