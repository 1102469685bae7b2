package simdds

import (
	"context"
	"time"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/ros/builtin_interfaces"
	"github.com/ddsgo/ddsgo/ros/rosgraph_msgs"
	"github.com/ddsgo/ddsgo/sim"
)

// clockTopic is the DDS topic of ROS 2's /clock.
const clockTopic = "rt/clock"

// ClockPublisher is a system that publishes the simulation time after every step on
// /clock (rosgraph_msgs/Clock, ROS 2's topic naming), as Gazebo and the other simulators
// do for nodes that run with use_sim_time. Its writer is RELIABLE KEEP_LAST 1, which
// matches rclcpp's /clock subscription (best effort) and reliable readers alike.
type ClockPublisher struct {
	pubTopic[rosgraph_msgs.Clock]
	msg rosgraph_msgs.Clock // written from here: a local would escape to the heap
}

// NewClockPublisher creates the /clock topic and writer in p.
func NewClockPublisher(p *dds.DomainParticipant) (*ClockPublisher, error) {
	pt, err := newPubTopic[rosgraph_msgs.Clock](p, clockTopic, dds.Reliable(), dds.KeepLast(1))
	if err != nil {
		return nil, err
	}
	return &ClockPublisher{pubTopic: pt}, nil
}

// PostUpdate publishes info.SimTime; a paused step publishes it too, so that late
// joiners learn the time.
func (c *ClockPublisher) PostUpdate(info sim.UpdateInfo, _ ecm.Reader) {
	c.msg.Clock = rosTime(info.SimTime)
	_ = c.w.Write(context.Background(), &c.msg) // KEEP_LAST never blocks
}

// Close deletes the writer and the topic.
func (c *ClockPublisher) Close() error { return c.pubTopic.Close() }

// rosTime converts a simulation time (from the start) to builtin_interfaces/Time.
func rosTime(d time.Duration) builtin_interfaces.Time {
	return builtin_interfaces.Time{Sec: int32(d / time.Second), Nanosec: uint32(d % time.Second)}
}
