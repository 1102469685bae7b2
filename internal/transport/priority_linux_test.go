package transport

import (
	"net/netip"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPriorityTOS(t *testing.T) {
	for _, c := range []struct {
		value     int32
		tos, prio int
	}{
		{0, 0, 0},
		{-1, 0, 0},
		{3, 0, 0},
		{4, 4, 0},
		{32, 32, 1},
		{33, 32, 1},
		{184, 184, 5},
		{224, 224, 6},
		{255, 252, 6},
		{1 << 20, 252, 6},
	} {
		require.Equal(t, c.tos, PriorityTOS(c.value), "value %d", c.value)
		require.Equal(t, c.prio, SocketPriority(PriorityTOS(c.value)), "value %d", c.value)
	}
}

// TestSocketTOS (a socket, inside a namespace): SocketOptions.TOS sets IP_TOS
// and SO_PRIORITY.
func TestSocketTOS(t *testing.T) {
	pc, err := UDPNet{}.ListenUDP(netip.AddrPortFrom(netip.IPv4Unspecified(), 0), SocketOptions{TOS: 184})
	require.NoError(t, err)
	defer func() { require.NoError(t, pc.Close()) }()
	rc, err := pc.(*udpConn).c.SyscallConn()
	require.NoError(t, err)
	var tos, prio int
	var err1, err2 error
	require.NoError(t, rc.Control(func(fd uintptr) {
		tos, err1 = syscall.GetsockoptInt(int(fd), syscall.IPPROTO_IP, syscall.IP_TOS)
		prio, err2 = syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_PRIORITY)
	}))
	require.NoError(t, err1)
	require.NoError(t, err2)
	require.Equal(t, 184, tos)
	require.Equal(t, 5, prio)
}
