// Command apicount counts the exported identifiers of the module's public packages:
// top-level names, exported methods of exported types and exported fields of exported
// struct types. Packages under internal/, commands, tests and generated files (the
// "Code generated ... DO NOT EDIT." line, as go vet and linters recognize them: the ROS 2
// types under ros/) are not counted.
//
// Usage: go run ./scripts/apicount [-v] [DIR]
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	verbose := flag.Bool("v", false, "list the identifiers")
	flag.Parse()
	root := "."
	if flag.NArg() > 0 {
		root = flag.Arg(0)
	}
	ids, err := collect(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	report(ids, *verbose)
}

// collect returns the exported identifiers of each public package below root, by
// directory.
func collect(root string) (map[string][]string, error) {
	ids := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if path != root && skipped(d.Name()) {
			return filepath.SkipDir
		}
		names, err := packageIDs(path)
		if len(names) > 0 {
			ids[path] = names
		}
		return err
	})
	return ids, err
}

// skipped reports whether the directory base holds no public package: internal,
// commands, interop peers, benchmarks, examples, test data and hidden directories.
func skipped(base string) bool {
	switch base {
	case "internal", "testdata", "cmd", "interop", "bench", "examples":
		return true
	}
	return strings.HasPrefix(base, ".")
}

// packageIDs returns the exported identifiers of the non-test Go files of the
// directory dir, none for a main package.
func packageIDs(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var ids []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.PackageClauseOnly)
		if err != nil {
			return ids, err
		}
		if f.Name.Name == "main" {
			break
		}
		if f, err = parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments); err != nil {
			return ids, err
		}
		if ast.IsGenerated(f) {
			continue
		}
		ids = append(ids, exported(f)...)
	}
	return ids, nil
}

// report prints the count of each package and the total, with verbose first every
// identifier.
func report(ids map[string][]string, verbose bool) {
	dirs := make([]string, 0, len(ids))
	var names []string
	total := 0
	for d, n := range ids {
		dirs = append(dirs, d)
		total += len(n)
		for _, id := range n {
			names = append(names, d+": "+id)
		}
	}
	sort.Strings(dirs)
	if verbose {
		sort.Strings(names)
		for _, n := range names {
			fmt.Println(n)
		}
	}
	for _, d := range dirs {
		fmt.Printf("%5d %s\n", len(ids[d]), d)
	}
	fmt.Printf("%5d total\n", total)
}

// exported lists the exported identifiers that f declares.
func exported(f *ast.File) []string {
	var out []string
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			if d.Recv == nil {
				out = append(out, d.Name.Name)
				continue
			}
			if recv := recvName(d.Recv.List[0].Type); ast.IsExported(recv) {
				out = append(out, recv+"."+d.Name.Name)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							out = append(out, n.Name)
						}
					}
				case *ast.TypeSpec:
					if !s.Name.IsExported() {
						continue
					}
					out = append(out, s.Name.Name)
					out = append(out, members(s.Name.Name, s.Type)...)
				}
			}
		}
	}
	return out
}

// members lists the exported fields of a struct type and the exported methods of an
// interface type.
func members(typ string, t ast.Expr) []string {
	var list *ast.FieldList
	switch x := t.(type) {
	case *ast.StructType:
		list = x.Fields
	case *ast.InterfaceType:
		list = x.Methods
	default:
		return nil
	}
	var out []string
	for _, f := range list.List {
		for _, n := range f.Names {
			if n.IsExported() {
				out = append(out, typ+"."+n.Name)
			}
		}
		if len(f.Names) == 0 { // embedded
			if name := recvName(f.Type); ast.IsExported(name) {
				out = append(out, typ+"."+name)
			}
		}
	}
	return out
}

func recvName(t ast.Expr) string {
	switch x := t.(type) {
	case *ast.StarExpr:
		return recvName(x.X)
	case *ast.IndexExpr:
		return recvName(x.X)
	case *ast.IndexListExpr:
		return recvName(x.X)
	case *ast.SelectorExpr:
		return x.Sel.Name
	case *ast.Ident:
		return x.Name
	}
	return ""
}
