package rtps

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/wire"
)

// TestWriterRestore: a writer created with a stored history holds it, sends it to a
// late joiner with the stored sequence numbers, and continues after the highest of the
// last stored change and RestoreLastSN; Retain drops what the durability service does
// not keep.
func TestWriterRestore(t *testing.T) {
	var rec recorder
	now := time.Unix(1_700_000_000, 0)
	restore := []Change{
		{SN: 2, Payload: payload(2, 4)},
		{SN: 3, Payload: payload(3, 4)},
		{SN: 3, Payload: payload(9, 4)}, // not above the previous one: skipped
		{SN: 5, Payload: payload(5, 4)},
	}
	w := NewWriter(WriterConfig{
		GUID: localWriterID, Reliable: true, TransientLocal: true, History: HistoryConfig{KeepAll: true},
		Restore: restore, RestoreLastSN: 6,
	}, &rec)
	require.Equal(t, wire.SequenceNumber(6), w.LastSN())
	require.Equal(t, 3, w.HistoryLen())
	require.Empty(t, rec.msgs, "nothing is sent before a reader matches")

	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Unicast: []wire.Locator{testLoc}}, now) // best effort: gets the history at once
	_, datas, _, _ := rec.all(t)
	var sns []wire.SequenceNumber
	for _, d := range datas {
		sns = append(sns, d.WriterSN)
	}
	require.Equal(t, []wire.SequenceNumber{2, 3, 5}, sns)

	sn, err := w.Write(Change{Payload: payload(7, 4)}, now)
	require.NoError(t, err)
	require.Equal(t, wire.SequenceNumber(7), sn)

	require.Equal(t, 2, w.Retain(func(sn wire.SequenceNumber) bool { return sn >= 5 }))
	require.Equal(t, 2, w.HistoryLen())
	sn, err = w.Write(Change{Payload: payload(8, 4)}, now)
	require.NoError(t, err)
	require.Equal(t, wire.SequenceNumber(8), sn)
}
