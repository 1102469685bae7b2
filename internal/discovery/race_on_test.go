//go:build race

package discovery

// raceEnabled: the race detector slows the receive path about tenfold, so
// the floods of the hostile tests are slowed down to what it can handle.
const raceEnabled = true
