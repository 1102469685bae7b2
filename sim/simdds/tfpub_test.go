package simdds

import (
	"cmp"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/ros/tf2_msgs"
	"github.com/ddsgo/ddsgo/sim"
)

// A world with a TfPublisher publishes the pose of every model and link on /tf, each
// relative to its parent frame, once per period of simulation time, allocating nothing.
func TestTfPublisher(t *testing.T) {
	world, node := loopbackParticipant(t, 62), loopbackParticipant(t, 62)
	m := ecm.New()
	w := ecm.Create2(m, sim.World{}, sim.Name("demo"))
	robot := ecm.Create3(m, sim.Model{}, sim.Name("robot"), sim.Pose{Position: sim.Vector3{X: 1, Y: 2}})
	base := ecm.Create3(m, sim.Link{}, sim.Name("base"), sim.Pose{Position: sim.Vector3{X: 0.5, Z: 0.1}})
	camera := ecm.Create3(m, sim.Model{}, sim.Name("camera"), sim.Pose{Orientation: sim.Quaternion{Z: 1}})
	lens := ecm.Create3(m, sim.Link{}, sim.Name("lens"), sim.Pose{})
	m.SetParentEntity(robot, w)
	m.SetParentEntity(base, robot)
	m.SetParentEntity(camera, robot)
	m.SetParentEntity(lens, camera)
	ecm.Create2(m, sim.Name("sun"), sim.Pose{}) // neither a model nor a link
	r, err := sim.NewRunner(m, sim.Config{Clock: newFakeClock()})
	require.NoError(t, err)
	c, err := NewTfPublisher(world, 10*r.StepSize())
	require.NoError(t, err)
	defer func() { require.NoError(t, c.Close()) }()
	require.NoError(t, r.AddSystem(c, sim.SystemConfig{Name: "tf"}))

	in, ctx := matchedReader[tf2_msgs.TFMessage](t, node, tfTopic, c.w, dds.Reliable(), dds.KeepAll())
	for range 25 { // sim time 1..25 steps: published at 1, 11, 21
		_, err := r.RunOnce()
		require.NoError(t, err)
	}
	var msgs []tf2_msgs.TFMessage
	for msg := range in.Samples(ctx) {
		msgs = append(msgs, msg)
		if len(msgs) == 3 {
			break
		}
	}
	require.Len(t, msgs, 3)
	type frame struct{ parent, child string }
	var frames []frame
	for _, ts := range msgs[2].Transforms {
		frames = append(frames, frame{ts.Header.FrameID, ts.ChildFrameID})
	}
	slices.SortFunc(frames, func(a, b frame) int { return cmp.Compare(a.child, b.child) })
	require.Equal(t, []frame{
		{"world", "robot"}, {"robot", "robot::base"}, {"robot", "robot::camera"}, {"robot::camera", "robot::camera::lens"},
	}, frames)
	for _, ts := range msgs[2].Transforms {
		require.Equal(t, rosTime(21*r.StepSize()), ts.Header.Stamp)
		switch ts.ChildFrameID {
		case "robot":
			require.Equal(t, 2.0, ts.Transform.Translation.Y)
			require.Equal(t, 1.0, ts.Transform.Rotation.W, "the zero orientation is the identity")
		case "robot::camera":
			require.Equal(t, 1.0, ts.Transform.Rotation.Z)
		}
	}
	if !raceEnabled {
		// The reader of this process takes each sample inside Write (same-process
		// delivery) and decodes its strings: without it, what is measured is the
		// publisher's part.
		require.NoError(t, in.Close())
		reader := m.Reader()
		info := sim.UpdateInfo{SimTime: time.Hour}
		require.Zero(t, testing.AllocsPerRun(100, func() {
			info.SimTime += time.Second
			c.PostUpdate(info, reader)
		}))
	}
}

// TestNameCache keeps names of near ids in the slice and of far ones in the map.
func TestNameCache(t *testing.T) {
	var c nameCache
	for _, e := range []ecm.Entity{0, 3, 1 << 40, 3} {
		c.put(e, "n", 10)
	}
	require.Equal(t, 3, c.n)
	require.Len(t, c.far, 1)
	for _, e := range []ecm.Entity{0, 3, 1 << 40} {
		s, ok := c.get(e)
		require.True(t, ok)
		require.Equal(t, "n", s)
	}
	_, ok := c.get(7)
	require.False(t, ok)
	c.reset()
	_, ok = c.get(3)
	require.False(t, ok)
	_, ok = (*nameCache)(nil).get(3)
	require.False(t, ok)
}
