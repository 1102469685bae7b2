package main

import (
	"strings"
	"testing"

	"github.com/ddsgo/ddsgo/internal/testutil"
	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) { testutil.Main(m) }

// series returns n lines one second apart (and the closing line) whose figures f
// computes from the line's index.
func series(n int, f func(i int, l *line)) []line {
	var ls []line
	for i := range n + 1 {
		l := line{T: float64(i), Samples: int64(10 * (i + 1)), Goroutines: 11, FDs: 15, Sockets: 4, HeapInuse: 3 * mib, RSS: 10 * mib}
		f(i, &l)
		ls = append(ls, l)
	}
	ls[n] = line{T: float64(n), Samples: ls[n-1].Samples, Goroutines: 3, FDs: 11, HeapInuse: 3 * mib, RSS: 10 * mib}
	return ls
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func(i int, l *line)
		want string // "" = flat, otherwise a substring of the only problem
	}{
		{"flat", func(int, *line) {}, ""},
		{"warm-up does not count", func(i int, l *line) {
			if i < 10 {
				l.HeapInuse, l.Goroutines = mib, 3
			}
		}, ""},
		{"noise within the slack", func(i int, l *line) { l.Goroutines += i % 5; l.HeapInuse += uint64(i%7) * mib / 2 }, ""},
		{"goroutine leak", func(i int, l *line) { l.Goroutines += i / 5 }, "goroutines"},
		{"socket leak", func(i int, l *line) { l.Sockets += i / 10; l.FDs = 15 }, "sockets"},
		{"fd leak", func(i int, l *line) { l.FDs += i / 10 }, "fds"},
		{"heap growth", func(i int, l *line) { l.HeapInuse += uint64(i) * mib / 4 }, "heap in use"},
		{"RSS growth", func(i int, l *line) { l.RSS += int64(i) * mib / 4 }, "RSS"},
		{"stalled", func(i int, l *line) {
			if i > 50 && i < 60 {
				l.Samples = 500
			}
		}, "no samples in"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			problems := check(series(80, tc.f))
			if tc.want == "" {
				require.Empty(t, problems)
				return
			}
			require.Len(t, problems, 1, "%v", problems)
			require.Contains(t, problems[0], tc.want)
		})
	}

	ls := series(80, func(int, *line) {})
	ls[len(ls)-1].Sockets = 2
	require.Equal(t, []string{"2 sockets still open after closing"}, check(ls))
}

func TestPrintTable(t *testing.T) {
	var b strings.Builder
	printTable(&b, "subA", series(100, func(int, *line) {}), 3, true)
	require.Equal(t, `subA:
| t s | samples | heap in use MiB | heap alloc MiB | RSS MiB | goroutines | fds | sockets |
|---|---|---|---|---|---|---|---|
| 0 | 10 | 3.0 | 0.0 | 10.0 | 11 | 15 | 4 |
| 50 | 510 | 3.0 | 0.0 | 10.0 | 11 | 15 | 4 |
| 99 | 1000 | 3.0 | 0.0 | 10.0 | 11 | 15 | 4 |
| closed | 1000 | 3.0 | 0.0 | 10.0 | 3 | 11 | 0 |
`, b.String())
}
