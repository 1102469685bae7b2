package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/qos"
)

// mustParseArgs parses the peer command line argv, which must be valid: what parseArgs
// reports goes into the failure.
func mustParseArgs(t testing.TB, argv ...string) args {
	t.Helper()
	var stderr bytes.Buffer
	a, _, ok := parseArgs(argv, &stderr)
	require.True(t, ok, stderr.String())
	return a
}

func TestParseArgs(t *testing.T) {
	a := mustParseArgs(t, strings.Fields("-role pub --domain=7 -best-effort -reliable -best-effort -transient-local -keep-last 2 -keys 3 -payload 24 -timeout 1m30s -settle 0.25 -linger=500ms -dispose -appendable -type x::Y -wait-readers 0 -rate 2.5 -count 0 -quiet -xcdr2 -topic T")...)
	require.Equal(t, args{
		pub: true, domain: 7, topic: "T", count: 0, rate: 2.5, reliable: false, durability: qos.TransientLocal,
		keepLast: 2, keys: 3, payload: 24, timeout: 90 * time.Second, dispose: true, appendable: true,
		xcdr2: true, typeName: "x::Y", waitReaders: 0, settle: 250 * time.Millisecond,
		linger: 500 * time.Millisecond, quiet: true,
	}, a)

	a = mustParseArgs(t, "-role", "sub")
	require.Equal(t, args{
		topic: "ddsgo_interop", count: 10, reliable: true, keys: 1, payload: 16, timeout: 10 * time.Second,
		waitReaders: 1, settle: 500 * time.Millisecond,
	}, a)
	require.Equal(t, 2500*time.Millisecond, mustParseArgs(t, "-role", "pub", "-lifespan", "2.5s").lifespan)

	a = mustParseArgs(t, "-role", "pub", "-ownership-strength", "-3")
	require.True(t, a.exclusive)
	require.Equal(t, int32(-3), a.strength)
	a = mustParseArgs(t, "-role", "sub", "-ownership-strength=0")
	require.True(t, a.exclusive, "any strength, 0 included, selects EXCLUSIVE")

	for _, bad := range []string{
		"-role pub -ownership-strength 2147483648", "-role pub -ownership-strength x",
		"", "-domain 1", "-role both", "-role pub -domain 233", "-role pub -keys 0", "-role pub -timeout -1",
		"-role pub -timeout 1x", "-role pub -dispose -unregister", "-role pub -reliable=false",
		"-role pub extra", "-role pub -rate -1", "-role pub -nosuch", "-role pub -count",
	} {
		var stderr bytes.Buffer
		_, code, ok := parseArgs(strings.Fields(bad), &stderr)
		require.False(t, ok, bad)
		require.Equal(t, exitUsage, code, bad)
		require.NotEmpty(t, stderr.String(), bad)
	}
	_, code, ok := parseArgs([]string{"-h"}, io.Discard)
	require.False(t, ok)
	require.Equal(t, exitOK, code)
}

func TestRunUsage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.Equal(t, exitUsage, run(context.Background(), []string{"-role", "x"}, &stdout, &stderr))
	require.Empty(t, stdout.String())
}

// The output format of the contract, as interop/README.md spells it out.
func TestPrint(t *testing.T) {
	var out bytes.Buffer
	pr := newTestPeer(&out)
	pr.printSample(&Sample{ID: 1, Text: "ddsgo 1 1", Values: []float64{1, 1.125}, Seq: 1})
	pr.printSample(&Sample{ID: 2, Text: "<&>\"", Seq: 18446744073709551615})
	pr.printSample(&Sample{ID: -3, Values: []float64{1e21, 1e-6, 1.5e-7, 1e-100, math.Copysign(0, -1), 0.1, 123456789}})
	pr.printState(1, "disposed")
	require.Equal(t, `{"id":1,"text":"ddsgo 1 1","values":[1,1.125],"seq":1}
{"id":2,"text":"\u003c\u0026\u003e\"","values":[],"seq":18446744073709551615}
{"id":-3,"text":"","values":[1e+21,0.000001,1.5e-7,1e-100,-0,0.1,123456789],"seq":0}
{"id":1,"state":"disposed"}
`, out.String())
}

func newTestPeer(w io.Writer) *peer {
	out := bufio.NewWriter(w)
	return &peer{out: out, enc: json.NewEncoder(out)}
}
