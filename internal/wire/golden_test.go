package wire

import (
	"bytes"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/golden"
)

// TestGolden parses every RTPS datagram of every capture of real Cyclone
// DDS and Fast DDS traffic: the header and every submessage must parse, and
// every decoded submessage re-encoded with Append must give the captured
// bytes. The one expected difference is octetsToNextHeader 0 (the last
// submessage extends to the end of the message): Append always writes the
// actual length, so only the kind, the flags and the body are compared then.
func TestGolden(t *testing.T) {
	files := golden.Files()
	require.NotEmpty(t, files)
	total := map[string]int{}
	for _, name := range files {
		t.Run(name, func(t *testing.T) {
			msgs, err := golden.RTPS(name)
			require.NoError(t, err)
			require.NotEmpty(t, msgs)
			counts := map[string]int{}
			var r Reader
			var s subs
			var buf []byte
			for i, m := range msgs {
				require.NoError(t, r.Reset(m.Payload), "datagram %d", i)
				require.Equal(t, r.Header.Append(nil), m.Payload[:HeaderLen])
				for r.Next() {
					raw := r.Submessage()
					counts[r.Kind().String()]++
					sm, err := s.decodeCurrent(&r)
					require.NoError(t, err, "datagram %d offset %d kind %s", i, r.Offset(), r.Kind())
					if sm == nil {
						continue // vendor-specific or unknown: skipped, not re-encoded
					}
					buf = sm.Append(buf[:0])
					require.Equal(t, sm.Len(), len(buf), "kind %s", r.Kind())
					if r.SubmessageHeader().Length == 0 && r.Kind() != KindPad && r.Kind() != KindInfoTS {
						counts["octetsToNextHeader=0"]++
						require.Equal(t, raw[:2], buf[:2])
						require.Equal(t, raw[4:], buf[4:], "datagram %d offset %d kind %s", i, r.Offset(), r.Kind())
						continue
					}
					require.Equal(t, raw, buf, "datagram %d offset %d kind %s", i, r.Offset(), r.Kind())
				}
				require.NoError(t, r.Err(), "datagram %d", i)
			}
			keys := make([]string, 0, len(counts))
			for k, n := range counts {
				keys = append(keys, k)
				total[k] += n
			}
			sort.Strings(keys)
			var b bytes.Buffer
			for _, k := range keys {
				b.WriteString(k)
				b.WriteString("=")
				b.WriteString(itoa(counts[k]))
				b.WriteString(" ")
			}
			t.Logf("%d datagrams: %s", len(msgs), b.String())
		})
	}
	t.Logf("all captures: %v", total)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var d []byte
	for ; n > 0; n /= 10 {
		d = append([]byte{byte('0' + n%10)}, d...)
	}
	return string(d)
}
