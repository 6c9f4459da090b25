package browser

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kedit/kedit/ui/common"
)

// browserNow is the browser tests' clock: AGE and CHANGED count from it.
var browserNow = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

var configMapsGR = schema.GroupResource{Resource: "configmaps"}

func browserCollection(all bool) Listing {
	where := `in namespace "default"`
	if all {
		where = "in all namespaces"
	}
	return Listing{Resource: "configmaps", GroupResource: configMapsGR, Context: "kind-dev", Namespace: "default",
		Namespaced: true, AllNamespaces: all, Where: where}
}

// row builds an object row created and changed the given time before
// browserNow; a zero changed means no managedFields.
func row(ns, name string, created, changed time.Duration, by string) Row {
	r := Row{Namespace: ns, Name: name, UID: types.UID("uid-" + ns + "-" + name), ResourceVersion: "1",
		Created: browserNow.Add(-created)}
	if changed > 0 {
		r.Changed, r.ChangedBy = browserNow.Add(-changed), by
	}
	return r
}

const day = 24 * time.Hour

// fixtureRows is a namespace as an operator meets it, ordered by name as
// the list delivers rows; with all, three namespaces.
func fixtureRows(all bool) []Row {
	rows := []Row{
		row("default", "kube-root-ca.crt", 30*day, 30*day, "kube-controller-manager"),
		row("default", "no-managed-fields", 10*time.Minute, 0, ""),
		row("default", "orders-settings-with-a-rather-long-name-that-does-not-fit", time.Hour, time.Hour, "kubectl-client-side-apply"),
		row("default", "payments-config", 30*day, 5*time.Minute, "kubectl-edit"),
		row("default", "payments-flags", 2*day, 40*time.Second, "kedit"),
		row("default", "web-frontend", 400*day, 3*time.Hour, "helm"),
	}
	if !all {
		return rows
	}
	return append(rows,
		row("kube-system", "coredns", 90*day, 90*day, "kubeadm"),
		row("kube-system", "kube-proxy", 90*day, 2*day, "kubectl-patch"),
		row("payments-prod", "payments-config", 12*day, 20*time.Minute, "argocd-controller"),
	)
}

// newBrowser returns a browser of w x h listing rows, as SetList and one
// snapshot leave it.
func newBrowser(t testing.TB, w, h int, all bool, rows []Row) Model {
	t.Helper()
	m := New(DefaultKeyMap(), common.NewStyles())
	m.now = func() time.Time { return browserNow }
	m.SetList(browserCollection(all), nil)
	m.SetSize(w, h)
	m, _ = m.Update(SnapshotMsg{List: m.list, Snapshot: Snapshot{
		Rows: rows, Generation: 1, Synced: true,
		Connection: Connection{Text: "connected"},
	}})
	return m
}

// bkey is one key press as Bubble Tea reports it.
func bkey(k string) tea.KeyMsg {
	types := map[string]tea.KeyType{
		"enter": tea.KeyEnter, "esc": tea.KeyEsc, "tab": tea.KeyTab, "backspace": tea.KeyBackspace,
		"up": tea.KeyUp, "down": tea.KeyDown, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
		"home": tea.KeyHome, "end": tea.KeyEnd, "ctrl+u": tea.KeyCtrlU, "ctrl+w": tea.KeyCtrlW,
	}
	if typ, ok := types[k]; ok {
		return tea.KeyMsg{Type: typ}
	}
	if k == " " {
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune(" ")}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// press sends each key to the browser and returns the messages its
// commands emit (the app's to act on), in order.
func press(t testing.TB, m Model, ks ...string) (Model, []tea.Msg) {
	t.Helper()
	var out []tea.Msg
	for _, k := range ks {
		var cmd tea.Cmd
		m, cmd = m.Update(bkey(k))
		if cmd != nil {
			out = append(out, cmd())
		}
	}
	return m, out
}

// typed sends each rune of s as a key.
func typed(s string) []string {
	var ks []string
	for _, r := range s {
		ks = append(ks, string(r))
	}
	return ks
}

func selectedName(m Model) string {
	r, ok := m.Selected()
	if !ok {
		return ""
	}
	return r.Name
}

func TestBrowserFilter(t *testing.T) {
	m := newBrowser(t, 120, 40, false, fixtureRows(false))
	m, _ = press(t, m, "/")
	if !m.InputActive() {
		t.Fatal("/ does not start the filter")
	}
	m, msgs := press(t, m, typed("PAY")...)
	if got := m.Rows(); !reflect.DeepEqual(got, []string{"default/payments-config", "default/payments-flags"}) || len(msgs) != 0 {
		t.Fatalf("filter PAY shows %v (messages %v)", got, msgs)
	}
	if !strings.Contains(m.header(), "2 of 6 objects") {
		t.Errorf("header %q", m.header())
	}
	// j, k, q and ? are text while the filter is typed; arrows move.
	m, msgs = press(t, m, "down")
	if selectedName(m) != "payments-flags" || len(msgs) != 0 {
		t.Errorf("down selects %q", selectedName(m))
	}
	m, _ = press(t, m, "backspace", "backspace")
	if m.Filter() != "P" || len(m.Rows()) != 2 || selectedName(m) != "payments-flags" {
		t.Errorf("after backspaces: filter %q, rows %v, selected %q", m.Filter(), m.Rows(), selectedName(m))
	}
	m, _ = press(t, m, typed("ayments-fq")...)
	if len(m.Rows()) != 0 || !strings.Contains(m.View(), `no name contains "Payments-fq"`) {
		t.Errorf("a filter without matches shows %v:\n%s", m.Rows(), m.View())
	}
	m, _ = press(t, m, "backspace", "enter")
	if m.InputActive() || m.Filter() != "Payments-f" || !reflect.DeepEqual(m.Rows(), []string{"default/payments-flags"}) {
		t.Errorf("enter keeps the filter and gives the keys back: active %v, filter %q, rows %v", m.InputActive(), m.Filter(), m.Rows())
	}
	m, _ = press(t, m, "esc")
	if m.Filter() != "" || len(m.Rows()) != 6 || selectedName(m) != "payments-flags" {
		t.Errorf("esc: filter %q, %d rows, selected %q; want every row and the selection kept", m.Filter(), len(m.Rows()), selectedName(m))
	}
	// esc while typing clears too.
	m, _ = press(t, m, append([]string{"/"}, append(typed("web"), "esc")...)...)
	if m.Filter() != "" || m.InputActive() {
		t.Errorf("esc while typing: filter %q, active %v", m.Filter(), m.InputActive())
	}
	// ctrl+w and ctrl+u edit the filter as in a shell.
	m, _ = press(t, m, append([]string{"/"}, append(typed("kube root"), "ctrl+w")...)...)
	if m.Filter() != "kube " {
		t.Errorf("ctrl+w leaves %q", m.Filter())
	}
	m, _ = press(t, m, "ctrl+u")
	if m.Filter() != "" {
		t.Errorf("ctrl+u leaves %q", m.Filter())
	}
}

// TestBrowserIsAValue: Update returns a new Model and leaves the one it
// was given as it was, as a Bubble Tea model must (a test, or an app that
// keeps the previous model, would otherwise see rows change under it).
func TestBrowserIsAValue(t *testing.T) {
	m := newBrowser(t, 120, 40, true, fixtureRows(true))
	before := m.Rows()
	_, _ = press(t, m, append([]string{"/"}, typed("pay")...)...)
	_, _ = press(t, m, "o", "o")
	_, _ = press(t, m, ":", "n", "s", "enter", "k")
	if got := m.Rows(); !reflect.DeepEqual(got, before) {
		t.Errorf("rows changed under the original: %v, was %v", got, before)
	}
}

func TestBrowserOrder(t *testing.T) {
	m := newBrowser(t, 120, 40, false, fixtureRows(false))
	byName := []string{"kube-root-ca.crt", "no-managed-fields", "orders-settings-with-a-rather-long-name-that-does-not-fit", "payments-config", "payments-flags", "web-frontend"}
	byChange := []string{"payments-flags", "payments-config", "orders-settings-with-a-rather-long-name-that-does-not-fit", "web-frontend", "kube-root-ca.crt", "no-managed-fields"}
	byAge := []string{"no-managed-fields", "orders-settings-with-a-rather-long-name-that-does-not-fit", "payments-flags", "kube-root-ca.crt", "payments-config", "web-frontend"}
	names := func(m Model) []string {
		var out []string
		for _, r := range m.Rows() {
			out = append(out, strings.TrimPrefix(r, "default/"))
		}
		return out
	}
	m, _ = press(t, m, "j") // select no-managed-fields: the selection follows its object
	for i, want := range [][]string{byName, byChange, byAge, byName} {
		if i > 0 {
			m, _ = press(t, m, "o")
		}
		if got := names(m); !reflect.DeepEqual(got, want) {
			t.Errorf("order %s: %v, want %v", m.Order(), got, want)
		}
		if selectedName(m) != "no-managed-fields" {
			t.Errorf("order %s: selected %q", m.Order(), selectedName(m))
		}
		if !strings.Contains(m.bottomLine(), "order: "+m.Order().String()) {
			t.Errorf("bottom line %q", m.bottomLine())
		}
	}
	// The order holds for the rows of later snapshots.
	m, _ = press(t, m, "o")
	rows := append(fixtureRows(false), row("default", "zz-just-changed", time.Minute, time.Second, "kubectl-patch"))
	m, _ = m.Update(SnapshotMsg{List: m.list, Snapshot: Snapshot{Rows: rows, Generation: 2, Synced: true}})
	if got := names(m); got[0] != "zz-just-changed" {
		t.Errorf("a new snapshot in order %s: %v", m.Order(), got)
	}
}

func TestBrowserMoves(t *testing.T) {
	var rows []Row
	for i := range 100 {
		rows = append(rows, row("default", fmt.Sprintf("cm-%03d", i), time.Hour, time.Minute, "kubectl"))
	}
	m := newBrowser(t, 80, 24, false, rows) // 21 rows on the screen
	steps := []struct {
		keys []string
		want string
	}{
		{[]string{"j", "j", "down"}, "cm-003"},
		{[]string{"k", "up"}, "cm-001"},
		{[]string{"up", "up"}, "cm-000"},
		{[]string{"pgdown"}, "cm-021"},
		{[]string{" "}, "cm-042"},
		{[]string{"pgup"}, "cm-021"},
		{[]string{"end"}, "cm-099"},
		{[]string{"down"}, "cm-099"},
		{[]string{"home"}, "cm-000"},
		{[]string{"G"}, "cm-099"},
		{[]string{"g"}, "cm-000"},
	}
	for _, s := range steps {
		m, _ = press(t, m, s.keys...)
		if got := selectedName(m); got != s.want {
			t.Fatalf("after %q: selected %s, want %s", s.keys, got, s.want)
		}
		if !strings.Contains(m.View(), "> "+s.want) {
			t.Fatalf("after %q: %s is not on the screen:\n%s", s.keys, s.want, m.View())
		}
	}
	wheel := func(b tea.MouseButton) tea.MouseMsg {
		return tea.MouseMsg{Button: b, Action: tea.MouseActionPress}
	}
	m, _ = m.Update(wheel(tea.MouseButtonWheelDown))
	m, _ = m.Update(wheel(tea.MouseButtonWheelDown))
	if selectedName(m) != "cm-006" {
		t.Errorf("two wheel notches down select %s", selectedName(m))
	}
	m, _ = m.Update(wheel(tea.MouseButtonWheelUp))
	if selectedName(m) != "cm-003" {
		t.Errorf("a wheel notch up selects %s", selectedName(m))
	}
}

func TestBrowserOpenAndQuit(t *testing.T) {
	m := newBrowser(t, 120, 40, true, fixtureRows(true))
	m, _ = press(t, m, append([]string{"/"}, typed("coredns")...)...)
	m, msgs := press(t, m, "enter") // leaves the filter
	if len(msgs) != 0 {
		t.Fatalf("enter while typing the filter emits %v", msgs)
	}
	_, msgs = press(t, m, "enter")
	if len(msgs) != 1 {
		t.Fatalf("enter emits %v", msgs)
	}
	open, ok := msgs[0].(OpenObjectMsg)
	if !ok {
		t.Fatalf("enter emits %T", msgs[0])
	}
	if open != (OpenObjectMsg{Namespace: "kube-system", Name: "coredns", UID: "uid-kube-system-coredns"}) {
		t.Errorf("open %+v", open)
	}

	// q is the app's to answer; while typing it is text.
	_, msgs = press(t, m, "q")
	if len(msgs) != 1 || !reflect.DeepEqual(msgs[0], common.QuitRequestedMsg{}) {
		t.Errorf("q emits %v", msgs)
	}
	m, msgs = press(t, m, "/", "q")
	if len(msgs) != 0 || m.Filter() != "corednsq" {
		t.Errorf("q while typing the filter: %v, filter %q", msgs, m.Filter())
	}

	// Nothing to open: no message.
	m = newBrowser(t, 80, 24, false, nil)
	if _, msgs := press(t, m, "enter"); len(msgs) != 0 {
		t.Errorf("enter on an empty list emits %v", msgs)
	}
}

// browserTypes is a server's types, as the app hands them over from
// kube.Cluster.Types.
var browserTypes = []Type{
	{Resource: "configmaps", Name: "configmaps", Names: []string{"configmaps", "configmap", "cm"}},
	{Resource: "daemonsets", Name: "daemonsets.apps", Names: []string{"daemonsets", "daemonset", "ds", "daemonsets.apps"}},
	{Resource: "deployments", Name: "deployments.apps", Names: []string{"deployments", "deployment", "deploy", "deployments.apps"}},
	{Resource: "events", Name: "events", Names: []string{"events", "event", "ev"}},
	{Resource: "events", Name: "events.events.k8s.io", Names: []string{"events", "event", "ev", "events.events.k8s.io"}},
	{Resource: "namespaces", Name: "namespaces", Names: []string{"namespaces", "namespace", "ns"}},
	{Resource: "secrets", Name: "secrets", Names: []string{"secrets", "secret"}},
	{Resource: "serviceaccounts", Name: "serviceaccounts", Names: []string{"serviceaccounts", "serviceaccount", "sa"}},
	{Resource: "services", Name: "services", Names: []string{"services", "service", "svc"}},
}
