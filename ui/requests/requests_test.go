package requests

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/ui/common"
)

var at = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// conversation is a save's: the watch's event of the other writer, the
// PUT refused 409, and the resubmit.
func conversation() []Row {
	return []Row{
		{Seq: 1, Time: at, Method: "GET", Path: "/api/v1/namespaces/ns/configmaps/testmap", Status: "200", ReturnedRV: "202", Latency: 2 * time.Millisecond},
		{Seq: 2, Time: at, Method: "WATCH", Path: "/api/v1/namespaces/ns/configmaps/testmap", Said: "MODIFIED rv 204 by demo-writer"},
		{Seq: 3, Time: at, Method: "PUT", Path: "/api/v1/namespaces/ns/configmaps/testmap", SentRV: "202", Status: "409 Conflict", Failed: true,
			Latency: 3 * time.Millisecond, Said: "the server holds rv 204; this write was based on 202"},
		{Seq: 4, Time: at, Method: "PUT", Path: "/api/v1/namespaces/ns/configmaps/testmap", SentRV: "204", Status: "200", ReturnedRV: "205", Latency: time.Millisecond},
	}
}

func press(t *testing.T, m Model, k tea.KeyMsg) (Model, tea.Msg) {
	t.Helper()
	m, cmd := m.Update(k)
	if cmd == nil {
		return m, nil
	}
	return m, cmd()
}

func runes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// TestRowsNewestLastAndTheBodies: the pane lists the rows it is handed,
// newest last and selected, the 409's line whole; a new row keeps the
// newest selected, and a row chosen stays chosen; enter asks for the
// selected request's bodies, shows them when handed, and esc goes back;
// L and esc close the pane.
func TestRowsNewestLastAndTheBodies(t *testing.T) {
	m := New(DefaultKeyMap(), common.NewStyles())
	m.SetSize(160, 12)
	m.SetRows(conversation()[:3])
	out := ansi.Strip(m.View())
	for _, want := range []string{"3 rows, newest last", "WATCH", "MODIFIED rv 204 by demo-writer",
		"PUT    /api/v1/namespaces/ns/configmaps/testmap 202      409 Conflict          3ms      the server holds rv 204; this write was based on 202"} {
		if !strings.Contains(out, want) {
			t.Errorf("the pane lacks %q:\n%s", want, out)
		}
	}
	if r, _ := m.Selected(); r.Seq != 3 {
		t.Errorf("selected row %d, want the newest, 3", r.Seq)
	}
	m.SetRows(conversation())
	if r, _ := m.Selected(); r.Seq != 4 {
		t.Errorf("after a new row, row %d is selected, want the newest, 4", r.Seq)
	}
	m, _ = press(t, m, runes("k"))
	m.SetRows(append(conversation(), Row{Seq: 5, Method: "GET"}))
	if r, _ := m.Selected(); r.Seq != 3 {
		t.Errorf("after a new row, row %d is selected, want the one chosen, 3", r.Seq)
	}
	m, got := press(t, m, tea.KeyMsg{Type: tea.KeyEnter})
	if got != (ShowRequestMsg{Seq: 3}) {
		t.Fatalf("enter asks %#v", got)
	}
	m.ShowDetail(Detail{Seq: 3, Title: "PUT /api/v1/namespaces/ns/configmaps/testmap: 409 Conflict",
		Request: `{"metadata": {"resourceVersion": "202"}}`, Answer: `{"reason": "Conflict"}`})
	out = ansi.Strip(m.View())
	for _, want := range []string{"request body", `"resourceVersion": "202"`, "answer's body", `"reason": "Conflict"`} {
		if !strings.Contains(out, want) {
			t.Errorf("the bodies lack %q:\n%s", want, out)
		}
	}
	m, got = press(t, m, tea.KeyMsg{Type: tea.KeyEsc})
	if got != nil || m.ShowingDetail() {
		t.Errorf("esc on the bodies: %#v, showing %v", got, m.ShowingDetail())
	}
	for _, k := range []tea.KeyMsg{runes("L"), {Type: tea.KeyEsc}} {
		if _, got := press(t, m, k); got != (CloseMsg{}) {
			t.Errorf("%s asks %#v", k, got)
		}
	}
}

// TestNothingYetAndNarrow: an empty pane says so; the title counts the
// rows the log let go; on a narrow screen no
// line is wider than it, a long path keeping its end.
func TestNothingYetAndNarrow(t *testing.T) {
	m := New(DefaultKeyMap(), common.NewStyles())
	m.SetSize(60, 8)
	if out := ansi.Strip(m.View()); !strings.Contains(out, "nothing sent yet") {
		t.Errorf("the empty pane:\n%s", out)
	}
	m.SetSize(160, 8)
	m.SetRows(conversation()[1:])
	if out := ansi.Strip(m.View()); !strings.Contains(out, "3 rows, newest last (1 older row let go)") {
		t.Errorf("the title does not count the rows let go:\n%s", out)
	}
	m.SetSize(60, 8)
	for _, l := range strings.Split(m.View(), "\n") {
		if w := ansi.StringWidth(l); w > 60 {
			t.Errorf("a line %d wide: %s", w, ansi.Strip(l))
		}
	}
	if out := ansi.Strip(m.View()); !strings.Contains(out, "…/configmaps/testmap") {
		t.Errorf("the path does not keep its end:\n%s", out)
	}
}
