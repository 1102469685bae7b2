// Command publisher writes greetings on the topic "Greetings" (package greet): -n of
// them, one per -every, then waits for its subscribers to acknowledge them all.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"time"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/examples/greet"
)

func main() {
	n := flag.Int("n", 5, "how many greetings")
	every := flag.Duration("every", 500*time.Millisecond, "the time between greetings")
	loopback := flag.Bool("loopback", false, "stay on 127.0.0.1")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := publish(ctx, *n, *every, *loopback); err != nil {
		log.Fatal(err)
	}
}

func publish(ctx context.Context, n int, every time.Duration, loopback bool) error {
	p, err := greet.Participant(loopback)
	if err != nil {
		return err
	}
	defer p.Close()
	topic, err := dds.NewTopic[greet.Greeting](p, greet.TopicName, greet.TopicOptions()...)
	if err != nil {
		return err
	}
	w, err := dds.NewWriter(topic)
	if err != nil {
		return err
	}
	for i := range n {
		g := greet.Greeting{ID: int32(i), Text: fmt.Sprintf("hello %d", i)}
		if err := w.Write(ctx, &g); err != nil {
			return err
		}
		fmt.Println("wrote", g.Text)
		if i < n-1 {
			select {
			case <-time.After(every):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	// Before exiting, let the matched subscribers acknowledge everything.
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return w.WaitForAcknowledgments(ctx)
}
