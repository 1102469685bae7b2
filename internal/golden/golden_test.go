package golden

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFiles(t *testing.T) {
	files := Files()
	require.Contains(t, files, "cyclone_interop.pcapng")
	require.Contains(t, files, "fastdds_interop.pcapng")
	for _, f := range files {
		all, err := Datagrams(f)
		require.NoError(t, err, f)
		rtps, err := RTPS(f)
		require.NoError(t, err, f)
		require.NotEmpty(t, rtps, f)
		require.LessOrEqual(t, len(rtps), len(all))
		for _, d := range rtps {
			require.Equal(t, "RTPS", string(d.Payload[:4]))
		}
	}
}

func TestCycloneInterop(t *testing.T) {
	all, err := Datagrams("cyclone_interop.pcapng")
	require.NoError(t, err)
	require.Len(t, all, 33)
	rtps, err := RTPS("cyclone_interop.pcapng")
	require.NoError(t, err)
	require.Len(t, rtps, 29) // four 1-byte shutdown datagrams left out
}

func TestMissing(t *testing.T) {
	_, err := Datagrams("nope.pcapng")
	require.Error(t, err)
	_, err = RTPS("nope.pcapng")
	require.Error(t, err)
}
