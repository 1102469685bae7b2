package main

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/internal/netns"
)

// gadget is a type ddsping has no Go type for; it names its members (as ddsgen generates
// them), so its writers announce its TypeObjects.
type (
	gadget struct {
		ID    int32        `dds:"key,name=id"`
		Label string       `dds:"name=label"`
		Pos   gadgetPos    `dds:"name=pos"`
		Mode  gadgetMode   `dds:"name=mode"`
		Tags  []string     `dds:"name=tags"`
		Trail [2]gadgetPos `dds:"name=trail"`
	}
	gadgetPos struct {
		X float64 `dds:"name=x"`
		Y float64 `dds:"name=y"`
	}
	gadgetMode int32
)

func (gadget) DDSTypeName() string                 { return "acme::Gadget" }
func (gadget) DDSExtensibility() dds.Extensibility { return dds.Appendable }
func (gadgetPos) DDSTypeName() string              { return "acme::Pos" }
func (gadgetMode) DDSTypeName() string             { return "acme::Mode" }
func (gadgetMode) DDSEnumerators() ([]string, []int32) {
	return []string{"IDLE", "BUSY"}, []int32{0, 1}
}

// ddspingBinary builds ddsping into a temporary directory: a process of its own, whose
// types are not the test's.
func ddspingBinary(t *testing.T) string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build ddsping")
	}
	bin := filepath.Join(t.TempDir(), "ddsping")
	out, err := exec.Command(gobin, "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	return bin
}

// dynamicDomain is the domain of the dynamic-type tests.
const dynamicDomain = 50

// TestEchoDynamic runs the ddsping binary on topics whose types it has no Go type for:
// it resolves the writer's type with TypeLookup and prints the samples as JSON with the
// members' names; a type announced without TypeObjects prints in hex.
func TestEchoDynamic(t *testing.T) {
	netns.Require(t)
	bin := ddspingBinary(t)
	publishOn(t, dynamicDomain, "gadgets", func(i int) gadget {
		return gadget{
			ID: 7, Label: "g", Pos: gadgetPos{X: 1.5, Y: -2}, Mode: 1, Tags: []string{"a", "b"},
			Trail: [2]gadgetPos{{X: float64(i)}, {Y: 3}},
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "echo", "-domain", "50", "-count", "2", "gadgets").Output()
	require.NoError(t, err, "%s", out)
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	require.Len(t, lines, 2, "%s", out)
	for _, l := range lines {
		require.True(t, strings.HasPrefix(l, `{"id":7,"label":"g","pos":{"x":1.5,"y":-2},"mode":"BUSY","tags":["a","b"],"trail":[{"x":`), l)
		var v struct {
			Trail []struct{ X, Y float64 }
		}
		require.NoError(t, json.Unmarshal([]byte(l), &v))
		require.Len(t, v.Trail, 2)
		require.Equal(t, 3.0, v.Trail[1].Y)
	}

	publishOn(t, dynamicDomain, "mysteries", func(int) mystery { return mystery{X: 0x01020304} })
	out, err = exec.CommandContext(ctx, bin, "echo", "-domain", "50", "-count", "1", "mysteries").Output()
	require.NoError(t, err, "%s", out)
	require.JSONEq(t, `{"hex":"0001000004030201"}`, strings.TrimSpace(string(out)))
}
