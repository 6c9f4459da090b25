package requests

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/kedit/kedit/internal/escape"
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

// TestEveryRowReadableAt80And100: on a teacher's projector, 80 or 100
// columns wide, no line is wider than the pane, and the strip under the
// rows says the selected row whole, wrapped at words: its path, versions,
// status, time taken and what happened (a 409's both versions, a watch
// event's writer, who sent it).
func TestEveryRowReadableAt80And100(t *testing.T) {
	rows := conversation()
	rows[0].By = "demo-writer"
	for _, w := range []int{80, 100} {
		m := New(DefaultKeyMap(), common.NewStyles())
		m.SetSize(w, 22)
		m.SetRows(rows)
		for i := len(rows) - 1; i >= 0; i-- {
			out := ansi.Strip(m.View())
			lines := strings.Split(out, "\n")
			for _, l := range lines {
				if ansi.StringWidth(l) > w {
					t.Errorf("%d columns: a line %d wide: %s", w, ansi.StringWidth(l), l)
				}
			}
			rule := -1
			for j, l := range lines {
				if strings.HasPrefix(l, "───") {
					rule = j
				}
			}
			if rule < 0 {
				t.Fatalf("%d columns: no strip:\n%s", w, out)
			}
			said := strings.Join(strings.Fields(strings.Join(lines[rule+1:], " ")), " ")
			if want := Meaning(rows[i]); said != want {
				t.Errorf("%d columns, row %d: the strip says\n%q\nwant\n%q", w, i+1, said, want)
			}
			m, _ = press(t, m, runes("k"))
		}
	}
	if got := Meaning(rows[2]); got != "PUT 409 Conflict: the server holds rv 204; this write was based on 202; rv sent 202; took 3ms; at 03:04:05.000; /api/v1/namespaces/ns/configmaps/testmap" {
		t.Errorf("the 409 in words: %q", got)
	}
	if got := Meaning(rows[1]); got != "WATCH MODIFIED rv 204 by demo-writer; at 03:04:05.000; /api/v1/namespaces/ns/configmaps/testmap" {
		t.Errorf("the watch event in words: %q", got)
	}
	if got := Meaning(rows[0]); !strings.Contains(got, "GET 200; rv sent none, rv back 202; took 2ms; at 03:04:05.000, sent by demo-writer; /api/") {
		t.Errorf("the writer's GET in words: %q", got)
	}
}

// TestRowsScrollSideways: at 80 columns the rows' last columns are cut
// with a "…"; l and → scroll them as the object view's body scrolls,
// the time and the method kept in place, until the 409's explanation ends
// in view; h and ← scroll back. The footer names the keys while a row is
// wider than the pane.
func TestRowsScrollSideways(t *testing.T) {
	m := New(DefaultKeyMap(), common.NewStyles())
	m.SetSize(80, 22)
	m.SetRows(conversation())
	// The 409's row: the third under the title and the heading.
	row := func(m Model, _ string) string {
		return strings.TrimRight(strings.Split(ansi.Strip(m.View()), "\n")[4], " ")
	}
	unscrolled := row(m, "PUT")
	if l := unscrolled; !strings.HasSuffix(l, "…") || strings.Contains(l, "this write was based on 202") {
		t.Fatalf("at 80 columns the 409's row is not cut with a …: %q", l)
	}
	var help []string
	for _, b := range m.ShortHelp() {
		help = append(help, b.Help().Key)
	}
	if !strings.Contains(strings.Join(help, " "), "→/l") {
		t.Errorf("the footer does not name →/l: %v", help)
	}
	for _, k := range []tea.KeyMsg{runes("l"), {Type: tea.KeyRight}, runes("l"), runes("l"), runes("l")} {
		m, _ = press(t, m, k)
	}
	l := row(m, "PUT")
	if !strings.HasPrefix(l, "03:04:05.000 PUT    …") || !strings.HasSuffix(l, "this write was based on 202") {
		t.Errorf("scrolled to the right end, the 409's row: %q", l)
	}
	for _, k := range []tea.KeyMsg{runes("h"), {Type: tea.KeyLeft}, runes("h"), runes("h"), runes("h")} {
		m, _ = press(t, m, k)
	}
	if l := row(m, "PUT"); l != unscrolled {
		t.Errorf("scrolled back, the 409's row: %q", l)
	}
}

// TestBodiesHeadingOnceAndLongLinesCut: the bodies' heading names the
// media type once; a line wider than the pane (a Status's message) ends
// in "…" and l shows its end; the title and the lines above the bodies
// wrap at words.
func TestBodiesHeadingOnceAndLongLinesCut(t *testing.T) {
	m := New(DefaultKeyMap(), common.NewStyles())
	m.SetSize(80, 22)
	m.SetRows(conversation()[:3])
	message := `  "message": "Operation cannot be fulfilled on configmaps \"testmap\": the object has been modified; please apply your changes to the latest version and try again",`
	m.ShowDetail(Detail{Seq: 3, Title: "PUT /api/v1/namespaces/ns/configmaps/testmap?fieldManager=kedit&fieldValidation=Strict: 409 Conflict",
		Lines:       []escape.Text{"the server holds rv 204; this write was based on 202; kedit read theirs and rebases onto it"},
		ContentType: "application/json", Request: `{"metadata": {"resourceVersion": "202"}}`, Answer: escape.Text("{\n" + message + "\n}")})
	out := ansi.Strip(m.View())
	if strings.Count(out, "request body") != 1 || !strings.Contains(out, "request body (application/json)") {
		t.Errorf("the request body's heading is not said once with its type:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if ansi.StringWidth(l) > 80 {
			t.Errorf("a line %d wide: %s", ansi.StringWidth(l), l)
		}
		if strings.Contains(l, `"message"`) && !strings.HasSuffix(strings.TrimRight(l, " "), "…") {
			t.Errorf("the message's line is cut without a …: %q", l)
		}
	}
	if flat := strings.Join(strings.Fields(out), " "); !strings.Contains(flat, "kedit read theirs and rebases onto it") || !strings.Contains(flat, "409 Conflict") {
		t.Errorf("the lines above the bodies are cut:\n%s", out)
	}
	for range 4 {
		m, _ = press(t, m, runes("l"))
	}
	if out := ansi.Strip(m.View()); !strings.Contains(out, `try again",`) {
		t.Errorf("l does not show the message's end:\n%s", out)
	}
}
