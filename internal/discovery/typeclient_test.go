package discovery

import (
	"reflect"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/cdr"
	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/transport/memnet"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/internal/xtypes"
)

// Three versions of one appendable type: the writer's, a reader's with a member appended
// (assignable), and a reader's with a member retyped (not assignable).
type (
	tcSample struct {
		ID   int32  `dds:"key,name=id"`
		Text string `dds:"name=text"`
	}
	tcSamplePlus struct {
		ID    int32  `dds:"key,name=id"`
		Text  string `dds:"name=text"`
		Extra int32  `dds:"name=extra"`
	}
	tcSampleRetyped struct {
		ID   int32 `dds:"key,name=id"`
		Text int64 `dds:"name=text"`
	}
)

func (tcSample) DDSTypeName() string                        { return "tc::Sample" }
func (tcSample) DDSExtensibility() cdr.Extensibility        { return cdr.Appendable }
func (tcSamplePlus) DDSTypeName() string                    { return "tc::Sample" }
func (tcSamplePlus) DDSExtensibility() cdr.Extensibility    { return cdr.Appendable }
func (tcSampleRetyped) DDSTypeName() string                 { return "tc::Sample" }
func (tcSampleRetyped) DDSExtensibility() cdr.Extensibility { return cdr.Appendable }

// typeProcess is a participant with types of its own: the registry it serves (its
// process's types) and its cache of the peers'.
type typeProcess struct {
	reg   xtypes.Registry
	cache xtypes.Cache
}

func (tp *typeProcess) config(c *Config) {
	tp.cache.Local = &tp.reg
	c.TypeLookup = tp.reg.Serve
	c.Types = &tp.cache
}

// info registers the types of rt in tp and returns their TypeInformation.
func (tp *typeProcess) info(t *testing.T, rt reflect.Type) []byte {
	d, err := cdr.Describe(rt)
	require.NoError(t, err)
	ty, err := xtypes.Build(d)
	require.NoError(t, err)
	tp.reg.Add(ty)
	info := ty.Info()
	return info.Append(nil)
}

// typeEvents records matches and the INCONSISTENT_TOPIC calls.
type typeEvents struct {
	*events
	mu           sync.Mutex
	inconsistent []wire.GUID
}

func (e *typeEvents) OnInconsistentType(_ wire.GUID, r *EndpointData) {
	e.mu.Lock()
	e.inconsistent = append(e.inconsistent, r.GUID)
	e.mu.Unlock()
}

func (e *typeEvents) inconsistentOf() []wire.GUID {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]wire.GUID(nil), e.inconsistent...)
}

// TestTypeLookupClient: participants in separate "processes" (registries) resolve each
// other's types with TypeLookup and match by assignability: a reader whose type has a
// member appended matches the writer, one whose member has another type does not and
// is told INCONSISTENT_TOPIC; a reader without type information matches by name.
func TestTypeLookupClient(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := memNet(t, memnet.Config{Seed: 3})
		var pa, pb, pc typeProcess
		a, _ := memParticipant(t, n, "a", "10.0.0.1", pa.config)
		b, _ := memParticipant(t, n, "b", "10.0.0.2", pb.config)
		c, _ := memParticipant(t, n, "c", "10.0.0.3", pc.config)
		waitFor(t, 2*time.Second, func() bool { return len(a.Participants()) == 2 && len(b.Participants()) == 2 })
		const bits = wire.BuiltinTypeLookupRequestWriter | wire.BuiltinTypeLookupReplyReader
		require.Equal(t, uint32(bits), a.Participants()[0].BuiltinEndpoints&bits)

		wev := &typeEvents{events: newEvents()}
		w, err := a.NewWriter(EndpointConfig{
			Topic: "t", Type: "tc::Sample", Keyed: true, Offered: reliableWriter(), Listener: wev,
			TypeInformation: pa.info(t, reflect.TypeFor[tcSample]()),
		})
		require.NoError(t, err)
		good := &typeEvents{events: newEvents()}
		rGood, err := b.NewReader(EndpointConfig{
			Topic: "t", Type: "tc::Sample", Keyed: true, Requested: reliableReader(), Listener: good,
			TypeInformation: pb.info(t, reflect.TypeFor[tcSamplePlus]()),
		}, func(*rtps.Sample) bool { return true })
		require.NoError(t, err)
		bad := &typeEvents{events: newEvents()}
		rBad, err := c.NewReader(EndpointConfig{
			Topic: "t", Type: "tc::Sample", Keyed: true, Requested: reliableReader(), Listener: bad,
			TypeInformation: pc.info(t, reflect.TypeFor[tcSampleRetyped]()),
		}, func(*rtps.Sample) bool { return true })
		require.NoError(t, err)
		plain := newEvents()
		rPlain, err := c.NewReader(EndpointConfig{
			Topic: "t", Type: "tc::Sample", Keyed: true, Requested: reliableReader(), Listener: plain,
		}, func(*rtps.Sample) bool { return true })
		require.NoError(t, err)

		waitFor(t, 5*time.Second, func() bool { return good.has(w.GUID()) && plain.has(w.GUID()) })
		waitFor(t, 5*time.Second, func() bool { return len(bad.inconsistentOf()) > 0 && len(wev.inconsistentOf()) > 0 })
		time.Sleep(3 * xtypes.RetryAfter) // past every retry: nothing changes
		require.True(t, wev.has(rGood.GUID()))
		require.True(t, wev.has(rPlain.GUID()))
		require.False(t, wev.has(rBad.GUID()))
		require.False(t, bad.has(w.GUID()))
		require.Equal(t, []wire.GUID{w.GUID()}, bad.inconsistentOf()[:1])
		require.Contains(t, wev.inconsistentOf(), rBad.GUID())

		// b resolved a's type through TypeLookup, and a b's.
		wi, err := xtypes.ParseInfo(pa.info(t, reflect.TypeFor[tcSample]()))
		require.NoError(t, err)
		got, ok := pb.cache.Resolve(wi.Complete.Type.ID)
		require.True(t, ok)
		require.Equal(t, "tc::Sample", got.Name)
		require.False(t, pb.cache.Pending())
	})
}

// TestTypeLookupGivenUp: a peer that announces TypeInformation and does not answer
// TypeLookup is matched by type name once its types are given up.
func TestTypeLookupGivenUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := memNet(t, memnet.Config{Seed: 4})
		var pb typeProcess
		a, _ := memParticipant(t, n, "a", "10.0.0.1", nil) // no TypeLookup service
		b, _ := memParticipant(t, n, "b", "10.0.0.2", pb.config)
		waitFor(t, 2*time.Second, func() bool { return len(a.Participants()) == 1 && len(b.Participants()) == 1 })
		var pa typeProcess
		w, err := a.NewWriter(EndpointConfig{
			Topic: "t", Type: "tc::Sample", Keyed: true, Offered: reliableWriter(), Listener: newEvents(),
			TypeInformation: pa.info(t, reflect.TypeFor[tcSample]()),
		})
		require.NoError(t, err)
		rev := newEvents()
		_, err = b.NewReader(EndpointConfig{
			Topic: "t", Type: "tc::Sample", Keyed: true, Requested: reliableReader(), Listener: rev,
			TypeInformation: pb.info(t, reflect.TypeFor[tcSamplePlus]()),
		}, func(*rtps.Sample) bool { return true })
		require.NoError(t, err)
		time.Sleep(xtypes.RetryAfter / 2)
		require.False(t, rev.has(w.GUID()), "waiting for the type")
		waitFor(t, time.Duration(xtypes.MaxAttempts+1)*xtypes.RetryAfter, func() bool { return rev.has(w.GUID()) })
		require.False(t, pb.cache.Pending())
	})
}
