package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/golden")

// goldenOptions are the options of each golden IDL file; the package is the file's name.
func goldenOptions(name string) options {
	o := options{pkg: name, ext: "final"}
	if name == "scoped" {
		o.scoped = true
	}
	return o
}

func goldenFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "golden", "*.idl"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	return files
}

// TestGolden generates Go from every IDL file of testdata/golden and compares it with
// the .go.golden file next to it (-update rewrites them).
func TestGolden(t *testing.T) {
	for _, f := range goldenFiles(t) {
		name := strings.TrimSuffix(filepath.Base(f), ".idl")
		t.Run(name, func(t *testing.T) {
			got, err := generate(goldenOptions(name), []string{f})
			require.NoError(t, err)
			golden := strings.TrimSuffix(f, ".idl") + ".go.golden"
			if *update {
				require.NoError(t, os.WriteFile(golden, got, 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			require.Equal(t, string(want), string(got))
		})
	}
}

// checkMain is the program that proves the golden output builds against package dds and
// that ddsgo's codec accepts every generated type: it builds each type's topic type
// support, checks that the codec sees the declared extensibility and round-trips the
// zero value.
const checkMain = `package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/ddsgo/ddsgo/dds"
%s)

type extensible interface{ DDSExtensibility() dds.Extensibility }

var failed bool

func check[T any](name string) {
	fail := func(format string, v ...any) {
		fmt.Fprintf(os.Stderr, name+": "+format+"\n", v...)
		failed = true
	}
	tt, err := dds.NewTopicType[T](name)
	if err != nil {
		fail("%%v", err)
		return
	}
	var v T
	want := dds.Final
	if x, ok := any(v).(extensible); ok {
		want = x.DDSExtensibility()
	}
	if got := tt.Extensibility(); got != want {
		fail("extensibility %%v, want %%v", got, want)
	}
	c := tt.Codec()
	b, err := c.Marshal(nil, c.DefaultEncapsulation(), &v)
	if err != nil {
		fail("marshal: %%v", err)
		return
	}
	var out T
	if err := c.Unmarshal(b, &out); err != nil {
		fail("unmarshal: %%v", err)
		return
	}
	if b2, _ := c.Marshal(nil, c.DefaultEncapsulation(), &out); !bytes.Equal(b, b2) {
		fail("round trip: %% x != %% x", b, b2)
	}
}

func main() {
%s	if failed {
		os.Exit(1)
	}
}
`

var typeDecl = regexp.MustCompile(`(?m)^type (\w+) struct`)

// TestGoldenCompiles builds the golden files as packages of a module that uses this
// module (a replace directive) and runs checkMain on every struct and union in them.
func TestGoldenCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	dir := t.TempDir()
	write := func(name, content string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	goVersion := regexp.MustCompile(`(?m)^go (\S+)`).FindSubmatch(gomod)[1]
	write("go.mod", fmt.Sprintf("module gentest\n\ngo %s\n\nrequire github.com/ddsgo/ddsgo v0.0.0\n\nreplace github.com/ddsgo/ddsgo => %s\n", goVersion, root))
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	write("go.sum", string(sum))
	var imports, calls strings.Builder
	for _, f := range goldenFiles(t) {
		name := strings.TrimSuffix(filepath.Base(f), ".idl")
		src, err := os.ReadFile(strings.TrimSuffix(f, ".idl") + ".go.golden")
		require.NoError(t, err)
		write(filepath.Join(name, "types.go"), string(src))
		fmt.Fprintf(&imports, "\t%q\n", "gentest/"+name)
		for _, m := range typeDecl.FindAllSubmatch(src, -1) {
			fmt.Fprintf(&calls, "\tcheck[%s.%s](%q)\n", name, m[1], name+"::"+string(m[1]))
		}
	}
	write("main.go", fmt.Sprintf(checkMain, imports.String(), calls.String()))
	cmd := exec.Command(goCmd, "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Run(), out.String())
}

// TestGoldenAcceptedByIdlc runs Cyclone DDS's IDL compiler on the golden IDL files, when
// it is installed: what ddsgen is tested on is IDL the peers' tools accept.
func TestGoldenAcceptedByIdlc(t *testing.T) {
	idlc, err := exec.LookPath("idlc")
	if err != nil {
		t.Skip("idlc (Cyclone DDS) is not installed")
	}
	for _, f := range goldenFiles(t) {
		abs, err := filepath.Abs(f)
		require.NoError(t, err)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := exec.CommandContext(ctx, idlc, "-x", "final", abs)
		cmd.Dir = t.TempDir() // idlc writes its C files there
		out, err := cmd.CombinedOutput()
		cancel()
		require.NoError(t, err, "idlc %s: %s", f, out)
	}
}

// TestInteropSampleUpToDate fails when the Go types of the interop peer, generated from
// interop/idl/Sample.idl, are not what ddsgen generates today (run go generate in
// interop/cmd/interop-peer).
func TestInteropSampleUpToDate(t *testing.T) {
	dir := filepath.Join("..", "..", "interop", "cmd", "interop-peer")
	got, err := generate(options{pkg: "main", ext: "final"}, []string{filepath.Join("..", "..", "interop", "idl", "Sample.idl")})
	require.NoError(t, err)
	want, err := os.ReadFile(filepath.Join(dir, "sample_idl.go"))
	require.NoError(t, err)
	require.Equal(t, string(want), string(got), "interop/cmd/interop-peer/sample_idl.go is stale: run go generate ./interop/cmd/interop-peer")
}

// TestRun covers the command line: output to a file, -I, and the exit statuses.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "types.go")
	var stdout, stderr bytes.Buffer
	code := run([]string{"-package", "types", "-o", out, "-I", filepath.Join("testdata", "golden", "inc"), filepath.Join("testdata", "golden", "types.idl")}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	want, err := os.ReadFile(filepath.Join("testdata", "golden", "types.go.golden"))
	require.NoError(t, err)
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))

	stderr.Reset()
	require.Equal(t, 2, run([]string{"-package", "x"}, &stdout, &stderr))
	require.Contains(t, stderr.String(), "usage")
	stderr.Reset()
	require.Equal(t, 2, run([]string{"-package", "x", "-x", "odd", "a.idl"}, &stdout, &stderr))
	stderr.Reset()
	t.Setenv("GOPACKAGE", "")
	require.Equal(t, 2, run([]string{"a.idl"}, &stdout, &stderr))
	require.Contains(t, stderr.String(), "-package")
	stderr.Reset()
	require.Equal(t, 1, run([]string{"-package", "x", filepath.Join(dir, "missing.idl")}, &stdout, &stderr))
	stderr.Reset()
	require.Equal(t, 0, run([]string{"-package", "x", "-x", "appendable", filepath.Join("..", "..", "interop", "idl", "Sample.idl")}, &stdout, &stderr))
	require.Contains(t, stdout.String(), "func (Sample) DDSExtensibility() dds.Extensibility { return dds.Appendable }")
}
