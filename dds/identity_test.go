package dds

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A request/reply exchange by sample identities: the requester keeps the identity its
// write got (WrittenAs), the replier answers RelatedTo the request's identity, and the
// requester recognizes the reply by its RelatedIdentity. In process and over the RTPS
// engine (where the identity travels as PID_RELATED_SAMPLE_IDENTITY).
func TestSampleIdentities(t *testing.T) {
	type pair struct {
		w *DataWriter[message]
		r *DataReader[message]
	}
	for _, tc := range []struct {
		name string
		make func(t *testing.T) (req, rep pair)
	}{
		{"in process", func(t *testing.T) (pair, pair) {
			p := testParticipant(t, nil, nil)
			qw, qr := endpoints[message](t, p, "request", nil, reliableReader())
			pw, pr := endpoints[message](t, p, "reply", nil, reliableReader())
			return pair{qw, qr}, pair{pw, pr}
		}},
		{"rtps", func(t *testing.T) (pair, pair) {
			qw, qr := matchedPair(t, 31, []Option{Reliable(), KeepAll()}, []Option{Reliable(), KeepAll()})
			pw, pr := matchedPair(t, 32, []Option{Reliable(), KeepAll()}, []Option{Reliable(), KeepAll()})
			return pair{qw, qr}, pair{pw, pr}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, rep := tc.make(t)
			var asked SampleIdentity
			require.NoError(t, req.w.Write(bg, &message{ID: 1, Text: "ping"}, WrittenAs(&asked)))
			require.Equal(t, req.w.InstanceHandle(), asked.Writer)
			require.Positive(t, asked.SN)

			data, infos, err := req.r.Take(bg)
			require.NoError(t, err)
			require.Equal(t, "ping", data[0].Text)
			require.Equal(t, asked, infos[0].Identity)
			require.Zero(t, infos[0].RelatedIdentity)

			var answered SampleIdentity
			require.NoError(t, rep.w.Write(bg, &message{ID: 1, Text: "pong"}, RelatedTo(infos[0].Identity), WrittenAs(&answered)))
			data, infos, err = rep.r.Take(bg)
			require.NoError(t, err)
			require.Equal(t, "pong", data[0].Text)
			require.Equal(t, asked, infos[0].RelatedIdentity)
			require.Equal(t, answered, infos[0].Identity)
		})
	}
}
