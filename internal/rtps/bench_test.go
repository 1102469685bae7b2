package rtps

import (
	"encoding/binary"
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/transport"
	"github.com/ddsgo/ddsgo/internal/transport/memnet"
	"github.com/ddsgo/ddsgo/internal/wire"
)

// Benchmarks of the hot paths the other benchmarks do not reach: repairs,
// reassembly and the engine's routing of a datagram.

// BenchmarkWriterRepair answers an ACKNACK that asks for 32 changes, 8 of
// them gone (a GAP), and a NACK_FRAG that asks for two runs of fragments.
func BenchmarkWriterRepair(b *testing.B) {
	var pool bufPool
	now := time.Unix(1_700_000_000, 0)
	w := NewWriter(WriterConfig{
		GUID: localWriterID, Reliable: true, History: HistoryConfig{KeepAll: true},
		NackSuppression: -1, FragmentSize: 1024, FragmentThreshold: 1024, Release: pool.put,
	}, &discard{})
	w.AddReader(ReaderProxyInfo{GUID: remoteReader, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	for i := range 40 {
		size := 64
		if i == 39 {
			size = 8000 // 8 fragments
		}
		_, err := w.Write(Change{Payload: pool.get(size)}, now)
		require.NoError(b, err)
	}
	for sn := range wire.SequenceNumber(8) {
		w.hist.remove(10 + sn) // gone from the history: GAP [10, 18)
	}
	a := wire.AckNack{ReaderID: remoteReader.Entity, WriterID: localWriterID.Entity, ReaderSNState: wire.SequenceNumberSet{Base: 1, NumBits: 32}}
	for i := range 32 {
		a.ReaderSNState.Bitmap[i/32] |= 1 << (31 - i%32)
	}
	n := wire.NackFrag{ReaderID: remoteReader.Entity, WriterID: localWriterID.Entity, WriterSN: 40, FragmentNumberState: wire.FragmentNumberSet{Base: 1, NumBits: 8}}
	n.FragmentNumberState.Bitmap[0] = 0b11011100 << 24 // fragments 1, 2, 4, 5, 6
	b.ReportAllocs()
	for b.Loop() {
		a.Count++
		w.HandleAckNack(remotePrefix, &a, now)
		n.Count++
		w.HandleNackFrag(remotePrefix, &n, now)
	}
}

// BenchmarkReaderHandleDataFrag reassembles samples of 20 kB sent in
// DATA_FRAGs of 4 fragments of 1 KiB.
func BenchmarkReaderHandleDataFrag(b *testing.B) {
	r := NewReader(ReaderConfig{GUID: localReaderID, Reliable: true}, func(*Sample) bool { return true }, &discard{})
	now := time.Unix(1_700_000_000, 0)
	r.AddWriter(WriterProxyInfo{GUID: remoteWriter, Reliable: true, Unicast: []wire.Locator{testLoc}}, now)
	const fs = 1024
	p := payload(0, 20000-12)
	d := wire.DataFrag{WriterID: remoteWriter.Entity, FragmentSize: fs, SampleSize: uint32(len(p))}
	b.ReportAllocs()
	for b.Loop() {
		d.WriterSN++
		for off := 0; off < len(p); off += 4 * fs {
			end := min(off+4*fs, len(p))
			d.FragmentStartingNum = wire.FragmentNumber(off/fs + 1)
			d.FragmentsInSubmessage = uint16((end - off + fs - 1) / fs)
			d.Fragments = p[off:end]
			r.HandleDataFrag(remotePrefix, &d, wire.TimeZero, now)
		}
	}
}

// BenchmarkEngineReceive routes datagrams of INFO_TS and DATA, in order, to
// a matched reader.
func BenchmarkEngineReceive(b *testing.B) {
	n, err := memnet.New(memnet.Config{Seed: 9})
	require.NoError(b, err)
	defer n.Close()
	h, err := n.AddHost("a", netip.MustParseAddr("10.0.0.1"))
	require.NoError(b, err)
	a, err := NewEngine(EngineConfig{Transport: transport.Config{Net: h}})
	require.NoError(b, err)
	defer func() { require.NoError(b, a.Close()) }()
	src := wire.GuidPrefix{7}
	wg := wire.GUID{Prefix: src, Entity: wire.EntityIDFromUint32(0x103)}
	rg := wire.GUID{Prefix: a.GUIDPrefix(), Entity: wire.EntityIDFromUint32(0x104)}
	r := a.NewReader(ReaderConfig{GUID: rg}, func(*Sample) bool { return true })
	a.MatchWriter(r, WriterProxyInfo{GUID: wg})
	msg := func(sn wire.SequenceNumber) []byte {
		hdr := wire.Header{Version: wire.ProtocolVersion21, Vendor: wire.VendorCyclone, Prefix: src}
		ts := wire.InfoTS{Timestamp: wire.Time{Seconds: 1}}
		d := wire.Data{DataFlag: true, WriterID: wg.Entity, WriterSN: sn, SerializedPayload: payload(uint64(sn), 32)}
		return d.Append(ts.Append(hdr.Append(nil)))
	}
	m, m2 := msg(1), msg(2)
	at := 0 // of the low word of the DATA's writerSN, the first byte in which they differ
	for m[at] == m2[at] {
		at++
	}
	done := make(chan struct{})
	a.Post(func() {
		defer close(done)
		rx := &a.rxs[transport.SocketOther]
		b.ReportAllocs()
		sn := uint32(0)
		for b.Loop() {
			sn++
			binary.LittleEndian.PutUint32(m[at:], sn)
			a.receive(rx, m, false)
		}
	})
	<-done
}
