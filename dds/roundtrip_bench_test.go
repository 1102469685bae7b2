package dds

import (
	"context"
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/internal/netns"
	"github.com/ddsgo/ddsgo/rtps"
)

// BenchmarkRoundTrip is a ping/pong through the real engine on sockets, reliable
// KEEP_ALL: ping writes a sample and waits for the one pong writes back after it took
// it. one_participant has both ends in one participant (its messages to itself go
// through the engine's local queue); two_participants in one process talk over
// loopback UDP. Both take same-process delivery (internal/rtps/local.go); the _wire
// variants turn it off (withWire), for the comparison; _busy_poll adds
// rtps.Config.BusyPoll. An op is one round trip.
func BenchmarkRoundTrip(b *testing.B) {
	netns.Require(b)
	b.Run("one_participant", func(b *testing.B) {
		p := benchParticipant(b)
		benchRoundTrip(b, p, p)
	})
	b.Run("two_participants", func(b *testing.B) {
		benchRoundTrip(b, benchParticipant(b), benchParticipant(b))
	})
	b.Run("one_participant_wire", func(b *testing.B) {
		p := benchParticipant(b, withWire())
		benchRoundTrip(b, p, p)
	})
	b.Run("two_participants_wire", func(b *testing.B) {
		benchRoundTrip(b, benchParticipant(b, withWire()), benchParticipant(b, withWire()))
	})
	b.Run("two_participants_wire_busy_poll", func(b *testing.B) {
		cfg := WithRTPS(rtps.Config{BusyPoll: time.Millisecond})
		benchRoundTrip(b, benchParticipant(b, withWire(), cfg), benchParticipant(b, withWire(), cfg))
	})
}

func benchParticipant(b *testing.B, opts ...Option) *DomainParticipant {
	p, err := NewParticipant(205, opts...)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = p.Close() })
	return p
}

func benchRoundTrip(b *testing.B, pa, pb *DomainParticipant) {
	pingW, pingR := benchEndpoints(b, pa, pb, "ping")
	pongW, pongR := benchEndpoints(b, pb, pa, "pong")
	for _, w := range []*DataWriter[point]{pingW, pongW} {
		for {
			ms, err := w.MatchedSubscriptions()
			if err != nil {
				b.Fatal(err)
			}
			if len(ms) > 0 {
				break
			}
			time.Sleep(time.Millisecond)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { // pong
		defer close(done)
		var v [1]point
		var infos [1]SampleInfo
		for {
			if _, err := pingR.TakeInto(ctx, v[:], infos[:]); err != nil {
				return
			}
			if err := pongW.Write(ctx, &v[0]); err != nil {
				return
			}
		}
	}()
	defer func() { cancel(); <-done }()
	var v, got [1]point
	var infos [1]SampleInfo
	ping := func() {
		v[0].X++
		if err := pingW.Write(ctx, &v[0]); err != nil {
			b.Fatal(err)
		}
		if _, err := pongR.TakeInto(ctx, got[:], infos[:]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		ping()
	}
}
