package rtps_test

import (
	"fmt"
	"log/slog"
	"os"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/rtps"
)

// A participant for a network without multicast: discovery by unicast to the listed
// peers (here this host only), ephemeral unicast ports as Cyclone DDS picks by default
// (peers then need multicast, or this participant in their lists with its port), and
// warnings on stderr.
func ExampleConfig() {
	cfg := rtps.Config{
		Interfaces:       []string{"127.0.0.1"},
		Peers:            []string{"127.0.0.1"},
		DisableMulticast: true,
		Index:            rtps.IndexNone,
		Name:             "example",
		Logger:           slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
	p, err := dds.NewParticipant(1, dds.WithRTPS(cfg))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Close()
	fmt.Println("domain", p.DomainID(), "index", cfg.Index)
	// Output:
	// domain 1 index none
}
