package wire

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// subs holds one reusable struct per submessage kind.
type subs struct {
	data Data
	frag DataFrag
	ack  AckNack
	nack NackFrag
	hb   Heartbeat
	hbf  HeartbeatFrag
	gap  Gap
	dst  InfoDst
	src  InfoSrc
	ts   InfoTS
	rep  InfoReply
	rep4 InfoReplyIP4
	pad  Pad
}

// decodeCurrent decodes the Reader's current submessage into the matching
// struct of s. It returns nil, nil for kinds this package does not decode.
// Returning each struct as a Submessage, here and in parseAny, checks at
// compile time that every submessage type implements Submessage.
func (s *subs) decodeCurrent(r *Reader) (Submessage, error) {
	switch r.Kind() {
	case KindData:
		return &s.data, r.Data(&s.data)
	case KindDataFrag:
		return &s.frag, r.DataFrag(&s.frag)
	case KindAckNack:
		return &s.ack, r.AckNack(&s.ack)
	case KindNackFrag:
		return &s.nack, r.NackFrag(&s.nack)
	case KindHeartbeat:
		return &s.hb, r.Heartbeat(&s.hb)
	case KindHeartbeatFrag:
		return &s.hbf, r.HeartbeatFrag(&s.hbf)
	case KindGap:
		return &s.gap, r.Gap(&s.gap)
	case KindInfoDst:
		return &s.dst, r.InfoDst(&s.dst)
	case KindInfoSrc:
		return &s.src, r.InfoSrc(&s.src)
	case KindInfoTS:
		return &s.ts, r.InfoTS(&s.ts)
	case KindInfoReply:
		return &s.rep, r.InfoReply(&s.rep)
	case KindInfoReplyIP4:
		return &s.rep4, r.InfoReplyIP4(&s.rep4)
	case KindPad:
		return &s.pad, r.Pad(&s.pad)
	default:
		return nil, nil
	}
}

// parseAny parses the submessage at the start of b with the exported
// ParseX function of its kind, returning a pointer to a fresh value.
func parseAny(b []byte) (Submessage, int, error) {
	if len(b) == 0 {
		return nil, 0, errShortSubHeader
	}
	switch SubmessageKind(b[0]) {
	case KindData:
		x, n, err := ParseData(b)
		return &x, n, err
	case KindDataFrag:
		x, n, err := ParseDataFrag(b)
		return &x, n, err
	case KindAckNack:
		x, n, err := ParseAckNack(b)
		return &x, n, err
	case KindNackFrag:
		x, n, err := ParseNackFrag(b)
		return &x, n, err
	case KindHeartbeat:
		x, n, err := ParseHeartbeat(b)
		return &x, n, err
	case KindHeartbeatFrag:
		x, n, err := ParseHeartbeatFrag(b)
		return &x, n, err
	case KindGap:
		x, n, err := ParseGap(b)
		return &x, n, err
	case KindInfoDst:
		x, n, err := ParseInfoDst(b)
		return &x, n, err
	case KindInfoSrc:
		x, n, err := ParseInfoSrc(b)
		return &x, n, err
	case KindInfoTS:
		x, n, err := ParseInfoTS(b)
		return &x, n, err
	case KindInfoReply:
		x, n, err := ParseInfoReply(b)
		return &x, n, err
	case KindInfoReplyIP4:
		x, n, err := ParseInfoReplyIP4(b)
		return &x, n, err
	case KindPad:
		x, n, err := ParsePad(b)
		return &x, n, err
	default:
		return nil, 0, errWrongKind
	}
}

// requireRoundTrip appends x in both byte orders and checks that the size is
// x.Len() and that parse reads x back, consuming every octet.
func requireRoundTrip[T interface {
	Append(b []byte, be bool) []byte
	Len() int
}](t *testing.T, x T, parse func(b []byte, be bool) (T, int, error),
) {
	t.Helper()
	for _, be := range []bool{false, true} {
		b := x.Append(nil, be)
		require.Len(t, b, x.Len())
		got, n, err := parse(b, be)
		require.NoError(t, err)
		require.Equal(t, len(b), n)
		require.Equal(t, x, got)
	}
}
