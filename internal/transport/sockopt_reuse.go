//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package transport

import "syscall"

// setReuse sets SO_REUSEADDR and SO_REUSEPORT on fd.
func setReuse(fd uintptr) error {
	if err := syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_REUSEADDR, 1); err != nil {
		return err
	}
	return syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, soReusePort, 1)
}
