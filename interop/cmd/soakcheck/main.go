// Command soakcheck reads the -stats lines that long-lived ddsgo peers wrote during a soak
// run (interop/soak.sh), prints their runtime figures over time and decides whether they
// stayed flat after warm-up.
//
//	soakcheck [-md] [-rows N] FILE.stats...
//
// Each file holds the JSON lines of one peer (interop-peer -stats DUR -stats-file FILE);
// the peer is named after the file. The last line is the one the peer writes after it
// closed its participant. With T the time of the last line before it, the second quarter
// is t in [T/4, T/2) (warm-up is over), the last quarter t in [3T/4, T]. The rule:
//
//   - goroutines: median of the last quarter <= median of the second quarter + 5
//   - fds and sockets: median of the last quarter <= median of the second quarter + 2
//   - heap in use and RSS: median of the last quarter <= median of the second quarter
//     x 1.25 + 4 MiB
//   - samples: after the first sample, every interval between two lines adds samples (a
//     publisher kept writing, a subscriber kept receiving)
//   - after closing: no socket open
//
// It exits 1 when a rule fails for any peer, 2 on bad input.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// line is one -stats line (see interop/cmd/interop-peer/stats.go).
type line struct {
	T          float64 `json:"t"`
	Samples    int64   `json:"samples"`
	Goroutines int     `json:"goroutines"`
	HeapInuse  uint64  `json:"heap_inuse"`
	HeapAlloc  uint64  `json:"heap_alloc"`
	RSS        int64   `json:"rss"`
	FDs        int     `json:"fds"`
	Sockets    int     `json:"sockets"`
}

const mib = 1 << 20

// Tolerances of the rule (package doc).
const (
	goroutineSlack = 5
	fdSlack        = 2
	memFactor      = 1.25
	memSlack       = 4 * mib
)

func main() {
	md := flag.Bool("md", false, "print Markdown tables")
	rows := flag.Int("rows", 11, "rows per table (evenly spaced in time)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: soakcheck [-md] [-rows N] FILE.stats...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	ok := true
	for _, path := range flag.Args() {
		lines, err := readLines(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "soakcheck: %v\n", err)
			os.Exit(2)
		}
		name := strings.TrimSuffix(filepath.Base(path), ".stats")
		printTable(os.Stdout, name, lines, *rows, *md)
		problems := check(lines)
		for _, p := range problems {
			fmt.Printf("NOT FLAT %s: %s\n", name, p)
		}
		if len(problems) == 0 {
			fmt.Printf("flat %s\n", name)
		}
		fmt.Println()
		ok = ok && len(problems) == 0
	}
	if !ok {
		os.Exit(1)
	}
}

// readLines reads the stats lines of one file; it needs at least 8 of them.
func readLines(path string) ([]line, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	var lines []line
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		lines = append(lines, l)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(lines) < 8 {
		return nil, fmt.Errorf("%s: %d lines, want at least 8 (a longer run or a shorter -stats period)", path, len(lines))
	}
	return lines, nil
}

// quarters returns the lines of the second and the last quarter of the run, the lines
// before the closing one.
func quarters(run []line) (q2, q4 []line) {
	end := run[len(run)-1].T
	for _, l := range run {
		switch {
		case l.T >= end/4 && l.T < end/2:
			q2 = append(q2, l)
		case l.T >= 3*end/4:
			q4 = append(q4, l)
		}
	}
	return q2, q4
}

func median(ls []line, f func(line) float64) float64 {
	v := make([]float64, len(ls))
	for i, l := range ls {
		v[i] = f(l)
	}
	slices.Sort(v)
	if len(v) == 0 {
		return 0
	}
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// check applies the rule of the package doc to the lines of one peer and returns what
// broke it.
func check(lines []line) []string {
	run, closed := lines[:len(lines)-1], lines[len(lines)-1]
	q2, q4 := quarters(run)
	var problems []string
	if len(q2) == 0 || len(q4) == 0 {
		return []string{"too few lines for quarters"}
	}
	counts := []struct {
		name  string
		f     func(line) float64
		slack float64
	}{
		{"goroutines", func(l line) float64 { return float64(l.Goroutines) }, goroutineSlack},
		{"fds", func(l line) float64 { return float64(l.FDs) }, fdSlack},
		{"sockets", func(l line) float64 { return float64(l.Sockets) }, fdSlack},
	}
	for _, c := range counts {
		m2, m4 := median(q2, c.f), median(q4, c.f)
		if m4 > m2+c.slack {
			problems = append(problems, fmt.Sprintf("%s: median %g in the last quarter, %g in the second", c.name, m4, m2))
		}
	}
	mems := []struct {
		name string
		f    func(line) float64
	}{
		{"heap in use", func(l line) float64 { return float64(l.HeapInuse) }},
		{"RSS", func(l line) float64 { return float64(l.RSS) }},
	}
	for _, c := range mems {
		m2, m4 := median(q2, c.f), median(q4, c.f)
		if m4 > m2*memFactor+memSlack {
			problems = append(problems, fmt.Sprintf("%s: median %.1f MiB in the last quarter, %.1f MiB in the second", c.name, m4/mib, m2/mib))
		}
	}
	problems = append(problems, checkSamples(run)...)
	if closed.Sockets > 0 {
		problems = append(problems, fmt.Sprintf("%d sockets still open after closing", closed.Sockets))
	}
	return problems
}

// checkSamples reports the intervals, after the first sample, in which the count of
// samples did not grow.
func checkSamples(run []line) []string {
	var stalls []string
	for i := 1; i < len(run); i++ {
		if run[i-1].Samples > 0 && run[i].Samples <= run[i-1].Samples {
			stalls = append(stalls, fmt.Sprintf("%.0f-%.0fs", run[i-1].T, run[i].T))
		}
	}
	if len(stalls) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("no samples in %d intervals: %s", len(stalls), strings.Join(first(stalls, 10), " "))}
}

func first(s []string, n int) []string { return s[:min(n, len(s))] }

// printTable prints about rows lines evenly spaced in time, and the closing line.
func printTable(w io.Writer, name string, lines []line, rows int, md bool) {
	run := lines[:len(lines)-1]
	end := run[len(run)-1].T
	head := []string{"t s", "samples", "heap in use MiB", "heap alloc MiB", "RSS MiB", "goroutines", "fds", "sockets"}
	row := func(label string, l line) []string {
		return []string{
			label, fmt.Sprint(l.Samples),
			fmt.Sprintf("%.1f", float64(l.HeapInuse)/mib), fmt.Sprintf("%.1f", float64(l.HeapAlloc)/mib),
			fmt.Sprintf("%.1f", float64(l.RSS)/mib),
			fmt.Sprint(l.Goroutines), fmt.Sprint(l.FDs), fmt.Sprint(l.Sockets),
		}
	}
	var cells [][]string
	next := 0
	for k := 0; k < rows; k++ {
		at := end * float64(k) / float64(max(rows-1, 1))
		for next < len(run)-1 && run[next].T < at {
			next++
		}
		cells = append(cells, row(fmt.Sprintf("%.0f", run[next].T), run[next]))
	}
	cells = slices.CompactFunc(cells, func(a, b []string) bool { return a[0] == b[0] })
	cells = append(cells, row("closed", lines[len(lines)-1]))
	fmt.Fprintf(w, "%s:\n", name)
	if md {
		fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
		for _, c := range cells {
			fmt.Fprintf(w, "| %s |\n", strings.Join(c, " | "))
		}
		return
	}
	fmt.Fprintf(w, "%8s %9s %8s %8s %8s %10s %5s %7s\n", "t s", "samples", "heap MiB", "alloc", "RSS MiB", "goroutines", "fds", "sockets")
	for _, c := range cells {
		fmt.Fprintf(w, "%8s %9s %8s %8s %8s %10s %5s %7s\n", c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7])
	}
}
