package qos

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFnmatch(t *testing.T) {
	// Expectations checked against glibc fnmatch(pattern, name, FNM_NOESCAPE).
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"", "", true},
		{"", "a", false},
		{"*", "", true},
		{"*", "anything", true},
		{"a*", "a", true},
		{"a*", "abc", true},
		{"a*", "ba", false},
		{"*c", "abc", true},
		{"a*c", "abbbc", true},
		{"a*c", "abbbd", false},
		{"a*b*c", "axxbyyc", true},
		{"a*b*c", "axxcyyb", false},
		{"**", "x", true},
		{"?", "a", true},
		{"?", "", false},
		{"?", "ab", false},
		{"a?c", "abc", true},
		{"a?c", "ac", false},
		{"[abc]", "b", true},
		{"[abc]", "d", false},
		{"[a-c]x", "bx", true},
		{"[a-c]x", "dx", false},
		{"[!a-c]", "d", true},
		{"[!a-c]", "a", false},
		{"[^a-c]", "d", true},
		{"[]a]", "]", true},
		{"[]a]", "a", true},
		{"[!]]", "]", false},
		{"[!]]", "x", true},
		{"[a-]", "-", true},
		{"[[:digit:]]x", "7x", true},
		{"[[:digit:]]x", "ax", false},
		{"[[:alpha:][:digit:]]", "Q", true},
		{"[[:upper:]]", "q", false},
		{"[[:space:]]", "\t", true},
		{"[[:punct:]]", "!", true},
		{"[[:xdigit:]]", "F", true},
		{"[[:foo:]]", "f", false},
		{"[c[:foo:]]", "c", true},   // glibc: matched before reaching the unknown class
		{"[^[:foo:]a]", "1", false}, // glibc: an unknown class spoils the set
		{"[[:!-^]", "[1", false},    // unterminated "[:": '[' is a member
		{"[]-[[:]", "[", true},      // likewise
		{"[abc", "[abc", true},      // no closing ']': '[' is literal
		{"[abc", "a", false},        // likewise
		{"a[", "a[", true},          // likewise
		{`a\*`, `a\bc`, true},       // FNM_NOESCAPE: backslash is literal
		{`a\*`, "a*", false},        // likewise
		{"*[*bac-x", "!!1c1b-b", false},
		{"??*", "ab", true},
		{"*?", "", false},
		{"x/*", "x/y/z", true}, // no FNM_PATHNAME
		{"*", ".hidden", true}, // no FNM_PERIOD
	}
	for _, tt := range tests {
		t.Run(tt.pattern+"|"+tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, fnmatch(tt.pattern, tt.name))
		})
	}
}

func TestIsPartitionPattern(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"", false},
		{"plain", false},
		{"a*", true},
		{"a?", true},
		{"a[bc]", true},
		{"a[bc", false},
		{"a]", false},
		{"[]]", true},
		{`a\b`, false},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, isPartitionPattern(tt.name), tt.name)
	}
}

func TestPartitionsMatch(t *testing.T) {
	tests := []struct {
		name string
		a, b []string
		want bool
	}{
		{"both default", nil, nil, true},
		{"default and explicit empty name", nil, []string{""}, true},
		{"default and named", nil, []string{"a"}, false},
		{"named and default", []string{"a"}, []string{}, false},
		{"default and star", nil, []string{"*"}, true},
		{"default and a*", nil, []string{"a*"}, false},
		{"equal names", []string{"a"}, []string{"a"}, true},
		{"different names", []string{"a"}, []string{"b"}, false},
		{"case sensitive", []string{"A"}, []string{"a"}, false},
		{"one in common", []string{"x", "y", "z"}, []string{"q", "y"}, true},
		{"none in common", []string{"x", "y"}, []string{"q", "r"}, false},
		{"pattern on the left", []string{"sensor*"}, []string{"sensor1"}, true},
		{"pattern on the right", []string{"sensor1"}, []string{"sensor*"}, true},
		{"pattern does not match", []string{"sensor*"}, []string{"actuator"}, false},
		{"both patterns never match", []string{"a*"}, []string{"a?"}, false},
		{"equal patterns never match", []string{"a*"}, []string{"a*"}, false},
		{"bracket pattern", []string{"room[0-9]"}, []string{"room7"}, true},
		{"bracket names never match themselves", []string{"room[1]"}, []string{"room[1]"}, false},
		{"incomplete bracket is a plain name", []string{"room[1"}, []string{"room[1"}, true},
		{"pattern with default and names", []string{"", "b"}, []string{"?"}, true},
		{"star matches empty name", []string{""}, []string{"*"}, true},
		{"question needs one byte", []string{""}, []string{"?"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, PartitionsMatch(tt.a, tt.b))
			require.Equal(t, tt.want, PartitionsMatch(tt.b, tt.a), "symmetric")
		})
	}
}

func TestPartitionsMatchAllocs(t *testing.T) {
	a := []string{"x", "y*", "[abc]z"}
	b := []string{"q", "bz"}
	allocs := testing.AllocsPerRun(100, func() {
		if !PartitionsMatch(a, b) {
			t.Fatal("no match")
		}
		if PartitionsMatch(nil, b) {
			t.Fatal("match")
		}
	})
	require.Zero(t, allocs)
}

func FuzzPartitionNameMatch(f *testing.F) {
	for _, s := range [][2]string{{"a*", "abc"}, {"[!a-z]", "1"}, {"[[:alpha:]", "["}, {"*?*?[", "xx["}, {"", ""}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, x, y string) {
		got := partitionNameMatch(x, y)
		if got != partitionNameMatch(y, x) {
			t.Fatalf("not symmetric for %q %q", x, y)
		}
		if !isPartitionPattern(x) && !isPartitionPattern(y) && got != (x == y) {
			t.Fatalf("plain names %q %q: %v", x, y, got)
		}
		if isPartitionPattern(x) && isPartitionPattern(y) && got {
			t.Fatalf("two patterns matched: %q %q", x, y)
		}
		if !isPartitionPattern(x) && !partitionNameMatch(x, x) {
			t.Fatalf("plain name %q does not match itself", x)
		}
		_ = fnmatch(x, y)
	})
}
