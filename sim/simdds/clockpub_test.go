package simdds

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/internal/netns"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/ros/builtin_interfaces"
	"github.com/ddsgo/ddsgo/ros/rosgraph_msgs"
	"github.com/ddsgo/ddsgo/rtps"
	"github.com/ddsgo/ddsgo/sim"
)

// loopbackParticipant creates a participant that discovers its peers by unicast on
// 127.0.0.1 and is closed when the test ends.
func loopbackParticipant(t testing.TB, domain int) *dds.DomainParticipant {
	t.Helper()
	netns.Require(t)
	p, err := dds.NewParticipant(domain, dds.WithRTPS(rtps.Config{
		Interfaces: []string{"127.0.0.1"}, Peers: []string{"127.0.0.1"}, DisableMulticast: true,
	}))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, p.Close()) })
	return p
}

// matchedReader creates a reader of T on the topic name of p, with opts, and waits until
// it has matched a writer and, unless w is nil, w has matched a reader too: discovery is
// not symmetric, and a volatile sample written before the match is lost. The wait and
// the reads that follow have 10 s in all, the context returned.
func matchedReader[T any](t *testing.T, p *dds.DomainParticipant, name string, w interface {
	PublicationMatchedStatus() (listener.PublicationMatchedStatus, error)
}, opts ...dds.Option,
) (*dds.DataReader[T], context.Context) {
	t.Helper()
	topic, err := dds.NewTopic[T](p, name)
	require.NoError(t, err)
	r, err := dds.NewReader(topic, opts...)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	for {
		rs, err := r.SubscriptionMatchedStatus()
		require.NoError(t, err)
		ws := listener.PublicationMatchedStatus{CurrentCount: 1}
		if w != nil {
			ws, err = w.PublicationMatchedStatus()
			require.NoError(t, err)
		}
		if rs.CurrentCount > 0 && ws.CurrentCount > 0 {
			return r, ctx
		}
		require.NoError(t, ctx.Err(), "no match")
		time.Sleep(5 * time.Millisecond)
	}
}

// A world with a ClockPublisher publishes its time on /clock after each step, as a ROS 2
// node with use_sim_time reads it; publishing allocates nothing.
func TestClockPublisher(t *testing.T) {
	world, node := loopbackParticipant(t, 61), loopbackParticipant(t, 61)
	r := newRunner(t, sim.Config{})
	c, err := NewClockPublisher(world)
	require.NoError(t, err)
	defer func() { require.NoError(t, c.Close()) }()
	require.NoError(t, r.AddSystem(c, sim.SystemConfig{Name: "clock"}))

	in, ctx := matchedReader[rosgraph_msgs.Clock](t, node, clockTopic, c.w, dds.BestEffort(), dds.KeepLast(1))
	var info sim.UpdateInfo
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
