package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kedit/kedit/internal/words"
	"github.com/kedit/kedit/kube"
	"github.com/kedit/kedit/ui/internal/effect"
)

// g at a set's GitOps question writes the drafts of its GitOps objects to
// their sources, the source diff first, and saves the other drafts as n
// does; y writes the files, and the set is shown again, the GitOps
// objects' drafts kept. b saves them live too. Two objects of one file
// both land in it.
func TestSetGitOpsQuestionWritesTheSource(t *testing.T) {
	for _, tc := range []struct {
		answer string
		// file is each object's file.
		file map[string]string
	}{
		{"g", map[string]string{"a": "a.yaml", "b": "b.yaml"}},
		{"b", map[string]string{"a": "a.yaml", "b": "b.yaml"}},
		{"g", map[string]string{"a": "both.yaml", "b": "both.yaml"}},
	} {
		answer := tc.answer
		t.Run(answer+" "+tc.file["a"], func(t *testing.T) {
			dir := t.TempDir()
			texts := map[string]string{}
			for _, n := range []string{"a", "b"} {
				doc := "# " + n + "\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + n + "\n  namespace: default\ndata:\n  foo: \"1\" # the foo\n"
				if texts[tc.file[n]] != "" {
					doc = "---\n" + doc
				}
				texts[tc.file[n]] += doc
			}
			for f, text := range texts {
				if err := os.WriteFile(filepath.Join(dir, f), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			c := newFakeCluster(t)
			m := setAppWith(t, c, 200, 40, Config{SourceDir: dir}, "a", "b", "c")
			for i, n := range []string{"a", "b"} {
				live, _ := m.set.model.Session(i).Live()
				flux := live.Object.DeepCopy()
				flux.SetLabels(map[string]string{"kustomize.toolkit.fluxcd.io/name": "apps", "kustomize.toolkit.fluxcd.io/namespace": "flux-system"})
				flux.SetResourceVersion("11")
				m = drive(t, m, effect.SetWatched{Event: kube.SetEvent{Member: i, Event: kube.WatchEvent{Type: kube.ObjectModified, Object: flux, ResourceVersion: "11"}}})
				runnerOf(c, n).server = flux.DeepCopy()
			}
			m = setEdit(t, m, func(s string) string { return strings.ReplaceAll(s, `foo: "1"`, `foo: mine`) })
			m = drive(t, m, keys("s")...)
			if m.confirm.kind != confirmSetGitOps || !strings.Contains(plain(m), "g writes them to the source instead, b does both") {
				t.Fatalf("no question offering g:\n%s", plain(m))
			}
			m = drive(t, m, keys(answer)...)
			wantSaves := map[string]int{"g": 0, "b": 1}[answer]
			if runnerOf(c, "a").saves != wantSaves || runnerOf(c, "b").saves != wantSaves || runnerOf(c, "c").saves != 1 {
				t.Fatalf("%s: a saved %d times, b %d, c %d", answer, runnerOf(c, "a").saves, runnerOf(c, "b").saves, runnerOf(c, "c").saves)
			}
			screen := plain(m)
			for _, want := range []string{"write 2 objects (ConfigMap/a in namespace default, ConfigMap/b in namespace default) to their sources (nothing written yet)",
				".data.foo -> " + tc.file["a"], ".data.foo -> " + tc.file["b"], `+  foo: "mine" # the foo`} {
				if !strings.Contains(screen, want) {
					t.Fatalf("the source diff does not show %q:\n%s", want, screen)
				}
			}
			m = drive(t, m, keys("y")...)
			wrote := "wrote " + words.Count(len(texts), "file") + " of the source"
			if m.screen != screenSet || !strings.Contains(string(m.status.Text()), wrote) {
				t.Fatalf("y: screen %d, status %q, want %q", m.screen, m.status.Text(), wrote)
			}
			for f := range texts {
				b, _ := os.ReadFile(filepath.Join(dir, f))
				if n := strings.Count(string(b), `foo: "mine" # the foo`); n != strings.Count(texts[f], "# the foo") {
					t.Errorf("%s has %d of its objects' edits:\n%s", f, n, b)
				}
			}
			if answer == "g" && m.set.model.Session(0).Draft() == nil {
				t.Errorf("g: a's draft is gone")
			}
		})
	}
}
