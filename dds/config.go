package dds

import (
	"time"

	"github.com/ddsgo/ddsgo/internal/transport"
	"github.com/ddsgo/ddsgo/rtps"
)

// Option is an optional argument of CreateParticipant.
type Option func(*options)

type options struct {
	cfg    rtps.Config
	net    transport.Net
	now    func() time.Time
	engine engineFactory
}

// WithRTPS configures the participant's RTPS engine: network interfaces, multicast,
// unicast peers, ports, limits, logger (package rtps documents each setting).
func WithRTPS(cfg rtps.Config) Option {
	return func(o *options) { o.cfg = cfg }
}

// withNet makes the participant open its sockets on n (tests: memnet).
func withNet(n transport.Net) Option {
	return func(o *options) { o.net = n }
}

// withEngine makes CreateParticipant use another engine (tests).
func withEngine(f engineFactory) Option {
	return func(o *options) { o.engine = f }
}
