// Package netns guards tests that open sockets: they run only inside a
// private network namespace, so that nothing they send can leave the
// machine.
//
// # Use
//
// scripts/netns.sh runs a command inside `unshare -n` with lo up, multicast
// enabled on it and 224.0.0.0/4 routed to it, and sets DDSGO_NETNS=1:
//
//	scripts/netns.sh go test -race ./internal/transport/...
//
// A test calls [Require] before it opens any socket; outside such a
// namespace the test is skipped:
//
//	func TestMulticast(t *testing.T) {
//		netns.Require(t)
//		...
//	}
//
// # What counts as private
//
// DDSGO_NETNS must be "1" and every interface that is up must be a loopback
// interface or one whose name starts with "ddsgo" (veth pairs that tests
// create inside the namespace, for example to join two namespaces).
package netns
