package main

import (
	"bytes"
	"context"
	"encoding/json"
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

// checkMain is the program that proves the golden output compiles in this module and
// that ddsgo's codec accepts every generated type: it compiles each type's codec, checks
// that the codec sees the declared extensibility and round-trips the zero value.
const checkMain = `package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/internal/cdr"
%s)

type extensible interface{ DDSExtensibility() dds.Extensibility }

var failed bool

func check[T any](name string) {
	fail := func(format string, v ...any) {
		fmt.Fprintf(os.Stderr, name+": "+format+"\n", v...)
		failed = true
	}
	c, err := cdr.NewCodec[T]()
	if err != nil {
		fail("%%v", err)
		return
	}
	var v T
	want := dds.Final
	if x, ok := any(v).(extensible); ok {
		want = x.DDSExtensibility()
	}
	if got := c.Extensibility(); got != want {
		fail("extensibility %%v, want %%v", got, want)
	}
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
	fmt.Println("checked", %d)
}
`

var typeDecl = regexp.MustCompile(`(?m)^type (\w+) struct`)

// TestGoldenCompiles builds the golden files as packages of this module, without
// writing into the source tree (go run -overlay), and runs checkMain on every struct and
// union in them.
func TestGoldenCompiles(t *testing.T) {
	var pkgs []checkPkg
	for _, f := range goldenFiles(t) {
		name := strings.TrimSuffix(filepath.Base(f), ".idl")
		src, err := os.ReadFile(strings.TrimSuffix(f, ".idl") + ".go.golden")
		require.NoError(t, err)
		pkgs = append(pkgs, checkPkg{dir: "cmd/ddsgen/internal/goldencheck/" + name, src: src, overlay: true})
	}
	checkTypes(t, pkgs)
}

// checkPkg is a package of generated types for checkTypes: dir is its directory in the
// module; with overlay, src exists only in the overlay.
type checkPkg struct {
	dir     string
	src     []byte
	overlay bool
}

// checkTypes runs checkMain on every struct and union of the packages, as a program of
// this module (go run -overlay, which writes nothing into the source tree).
func checkTypes(t *testing.T, pkgs []checkPkg) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the go command")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	const mainDir = "cmd/ddsgen/internal/goldencheck" // exists only in the overlay
	tmp := t.TempDir()
	overlay := map[string]string{}
	add := func(name, content string) {
		f := filepath.Join(tmp, strings.ReplaceAll(name, "/", "_"))
		require.NoError(t, os.WriteFile(f, []byte(content), 0o644))
		overlay[filepath.Join(root, filepath.FromSlash(name))] = f
	}
	var imports, calls strings.Builder
	n := 0
	for _, p := range pkgs {
		name := filepath.Base(p.dir)
		if p.overlay {
			add(p.dir+"/types.go", string(p.src))
		}
		fmt.Fprintf(&imports, "\t%q\n", "github.com/ddsgo/ddsgo/"+p.dir)
		for _, m := range typeDecl.FindAllSubmatch(p.src, -1) {
			fmt.Fprintf(&calls, "\tcheck[%s.%s](%q)\n", name, m[1], name+"."+string(m[1]))
			n++
		}
	}
	add(mainDir+"/main.go", fmt.Sprintf(checkMain, imports.String(), calls.String(), n))
	js, err := json.Marshal(map[string]any{"Replace": overlay})
	require.NoError(t, err)
	ovl := filepath.Join(tmp, "overlay.json")
	require.NoError(t, os.WriteFile(ovl, js, 0o644))
	cmd := exec.Command(goCmd, "run", "-overlay", ovl, "./"+mainDir)
	cmd.Dir = root
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Run(), out.String())
	require.Equal(t, fmt.Sprintf("checked %d\n", n), out.String())
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
