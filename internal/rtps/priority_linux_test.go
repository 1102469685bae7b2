package rtps

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/testutil"
	"github.com/ddsgo/ddsgo/internal/transport"
	"github.com/ddsgo/ddsgo/internal/wire"
)

// TestTransportPriorityTOS (real sockets, inside a namespace): a writer
// with TRANSPORT_PRIORITY sends its datagrams with the TOS octet the value
// maps to, 0 with the default, and a change at run time applies to the
// next datagram.
func TestTransportPriorityTOS(t *testing.T) {
	e, err := NewEngine(EngineConfig{Transport: transport.Config{Domain: 93, DisableMulticast: true}})
	require.NoError(t, err)
	defer func() { require.NoError(t, e.Close()) }()
	rx, err := testutil.NewTOSReceiver()
	require.NoError(t, err)
	defer func() { require.NoError(t, rx.Close()) }()

	w := e.NewWriter(WriterConfig{
		GUID:              wire.GUID{Prefix: e.GUIDPrefix(), Entity: wire.EntityIDFromUint32(testWriterID)},
		TransportPriority: 184, // DSCP 46, EF
	})
	defer e.DeleteWriter(w)
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Unicast: []wire.Locator{wire.LocatorFromAddrPort(rx.Addr())}}, e.Now())
	send := func(value int32, set bool) int {
		t.Helper()
		if set {
			e.SetTransportPriority(w, value)
		}
		_, err := w.Write(Change{Payload: payload(1, 8)}, e.Now())
		require.NoError(t, err)
		_, tos, err := rx.Read(5 * time.Second)
		require.NoError(t, err)
		return tos
	}
	require.Equal(t, 184, send(184, false), "the priority the writer was created with")
	require.Equal(t, 0, send(0, true), "priority 0: the default socket")
	require.Equal(t, 32, send(33, true), "changed at run time; ECN bits cleared")
	require.Equal(t, 252, send(1000, true), "clamped to the TOS octet")
	require.Equal(t, 0, send(-5, true))
}
