//go:build linux

package transport

import (
	"net"
	"net/netip"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// rawIO reads and writes one datagram per call on a UDP socket with system calls made
// by syscall.RawSyscall6 inside RawConn.Read and RawConn.Write. The socket is
// non-blocking (Go's), so the calls return at once, and RawConn waits in the netpoller
// when they would block, as net's own calls do. What differs is what Go's syscall.Syscall
// does around a call (entersyscall): when the process was idle, it wakes the runtime's
// sysmon thread (a futex wake, several microseconds on a VM) before every read and
// write; in a ping/pong the process is idle between round trips, so that was a wake-up
// per datagram on each side. The raw calls skip it; they do not hand off the P, which
// a non-blocking send or receive of one datagram does not need.
type rawIO struct {
	rc syscall.RawConn

	rmu     sync.Mutex // the read state, for the closure RawConn.Read calls
	rb      []byte
	rn      int
	rerr    syscall.Errno
	rsa     syscall.RawSockaddrAny
	rlen    uint32
	readFn  func(uintptr) bool
	poll    pollState   // SocketOptions.BusyPoll and Poll
	polled  bool        // the last read found its datagram while busy polling
	closing atomic.Bool // set by close: a busy poll stops

	wmu     sync.Mutex // the write state, for the closure RawConn.Write calls
	wb      []byte
	wn      int
	werr    syscall.Errno
	wsa     syscall.RawSockaddrInet4
	writeFn func(uintptr) bool
}

// newRawIO returns the raw I/O of c, nil when c has no raw connection; opts give the
// busy poll of its reads.
func newRawIO(c *net.UDPConn, opts SocketOptions) *rawIO {
	rc, err := c.SyscallConn()
	if err != nil {
		return nil
	}
	r := &rawIO{rc: rc, poll: pollState{fixed: int64(max(opts.BusyPoll, 0)), auto: opts.Poll}}
	r.readFn, r.writeFn = r.recv, r.send
	return r
}

// recv is RawConn.Read's function: one recvfrom; false asks it to wait for data.
//
// With a busy poll (SocketOptions.BusyPoll, or Poll when it judges a reply near), a
// read that finds the socket empty tries again until the poll's time is up, yielding
// between tries the Go processor (pollState.yieldP), so that the process's other
// goroutines (timers, the application) still run, and the CPU (sched_yield), so that a thread of
// another process waiting for it does: without that, on a host with few CPUs, a reply
// whose process was queued behind the poll waited for the poll's end (1 kHz
// ping/pong, 500 µs polls on both sides, two vCPUs: p50 47 → 170 µs; with the yield
// 41-45 µs). Only then does it wait in the netpoller. A poll starts at a read's first
// empty try and ends with the read, so a socket polls at most once after each
// datagram and an idle one does not.
func (r *rawIO) recv(fd uintptr) bool {
	for {
		r.rlen = syscall.SizeofSockaddrAny
		n, _, e := syscall.RawSyscall6(syscall.SYS_RECVFROM, fd, uintptr(unsafe.Pointer(unsafe.SliceData(r.rb))),
			uintptr(len(r.rb)), 0, uintptr(unsafe.Pointer(&r.rsa)), uintptr(unsafe.Pointer(&r.rlen)))
		if e == syscall.EINTR {
			continue
		}
		if e == syscall.EAGAIN {
			if r.poll.off() {
				return false
			}
			if now := monoNow(); r.poll.empty(now) && !r.closing.Load() {
				if r.poll.yieldP(now) {
					runtime.Gosched()
				}
				_, _, _ = syscall.RawSyscall(syscall.SYS_SCHED_YIELD, 0, 0, 0) // cannot fail
				continue
			}
			return false
		}
		r.rn, r.rerr = int(n), e
		r.polled = false
		if e == 0 {
			r.polled = r.poll.got(r.rb[:n], monoNow)
		} else {
			r.poll.reset()
		}
		return true
	}
}

// send is RawConn.Write's function: one sendto; false asks it to wait for room.
func (r *rawIO) send(fd uintptr) bool {
	for {
		n, _, e := syscall.RawSyscall6(syscall.SYS_SENDTO, fd, uintptr(unsafe.Pointer(unsafe.SliceData(r.wb))),
			uintptr(len(r.wb)), 0, uintptr(unsafe.Pointer(&r.wsa)), syscall.SizeofSockaddrInet4)
		if e == syscall.EINTR {
			continue
		}
		r.wn, r.werr = int(n), e
		return e != syscall.EAGAIN
	}
}

// readFrom reads one datagram into b; polled reports that the busy poll found it.
func (r *rawIO) readFrom(b []byte) (n int, src netip.AddrPort, polled bool, err error) {
	r.rmu.Lock()
	defer r.rmu.Unlock()
	r.rb = b
	err = r.rc.Read(r.readFn)
	r.rb = nil
	if err != nil {
		return 0, netip.AddrPort{}, false, err
	}
	if r.rerr != 0 {
		return 0, netip.AddrPort{}, false, os.NewSyscallError("recvfrom", r.rerr)
	}
	return r.rn, r.source(), r.polled, nil
}

// close ends a busy poll under way, which would otherwise hold the socket open
// (RawConn.Read's function runs under its read lock) until its time is up.
func (r *rawIO) close() { r.closing.Store(true) }

// source returns the address recvfrom stored.
func (r *rawIO) source() netip.AddrPort {
	switch r.rsa.Addr.Family {
	case syscall.AF_INET:
		sa := (*syscall.RawSockaddrInet4)(unsafe.Pointer(&r.rsa))
		return netip.AddrPortFrom(netip.AddrFrom4(sa.Addr), netPort(sa.Port))
	case syscall.AF_INET6:
		sa := (*syscall.RawSockaddrInet6)(unsafe.Pointer(&r.rsa))
		return netip.AddrPortFrom(netip.AddrFrom16(sa.Addr).Unmap(), netPort(sa.Port))
	}
	return netip.AddrPort{}
}

// netPort returns the port p holds in network byte order.
func netPort(p uint16) uint16 {
	b := (*[2]byte)(unsafe.Pointer(&p))
	return uint16(b[0])<<8 | uint16(b[1])
}

// writeTo sends b to the IPv4 address dst; ok is false for another address.
func (r *rawIO) writeTo(b []byte, dst netip.AddrPort) (n int, ok bool, err error) {
	a := dst.Addr().Unmap()
	if !a.Is4() {
		return 0, false, nil
	}
	r.wmu.Lock()
	defer r.wmu.Unlock()
	r.wsa = syscall.RawSockaddrInet4{Family: syscall.AF_INET, Addr: a.As4()}
	p := (*[2]byte)(unsafe.Pointer(&r.wsa.Port))
	p[0], p[1] = byte(dst.Port()>>8), byte(dst.Port())
	r.wb = b
	err = r.rc.Write(r.writeFn)
	r.wb = nil
	if err != nil {
		return 0, true, err
	}
	if r.werr != 0 {
		return 0, true, os.NewSyscallError("sendto", r.werr)
	}
	return r.wn, true, nil
}
