package testutil

import (
	"testing"

	"go.uber.org/goleak"
)

// Main is the TestMain of every test package: it runs the package's tests and, when they
// pass, fails the run if goroutines other than the main one are still alive at the end
// (participants, tickers, servers or readers that a test or the library forgot to stop).
// goleak retries for about a second before it reports, so goroutines that are on their
// way out when the last test returns are not counted.
//
// extra are further goleak options of one package: narrowly targeted ignores, each with
// a comment saying which leak it lets through and why. A package whose TestMain must do
// more first (flags, a helper process) calls Main last, in place of os.Exit(m.Run()).
func Main(m *testing.M, extra ...goleak.Option) {
	goleak.VerifyTestMain(m, extra...)
}
