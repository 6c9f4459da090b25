package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kedit/kedit/kube/schemacheck"
	"github.com/kedit/kedit/model"
	"github.com/kedit/kedit/ui/internal/benchkeys"
	"github.com/kedit/kedit/ui/textedit"
)

// BenchmarkAppKeystrokeDiagnostics is one keystroke in the in-app editor
// on a Deployment of 20 containers whose 20 images the schema refuses
// (one diagnostic on each container's line), the cursor on one of them:
// App.Update and App.View, as BenchmarkAppKeystroke. The check itself
// runs off the UI's goroutine once typing pauses
// (kube/schemacheck's BenchmarkCheckDeployment20); "take" is the app
// taking its result, on the UI's goroutine.
func BenchmarkAppKeystrokeDiagnostics(b *testing.B) {
	c := rebaseCaseNamed(b, "Deployment20")
	benchDiagnosed(b, "", c.base(), "Deployment", schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"},
		func(lines []string) []schemacheck.Diagnostic {
			var found []schemacheck.Diagnostic
			for i, l := range lines {
				if strings.Contains(l, "image: ") {
					found = append(found, schemacheck.Diagnostic{Line: i + 1, Path: fmt.Sprintf("spec.template.spec.containers[%d].image", len(found)),
						Message: "image: 1 is an integer, a string is expected"})
				}
			}
			if len(found) != 20 {
				b.Fatalf("%d images in the text, want 20", len(found))
			}
			return found
		}, "the schema refuses: image")
}

// BenchmarkAppKeystrokeDiagnosticsLarge is BenchmarkAppKeystrokeDiagnostics
// on the large objects: a custom resource whose keyed list holds 1,000
// items, each item's weight refused (1,000 diagnostics), and the 1 MiB
// ConfigMap with one field refused; the cursor on a refused line. The
// checks themselves are kube/schemacheck's BenchmarkCheckLarge.
func BenchmarkAppKeystrokeDiagnosticsLarge(b *testing.B) {
	thing := map[string]any{"apiVersion": "check.kedit.example.com/v1", "kind": "Thing",
		"metadata": map[string]any{"name": "big", "namespace": "default", "resourceVersion": "7"}}
	var entries []any
	for i := range 1000 {
		entries = append(entries, map[string]any{"name": fmt.Sprintf("e%04d", i), "weight": int64(-1)})
	}
	thing["spec"] = map[string]any{"size": int64(3), "entries": entries}
	for _, c := range []struct {
		name  string
		obj   *unstructured.Unstructured
		kind  string
		gvr   schema.GroupVersionResource
		field string
		every bool
	}{
		{"CRD1000", &unstructured.Unstructured{Object: thing}, "Thing", schema.GroupVersionResource{Group: "check.kedit.example.com", Version: "v1", Resource: "things"}, "weight: ", true},
		{"ConfigMap1MiB", rebaseCaseNamed(b, "ConfigMap1MiB").base(), "ConfigMap", schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}, "conf25: ", false},
	} {
		benchDiagnosed(b, c.name+"/", c.obj, c.kind, c.gvr, func(lines []string) []schemacheck.Diagnostic {
			var found []schemacheck.Diagnostic
			for i, l := range lines {
				if strings.Contains(l, c.field) && (c.every || len(found) == 0) {
					found = append(found, schemacheck.Diagnostic{Line: i + 1, Path: "spec.entries[].weight",
						Message: "weight: -1 should be greater than or equal to 0"})
				}
			}
			if c.every && len(found) != 1000 || len(found) == 0 {
				b.Fatalf("%s: %d refused lines", c.name, len(found))
			}
			return found
		}, "the schema refuses: weight")
	}
}

// rebaseCaseNamed is the rebase benchmarks' object of that name.
func rebaseCaseNamed(b *testing.B, name string) rebaseCase {
	for _, rc := range rebaseCases {
		if rc.name == name {
			return rc
		}
	}
	b.Fatalf("no rebase case %s", name)
	return rebaseCase{}
}

// benchDiagnosed runs two benchmarks, named after prefix, on the app open
// on obj (of kind, in resource gvr) in the in-app editor: "take", the
// app taking the schema's diagnostics that refused picks from the text's
// lines, and "keystroke", a keystroke with them drawn, the cursor on the
// middle refused line, whose note says note. The server's checks are on,
// as against a server.
func benchDiagnosed(b *testing.B, prefix string, obj *unstructured.Unstructured, kind string, gvr schema.GroupVersionResource,
	refused func(lines []string) []schemacheck.Diagnostic, note string) {
	lipgloss.SetColorProfile(termenv.TrueColor)
	b.Cleanup(func() { lipgloss.SetColorProfile(termenv.Ascii) })
	r0 := ref
	r0.Kind, r0.Resource = kind, gvr
	sess := model.NewSession(r0)
	if _, _, err := sess.Handle(model.Opened{Object: obj, At: t0}); err != nil {
		b.Fatal(err)
	}
	r := &fakeRunner{server: obj}
	var tm tea.Model = New(Config{Object: &Object{Session: sess, Runner: r, ServerCheck: r.ServerCheck}})
	tm, _ = tm.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	tm, _ = tm.Update(keyMsg("i"))
	m := tm.(App)
	text := m.editor.Text()
	found := refused(strings.Split(text, "\n"))
	msg := diagnosedMsg{drafts: []diagnosis{{of: m.id, text: text, found: found}}, inEditor: true, opening: m.editor.Opening(), version: m.editor.Version()}
	b.Run(prefix+"take", func(b *testing.B) {
		b.ReportAllocs()
		d := make([]time.Duration, 0, b.N)
		for range b.N {
			t0 := time.Now()
			next, _ := m.Update(msg)
			_ = next.(App).View()
			d = append(d, time.Since(t0))
		}
		benchkeys.ReportLatency(b, d)
	})
	next, _ := m.Update(msg)
	m = next.(App)
	m.editor.SetCursor(textedit.Pos{Line: found[len(found)/2].Line - 1, Col: 4})
	if !strings.Contains(m.View(), note) {
		b.Fatalf("%sthe diagnostic at the cursor is not drawn:\n%s", prefix, m.View())
	}
	b.Run(prefix+"keystroke", func(b *testing.B) { benchTyping(b, m) })
}
