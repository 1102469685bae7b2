package rtps

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/wire"
)

// A change's related sample identity goes out in the inline QoS twice (the standard
// 0x0083 and Fast DDS's 0x800f); a reader passes it on with the sample, reading 0x800f
// only from the vendor that defines it.
func TestRelatedSampleIdentity(t *testing.T) {
	var rec recorder
	now := time.Now()
	w := NewWriter(WriterConfig{GUID: localWriterID, History: HistoryConfig{KeepAll: true}}, &rec)
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Unicast: []wire.Locator{testLoc}}, now)
	related := wire.SampleIdentity{WriterGUID: remoteWriter, SN: 7}
	_, err := w.Write(Change{Payload: payload(1, 0), Related: related}, now)
	require.NoError(t, err)
	_, err = w.Write(Change{Payload: payload(2, 0)}, now)
	require.NoError(t, err)
	_, datas, _, _ := rec.all(t)
	require.Len(t, datas, 2)
	var pids []wire.ParameterID
	pr := wire.NewParameterReader(datas[0].InlineQoS, datas[0].BigEndian, wire.VendorDDSGo)
	for p, ok := pr.Next(); ok; p, ok = pr.Next() {
		pids = append(pids, p.ID)
	}
	require.NoError(t, pr.Err())
	require.Equal(t, []wire.ParameterID{wire.PIDRelatedSampleIdentity, wire.PIDFastDDSCustomRelatedSampleIdentity}, pids)
	require.Empty(t, datas[1].InlineQoS, "nothing to say without a related identity")

	for _, tc := range []struct {
		name   string
		vendor wire.VendorID
		pid    wire.ParameterID
		want   wire.SampleIdentity
	}{
		{"standard", wire.VendorCyclone, wire.PIDRelatedSampleIdentity, related},
		{"Fast DDS's own", wire.VendorFastDDS, wire.PIDFastDDSCustomRelatedSampleIdentity, related},
		{"another vendor's 0x800f", wire.VendorCyclone, wire.PIDFastDDSCustomRelatedSampleIdentity, wire.SampleIdentity{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []Sample
			r := NewReader(ReaderConfig{GUID: localReaderID}, func(s *Sample) bool {
				c := *s
				c.Payload = nil
				got = append(got, c)
				return true
			}, &recorder{})
			r.AddWriter(WriterProxyInfo{GUID: remoteWriter, Vendor: tc.vendor, Unicast: []wire.Locator{testLoc}}, now)
			var id [24]byte
			pw := wire.NewParamWriter(nil, false)
			pw.PutRaw(tc.pid, related.Append(id[:0], false))
			q, err := pw.Finish()
			require.NoError(t, err)
			d := wire.Data{WriterID: remoteWriter.Entity, WriterSN: 1, DataFlag: true, InlineQoS: q, SerializedPayload: payload(1, 0)}
			r.HandleData(remotePrefix, &d, wire.TimeInvalid, now)
			require.Len(t, got, 1)
			require.Equal(t, tc.want, got[0].Related)
			require.Equal(t, tc.vendor, got[0].Vendor)
		})
	}
}
