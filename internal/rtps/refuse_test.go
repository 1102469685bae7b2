package rtps

import (
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/stretchr/testify/require"
)

// ackNacks returns the ACKNACKs of the recorded messages and forgets them.
func (r *recorder) ackNacks(t *testing.T) []wire.AckNack {
	t.Helper()
	var out []wire.AckNack
	for _, m := range r.msgs {
		var rd wire.Reader
		require.NoError(t, rd.Reset(m))
		for rd.Next() {
			if rd.Kind() == wire.KindAckNack {
				var a wire.AckNack
				require.NoError(t, rd.AckNack(&a))
				out = append(out, a)
			}
		}
		require.NoError(t, rd.Err())
	}
	r.msgs = nil
	return out
}

// TestReaderRefusal: a reliable reader whose callback refuses a change keeps
// it unacknowledged, stops there, asks for it again on Retry and delivers
// everything in order, exactly once, when it comes back.
func TestReaderRefusal(t *testing.T) {
	var got collector
	var rec recorder
	room := 2
	now := time.Unix(1_700_000_000, 0)
	r := NewReader(ReaderConfig{GUID: localReaderID, Reliable: true}, func(s *Sample) bool {
		if room == 0 {
			return false
		}
		room--
		return got.deliver(s)
	}, &rec)
	r.AddWriter(WriterProxyInfo{GUID: remoteWriter, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	rec.msgs = nil
	data := func(sn int) {
		d := wire.Data{WriterID: remoteWriter.Entity, WriterSN: wire.SequenceNumber(sn), DataFlag: true, SerializedPayload: payload(uint64(sn), 0)}
		r.HandleData(remotePrefix, &d, wire.TimeInvalid, now)
	}
	for sn := 1; sn <= 6; sn++ {
		data(sn)
	}
	require.Equal(t, []uint64{1, 2}, got.seqs)
	st := r.Stats()
	require.Equal(t, uint64(1), st.Refused)
	require.Equal(t, uint64(2), st.Delivered)
	require.Empty(t, rec.msgs, "a refusal sends nothing by itself")

	// A HEARTBEAT is answered with an ACKNACK that does not acknowledge 3.
	hb := wire.Heartbeat{WriterID: remoteWriter.Entity, FirstSN: 1, LastSN: 6, Count: 1, Final: true}
	r.HandleHeartbeat(remotePrefix, &hb, now)
	acks := rec.ackNacks(t)
	require.Len(t, acks, 1)
	require.Equal(t, wire.SequenceNumber(3), acks[0].ReaderSNState.Base)
	require.True(t, acks[0].ReaderSNState.Contains(3))
	require.False(t, acks[0].ReaderSNState.Contains(4), "4..6 are buffered")

	// The writer resends 3 while there is still no room: refused again.
	data(3)
	require.Equal(t, []uint64{1, 2}, got.seqs)
	require.Equal(t, uint64(2), r.Stats().Refused)

	// Room for one: Retry asks for 3, which is delivered; 4 (buffered) is
	// refused, dropped and asked for on the next Retry.
	room = 1
	r.Retry(now)
	acks = rec.ackNacks(t)
	require.Len(t, acks, 1)
	require.Equal(t, wire.SequenceNumber(3), acks[0].ReaderSNState.Base)
	require.True(t, acks[0].ReaderSNState.Contains(3))
	data(3)
	require.Equal(t, []uint64{1, 2, 3}, got.seqs)
	data(3) // a duplicate
	require.Equal(t, uint64(1), r.Stats().Duplicates)
	r.Retry(now)
	acks = rec.ackNacks(t)
	require.Len(t, acks, 1)
	require.Equal(t, wire.SequenceNumber(4), acks[0].ReaderSNState.Base)
	require.True(t, acks[0].ReaderSNState.Contains(4))
	require.False(t, acks[0].ReaderSNState.Contains(5))

	room = 100
	data(4)
	require.Equal(t, []uint64{1, 2, 3, 4, 5, 6}, got.seqs)
	st = r.Stats()
	require.Equal(t, uint64(6), st.Delivered)
	require.Equal(t, uint64(3), st.Refused)
	require.Zero(t, r.MemoryInUse())
	// Nothing refused any more: Retry sends nothing.
	r.Retry(now)
	require.Empty(t, rec.msgs)
}

// TestReaderRefusalFragmented: a refused fragmented change is reassembled
// again when it is resent.
func TestReaderRefusalFragmented(t *testing.T) {
	var got collector
	var rec recorder
	accept := false
	now := time.Unix(1_700_000_000, 0)
	r := NewReader(ReaderConfig{GUID: localReaderID, Reliable: true}, func(s *Sample) bool {
		return accept && got.deliver(s)
	}, &rec)
	r.AddWriter(WriterProxyInfo{GUID: remoteWriter, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	p := payload(1, 3000)
	frags := func() {
		for f := 0; f*1024 < len(p); f++ {
			end := min((f+1)*1024, len(p))
			d := wire.DataFrag{
				WriterID: remoteWriter.Entity, WriterSN: 1, FragmentStartingNum: wire.FragmentNumber(f + 1),
				FragmentsInSubmessage: 1, FragmentSize: 1024, SampleSize: uint32(len(p)), Fragments: p[f*1024 : end],
			}
			r.HandleDataFrag(remotePrefix, &d, wire.TimeInvalid, now)
		}
	}
	frags()
	require.Empty(t, got.seqs)
	require.Equal(t, uint64(1), r.Stats().Refused)
	require.Zero(t, r.MemoryInUse())
	accept = true
	frags()
	require.Equal(t, []uint64{1}, got.seqs)
	require.Equal(t, p, got.samples[0].Payload)
}

// TestBestEffortReaderRefusal: a best-effort reader drops what the callback
// refuses and goes on.
func TestBestEffortReaderRefusal(t *testing.T) {
	var got collector
	var rec recorder
	now := time.Unix(1_700_000_000, 0)
	r := NewReader(ReaderConfig{GUID: localReaderID}, func(s *Sample) bool {
		return s.SN%2 == 0 && got.deliver(s)
	}, &rec)
	r.AddWriter(WriterProxyInfo{GUID: remoteWriter, Unicast: []wire.Locator{testLoc}}, now)
	for sn := 1; sn <= 4; sn++ {
		d := wire.Data{WriterID: remoteWriter.Entity, WriterSN: wire.SequenceNumber(sn), DataFlag: true, SerializedPayload: payload(uint64(sn), 0)}
		r.HandleData(remotePrefix, &d, wire.TimeInvalid, now)
	}
	require.Equal(t, []uint64{2, 4}, got.seqs)
	require.Equal(t, uint64(2), r.Stats().Refused)
	r.Retry(now)
	require.Empty(t, rec.msgs)
}

// TestNackInterval: HEARTBEATs that come within NackInterval of an ACKNACK
// that asked for something get one merged answer at its end; pure
// acknowledgments are not held back.
func TestNackInterval(t *testing.T) {
	var rec recorder
	now := time.Unix(1_700_000_000, 0)
	r := NewReader(ReaderConfig{GUID: localReaderID, Reliable: true}, nil, &rec)
	r.AddWriter(WriterProxyInfo{GUID: remoteWriter, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	require.Len(t, rec.ackNacks(t), 1, "the pre-emptive ACKNACK")
	hb := func(count wire.Count, last wire.SequenceNumber) {
		h := wire.Heartbeat{WriterID: remoteWriter.Entity, FirstSN: 1, LastSN: last, Count: count}
		r.HandleHeartbeat(remotePrefix, &h, now)
	}
	hb(1, 3) // 1..3 missing: asked at once
	a := rec.ackNacks(t)
	require.Len(t, a, 1)
	require.Equal(t, uint32(3), a[0].ReaderSNState.NumBits)

	now = now.Add(time.Millisecond)
	hb(2, 4)
	now = now.Add(time.Millisecond)
	hb(3, 5)
	require.Empty(t, rec.ackNacks(t), "within NackInterval: held back")
	require.Equal(t, now.Add(DefaultNackInterval-2*time.Millisecond), r.Deadline())

	now = r.Deadline()
	r.Tick(now)
	a = rec.ackNacks(t)
	require.Len(t, a, 1, "one answer for both")
	require.Equal(t, uint32(5), a[0].ReaderSNState.NumBits)

	// Everything arrives: the acknowledgment goes at once.
	for sn := wire.SequenceNumber(1); sn <= 5; sn++ {
		d := wire.Data{WriterID: remoteWriter.Entity, WriterSN: sn, DataFlag: true, SerializedPayload: payload(uint64(sn), 0)}
		r.HandleData(remotePrefix, &d, wire.TimeInvalid, now)
	}
	hb(4, 5)
	a = rec.ackNacks(t)
	require.Len(t, a, 1)
	require.Equal(t, wire.SequenceNumber(6), a[0].ReaderSNState.Base)
	require.Zero(t, a[0].ReaderSNState.NumBits)
}
