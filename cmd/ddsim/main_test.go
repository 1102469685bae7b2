package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/internal/netns"
	"github.com/ddsgo/ddsgo/internal/testutil"
	"github.com/ddsgo/ddsgo/ros/geometry_msgs"
	"github.com/ddsgo/ddsgo/ros/rosgraph_msgs"
	si "github.com/ddsgo/ddsgo/ros/simulation_interfaces"
	"github.com/ddsgo/ddsgo/ros/std_msgs"
	"github.com/ddsgo/ddsgo/ros/tf2_msgs"
	"github.com/ddsgo/ddsgo/sim/simdds"
)

// testDomain is a domain of its own: the other packages' tests run beside these in the
// same network namespace.
const testDomain = 181

// call calls the service NAME of ddsim's world as a ROS 2 node does.
func call[Req, Rep any](t *testing.T, p *dds.DomainParticipant, name string, req Req) Rep {
	t.Helper()
	q, err := dds.NewRequester[Req, Rep](p, name, dds.ROSNames())
	require.NoError(t, err)
	defer func() { require.NoError(t, q.Close()) }()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, q.WaitForService(ctx), "%s is not served", name)
	rep, err := q.Call(ctx, &req)
	require.NoError(t, err)
	return rep
}

// take waits for the first sample of topic name, and returns it.
func take[T any](t *testing.T, p *dds.DomainParticipant, name string, ok func(*T) bool) T {
	t.Helper()
	topic, err := dds.NewTopic[T](p, name)
	require.NoError(t, err)
	r, err := dds.NewReader(topic, dds.BestEffort())
	require.NoError(t, err)
	defer func() { require.NoError(t, r.Close()) }()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for v, info := range r.Samples(ctx) {
		if info.ValidData && ok(&v) {
			return v
		}
	}
	require.NoError(t, ctx.Err(), "nothing on %s", name)
	return *new(T)
}

// ddsim with no world runs the built-in one, starts paused when asked, publishes /clock
// and /tf, serves simulation_interfaces under its namespace and its state to a replica,
// and stops cleanly when interrupted.
func TestBuiltInWorld(t *testing.T) {
	netns.Require(t)
	t.Setenv("GZ_SIM_RESOURCE_PATH", "")
	models := t.TempDir()
	pallet := filepath.Join(models, "pallet.sdf")
	require.NoError(t, os.WriteFile(pallet, []byte(`<model name="pallet"><link name="deck"/></model>`), 0o644))
	ctx, cancel := context.WithCancel(context.Background())
	var out testutil.SyncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"-domain", "181", "-paused", "-ns", "/sim1", "-tf-rate", "100", "-resources", models}, &out, &out)
	}()
	defer func() {
		cancel()
		require.Equal(t, exitOK, <-done, out.String())
		require.Contains(t, out.String(), `ddsim: world "warehouse" on domain 181: 6 models, 8 links; /clock, /tf at 100 Hz, world state; paused; services /sim1/gzserver/*`)
		require.Contains(t, out.String(), "ddsim: stopped at")
	}()

	node, err := dds.NewParticipant(testDomain)
	require.NoError(t, err)
	defer func() { require.NoError(t, node.Close()) }()
	const svc = "/sim1/gzserver/"

	st := call[si.GetSimulationStateRequest, si.GetSimulationStateResponse](t, node, svc+"get_simulation_state", si.GetSimulationStateRequest{})
	require.Equal(t, si.SimulationState_STATE_STOPPED, st.State.State, "-paused starts STOPPED")

	ents := call[si.GetEntitiesRequest, si.GetEntitiesResponse](t, node, svc+"get_entities", si.GetEntitiesRequest{})
	require.Equal(t, si.Result_RESULT_OK, ents.Result.Result, ents.Result.ErrorMessage)
	require.Equal(t, []string{"ground", "robot", "shelf_a", "shelf_b", "crate"}, ents.Entities)
	poses := call[si.GetNamedPosesRequest, si.GetNamedPosesResponse](t, node, svc+"get_named_poses", si.GetNamedPosesRequest{})
	require.Len(t, poses.Poses, 2)
	require.Equal(t, "dock", poses.Poses[0].Name)

	// Models by uri from -resources.
	sp := call[si.GetSpawnablesRequest, si.GetSpawnablesResponse](t, node, svc+"get_spawnables", si.GetSpawnablesRequest{})
	require.Equal(t, []si.Spawnable{{EntityResource: si.Resource{URI: "file://" + filepath.ToSlash(pallet)}}}, sp.Spawnables, "%+v", sp.Result)
	spawned := call[si.SpawnEntityRequest, si.SpawnEntityResponse](t, node, svc+"spawn_entity", si.SpawnEntityRequest{
		Name: "p1", EntityResource: si.Resource{URI: "pallet.sdf"},
		InitialPose: geometry_msgs.PoseStamped{Pose: geometry_msgs.Pose{Orientation: geometry_msgs.Quaternion{W: 1}}},
	})
	require.Equal(t, si.Result_RESULT_OK, spawned.Result.Result, spawned.Result.ErrorMessage)

	set := call[si.SetSimulationStateRequest, si.SetSimulationStateResponse](t, node, svc+"set_simulation_state",
		si.SetSimulationStateRequest{State: si.SimulationState{State: si.SimulationState_STATE_PLAYING}})
	require.Equal(t, si.Result_RESULT_OK, set.Result.Result, set.Result.ErrorMessage)

	clock := take(t, node, "rt/clock", func(c *rosgraph_msgs.Clock) bool { return c.Clock.Nanosec > 0 || c.Clock.Sec > 0 })
	require.Positive(t, clock.Clock.Nanosec+uint32(clock.Clock.Sec), "the simulation time advances once playing")
	tf := take(t, node, "rt/tf", func(m *tf2_msgs.TFMessage) bool { return len(m.Transforms) > 0 })
	frames := make([]string, 0, len(tf.Transforms))
	for _, tr := range tf.Transforms {
		frames = append(frames, tr.ChildFrameID)
	}
	require.True(t, slices.Contains(frames, "robot::lidar::sensor"), "%v", frames)

	// The built-in world's TriggeredPublisher: a true on /start gives a Twist on /cmd_vel,
	// both DDS topics with ROS 2 names and types.
	twists, err := dds.NewTopic[geometry_msgs.Twist](node, "rt/cmd_vel")
	require.NoError(t, err)
	cmdVel, err := dds.NewReader(twists, dds.Reliable())
	require.NoError(t, err)
	bools, err := dds.NewTopic[std_msgs.Bool](node, "rt/start")
	require.NoError(t, err)
	start, err := dds.NewWriter(bools, dds.Reliable())
	require.NoError(t, err)
	tctx, tcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer tcancel()
	var twist []geometry_msgs.Twist
	for len(twist) == 0 { // until both ends have matched: a volatile sample before is lost
		require.NoError(t, start.Write(tctx, &std_msgs.Bool{Data: true}))
		wait, cancel := context.WithTimeout(tctx, 100*time.Millisecond)
		twist, _, err = cmdVel.Take(wait)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) || tctx.Err() != nil {
			require.NoError(t, err)
		}
	}
	require.Equal(t, geometry_msgs.Twist{Linear: geometry_msgs.Vector3{X: 0.5}, Angular: geometry_msgs.Vector3{Z: 0.1}}, twist[0])

	rep, err := simdds.NewReplica(node, nil)
	require.NoError(t, err)
	defer func() { require.NoError(t, rep.Close()) }()
	wctx, wcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer wcancel()
	require.NoError(t, rep.WaitStep(wctx, 10), "a replica follows ddsim's world")
}

// -iterations ends the run by itself; a world file on the command line replaces the
// built-in one; an unknown plugin is skipped with a warning.
func TestWorldFileAndIterations(t *testing.T) {
	netns.Require(t)
	f := filepath.Join(t.TempDir(), "one.sdf")
	require.NoError(t, os.WriteFile(f, []byte(`<sdf version="1.9"><world name="one"><plugin name="x::Unknown" filename="x"/><model name="m"><link name="l"/></model></world></sdf>`), 0o600))
	var out testutil.SyncBuffer
	code := run(context.Background(), []string{"-domain", "181", "-rtf", "0", "-iterations", "500", "-state=false", "-tf-rate", "0", f}, &out, &out)
	require.Equal(t, exitOK, code, out.String())
	require.Contains(t, out.String(), `world "one" on domain 181: 1 models, 1 links; /clock; services /gzserver/*`)
	require.Contains(t, out.String(), "stopped at 500ms simulation time, 500 steps")
	require.Contains(t, out.String(), `msg="sim: unknown plugin skipped" name=x::Unknown filename=x line=1`)
}

// Bad arguments exit 3 and say what is wrong; a world that does not load exits 2 with
// its line; -version and -h exit 0.
func TestArguments(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.sdf")
	require.NoError(t, os.WriteFile(bad, []byte("<sdf version=\"1.9\">\n<world name=\"w\">\n<model>\n</world></sdf>"), 0o600))
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-step", "0"}, exitUsage, "-step 0s: must be positive"},
		{[]string{"-rtf", "-1"}, exitUsage, "-rtf -1: must not be negative"},
		{[]string{"-ns", "robot1"}, exitUsage, `-ns "robot1": a namespace starts with /`},
		{[]string{"-domain", "300"}, exitUsage, "-domain 300: must be 0 to 232"},
		{[]string{"a.sdf", "b.sdf"}, exitUsage, "one world file at most"},
		{[]string{"-nonsense"}, exitUsage, "flag provided but not defined"},
		{[]string{filepath.Join(t.TempDir(), "missing.sdf")}, exitMiddleware, "no such file"},
		{[]string{bad}, exitMiddleware, "bad.sdf:"},
		{[]string{"-version"}, exitOK, "ddsim "},
		{[]string{"-h"}, exitOK, "exit status: 0 ended, 2 world or middleware error, 3 usage"},
	} {
		var out testutil.SyncBuffer
		code := run(context.Background(), tc.args, &out, &out)
		require.Equal(t, tc.code, code, "%v: %s", tc.args, out.String())
		require.Contains(t, out.String(), tc.want, "%v", tc.args)
		require.Equal(t, 1, strings.Count(out.String(), "ddsim: ddsim:")+1, "no doubled prefix")
	}
}

// A ROS 2 client that sets the state QUITTING ends ddsim, which exits 0.
func TestQuitByService(t *testing.T) {
	netns.Require(t)
	var out testutil.SyncBuffer
	done := make(chan int, 1)
	go func() { done <- run(context.Background(), []string{"-domain", "182", "-tf-rate", "0"}, &out, &out) }()
	node, err := dds.NewParticipant(182)
	require.NoError(t, err)
	defer func() { require.NoError(t, node.Close()) }()
	rep := call[si.SetSimulationStateRequest, si.SetSimulationStateResponse](t, node, "/gzserver/set_simulation_state",
		si.SetSimulationStateRequest{State: si.SimulationState{State: si.SimulationState_STATE_QUITTING}})
	require.Equal(t, si.Result_RESULT_OK, rep.Result.Result, rep.Result.ErrorMessage)
	select {
	case code := <-done:
		require.Equal(t, exitOK, code, out.String())
		require.Contains(t, out.String(), "ddsim: stopped at")
	case <-time.After(10 * time.Second):
		t.Fatal("ddsim did not quit:\n" + out.String())
	}
}
