// Package testsrc walks the module's own Go source for tests that hold a
// rule of the code itself (no count said by hand, no string made an
// escape.Text): each non-test Go file, parsed.
package testsrc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// Walk calls fn with every Go file of the module under root but tests,
// testdata and bin, parsed into fset (positions for messages). It fails t
// when it cannot read them, or finds fewer than 100: root is then not the
// module.
func Walk(t testing.TB, root string, fn func(path string, fset *token.FileSet, f *ast.File)) {
	t.Helper()
	fset := token.NewFileSet()
	scanned := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "testdata", "bin":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		scanned++
		fn(path, fset, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if scanned < 100 {
		t.Fatalf("the module was not found under %s: it holds only %d Go files but tests", root, scanned)
	}
}
