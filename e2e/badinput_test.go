package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kedit/kedit/internal/badinput"
	"github.com/kedit/kedit/kube/kubetest"
	"github.com/kedit/kedit/model"
)

// TestE2EBadInputFirstTen drives the corpus's first ten cases through the
// real binary in tmux: $EDITOR leaves the case's text, and the screen must
// name the problem, keep the draft (on screen and in its file) and the
// object on the server must not change.
func TestE2EBadInputFirstTen(t *testing.T) {
	cases := badinput.Cases(t, filepath.Join("..", "testdata", "bad"))[:10]
	for _, c := range cases {
		t.Run(c.File, func(t *testing.T) {
			t.Parallel()
			if c.Via == "open" {
				t.Fatalf("%s fails before the UI: the first ten cases are for the UI", c.File)
			}
			ns := kubetest.Namespace(t)
			typ, name := c.Create(t, ns)
			target := badinput.Resolve(t, ns, typ, name)
			before := badinput.Read(t, target)
			rendered, err := model.RenderYAML(before)
			if err != nil {
				t.Fatal(err)
			}
			text := c.Edited(t, rendered, ns)
			prepared := filepath.Join(t.TempDir(), "draft")
			if err := os.WriteFile(prepared, []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
			env := newKeditEnv(t, editorScript(t, `cat `+shellJoin([]string{prepared})+` > "$1"`))
			term := env.start(t, ns, typ+"/"+name)
			term.editAndWait()
			if c.Via == "save" {
				term.saveExpecting(c.Screen)
			}
			term.waitForText(screenWait, c.Screen)
			term.waitFor(screenWait, "unsaved draft")
			path := env.draft(ns, target.Mapping.Resource.Resource, name, 1)
			if b := waitFile(t, path, func(b []byte) bool { return b != nil && strings.HasSuffix(string(b), text) }); b == nil {
				t.Fatalf("the draft file %s is not there", path)
			}
			if after := badinput.Read(t, target); after == nil || after.GetResourceVersion() != before.GetResourceVersion() {
				t.Errorf("the object changed on the server: rv %s -> %v", before.GetResourceVersion(), after)
			}
		})
	}
}
