package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The object view names the object's source under --source before any
// save: the file that holds it, escaped as every text (a file's name is
// the user's disk's, and may hold anything); why none is found; and the
// Helm release that made it, which kedit does not write.
func TestObjectViewNamesTheSource(t *testing.T) {
	dir := t.TempDir()
	name := "cm\x1b]0;x.yaml"
	doc := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: testmap\n  namespace: default\ndata:\n  foo: \"1\"\n  bar: \"1\"\n"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	m, _ := gitOpsApp(t, "Flux", 160, 30, func(c *Config) { c.SourceDir = dir })
	want := `source: from cm\x1b]0;x.yaml (found by search)`
	if out := plain(m); !strings.Contains(out, want) {
		t.Errorf("the object view does not say %q:\n%s", want, out)
	}
	if strings.Contains(m.View(), "\x1b]0;") {
		t.Errorf("the file's name is drawn raw: %q", m.View())
	}

	m, _ = gitOpsApp(t, "Flux", 200, 30, func(c *Config) { c.SourceDir = t.TempDir() })
	if out := plain(m); !strings.Contains(out, "source: none found under ") || !strings.Contains(out, "no plain YAML file and no kustomization here holds an object of that identity") {
		t.Errorf("the object view does not say why no source:\n%s", out)
	}

	m, _ = gitOpsApp(t, "Helm", 200, 30, func(c *Config) { c.SourceDir = dir })
	if out := plain(m); !strings.Contains(out, "comes from the Helm release shop: kedit does not write templates") {
		t.Errorf("the object view does not name the Helm release:\n%s", out)
	}

	// Without --source, an object not opened from a cluster is not
	// searched for.
	m, _ = gitOpsApp(t, "Flux", 160, 30)
	if out := plain(m); strings.Contains(out, "source:") {
		t.Errorf("a source line without --source:\n%s", out)
	}
}
