package main

import (
	"bufio"
	"bytes"
	"crypto/md5"
	"encoding/binary"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ddsgo/ddsgo/cmd/ddsgen/internal/wirecheck"
	"github.com/ddsgo/ddsgo/internal/cdr"
	"github.com/stretchr/testify/require"
)

// wireCase encodes a Go sample and checks that Cyclone's bytes decode to it.
type wireCase struct {
	enc     func(version2 bool) ([]byte, error)
	dec     func(t *testing.T, version2 bool, body []byte)
	keyHash func() (cdr.KeyHash, error)
}

func wireCaseOf[T any](v *T) wireCase {
	return wireCase{
		enc: func(v2 bool) ([]byte, error) { return body(v, v2) },
		dec: func(t *testing.T, v2 bool, b []byte) {
			c, err := cdr.NewCodec[T]()
			require.NoError(t, err)
			in := binary.BigEndian.AppendUint16(nil, uint16(cdr.Encapsulation(c.Extensibility(), v2, false)))
			in = append(append(in, 0, 0), b...)
			var out T
			require.NoError(t, c.Unmarshal(in, &out))
			require.Equal(t, *v, out)
		},
		keyHash: func() (cdr.KeyHash, error) {
			c, err := cdr.NewCodec[T]()
			if err != nil {
				return cdr.KeyHash{}, err
			}
			return c.KeyHash(v), nil
		},
	}
}

// wireSamples are the values internal/wirecheck/testdata/fill.c fills in C.
func wireSamples() map[string]wireCase {
	maybe, five := int32(42), int32(5)
	note := "note"
	final := wirecheck.Final{
		ID: 7, B: true, C: 'x', O: 0xab, S: -2, Us: 65000, L: -100000, Ul: 4000000000,
		Ll: -5000000000000, Ull: 18000000000000000000, F: 1.5, D: -2.25, Text: "hello",
		ShortText: "short", Longs: []int32{1, 2, 3}, Names: []string{"a", "bc"},
		Pts:  [2]wirecheck.Point{{X: 1, Y: 2}, {X: 3, Y: 4}},
		Path: []wirecheck.Point{{X: 5, Y: 6}}, Color: wirecheck.Color_BLUE,
		Choice:        wirecheck.Choice{Disc: 3, Text: "ten"},
		ChoiceDefault: wirecheck.Choice{Disc: 9, Values: [2]float64{0.5, 0.25}},
		ByColor:       wirecheck.ByColor{Disc: wirecheck.Color_GREEN, G: "green"},
		Nested:        [][]int16{{1, 2}, nil, {3}},
	}
	app := wirecheck.App{
		ID: 8, Maybe: &maybe, Note: &note, Inner: wirecheck.AppInner{A: 1, S: "in"},
		Inners: []wirecheck.AppInner{{A: 2, S: "x"}, {A: 3, S: ""}},
		Choice: wirecheck.Choice{Disc: 1, Num: 77}, P: wirecheck.Point{X: 1.25, Y: -1},
		AppChoice: wirecheck.AppChoice{Disc: 2, S: "u"},
	}
	mut := wirecheck.Mut{
		Mid: 9, Name: "mut", Value: 3.5, Maybe: &five, Items: []int32{10, 20},
		Inner: wirecheck.AppInner{A: 4, S: "deep"},
	}
	grid := wirecheck.Grid{
		Cells:   [2][3]int32{{1, 2, 3}, {4, 5, 6}},
		Corners: [2][2]wirecheck.Point{{{X: 1, Y: 2}, {X: 3, Y: 4}}, {{X: 5, Y: 6}, {X: 7, Y: 8}}},
	}
	keyed := wirecheck.Keyed{A: 0x01020304, Name: "sixsix", O: 0xee, Value: 1}
	keyedLong := wirecheck.KeyedLong{Name: "a", A: 5}
	derived := wirecheck.Derived{ID: 2, Name: "derived", Value: 6.5, Raw: []byte{1, 2, 3}}
	return map[string]wireCase{
		"Final":     wireCaseOf(&final),
		"App":       wireCaseOf(&app),
		"Mut":       wireCaseOf(&mut),
		"Grid":      wireCaseOf(&grid),
		"Derived":   wireCaseOf(&derived),
		"Keyed":     wireCaseOf(&keyed),
		"KeyedLong": wireCaseOf(&keyedLong),
	}
}

// body is the CDR of v without the encapsulation header and the end padding, as
// Cyclone's dds_stream_write writes it.
func body[T any](v *T, version2 bool) ([]byte, error) {
	c, err := cdr.NewCodec[T]()
	if err != nil {
		return nil, err
	}
	b, err := c.Marshal(nil, cdr.Encapsulation(c.Extensibility(), version2, false), v)
	if err != nil {
		return nil, err
	}
	return b[4 : len(b)-int(b[3]&3)], nil
}

// TestWireMatchesCyclone builds internal/wirecheck/testdata/fill.c against the type
// support idlc generates from wire.idl and compares the bytes Cyclone DDS serializes with
// those ddsgo's codec writes for the Go types ddsgen generates from the same IDL. It is
// skipped without idlc, a C compiler and libddsc (make -C interop installs them).
func TestWireMatchesCyclone(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a C program")
	}
	idlc, err1 := exec.LookPath("idlc")
	cc, err2 := exec.LookPath("cc")
	if err1 != nil || err2 != nil {
		t.Skip("needs idlc (Cyclone DDS) and cc")
	}
	dir := t.TempDir()
	src, err := filepath.Abs(filepath.Join("internal", "wirecheck"))
	require.NoError(t, err)
	run := func(name string, args ...string) []byte {
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		var out, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &stderr
		if err := cmd.Run(); err != nil {
			t.Skipf("%s: %v: %s", name, err, stderr.String()) // Cyclone DDS development files missing
		}
		return out.Bytes()
	}
	run(idlc, filepath.Join(src, "wire.idl"))
	run(cc, "-I.", "-o", "fill", filepath.Join(src, "testdata", "fill.c"), "wire.c", "-lddsc")
	out := run(filepath.Join(dir, "fill"))

	samples := wireSamples()
	seen := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		require.Len(t, f, 3, "fill output %q", sc.Text())
		seen++
		if strings.HasPrefix(f[1], "key") {
			t.Run(f[0]+"/keyhash", func(t *testing.T) { checkKeyHash(t, f[0], samples[f[0]], f[1] == "key1", f[2]) })
			continue
		}
		t.Run(f[0]+"/XCDR"+f[1], func(t *testing.T) {
			wc, ok := samples[f[0]]
			require.True(t, ok, "no Go sample for %s", f[0])
			want, err := hex.DecodeString(f[2])
			require.NoError(t, err)
			got, err := wc.enc(f[1] == "2")
			require.NoError(t, err)
			why, known := knownWireDiffs[f[0]+" "+f[1]]
			if !known {
				require.Equal(t, hex.EncodeToString(want), hex.EncodeToString(got), "ddsgo writes other bytes")
			} else if bytes.Equal(want, got) {
				t.Fatalf("the known difference is gone: remove %q from knownWireDiffs", f[0]+" "+f[1])
			}
			if !known || why.decodes {
				wc.dec(t, f[1] == "2", want) // what Cyclone writes, ddsgo reads
			}
			if known {
				t.Skipf("known difference: %s\ncyclone %x\nddsgo   %x", why.what, want, got)
			}
		})
	}
	require.Equal(t, 14, seen)
}

// checkKeyHash compares ddsgo's key hash with the one Cyclone's key bytes give: the
// bytes zero-padded when idlc found the key fixed within 16 bytes, their MD5 otherwise.
func checkKeyHash(t *testing.T, name string, wc wireCase, fixed bool, keyHex string) {
	require.NotNil(t, wc.keyHash, "no Go sample")
	key, err := hex.DecodeString(keyHex)
	require.NoError(t, err)
	var want cdr.KeyHash
	if fixed {
		copy(want[:], key)
	} else {
		want = md5.Sum(key)
	}
	got, err := wc.keyHash()
	require.NoError(t, err)
	if why, known := knownWireDiffs[name+" key"]; known {
		if want == got {
			t.Fatalf("the known difference is gone: remove %q from knownWireDiffs", name+" key")
		}
		t.Skipf("known difference: %s\ncyclone %x\nddsgo   %x", why.what, want, got)
	}
	require.Equal(t, hex.EncodeToString(want[:]), hex.EncodeToString(got[:]))
}

// knownWireDiffs are differences from Cyclone DDS that are not ddsgen's to fix, by type
// and XCDR version.
var knownWireDiffs = map[string]struct {
	what    string
	decodes bool // ddsgo reads Cyclone's bytes all the same
}{
	"Mut 2": {what: "internal/cdr gives every member of a mutable type an EMHEADER with LC=4 and a " +
		"NEXTINT; Cyclone DDS uses the shorter length codes 0-3, 5 and 6 where they apply: " +
		"XTypes 1.3 allows both", decodes: true},
}

// TestWirecheckTypesUpToDate fails when internal/wirecheck/types.go is not what ddsgen
// generates from wire.idl today (go generate ./cmd/ddsgen/internal/wirecheck).
func TestWirecheckTypesUpToDate(t *testing.T) {
	dir := filepath.Join("internal", "wirecheck")
	got, err := generate(options{pkg: "wirecheck", ext: "final"}, []string{filepath.Join(dir, "wire.idl")})
	require.NoError(t, err)
	want, err := os.ReadFile(filepath.Join(dir, "types.go"))
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))
}
