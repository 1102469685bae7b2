package cdr_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/cdr"
	"github.com/ddsgo/ddsgo/internal/golden"
	"github.com/ddsgo/ddsgo/internal/testutil/goldendata"
	"github.com/ddsgo/ddsgo/internal/wire"
)

// sample is interop::Sample as the peers' IDL declares it.
type sample struct {
	ID     int32 `dds:"key"`
	Text   string
	Values []float64
	Seq    uint64
}

type sampleA sample

func (sampleA) DDSExtensibility() cdr.Extensibility { return cdr.Appendable }

// userData returns every user DATA payload (writer entity kind 0x02/0x03) of a capture.
func userData(t *testing.T, name string) [][]byte {
	t.Helper()
	var out [][]byte
	goldendata.Each(t, name, func(_ *wire.Header, d *wire.Data, _ int) {
		if k := d.WriterID.Kind; (k == 0x02 || k == 0x03) && d.DataFlag {
			out = append(out, d.SerializedPayload)
		}
	})
	return out
}

// TestPeerUserData decodes every user sample Cyclone DDS and Fast DDS wrote in the golden
// captures, checks the values the peer programs wrote, and re-encodes each one to the very
// bytes the peer sent (encapsulation header and padding included).
func TestPeerUserData(t *testing.T) {
	want := map[string][]sample{
		"cyclone_interop.pcapng": {
			{1, "cyclone #1", []float64{1}, 1},
			{1, "", []float64{2, 2.0 / 3}, 2},
			{1, "utf8 é✓ #3", []float64{3, 1, -1.5e300}, 3},
			{1, "quote \" backslash \\ tab\t #4", []float64{}, 4},
			{1, "cyclone #5", []float64{5}, 5},
		},
		"cyclone_xcdr2.pcapng": {
			{1, "cyclone #1", []float64{1}, 1},
			{1, "", []float64{2, 2.0 / 3}, 2},
			{1, "utf8 é✓ #3", []float64{3, 1, -1.5e300}, 3},
		},
		"fastdds_interop.pcapng": {
			{1, "fastdds #1", []float64{}, 1},
			{2, "", []float64{2}, 2},
			{1, "utf8 é✓ #3", []float64{3, 1}, 3},
			{2, "quote \" backslash \\ tab\t #4", []float64{4, 4.0 / 3, -1.5e300}, 4},
			{1, "fastdds #5", []float64{}, 5},
			{2, "", []float64{6}, 6},
		},
	}
	seen := 0
	for _, name := range golden.Files() {
		var got []sample
		for _, p := range userData(t, name) {
			var d cdr.Decoder
			require.NoError(t, d.Reset(p))
			var s sample
			var out []byte
			var err error
			if d.Encapsulation().Delimited() {
				c := cdr.MustCodec[sampleA]()
				var a sampleA
				require.NoError(t, c.Unmarshal(p, &a), name)
				out, err = c.Marshal(nil, d.Encapsulation(), &a)
				s = sample(a)
			} else {
				c := cdr.MustCodec[sample]()
				require.NoError(t, c.Unmarshal(p, &s), name)
				out, err = c.Marshal(nil, d.Encapsulation(), &s)
			}
			require.NoError(t, err)
			require.Equal(t, p, out, "%s: re-encoding %+v", name, s)
			if s.Values == nil {
				s.Values = []float64{}
			}
			got = append(got, s)
			seen++
		}
		if w, ok := want[name]; ok {
			require.Equal(t, w, dedup(got), name)
		}
	}
	require.Greater(t, seen, 30)
}

// dedup drops retransmissions: the same (id, seq) seen again.
func dedup(in []sample) []sample {
	type k struct {
		id  int32
		seq uint64
	}
	seen := map[k]bool{}
	var out []sample
	for _, s := range in {
		if !seen[k{s.ID, s.Seq}] {
			seen[k{s.ID, s.Seq}] = true
			out = append(out, s)
		}
	}
	return out
}

// peerSample is what the interop peer programs write for sample number seq
// (interop/README.md): id = 1 + (seq-1) % keys, text "ddsgo <id> <seq>", payload/8 doubles
// seq + i/8.
func peerSample(seq, keys, payload int) sample {
	id := 1 + (seq-1)%keys
	v := make([]float64, payload/8)
	for i := range v {
		v[i] = float64(seq) + float64(i)/8
	}
	return sample{int32(id), fmt.Sprintf("ddsgo %d %d", id, seq), v, uint64(seq)}
}

// userSamples returns the user samples of a capture (DATA with the D flag, and DATA_FRAG
// reassembled) and the serialized keys of DATA with the K flag.
func userSamples(t *testing.T, name string) (data, keys [][]byte) {
	t.Helper()
	dgs, err := golden.RTPS(name)
	require.NoError(t, err)
	type fk struct {
		w  wire.GUID
		sn wire.SequenceNumber
	}
	frags := map[fk][]byte{}
	got := map[fk]int{}
	var r wire.Reader
	var d wire.Data
	var f wire.DataFrag
	for _, dg := range dgs {
		require.NoError(t, r.Reset(dg.Payload))
		for r.Next() {
			switch r.Kind() {
			case wire.KindData:
				require.NoError(t, r.Data(&d))
				if k := d.WriterID.Kind; k != 0x02 && k != 0x03 {
					continue
				}
				if d.DataFlag {
					data = append(data, d.SerializedPayload)
				} else if d.KeyFlag {
					keys = append(keys, d.SerializedPayload)
				}
			case wire.KindDataFrag:
				require.NoError(t, r.DataFrag(&f))
				k := fk{wire.GUID{Prefix: r.Header.Prefix, Entity: f.WriterID}, f.WriterSN}
				buf := frags[k]
				if buf == nil {
					buf = make([]byte, f.SampleSize)
					frags[k] = buf
				}
				off := (int(f.FragmentStartingNum) - 1) * int(f.FragmentSize)
				n := copy(buf[off:], f.Fragments)
				got[k] += n
				if got[k] == len(buf) {
					data = append(data, buf)
					got[k] = -1 << 40 // delivered once
				}
			default:
			}
		}
	}
	return data, keys
}

// TestPeerCapturesDecodeToWhatThePeersWrote holds every peer_* capture to the contents the
// interop peer programs write (internal/golden/captures/README.md).
func TestPeerCapturesDecodeToWhatThePeersWrote(t *testing.T) {
	cases := map[string]struct{ keys, count, payload, disposedKeys int }{
		"peer_cyclone_discovery.pcapng":  {3, 6, 16, 0},
		"peer_cyclone_besteffort.pcapng": {3, 6, 16, 0},
		"peer_cyclone_dispose.pcapng":    {3, 6, 16, 6},
		"peer_cyclone_unregister.pcapng": {2, 2, 16, 2},
		"peer_cyclone_domain7.pcapng":    {2, 4, 16, 0},
		"peer_cyclone_xcdr2.pcapng":      {10, 100, 16, 0},
		"peer_cyclone_appendable.pcapng": {10, 100, 16, 0},
		"peer_cyclone_frag.pcapng":       {1, 1, 102400, 0},
		"peer_cyclone_fastdds.pcapng":    {3, 6, 16, 0},
		"peer_fastdds_reliable.pcapng":   {3, 6, 16, 0},
		"peer_fastdds_dispose.pcapng":    {3, 6, 16, 0}, // Fast DDS disposes carry no payload
		"peer_fastdds_frag.pcapng":       {1, 1, 102400, 0},
		"peer_fastdds_cyclone.pcapng":    {3, 6, 16, 0},
	}
	n := 0
	for _, name := range golden.Files() {
		if !strings.HasPrefix(name, "peer_") {
			continue
		}
		tc, ok := cases[name]
		require.True(t, ok, "no expectation for %s", name)
		n++
		data, keys := userSamples(t, name)
		seen := map[uint64]bool{}
		for _, p := range data {
			var d cdr.Decoder
			require.NoError(t, d.Reset(p))
			var s sample
			if d.Encapsulation().Delimited() {
				var a sampleA
				require.NoError(t, cdr.MustCodec[sampleA]().Unmarshal(p, &a), name)
				s = sample(a)
			} else {
				require.NoError(t, cdr.MustCodec[sample]().Unmarshal(p, &s), name)
			}
			want := peerSample(int(s.Seq), tc.keys, tc.payload)
			if len(want.Values) == 0 {
				want.Values = nil
			}
			require.Equal(t, want, s, name)
			seen[s.Seq] = true
		}
		require.Len(t, seen, tc.count, name)
		if tc.disposedKeys > 0 {
			// Cyclone's dispose and unregister payloads are the serialized key: ids 1..keys.
			ids := map[int32]bool{}
			for _, k := range keys {
				var d cdr.Decoder
				require.NoError(t, d.Reset(k))
				var s sample
				cdr.MustCodec[sample]().DecodeKey(&d, &s)
				require.NoError(t, d.Err())
				ids[s.ID] = true
			}
			require.Len(t, ids, tc.keys, name)
		}
	}
	require.Equal(t, len(cases), n, "captures missing")
}
