//go:build darwin || dragonfly || freebsd || netbsd || openbsd || (linux && (mips || mipsle || mips64 || mips64le))

package transport

import "syscall"

// soReusePort is SO_REUSEPORT.
const soReusePort = syscall.SO_REUSEPORT
