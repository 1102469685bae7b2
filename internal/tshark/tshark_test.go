package tshark

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/ddsgo/ddsgo/internal/golden"
	"github.com/ddsgo/ddsgo/internal/pcapng"
	"github.com/stretchr/testify/require"
)

func requireTshark(t *testing.T) {
	t.Helper()
	if !Available() {
		t.Skip("tshark is not installed")
	}
}

func TestGoldenCapturesPass(t *testing.T) {
	requireTshark(t)
	for _, name := range golden.Files() {
		t.Run(name, func(t *testing.T) {
			ds, err := golden.RTPS(name)
			require.NoError(t, err)
			CheckDatagrams(t, ds)
		})
	}
}

func TestCheckPayloadsOnly(t *testing.T) {
	ds, err := golden.RTPS("cyclone_interop.pcapng")
	require.NoError(t, err)
	var ps [][]byte
	for _, d := range ds[:5] {
		ps = append(ps, d.Payload)
	}
	Check(t, ps)
}

// spdp returns the first Cyclone SPDP datagram.
func spdp(t *testing.T) pcapng.Datagram {
	t.Helper()
	ds, err := golden.RTPS("cyclone_interop.pcapng")
	require.NoError(t, err)
	return ds[0]
}

func TestCorruptedFails(t *testing.T) {
	requireTshark(t)
	good := spdp(t)
	i := bytes.Index(good.Payload, []byte{0x59, 0x00, 0x60, 0x00}) // PID_PROPERTY_LIST, length 96
	require.Positive(t, i)

	for _, tc := range []struct {
		name    string
		corrupt func(p []byte) []byte
	}{
		{"parameter length beyond submessage", func(p []byte) []byte {
			binary.LittleEndian.PutUint16(p[i+2:], 0x4000)
			return p
		}},
		{"property string length huge", func(p []byte) []byte {
			binary.LittleEndian.PutUint32(p[i+8:], 0x7fffffff)
			return p
		}},
		{"not RTPS", func(p []byte) []byte {
			copy(p, "XXXX")
			return p
		}},
		{"truncated", func(p []byte) []byte { return p[:i+20] }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := good
			d.Payload = tc.corrupt(bytes.Clone(good.Payload))
			problems, err := Problems([]pcapng.Datagram{good, d}, t.TempDir())
			require.NoError(t, err)
			t.Log(problems)
			require.NotEmpty(t, problems)
			for _, p := range problems {
				require.Contains(t, p, "Frame 2")
			}
		})
	}
}

func TestBad(t *testing.T) {
	for line, want := range map[string]bool{
		"    [Malformed Packet: RTPS]": true,
		"        [Expert Info (Error/Malformed): Malformed Packet (Exception occurred)]": true,
		"        [Expert Info (Warning/Protocol): parameterLength bad]":                  true,
		"        [Expert Info (Warning/Sequence): whatever]":                             false,
		"        [Expert Info (Chat/Sequence): Possible traceroute: hop #10]":            false,
		"        [Expert Info (Note/Protocol): a note]":                                  false,
		"    Magic: RTPS": false,
	} {
		require.Equal(t, want, bad(line), line)
	}
}
