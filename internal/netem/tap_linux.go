package netem

import (
	"errors"
	"fmt"
	"os"
	"runtime"

	"golang.org/x/sys/unix"
)

// OpenTAP creates a TAP interface named name (IFF_TAP, no packet
// information) in the network namespace of process pid and returns the
// file that reads and writes its Ethernet frames. The interface lives as
// long as the file is open and the namespace exists; it is created down.
// OpenTAP fails rather than create it in the caller's own namespace.
func OpenTAP(pid int, name string) (*os.File, error) {
	type result struct {
		f   *os.File
		err error
	}
	ch := make(chan result, 1)
	go func() {
		// The thread enters another namespace and is never unlocked: when
		// the goroutine ends, the runtime ends the thread with it, so no
		// other goroutine ever runs in that namespace.
		runtime.LockOSThread()
		f, err := openTAPIn(pid, name)
		ch <- result{f, err}
	}()
	r := <-ch
	return r.f, r.err
}

// openTAPIn runs on a locked thread that it moves into pid's namespace.
func openTAPIn(pid int, name string) (*os.File, error) {
	var self, target unix.Stat_t
	if err := unix.Stat("/proc/thread-self/ns/net", &self); err != nil {
		return nil, fmt.Errorf("netem: own network namespace: %w", err)
	}
	nsPath := fmt.Sprintf("/proc/%d/ns/net", pid)
	ns, err := unix.Open(nsPath, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("netem: %w", err)
	}
	defer func() { _ = unix.Close(ns) }()
	if err := unix.Fstat(ns, &target); err != nil {
		return nil, fmt.Errorf("netem: %s: %w", nsPath, err)
	}
	if self.Dev == target.Dev && self.Ino == target.Ino {
		return nil, errors.New("netem: process " + fmt.Sprint(pid) + " shares the caller's network namespace")
	}
	if err := unix.Setns(ns, unix.CLONE_NEWNET); err != nil {
		return nil, fmt.Errorf("netem: entering the network namespace of %d: %w", pid, err)
	}
	// The TAP device belongs to the namespace of the thread that opens the
	// clone device.
	fd, err := unix.Open("/dev/net/tun", unix.O_RDWR|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("netem: %w", err)
	}
	ifr, err := unix.NewIfreq(name)
	if err != nil {
		_ = unix.Close(fd)
		return nil, fmt.Errorf("netem: interface name %q: %w", name, err)
	}
	ifr.SetUint16(unix.IFF_TAP | unix.IFF_NO_PI)
	if err := unix.IoctlIfreq(fd, unix.TUNSETIFF, ifr); err != nil {
		_ = unix.Close(fd)
		return nil, fmt.Errorf("netem: creating TAP %s: %w", name, err)
	}
	// Non-blocking: reads wait in the runtime's poller and Close ends them.
	return os.NewFile(uintptr(fd), name), nil
}
