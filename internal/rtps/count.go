package rtps

import "github.com/ddsgo/ddsgo/internal/wire"

// lastCount is the count of the last HEARTBEAT, HEARTBEAT_FRAG, ACKNACK or
// NACK_FRAG taken from one remote endpoint: its count increases with each
// one sent (RTPS 2.5 §8.3.7), so one not newer is a duplicate or stale.
type lastCount struct {
	count wire.Count
	seen  bool
}

// newer reports whether c is newer than the last count taken, and takes it
// if so.
func (l *lastCount) newer(c wire.Count) bool {
	if l.seen && c <= l.count {
		return false
	}
	l.count, l.seen = c, true
	return true
}
