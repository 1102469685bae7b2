package dds_test

import (
	"context"
	"fmt"
	"time"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/ddsgo/ddsgo/rtps"
)

// Greeting is the type of the examples' topic. Its IDL name is the one its method says;
// without the method it would be "dds_test::Greeting".
type Greeting struct {
	ID   int32 `dds:"key"`
	Text string
}

func (Greeting) DDSTypeName() string { return "example::Greeting" }

// loopback keeps the examples' traffic on this host: unicast discovery on 127.0.0.1.
var loopback = dds.WithRTPS(rtps.Config{Interfaces: []string{"127.0.0.1"}, Peers: []string{"127.0.0.1"}, DisableMulticast: true})

// Two participants: one writes "hello", the other receives it. The topic is reliable
// and transient-local, so the reader gets the sample even if it matches the writer
// after the write. README.md shows the same code as a program.
func Example() {
	if err := hello(loopback); err != nil {
		fmt.Println(err)
	}
	// Output:
	// hello
}

// hello is README.md's program, with opts for its participants.
func hello(opts ...dds.Option) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	alice, err := dds.NewParticipant(0, opts...)
	if err != nil {
		return err // for example: no usable interface, none is up with an IPv4 address
	}
	defer alice.Close()
	bob, err := dds.NewParticipant(0, opts...)
	if err != nil {
		return err
	}
	defer bob.Close()
	out, err := dds.NewTopic[Greeting](alice, "Greetings", dds.Reliable(), dds.TransientLocal())
	if err != nil {
		return err
	}
	in, err := dds.NewTopic[Greeting](bob, "Greetings", dds.Reliable(), dds.TransientLocal())
	if err != nil {
		return err
	}
	w, err := dds.NewWriter(out)
	if err != nil {
		return err
	}
	r, err := dds.NewReader(in)
	if err != nil {
		return err
	}
	if err := w.Write(ctx, &Greeting{ID: 1, Text: "hello"}); err != nil {
		return err
	}
	for g := range r.Samples(ctx) {
		fmt.Println(g.Text)
		return nil
	}
	return ctx.Err() // nothing arrived in time
}

// A listener is a struct of typed functions: the reader passed in is the
// *DataReader[Greeting], no type assertion needed.
func ExampleReaderListener() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p, _ := dds.NewParticipant(0, loopback)
	defer p.Close()
	topic, _ := dds.NewTopic[Greeting](p, "Listened", dds.Reliable())
	got := make(chan string, 1)
	l := dds.ReaderListener[Greeting]{OnDataAvailable: func(r *dds.DataReader[Greeting]) {
		data, _, err := r.Take(ctx, dds.NoWait())
		if err == nil {
			got <- data[0].Text
		}
	}}
	_, _ = dds.NewReader(topic, dds.WithListener(l, listener.StatusMask(listener.DataAvailable)))
	w, _ := dds.NewWriter(topic)
	_ = w.Write(ctx, &Greeting{Text: "heard"})
	fmt.Println(<-got)
	// Output:
	// heard
}

// The full DCPS model stays reachable: explicit publishers and subscribers, whole QoS
// structs, read and take with their selections.
func ExampleNewWriter() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p, _ := dds.NewParticipant(0, loopback)
	defer p.Close()
	topic, _ := dds.NewTopic[Greeting](p, "Sensors")
	pub, _ := p.NewPublisher(dds.Partition("lab"))
	sub, _ := p.NewSubscriber(dds.Partition("lab"))
	wq := qos.DefaultDataWriterQos()
	wq.History = qos.History{Kind: qos.KeepLast, Depth: 10}
	w, _ := dds.NewWriter(topic, dds.WithPublisher(pub), dds.WithQos(wq))
	r, _ := dds.NewReader(topic, dds.WithSubscriber(sub), dds.Reliable(), dds.KeepAll())
	for i := range 3 {
		_ = w.Write(ctx, &Greeting{ID: int32(i), Text: "reading"})
	}
	_ = w.WaitForAcknowledgments(ctx)
	data, infos, _ := r.Take(ctx, dds.MaxSamples(5), dds.NoWait())
	fmt.Println(len(data), infos[0].InstanceState)
	// Output:
	// 3 ALIVE
}

// A service: the replier answers each request with what its handler returns; the
// requester's Call waits for the reply to its own request. ROSNames gives the topics
// the names a ROS 2 service /greet has (rq/greetRequest, rr/greetReply).
func ExampleNewReplier() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p, _ := dds.NewParticipant(0, loopback)
	defer p.Close()
	greet := func(_ context.Context, g *Greeting) (Greeting, error) {
		return Greeting{ID: g.ID, Text: "hello, " + g.Text}, nil
	}
	s, _ := dds.NewReplier(p, "/greet", greet, dds.ROSNames())
	c, _ := dds.NewRequester[Greeting, Greeting](p, "/greet", dds.ROSNames())
	_ = c.WaitForService(ctx)
	reply, err := c.Call(ctx, &Greeting{ID: 1, Text: "bob"})
	fmt.Println(reply.Text, err)
	_ = c.Close()
	_ = s.Close()
	// Output:
	// hello, bob <nil>
}
