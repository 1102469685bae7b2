package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCollect counts the exported names of public packages only: not those of
// internal/, cmd/, main packages, tests, or unexported ones.
func TestCollect(t *testing.T) {
	root := t.TempDir()
	write := func(path, src string) {
		path = filepath.Join(root, path)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	}
	write("a/a.go", "package a\n\nfunc F() {}\nfunc g() {}\n\ntype T struct{ X, y int }\n\nfunc (T) M() {}\n\nvar V, w = 1, 2\n")
	write("a/a_test.go", "package a\n\nfunc TestX() {}\n")
	write("a/b/b.go", "package b\n\nconst C = 1\n")
	write("internal/i/i.go", "package i\n\nfunc F() {}\n")
	write("cmd/c/c.go", "package main\n\nfunc F() {}\n")
	write("tool/main.go", "package main\n\nfunc F() {}\n")
	write(".hidden/h.go", "package h\n\nfunc F() {}\n")

	ids, err := collect(root)
	require.NoError(t, err)
	require.Len(t, ids, 2)
	require.ElementsMatch(t, []string{"F", "T", "T.X", "T.M", "V"}, ids[filepath.Join(root, "a")])
	require.Equal(t, []string{"C"}, ids[filepath.Join(root, "a", "b")])

	write("bad/bad.go", "package bad\n\nfunc {")
	_, err = collect(root)
	require.Error(t, err)
}
