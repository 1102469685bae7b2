package status

import (
	"testing"

	"github.com/ddsgo/ddsgo/listener"
	"github.com/stretchr/testify/require"
)

func TestHandles(t *testing.T) {
	guid := [16]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 0, 1, 0xc1}
	require.Equal(t, listener.InstanceHandle(guid), GUIDHandle(guid))

	// The key hash of an int32 key 0 is all zeros: its handle must not be nil.
	require.False(t, KeyHandle([16]byte{}).IsNil())
	a := KeyHandle([16]byte{0, 0, 0, 1})
	b := KeyHandle([16]byte{0, 0, 0, 2})
	require.NotEqual(t, a, b)
	require.Equal(t, a, KeyHandle([16]byte{0, 0, 0, 1}))
	require.True(t, KeyHandle(keyHashMask).IsNil(), "the one documented collision")
}
