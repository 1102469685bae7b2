package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// memFiles serves IDL files from memory.
func memFiles(files map[string]string) readFunc {
	return func(name string) ([]byte, error) {
		if s, ok := files[filepath.Clean(name)]; ok {
			return []byte(s), nil
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
}

func genString(src string) ([]byte, error) {
	return generate(options{pkg: "p", read: memFiles(map[string]string{"t.idl": src})}, []string{"t.idl"})
}

// TestErrors checks that bad or unsupported IDL is reported at its line and column.
func TestErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"struct S { long x }", "t.idl:1:19: expected \";\", found \"}\""},
		{"struct S { long x; };\nstruct S { long y; };", "t.idl:2:1: S redefines the struct at t.idl:1:1"},
		{"module m {\n  struct S { Foo f; };\n};", "t.idl:2:14: undefined name Foo"},
		{"struct S { wstring w; };", "t.idl:1:12: wstring are not supported"},
		{"struct S { long double d; };", "t.idl:1:12: long double is not supported"},
		{"interface I { };", "t.idl:1:1: interfaces are not supported"},
		{"struct S { map<long, long> m; };", "t.idl:1:12: maps are not supported"},
		{"const long X = 1 / 0;", "t.idl:1:18: division by zero"},
		{"const long X = 1 % 0;", "t.idl:1:18: division by zero"},
		{"const long long X = 1 << 64;", "t.idl:1:23: shift count 64 out of range 0..63"},
		{"const long long X = 1 >> -1;", "t.idl:1:23: shift count -1 out of range 0..63"},
		{"const octet X = 256;", "t.idl:1:17: 256 out of the range of octet"},
		{"const long X = 1.5;", "t.idl:1:16: a floating-point value is not a long"},
		{"const string<2> S = \"abc\";", "t.idl:1:21: string of 3 characters exceeds the bound 2"},
		{"const long A = B;\nconst long B = A;", "refers to itself"},
		{"struct S { long a[0]; };", "t.idl:1:19: a bound must be a positive integer"},
		{"struct S { sequence<long, -1> s; };", "t.idl:1:27: a bound must be a positive integer"},
		{"#if FOO\n#endif", "t.idl:1:1: #if is not supported"},
		{"#define F(x) x", "t.idl:1:9: function-like macro F is not supported"},
		{"#ifdef X\nstruct S { long x; };", "t.idl:1:1: #if without #endif"},
		{"#endif", "t.idl:1:1: #endif without #if"},
		{"#include \"nope.idl\"", "t.idl:1:10: #include \"nope.idl\": not found"},
		{"#error stop here", "t.idl:1:1: #error stop here"},
		{"#frobnicate", "t.idl:1:1: unsupported preprocessor directive #frobnicate"},
		{"/* never closed", "t.idl:1:1: unterminated comment"},
		{"const string S = \"abc;", "t.idl:1:18: unterminated string literal"},
		{"struct S { long $x; };", "t.idl:1:17: unexpected character '$'"},
		{"union U switch (double) { case 1: long a; };", "t.idl:1:17: a union discriminator must be"},
		{"union U switch (long) { case 1: long a; case 1: long b; };", "t.idl:1:46: case label 1 repeats"},
		{"@mutable union U switch (long) { case 1: long a; };", "mutable unions are not supported"},
		{"struct S { @key @optional long a; };", "t.idl:1:32: member a: a key member cannot be optional"},
		{"struct S { long my_x; long myX; };", "t.idl:1:28: S: members myX and my_x"},
		{"module a { struct P { long x; }; };\nmodule b { struct P { long x; }; };", "t.idl:2:12: struct b::P and struct a::P (t.idl:1:12) both map to the Go name P"},
		{"struct S;\nstruct T { sequence<S> s; };", "t.idl:2:21: S is declared but never defined"},
		{"@extensibility(SOMETIMES) struct S { long x; };", "t.idl:1:1: @extensibility takes FINAL, APPENDABLE or MUTABLE"},
		{"@appendable struct B { long x; };\n@mutable struct D : B { long y; };", "t.idl:2:10: struct D is mutable but its base B is appendable"},
		{"struct S { long x; };\n#pragma keylist S y", "t.idl:1:1: #pragma keylist: S has no member y"},
		{"const long X = 1 << 64;", "t.idl:1:18: shift count 64 out of range"},
		{"const long long X = 0xFFFFFFFFFFFFFFFF * 2;", "t.idl:1:40: integer constant overflows 64 bits"},
		{"struct S { string<N> s; };", "t.idl:1:19: undefined name N"},
		{"module m { };", "t.idl:1:1: module m is empty"},
		{"typedef struct X { long a; } Y;", "t.idl:1:9: a struct defined inside a typedef is not supported"},
		{"enum E { A, A };", "t.idl:1:13: enumerator A twice"},
		{"@bit_bound(40) enum E { A };", "t.idl:1:1: @bit_bound of an enum must be 1..32"},
		{"const fixed F = 1.5d;", "t.idl:1:7: fixed are not supported"},
		{"struct S { long x; } ;\n@annotation A { };", "t.idl:2:1: annotation definitions are not supported"},
		{"#define A B\n#define B A\nconst long X = A;", "t.idl:3:16: macro A: too many expansions"},
		{"const char C = '\\u0041';", "t.idl:1:16: \\u escapes"},
		{"struct S { long x; };\n}", "t.idl:2:1: expected a definition, found \"}\""},
		{"module m { struct S { long x; };", "t.idl:1:33: module m: missing '}'"},
		{"const string SHORT = \"a\";", "t.idl:1:14: identifier SHORT differs from the keyword short only in case"},
		{"struct S { long x; };\nstruct s { long y; };", "t.idl:2:1: s and the struct S at t.idl:1:1 differ only in case"},
		{"enum E { A, @value(0) B };", "t.idl:1:23: enumerators B and A of E have the same value 0"},
	}
	for _, tt := range tests {
		t.Run(strings.SplitN(tt.src, "\n", 2)[0], func(t *testing.T) {
			_, err := genString(tt.src)
			require.Error(t, err)
			require.Contains(t, err.Error(), tt.want)
		})
	}
}

// TestErrorsInIncludedFile reports errors at the included file's line and column.
func TestErrorsInIncludedFile(t *testing.T) {
	read := memFiles(map[string]string{
		"t.idl":           "#include <dir/inc.idl>\nstruct S { long x; };",
		"inc/dir/inc.idl": "\n\n  struct T { bad b; };",
	})
	_, err := generate(options{pkg: "p", read: read, incDirs: []string{"inc"}}, []string{"t.idl"})
	var pe *posError
	require.True(t, errors.As(err, &pe), "%v", err)
	require.Equal(t, "inc/dir/inc.idl:3:14: undefined name bad", err.Error())
}

// TestPreprocessor covers guards, #else, macros and once-only includes.
func TestPreprocessor(t *testing.T) {
	read := memFiles(map[string]string{
		"t.idl": `#include "a.idl"
#include "a.idl"
#define N 3
#define M N + 1
#ifdef N
const long X = M;
#else
const long X = 0;
#endif
#ifndef N
this is not IDL
#else
const long Y = X;
#endif
#undef N
#ifdef N
nor this
#endif
#pragma once
#pragma unknown things
struct S { long a[N2]; };`,
		"a.idl": "#ifndef A_IDL\n#define A_IDL\n#define N2 2\n// once\nconst long FROM_A = 1;\n#endif\n",
	})
	src, err := generate(options{pkg: "p", read: read}, []string{"t.idl"})
	require.NoError(t, err)
	s := string(src)
	require.Contains(t, s, "const X int32 = 4")
	require.Contains(t, s, "const Y int32 = 4")
	require.Contains(t, s, "A [2]int32")
	require.Equal(t, 1, strings.Count(s, "FROM_A int32 = 1"))
}

// TestExamples generates the examples of the docs without errors.
func TestExamples(t *testing.T) {
	for _, src := range []string{
		"module m { struct S { @key long id; }; };",
		"module m { @appendable struct S { @key long id; string<8> name; }; };",
		"struct _struct { long _module; };", // escaped keywords
		"module m { module n { struct S { ::m::n::S2 x; }; struct S2 { long a; }; }; };",
		"struct Node; struct Node { sequence<Node> kids; @optional Node next_node; };", // idlc hangs on it
		"enum Level { LOW }; const Level L = Level::LOW;",                              // IDL 4 scoping; idlc wants LOW
		"typedef sequence<sequence<long>> Grid; const string<3> S = \"abc\";",          // idlc wants '> >' and no bound
		"struct S { long interface; };",
	} {
		_, err := genString(src)
		require.NoError(t, err, src)
	}
}

// FuzzGenerate feeds arbitrary input to the whole pipeline: errors are fine, panics are not.
func FuzzGenerate(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "golden", "*.idl"))
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(string(b))
		}
	}
	f.Add("union U switch (long) { case 1: long a; default: string b; };")
	f.Add("const long X = (1 << 3) | ~0 + 'a';")
	f.Add("#define A 1\n#ifdef A\nconst long B = A;\n#endif")
	f.Fuzz(func(t *testing.T, src string) {
		tm := time.AfterFunc(3*time.Second, func() { panic(fmt.Sprintf("slow input %q", src)) })
		_, _ = genString(src)
		tm.Stop()
	})
}
