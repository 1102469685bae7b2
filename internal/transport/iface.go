package transport

import (
	"fmt"
	"net/netip"
	"strings"
)

// UsableInterfaces returns the interfaces of all that are up,
// multicast-capable, have an IPv4 address and are not loopback, in order.
func UsableInterfaces(all []Interface) []Interface {
	var out []Interface
	for _, i := range all {
		if i.IsUp() && i.IsMulticast() && !i.IsLoopback() && i.IPv4().IsValid() {
			out = append(out, i)
		}
	}
	return out
}

// SelectInterfaces picks the interfaces to use from all.
//
// With want empty it returns [UsableInterfaces]; when there is none, the
// loopback interfaces that are up and have an IPv4 address (inside a test
// namespace lo is the only interface). Otherwise every entry of want names
// one interface, by name ("eth0") or by one of its addresses ("192.0.2.2");
// loopback is allowed when chosen this way. Each selected interface must be
// up and have an IPv4 address; duplicates are removed. Errors wrap
// [ErrNoInterface].
func SelectInterfaces(all []Interface, want []string) ([]Interface, error) {
	if len(want) == 0 {
		if u := UsableInterfaces(all); len(u) > 0 {
			return u, nil
		}
		var lo []Interface
		for _, i := range all {
			if i.IsUp() && i.IsLoopback() && i.IPv4().IsValid() {
				lo = append(lo, i)
			}
		}
		if len(lo) == 0 {
			return nil, fmt.Errorf("%w: none is up with an IPv4 address", ErrNoInterface)
		}
		return lo, nil
	}
	var out []Interface
	for _, w := range want {
		w = strings.TrimSpace(w)
		i, ok := findInterface(all, w)
		if !ok {
			return nil, fmt.Errorf("%w: %q matches no interface name or address", ErrNoInterface, w)
		}
		if !i.IsUp() {
			return nil, fmt.Errorf("%w: %s is down", ErrNoInterface, i.Name)
		}
		if !i.IPv4().IsValid() {
			return nil, fmt.Errorf("%w: %s has no IPv4 address", ErrNoInterface, i.Name)
		}
		dup := false
		for _, o := range out {
			dup = dup || o.Index == i.Index && o.Name == i.Name
		}
		if !dup {
			out = append(out, i)
		}
	}
	return out, nil
}

// findInterface looks w up as an interface name, then as an address.
func findInterface(all []Interface, w string) (Interface, bool) {
	for _, i := range all {
		if i.Name == w {
			return i, true
		}
	}
	a, err := netip.ParseAddr(w)
	if err != nil {
		return Interface{}, false
	}
	for _, i := range all {
		if i.HasAddr(a) {
			return i, true
		}
	}
	return Interface{}, false
}
