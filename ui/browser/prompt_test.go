package browser

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kedit/kedit/ui/common"
)

// The browser's : prompt: completion and commands.

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
			if b.prompt.line != want {
				t.Errorf("%q, tab %d: %q, want %q", c.typed, i+1, b.prompt.line, want)
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
	run := func(m Model, line string) (Model, []tea.Msg) {
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
		{Key: common.DraftKey{Resource: configMapsGR, Namespace: "default", Name: "payments-flags"}, Resource: "configmaps", Place: common.DraftStored, Saved: browserNow.Add(-5 * time.Minute)},
		{Key: common.DraftKey{Resource: schema.GroupResource{Group: "apps", Resource: "deployments"}, Namespace: "web", Name: "frontend"}, Resource: "deployments.apps", Place: common.DraftStored},
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
