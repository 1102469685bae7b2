package ecm

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/cdr"
)

type memPose struct {
	P [3]float64
	Q struct{ X, Y, Z, W float64 }
}

type memMixed struct {
	A int8
	B int16
	C int32
	D uint64
	E float32
}

type memHole struct { // no copy: B is not where the encoding puts it on 32-bit hosts
	A int32
	B float64
	C [2]uint8
}

// checkMemCodec compares the default codec of T with the reflective one, at every
// alignment of the stream, in both byte orders and XCDR versions.
func checkMemCodec[T any](t *testing.T, v T, copies bool) {
	t.Helper()
	enc, _, ok := defaultCodec[T]()
	require.True(t, ok)
	slow, _, _, _ := plan(reflect.TypeFor[T](), 0)
	l := memLayout{}
	require.Equal(t, copies, l.at(reflect.TypeFor[T](), 0))
	for _, id := range []cdr.EncapsulationID{cdr.CDRLE, cdr.CDRBE, cdr.CDR2LE} {
		for pre := range 8 {
			var fast, ref cdr.Encoder
			fast.Reset(nil, id)
			ref.Reset(nil, id)
			for range pre {
				fast.Uint8(1)
				ref.Uint8(1)
			}
			enc(&fast, &v)
			slow(&ref, reflect.ValueOf(&v).Elem())
			require.Equal(t, ref.Bytes(), fast.Bytes(), "%v at %d", id, pre)
		}
	}
}

func TestMemCodec(t *testing.T) {
	checkMemCodec(t, memPose{P: [3]float64{1, 2, 3}, Q: struct{ X, Y, Z, W float64 }{4, 5, 6, 7}}, true)
	checkMemCodec(t, memMixed{-1, -2, -3, 4, 5.5}, true)
	checkMemCodec(t, memHole{-1, 2.5, [2]uint8{3, 4}}, reflect.TypeFor[memHole]().Field(1).Offset == 8)
	checkMemCodec(t, 2.5, true)
	checkMemCodec(t, struct{ B bool }{true}, false)
}
