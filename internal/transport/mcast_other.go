//go:build !linux

package transport

// setGroupsOwnOnly does nothing: only Linux delivers other sockets' groups
// to a wildcard-bound socket by default (IP_MULTICAST_ALL).
func setGroupsOwnOnly(uintptr) error { return nil }
