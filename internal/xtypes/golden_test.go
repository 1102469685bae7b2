package xtypes

import (
	"encoding/hex"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/cdr"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.txt from idlc's output")

// The Go forms of testdata/types.idl and ../../interop/idl/Sample.idl.

type xtInner struct {
	A    int32  `dds:"name=a"`
	Name string `dds:"bound=8,name=name"`
}

func (xtInner) DDSTypeName() string { return "xt::Inner" }

type xtPoint struct {
	X float64 `dds:"name=x"`
	Y float64 `dds:"name=y"`
}

func (xtPoint) DDSTypeName() string                 { return "xt::Point" }
func (xtPoint) DDSExtensibility() cdr.Extensibility { return cdr.Appendable }

type xtNested struct {
	Ident  uint32      `dds:"key,name=ident"`
	Inner  xtInner     `dds:"name=inner"`
	Points [3]xtPoint  `dds:"name=points"`
	Path   []xtPoint   `dds:"name=path"`
	Big    []xtPoint   `dds:"bound=300,name=big"`
	Names  []string    `dds:"bound=5,name=names"`
	Text   string      `dds:"bound=300,name=text"`
	Grid   [2][4]int32 `dds:"name=grid"`
	Flag   bool        `dds:"name=flag"`
	I8     int8        `dds:"name=i8"`
	U8     uint8       `dds:"name=u8"`
	S      int16       `dds:"name=s"`
	US     uint16      `dds:"name=us"`
	LL     int64       `dds:"name=ll"`
	F      float32     `dds:"name=f"`
	Maybe  *int32      `dds:"name=maybe"`
}

func (xtNested) DDSTypeName() string                 { return "xt::Nested" }
func (xtNested) DDSExtensibility() cdr.Extensibility { return cdr.Appendable }

type xtMut struct {
	Key    int32    `dds:"key,name=key"`
	Label  string   `dds:"id=10,name=label"`
	Inner  xtInner  `dds:"name=inner"`
	Weight *float64 `dds:"name=weight"`
}

func (xtMut) DDSTypeName() string                 { return "xt::Mut" }
func (xtMut) DDSExtensibility() cdr.Extensibility { return cdr.Mutable }

type xtU struct {
	D int32   `dds:"disc,name=_d"`
	A int32   `dds:"case=1|2,name=a"`
	B string  `dds:"case=3,name=b"`
	C xtPoint `dds:"default,name=c"`
}

func (xtU) DDSTypeName() string { return "xt::U" }

type xtWithUnion struct {
	U xtU   `dds:"name=u"`
	O uint8 `dds:"name=o"`
}

func (xtWithUnion) DDSTypeName() string { return "xt::WithUnion" }

type interopSample struct {
	ID     int32     `dds:"key,name=id"`
	Text   string    `dds:"name=text"`
	Values []float64 `dds:"name=values"`
	Seq    uint64    `dds:"name=seq"`
}

func (interopSample) DDSTypeName() string { return "interop::Sample" }

type interopSampleA interopSample

func (interopSampleA) DDSTypeName() string                 { return "interop::SampleA" }
func (interopSampleA) DDSExtensibility() cdr.Extensibility { return cdr.Appendable }

// goldenTypes maps the C name idlc gives a type to its Go form.
var goldenTypes = map[string]reflect.Type{
	"xt_Inner":        reflect.TypeFor[xtInner](),
	"xt_Point":        reflect.TypeFor[xtPoint](),
	"xt_Nested":       reflect.TypeFor[xtNested](),
	"xt_Mut":          reflect.TypeFor[xtMut](),
	"xt_U":            reflect.TypeFor[xtU](),
	"xt_WithUnion":    reflect.TypeFor[xtWithUnion](),
	"interop_Sample":  reflect.TypeFor[interopSample](),
	"interop_SampleA": reflect.TypeFor[interopSampleA](),
}

// goldenBytes reads testdata/golden.txt: lines "TYPE_INFO_CDR_<name> <hex>" and
// "TYPE_MAP_CDR_<name> <hex>" taken from idlc's generated C.
func goldenBytes(t *testing.T) map[string][]byte {
	t.Helper()
	b, err := os.ReadFile("testdata/golden.txt")
	require.NoError(t, err)
	m := map[string][]byte{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, " ")
		require.True(t, ok, line)
		m[k], err = hex.DecodeString(v)
		require.NoError(t, err, k)
	}
	return m
}

var idlcArray = regexp.MustCompile(`#define (TYPE_(?:INFO|MAP)_CDR_\w+) \(unsigned char \[\]\)\{([^}]*)\}`)

// idlcBytes runs idlc on the IDL files and returns the TYPE_INFO_CDR and TYPE_MAP_CDR
// arrays of the C it generates.
func idlcBytes(t *testing.T, files ...string) map[string][]byte {
	t.Helper()
	idlc, err := exec.LookPath("idlc")
	if err != nil {
		t.Skip("needs idlc (Cyclone DDS, Debian package cyclonedds-tools)")
	}
	dir := t.TempDir()
	m := map[string][]byte{}
	for _, f := range files {
		abs, err := filepath.Abs(f)
		require.NoError(t, err)
		cmd := exec.Command(idlc, "-x", "final", abs)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		c, err := os.ReadFile(filepath.Join(dir, strings.TrimSuffix(filepath.Base(f), ".idl")+".c"))
		require.NoError(t, err)
		for _, g := range idlcArray.FindAllStringSubmatch(string(c), -1) {
			var bs []byte
			for _, tok := range strings.Split(g[2], ",") {
				tok = strings.TrimSpace(strings.Trim(strings.TrimSpace(tok), "\\"))
				if tok == "" {
					continue
				}
				v, err := hex.DecodeString(strings.TrimPrefix(tok, "0x"))
				require.NoError(t, err, tok)
				bs = append(bs, v...)
			}
			m[g[1]] = bs
		}
	}
	return m
}

var goldenIDL = []string{"testdata/types.idl", "../../interop/idl/Sample.idl"}

// TestGoldenIsIdlc checks that testdata/golden.txt is what idlc generates (-update
// rewrites it), so that the golden test below compares with idlc itself.
func TestGoldenIsIdlc(t *testing.T) {
	fresh := idlcBytes(t, goldenIDL...)
	if *update {
		keys := make([]string, 0, len(fresh))
		for k := range fresh {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var sb strings.Builder
		sb.WriteString("# TYPE_INFO_CDR and TYPE_MAP_CDR of Cyclone DDS 0.10.2 idlc -x final for " + strings.Join(goldenIDL, ", ") + "\n")
		for _, k := range keys {
			sb.WriteString(k + " " + hex.EncodeToString(fresh[k]) + "\n")
		}
		require.NoError(t, os.WriteFile("testdata/golden.txt", []byte(sb.String()), 0o644))
	}
	require.Equal(t, fresh, goldenBytes(t))
}

// TestGoldenIdlc compares the TypeInformation and TypeMapping built from the Go types
// with idlc's, byte for byte.
func TestGoldenIdlc(t *testing.T) {
	g := goldenBytes(t)
	for name, rt := range goldenTypes {
		t.Run(name, func(t *testing.T) {
			d, err := cdr.Describe(rt)
			require.NoError(t, err)
			types, err := Build(d)
			require.NoError(t, err)
			info := types.Info()
			require.Equal(t, hex.EncodeToString(g["TYPE_INFO_CDR_"+name]), hex.EncodeToString(info.Append(nil)), "TypeInformation")
			require.Equal(t, hex.EncodeToString(g["TYPE_MAP_CDR_"+name]), hex.EncodeToString(types.AppendMapping(nil)), "TypeMapping")
		})
	}
}
