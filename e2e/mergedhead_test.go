package e2e

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kedit/kedit/kube/kubetest"
)

// budgetCRD is a kind whose rule no single edit breaks but two edits
// together may: spec.a and spec.b add up to 10 at most.
var budgetCRD = kubetest.CRD("mergedhead.kedit.test", "budgets", "budget", "Budget", `x-kubernetes-validations:
- rule: "self.a + self.b <= 10"
  message: a and b together are at most 10
properties:
  a: {type: integer}
  b: {type: integer}
`)

// TestE2EMergedResultHeadSaysTheSchemasWord: mine raises a, the other
// writer raises b, each within the rule; the save meets the conflict and
// the clean merge has both, which the rule refuses. e on the rebase's
// view opens the merged result with the reason at its top, on the line
// of the field the rule is of; nothing is sent meanwhile. The user
// lowers a there, which becomes the draft; the next e opens it with no
// reason, and the resubmit lands.
func TestE2EMergedResultHeadSaysTheSchemasWord(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.CreateCustom(t, ns, budgetCRD, "apiVersion: mergedhead.kedit.test/v1\nkind: Budget\nmetadata:\n  name: plan\nspec:\n  a: 1\n  b: 1\n")
	editor, set := switchableEditor(t)
	term := newKeditEnv(t, editor).run(t, 200, 50, "-n", ns, "budget/plan")
	term.waitFor(screenWait, "Budget/plan", "apiVersion: ")

	set(`sed -i 's/^  a: 1$/  a: 6/' "$1"`)
	term.editAndWait("unsaved draft", "a: 6")
	kubetest.MustKubectl(t, "-n", ns, "patch", "budget", "plan", "--type=merge", "-p", `{"spec":{"b":6}}`)
	term.waitFor(screenWait, "changed on server")
	term.send("s")
	term.waitFor(screenWait, "clean rebase: 2 changes merged onto theirs")

	dir := t.TempDir()
	seen := filepath.Join(dir, "seen.yaml")
	set(`cp "$1" '` + seen + `'
sed -i 's/^  a: 6$/  a: 4/' "$1"`)
	term.send("e")
	file := string(waitFile(t, seen, func(b []byte) bool { return len(b) > 0 }))
	lines := strings.Split(file, "\n")
	if !strings.Contains(file, "# kedit: the merged result is refused") || !strings.Contains(file, "a and b together are at most 10") {
		t.Fatalf("the merged result's file has no reason at its top:\n%s", file)
	}
	// The reason names the line of spec, which the rule is of, in the
	// file itself, and the rule's message, no value.
	m := regexp.MustCompile(`(?m)^# line (\d+): spec: a and b together are at most 10$`).FindStringSubmatch(file)
	if m == nil {
		t.Fatalf("the reason names no line:\n%s", file)
	}
	if n, _ := strconv.Atoi(m[1]); n < 1 || n > len(lines) || lines[n-1] != "spec:" {
		t.Fatalf("the reason names line %s, which is not spec's:\n%s", m[1], file)
	}
	if !strings.Contains(file, "  a: 6\n") || !strings.Contains(file, "  b: 6\n") {
		t.Fatalf("the file is not the merged result:\n%s", file)
	}
	if out := kubetest.MustKubectl(t, "-n", ns, "get", "budget", "plan", "-o", "jsonpath={.spec.a} {.spec.b}"); out != "1 6" {
		t.Fatalf("opening the merged result sent something: the server holds a b = %s", out)
	}
	term.waitFor(screenWait, "rebased draft: s resubmits")

	again := filepath.Join(dir, "again.yaml")
	set(`cp "$1" '` + again + `'`)
	term.send("e")
	file = string(waitFile(t, again, func(b []byte) bool { return len(b) > 0 }))
	if strings.Contains(file, "# kedit:") || strings.Contains(file, "at most 10") || !strings.Contains(file, "  a: 4\n") {
		t.Fatalf("the text the schema takes opens with a reason, or without the user's edit:\n%s", file)
	}
	term.waitFor(screenWait, "no change")
	term.send("s")
	term.waitGone(screenWait, "unsaved draft")
	if out := kubetest.MustKubectl(t, "-n", ns, "get", "budget", "plan", "-o", "jsonpath={.spec.a} {.spec.b}"); out != "4 6" {
		t.Fatalf("after the resubmit the server holds a b = %s, want 4 6", out)
	}
}
