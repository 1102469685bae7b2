package wire

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/golden"
)

var updateFuzzSeeds = flag.Bool("update-fuzz-seeds", false, "rewrite testdata/fuzz/FuzzParseMessage from the golden captures")

// FuzzParseMessage parses arbitrary input as an RTPS message. It must never
// panic; every submessage that decodes must encode to Len() bytes, decode
// again, and encode again to the same bytes (the first encoding may
// normalize: padding, octetsToInlineQos, ignored trailing octets).
func FuzzParseMessage(f *testing.F) {
	msg := Header{Version: ProtocolVersion25, Vendor: VendorDDSGo, Prefix: testPrefix}.Append(nil)
	for _, c := range submessageCases {
		f.Add(append(append([]byte(nil), msg...), c.wire...))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var r Reader
		if r.Reset(in) != nil {
			return
		}
		var s subs
		for r.Next() {
			raw := r.Submessage()
			require.LessOrEqual(t, len(raw), len(in))
			if sm, err := s.decodeCurrent(&r); err != nil || sm == nil {
				continue
			}
			x1, n, err := parseAny(raw)
			require.NoError(t, err, "ParseX disagrees with the Reader")
			require.Equal(t, len(raw), n)
			w1 := x1.Append(nil)
			require.Equal(t, x1.Len(), len(w1))
			x2, n, err := parseAny(w1)
			require.NoError(t, err, "re-encoded %s does not parse", x1.Kind())
			require.Equal(t, len(w1), n)
			require.Equal(t, x1, normalize(t, x1, x2))
			w2 := x2.Append(nil)
			require.Equal(t, w1, w2)
		}
	})
}

// normalize returns x2 (x1 encoded and parsed again) with the zero padding
// that Append adds after a DATA payload or DATA_FRAG fragments cut back to
// the length of x1's, after checking that the padding is zeros.
func normalize(t *testing.T, x1, x2 Submessage) Submessage {
	unpad := func(b1, b2 []byte) []byte {
		if len(b2) < len(b1) || len(b2)-len(b1) > 3 {
			return b2
		}
		for _, c := range b2[len(b1):] {
			require.Zero(t, c, "padding")
		}
		return b2[:len(b1):len(b1)]
	}
	switch x := x2.(type) {
	case *Data:
		c := *x
		c.SerializedPayload = unpad(x1.(*Data).SerializedPayload, c.SerializedPayload)
		return &c
	case *DataFrag:
		c := *x
		c.Fragments = unpad(x1.(*DataFrag).Fragments, c.Fragments)
		return &c
	}
	return x2
}

// TestUpdateFuzzSeeds rewrites the committed seed corpus of
// FuzzParseMessage with -update-fuzz-seeds: a few real datagrams of each
// capture, one per distinct sequence of submessage kinds.
func TestUpdateFuzzSeeds(t *testing.T) {
	writeSeed := seedCorpus(t, *updateFuzzSeeds, "update-fuzz-seeds", "FuzzParseMessage")
	const perCapture = 5
	total := 0
	for _, name := range golden.Files() {
		msgs, err := golden.RTPS(name)
		require.NoError(t, err)
		seen := map[string]bool{}
		for i, m := range msgs {
			if len(seen) == perCapture {
				break
			}
			var r Reader
			require.NoError(t, r.Reset(m.Payload))
			var sig strings.Builder
			for r.Next() {
				sig.WriteString(r.Kind().String())
				sig.WriteByte(' ')
			}
			if seen[sig.String()] || len(m.Payload) > 16384 {
				continue
			}
			seen[sig.String()] = true
			writeSeed(fmt.Sprintf("%s-%03d", strings.TrimSuffix(name, ".pcapng"), i), m.Payload)
			total++
		}
	}
	t.Logf("wrote %d seeds", total)
}

// seedCorpus serves the tests that rewrite the committed seed corpus of the
// fuzz test fuzz when their flag (update, named flagName) is set, and skips
// them otherwise. It empties testdata/fuzz/<fuzz> and returns a function
// that writes one seed input there under the given file name.
func seedCorpus(t *testing.T, update bool, flagName, fuzz string) func(name string, in []byte) {
	if !update {
		t.Skipf("run with -%s to rewrite the corpus", flagName)
	}
	dir := filepath.Join("testdata", "fuzz", fuzz)
	require.NoError(t, os.RemoveAll(dir))
	require.NoError(t, os.MkdirAll(dir, 0o755))
	return func(name string, in []byte) {
		body := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", in)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
}
