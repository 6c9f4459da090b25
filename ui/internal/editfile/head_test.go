package editfile

import (
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kedit/kedit/kube/schemacheck"
	"github.com/kedit/kedit/model"
)

// A head put on a draft and taken off gives the draft back byte for
// byte, whatever the draft holds: comments of its own, lines like the
// head's, no final line end, CRLF.
func TestEditorHeadRoundTripKeepsTheDraft(t *testing.T) {
	head := []string{
		HeadLine("kedit: the draft was refused; these lines go when the file is saved"),
		HeadLine("line 9: spec.replicass: unknown field"),
	}
	pieces := []string{"# ", "a: 1", "\n", "\r\n", "  - x", head[0], head[1], "#", "", "ü", "\t", "b: |\n  # not a comment\n"}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 5000 {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		draft := b.String()
		h := head[:r.IntN(len(head)+1)]
		if got := WithoutHead(h, WithHead(h, draft)); got != draft {
			t.Fatalf("case %d: round trip of %q with %d head lines gave %q", i, draft, len(h), got)
		}
	}
}

// TestEditorHeadGoesWhateverTheLineEnds: a file whose editor saved it
// with CRLF line ends (and the draft's lines with them) comes back
// without any of kedit's lines, a few of them deleted or not.
func TestEditorHeadGoesWhateverTheLineEnds(t *testing.T) {
	head := []string{
		schemaLine("/run/user/1000/kedit/edit-1-2.schema.json"),
		HeadLine("kedit: the draft was refused; these lines go when the file is saved"),
		HeadLine("line 9: spec.replicass: unknown field"),
	}
	pieces := []string{"# mine", "a: 1", "  - x", "", "b: |", "  # not a comment"}
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 2000 {
		var lines []string
		for range 1 + r.IntN(6) {
			lines = append(lines, pieces[r.IntN(len(pieces))])
		}
		draft := strings.Join(lines, "\n") + "\n"
		h := head[:1+r.IntN(len(head))]
		file := WithHead(h, draft)
		if r.IntN(3) > 0 {
			// The user deleted a line of the head.
			fl := strings.Split(file, "\n")
			k := r.IntN(len(h))
			file = strings.Join(append(fl[:k:k], fl[k+1:]...), "\n")
		}
		crlf := strings.ReplaceAll(file, "\n", "\r\n")
		got := WithoutHead(h, crlf)
		if want := strings.ReplaceAll(draft, "\n", "\r\n"); got != want {
			t.Fatalf("case %d: %q back as %q, want %q", i, crlf, got, want)
		}
	}
}

// What the user did to the head: a line of it deleted, a comment of
// their own added below it; only kedit's lines go.
func TestEditorHeadTakesOffOnlyItsOwnLines(t *testing.T) {
	head := []string{HeadLine("kedit: refused"), HeadLine("line 4: spec.x: unknown field"), HeadLine("line 5: spec.y: bad")}
	for _, c := range []struct{ in, want string }{
		{"# kedit: refused\n# line 5: spec.y: bad\nspec: {}\n", "spec: {}\n"},
		{"# kedit: refused\n# mine\n# line 5: spec.y: bad\nspec: {}\n", "# mine\n# line 5: spec.y: bad\nspec: {}\n"},
		{"# mine\n# kedit: refused\nspec: {}\n", "# mine\n# kedit: refused\nspec: {}\n"},
		{"spec: {}\n", "spec: {}\n"},
		{"# kedit: refused", "# kedit: refused"},
	} {
		if got := WithoutHead(head, c.in); got != c.want {
			t.Errorf("WithoutHead(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// A reason's words cannot end the head's line or carry an escape.
func TestEditorHeadLineIsOneLine(t *testing.T) {
	if l := HeadLine("spec.x: bad\nvalue\x1b[31m"); strings.ContainsAny(l, "\n\x1b") {
		t.Errorf("headLine = %q", l)
	}
}

// A YAML file's head starts with the line naming the kind's JSON Schema,
// the reasons counted after it; a JSON file's has the reasons alone, and
// so has one whose schema cannot be read.
func TestEditorHeadNamesTheSchemaInYAMLOnly(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	doc := `{"components":{"schemas":{"t":{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"string"}}}},` +
		`"x-kubernetes-group-version-kind":[{"group":"x.example.com","version":"v1","kind":"T"}]}}}}`
	s, err := schemacheck.New([]byte(doc), schema.GroupVersionKind{Group: "x.example.com", Version: "v1", Kind: "T"})
	if err != nil {
		t.Fatal(err)
	}
	head := Head{Refused: []string{"# one"}, RefusedAfterSchema: []string{"# two"},
		Schema: func() (*schemacheck.Schema, error) { return s, nil }}
	lines, path := head.lines(model.FormatYAML)
	if len(lines) != 2 || lines[0] != schemaLine(path) || lines[1] != "# two" {
		t.Fatalf("YAML: %q, %q", lines, path)
	}
	if b, err := os.ReadFile(path); err != nil || !strings.Contains(string(b), `"additionalProperties": false`) {
		t.Fatalf("the schema file: %s, %v", b, err)
	}
	if lines, path := head.lines(model.FormatJSON); len(lines) != 1 || lines[0] != "# one" || path != "" {
		t.Fatalf("JSON: %q, %q", lines, path)
	}
	head.Schema = func() (*schemacheck.Schema, error) { return nil, errors.New("no schema") }
	if lines, path := head.lines(model.FormatYAML); len(lines) != 1 || lines[0] != "# one" || path != "" {
		t.Fatalf("no schema: %q, %q", lines, path)
	}
}

// TestRefusedHeadListsAFieldOnce: whatever the server's causes and the
// schema's diagnostics, each field is one line of the head; a field both
// refuse carries the server's cause and the schema's word together, and
// a Secret's neither.
func TestRefusedHeadListsAFieldOnce(t *testing.T) {
	text := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nspec:\n  replicas: \"3\"\n  image: x\n  policy: Sometimes\n"
	fields := []string{"spec.replicas", "spec.image", "spec.policy", "metadata.name"}
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 2000 {
		var causes []model.FieldCause
		var found []schemacheck.Diagnostic
		server, schema := map[string]bool{}, map[string]bool{}
		for _, f := range fields {
			if r.IntN(2) == 0 {
				causes = append(causes, model.FieldCause{Field: f, Message: "server-word " + f})
				server[f] = true
			}
			if r.IntN(2) == 0 {
				line := lineOf(text, f[strings.LastIndexByte(f, '.')+1:]+":")
				found = append(found, schemacheck.Diagnostic{Line: line, Path: f, Message: "schema-word " + f})
				schema[f] = true
			}
		}
		secret := r.IntN(4) == 0
		rs := Refusals(text, causes, found, secret)
		head := strings.Join(HeadOf("t", rs, 0), "\n")
		for _, f := range fields {
			n := 0
			for _, r := range rs {
				if r.Field == f || strings.Contains(r.What, "schema-word "+f) {
					n++
				}
			}
			want := 0
			if server[f] || schema[f] {
				want = 1
			}
			if n != want {
				t.Fatalf("case %d: %s is in %d lines of the head, want %d:\n%s", i, f, n, want, head)
			}
			if secret {
				if strings.Contains(head, "server-word") || strings.Contains(head, "schema-word") {
					t.Fatalf("case %d: a Secret's head quotes words:\n%s", i, head)
				}
				continue
			}
			if server[f] && schema[f] && !strings.Contains(head, "server-word "+f+"; the schema: schema-word "+f) {
				t.Fatalf("case %d: %s, refused by both, lacks a word:\n%s", i, f, head)
			}
		}
	}
}

// lineOf is the line of text (from 1) holding sub, 0 for none.
func lineOf(text, sub string) int {
	for i, l := range strings.Split(text, "\n") {
		if strings.Contains(l, sub) {
			return i + 1
		}
	}
	return 0
}
