package dds

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/discovery"
	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/transport"
)

func TestStatisticsOf(t *testing.T) {
	var s discovery.Stats
	s.Engine = rtps.EngineStats{
		NotRTPS: 1, Malformed: 2, UnknownWriter: 3, UnknownReader: 4, LocalDrops: 5,
		Transport: transport.StatsSnapshot{DatagramsIn: 100, DatagramsOut: 50, Drops: 6, BusyPolled: 14},
	}
	s.Readers = rtps.ReaderStats{Duplicates: 7, Old: 1, OutOfWindow: 8, BufferFull: 1, Oversize: 9, BadFragments: 10, ReassemblyDropped: 1}
	s.Participants, s.Unconfirmed, s.Endpoints = 3, 1, 12
	s.SPDPInvalid, s.SEDPInvalid, s.ForeignEndpoints = 1, 2, 3
	s.ParticipantsEvicted, s.ParticipantsLimited, s.EndpointsLimited = 11, 12, 13
	require.Equal(t, Statistics{
		Received: 100, Sent: 50, BusyPolled: 14, Participants: 3, Unconfirmed: 1, Endpoints: 12,
		QueueFull: 11, NotRTPS: 1, Malformed: 2, UnknownWriter: 3, UnknownReader: 4,
		BadDiscovery: 6, ParticipantsEvicted: 11, ParticipantsRefused: 12, EndpointsRefused: 13,
		Duplicates: 8, OutOfWindow: 9, Oversize: 9, BadFragments: 11,
	}, statisticsOf(s))
}

func TestStatistics(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a, b := memPair(t, 9)
		for a.Statistics().Participants != 1 || b.Statistics().Participants != 1 {
			time.Sleep(10 * time.Millisecond)
		}
		st := a.Statistics()
		require.Positive(t, st.Received)
		require.Positive(t, st.Sent)
		require.Zero(t, st.Malformed)
	})
}
