package discovery

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/transport/memnet"
	"github.com/ddsgo/ddsgo/internal/wire"
)

// TestTypeLookupAnnounced: a participant that serves TypeLookup announces its request
// reader and reply writer in BUILTIN_ENDPOINT_SET, one that does not announces neither.
func TestTypeLookupAnnounced(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := memNet(t, memnet.Config{Seed: 1})
		a, _ := memParticipant(t, n, "a", "10.0.0.1", func(c *Config) {
			c.TypeLookup = func([]byte) ([]byte, bool) { return nil, false }
		})
		b, _ := memParticipant(t, n, "b", "10.0.0.2", nil)
		const bits = wire.BuiltinTypeLookupRequestReader | wire.BuiltinTypeLookupReplyWriter
		waitFor(t, 2*time.Second, func() bool { return len(a.Participants()) == 1 && len(b.Participants()) == 1 })
		require.Equal(t, bits, b.Participants()[0].BuiltinEndpoints&(bits|wire.BuiltinTypeLookupRequestWriter|wire.BuiltinTypeLookupReplyReader))
		require.Zero(t, a.Participants()[0].BuiltinEndpoints&bits)
		require.NotNil(t, a.tl.reqR)
		require.Nil(t, b.tl.reqR)
	})
}
