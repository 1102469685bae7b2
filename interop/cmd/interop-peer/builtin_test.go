package main

import (
	"context"
	"errors"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/ddsgo/ddsgo/waitset"
)

// vendorIDs are the RTPS vendor ids of the peers.
var vendorIDs = map[string][2]byte{"cyclone": {0x01, 0x10}, "fastdds": {0x01, 0x0f}}

// awaitSample waits, on a WaitSet with a ReadCondition of r's unread samples, for a
// sample that ok accepts, and returns it with its SampleInfo.
func awaitSample[T any](ctx context.Context, t *testing.T, r *dds.DataReader[T], what string, ok func(T, dds.SampleInfo) bool) (T, dds.SampleInfo) {
	t.Helper()
	c, err := r.CreateReadCondition(dds.NotReadStates)
	require.NoError(t, err)
	defer func() { require.NoError(t, r.DeleteReadCondition(c)) }()
	ws := waitset.New()
	require.NoError(t, ws.AttachCondition(c))
	for {
		vs, infos, err := r.Read(ctx, dds.WithCondition(c), dds.NoWait())
		if err != nil && !errors.Is(err, dds.ErrNoData) {
			require.NoError(t, err)
		}
		for i := range vs {
			if ok(vs[i], infos[i]) {
				return vs[i], infos[i]
			}
		}
		_, err = ws.Wait(ctx)
		require.NoError(t, err, "waiting for %s", what)
	}
}

// builtinReadersOf returns the DCPSParticipant, DCPSPublication and DCPSTopic readers of
// p's built-in subscriber.
func builtinReadersOf(t *testing.T, p *dds.DomainParticipant) (*dds.DataReader[dds.ParticipantBuiltinTopicData],
	*dds.DataReader[dds.EndpointBuiltinTopicData], *dds.DataReader[dds.TopicBuiltinTopicData],
) {
	sub, err := p.BuiltinSubscriber()
	require.NoError(t, err)
	return sub.LookupDataReader("DCPSParticipant").(*dds.DataReader[dds.ParticipantBuiltinTopicData]),
		sub.LookupDataReader("DCPSPublication").(*dds.DataReader[dds.EndpointBuiltinTopicData]),
		sub.LookupDataReader("DCPSTopic").(*dds.DataReader[dds.TopicBuiltinTopicData])
}

// The built-in readers of a ddsgo participant show a Cyclone DDS and a Fast DDS peer:
// its participant (with its vendor id) alive, then NOT_ALIVE_DISPOSED when it ends, its
// writer in DCPSPublication and its topic in DCPSTopic. Domains 81 and 82.
func TestBuiltinTopicsInterop(t *testing.T) {
	forEachVendor(t, func(t *testing.T, vendor, bin string) {
		domain := 81
		if vendor == "fastdds" {
			domain = 82
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		p, err := dds.NewParticipant(domain)
		require.NoError(t, err)
		defer func() { require.NoError(t, p.Close()) }()
		parts, pubs, topics := builtinReadersOf(t, p)
		topic := "builtin_" + vendor
		tp, err := dds.NewTopic[Sample](p, topic, dds.Reliable())
		require.NoError(t, err)
		r, err := dds.NewReader(tp)
		require.NoError(t, err)

		peer, err := startProcess(t, vendor, exec.Command(bin, "-role", "pub", "-domain", strconv.Itoa(domain),
			"-topic", topic, "-count", "5", "-reliable", "-linger", "1", "-timeout", "20", "-quiet"))
		require.NoError(t, err)

		pd, info := awaitSample(ctx, t, parts, vendor+"'s participant", func(d dds.ParticipantBuiltinTopicData, _ dds.SampleInfo) bool {
			return d.VendorID == vendorIDs[vendor]
		})
		require.Equal(t, dds.AliveInstanceState, info.InstanceState)
		require.Equal(t, pd.Key, info.InstanceHandle)
		wd, winfo := awaitSample(ctx, t, pubs, vendor+"'s writer", func(d dds.EndpointBuiltinTopicData, _ dds.SampleInfo) bool {
			return d.ParticipantKey == pd.Key && d.TopicName == topic
		})
		require.Equal(t, "interop::Sample", wd.TypeName)
		require.Equal(t, wd.Key, winfo.InstanceHandle)
		awaitSample(ctx, t, topics, "the topic", func(d dds.TopicBuiltinTopicData, _ dds.SampleInfo) bool {
			return d.Name == topic && d.TypeName == "interop::Sample"
		})
		vs, _, err := r.Take(ctx)
		require.NoError(t, err)
		require.NotEmpty(t, vs)

		res := peer.wait(t, 30*time.Second)
		require.Equal(t, 0, res.code, "peer: %s", res.stderr)
		awaitSample(ctx, t, parts, vendor+"'s participant gone", func(_ dds.ParticipantBuiltinTopicData, i dds.SampleInfo) bool {
			return i.InstanceHandle == pd.Key && i.InstanceState == dds.NotAliveDisposedInstanceState
		})
	})
}

// A ddsgo participant that ignores a Cyclone DDS or Fast DDS participant gets none of
// its samples from then on, while another ddsgo participant's reader still does.
// Domains 83 and 84. The
// writer is BEST_EFFORT: a reliable one would wait in vain for the ignoring reader's
// acknowledgments before it ends (the peer still has it matched), as it should.
func TestIgnoreParticipantInterop(t *testing.T) {
	forEachVendor(t, func(t *testing.T, vendor, bin string) {
		domain := 83
		if vendor == "fastdds" {
			domain = 84
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		topic := "ignore_" + vendor
		reader := func() (*dds.DomainParticipant, *dds.DataReader[Sample]) {
			p, err := dds.NewParticipant(domain)
			require.NoError(t, err)
			t.Cleanup(func() { require.NoError(t, p.Close()) })
			tp, err := dds.NewTopic[Sample](p, topic)
			require.NoError(t, err)
			r, err := dds.NewReader(tp, dds.KeepAll())
			require.NoError(t, err)
			return p, r
		}
		a, ra := reader()
		_, rc := reader()
		parts, _, _ := builtinReadersOf(t, a)

		peer, err := startProcess(t, vendor, exec.Command(bin, "-role", "pub", "-domain", strconv.Itoa(domain),
			"-topic", topic, "-count", "60", "-rate", "20", "-best-effort", "-wait-readers", "2", "-linger", "1",
			"-timeout", "30", "-quiet"))
		require.NoError(t, err)
		pd, _ := awaitSample(ctx, t, parts, "the peer's participant", func(d dds.ParticipantBuiltinTopicData, _ dds.SampleInfo) bool {
			return d.VendorID == vendorIDs[vendor]
		})
		_, _, err = ra.Take(ctx) // it writes
		require.NoError(t, err)
		require.NoError(t, a.IgnoreParticipant(pd.Key))
		awaitSample(ctx, t, parts, "the ignored participant disposed", func(_ dds.ParticipantBuiltinTopicData, i dds.SampleInfo) bool {
			return i.InstanceHandle == pd.Key && i.InstanceState == dds.NotAliveDisposedInstanceState
		})
		time.Sleep(200 * time.Millisecond)   // what was on its way
		_, _, _ = ra.Take(ctx, dds.NoWait()) // goes

		for { // what the other reader got so far
			if _, _, err := rc.Take(ctx, dds.NoWait()); err != nil {
				break
			}
		}
		res := peer.wait(t, 40*time.Second)
		require.Equal(t, 0, res.code, "peer: %s", res.stderr)
		after := 0
		for {
			vs, _, err := rc.Take(ctx, dds.NoWait())
			if err != nil {
				break
			}
			after += len(vs)
		}
		require.Positive(t, after, "the other participant's reader kept receiving")
		vs, infos, err := ra.Take(ctx, dds.NoWait())
		for i := range vs {
			require.False(t, infos[i].ValidData, "sample %+v of an ignored participant delivered", vs[i])
		}
		if err != nil {
			require.ErrorIs(t, err, dds.ErrNoData)
		}
		m, err := ra.MatchedPublications()
		require.NoError(t, err)
		require.Empty(t, m)
	})
}

// userDataDomain is the domain of TestParticipantUserDataToVendor.
const userDataDomain = 40

// TestParticipantUserDataToVendor: a ddsgo participant's USER_DATA changed with
// SetQos once enabled reaches Cyclone DDS (a new sample of its DCPSParticipant
// built-in reader) and Fast DDS (on_participant_discovery with CHANGED_QOS_PARTICIPANT):
// the new announcement's sequence number is higher, which both need to take it.
func TestParticipantUserDataToVendor(t *testing.T) {
	forEachVendor(t, func(t *testing.T, vendor, bin string) {
		printed := &lineCount{}
		cmd := exec.Command(bin, "-role", "watch", "-domain", strconv.Itoa(userDataDomain), "-timeout", "20s")
		cmd.Stdout = printed
		pp, err := startProcess(t, vendor, cmd)
		require.NoError(t, err)
		defer pp.stop()
		q := qos.DefaultDomainParticipantQos()
		q.UserData.Value = []byte("ddsgo-v1")
		p, err := dds.NewParticipant(userDataDomain, dds.WithQos(q))
		require.NoError(t, err)
		defer func() { require.NoError(t, p.Close()) }()
		require.Eventually(t, func() bool { return printed.has(`{"user_data":"ddsgo-v1"}`) }, 10*time.Second,
			time.Millisecond, "%s sees the first USER_DATA", vendor)
		q.UserData.Value = []byte("ddsgo-v2")
		require.NoError(t, p.SetQos(q))
		require.Eventually(t, func() bool { return printed.has(`{"user_data":"ddsgo-v2"}`) }, 5*time.Second,
			time.Millisecond, "%s sees the changed USER_DATA", vendor)
	})
}
