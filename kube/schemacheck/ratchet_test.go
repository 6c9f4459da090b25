package schemacheck_test

import (
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
)

// dials is a custom kind whose size has a bound and may only grow.
var dials = kubetest.CRD("ratchet.kedit.test", "dials", "dial", "Dial", `properties:
  size:
    type: integer
    maximum: MAX
    x-kubernetes-validations:
    - rule: "self >= oldSelf"
      message: size may only grow
  note: {type: string}
`)

// TestUpdateIsRatchetedAsTheServerDoes: an object written before its
// schema was tightened keeps its refused value through an edit of another
// field, as the server takes it (CRD validation ratcheting), and a rule
// that compares with oldSelf is checked against the object the server
// holds. Each case is judged by the server's strict dry run too.
func TestUpdateIsRatchetedAsTheServerDoes(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	live := "apiVersion: ratchet.kedit.test/v1\nkind: Dial\nmetadata:\n  name: d\n  namespace: " + ns + "\nspec:\n  size: 8\n"
	kubetest.CreateCustom(t, ns, strings.Replace(dials, "MAX", "10", 1), live)
	kubetest.MustKubectlStdin(t, strings.Replace(dials, "MAX", "5", 1), "apply", "-f", "-")
	gvk := schema.GroupVersionKind{Group: "ratchet.kedit.test", Version: "v1", Kind: "Dial"}
	// The server publishes the tightened schema a moment after.
	s := schemaOf(t, gvk)
	if !testwait.Until(30*time.Second, func() bool {
		s = schemaOf(t, gvk)
		return len(s.Check(live)) == 1
	}) {
		t.Fatalf("the tightened schema was not published: a new object of size 8 is not refused: %+v", s.Check(live))
	}
	stored := kubetest.MustKubectl(t, "get", "-n", ns, "dial", "d", "-o", "yaml")
	old := objectOf(t, stored)
	for _, c := range []struct {
		what, from, to string
		want           []string
	}{
		{"another field edited", "  size: 8\n", "  note: hello\n  size: 8\n", nil},
		{"the refused value changed, still refused", "  size: 8\n", "  size: 9\n", []string{"spec.size"}},
		{"the value made smaller, which the rule refuses", "  size: 8\n", "  size: 4\n", []string{"spec.size"}},
		{"the value made valid and not smaller", "  size: 8\n", "  size: 5\n", []string{"spec.size"}},
	} {
		text := strings.Replace(stored, c.from, c.to, 1)
		var got []string
		for _, d := range s.CheckUpdate(text, objectOf(t, text), old) {
			got = append(got, d.Path)
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%s: flagged %q, want %q", c.what, got, c.want)
		}
		out, err := kubetest.KubectlStdin(t, text, "replace", "--dry-run=server", "--validate=strict", "-f", "-")
		if refused := err != nil; refused != (len(c.want) > 0) {
			t.Errorf("%s: the server refused it: %v (%s); kedit flagged %q", c.what, refused, out, got)
		}
	}
}

// objectOf reads text as client-go reads an object: its whole numbers
// are int64.
func objectOf(t *testing.T, text string) map[string]any {
	t.Helper()
	raw, err := sigsyaml.YAMLToJSON([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := utiljson.Unmarshal(raw, &obj); err != nil {
		t.Fatal(err)
	}
	return obj
}
