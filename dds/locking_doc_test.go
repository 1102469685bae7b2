package dds

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLockingDocNamesEveryMutex: docs/locking.md gives the order of every lock, so each
// sync.Mutex or sync.RWMutex field of a struct of package dds or its internal packages
// is named there as Type.field; a lock added without its place in the order fails here.
func TestLockingDocNamesEveryMutex(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "locking.md"))
	require.NoError(t, err)
	dirs := []string{"."}
	internal, err := filepath.Glob(filepath.Join("internal", "*"))
	require.NoError(t, err)
	dirs = append(dirs, internal...)
	fset := token.NewFileSet()
	n := 0
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			af, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
			require.NoError(t, err)
			ast.Inspect(af, func(node ast.Node) bool {
				ts, ok := node.(*ast.TypeSpec)
				if !ok {
					return true
				}
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					return true
				}
				for _, fl := range st.Fields.List {
					se, ok := fl.Type.(*ast.SelectorExpr)
					if !ok || (se.Sel.Name != "Mutex" && se.Sel.Name != "RWMutex") {
						continue
					}
					if x, ok := se.X.(*ast.Ident); !ok || x.Name != "sync" {
						continue
					}
					for _, name := range fl.Names {
						n++
						ref := ts.Name.Name + "." + name.Name
						require.Contains(t, string(doc), ref, "%s: %s is not in docs/locking.md", fset.Position(name.Pos()), ref)
					}
				}
				return true
			})
		}
	}
	require.Greater(t, n, 20, "the scan found the package's mutexes")
}
