package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"sigs.k8s.io/yaml"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
)

// TestE2ERefusedDraftReopensWithItsReasons: a draft saved from $EDITOR
// with a mistyped field is refused; the next e opens the file with the
// reasons as "# " lines at its top (the field, its line in the file);
// the editor fixes the field and the save goes through. The lines never
// reach the draft store or the server. Each time, the file's first line
// names a JSON Schema of the kind (checkSchemaFile), gone on return.
func TestE2ERefusedDraftReopensWithItsReasons(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.MustKubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx")
	editor, set := switchableEditor(t)
	env := newKeditEnv(t, editor)
	term := env.run(t, 200, 50, "-n", ns, "deployment/web")
	term.waitFor(screenWait, "Deployment/web", "apiVersion: ")

	dir := t.TempDir()
	first, schemaCopy, schemaPath := filepath.Join(dir, "first.yaml"), filepath.Join(dir, "schema.json"), filepath.Join(dir, "schema.path")
	set(`cp "$1" '` + first + `'
p=$(sed -n '1s/^# yaml-language-server: \$schema=//p' "$1")
printf %s "$p" > '` + schemaPath + `'
cp "$p" '` + schemaCopy + `'
sed -i 's/imagePullPolicy:/imagePullPolicyy:/' "$1"`)
	term.editAndWait("the schema refuses 1 field")
	checkSchemaFile(t, first, schemaCopy, schemaPath)
	if b := waitFile(t, env.draft(ns, "deployments.apps", "web", 1), holds("imagePullPolicyy")); strings.Contains(string(b), "yaml-language-server") {
		t.Fatalf("the stored draft kept the schema's line:\n%s", b)
	}
	term.send("s")
	term.waitFor(screenWait, "s again sends it")
	term.send("s")
	term.waitFor(screenWait, "the server refused the draft")

	seen := filepath.Join(t.TempDir(), "seen.yaml")
	set(`cp "$1" '` + seen + `'
sed -i -e 's/^\( *\)imagePullPolicyy:/\1imagePullPolicy:/' -e 's/replicas: 1$/replicas: 2/' "$1"`)
	term.send("e")
	file := string(waitFile(t, seen, func(b []byte) bool { return len(b) > 0 }))
	if lines := strings.SplitN(file, "\n", 3); !strings.HasPrefix(lines[0], "# yaml-language-server: $schema=") || !strings.HasPrefix(lines[1], "# kedit: the draft was refused") || !strings.Contains(file, "imagePullPolicyy: unknown field") {
		t.Fatalf("the file the editor saw has no reasons at its top:\n%s", file)
	}
	t.Logf("the file the editor saw:\n%s", strings.Join(strings.SplitN(file, "\n", 5)[:4], "\n"))
	// The reason names the mistyped field's line in the file itself.
	var at string
	for i, l := range strings.Split(file, "\n") {
		if strings.Contains(l, "imagePullPolicyy: Always") {
			at = "# line " + itoa(i+1) + ": "
		}
	}
	if at == "" || !strings.Contains(file, at) {
		t.Fatalf("no reason names the field's line (%q) in:\n%s", at, file)
	}
	draft := waitFile(t, env.draft(ns, "deployments.apps", "web", 1), holds("replicas: 2"))
	if strings.Contains(string(draft), "# kedit: the draft was refused") || strings.Contains(string(draft), "yaml-language-server") || strings.Contains(string(draft), "imagePullPolicyy") {
		t.Fatalf("the stored draft kept the reasons or the typo:\n%s", draft)
	}

	term.send("s")
	term.waitGone(screenWait, "unsaved draft")
	out := kubetest.MustKubectl(t, "-n", ns, "get", "deployment", "web", "-o", "yaml")
	if strings.Contains(out, "kedit: the draft was refused") || strings.Contains(out, "imagePullPolicyy") || !strings.Contains(out, "imagePullPolicy: Always") || !strings.Contains(out, "replicas: 2") {
		t.Fatalf("the server holds:\n%s", out)
	}
}

// checkSchemaFile: the file the editor saw first names, on its first
// line, a JSON Schema file that a JSON Schema validator compiles, that
// takes the object as the file holds it and refuses it with a mistyped
// field; the schema file is gone once the editor returned.
func checkSchemaFile(t *testing.T, first, schemaCopy, schemaPath string) {
	t.Helper()
	b, err := os.ReadFile(first)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), "# yaml-language-server: $schema=/") {
		t.Fatalf("the editor's file has no schema line:\n%s", b)
	}
	p, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	if !testwait.Until(screenWait, func() bool { _, err := os.Stat(string(p)); return errors.Is(err, fs.ErrNotExist) }) {
		t.Errorf("the schema file %s is left after the editor returned", p)
	}
	doc, err := os.ReadFile(schemaCopy)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("kind.schema.json", v); err != nil {
		t.Fatal(err)
	}
	js, err := c.Compile("kind.schema.json")
	if err != nil {
		t.Fatalf("the schema file is not a valid JSON Schema: %v", err)
	}
	var obj any
	if err := yaml.Unmarshal(b, &obj); err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(obj)
	live, _ := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err := js.Validate(live); err != nil {
		t.Fatalf("the schema refuses the object as the editor got it: %v", err)
	}
	typo, _ := jsonschema.UnmarshalJSON(bytes.NewReader(bytes.Replace(raw, []byte(`"imagePullPolicy"`), []byte(`"imagePullPolicyy"`), 1)))
	if js.Validate(typo) == nil {
		t.Fatal("the schema takes a mistyped field")
	}
}
