package main

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/netns"
)

// coherentDomain is the domain of TestCoherentShapes.
const coherentDomain = 177

// TestCoherentShapes: a publisher writes 10 sizes in coherent sets of 4
// (--coherent --coherent-sample-count 4) and exits with its third set open. A coherent
// subscriber shows the two complete sets, sizes 1 to 8, and never the open one; a
// subscriber without coherent access shows all 10.
func TestCoherentShapes(t *testing.T) {
	netns.Require(t)
	d := fmt.Sprintf("-d %d -t Coh -r -k 0 -D l", coherentDomain)
	const wait = 15 * time.Second
	plain, _ := start(t, "-S "+d)
	coherent, _ := start(t, "-S "+d+" --coherent --access-scope topic")
	pub, done := start(t, "-P "+d+" -z 0 --write-period 200 --num-iterations 10 --coherent --coherent-sample-count 4 --access-scope topic")
	select {
	case code := <-done:
		require.Zero(t, code, "publisher:\n%v", pub.snapshot())
	case <-time.After(wait):
		t.Fatalf("the publisher did not end:\n%v", pub.snapshot())
	}
	pub.wait(t, `^Finished Coherent Set$`, time.Second)
	for _, l := range pub.snapshot() {
		require.NotContains(t, l, "failed")
	}
	deadline := time.Now().Add(wait)
	for len(sizes(plain.snapshot(), "BLUE")) < 10 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	require.Equal(t, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, sizes(plain.snapshot(), "BLUE"))
	time.Sleep(500 * time.Millisecond)
	require.Equal(t, []int{1, 2, 3, 4, 5, 6, 7, 8}, sizes(coherent.snapshot(), "BLUE"))
}
