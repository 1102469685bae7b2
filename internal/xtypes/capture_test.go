package xtypes_test

import (
	"encoding/hex"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/cdr"
	"github.com/ddsgo/ddsgo/internal/discovery"
	"github.com/ddsgo/ddsgo/internal/golden"
	"github.com/ddsgo/ddsgo/internal/testutil/goldendata"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/internal/xtypes"
)

// TestCaptures decodes the PID_TYPE_INFORMATION of every Cyclone DDS SEDP endpoint in the
// captures of real traffic, re-encodes it to the same bytes, and checks that
// the Cyclone DDS interop peer's announcement of interop::Sample is, byte for byte, the
// TypeInformation ddsgo builds from the Go type.
func TestCaptures(t *testing.T) {
	want := map[string][]byte{}
	for name, rt := range map[string]reflect.Type{
		"interop::Sample":  reflect.TypeFor[xtypes.InteropSample](),
		"interop::SampleA": reflect.TypeFor[xtypes.InteropSampleA](),
	} {
		d, err := cdr.Describe(rt)
		require.NoError(t, err)
		types, err := xtypes.Build(d)
		require.NoError(t, err)
		info := types.Info()
		want[name] = info.Append(nil)
	}
	seen, matched := 0, 0
	for _, file := range golden.Files() {
		goldendata.Each(t, file, func(h *wire.Header, d *wire.Data, msg int) {
			if d.WriterID != wire.EntityIDSEDPPublicationsWriter && d.WriterID != wire.EntityIDSEDPSubscriptionsWriter {
				return
			}
			dec := discovery.Decoder{Vendor: h.Vendor}
			if _, ok, err := dec.Disposal(d); ok || err != nil {
				return
			}
			e, err := dec.EndpointData(d.SerializedPayload)
			require.NoError(t, err)
			if e.TypeInformation == nil {
				return
			}
			if h.Vendor == wire.VendorFastDDS {
				// Fast DDS 2.9 sends its pre-XTypes-1.3 form (no DHEADERs, other hashes):
				// not a TypeInformation this package reads.
				_, err := xtypes.ParseInfo(e.TypeInformation)
				require.Error(t, err)
				return
			}
			seen++
			info, err := xtypes.ParseInfo(e.TypeInformation)
			require.NoError(t, err, "%s message %d", file, msg)
			require.True(t, info.Minimal.Type.ID.Hashed(), "%s message %d", file, msg)
			require.True(t, info.Complete.Type.ID.Hashed(), "%s message %d", file, msg)
			require.Equal(t, hex.EncodeToString(e.TypeInformation), hex.EncodeToString(info.Append(nil)), "%s message %d: re-encoded", file, msg)
			if w, ok := want[e.TypeName]; ok && h.Vendor == wire.VendorCyclone {
				require.Equal(t, hex.EncodeToString(w), hex.EncodeToString(e.TypeInformation), "%s message %d: %s", file, msg, e.TypeName)
				matched++
			}
		})
	}
	require.NotZero(t, seen, "no capture holds a PID_TYPE_INFORMATION")
	require.NotZero(t, matched, "no capture holds Cyclone's TypeInformation of interop::Sample")
	t.Logf("%d type informations decoded, %d equal to ddsgo's", seen, matched)
}
