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

// TestGroupCoherentSetOnTheWire: a change's group information goes as
// PID_GROUP_SEQ_NUM, PID_GROUP_COHERENT_SET and PID_WRITER_GROUP_INFO (4 octets) in the
// inline QoS and comes back the same from a reader, the end marker's too.
func TestGroupCoherentSetOnTheWire(t *testing.T) {
	var rec recorder
	now := time.Now()
	w := NewWriter(WriterConfig{GUID: localWriterID, History: HistoryConfig{KeepAll: true}}, &rec)
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Unicast: []wire.Locator{testLoc}}, now)
	changes := []Change{
		{Payload: payload(1, 0), Group: GroupInfo{SN: 7}}, // outside a set
		{Payload: payload(2, 0), Coherent: CoherentFirst, Group: GroupInfo{SN: 9, Coherent: 8}},
		{Coherent: wire.SequenceNumberUnknown, Group: GroupInfo{SN: 11, Coherent: 8, WriterSet: 0xa1b2c3d4, HasWriterSet: true}},
	}
	for _, c := range changes {
		_, err := w.Write(c, now)
		require.NoError(t, err)
	}
	_, datas, _, _ := rec.all(t)
	require.Len(t, datas, 3)
	var got []Sample
	r := NewReader(ReaderConfig{GUID: localReaderID}, func(s *Sample) bool {
		got = append(got, *s)
		return true
	}, &recorder{})
	r.AddWriter(WriterProxyInfo{GUID: remoteWriter, Unicast: []wire.Locator{testLoc}}, now)
	for _, d := range datas {
		pr := wire.NewParameterReader(d.InlineQoS, false, wire.VendorID{})
		ids := map[wire.ParameterID]int{}
		for prm, ok := pr.Next(); ok; prm, ok = pr.Next() {
			ids[prm.ID] = len(prm.Value)
		}
		require.Equal(t, 8, ids[wire.PIDGroupSeqNum])
		d.WriterID = remoteWriter.Entity
		r.HandleData(remotePrefix, &d, wire.TimeInvalid, now)
	}
	require.Len(t, got, 3)
	for i, s := range got {
		require.Equal(t, changes[i].Group, s.Group, "sample %d", i+1)
	}
	require.True(t, got[2].LostOnly, "the end marker carries no sample")
}
