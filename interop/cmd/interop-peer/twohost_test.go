//go:build linux

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/internal/netns"
	"github.com/stretchr/testify/require"
)

// hostScript runs in a fresh network namespace: it waits for a line on stdin (the veth
// end is then in the namespace), gives the interface $2 the address $1, routes multicast
// through it, and runs the rest of its arguments.
const hostScript = `read -r go || exit 1
ip link set lo up &&
ip addr add "$1" dev "$2" &&
ip link set "$2" multicast on &&
ip link set "$2" up &&
ip route add 224.0.0.0/4 dev "$2" || exit 3
shift 2
exec "$@"`

// host is a peer running in a network namespace of its own, as on a second machine.
type host struct {
	p       *proc
	pid     int
	release func() // lets the peer start, once its interface is in its namespace
}

// newHost starts cmd in a new network namespace, where it waits until release is called
// and the interface ifname has been moved in; addr is the interface's address.
func newHost(t *testing.T, name, ifname, addr string, cmd []string) host {
	t.Helper()
	c := exec.Command("sh", append([]string{"-c", hostScript, "host", addr, ifname}, cmd...)...)
	c.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNET}
	c.Env = append(os.Environ(), peerEnv+"=1")
	in, err := c.StdinPipe()
	require.NoError(t, err)
	p, err := startProcess(t, name, c)
	if errors.Is(err, syscall.EPERM) {
		t.Skipf("cannot create a network namespace: %v", err)
	}
	require.NoError(t, err)
	// The peer must be on its own machine: another network namespace than the test's.
	ns, err := os.Readlink(fmt.Sprintf("/proc/%d/ns/net", c.Process.Pid))
	require.NoError(t, err)
	self, err := os.Readlink("/proc/self/ns/net")
	require.NoError(t, err)
	require.NotEqual(t, self, ns, "the %s host's network namespace", name)
	return host{p: p, pid: c.Process.Pid, release: func() { _, _ = in.Write([]byte("go\n")); _ = in.Close() }}
}

// TestTwoHosts runs a Go publisher and a subscriber (Go, Cyclone DDS, Fast DDS) in two
// network namespaces joined by a veth pair: discovery by multicast across the link.
func TestTwoHosts(t *testing.T) {
	netns.Require(t)
	if _, err := exec.LookPath("ip"); err != nil {
		t.Skip("no ip command (iproute2)")
	}
	self, err := os.Executable()
	require.NoError(t, err)
	for i, sub := range []string{"go", "cyclone", "fastdds"} {
		t.Run("go_to_"+sub, func(t *testing.T) {
			subCmd := []string{self}
			if sub != "go" {
				subCmd = []string{peerBinary(t, sub)}
			}
			t.Parallel()
			twoHosts(t, i+1, []string{self}, subCmd)
		})
	}
}

func twoHosts(t *testing.T, n int, pubCmd, subCmd []string) {
	// The hosts are alone in their namespaces: no other run shares their domain.
	common := []string{"-keys", "3", "-count", "30", "-domain", fmt.Sprint(n), "-timeout", "10s"}
	ifA, ifB := fmt.Sprintf("ddsgoa%d", n), fmt.Sprintf("ddsgob%d", n)
	sub := newHost(t, "sub", ifB, fmt.Sprintf("198.18.%d.2/24", n), append(append(subCmd, "-role", "sub", "-linger", "0.5s"), common...))
	// The publisher stays a while after its data is acknowledged: when it exits, its
	// namespace goes and the veth pair with it, and a subscriber still lingering (0.5 s)
	// loses its interface; Cyclone DDS then hangs in its deletion.
	pub := newHost(t, "pub", ifA, fmt.Sprintf("198.18.%d.1/24", n), append(append(pubCmd, "-role", "pub", "-linger", "2s"), common...))
	out, err := exec.Command("ip", "link", "add", ifA, "netns", fmt.Sprint(pub.pid), "type", "veth",
		"peer", "name", ifB, "netns", fmt.Sprint(sub.pid)).CombinedOutput()
	require.NoError(t, err, "ip link add: %s", out)
	sub.release()
	pub.release()

	a := mustParseArgs(t, append([]string{"-role", "pub"}, common...)...)
	sr := sub.p.wait(t, a.timeout+10*time.Second)
	pr := pub.p.wait(t, a.timeout+10*time.Second)
	defer func() {
		if t.Failed() {
			t.Logf("publisher: exit %d, stderr:\n%s", pr.code, pr.stderr)
			t.Logf("subscriber: exit %d, stderr:\n%s", sr.code, sr.stderr)
		}
	}()
	want := expectedLines(a)
	requireLines(t, "publisher", want, pr.stdout)
	requireLines(t, "subscriber", want, sr.stdout)
	require.Equal(t, exitOK, pr.code, "publisher exit status")
	require.Equal(t, exitOK, sr.code, "subscriber exit status")
}
