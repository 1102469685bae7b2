package transport

import "syscall"

// ipMulticastAll is IP_MULTICAST_ALL (49 on every Linux architecture;
// package syscall lacks it on some).
const ipMulticastAll = 0x31

// setGroupsOwnOnly turns IP_MULTICAST_ALL off: a socket bound to the
// wildcard address then receives only the groups it joined itself, not
// every group joined on the host with the same port.
func setGroupsOwnOnly(fd uintptr) error {
	return syscall.SetsockoptInt(int(fd), syscall.IPPROTO_IP, ipMulticastAll, 0)
}
