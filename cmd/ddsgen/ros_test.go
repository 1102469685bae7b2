package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/internal/cdr"
	"github.com/ddsgo/ddsgo/ros/simulation_interfaces"
	"github.com/stretchr/testify/require"
)

// rosTestdata is the root of the test packages: test_msgs (every mapping rule) and
// dep_msgs (a package it uses); the actions also use ros/defs' unique_identifier_msgs
// and builtin_interfaces.
var rosTestdata = filepath.Join("testdata", "ros")

func rosTestArgs() []string {
	return []string{"-ros", "-I", filepath.Join("..", "..", "ros", "defs"), filepath.Join(rosTestdata, "defs", "test_msgs")}
}

// TestROSGolden generates the IDL and the Go of testdata/ros/defs/test_msgs and
// compares them with the golden files next to it (-update rewrites them).
func TestROSGolden(t *testing.T) {
	for _, c := range []struct{ golden, flag string }{
		{"test_msgs.idl.golden", "-idl"},
		{"test_msgs.go.golden", "-package=test_msgs"},
	} {
		t.Run(c.golden, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			require.Equal(t, 0, run(append([]string{c.flag}, rosTestArgs()...), &stdout, &stderr), stderr.String())
			golden := filepath.Join(rosTestdata, c.golden)
			if *update {
				require.NoError(t, os.WriteFile(golden, stdout.Bytes(), 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			require.Equal(t, string(want), stdout.String())
		})
	}
}

// TestROSGoldenCompiles builds the golden Go of test_msgs and dep_msgs as if they were
// packages under ros/, and round-trips every type through ddsgo's codec.
func TestROSGoldenCompiles(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(rosTestdata, "test_msgs.go.golden"))
	require.NoError(t, err)
	dep, err := generateROS(options{}, []string{filepath.Join(rosTestdata, "defs", "dep_msgs")}, false)
	require.NoError(t, err)
	checkTypes(t, []checkPkg{
		{dir: "ros/test_msgs", src: src, overlay: true},
		{dir: "ros/dep_msgs", src: dep, overlay: true},
	})
}

var goGenerate = regexp.MustCompile(`(?m)^//go:generate go run github.com/ddsgo/ddsgo/cmd/ddsgen (.*)$`)

// TestROSPackagesUpToDate runs the go:generate line of every package under ros/, as go
// generate would, and requires the committed file to be what it writes today.
func TestROSPackagesUpToDate(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", "ros"))
	require.NoError(t, err)
	defs, err := os.ReadDir(filepath.Join(root, "defs"))
	require.NoError(t, err)
	n := 0
	for _, d := range defs {
		if !d.IsDir() {
			continue
		}
		n++
		dir := filepath.Join(root, d.Name())
		doc, err := os.ReadFile(filepath.Join(dir, "doc.go"))
		require.NoError(t, err, "ros/%s has no package for ros/defs/%s", d.Name(), d.Name())
		m := goGenerate.FindSubmatch(doc)
		require.NotNil(t, m, "ros/%s/doc.go: no go:generate line", d.Name())
		args := strings.Fields(string(m[1]))
		out := ""
		for i := range args[:len(args)-1] {
			if args[i] == "-o" {
				out, args[i+1] = args[i+1], filepath.Join(t.TempDir(), "out.go")
			}
		}
		require.NotEmpty(t, out)
		t.Chdir(dir)
		t.Setenv("GOPACKAGE", d.Name())
		var stdout, stderr bytes.Buffer
		require.Equal(t, 0, run(args, &stdout, &stderr), stderr.String())
		got, err := os.ReadFile(args[slices.Index(args, "-o")+1])
		require.NoError(t, err)
		want, err := os.ReadFile(filepath.Join(dir, out))
		require.NoError(t, err)
		require.Equal(t, string(want), string(got), "ros/%s/%s is stale: run go generate ./ros/...", d.Name(), out)
	}
	require.Positive(t, n)
}

// TestROSPackagesRoundTrip round-trips every type of the packages under ros/ through
// ddsgo's codec.
func TestROSPackagesRoundTrip(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "ros", "*", "*.go"))
	require.NoError(t, err)
	var pkgs []checkPkg
	for _, f := range files {
		if filepath.Base(f) != filepath.Base(filepath.Dir(f))+".go" {
			continue // the generated file of ros/pkg is pkg.go
		}
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		pkgs = append(pkgs, checkPkg{dir: "ros/" + filepath.Base(filepath.Dir(f)), src: src})
	}
	require.NotEmpty(t, pkgs)
	checkTypes(t, pkgs)
}

// TestROSWire checks a generated type against bytes rmw_cyclonedds put on the wire: the
// GetEntities request of ROS2_FACTS.md §3 (a ros2 service call of
// simulation_interfaces/srv/GetEntities with filter "box.*", captured from Cyclone DDS),
// whose body after the 16-byte request header starts 06000000 626f782e2a00. The rest
// is the empty categories, tags and bounds that follow, in XCDR1: a pad to 4, the
// sequence lengths, the two octets and a pad before the points' length.
func TestROSWire(t *testing.T) {
	c, err := cdr.NewCodec[simulation_interfaces.GetEntitiesRequest]()
	require.NoError(t, err)
	req := simulation_interfaces.GetEntitiesRequest{Filters: simulation_interfaces.EntityFilters{Filter: "box.*"}}
	b, err := c.Marshal(nil, c.DefaultEncapsulation(), &req)
	require.NoError(t, err)
	want := "06000000" + "626f782e2a00" + // filter "box.*"
		"0000" + // to 4
		"00000000" + // categories: EntityCategory[]
		"00000000" + "00" + // tags: TagsFilter{string[] tags; uint8 filter_mode}
		"00" + "0000" + "00000000" // bounds: Bounds{uint8 type; Vector3[] points}
	require.Equal(t, "0001", hex.EncodeToString(b[:2]), "CDR_LE, as rmw writes")
	require.Equal(t, want, hex.EncodeToString(b[4:]))
	require.Equal(t, "simulation_interfaces::srv::dds_::GetEntities_Request_", req.DDSTypeName())
	var back simulation_interfaces.GetEntitiesRequest
	require.NoError(t, c.Unmarshal(b, &back))
	require.Equal(t, req, back)
}

// TestROSIDLAcceptedByIdlc runs Cyclone DDS's IDL compiler, when it is installed, on the
// IDL that -idl writes for test_msgs and for every package of ros/defs: peers built by
// IDL compilers can use it. ROS names members like their types (UUID_ { uuid_ }), which
// IDL's case-insensitive scopes forbid: idlc needs -f case-sensitive (fastddsgen -cs).
func TestROSIDLAcceptedByIdlc(t *testing.T) {
	idlc, err := exec.LookPath("idlc")
	if err != nil {
		t.Skip("idlc (Cyclone DDS) is not installed")
	}
	defs := filepath.Join("..", "..", "ros", "defs")
	pkgs, err := filepath.Glob(filepath.Join(defs, "*_*"))
	require.NoError(t, err)
	var sets [][]string
	for _, pkg := range append(pkgs, filepath.Join(rosTestdata, "defs", "test_msgs")) {
		sets = append(sets, []string{pkg})
	}
	// Several packages in one IDL (what the interop clients of ddsim are built from):
	// what two of them use is defined once.
	sets = append(sets, []string{
		filepath.Join(defs, "simulation_interfaces", "srv", "GetEntities.srv"),
		filepath.Join(defs, "rosgraph_msgs", "msg", "Clock.msg"),
		filepath.Join(defs, "tf2_msgs", "msg", "TFMessage.msg"),
	})
	for _, args := range sets {
		pkg := args[0]
		src, err := generateROS(options{incDirs: []string{defs}}, args, true)
		require.NoError(t, err)
		if len(args) > 1 {
			require.Equal(t, 1, strings.Count(string(src), "// geometry_msgs/msg/Vector3.msg\n"), "%s", src)
			require.Contains(t, string(src), "// rosgraph_msgs/msg/Clock.msg\n")
		}
		dir := t.TempDir() // idlc writes its C files there
		f := filepath.Join(dir, filepath.Base(pkg)+".idl")
		require.NoError(t, os.WriteFile(f, src, 0o644))
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := exec.CommandContext(ctx, idlc, "-f", "case-sensitive", "-x", "final", f)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		cancel()
		require.NoError(t, err, "idlc %s: %s", pkg, out)
	}
}

// TestROSErrors checks that bad definitions are reported at their line.
func TestROSErrors(t *testing.T) {
	tests := []struct{ file, src, want string }{
		{"p/msg/T.msg", "int32", `p/msg/T.msg:1:1: "int32": want a type and a name`},
		{"p/msg/T.msg", "# c\nint33 x", `p/msg/T.msg:2:1: unknown type "int33"`},
		{"p/msg/T.msg", "int32 X", `"X" is not a valid field name`},
		{"p/msg/T.msg", "int32 a__b", `"a__b" is not a valid field name`},
		{"p/msg/T.msg", "int32 x\nint32 x", "p/msg/T.msg:2:1: field x twice"},
		{"p/msg/T.msg", "int32 lower=1", `"lower" is not a valid constant name`},
		{"p/msg/T.msg", "int32[] X=1", `the type of a constant is a primitive type, not "int32[]"`},
		{"p/msg/T.msg", "uint8 X=256", `value "256" of uint8: want an integer from 0 to 255`},
		{"p/msg/T.msg", "int8 X=-129", `want an integer from -128 to 127`},
		{"p/msg/T.msg", "bool X=yes", `want true, false, 1 or 0`},
		{"p/msg/T.msg", "float64 X=inf", `want a finite floating-point number`},
		{"p/msg/T.msg", "float32 X=1e39", `out of the range of float32`},
		{"p/msg/T.msg", `string X="a"b"`, `inner quotes must be escaped`},
		{"p/msg/T.msg", "string<=2 s abc", `longer than the bound 2`},
		{"p/msg/T.msg", "int32[2] a [1]", `want 2 elements, not 1`},
		{"p/msg/T.msg", "int32[<=1] a [1, 2]", `want at most 1 elements, not 2`},
		{"p/msg/T.msg", "int32[] a 1", `want [v, ...]`},
		{"p/msg/T.msg", "q/Pose p 1", `default values of nested types are not supported`},
		{"p/msg/T.msg", "int32[0] a", `size "0": want an integer above 0`},
		{"p/msg/T.msg", "int32[<=x] a", `size "x"`},
		{"p/msg/T.msg", "string<=0 s", `size "0"`},
		{"p/msg/T.msg", "int32] a", `ends with ] but has no [`},
		{"p/msg/T.msg", "wstring w", `wstring is not supported`},
		{"p/msg/T.msg", "time t", `use builtin_interfaces/Time`},
		{"p/msg/T.msg", "@optional int32 x", `annotations (@optional) are not supported`},
		{"p/msg/T.msg", " int32 x", `starts at the beginning of its line`},
		{"p/msg/T.msg", "Bad_Name x", `unknown type "Bad_Name"`},
		{"p/msg/T.msg", "int32 x\n---\nint32 y", `p/msg/T.msg:1:1: a .msg file has 1 parts separated by ---, not 2`},
		{"p/srv/T.srv", "int32 x", `a .srv file has 2 parts separated by ---, not 1`},
		{"p/action/T.action", "---", `a .action file has 3 parts`},
		{"p/msg/t.msg", "", `"t" is not a valid ROS type name`},
		{"P/msg/T.msg", "", `"P" is not a valid ROS package name`},
	}
	for _, tc := range tests {
		pkg := strings.Split(tc.file, "/")[0]
		_, err := parseROSFile(tc.file, pkg, []byte(tc.src))
		require.Error(t, err, tc.src)
		require.Contains(t, err.Error(), tc.want, tc.src)
	}
}

// TestROSRun covers the command line of -ros: files and directories, the package
// they are in, unknown types and the Go package name.
func TestROSRun(t *testing.T) {
	defs := filepath.Join(rosTestdata, "defs")
	var stdout, stderr bytes.Buffer
	t.Setenv("GOPACKAGE", "")
	code := run([]string{"-ros", filepath.Join(defs, "test_msgs", "msg", "Prims.msg"), filepath.Join(defs, "test_msgs", "msg", "Empty.msg")}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	require.Contains(t, stdout.String(), "package test_msgs\n")
	require.Contains(t, stdout.String(), "type Empty struct")

	solo := filepath.Join(t.TempDir(), "solo", "msg")
	require.NoError(t, os.MkdirAll(solo, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(solo, "A.msg"), []byte("# uses\nnope_msgs/X x\n"), 0o644))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{filepath.Join(solo, "A.msg")}, "A.msg:2:1: unknown type nope_msgs/X: no nope_msgs/msg/X.msg in "},
		{[]string{filepath.Join(defs, "test_msgs"), filepath.Join(defs, "dep_msgs")}, "one package at a time (several only with -idl)"},
		{[]string{filepath.Join(defs, "test_msgs", "Prims.msg")}, "want PKG/msg/NAME.msg"},
		{[]string{rosTestdata}, "has no msg/*.msg"},
		{[]string{filepath.Join(defs, "test_msgs", "msg", "Missing.msg")}, "Missing.msg"},
	} {
		stderr.Reset()
		require.Equal(t, 1, run(append([]string{"-ros", "-I", filepath.Join("..", "..", "ros", "defs")}, tc.args...), &stdout, &stderr), tc.args)
		require.Contains(t, stderr.String(), tc.want)
	}
}

// FuzzROS feeds arbitrary definitions to the .msg/.srv/.action parser: errors are fine,
// panics are not, and what it accepts (with no nested types) must give IDL that the IDL
// front end turns into Go.
func FuzzROS(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(rosTestdata, "defs", "*", "*", "*"))
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(uint8(len(file)), string(b))
		}
	}
	f.Add(uint8(0), "string<=3[<=2] s [\"a,b\", 'c']\nchar C=0x41")
	kinds := []string{"msg", "srv", "action"}
	f.Fuzz(func(t *testing.T, kind uint8, src string) {
		tm := time.AfterFunc(3*time.Second, func() { panic(fmt.Sprintf("slow input %q", src)) })
		defer tm.Stop()
		k := kinds[int(kind)%len(kinds)]
		rf, err := parseROSFile("p/"+k+"/T."+k, "p", []byte(src))
		if err != nil || k == "action" {
			return // actions use other packages' types
		}
		for _, s := range rf.structs {
			for _, fl := range s.fields {
				if fl.typ.prim == "" {
					return
				}
			}
		}
		var b strings.Builder
		rf.writeIDL(&b)
		_, err = generate(options{pkg: "p", rosPkg: "p", read: memFiles(map[string]string{"t.idl": b.String()})}, []string{"t.idl"})
		require.NoError(t, err, "IDL:\n%s", b.String())
	})
}
