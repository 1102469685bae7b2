//go:build linux && !(mips || mipsle || mips64 || mips64le)

package transport

// soReusePort is SO_REUSEPORT, which package syscall does not define on
// every Linux architecture (x/sys/unix does, but it is not a dependency
// of this package); its value is 15 on all but the MIPS ones.
const soReusePort = 0xf
