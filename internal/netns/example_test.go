package netns_test

import (
	"fmt"

	"github.com/ddsgo/ddsgo/internal/netns"
)

// A program (or TestMain) can ask whether it runs inside a private
// namespace before it touches the network.
func ExampleInNamespace() {
	ok, reason := netns.InNamespace()
	fmt.Println(ok == (reason == ""))
	// Output: true
}
