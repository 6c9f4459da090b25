package schemacheck_test

import (
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kedit/kedit/internal/testwait"
	"github.com/kedit/kedit/kube/kubetest"
)

// statusKinds are two custom kinds with the same status schema (an enum,
// an integer, a rule): Meter's status is a subresource, Gauge's a field
// like any other.
var statusKinds = kubetest.StatusCRD("statuscheck.kedit.test", "meters", "meter", "Meter", statusSpec, statusSchema, true) + "---\n" +
	kubetest.StatusCRD("statuscheck.kedit.test", "gauges", "gauge", "Gauge", statusSpec, statusSchema, false)

const (
	statusSpec   = "properties:\n  size: {type: integer, maximum: 10}\n"
	statusSchema = `x-kubernetes-validations:
- rule: "!has(self.phase) || self.phase != 'Bad'"
properties:
  phase: {type: string, enum: [Ready, Pending, Bad]}
  count: {type: integer}
`
)

// TestStatusSubresourceIsNotChecked: a custom kind whose status is a
// subresource keeps the server's status on an update of the object and
// validates none of the draft's, so kedit flags nothing there but an
// unknown field (which the strict read refuses); where the status is a
// plain field, it is checked as the server checks it. Each case is
// judged by the server's dry run too.
func TestStatusSubresourceIsNotChecked(t *testing.T) {
	t.Parallel()
	ns := kubetest.Namespace(t)
	kubetest.CreateCustom(t, ns, statusKinds, "")
	object := func(kind, status string) string {
		return "apiVersion: statuscheck.kedit.test/v1\nkind: " + kind + "\nmetadata:\n  name: x\n  namespace: " + ns +
			"\nspec:\n  size: 3\nstatus:\n" + status
	}
	for _, c := range []struct {
		kind, status string
		want         []string // the flagged paths; none: the server takes it
	}{
		{"Meter", "  phase: Weird\n  count: many\n", nil},
		{"Meter", "  phase: Bad\n", nil},
		{"Meter", "  phase: Ready\n  colour: red\n", []string{"status.colour"}},
		{"Gauge", "  phase: Weird\n", []string{"status.phase"}},
		{"Gauge", "  phase: Bad\n", []string{"status"}},
		{"Gauge", "  phase: Ready\n  colour: red\n", []string{"status.colour"}},
	} {
		s := schemaOf(t, schema.GroupVersionKind{Group: "statuscheck.kedit.test", Version: "v1", Kind: c.kind})
		text := object(c.kind, c.status)
		var got []string
		for _, d := range s.Check(text) {
			got = append(got, d.Path)
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%s with status %q: flagged %q, want %q", c.kind, c.status, got, c.want)
		}
		// The server's word on the same text. A kind's schema is served a
		// moment before its objects are taken, so a refusal for that
		// reason is asked again.
		var out string
		var err error
		testwait.Until(30*time.Second, func() bool {
			out, err = kubetest.KubectlStdin(t, text, "create", "--dry-run=server", "--validate=strict", "-f", "-")
			return err == nil || !strings.Contains(out, "the server could not find the requested resource")
		})
		if refused := err != nil; refused != (len(c.want) > 0) {
			t.Errorf("%s with status %q: the server refused it: %v (%s); kedit flagged %q", c.kind, c.status, refused, out, got)
		}
	}
}
