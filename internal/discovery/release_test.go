package discovery

import (
	"math/rand/v2"
	"runtime"
	"testing"
	"time"
	"weak"

	"github.com/stretchr/testify/require"
)

// TestHostileForgottenReleased: what a forged participant and its endpoints made the
// victim hold becomes garbage once the victim forgets it (its lease ended): no table,
// queue or listener of the victim keeps it reachable, so a flood's memory is returned
// when the flood ends.
func TestHostileForgottenReleased(t *testing.T) {
	r := newHostileRig(t, 33, Limits{})
	rng := rand.New(rand.NewPCG(12, 33))
	prefix := randomPrefix(rng)
	msg := forgedSPDPLease(prefix, r.hole, time.Second)
	require.Eventually(t, func() bool {
		r.send(msg, r.meta)
		return r.victim.Stats().Participants == 2
	}, 5*time.Second, 10*time.Millisecond)
	const forged = 20
	// Until the victim hears the forged participant, it does not match its SEDP writer:
	// the first data is lost, and sent again.
	require.Eventually(t, func() bool {
		for k := 1; k <= forged; k++ {
			r.send(forgedWriter(prefix, k, "forged", nil), r.meta)
		}
		return r.victim.Stats().Endpoints == forged+2 // and the peer's two
	}, 5*time.Second, 20*time.Millisecond, "%+v", r.victim.Stats())

	r.victim.mu.Lock()
	rp := r.victim.remotes[prefix]
	part := weak.Make(rp)
	var eps []weak.Pointer[EndpointData]
	for _, re := range rp.endpoints {
		eps = append(eps, weak.Make(re.data))
	}
	r.victim.mu.Unlock()
	rp = nil
	require.Len(t, eps, forged)

	require.Eventually(t, func() bool { return r.victim.Stats().Participants == 1 }, 5*time.Second, 10*time.Millisecond, "the lease did not end")
	drained := make(chan struct{})
	r.victim.disp.post(func() { close(drained) }) // the going's events have run
	<-drained
	held := func() (n int) {
		runtime.GC()
		if part.Value() != nil {
			n++
		}
		for _, w := range eps {
			if w.Value() != nil {
				n++
			}
		}
		return n
	}
	require.Eventually(t, func() bool { return held() == 0 }, 5*time.Second, 50*time.Millisecond,
		"%d of the forgotten participant and its %d endpoints still reachable", held(), forged)
	r.exchange(10)
}
