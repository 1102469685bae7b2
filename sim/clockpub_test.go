package sim

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/internal/netns"
	"github.com/ddsgo/ddsgo/ros/builtin_interfaces"
	"github.com/ddsgo/ddsgo/ros/rosgraph_msgs"
	"github.com/ddsgo/ddsgo/rtps"
	"github.com/ddsgo/ddsgo/sim/ecm"
)

// loopbackParticipant creates a participant that discovers its peers by unicast on
// 127.0.0.1 and is closed when the test ends.
func loopbackParticipant(t *testing.T, domain int) *dds.DomainParticipant {
	t.Helper()
	netns.Require(t)
	p, err := dds.NewParticipant(domain, dds.WithRTPS(rtps.Config{
		Interfaces: []string{"127.0.0.1"}, Peers: []string{"127.0.0.1"}, DisableMulticast: true,
	}))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, p.Close()) })
	return p
}

// A world with a ClockPublisher publishes its time on /clock after each step, as a ROS 2
// node with use_sim_time reads it; publishing allocates nothing.
func TestClockPublisher(t *testing.T) {
	world, node := loopbackParticipant(t, 61), loopbackParticipant(t, 61)
	r, _ := newRunner(t, Config{})
	c, err := NewClockPublisher(world)
	require.NoError(t, err)
	defer func() { require.NoError(t, c.Close()) }()
	require.NoError(t, r.AddSystem(c, SystemConfig{Name: "clock"}))

	topic, err := dds.NewTopic[rosgraph_msgs.Clock](node, clockTopic)
	require.NoError(t, err)
	in, err := dds.NewReader(topic, dds.BestEffort(), dds.KeepLast(1))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for { // both ways: discovery is not symmetric, and a sample before the match is lost
		ms, err := c.w.PublicationMatchedStatus()
		require.NoError(t, err)
		rs, err := in.SubscriptionMatchedStatus()
		require.NoError(t, err)
		if ms.CurrentCount > 0 && rs.CurrentCount > 0 {
			break
		}
		require.NoError(t, ctx.Err(), "no match")
		time.Sleep(5 * time.Millisecond)
	}
	var info UpdateInfo
	for range 5 {
		info, err = r.RunOnce()
		require.NoError(t, err)
	}
	want := rosTime(info.SimTime)
	require.Equal(t, builtin_interfaces.Time{Sec: 0, Nanosec: uint32(5 * r.StepSize())}, want)
	for msg := range in.Samples(ctx) {
		if msg.Clock == want {
			break
		}
	}
	require.NoError(t, ctx.Err(), "the last step's time arrived")
	if !raceEnabled {
		reader := ecm.New().Reader()
		require.Zero(t, testing.AllocsPerRun(200, func() { c.PostUpdate(info, reader) }))
	}
}
