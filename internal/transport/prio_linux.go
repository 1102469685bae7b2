package transport

import (
	"net"
	"syscall"
)

// setPriority sets SO_PRIORITY to SocketPriority(tos).
func setPriority(c *net.UDPConn, tos int) error {
	rc, err := c.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) {
		serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_PRIORITY, SocketPriority(tos))
	}); err != nil {
		return err
	}
	return serr
}
