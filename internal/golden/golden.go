// Package golden holds captures of real Cyclone DDS and Fast DDS traffic and
// gives tests the UDP datagrams in them. It is used from _test.go files only.
//
// # Captures
//
// The files are in captures/ (pcapng, recorded on loopback inside a private
// network namespace) and embedded into the package: a capture added to that
// directory is picked up by every golden test without further code.
//
// # Use
//
//	for _, name := range golden.Files() {
//		msgs, err := golden.RTPS(name)
//		...
//	}
package golden

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"

	"github.com/ddsgo/ddsgo/internal/pcapng"
)

//go:embed captures/*.pcapng
var captures embed.FS

// Files returns the names of the embedded captures, sorted, for use with
// [Datagrams] and [RTPS].
func Files() []string {
	names, err := fs.Glob(captures, "captures/*.pcapng")
	if err != nil {
		panic(err) // the pattern is constant and valid
	}
	for i, n := range names {
		names[i] = path.Base(n)
	}
	sort.Strings(names)
	return names
}

// Datagrams returns every UDP datagram of the named capture in capture
// order. The payloads are fresh copies the caller may modify.
func Datagrams(name string) ([]pcapng.Datagram, error) {
	data, err := captures.ReadFile("captures/" + name)
	if err != nil {
		return nil, fmt.Errorf("golden: %w", err)
	}
	ds, _, err := pcapng.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("golden: %s: %w", name, err)
	}
	return ds, nil
}

// RTPS returns the datagrams of the named capture that start with the RTPS
// protocol magic, leaving out other traffic (for example the one-byte
// datagrams Cyclone DDS sends to itself on shutdown).
func RTPS(name string) ([]pcapng.Datagram, error) {
	ds, err := Datagrams(name)
	if err != nil {
		return nil, err
	}
	out := ds[:0]
	for _, d := range ds {
		if bytes.HasPrefix(d.Payload, []byte("RTPS")) {
			out = append(out, d)
		}
	}
	return out, nil
}
