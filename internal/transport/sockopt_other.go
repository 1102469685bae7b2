//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package transport

// setReuse does nothing on this platform (Windows): Go's own socket setup
// sets SO_REUSEADDR on sockets bound to a multicast address only, so
// sharing the discovery port is not supported there yet.
func setReuse(uintptr) error { return nil }
