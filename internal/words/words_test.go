package words

import (
	"go/ast"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/kedit/kedit/internal/testsrc"
)

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		noun string
		want string
	}{
		{0, "conflict", "0 conflicts"},
		{1, "conflict", "1 conflict"},
		{2, "conflict", "2 conflicts"},
		{1, "entry", "1 entry"},
		{3, "entry", "3 entries"},
		{2, "key", "2 keys"},
		{2, "match", "2 matches"},
		{2, "older version", "2 older versions"},
		{5, "stored draft", "5 stored drafts"},
		{41, "byte", "41 bytes"},
	} {
		if got := Count(c.n, c.noun); got != c.want {
			t.Errorf("Count(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
	if Agree(1, "is", "are") != "is" || Agree(2, "is", "are") != "are" || Agree(0, "is", "are") != "are" {
		t.Error("Agree does not agree")
	}
}

// handMade are the shapes of a count said without Count: a verb in a format
// after a number ("%d conflicts"), a number glued to a plural ("conflict(s)"),
// and a literal plural right after strconv.Itoa or fmt.Sprint.
var handMade = []*regexp.Regexp{
	regexp.MustCompile(`(?:^|[^-])%d ([a-z]+s)\b`),
	regexp.MustCompile(`[a-z]\((e?s)\)`),
}

// verbs end in s but count nothing: "port %d is not", "1-%d recovers".
var verbs = map[string]bool{"is": true, "was": true, "has": true, "does": true}

var pluralWord = regexp.MustCompile(`^ [a-z]+s\b`)

// TestNoHandMadePlurals scans every Go file of the module but tests for
// counts that do not go through Count: each would read "1 conflicts" or
// "conflict(s)" for some number.
func TestNoHandMadePlurals(t *testing.T) {
	testsrc.Walk(t, filepath.Join("..", ".."), func(_ string, fset *token.FileSet, f *ast.File) {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if n.Kind != token.STRING {
					return true
				}
				s, err := strconv.Unquote(n.Value)
				if err != nil {
					return true
				}
				for _, re := range handMade {
					if m := re.FindStringSubmatch(s); m != nil && !verbs[m[1]] {
						t.Errorf("%s: %q counts by hand (%q): use words.Count", fset.Position(n.Pos()), s, m[0])
					}
				}
			case *ast.BinaryExpr:
				lit, ok := n.Y.(*ast.BasicLit)
				if n.Op != token.ADD || !ok || lit.Kind != token.STRING || !isNumberText(n.X) {
					return true
				}
				if s, err := strconv.Unquote(lit.Value); err == nil && pluralWord.MatchString(s) {
					t.Errorf("%s: a number followed by %q counts by hand: use words.Count", fset.Position(n.Pos()), s)
				}
			}
			return true
		})
	})
}

// isNumberText reports whether e is strconv.Itoa(...) or fmt.Sprint(...).
func isNumberText(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && (pkg.Name == "strconv" && sel.Sel.Name == "Itoa" || pkg.Name == "fmt" && sel.Sel.Name == "Sprint")
}
