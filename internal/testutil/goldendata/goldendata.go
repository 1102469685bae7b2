// Package goldendata walks the DATA submessages of the golden captures (package golden)
// for the tests of the packages above wire. It is used from _test.go files only.
package goldendata

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/golden"
	"github.com/ddsgo/ddsgo/internal/wire"
)

// Each calls fn with every DATA submessage of the capture name, in order, with the header
// of its message and the index of that message among the capture's RTPS messages. It
// fails t if the capture cannot be read or a message or DATA does not parse. d is reused
// from call to call; its slices point into the capture.
func Each(t testing.TB, name string, fn func(h *wire.Header, d *wire.Data, msg int)) {
	t.Helper()
	msgs, err := golden.RTPS(name)
	require.NoError(t, err)
	var r wire.Reader
	var d wire.Data
	for i, m := range msgs {
		require.NoError(t, r.Reset(m.Payload))
		for r.Next() {
			if r.Kind() != wire.KindData {
				continue
			}
			require.NoError(t, r.Data(&d))
			fn(&r.Header, &d, i)
		}
		require.NoError(t, r.Err())
	}
}
