package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportsPointOneWay holds the house's one-way imports (ARCHITECTURE.md):
// internal/cluster (the app's ui.Cluster) may use ui, kube, model and
// diff, and none of them it; ui may use kube, model and diff, and
// internal/demo for the demo writer's reports; kube may use model and
// diff, and source for an object's source hints (kube.SourceHints);
// source uses no cluster; internal/demo is used by ui and the commands
// alone, and uses neither; model and diff do no I/O of an API client and
// know no terminal, so that they test without either. Each rule is
// checked on every package's whole dependency graph, so an import through
// a third package counts too.
func TestImportsPointOneWay(t *testing.T) {
	t.Parallel()
	const mod = "github.com/kedit/kedit"
	terminal := []string{"github.com/charmbracelet/bubbletea", "github.com/charmbracelet/lipgloss", "github.com/charmbracelet/bubbles"}
	client := []string{"k8s.io/client-go/rest", "k8s.io/client-go/dynamic", "k8s.io/client-go/kubernetes", "k8s.io/client-go/tools/cache"}
	// internal/cluster is the app's ui.Cluster, which the commands build
	// and hand to the app: it may use ui, kube, model and internal/*, and
	// none of them may use it.
	opener := mod + "/internal/cluster"
	// internal/demo is kedit demo's cluster and second writer: the
	// commands start it, and the app reads its writer's reports.
	demo := mod + "/internal/demo"
	rules := []struct {
		pkgs      string // a pattern for go list
		forbidden []string
	}{
		{"./model/...", append(append([]string{mod + "/kube", mod + "/ui", mod + "/internal/drafts", mod + "/source", opener, demo}, terminal...), client...)},
		{"./diff/...", append(append([]string{mod + "/model", mod + "/kube", mod + "/ui", mod + "/source", opener, demo}, terminal...), client...)},
		// kube reads an object's source hints with source (kube.SourceHints),
		// which never reads the cluster.
		{"./kube/...", append([]string{mod + "/ui", opener, demo}, terminal...)},
		{"./ui/...", []string{opener}},
		{"./internal/drafts", []string{"k8s.io/", mod + "/kube", mod + "/model", mod + "/ui"}},
		{"./internal/demo/...", append([]string{mod + "/ui", opener}, terminal...)},
		// source reads and writes manifests: no cluster, no terminal.
		{"./source/...", append(append([]string{mod + "/kube", mod + "/ui", opener, demo}, terminal...), client...)},
	}
	golist := func(args ...string) []string {
		out, err := exec.Command("go", append([]string{"list"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.Fields(string(out))
	}
	for _, r := range rules {
		// The packages' libraries: a generator's program (package main,
		// run by go generate) is not part of kedit.
		libs := golist("-f", `{{if ne .Name "main"}}{{.ImportPath}}{{end}}`, r.pkgs)
		for _, dep := range golist(append([]string{"-deps", "-f", "{{.ImportPath}}"}, libs...)...) {
			for _, f := range r.forbidden {
				if dep == f || strings.HasPrefix(dep, strings.TrimSuffix(f, "/")+"/") || (strings.HasSuffix(f, "/") && strings.HasPrefix(dep, f)) {
					t.Errorf("%s depends on %s", r.pkgs, dep)
				}
			}
		}
	}

	// The views: each package under ui/ is a view (or a component, or
	// what the views share) that the root ui package, App, puts together.
	// None imports ui, kube or another view: a view gets what it draws as
	// values and answers with intents. What they may share is listed.
	shared := map[string]bool{
		mod + "/ui/common":             true, // styles, bindings, shared intents, the question, drawing server text
		mod + "/ui/textedit":           true, // the text editor component
		mod + "/ui/pager":              true, // the body that scrolls under a header
		mod + "/ui/list":               true, // a list's selection and the rows in view
		mod + "/ui/pasteinput":         true,
		mod + "/ui/internal/benchkeys": true,
	}
	// The app's own parts: packages only the root ui package imports,
	// which may read kube's values (the typed errors) and build the views'
	// values.
	appOnly := map[string]bool{
		mod + "/ui/internal/effect":     true, // the app's I/O: its tea.Cmd builders and their messages
		mod + "/ui/internal/say":        true, // what the app says of outcomes
		mod + "/ui/internal/editfile":   true, // the $EDITOR file and its head
		mod + "/ui/internal/wire":       true, // the request log as the request pane and the tour draw it
		mod + "/ui/internal/sourceplan": true, // an object's source found, its edit planned, as the views say them
	}
	for _, line := range strings.Split(strings.TrimSpace(strings.Join(golist("-f", `{{.ImportPath}}:{{join .Imports ","}}`, "./ui/..."), "\n")), "\n") {
		pkg, imports, _ := strings.Cut(line, ":")
		if pkg == mod+"/ui" {
			continue
		}
		for _, imp := range strings.Split(imports, ",") {
			switch {
			case pkg == mod+"/ui/internal/effect" && (imp == mod+"/ui/internal/editfile" || imp == mod+"/ui/internal/sourceplan"):
				// The app's I/O runs $EDITOR on its file and plans the
				// source's edits in commands; neither part uses effect.
			case appOnly[imp]:
				t.Errorf("%s imports %s: only the app uses it", pkg, imp)
			case appOnly[pkg] && (imp == mod+"/kube" || strings.HasPrefix(imp, mod+"/kube/")):
			case appOnly[pkg] && strings.HasPrefix(imp, mod+"/ui/") && !appOnly[imp]:
				// The app's own parts build the views' values.
			case imp == mod+"/ui", imp == mod+"/kube", strings.HasPrefix(imp, mod+"/kube/"):
				t.Errorf("%s imports %s: a view gets what it draws as values from the app", pkg, imp)
			case strings.HasPrefix(imp, mod+"/ui/") && !shared[imp]:
				t.Errorf("%s imports %s: no view imports another view (ui/common holds what they share)", pkg, imp)
			case pkg == mod+"/ui/common" && strings.HasPrefix(imp, mod+"/ui/"):
				t.Errorf("%s imports %s: what the views share imports none of them", pkg, imp)
			}
		}
	}
}

// TestUIRootIsTheCoordinator holds ui/'s root package to the app's
// coordination (App, the open objects, the table of views, the intents
// and outcomes): at most 25 non-test files, what else it needs living in
// packages below it (the views, ui/internal/say, ui/internal/editfile ...),
// so that a reader finds the app's few parts at a glance.
func TestUIRootIsTheCoordinator(t *testing.T) {
	t.Parallel()
	const most = 25
	files, err := filepath.Glob("ui/*.go")
	if err != nil {
		t.Fatal(err)
	}
	var prod []string
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") {
			prod = append(prod, filepath.Base(f))
		}
	}
	if len(prod) > most {
		t.Errorf("ui/ has %d non-test files at its root, at most %d: move what is not the app's coordination into a package below it\n%s",
			len(prod), most, strings.Join(prod, " "))
	}
}

// TestBuildLinksNoPlugin: the binary built with the Makefile's tags
// (buildtags) links no Go plugin loader, whose `plugin` package makes the
// linker export every symbol and keeps tens of mebibytes more of the
// binary resident.
func TestBuildLinksNoPlugin(t *testing.T) {
	tags, err := os.ReadFile("buildtags")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "list", "-tags", strings.TrimSpace(string(tags)), "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "plugin" {
			t.Fatal("kedit links the plugin package")
		}
	}
}
