//go:build !unix

package ecs

import "time"

// cpuTime returns 0 where package syscall has no Getrusage: cpu-ns/entity then reads 0
// and only the wall time counts.
func cpuTime() time.Duration { return 0 }
