package ui

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kedit/kedit/kube"
)

// browserNow is the browser tests' clock: AGE and CHANGED count from it.
var browserNow = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

var configMapsGR = schema.GroupResource{Resource: "configmaps"}

func browserCollection(all bool) *kube.Collection {
	return &kube.Collection{
		Context: "kind-dev", Namespace: "default", AllNamespaces: all,
		Mapping: &meta.RESTMapping{
			Resource:         schema.GroupVersionResource{Version: "v1", Resource: "configmaps"},
			GroupVersionKind: schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"},
			Scope:            meta.RESTScopeNamespace,
		},
	}
}

// row builds an object row created and changed the given time before
// browserNow; a zero changed means no managedFields.
func row(ns, name string, created, changed time.Duration, by string) kube.ObjectRow {
	r := kube.ObjectRow{Namespace: ns, Name: name, UID: types.UID("uid-" + ns + "-" + name), ResourceVersion: "1",
		Created: browserNow.Add(-created)}
	if changed > 0 {
		r.Changed, r.ChangedBy = browserNow.Add(-changed), by
	}
	return r
}

const day = 24 * time.Hour

// fixtureRows is a namespace as an operator meets it, ordered by name as
// kube delivers rows; with all, three namespaces.
func fixtureRows(all bool) []kube.ObjectRow {
	rows := []kube.ObjectRow{
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
func newBrowser(t testing.TB, w, h int, all bool, rows []kube.ObjectRow) Browser {
	t.Helper()
	m := NewBrowser(DefaultKeyMap(), NewStyles())
	m.now = func() time.Time { return browserNow }
	m.SetList(browserCollection(all), nil)
	m.SetSize(w, h)
	m, _ = m.Update(snapshotMsg{list: m.list, snap: kube.BrowseSnapshot{
		Rows: rows, Generation: 1, Synced: true,
		Connection: kube.Connection{State: kube.Connected, Since: browserNow},
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
func press(t testing.TB, m Browser, ks ...string) (Browser, []tea.Msg) {
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

func selectedName(m Browser) string {
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

// TestBrowserIsAValue: Update returns a new Browser and leaves the one it
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
	names := func(m Browser) []string {
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
	m, _ = m.Update(snapshotMsg{list: m.list, snap: kube.BrowseSnapshot{Rows: rows, Generation: 2, Synced: true}})
	if got := names(m); got[0] != "zz-just-changed" {
		t.Errorf("a new snapshot in order %s: %v", m.Order(), got)
	}
}

func TestBrowserMoves(t *testing.T) {
	var rows []kube.ObjectRow
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
	tgt := open.Target
	if tgt.Namespace != "kube-system" || tgt.Name != "coredns" || tgt.Context != "kind-dev" || tgt.String() != "configmaps/coredns" || open.UID != "uid-kube-system-coredns" {
		t.Errorf("open %+v uid %s", tgt, open.UID)
	}

	// q is the app's to answer; while typing it is text.
	_, msgs = press(t, m, "q")
	if len(msgs) != 1 || !reflect.DeepEqual(msgs[0], QuitRequestedMsg{}) {
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

// browserTypes is a server's types, as kube.Cluster.Types returns them.
var browserTypes = []kube.ResourceType{
	{Resource: "configmaps", Singular: "configmap", Kind: "ConfigMap", ShortNames: []string{"cm"}, Namespaced: true},
	{Group: "apps", Resource: "daemonsets", Singular: "daemonset", Kind: "DaemonSet", ShortNames: []string{"ds"}, Namespaced: true},
	{Group: "apps", Resource: "deployments", Singular: "deployment", Kind: "Deployment", ShortNames: []string{"deploy"}, Namespaced: true},
	{Resource: "events", Singular: "event", Kind: "Event", ShortNames: []string{"ev"}, Namespaced: true},
	{Group: "events.k8s.io", Resource: "events", Singular: "event", Kind: "Event", ShortNames: []string{"ev"}, Namespaced: true},
	{Resource: "namespaces", Singular: "namespace", Kind: "Namespace", ShortNames: []string{"ns"}},
	{Resource: "secrets", Singular: "secret", Kind: "Secret", Namespaced: true},
	{Resource: "serviceaccounts", Singular: "serviceaccount", Kind: "ServiceAccount", ShortNames: []string{"sa"}, Namespaced: true},
	{Resource: "services", Singular: "service", Kind: "Service", ShortNames: []string{"svc"}, Namespaced: true},
}

func TestBrowserPromptCompletes(t *testing.T) {
	m := newBrowser(t, 120, 40, false, fixtureRows(false))
	m.SetTypes(browserTypes)
	m.SetNamespaces([]string{"default", "kube-public", "kube-system", "payments-prod"}, nil)
	cases := []struct {
		typed string
		tabs  []string // the line after each tab
	}{
		{"cm", []string{"configmaps"}},
		{"deploy", []string{"deployments"}},
		{"Deployment", []string{"deployments"}},
		{"deployments.a", []string{"deployments"}},
		{"se", []string{"secrets", "serviceaccounts", "services", "secrets"}},
		{"serv", []string{"service", "serviceaccounts", "services", "serviceaccounts"}},
		{"ev", []string{"events", "events", "events.events.k8s.io", "events"}},
		{"dr", []string{"drafts"}},
		{"n", []string{"namespaces", "ns", "namespaces"}},
		{"ns", []string{"ns "}},
		{"ns ku", []string{"ns kube-", "ns kube-public", "ns kube-system", "ns kube-public"}},
		{"ns pay", []string{"ns payments-prod"}},
		{"xyz", []string{"xyz"}},
	}
	for _, c := range cases {
		b, _ := press(t, m, append([]string{":"}, typed(c.typed)...)...)
		for i, want := range c.tabs {
			b, _ = press(t, b, "tab")
			if b.prompt != want {
				t.Errorf("%q, tab %d: %q, want %q", c.typed, i+1, b.prompt, want)
				break
			}
		}
	}
	b, _ := press(t, m, append([]string{":"}, append(typed("xyz"), "tab")...)...)
	if !strings.Contains(b.bottomLine(), "no match") {
		t.Errorf("bottom line %q", b.bottomLine())
	}
	b, _ = press(t, m, append([]string{":"}, typed("se")...)...)
	if got := b.bottomLine(); !strings.Contains(got, ":se") || !strings.Contains(got, "secrets  serviceaccounts  services") {
		t.Errorf("bottom line %q does not list the matches", got)
	}
}

func TestBrowserPromptCommands(t *testing.T) {
	m := newBrowser(t, 120, 40, false, fixtureRows(false))
	run := func(m Browser, line string) (Browser, []tea.Msg) {
		t.Helper()
		return press(t, m, append(append([]string{":"}, typed(line)...), "enter")...)
	}
	_, msgs := run(m, "deploy")
	if !reflect.DeepEqual(msgs, []tea.Msg{SwitchTypeMsg{Type: "deploy"}}) {
		t.Errorf(":deploy emits %v", msgs)
	}
	_, msgs = run(m, "ns kube-system")
	if !reflect.DeepEqual(msgs, []tea.Msg{SwitchNamespaceMsg{Namespace: "kube-system"}}) {
		t.Errorf(":ns kube-system emits %v", msgs)
	}
	b, msgs := run(m, "a b c")
	if len(msgs) != 0 || !b.InputActive() || !strings.Contains(b.bottomLine(), "commands: TYPE, ns, ns NAME, drafts") {
		t.Errorf(":a b c emits %v, bottom line %q", msgs, b.bottomLine())
	}

	// :ns asks for the namespaces and offers them, and every namespace.
	b, msgs = run(m, "ns")
	if !reflect.DeepEqual(msgs, []tea.Msg{NamespacesWantedMsg{}}) || !strings.Contains(b.View(), "reading the namespaces ...") {
		t.Fatalf(":ns emits %v and shows:\n%s", msgs, b.View())
	}
	b.SetNamespaces([]string{"default", "kube-system", "payments-prod"}, nil)
	b, _ = press(t, b, typed("pay")...)
	if !strings.Contains(b.View(), "> payments-prod") || strings.Contains(b.View(), "kube-system") {
		t.Errorf("narrowed namespaces:\n%s", b.View())
	}
	_, msgs = press(t, b, "enter")
	if !reflect.DeepEqual(msgs, []tea.Msg{SwitchNamespaceMsg{Namespace: "payments-prod"}}) {
		t.Errorf("picking payments-prod emits %v", msgs)
	}
	b, _ = run(m, "ns")
	b.SetNamespaces([]string{"default"}, nil)
	_, msgs = press(t, b, "enter")
	if !reflect.DeepEqual(msgs, []tea.Msg{SwitchNamespaceMsg{AllNamespaces: true}}) {
		t.Errorf("picking all namespaces emits %v", msgs)
	}
	b, _ = run(m, "ns")
	b.SetNamespaces(nil, fmt.Errorf("not allowed to list namespaces: forbidden"))
	if !strings.Contains(b.View(), "not allowed to list namespaces") {
		t.Errorf("a refused namespace list:\n%s", b.View())
	}
	b, _ = press(t, b, "esc")
	if b.InputActive() {
		t.Error("esc does not leave the picker")
	}

	// :drafts asks for the drafts; enter opens the picked one.
	b, msgs = run(m, "drafts")
	if !reflect.DeepEqual(msgs, []tea.Msg{DraftsWantedMsg{}}) {
		t.Fatalf(":drafts emits %v", msgs)
	}
	drafts := []DraftItem{
		{Key: DraftKey{Resource: configMapsGR, Namespace: "default", Name: "payments-flags"}, Place: DraftStored, Saved: browserNow.Add(-5 * time.Minute)},
		{Key: DraftKey{Resource: schema.GroupResource{Group: "apps", Resource: "deployments"}, Namespace: "web", Name: "frontend"}, Place: DraftStored},
	}
	b.ShowDrafts(drafts, nil)
	if v := b.View(); !strings.Contains(v, "configmaps  default/payments-flags  stored  5m ago") || !strings.Contains(v, "deployments.apps  web/frontend  stored") {
		t.Errorf("the drafts:\n%s", v)
	}
	_, msgs = press(t, b, "down", "enter")
	if !reflect.DeepEqual(msgs, []tea.Msg{OpenDraftMsg{Draft: drafts[1]}}) {
		t.Errorf("picking the second draft emits %v", msgs)
	}
	b.ShowDrafts(nil, nil)
	if !strings.Contains(b.View(), "no stored drafts in this context") {
		t.Errorf("no drafts:\n%s", b.View())
	}

	// esc, or backspace past the colon, leaves the prompt.
	for _, leave := range []string{"esc", "backspace"} {
		b, msgs = press(t, m, ":", leave)
		if b.InputActive() || len(msgs) != 0 {
			t.Errorf("%s: still typing, or %v", leave, msgs)
		}
	}
}

func TestBrowserFollowsSnapshots(t *testing.T) {
	m := newBrowser(t, 120, 40, false, fixtureRows(false))
	m, _ = press(t, m, "j", "j", "j") // payments-config
	// A new object sorts before the selected one: the selection stays on
	// its object.
	rows := append([]kube.ObjectRow{row("default", "aaa-new", time.Second, time.Second, "kubectl-create")}, fixtureRows(false)...)
	m, cmd := m.Update(snapshotMsg{list: m.list, snap: kube.BrowseSnapshot{Rows: rows, Generation: 2, Synced: true}})
	if selectedName(m) != "payments-config" || len(m.Rows()) != 7 {
		t.Errorf("after a creation: selected %q, %d rows", selectedName(m), len(m.Rows()))
	}
	if cmd != nil {
		t.Error("a snapshot of a list without a channel reads on")
	}
	// The selected object is deleted: the selection stays in place.
	var without []kube.ObjectRow
	for _, r := range rows {
		if r.Name != "payments-config" {
			without = append(without, r)
		}
	}
	m, _ = m.Update(snapshotMsg{list: m.list, snap: kube.BrowseSnapshot{Rows: without, Generation: 3, Synced: true}})
	if selectedName(m) != "payments-flags" {
		t.Errorf("after the selected object's deletion: selected %q", selectedName(m))
	}
	// Only the connection changed: the rows are not redone.
	m, _ = m.Update(snapshotMsg{list: m.list, snap: kube.BrowseSnapshot{Rows: nil, Generation: 3, Synced: true,
		Connection: kube.Connection{State: kube.Reconnecting, Since: browserNow}}})
	if len(m.Rows()) != 6 || !strings.Contains(m.header(), "reconnecting since") {
		t.Errorf("a connection change: %d rows, header %q", len(m.Rows()), m.header())
	}
	// A snapshot of a list replaced meanwhile is dropped, and its reader
	// ends.
	old := m.list
	m.SetList(browserCollection(true), nil)
	m, cmd = m.Update(snapshotMsg{list: old, snap: kube.BrowseSnapshot{Rows: rows, Generation: 4, Synced: true}})
	if len(m.Rows()) != 0 || cmd != nil {
		t.Errorf("a stale snapshot shows %d rows, reads on: %v", len(m.Rows()), cmd != nil)
	}
	if !strings.Contains(m.header(), "listing ...") || !strings.Contains(m.View(), "listing configmaps in all namespaces ...") {
		t.Errorf("before the first list:\n%s", m.View())
	}
	// The list ended.
	m, _ = m.Update(listClosedMsg{list: m.list})
	if !strings.Contains(m.header(), "stopped") {
		t.Errorf("header %q after the list closed", m.header())
	}
}

// TestBrowserReadsItsChannel runs the commands SetList returns the way the
// program does: a snapshot on the channel arrives through Update, and the
// next read follows it.
func TestBrowserReadsItsChannel(t *testing.T) {
	m := NewBrowser(DefaultKeyMap(), NewStyles())
	m.SetSize(80, 24)
	ch := make(chan kube.BrowseSnapshot, 1)
	cmd := m.SetList(browserCollection(false), ch)
	ch <- kube.BrowseSnapshot{Rows: fixtureRows(false), Generation: 1, Synced: true}
	batch, ok := cmd().(tea.BatchMsg)
	if !ok || len(batch) != 2 {
		t.Fatalf("SetList's command gives %T", cmd())
	}
	msg := batch[0]()
	if !m.Handles(msg) || m.Handles(tea.KeyMsg{}) {
		t.Fatalf("Handles(%T) is false", msg)
	}
	m, next := m.Update(msg)
	if len(m.Rows()) != 6 || next == nil {
		t.Fatalf("%d rows, next read %v", len(m.Rows()), next != nil)
	}
	close(ch)
	m, next = m.Update(next())
	if next != nil || !strings.Contains(m.header(), "stopped") {
		t.Errorf("a closed channel: header %q, reads on %v", m.header(), next != nil)
	}
	// The age tick goes on while its list is current.
	if _, next := m.Update(ageTickMsg{list: m.list}); next == nil {
		t.Error("the age tick stopped")
	}
	if _, next := m.Update(ageTickMsg{list: m.list - 1}); next != nil {
		t.Error("an old list's age tick goes on")
	}
}

func TestBrowserDraftMarks(t *testing.T) {
	m := newBrowser(t, 120, 40, false, fixtureRows(false))
	m.SetDrafts(map[DraftKey]DraftPlace{
		{Resource: configMapsGR, Namespace: "default", Name: "payments-flags"}: DraftStored,
		{Resource: configMapsGR, Namespace: "default", Name: "web-frontend"}:   DraftInMemory,
		// The same names of another type or namespace are not these objects.
		{Resource: schema.GroupResource{Resource: "secrets"}, Namespace: "default", Name: "payments-config"}: DraftStored,
		{Resource: configMapsGR, Namespace: "other", Name: "kube-root-ca.crt"}:                               DraftStored,
	})
	marks := map[string]string{}
	for _, l := range strings.Split(ansi.Strip(m.View()), "\n") {
		f := strings.Fields(l)
		if len(f) > 1 {
			name, last := f[0], f[len(f)-1]
			if name == ">" {
				name = f[1]
			}
			if last == "stored" || last == "memory" {
				marks[name] = last
			}
		}
	}
	if !reflect.DeepEqual(marks, map[string]string{"payments-flags": "stored", "web-frontend": "memory"}) {
		t.Errorf("draft marks %v:\n%s", marks, m.View())
	}
	if !m.HasDraftInMemory() {
		t.Error("HasDraftInMemory is false")
	}
	m.SetDrafts(nil)
	if m.HasDraftInMemory() {
		t.Error("HasDraftInMemory without drafts")
	}
}

// TestBrowserEscapesServerText: names and managers come from the server;
// none of their control characters reaches the terminal.
func TestBrowserEscapesServerText(t *testing.T) {
	rows := []kube.ObjectRow{row("default", "evil\x1b[2J", time.Hour, time.Minute, "m\x1b]0;x\x07\u202e")}
	m := newBrowser(t, 120, 40, true, rows)
	m.SetDrafts(nil)
	v := m.View()
	if strings.ContainsAny(v, "\x1b\x07\u202e") {
		t.Errorf("raw control characters on the screen: %q", v)
	}
	if !strings.Contains(v, `evil\x1b[2J`) || !strings.Contains(v, `m\x1b]0;x\x07\u202e`) {
		t.Errorf("the escaped name and manager are not shown:\n%s", v)
	}
	m, _ = press(t, m, append([]string{"/"}, typed("EVIL")...)...)
	if len(m.Rows()) != 1 {
		t.Error("the filter does not find the escaped name")
	}
}

func TestBrowserRefused(t *testing.T) {
	m := newBrowser(t, 80, 24, false, nil)
	m, _ = m.Update(snapshotMsg{list: m.list, snap: kube.BrowseSnapshot{Generation: 1, Connection: kube.Connection{
		State: kube.Refused, Since: browserNow,
		Err: fmt.Errorf(`not allowed to list configmaps in namespace "default" (context "kind-dev"): configmaps is forbidden: User "kedit-viewer" cannot list resource "configmaps" in API group "" in the namespace "default"`),
	}}})
	v := m.View()
	if !strings.Contains(v, "refused") || !strings.Contains(v, `not allowed to list configmaps in namespace "default"`) {
		t.Errorf("a refused list:\n%s", v)
	}
}

func TestBrowserGolden(t *testing.T) {
	drafts := map[DraftKey]DraftPlace{
		{Resource: configMapsGR, Namespace: "default", Name: "payments-flags"}: DraftStored,
		{Resource: configMapsGR, Namespace: "default", Name: "web-frontend"}:   DraftInMemory,
	}
	cases := []struct {
		name  string
		build func(t *testing.T, w, h int) Browser
	}{
		{"list", func(t *testing.T, w, h int) Browser {
			m := newBrowser(t, w, h, false, fixtureRows(false))
			m.SetDrafts(drafts)
			m, _ = press(t, m, "j", "j", "j")
			return m
		}},
		{"all_namespaces", func(t *testing.T, w, h int) Browser {
			m := newBrowser(t, w, h, true, fixtureRows(true))
			m.SetDrafts(drafts)
			return m
		}},
		{"filter", func(t *testing.T, w, h int) Browser {
			m := newBrowser(t, w, h, true, fixtureRows(true))
			m, _ = press(t, m, append([]string{"o", "/"}, typed("pay")...)...)
			return m
		}},
		{"prompt", func(t *testing.T, w, h int) Browser {
			m := newBrowser(t, w, h, false, fixtureRows(false))
			m.SetTypes(browserTypes)
			m, _ = press(t, m, ":", "s", "e", "r", "v", "tab")
			return m
		}},
		{"namespaces", func(t *testing.T, w, h int) Browser {
			m := newBrowser(t, w, h, false, fixtureRows(false))
			m, _ = press(t, m, append(append([]string{":"}, typed("ns")...), "enter")...)
			m.SetNamespaces([]string{"default", "kube-public", "kube-system", "payments-prod"}, nil)
			m, _ = press(t, m, "down", "down")
			return m
		}},
		{"listing", func(t *testing.T, w, h int) Browser {
			m := NewBrowser(DefaultKeyMap(), NewStyles())
			m.now = func() time.Time { return browserNow }
			m.SetList(browserCollection(false), nil)
			m.SetSize(w, h)
			return m
		}},
	}
	for _, c := range cases {
		for _, s := range []struct {
			name string
			w, h int
		}{{"80x24", 80, 24}, {"120x40", 120, 40}} {
			t.Run(c.name+"_"+s.name, func(t *testing.T) {
				out := ansi.Strip(c.build(t, s.w, s.h).View())
				if n := strings.Count(out, "\n") + 1; n != s.h {
					t.Errorf("the view has %d lines, want %d", n, s.h)
				}
				for i, l := range strings.Split(out, "\n") {
					if w := ansi.StringWidth(l); w > s.w {
						t.Errorf("line %d is %d wide, more than %d: %q", i+1, w, s.w, l)
					}
				}
				golden.RequireEqual(t, out)
			})
		}
	}
}

// benchRows is n rows with names as a busy namespace has them.
func benchRows(n int) []kube.ObjectRow {
	rng := rand.New(rand.NewPCG(1, 2))
	teams := []string{"payments", "orders", "web", "search", "billing", "auth", "inventory", "shipping"}
	kinds := []string{"config", "flags", "settings", "env", "routes", "limits", "secrets-index", "cache"}
	rows := make([]kube.ObjectRow, n)
	for i := range rows {
		name := fmt.Sprintf("%s-%s-%05d", teams[rng.IntN(len(teams))], kinds[rng.IntN(len(kinds))], i)
		rows[i] = row("default", name, time.Duration(rng.IntN(1000))*time.Hour, time.Duration(rng.IntN(100000))*time.Second, "kubectl-edit")
	}
	// kube delivers rows ordered by namespace and name.
	sortRows(rows)
	return rows
}

func sortRows(rows []kube.ObjectRow) {
	sort.Slice(rows, func(i, j int) bool { return rows[i].Name < rows[j].Name })
}

// BenchmarkBrowserFilterKeystroke is one key typed into the filter at
// 5,000 rows, and the screen drawn after it: the goal is 5 ms. Keys
// alternate between typing and erasing, so every op filters all rows.
func BenchmarkBrowserFilterKeystroke(b *testing.B) {
	m := newBrowser(b, 120, 40, false, benchRows(5000))
	m, _ = press(b, m, "/", "p", "a", "y")
	keys := []tea.KeyMsg{bkey("m"), bkey("backspace")}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		m, _ = m.Update(keys[i%2])
		_ = m.View()
	}
}

// BenchmarkBrowserSnapshot is a new snapshot of 5,000 rows taken and
// drawn: what every change on the server costs the UI.
func BenchmarkBrowserSnapshot(b *testing.B) {
	rows := benchRows(5000)
	m := newBrowser(b, 120, 40, false, rows)
	m, _ = press(b, m, "o") // by last change: a real sort
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		m, _ = m.Update(snapshotMsg{list: m.list, snap: kube.BrowseSnapshot{Rows: rows, Generation: uint64(i + 2), Synced: true}})
		_ = m.View()
	}
}

// TestBrowserKeysTypedTogether: keys typed faster than the terminal is
// read arrive as one message; the first one still opens the prompt or the
// filter, which takes the rest as text.
func TestBrowserKeysTypedTogether(t *testing.T) {
	m := newBrowser(t, 120, 40, false, fixtureRows(false))
	m, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(":deploy")})
	if cmd != nil || m.mode != modePrompt || m.prompt != "deploy" {
		t.Errorf(":deploy at once: mode %d, prompt %q", m.mode, m.prompt)
	}
	m = newBrowser(t, 120, 40, false, fixtureRows(false))
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("/pay")})
	if m.Filter() != "pay" || len(m.Rows()) != 2 {
		t.Errorf("/pay at once: filter %q, rows %v", m.Filter(), m.Rows())
	}
	m = newBrowser(t, 120, 40, false, fixtureRows(false))
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("jj")})
	if selectedName(m) != "orders-settings-with-a-rather-long-name-that-does-not-fit" {
		t.Errorf("jj at once selects %q", selectedName(m))
	}
}
