package escape

import (
	"errors"
	"go/ast"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kedit/kedit/internal/testsrc"
)

// TestTextfEscapesEachArgumentOnce: a string, an error or a Stringer is
// escaped, a Text is taken as it is (never escaped again), a number is
// written as fmt writes it; %q quotes as Quoted; a width pads what is
// drawn.
func TestTextfEscapesEachArgumentOnce(t *testing.T) {
	raw := "a\\b\x1b[2J"
	safe := Safe(raw)
	for _, tc := range []struct {
		got  Text
		want string
	}{
		{Textf("rv %s", raw), `rv a\\b\x1b[2J`},
		{Textf("rv %s", safe), `rv a\\b\x1b[2J`},
		{Textf("rv %v: %s", errors.New(raw), safe+" and "+safe), `rv a\\b\x1b[2J: a\\b\x1b[2J and a\\b\x1b[2J`},
		{Textf("%d of %s", 3, "x"), "3 of x"},
		{Textf("ns %q", "a\"\u202e"), `ns "a\"\u202e"`},
		{Textf("ns %q", Safe("a\"\u202e")), `ns "a\"\u202e"`},
		{Textf("%-6s|", "\x07"), `\x07  |`},
		{Textf("%s", stringer{raw}), `a\\b\x1b[2J`},
	} {
		if string(tc.got) != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	if Safe(string(safe)) == safe {
		t.Error("escaping a Text's string again changes nothing: the test shows nothing")
	}
	if got := Join([]Text{Safe("\r"), "b"}, ", "); got != `\r, b` {
		t.Errorf("Join = %q", got)
	}
	if got := Replace(Safe("a \x1b z"), "z", Safe("\x07"), 1); got != `a \x1b \x07` {
		t.Errorf("Replace = %q", got)
	}
	if got := TrimPrefix(Safe("\x00x"), `\x00`); got != "x" {
		t.Errorf("TrimPrefix = %q", got)
	}
	if got := Truncate(Safe("abc\x1b"), 4); got != "abc…" {
		t.Errorf("Truncate = %q", got)
	}
}

type stringer struct{ s string }

func (s stringer) String() string { return s.s }

// TestNoConversionToText: outside this package, no code converts a string
// to a Text (escape.Text(s)): server text becomes Text only escaped
// (Safe, SafeQuoted, SafeYAML, Textf), and kedit's own words are
// constants, which need no conversion. In the UI, a Text's string is
// never escaped again either (escape.Safe(string(t))), which would draw
// its escapes' backslashes doubled.
func TestNoConversionToText(t *testing.T) {
	root := filepath.Join("..", "..")
	ui := filepath.Join(root, "ui") + string(filepath.Separator)
	self := filepath.Join(root, "internal", "escape") + string(filepath.Separator)
	testsrc.Walk(t, root, func(path string, fset *token.FileSet, f *ast.File) {
		if strings.HasPrefix(path, self) {
			return
		}
		inUI := strings.HasPrefix(path, ui)
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			name := escapeFunc(call.Fun)
			if name == "Text" {
				t.Errorf("%s: a string converted to escape.Text: escape it (escape.Safe) or make it a constant", fset.Position(call.Pos()))
			}
			if !inUI {
				return true
			}
			for i, a := range call.Args {
				if (escapes[name] && i == 0 || name == "Textf" && i > 0) && isStringConversion(a) {
					t.Errorf("%s: escape.%s(string(...)): a Text is escaped already; a string to escape needs no conversion", fset.Position(call.Pos()), name)
				}
			}
			return true
		})
	})
}

// escapes are the functions of package escape that escape their first
// argument.
var escapes = map[string]bool{"Safe": true, "SafeQuoted": true, "SafeYAML": true, "String": true, "Quoted": true, "Styled": true, "Source": true}

// escapeFunc is the name of the function of package escape that fun
// names (escape.X), "" for any other.
func escapeFunc(fun ast.Expr) string {
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "escape" {
		return sel.Sel.Name
	}
	return ""
}

// isStringConversion reports whether e is string(x).
func isStringConversion(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := call.Fun.(*ast.Ident)
	return ok && id.Name == "string" && len(call.Args) == 1
}
