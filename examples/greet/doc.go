// Package greet is a two-process example: publisher/ writes greetings on the topic
// "Greetings" and subscriber/ prints them, each its own program:
//
//	go run ./examples/greet/subscriber &
//	go run ./examples/greet/publisher -n 3
//
// The topic is RELIABLE and TRANSIENT_LOCAL, KEEP_LAST 10: a subscriber started after the
// publisher still gets the last ten greetings, as long as the publisher runs. Both use
// domain 0 and the machine's interfaces; -loopback keeps them on 127.0.0.1. The type
// carries its IDL name (example::Greeting), so Cyclone DDS and Fast DDS programs with
// the IDL `module example { struct Greeting { @key long ID; string Text; }; };` join in.
package greet

import (
	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/rtps"
)

// Greeting is the sample type of the example.
type Greeting struct {
	ID   int32 `dds:"key"`
	Text string
}

// DDSTypeName is the type's IDL name.
func (Greeting) DDSTypeName() string { return "example::Greeting" }

// TopicName is the example's topic.
const TopicName = "Greetings"

// TopicOptions are the QoS of the example's topic, which both programs use.
func TopicOptions() []dds.Option {
	return []dds.Option{dds.Reliable(), dds.TransientLocal(), dds.KeepLast(10)}
}

// Participant makes the participant of either program; loopback keeps it on 127.0.0.1.
func Participant(loopback bool) (*dds.DomainParticipant, error) {
	if loopback {
		return dds.NewParticipant(0, dds.WithRTPS(rtps.Config{Interfaces: []string{"127.0.0.1"}, Peers: []string{"127.0.0.1"}, DisableMulticast: true}))
	}
	return dds.NewParticipant(0)
}
