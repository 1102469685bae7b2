package testutil

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// domainRange is a range of DDS domain ids, first to last inclusive.
type domainRange struct{ first, last int }

// testDomains is the map of the domains that each package's socket tests use. The
// packages' tests run in parallel in one network namespace (scripts/netns.sh), and
// participants of one domain discover each other: a test that counts participants or
// waits for a quiet domain fails when another package's test shares its domain. Domains
// 209-214 are left out (their ports fall in the namespace's ephemeral range) and ids above
// 232 do not fit the port mapping.
var testDomains = map[string][]domainRange{
	"dds":                      {{0, 0}, {34, 34}, {37, 38}, {95, 95}, {203, 208}},
	"rtps":                     {{1, 1}},
	"internal/discovery":       {{21, 33}},
	"cmd/ddsping":              {{41, 53}, {170, 174}, {180, 180}, {183, 183}},
	"sim":                      {{61, 76}},
	"cmd/ddsim":                {{181, 182}},
	"interop/cmd/interop-peer": {{4, 4}, {7, 20}, {35, 36}, {39, 40}, {54, 60}, {77, 88}, {90, 90}, {94, 94}, {96, 96}, {100, 169}, {175, 176}, {178, 179}, {190, 202}, {215, 218}, {228, 232}},
	"internal/transport":       {{220, 227}},
	"internal/rtps":            {{93, 93}},
	"interop/cmd/shape-main":   {{89, 89}, {91, 92}, {177, 177}},
}

// computeOnly are the test files that name domains only to compute with them (ports,
// flag parsing): they open no socket in those domains.
var computeOnly = map[string]bool{
	"internal/transport/ports_test.go":      true,
	"internal/wire/types_test.go":           true,
	"interop/cmd/interop-peer/args_test.go": true,
}

// The patterns that name a domain in a socket test: flags, options, constants.
var domainPatterns = []*regexp.Regexp{
	regexp.MustCompile(`"-domain",\s*"(\d+)"`),
	regexp.MustCompile(`-domain (\d+)`),
	regexp.MustCompile(`\bNewParticipant\((\d+),`),
	regexp.MustCompile(`\bDomain:\s*(\d+)`),
	regexp.MustCompile(`\bdomain:\s*(\d+)`),
	regexp.MustCompile(`[dD]omain\w*\s*=\s*(\d+)`),
	regexp.MustCompile(`loopbackParticipant\(t, (\d+)\)`),
	regexp.MustCompile(`newTPNet\(t, (\d+)\)`),
	regexp.MustCompile(`newHostileRig\(t, (\d+),`),
	regexp.MustCompile(`domainCycle\{first:\s*(\d+),\s*n:\s*(\d+)\}`),
}

// inMemory says whether a line makes its participant on a simulated network or a fake
// engine, where domains do not meet other processes.
func inMemory(line string) bool {
	for _, s := range []string{"withNet(", "WithNet(", "withEngine(", "Net:", "memnet", "fakeNet"} {
		if strings.Contains(line, s) {
			return true
		}
	}
	return false
}

// TestDomainMap checks that the packages' domain ranges are apart and that every domain
// named in a test file lies in its package's ranges.
func TestDomainMap(t *testing.T) {
	owner := map[int]string{}
	for pkg, rs := range testDomains {
		for _, r := range rs {
			for d := r.first; d <= r.last; d++ {
				if d > 232 || (d >= 209 && d <= 214) {
					t.Errorf("%s: domain %d cannot be used", pkg, d)
				}
				if o, ok := owner[d]; ok {
					t.Errorf("domain %d is both %s's and %s's", d, o, pkg)
				}
				owner[d] = pkg
			}
		}
	}
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(path, "_test.go") || strings.HasSuffix(path, "domains_test.go") {
			return err
		}
		relFile, err := filepath.Rel(root, path)
		if err != nil || computeOnly[filepath.ToSlash(relFile)] {
			return err
		}
		rel := filepath.ToSlash(filepath.Dir(relFile))
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, d := range domainsIn(line) {
				if o := owner[d]; o != rel && d <= 232 {
					t.Errorf("%s:%d: domain %d is not in %s's ranges (owner: %q)", path, i+1, d, rel, o)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// domainsIn returns the domains a line of a test names for a socket participant (those
// above 232 are invalid: tests of the error).
func domainsIn(line string) []int {
	if inMemory(line) || strings.HasPrefix(strings.TrimSpace(line), "//") {
		return nil
	}
	var ds []int
	for _, p := range domainPatterns {
		for _, m := range p.FindAllStringSubmatch(line, -1) {
			first, _ := strconv.Atoi(m[1])
			n := 1
			if len(m) > 2 {
				n, _ = strconv.Atoi(m[2])
			}
			for d := first; d < first+n; d++ {
				ds = append(ds, d)
			}
		}
	}
	slices.Sort(ds)
	return slices.Compact(ds)
}
