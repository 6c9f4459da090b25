package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestImportsPointOneWay holds the house's one-way imports (ARCHITECTURE.md):
// internal/cluster (the app's ui.Cluster) may use ui, kube, model and
// diff, and none of them it; ui may use kube, model and diff; kube may use
// model and diff; model and diff do no I/O of an API client and know no
// terminal, so that they test without either. Each rule is checked on
// every package's whole dependency graph, so an import through a third
// package counts too.
func TestImportsPointOneWay(t *testing.T) {
	t.Parallel()
	const mod = "github.com/kedit/kedit"
	terminal := []string{"github.com/charmbracelet/bubbletea", "github.com/charmbracelet/lipgloss", "github.com/charmbracelet/bubbles"}
	client := []string{"k8s.io/client-go/rest", "k8s.io/client-go/dynamic", "k8s.io/client-go/kubernetes", "k8s.io/client-go/tools/cache"}
	// internal/cluster is the app's ui.Cluster, which the commands build
	// and hand to the app: it may use ui, kube, model and internal/*, and
	// none of them may use it.
	opener := mod + "/internal/cluster"
	rules := []struct {
		pkgs      string // a pattern for go list
		forbidden []string
	}{
		{"./model/...", append(append([]string{mod + "/kube", mod + "/ui", mod + "/internal/drafts", opener}, terminal...), client...)},
		{"./diff/...", append(append([]string{mod + "/model", mod + "/kube", mod + "/ui", opener}, terminal...), client...)},
		{"./kube/...", append([]string{mod + "/ui", opener}, terminal...)},
		{"./ui/...", []string{opener}},
		{"./internal/drafts", []string{"k8s.io/", mod + "/kube", mod + "/model", mod + "/ui"}},
		// source reads and writes manifests: no cluster, no terminal.
		{"./source/...", append(append([]string{mod + "/kube", mod + "/ui", opener}, terminal...), client...)},
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
		mod + "/ui/pasteinput":         true,
		mod + "/ui/internal/benchkeys": true,
	}
	// The app's own parts: packages only the root ui package imports,
	// which may read kube's values (the typed errors) but import no view.
	appOnly := map[string]bool{
		mod + "/ui/internal/say": true, // what the app says of outcomes
	}
	for _, line := range strings.Split(strings.TrimSpace(strings.Join(golist("-f", `{{.ImportPath}}:{{join .Imports ","}}`, "./ui/..."), "\n")), "\n") {
		pkg, imports, _ := strings.Cut(line, ":")
		if pkg == mod+"/ui" {
			continue
		}
		for _, imp := range strings.Split(imports, ",") {
			switch {
			case appOnly[imp]:
				t.Errorf("%s imports %s: only the app uses it", pkg, imp)
			case appOnly[pkg] && (imp == mod+"/kube" || strings.HasPrefix(imp, mod+"/kube/")):
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
