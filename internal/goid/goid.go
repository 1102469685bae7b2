// Package goid tells the id of the calling goroutine, so that a Close can see that it
// is called from the very goroutine it would otherwise wait for (a listener that
// deletes its participant). It costs a stack trace: call it once per goroutine, or
// only on such rare paths, never per sample.
package goid

import (
	"bytes"
	"runtime"
	"strconv"
)

// Get returns the id of the calling goroutine, from the first line of its stack
// ("goroutine 42 [running]:").
func Get() uint64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b = bytes.TrimPrefix(b, []byte("goroutine "))
	if i := bytes.IndexByte(b, ' '); i >= 0 {
		b = b[:i]
	}
	id, _ := strconv.ParseUint(string(b), 10, 64)
	return id
}
