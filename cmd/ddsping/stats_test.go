package main

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds"
)

// The statistics line names only the drops there were, and the datagrams busy polls
// received only when there were some (rtps.Config.BusyPoll, -busy-poll).
func TestStatsLine(t *testing.T) {
	s := dds.Statistics{Received: 10, Sent: 4, Participants: 2, Endpoints: 6}
	require.Equal(t, "received 10, sent 4 datagrams; 2 remote participants (0 unconfirmed), 6 endpoints; dropped: nothing", statsLine(&s))
	s.BusyPolled, s.Malformed = 7, 1
	require.Equal(t, "received 10, sent 4 datagrams (7 received by busy polls); 2 remote participants (0 unconfirmed), 6 endpoints; dropped: malformed 1", statsLine(&s))
	m := statsJSON(&s)
	require.Equal(t, uint64(7), m["busy_polled"])
	require.Equal(t, uint64(1), m["malformed"])
}
