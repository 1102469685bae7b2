package dds_test

import (
	"context"
	"fmt"
	"time"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/ddsgo/ddsgo/waitset"
)

// The life of an instance as a reader sees it: written (ALIVE, NEW view), read again
// (READ, NOT_NEW), disposed (NOT_ALIVE_DISPOSED, a sample without data), written again
// (ALIVE, NEW view, a disposed generation counted), unregistered by its only writer
// (NOT_ALIVE_NO_WRITERS: the writer does not dispose what it unregisters, which by
// default it would). docs/lifecycle.md walks through it.
func Example_lifecycle() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p, _ := dds.NewParticipant(0, loopback)
	defer p.Close()
	topic, _ := dds.NewTopic[Greeting](p, "Lifecycle", dds.Reliable(), dds.KeepLast(10))
	wq := qos.DefaultDataWriterQos().FromTopic(topic.Qos())
	wq.WriterDataLifecycle.AutodisposeUnregisteredInstances = false
	w, _ := dds.NewWriter(topic, dds.WithQos(wq))
	r, _ := dds.NewReader(topic)
	show := func(step string, read func(context.Context, ...dds.ReadOption) ([]Greeting, []dds.SampleInfo, error)) {
		data, infos, err := read(ctx)
		if err != nil {
			fmt.Println(step, err)
			return
		}
		for i, info := range infos {
			text := "(no data)"
			if info.ValidData {
				text = data[i].Text
			}
			fmt.Printf("%-12s %-9s %-8s %-20s disposed generations %d\n", step, text,
				info.SampleState, info.InstanceState, info.DisposedGenerationCount)
		}
	}
	g := Greeting{ID: 1, Text: "hello"}
	_ = w.Write(ctx, &g)
	show("write", r.Read)
	show("read again", r.Read)
	_ = w.Dispose(ctx, &g)
	show("dispose", r.Take) // takes the data sample and the dispose
	g.Text = "again"
	_ = w.Write(ctx, &g)
	show("rewrite", r.Take)
	_ = w.Unregister(ctx, &g)
	show("unregister", r.Take)
	// Output:
	// write        hello     NOT_READ ALIVE                disposed generations 0
	// read again   hello     READ     ALIVE                disposed generations 0
	// dispose      hello     READ     NOT_ALIVE_DISPOSED   disposed generations 0
	// dispose      (no data) NOT_READ NOT_ALIVE_DISPOSED   disposed generations 0
	// rewrite      again     NOT_READ ALIVE                disposed generations 1
	// unregister   (no data) NOT_READ NOT_ALIVE_NO_WRITERS disposed generations 1
}

// A WaitSet waits on several conditions at once: a ReadCondition of a reader, the
// StatusCondition of a writer (a match), and a GuardCondition the program triggers to
// stop. docs/waitset.md walks through it.
func Example_waitSet() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p, _ := dds.NewParticipant(0, loopback)
	defer p.Close()
	topic, _ := dds.NewTopic[Greeting](p, "Waited", dds.Reliable())
	r, _ := dds.NewReader(topic)
	w, _ := dds.NewWriter(topic)

	data, _ := r.CreateReadCondition(dds.NotReadStates)
	matched := w.StatusCondition()
	_ = matched.SetEnabledStatuses(listener.StatusMask(listener.PublicationMatched))
	var stop waitset.GuardCondition
	ws := waitset.New()
	for _, c := range []waitset.Condition{data, matched, &stop} {
		_ = ws.AttachCondition(c)
	}
	for {
		active, err := ws.Wait(ctx)
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, c := range active {
			switch c {
			case matched:
				st, _ := w.PublicationMatchedStatus() // reading it resets the change
				fmt.Println("matched readers:", st.CurrentCount)
				_ = w.Write(ctx, &Greeting{ID: 1, Text: "hello"})
			case data:
				got, _, _ := r.Take(ctx, dds.WithCondition(data), dds.NoWait())
				for _, g := range got {
					fmt.Println("took:", g.Text)
				}
				stop.SetTriggerValue(true)
			case &stop:
				fmt.Println("stopped")
				return
			}
		}
	}
	// Output:
	// matched readers: 1
	// took: hello
	// stopped
}
