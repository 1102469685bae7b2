package transport

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// checkNoLeaks fails t when receive goroutines of this package outlive the
// test, or pooled packets were not released. Register it first, so that it
// runs after the other cleanups.
func checkNoLeaks(t *testing.T) {
	t.Helper()
	before, running := packetsOut.Load(), receiverGoroutines()
	t.Cleanup(func() {
		require.Eventually(t, func() bool { return receiverGoroutines() <= running }, 5*time.Second, 5*time.Millisecond,
			"receive goroutines leaked")
		require.Equal(t, before, packetsOut.Load(), "packets not released")
	})
}

// receiverGoroutines counts the goroutines running Receiver.run.
func receiverGoroutines() int {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	return strings.Count(string(buf), "transport.(*Receiver).run(")
}

// recv waits for a packet on q, failing after a timeout.
func recv(t *testing.T, q *Queue) *Packet {
	t.Helper()
	select {
	case p := <-q.C():
		return p
	case <-time.After(5 * time.Second):
		t.Fatal("no datagram received")
		return nil
	}
}

// recvFrom waits for a packet of kind k on q whose payload is want,
// releasing the others (e.g. a participant's own multicast looped back).
func recvFrom(t *testing.T, q *Queue, k SocketKind, want string) *Packet {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case p := <-q.C():
			if p.Kind == k && string(p.Data) == want {
				return p
			}
			p.Release()
		case <-deadline:
			t.Fatalf("no %q received on %v", want, k)
			return nil
		}
	}
}
