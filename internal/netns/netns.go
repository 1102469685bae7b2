package netns

import (
	"net"
	"os"
	"strings"
	"testing"
)

// EnvVar is the environment variable scripts/netns.sh sets to "1" inside
// the private namespace it creates.
const EnvVar = "DDSGO_NETNS"

// TestInterfacePrefix is the name prefix of interfaces (veth pairs) that
// tests create inside the namespace; they do not make the namespace public.
const TestInterfacePrefix = "ddsgo"

// Require skips the test unless it runs inside a private network namespace:
// the environment variable DDSGO_NETNS is "1" and the only interfaces that
// are up are loopback interfaces or interfaces whose names start with
// "ddsgo". Call it first in every test that opens a socket.
func Require(t testing.TB) {
	t.Helper()
	if reason := check(os.Getenv(EnvVar), net.Interfaces); reason != "" {
		t.Skip("netns: " + reason + "; run with scripts/netns.sh")
	}
}

// InNamespace reports whether the process runs inside a private network
// namespace as Require defines it, and if not, why.
func InNamespace() (ok bool, reason string) {
	reason = check(os.Getenv(EnvVar), net.Interfaces)
	return reason == "", reason
}

// check returns "" when env and the interfaces describe a private
// namespace, otherwise the reason they do not.
func check(env string, interfaces func() ([]net.Interface, error)) string {
	if env != "1" {
		return EnvVar + " is not 1"
	}
	ifs, err := interfaces()
	if err != nil {
		return "cannot list interfaces: " + err.Error()
	}
	for _, ifi := range ifs {
		if ifi.Flags&net.FlagUp == 0 || ifi.Flags&net.FlagLoopback != 0 {
			continue
		}
		if strings.HasPrefix(ifi.Name, TestInterfacePrefix) {
			continue
		}
		return "interface " + ifi.Name + " is up"
	}
	return ""
}
