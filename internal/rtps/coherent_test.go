package rtps

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/wire"
)

// coherentSN returns the PID_COHERENT_SET of an inline QoS, and whether there is one.
func coherentSN(t *testing.T, d wire.Data) (wire.SequenceNumber, bool) {
	t.Helper()
	p, ok := wire.FindParameter(d.InlineQoS, d.BigEndian, wire.VendorDDSGo, wire.PIDCoherentSet)
	if !ok {
		return 0, false
	}
	sn, _, err := wire.ParseSequenceNumber(p.Value, d.BigEndian)
	require.NoError(t, err)
	return sn, true
}

// The changes of a coherent set carry PID_COHERENT_SET with the sequence number of the
// set's first change (RTPS 2.5 §8.7.5); the end of the set is a DATA without payload
// (neither D nor K flag) whose PID_COHERENT_SET is SEQUENCENUMBER_UNKNOWN. A reader
// passes the tag on with each sample and the end marker as a sample without change
// (LostOnly).
func TestCoherentSetOnTheWire(t *testing.T) {
	var rec recorder
	now := time.Now()
	w := NewWriter(WriterConfig{GUID: localWriterID, History: HistoryConfig{KeepAll: true}}, &rec)
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Unicast: []wire.Locator{testLoc}}, now)
	for _, c := range []Change{
		{Payload: payload(1, 0)},                          // 1: outside a set
		{Payload: payload(2, 0), Coherent: CoherentFirst}, // 2: first of the set
		{Payload: payload(3, 0), Coherent: 2},
		{Coherent: wire.SequenceNumberUnknown}, // 4: end of the set
	} {
		_, err := w.Write(c, now)
		require.NoError(t, err)
	}
	_, datas, _, _ := rec.all(t)
	require.Len(t, datas, 4)
	want := []struct {
		sn      wire.SequenceNumber
		tagged  bool
		payload bool
	}{{0, false, true}, {2, true, true}, {2, true, true}, {wire.SequenceNumberUnknown, true, false}}
	for i, d := range datas {
		sn, ok := coherentSN(t, d)
		require.Equal(t, want[i].tagged, ok, "DATA %d", i+1)
		require.Equal(t, want[i].sn, sn, "DATA %d", i+1)
		require.Equal(t, want[i].payload, d.DataFlag, "DATA %d", i+1)
		require.False(t, d.KeyFlag)
	}

	var got []Sample
	r := NewReader(ReaderConfig{GUID: localReaderID}, func(s *Sample) bool {
		c := *s
		c.Payload = nil
		got = append(got, c)
		return true
	}, &recorder{})
	r.AddWriter(WriterProxyInfo{GUID: remoteWriter, Unicast: []wire.Locator{testLoc}}, now)
	for _, d := range datas {
		d.WriterID = remoteWriter.Entity
		r.HandleData(remotePrefix, &d, wire.TimeInvalid, now)
	}
	require.Len(t, got, 4)
	for i, s := range got {
		require.Equal(t, want[i].sn, s.Coherent, "sample %d", i+1)
		require.Equal(t, !want[i].payload, s.LostOnly, "sample %d", i+1)
	}
}
