package dds

import "github.com/ddsgo/ddsgo/internal/transport"

// WithNet is withNet for the tests of package dds_test: a participant on a simulated
// network (internal/transport/memnet).
func WithNet(n transport.Net) Option { return withNet(n) }
