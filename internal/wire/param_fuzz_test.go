package wire

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var updateParamSeeds = flag.Bool("update-param-seeds", false, "rewrite testdata/fuzz/FuzzParameterList from the golden captures")

// fuzzVendors are the vendors a fuzz input can claim.
var fuzzVendors = [...]VendorID{VendorUnknown, VendorCyclone, VendorFastDDS}

// paramFuzzInput prefixes a ParameterList with the selector octet
// FuzzParameterList reads: bit 0 big-endian, bits 1-2 the vendor.
func paramFuzzInput(list []byte, be bool, vendor VendorID) []byte {
	sel := byte(0)
	if be {
		sel = 1
	}
	for i, v := range fuzzVendors {
		if v == vendor {
			sel |= byte(i) << 1
		}
	}
	return append([]byte{sel}, list...)
}

// FuzzParameterList reads arbitrary input as a ParameterList (after a
// selector octet that picks the byte order and the sender's vendor). It must
// never panic; every typed parser must be safe on every parameter value;
// when a value decodes, its canonical re-encoding must decode to a value
// that encodes to the same octets.
func FuzzParameterList(f *testing.F) {
	for _, tc := range roundTripValues {
		for _, be := range []bool{false, true} {
			w := NewParamWriter(nil, be)
			put(&w, tc.id, tc.v)
			b, _ := w.Finish()
			f.Add(paramFuzzInput(b, be, VendorUnknown))
		}
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) == 0 {
			return
		}
		be := in[0]&1 != 0
		vendor := fuzzVendors[int(in[0]>>1)%len(fuzzVendors)]
		list := in[1:]
		r := NewParameterReader(list, be, vendor)
		for p, ok := r.Next(); ok; p, ok = r.Next() {
			require.LessOrEqual(t, r.Len(), len(list))
			c, ok := codecFor(p.ID, vendor)
			if !ok {
				continue
			}
			w1 := NewParamWriter(nil, be)
			if _, err := c(&w1, p.ID, p.Value, be); err != nil {
				continue
			}
			require.NoError(t, w1.Err(), "%s", p.ID)
			enc1 := w1.Bytes()
			// Decode the canonical form and encode it again.
			ps, r2 := collect(enc1, be, vendor)
			require.NoError(t, r2.Err())
			require.Len(t, ps, 1)
			w2 := NewParamWriter(nil, be)
			_, err := c(&w2, p.ID, ps[0].Value, be)
			require.NoError(t, err, "%s: canonical form %x does not decode", p.ID, enc1)
			require.Equal(t, enc1, w2.Bytes(), "%s", p.ID)
		}
		require.LessOrEqual(t, r.Len(), len(list))
		_, _ = FindParameter(list, be, vendor, PIDKeyHash)
		// Every parser on the whole input, whatever the ids say.
		for _, c := range stdCodecs {
			w := NewParamWriter(nil, be)
			_, _ = c(&w, PIDUserData, list, be)
		}
		_, _, _ = ParseCycloneParticipantVersionInfo(list, be)
		_, _, _ = ParseSampleIdentity(list, be)
	})
}

// TestUpdateParamSeeds rewrites the committed corpus of FuzzParameterList
// with -update-param-seeds: the distinct ParameterLists of the golden
// captures, up to a few per capture.
func TestUpdateParamSeeds(t *testing.T) {
	writeSeed := seedCorpus(t, *updateParamSeeds, "update-param-seeds", "FuzzParameterList")
	perFile := map[string]int{}
	seen := map[string]bool{}
	for _, l := range goldenLists(t) {
		key := fmt.Sprintf("%s/%s/%v", l.vendor, l.writer, l.inline)
		if seen[l.file+key] || perFile[l.file] >= 4 {
			continue
		}
		seen[l.file+key] = true
		i := perFile[l.file]
		perFile[l.file]++
		name := fmt.Sprintf("%s-%d", strings.TrimSuffix(l.file, ".pcapng"), i)
		writeSeed(name, paramFuzzInput(l.raw, l.be, l.vendor))
	}
}
