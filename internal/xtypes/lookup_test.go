package xtypes

import (
	"os"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/cdr"
)

// sampleA2 is interop::SampleA with a member appended; Cyclone DDS asked for its minimal
// TypeObject in testdata/cyclone_typelookup_request.bin (a request captured from the
// Cyclone DDS 0.10.2 peer of interop/cmd/interop-peer TestTypeLookupCyclone).
type sampleA2 struct {
	ID     int32     `dds:"key,name=id"`
	Text   string    `dds:"name=text"`
	Values []float64 `dds:"name=values"`
	Seq    uint64    `dds:"name=seq"`
	Extra  int32     `dds:"name=extra"`
}

func (sampleA2) DDSTypeName() string                 { return "interop::SampleA" }
func (sampleA2) DDSExtensibility() cdr.Extensibility { return cdr.Appendable }

func cycloneRequest(t testing.TB) []byte {
	b, err := os.ReadFile("testdata/cyclone_typelookup_request.bin")
	require.NoError(t, err)
	return b
}

func TestParseCycloneRequest(t *testing.T) {
	d, err := cdr.Describe(reflect.TypeFor[sampleA2]())
	require.NoError(t, err)
	types, err := Build(d)
	require.NoError(t, err)
	r, err := ParseRequest(cycloneRequest(t))
	require.NoError(t, err)
	require.Equal(t, []TypeID{types.Minimal}, r.IDs)
	require.Equal(t, uint32(opGetTypes), r.op)
	require.Equal(t, byte(0xc3), r.ID[12], "the request writer's entity id")
}

// TestServe answers the captured request with the TypeObject asked for, and only when
// the registry has it.
func TestServe(t *testing.T) {
	var g Registry
	_, ok := g.Serve(cycloneRequest(t))
	require.False(t, ok, "an empty registry has nothing to say")
	d, err := cdr.Describe(reflect.TypeFor[sampleA2]())
	require.NoError(t, err)
	types, err := Build(d)
	require.NoError(t, err)
	g.Add(types)
	reply, ok := g.Serve(cycloneRequest(t))
	require.True(t, ok)

	// Read the reply back: header, then the getTypes result.
	var dec cdr.Decoder
	require.NoError(t, dec.Reset(reply))
	r, err := ParseRequest(cycloneRequest(t))
	require.NoError(t, err)
	require.Equal(t, r.ID[:16], dec.Octets(16))
	dec.Octets(8)
	require.Zero(t, dec.Int32(), "REMOTE_EX_OK")
	dec.DHeader()
	require.Equal(t, uint32(opGetTypes), dec.Uint32())
	dec.DHeader()
	require.Zero(t, dec.Int32(), "DDS_RETCODE_OK")
	end := dec.DHeader()
	id, _, _, ok := dec.Member(end)
	require.True(t, ok)
	require.Equal(t, HashID("types"), id)
	dec.DHeader()
	require.Equal(t, 1, dec.SeqLen(1))
	tid, err := decodeID(&dec, 0)
	require.NoError(t, err)
	require.Equal(t, types.Minimal, tid)
	dec.Align(4)
	obj := types.MinimalObjects[0].Bytes
	require.Equal(t, obj, dec.Octets(len(obj)))
	require.NoError(t, dec.Err())

	_, ok = g.Serve([]byte{0, 7, 0, 0, 1})
	require.False(t, ok, "malformed")
}

func FuzzParseRequest(f *testing.F) {
	f.Add(cycloneRequest(f))
	f.Fuzz(func(t *testing.T, b []byte) {
		var g Registry
		_, _ = ParseRequest(b)
		_, _ = g.Serve(b)
	})
}
