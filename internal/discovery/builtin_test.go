package discovery

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/transport/memnet"
	"github.com/ddsgo/ddsgo/internal/wire"
)

// builtinLog records what a BuiltinListener hears.
type builtinLog struct {
	mu     sync.Mutex
	events []string // "P+ prefix", "P- prefix", "E+ guid", "E- guid"
	alive  map[wire.GUID]bool
}

func (l *builtinLog) listener() BuiltinListener {
	l.alive = map[wire.GUID]bool{}
	return BuiltinListener{
		Participant: func(d ParticipantData, alive bool) { l.add("P", d.GUID(), alive) },
		Endpoint:    func(d *EndpointData, alive bool) { l.add("E", d.GUID, alive) },
	}
}

func (l *builtinLog) add(kind string, g wire.GUID, alive bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	sign := "-"
	if alive {
		sign = "+"
	}
	l.events = append(l.events, kind+sign+" "+g.String())
	l.alive[g] = alive
}

// state returns whether g was last reported alive, and whether it was reported.
func (l *builtinLog) state(g wire.GUID) (alive, known bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	alive, known = l.alive[g]
	return alive, known
}

func (l *builtinLog) count(event string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, e := range l.events {
		if e == event {
			n++
		}
	}
	return n
}

// OnBuiltin reports ourselves first, then the others, with the endpoints, local and
// remote, as they come and go; an ignored participant goes and does not come back
// although it keeps announcing itself.
func TestOnBuiltinAndIgnoreParticipant(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := memNet(t, memnet.Config{Seed: 11})
		a, _ := memParticipant(t, n, "a", "10.0.0.1", nil)
		b, _ := memParticipant(t, n, "b", "10.0.0.2", nil)
		rev := newEvents()
		r, err := a.NewReader(EndpointConfig{Topic: "t", Type: "T", Requested: reliableReader(), Listener: rev}, func(*rtps.Sample) bool { return true })
		require.NoError(t, err)
		w, err := b.NewWriter(EndpointConfig{Topic: "t", Type: "T", Offered: reliableWriter()})
		require.NoError(t, err)
		waitFor(t, 5*time.Second, func() bool { return rev.count() == 1 })

		var log builtinLog
		a.OnBuiltin(log.listener())
		self := wire.GUID{Prefix: a.GUIDPrefix(), Entity: wire.EntityIDParticipant}
		other := wire.GUID{Prefix: b.GUIDPrefix(), Entity: wire.EntityIDParticipant}
		waitFor(t, time.Second, func() bool {
			_, rk := log.state(r.GUID())
			_, wk := log.state(w.GUID())
			return rk && wk
		})
		log.mu.Lock()
		require.Equal(t, "P+ "+self.String(), log.events[0])
		log.mu.Unlock()
		alive, _ := log.state(other)
		require.True(t, alive)

		a.IgnoreParticipant(b.GUIDPrefix())
		// The unmatch is told at once; the built-in events on the dispatcher.
		waitFor(t, time.Second, func() bool {
			wa, _ := log.state(w.GUID())
			pa, _ := log.state(other)
			return rev.count() == 0 && !wa && !pa
		})
		require.Empty(t, a.Participants())

		// b keeps announcing itself (SPDP every few seconds, SEDP repeats).
		time.Sleep(20 * time.Second)
		synctest.Wait()
		require.Empty(t, a.Participants())
		require.Empty(t, a.Endpoints())
		require.Zero(t, rev.count())
		require.Equal(t, 1, log.count("P+ "+other.String()))
		require.Len(t, b.Participants(), 1, "b still knows a")

		// Our own endpoints and ourselves cannot be ignored.
		a.IgnoreParticipant(a.GUIDPrefix())
		a.IgnoreEndpoint(r.GUID())
		require.NoError(t, r.Close())
		waitFor(t, time.Second, func() bool {
			alive, known := log.state(r.GUID())
			return known && !alive
		})
	})
}

// IgnoreEndpoint drops one remote endpoint and IgnoreTopic those of a topic, now and
// when they announce themselves again.
func TestIgnoreEndpointAndTopic(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := memNet(t, memnet.Config{Seed: 12})
		a, _ := memParticipant(t, n, "a", "10.0.0.1", nil)
		b, _ := memParticipant(t, n, "b", "10.0.0.2", nil)
		deliver := func(*rtps.Sample) bool { return true }
		ev1, ev2 := newEvents(), newEvents()
		_, err := a.NewReader(EndpointConfig{Topic: "t", Type: "T", Requested: reliableReader(), Listener: ev1}, deliver)
		require.NoError(t, err)
		_, err = a.NewReader(EndpointConfig{Topic: "u", Type: "T", Requested: reliableReader(), Listener: ev2}, deliver)
		require.NoError(t, err)
		w1, err := b.NewWriter(EndpointConfig{Topic: "t", Type: "T", Offered: reliableWriter()})
		require.NoError(t, err)
		w2, err := b.NewWriter(EndpointConfig{Topic: "t", Type: "T", Offered: reliableWriter()})
		require.NoError(t, err)
		_, err = b.NewWriter(EndpointConfig{Topic: "u", Type: "T", Offered: reliableWriter()})
		require.NoError(t, err)
		waitFor(t, 5*time.Second, func() bool { return ev1.count() == 2 && ev2.count() == 1 })

		a.IgnoreEndpoint(w1.GUID())
		a.IgnoreTopic("u")
		waitFor(t, time.Second, func() bool { return ev1.count() == 1 && ev2.count() == 0 })
		require.True(t, ev1.has(w2.GUID()))

		// A new announcement of the ignored writer (a QoS change) stays ignored.
		q := reliableWriter()
		q.Writer.UserData.Value = []byte("again")
		require.NoError(t, w1.UpdateQos(q))
		time.Sleep(5 * time.Second)
		synctest.Wait()
		require.Equal(t, 1, ev1.count())
		require.Zero(t, ev2.count())
		require.Len(t, a.Endpoints(), 1)
	})
}
