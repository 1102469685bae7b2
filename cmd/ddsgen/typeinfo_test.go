package main

import (
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/cmd/ddsgen/internal/wirecheck"
	"github.com/ddsgo/ddsgo/internal/cdr"
	"github.com/ddsgo/ddsgo/internal/xtypes"
)

var idlcTypeInfo = regexp.MustCompile(`#define TYPE_INFO_CDR_(\w+) \(unsigned char \[\]\)\{([^}]*)\}`)

// TestTypeInformationMatchesIdlc checks ddsgen's choice of the types that carry their
// IDL names (exact.go): the TypeInformation ddsgo announces for each generated type of
// internal/wirecheck that has them is, byte for byte, what idlc generates from wire.idl;
// the others (Final: char; Mut: @hashid; Derived: a base struct) would announce
// another one and so announce none.
func TestTypeInformationMatchesIdlc(t *testing.T) {
	idlc, err := exec.LookPath("idlc")
	if err != nil {
		t.Skip("needs idlc (Cyclone DDS)")
	}
	dir := t.TempDir()
	src, err := filepath.Abs(filepath.Join("internal", "wirecheck", "wire.idl"))
	require.NoError(t, err)
	cmd := exec.Command(idlc, "-x", "final", src)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	c, err := os.ReadFile(filepath.Join(dir, "wire.c"))
	require.NoError(t, err)
	want := map[string]string{}
	for _, m := range idlcTypeInfo.FindAllStringSubmatch(string(c), -1) {
		var sb strings.Builder
		for _, tok := range strings.Split(m[2], ",") {
			sb.WriteString(strings.TrimPrefix(strings.TrimSpace(strings.Trim(strings.TrimSpace(tok), "\\")), "0x"))
		}
		want[strings.TrimPrefix(m[1], "wire_")] = sb.String()
	}

	named := map[string]bool{}
	for _, rt := range []reflect.Type{
		reflect.TypeFor[wirecheck.Choice](), reflect.TypeFor[wirecheck.ByColor](), reflect.TypeFor[wirecheck.Point](),
		reflect.TypeFor[wirecheck.Final](), reflect.TypeFor[wirecheck.AppInner](), reflect.TypeFor[wirecheck.AppChoice](),
		reflect.TypeFor[wirecheck.App](), reflect.TypeFor[wirecheck.Mut](), reflect.TypeFor[wirecheck.Grid](),
		reflect.TypeFor[wirecheck.Keyed](), reflect.TypeFor[wirecheck.KeyedLong](), reflect.TypeFor[wirecheck.Base](),
		reflect.TypeFor[wirecheck.Derived](),
	} {
		d, err := cdr.Describe(rt)
		require.NoError(t, err, rt)
		if !xtypes.Named(d) {
			continue
		}
		named[rt.Name()] = true
		types, err := xtypes.Build(d)
		require.NoError(t, err, rt)
		info := types.Info()
		w, ok := want[rt.Name()]
		require.True(t, ok, "idlc made no TypeInformation for %s", rt.Name())
		require.Equal(t, w, hex.EncodeToString(info.Append(nil)), rt.Name())
	}
	// What exact.go decides for wire.idl; a change here is a change of what ddsgo announces.
	require.Equal(t, map[string]bool{
		"Choice": true, "ByColor": true, "Point": true, "AppInner": true, "AppChoice": true, "App": true,
		"Grid": true, "Keyed": true, "KeyedLong": true, "Base": true,
	}, named)
}
