//go:build !linux

package transport

import "net"

// setPriority does nothing: SO_PRIORITY is Linux's; elsewhere only the TOS
// octet is set.
func setPriority(*net.UDPConn, int) error { return nil }
