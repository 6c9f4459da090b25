package browser

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// TestEveryRowCanBeReadAt80Columns: at 80×24, whatever the table cuts of
// a row (a long name, a long namespace, a field manager) is said whole in
// the strip under the rows once the row is selected; a table that cuts
// nothing has no strip.
func TestEveryRowCanBeReadAt80Columns(t *testing.T) {
	long := "orders-settings-with-a-rather-long-name-for-a-configmap"
	rows := []Row{
		row("payments-prod-eu-west-1-blue", long, time.Hour, time.Minute, "kubectl-client-side-apply"),
		row("default", "short", time.Hour, time.Minute, "helm"),
	}
	m := newBrowser(t, 80, 24, true, rows)
	for range rows {
		r, _ := m.Selected()
		out := ansi.Strip(m.View())
		// Wrapped at words, a path on a line of its own.
		whole := strings.Join(strings.Fields(out[strings.Index(out, "────"):]), "")
		want := r.Namespace + "/" + r.Name + ",changedlastby" + r.ChangedBy
		if !strings.Contains(whole, want) {
			t.Errorf("the strip does not say %q:\n%s", want, out)
		}
		m, _ = press(t, m, "down")
	}
	short := newBrowser(t, 80, 24, false, rows[1:])
	if out := ansi.Strip(short.View()); strings.Contains(out, "────") {
		t.Errorf("a strip under a table that cuts nothing:\n%s", out)
	}
}
