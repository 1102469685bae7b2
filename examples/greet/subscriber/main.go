// Command subscriber prints the greetings on the topic "Greetings" (package greet) as
// they arrive, until interrupted or, with -n, after that many.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/examples/greet"
)

func main() {
	n := flag.Int("n", 0, "exit after this many greetings (0: run until interrupted)")
	loopback := flag.Bool("loopback", false, "stay on 127.0.0.1")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := subscribe(ctx, *n, *loopback); err != nil && ctx.Err() == nil {
		log.Fatal(err)
	}
}

func subscribe(ctx context.Context, n int, loopback bool) error {
	p, err := greet.Participant(loopback)
	if err != nil {
		return err
	}
	defer p.Close()
	topic, err := dds.NewTopic[greet.Greeting](p, greet.TopicName, greet.TopicOptions()...)
	if err != nil {
		return err
	}
	r, err := dds.NewReader(topic)
	if err != nil {
		return err
	}
	fmt.Println("ready")
	got := 0
	for g, info := range r.Samples(ctx) {
		if !info.ValidData {
			continue
		}
		fmt.Println("got", g.Text)
		if got++; n > 0 && got == n {
			return nil
		}
	}
	return ctx.Err()
}
